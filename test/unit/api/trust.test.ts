// Trust under real conditions, and its pieces in errors.ts: redaction, key checks,
// Retry-After, 429 waits, the production 400, redirects, deep JSON, proxy and CA resolution.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { explainCoverage } from '../../../src/api/coverage';
import { ApiError, describeDetails, errorFromResponse } from '../../../src/api/errors';
import { parseRetryAfter, retryAfterFromText } from '../../../src/api/errorBody';
import { HttpTransport } from '../../../src/api/http';
import { certificateAuthorities, networkError, resolveProxy } from '../../../src/api/network';
import { boundedJson, valueDepthExceeds } from '../../../src/api/jsonDepth';
import { keyEntryProblem, keyHeaderProblem, makeRedactor, MIN_KEY_LENGTH, redactDeep } from '../../../src/api/redact';
import { withRetry, type Clock } from '../../../src/api/retry';
import { isLoopbackHost } from '../../../src/api/encode';
import { safeHref, externalUrl } from '../../../src/webview/linkPolicy';
import { oneLine } from '../../../src/logLine';

const KEY = 'fc-0123456789abcdef0123456789abcdef';

describe('redaction: the whole key, never a fragment', () => {
  it('replaces the key wherever it occurs, and its JSON-escaped and percent-encoded forms', () => {
    const key = 'sk/odd"key+value=1234';
    const r = makeRedactor(key);
    assert.equal(r(`Bearer ${key} and again ${key}`), 'Bearer [redacted] and again [redacted]');
    assert.equal(r(JSON.stringify({ h: `Bearer ${key}` })), '{"h":"Bearer [redacted]"}');
    assert.equal(r(`?auth=${encodeURIComponent(key)}`), '?auth=[redacted]');
  });
  it('never redacts a fragment: a prefix of the key stays as it is', () => {
    const r = makeRedactor(KEY);
    assert.equal(r(`the key starts ${KEY.slice(0, 10)}`), `the key starts ${KEY.slice(0, 10)}`);
  });
  it('a short key (from a CLI environment) is redacted only as a token of its own: no "Un[redacted]uthorized"', () => {
    const r = makeRedactor('a');
    assert.equal(r('Unauthorized: token a was refused'), 'Unauthorized: token [redacted] was refused');
    const r2 = makeRedactor('auth');
    assert.equal(r2('Unauthorized: Bearer auth'), 'Unauthorized: Bearer [redacted]');
  });
  it('redactDeep reaches keys and values of nested details, bounded in depth', () => {
    const r = makeRedactor(KEY);
    assert.deepEqual(redactDeep([{ path: ['x'], message: `got ${KEY}`, [KEY]: 1 }], r), [
      { path: ['x'], message: 'got [redacted]', '[redacted]': 1 },
    ]);
    let deep: unknown = KEY;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    assert.doesNotThrow(() => JSON.stringify(redactDeep(deep, r)));
  });
  it('redactDeep keeps a parsed "__proto__" as data and goes as deep as it is told', () => {
    const r = makeRedactor(KEY);
    const parsed = JSON.parse(`{"__proto__":{"polluted":"${KEY}"},"a":[[["${KEY}"]]]}`) as unknown;
    const out = redactDeep(parsed, r, 0, 129) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.equal((out as { polluted?: unknown }).polluted, undefined, 'not inherited');
    assert.deepEqual(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, { polluted: '[redacted]' });
    assert.deepEqual(out.a, [[['[redacted]']]]);
    assert.deepEqual(redactDeep({ a: [[['x']]] }, r, 0, 2), { a: ['[…]'] });
  });
  it('errorFromResponse: an HTML title and a first body line that echo the key are redacted (finding 2)', () => {
    const r = makeRedactor(KEY);
    const html = errorFromResponse({
      status: 502,
      bodyText: `<html><head><title>Bad auth Bearer ${KEY}</title></head></html>`,
      contentType: 'text/html',
      nowMs: 0,
      attempts: 1,
      redact: r,
    });
    assert.ok(!html.message.includes(KEY), html.message);
    assert.match(html.message, /\[redacted\]/);
    const text = errorFromResponse({
      status: 500,
      bodyText: `Authorization: Bearer ${KEY}\nmore`,
      nowMs: 0,
      attempts: 1,
      redact: r,
    });
    assert.ok(!text.message.includes(KEY), text.message);
  });
});

