// The pure parts of the diagnosis: which secrets are removed, how findings are rendered on
// each surface (terminal lines, markdown with settings links, issue body), the quota headers read, and
// a bad base URL diagnosed without touching the network.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { humanWait, quotaOf } from '../../../src/doctor/context';
import { diagnose } from '../../../src/doctor/diagnose';
import { fixNaming, type DiagnosisReport } from '../../../src/doctor/findings';
import { renderIssueBody, renderMarkdown, renderText, reportJson, settingLink } from '../../../src/doctor/render';
import { secretStrings, secretsRedactor, withoutCredentials } from '../../../src/doctor/secrets';

const report: DiagnosisReport = {
  baseUrl: 'https://api.example.com',
  surface: 'editor',
  startedAt: '2026-11-25T10:00:00.000Z',
  ms: 1234,
  cancelled: false,
  ok: false,
  findings: [
    {
      check: 'baseUrl',
      title: 'base URL',
      status: 'ok',
      found: 'https://api.example.com (https, host api.example.com)',
    },
    {
      check: 'proxyConnect',
      title: 'proxy connection',
      status: 'problem',
      found: 'http://127.0.0.1:9 (from http.proxy) refused the connection: nothing listens there',
      fix: { text: 'check the proxy address in http.proxy', settings: ['http.proxy'] },
    },
    {
      check: 'key',
      title: 'API key',
      status: 'problem',
      found: 'refused (HTTP 401)',
      fix: fixNaming('key', 'editor', 'set a valid key (Developer Index: Set API Key)'),
    },
    { check: 'tls', title: 'TLS', status: 'skipped', found: 'the proxy cannot be reached (above)' },
  ],
};

describe('doctor: secrets', () => {
  it('takes the password (raw and decoded), the userinfo, and a Basic token with its decoded password', () => {
    const token = `Basic ${Buffer.from('bob:p@ss word').toString('base64')}`;
    const s = secretStrings({
      apiKey: 'fc-key-0123456789abcdef',
      proxyUrls: ['http://alice:pa%24s@proxy:8080', undefined, 'http://proxy:3128'],
      proxyAuthorization: token,
    });
    for (const x of ['fc-key-0123456789abcdef', 'alice:pa%24s', 'pa%24s', 'pa$s', token, 'bob:p@ss word', 'p@ss word'])
      assert.ok(s.includes(x), x);
    assert.ok(!s.includes('alice'), 'a user name alone is not a secret');
    const r = secretsRedactor({ apiKey: 'fc-key-0123456789abcdef', proxyUrls: ['http://alice:pa%24s@proxy:8080'] });
    assert.equal(
      r('key fc-key-0123456789abcdef and http://alice:pa%24s@proxy and pa$s'),
      'key [redacted] and http://[redacted]@proxy and [redacted]',
    );
  });
  it('a short password is cut only as a whole token; URLs lose their credentials for display', () => {
    const r = secretsRedactor({ proxyUrls: ['http://u:ab@p:1'] });
    assert.equal(r('about ab cab'), 'about [redacted] cab');
    assert.equal(withoutCredentials('https://user:pw@example.com/x'), 'https://***@example.com/x');
    assert.equal(withoutCredentials('not a url'), 'not a url');
  });
});

describe('doctor: rendering', () => {
  it('terminal: one line a check, the fix under each problem only, a summary', () => {
    const t = renderText(report).split('\n');
    assert.equal(t[0], 'Diagnosis of https://api.example.com');
    assert.match(t[2]!, /^ok {6}base URL: /);
    assert.match(t[3]!, /^problem proxy connection: /);
    assert.equal(t[4], '        fix: check the proxy address in http.proxy');
    assert.match(t[7]!, /^skipped TLS: the proxy cannot be reached/);
    assert.equal(t.filter((l) => l.includes('fix:')).length, 2);
    assert.match(renderText(report), /\n2 problems found \(1\.2 s\)\.\n$/);
  });
  it('markdown: fixes link to the settings and commands they name; found text cannot inject markup', () => {
    const m = renderMarkdown({
      ...report,
      findings: [
        ...report.findings,
        { check: 'service', title: 'service', status: 'ok', found: 'said <img src=x> [x](command:evil) `code`' },
      ],
    });
    assert.match(m, /^# Developer Index: connection diagnosis/);
    assert.match(
      m,
      /## Problem: proxy connection\n\n.*\n\n\*\*Fix:\*\* check the proxy address in http\.proxy\n\nOpen: \[http\.proxy\]\(command:workbench\.action\.openSettings\?%5B%22http\.proxy%22%5D/,
    );
    assert.match(m, /Open: \[Set API Key\]\(command:devIndex\.auth\.setKey/);
    assert.match(m, /said \\<img src=x\\> /, 'HTML is escaped, shown as text');
    assert.doesNotMatch(m, /[^\\]<img/, 'no raw HTML');
    assert.ok(!m.includes('[x](command:evil)'), 'no link from a found text');
    assert.equal(
      settingLink('devIndex.baseUrl'),
      '[devIndex.baseUrl](command:workbench.action.openSettings?%5B%22devIndex.baseUrl%22%5D "Open the setting devIndex.baseUrl")',
    );
  });
  it('JSON: the fix as text; the issue body carries diagnosis, versions and log lines in fences', () => {
    const j = reportJson(report) as { problems: number; findings: Array<{ fix?: unknown }> };
    assert.equal(j.problems, 2);
    assert.equal(j.findings[1]!.fix, 'check the proxy address in http.proxy');
    const body = renderIssueBody(report, { extension: '0.1.0', vscode: '1.139.1', node: 'v24.21.0', os: 'Linux' }, [
      'a ```b',
      'c',
    ]);
    assert.match(body, /### Diagnosis[\s\S]*```\nDiagnosis of https:\/\/api\.example\.com[\s\S]*```/);
    assert.match(body, /- Extension: 0\.1\.0\n- VS Code: 1\.139\.1\n- Node: v24\.21\.0\n- OS: Linux/);
    assert.match(body, /### Log \(last 2 lines\)\n\n```\na '''b\nc\n```/);
  });
});

describe('doctor: reading the service', () => {
  it('the quota left from RateLimit headers, only when it is a number', () => {
    assert.equal(quotaOf({ 'x-ratelimit-remaining': '7', 'x-ratelimit-limit': '50' }), '7 of 50');
    assert.equal(quotaOf({ 'ratelimit-remaining': '3' }), '3');
    assert.equal(quotaOf({ ratelimit: 'limit=10, remaining=4, reset=30' }), '4');
    assert.equal(quotaOf({ 'x-ratelimit-remaining': 'lots' }), undefined);
    assert.equal(quotaOf({}), undefined);
  });
  it('waits in human words, never a day in seconds', () => {
    assert.equal(humanWait(45_000), '45 s');
    assert.equal(humanWait(20 * 60_000), '20 min');
    assert.equal(humanWait(86_400_000), '24 h');
    assert.equal(humanWait(13.5 * 3_600_000), '13 h 30 min');
  });
  it('a base URL that is not a URL: a finding with the fix for the surface; nothing else is tried', async () => {
    const r = await diagnose({ baseUrl: 'api.example.com', surface: 'editor', network: { env: {} } });
    assert.equal(r.findings[0]!.status, 'problem');
    assert.match(r.findings[0]!.found, /not a valid absolute URL/);
    assert.deepEqual(r.findings[0]!.fix!.settings, ['devIndex.baseUrl']);
    assert.ok(
      r.findings
        .filter((f) => ['dns', 'proxyConnect', 'tls', 'service', 'key'].includes(f.check))
        .every((f) => f.status === 'skipped'),
    );
    assert.equal(r.ok, false);
  });
});