describe('keys that cannot be sent, or are too short, are refused at entry', () => {
  it('header-unsafe keys', () => {
    assert.match(keyHeaderProblem(`${KEY}\n`) ?? '', /line break/);
    assert.match(keyHeaderProblem(`${KEY}\u0000`) ?? '', /control character \(U\+0000\)/);
    assert.match(keyHeaderProblem(`${KEY}\u0100`) ?? '', /outside Latin-1 \(U\+0100\)/);
    assert.equal(keyHeaderProblem(`${KEY}é`), undefined, 'Latin-1 can be sent');
  });
  it('keyEntryProblem: short, spaced, unsafe, empty; a real key passes', () => {
    assert.match(keyEntryProblem('abc') ?? '', new RegExp(`at least ${MIN_KEY_LENGTH} characters`));
    assert.match(keyEntryProblem('fc-0123 456789abcdef') ?? '', /no spaces/);
    assert.match(keyEntryProblem(`fc-0123456789abcdef\u2028x`) ?? '', /outside Latin-1/);
    assert.match(keyEntryProblem('   ') ?? '', /Enter the API key/);
    assert.equal(keyEntryProblem(`  ${KEY}  `), undefined);
  });
});

describe('Retry-After: a non-negative number of seconds or an HTTP date, nothing else (finding 5)', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  for (const v of ['-1', '-0', '+5', '5, 7', 'soon', '1e3', '0x10', 'Tue 2026', '2026-11-23T12:00:10Z', '']) {
    it(`${JSON.stringify(v)} counts as absent`, () => assert.equal(parseRetryAfter(v, now), undefined));
  }
  it('seconds and the three HTTP date forms count', () => {
    assert.equal(parseRetryAfter('5', now), 5000);
    assert.equal(parseRetryAfter(' 0 ', now), 0);
    assert.equal(parseRetryAfter('Mon, 23 Nov 2026 12:00:10 GMT', now), 10_000);
    assert.equal(parseRetryAfter('Monday, 23-Nov-26 12:00:10 GMT', now), 10_000);
    assert.equal(parseRetryAfter('Mon Nov 23 12:00:10 2026', now), 10_000);
    assert.equal(
      parseRetryAfter('Mon, 23 Nov 2026 11:00:00 GMT', now),
      0,
      'a past date is no wait, not a negative one',
    );
  });
  it('a huge number is capped, never Infinity', () => {
    assert.ok(Number.isFinite(parseRetryAfter('9'.repeat(400), now)!));
  });
  it('a malformed Retry-After on a 429 means the exponential backoff, not an immediate retry', async () => {
    const waits: number[] = [];
    const clock: Clock = {
      now: () => 0,
      sleep: async (ms) => {
        waits.push(ms);
      },
    };
    let n = 0;
    await withRetry(
      async () => {
        if (++n < 3)
          throw errorFromResponse({
            status: 429,
            bodyText: '{"error":"Rate limit exceeded"}',
            retryAfter: '-1',
            nowMs: 0,
            attempts: n,
          });
        return 'ok';
      },
      { mode: 'spec', clock, random: () => 0, maxRetryAfterMs: 60_000 },
    );
    assert.deepEqual(waits, [2000, 4000]);
  });
});

describe('429: the wait from the header, else retry_after_seconds, else the text', () => {
  const text = JSON.stringify({
    success: false,
    error:
      'Rate limit exceeded. Consumed (req/min): 21, Remaining (req/min): 0. Upgrade your plan at https://x for increased rate limits or please retry after 17s, resets at Mon Nov 23 2026 12:01:00 GMT+0000',
  });
  it('the text alone gives the wait', () => {
    assert.equal(errorFromResponse({ status: 429, bodyText: text, nowMs: 0, attempts: 1 }).retryAfterMs, 17_000);
    assert.equal(retryAfterFromText('please retry after 3 s'), 3000);
  });
  it('the text is ignored when the header is present', () => {
    assert.equal(
      errorFromResponse({ status: 429, bodyText: text, retryAfter: '4', nowMs: 0, attempts: 1 }).retryAfterMs,
      4000,
    );
  });
  it('retry_after_seconds comes before the text, after the header', () => {
    const body = JSON.stringify({ success: false, error: 'please retry after 17s', retry_after_seconds: 9 });
    assert.equal(errorFromResponse({ status: 429, bodyText: body, nowMs: 0, attempts: 1 }).retryAfterMs, 9000);
    assert.equal(
      errorFromResponse({ status: 429, bodyText: body, retryAfter: '2', nowMs: 0, attempts: 1 }).retryAfterMs,
      2000,
    );
    const bad = JSON.stringify({ success: false, error: 'Rate limit exceeded', retry_after_seconds: -3 });
    assert.equal(errorFromResponse({ status: 429, bodyText: bad, nowMs: 0, attempts: 1 }).retryAfterMs, undefined);
  });
  it('a wait from the text is capped like Retry-After: longer than the ceiling is reported, not waited', async () => {
    const body = JSON.stringify({ success: false, error: 'please retry after 3600s, resets at ...' });
    const clock: Clock = {
      now: () => 0,
      sleep: async () => {
        throw new Error('must not wait');
      },
    };
    await assert.rejects(
      withRetry(
        async () => {
          throw errorFromResponse({ status: 429, bodyText: body, nowMs: 0, attempts: 1 });
        },
        { mode: 'spec', clock, random: () => 0, maxRetryAfterMs: 60_000 },
      ),
      (e: ApiError) =>
        e.kind === 'retry-after-too-long' && /\(in 60 min\)/.test(e.message) && !/3600 s/.test(e.message),
    );
  });
});

describe('the production 400 names each field', () => {
  it('"Invalid query parameters" with zod details', () => {
    const details = [
      { code: 'too_big', path: ['k'], message: 'Too big: expected number to be <=100' },
      { code: 'invalid_value', path: ['types', 0], message: 'Invalid option: expected one of "doc"|"issue"' },
      { code: 'unrecognized_keys', keys: ['limit'], path: [], message: 'Unrecognized key: "limit"' },
    ];
    const e = errorFromResponse({
      status: 400,
      bodyText: JSON.stringify({ success: false, error: 'Invalid query parameters', details }),
      nowMs: 0,
      attempts: 1,
    });
    assert.ok(e.message.startsWith('Invalid query parameters (HTTP 400)'), e.message);
    assert.match(e.message, /k: Too big/);
    assert.match(e.message, /types\.0: Invalid option/);
    assert.match(e.message, /limit: Unrecognized key/);
  });
  it('more than 20 issues: the first 20 and a count', () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ path: [`f${i}`], message: 'bad' }));
    const d = describeDetails(many)!;
    assert.match(d, /f19: bad; and 5 more$/);
    assert.doesNotMatch(d, /f20/);
  });
});

describe('redirects are reported as redirects, with the target origin only', () => {
  it('absolute and relative Location', () => {
    const e = errorFromResponse({
      status: 301,
      bodyText: '',
      location: 'https://evil.example:8443/steal?x=1',
      requestUrl: 'https://api.example/v2/x',
      nowMs: 0,
      attempts: 1,
    });
    assert.equal(e.kind, 'redirect');
    assert.equal(e.location, 'https://evil.example:8443');
    assert.match(e.message, /redirect \(HTTP 301\) to https:\/\/evil\.example:8443; redirects are not followed/);
    assert.doesNotMatch(e.message, /steal/);
    assert.equal(
      errorFromResponse({
        status: 307,
        bodyText: '',
        location: '/elsewhere',
        requestUrl: 'https://api.example/v2/x',
        nowMs: 0,
        attempts: 1,
      }).location,
      'https://api.example',
    );
    assert.match(
      errorFromResponse({ status: 302, bodyText: '', nowMs: 0, attempts: 1 }).message,
      /without a usable Location/,
    );
    assert.equal(e.retryable, false);
  });
});

describe('deep JSON never overflows (finding 7)', () => {
  const deepText = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
  let deep: unknown = 1;
  for (let i = 0; i < 50_000; i++) deep = { a: deep };
  it('valueDepthExceeds counts levels (the outermost is one), without overflowing on 50,000', () => {
    assert.equal(valueDepthExceeds(JSON.parse(deepText)), true);
    assert.equal(valueDepthExceeds([[[1]]], 3), false);
    assert.equal(valueDepthExceeds([[[1]]], 2), true);
    assert.equal(valueDepthExceeds({ a: { b: [1, 'x', null] } }, 3), false);
    assert.equal(valueDepthExceeds('[[[[[[', 1), false, 'a string is no nesting');
  });
  it('boundedJson prints a 50,000-level value without overflowing', () => {
    assert.equal(valueDepthExceeds(deep), true);
    const s = boundedJson(deep, 2);
    assert.match(s, /nested deeper than 128 levels/);
  });
  it('the coverage explainer shows a deep unknown coverage value without overflowing', () => {
    const notes = explainCoverage({ query: 'x' }, { results: [], coverage: { wiki: deep } } as never);
    assert.equal(notes.length, 1);
    assert.ok(notes[0]!.text.length < 400);
  });
});

describe('transport failures get messages that say what to set', () => {
  it('a proxy 407 names the proxy settings', () => {
    const e = networkError(
      Object.assign(new Error('Proxy response (407) !== 200 when HTTP Tunneling'), { code: 'UND_ERR_ABORTED' }),
      'https://api.example',
      'http://proxy.corp:3128',
    );
    assert.equal(e.status, 407);
    assert.equal(e.retryable, false);
    assert.match(
      e.message,
      /the proxy http:\/\/proxy\.corp:3128 refused the connection to https:\/\/api\.example: it needs credentials/,
    );
    assert.match(e.message, /http\.proxyAuthorization/);
    assert.match(e.message, /HTTPS_PROXY=http:\/\/user:password@host:port/);
  });
  it('a certificate error names NODE_EXTRA_CA_CERTS and the setting, and is not retried', () => {
    const e = networkError(
      Object.assign(new Error('self-signed certificate in certificate chain'), { code: 'SELF_SIGNED_CERT_IN_CHAIN' }),
      'https://api.example',
    );
    assert.equal(e.retryable, false);
    assert.match(e.message, /certificate is not trusted \(SELF_SIGNED_CERT_IN_CHAIN\)/);
    assert.match(e.message, /NODE_EXTRA_CA_CERTS/);
    assert.match(e.message, /devIndex\.network\.caFile/);
  });
  it('a request undici refuses to build (an invalid header) is never retried', () => {
    assert.equal(
      networkError(
        Object.assign(new Error('invalid authorization header'), { code: 'UND_ERR_INVALID_ARG' }),
        'https://a',
      ).retryable,
      false,
    );
  });
});

describe('proxy resolution: the setting first, then the environment', () => {
  it('nothing configured: direct', () => assert.equal(resolveProxy({ env: {} }), undefined));
  it('http.proxy wins over HTTPS_PROXY; http.noProxy joins NO_PROXY; the authorization is kept', () => {
    const p = resolveProxy({
      proxy: 'http://set:1',
      proxyAuthorization: 'Basic eA==',
      noProxy: ['a.example'],
      env: { HTTPS_PROXY: 'http://env:2', NO_PROXY: 'b.example,.c.example' },
    })!;
    assert.deepEqual(p, {
      source: 'setting',
      httpProxy: 'http://set:1',
      httpsProxy: 'http://set:1',
      noProxy: 'a.example,b.example,.c.example',
      token: 'Basic eA==',
    });
  });
  it('lower-case variables before upper-case ones; HTTP_PROXY serves https when HTTPS_PROXY is unset', () => {
    assert.equal(
      resolveProxy({ env: { https_proxy: 'http://low:1', HTTPS_PROXY: 'http://up:2' } })!.httpsProxy,
      'http://low:1',
    );
    const p = resolveProxy({ env: { HTTP_PROXY: 'http://only:3' } })!;
    assert.equal(p.source, 'environment');
    assert.equal(p.httpsProxy, 'http://only:3');
  });
});

describe('a proxy URL that is not one', () => {
  it('fails the request with a message naming where it came from, never its credentials', async () => {
    const t = new HttpTransport({ network: { proxy: 'user:s3cret@proxy.corp', env: {} } });
    const e = await t
      .send({ method: 'GET', url: 'https://api.example/v2/x', headers: {}, timeoutMs: 1000, maxResponseBytes: 1000 })
      .then(
        () => undefined,
        (x: unknown) => x as ApiError,
      );
    assert.ok(e instanceof ApiError);
    assert.match(e.message, /the proxy in the http\.proxy setting is not a usable URL/);
    assert.doesNotMatch(e.message, /s3cret/);
    assert.equal(e.retryable, false);
    await t.close();
  });
});

describe('certificate authorities', () => {
  const fakeTls = (system: string[] | undefined) => ({
    rootCertificates: ['ROOT'],
    ...(system ? { getCACertificates: (t: 'default' | 'system') => (t === 'system' ? system : ['DEFAULT']) } : {}),
  });
  it("without extras and without a system store: Node's defaults (undefined)", () => {
    assert.equal(certificateAuthorities({ env: {} }, fakeTls(undefined)), undefined);
  });
  it('the OS store is added where this Node offers it (feature-detected)', () => {
    assert.deepEqual(certificateAuthorities({ env: {} }, fakeTls(['SYS'])), ['DEFAULT', 'SYS']);
    assert.equal(certificateAuthorities({ env: {}, systemCertificates: false }, fakeTls(['SYS'])), undefined);
  });
  it('an unreadable or non-PEM file fails with a message naming it', () => {
    assert.throws(
      () => certificateAuthorities({ env: {}, caFile: '/nonexistent/ca.pem' }, fakeTls(undefined)),
      /could not read the certificate authorities in \/nonexistent\/ca\.pem.*ENOENT/,
    );
    const notPem = join(mkdtempSync(join(tmpdir(), 'devindex-ca-')), 'not.pem');
    writeFileSync(notPem, 'hello');
    assert.throws(
      () => certificateAuthorities({ env: {}, caFile: notPem }, fakeTls(undefined)),
      /holds no PEM certificate/,
    );
  });
  it('prepare() gathers them ahead (never throwing); the first https request reports an unreadable file, every time', async () => {
    const t = new HttpTransport({ network: { env: {}, caFile: '/nonexistent/ca.pem' } });
    t.prepare('https://service.invalid');
    t.prepare('http://127.0.0.1:9'); // plain http: nothing to gather, nothing to fail
    const send = () =>
      t.send({
        method: 'GET',
        url: 'https://service.invalid/v2/search',
        headers: {},
        timeoutMs: 1000,
        maxResponseBytes: 1000,
      });
    for (let i = 0; i < 2; i++) {
      await assert.rejects(
        send(),
        (e: unknown) => e instanceof ApiError && e.code === 'CA_FILE' && /\/nonexistent\/ca\.pem/.test(e.message),
      );
    }
    await t.close();
  });
});

describe('small ones', () => {
  it('loopback hosts', () => {
    for (const h of ['localhost', 'api.localhost', '127.0.0.1', '127.8.9.10', '[::1]'])
      assert.equal(isLoopbackHost(h), true, h);
    for (const h of ['example.com', '10.0.0.1', '127.0.0.1.nip.io', 'localhost.example'])
      assert.equal(isLoopbackHost(h), false, h);
  });
  it('links with credentials are refused (openLink and rendered hrefs)', () => {
    assert.equal(externalUrl('https://github.com@evil.example/'), undefined);
    assert.equal(externalUrl('https://user:pass@example.com/'), undefined);
    assert.equal(safeHref('//u:p@example.com/x', 'https://docs.example/'), undefined);
    assert.equal(externalUrl('https://example.com/a@b'), 'https://example.com/a@b');
  });
  it('log entries are one line', () => {
    assert.equal(
      oneLine('search ok\n[error] forged line\r\nand\u2028more\u001b[2J'),
      'search ok ⏎ [error] forged line ⏎ and ⏎ more[2J',
    );
  });
});
