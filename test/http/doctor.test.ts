// `devindex doctor` (and the diagnosis under it) over loopback, one finding each: working,
// a dead proxy port, a proxy that refuses CONNECT, an untrusted TLS chain and the same trusted through
// the CA setting, a refused key, the keyless quota used up, a bad base URL, silent hosts within the
// time limit, cancellation, clock skew; planted keys and proxy passwords never come out.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startSandbox } from '../../sandbox/server';
import type { ProductionSearchResponse } from '../../sandbox/search/wireTypes';
import { runCli } from '../../src/cli/main';
import type { DoctorOptions } from '../../src/doctor/context';
import { diagnose, TOTAL_LIMIT_MS } from '../../src/doctor/diagnose';
import type { CheckId, DiagnosisReport, Finding } from '../../src/doctor/findings';
import { renderMarkdown, renderText } from '../../src/doctor/render';
import { closedPort } from '../support/ports';
import {
  haveOpenssl,
  makeTestCa,
  startHttpsFront,
  startProxy,
  startRefusingProxy,
  startSilentServer,
  type LoopbackProxy,
  type TestCa,
} from './netHelpers';

const KEY = 'fc-doctor-valid-0123456789abcdef';
const PLANTED_KEY = 'fc-PLANTED-doctor-key-7f3a9c1e5b';
const PLANTED_PASSWORD = 'PLANTED-proxy-pw-4d2e8b';
const FAST: Omit<DoctorOptions, 'signal'> = {
  timeouts: { dns: 1500, proxyConnect: 1500, tls: 1500, service: 3000, key: 3000 },
};

let sb: { url: string; close(): Promise<void> };
let proxy: LoopbackProxy;

interface JsonReport {
  ok: boolean;
  cancelled: boolean;
  baseUrl: string;
  startedAt: string;
  ms: number;
  problems: number;
  findings: Array<{ check: CheckId; title: string; status: string; found: string; fix?: string }>;
}

async function doctor(
  args: string[],
  env: NodeJS.ProcessEnv,
  o: { signal?: AbortSignal; doctor?: Omit<DoctorOptions, 'signal'> } = {},
) {
  const r = { code: -1, out: '', err: '' };
  r.code = await runCli(
    ['doctor', ...args],
    {
      out: (s) => {
        r.out += s;
      },
      err: (s) => {
        r.err += s;
      },
      env,
      ...(o.signal ? { signal: o.signal } : {}),
    },
    { doctor: o.doctor ?? FAST },
  );
  return r;
}
async function doctorJson(
  args: string[],
  env: NodeJS.ProcessEnv,
  o: { signal?: AbortSignal; doctor?: Omit<DoctorOptions, 'signal'> } = {},
) {
  const r = await doctor([...args, '--json'], env, o);
  assert.equal(r.err, '', 'nothing on stderr');
  const json = JSON.parse(r.out) as JsonReport;
  assertShape(json);
  return { ...r, json, of: (c: CheckId) => json.findings.find((f) => f.check === c)! };
}

/** The --json shape: every check once, in order, with a status and a fix under each problem. */
function assertShape(j: JsonReport): void {
  assert.deepEqual(Object.keys(j).sort(), ['baseUrl', 'cancelled', 'findings', 'ms', 'ok', 'problems', 'startedAt']);
  assert.deepEqual(
    j.findings.map((f) => f.check),
    ['baseUrl', 'proxy', 'ca', 'dns', 'proxyConnect', 'tls', 'service', 'key', 'clock'],
  );
  for (const f of j.findings) {
    assert.ok(['ok', 'problem', 'skipped'].includes(f.status), f.status);
    assert.ok(f.found.length > 0, `${f.check} says what it found`);
    if (f.status === 'problem') assert.ok(f.fix && f.fix.length > 0, `${f.check}: a problem has a fix`);
  }
  assert.equal(j.problems, j.findings.filter((f) => f.status === 'problem').length);
  assert.equal(j.ok, j.problems === 0 && !j.cancelled);
}

function noStack(s: string): void {
  assert.doesNotMatch(s, /\n\s+at .+:\d+:\d+/, 'no stack trace');
}

/** A loopback server whose every answer is `handler`'s. */
async function scripted(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

before(async () => {
  sb = await startSandbox({
    port: 0,
    keys: [KEY],
    faults: true,
    quiet: true,
    keylessRateLimit: 100_000,
    rateLimit: 100_000,
  });
  proxy = await startProxy();
});
after(async () => {
  await Promise.all([sb.close(), proxy.close()]);
});
beforeEach(async () => {
  await fetch(`${sb.url}/__sandbox/faults`, { method: 'DELETE' });
});

describe('devindex doctor: the findings', () => {
  it('working: every check holds or says why it did not run; exit 0; one line a check', async () => {
    const r = await doctor(['--base-url', sb.url], { DEVINDEX_API_KEY: KEY });
    assert.equal(r.code, 0, r.out + r.err);
    const lines = r.out.split('\n').filter((l) => /^(ok|problem|skipped) /.test(l));
    assert.equal(lines.length, 9, r.out);
    assert.match(r.out, /^ok +service: reachable: keyless search \(k=1\) answered HTTP 200 in \d+ ms/m);
    assert.match(
      r.out,
      /^ok +API key: accepted \(GET \/v2\/agent, the job list: HTTP 200 in \d+ ms; no credits used\)/m,
    );
    assert.match(r.out, /^ok +clock: within \d+ s of the service's Date header/m);
    assert.match(r.out, /^skipped +TLS: plain http: no TLS/m);
    assert.match(r.out, /All checks hold/);
    const j = await doctorJson(['--base-url', sb.url], { DEVINDEX_API_KEY: KEY });
    assert.equal(j.code, 0);
    assert.equal(j.json.ok, true);
    assert.equal(j.of('proxyConnect').status, 'skipped');
  });

  it('through a working proxy (HTTP_PROXY): the tunnel is opened and named with its source', async () => {
    const before = proxy.connects;
    const j = await doctorJson(['--base-url', sb.url], { HTTP_PROXY: proxy.url });
    assert.equal(j.code, 0, j.out);
    assert.match(j.of('proxy').found, new RegExp(`^${proxy.url} from HTTP_PROXY`));
    assert.match(j.of('proxyConnect').found, /answered and opened a tunnel to 127\.0\.0\.1:\d+ \(HTTP 200/);
    assert.ok(proxy.connects > before, 'CONNECT reached the proxy');
    assert.equal(j.of('service').status, 'ok');
  });

  it('NO_PROXY sends the host direct, and the finding names the entry', async () => {
    const j = await doctorJson(['--base-url', sb.url], { HTTP_PROXY: proxy.url, NO_PROXY: 'example.com,127.0.0.1' });
    assert.equal(j.code, 0, j.out);
    assert.match(j.of('proxy').found, /NO_PROXY entry "127\.0\.0\.1" sends it direct/);
    assert.equal(j.of('proxyConnect').status, 'skipped');
  });

  it('a dead proxy port: a problem naming the proxy and where it came from, at once; the service is skipped', async () => {
    const port = await closedPort();
    const t0 = Date.now();
    const r = await doctor(['--base-url', sb.url], { HTTP_PROXY: `http://127.0.0.1:${port}` });
    assert.equal(r.code, 1);
    assert.match(
      r.out,
      new RegExp(
        `^problem +proxy connection: http://127\\.0\\.0\\.1:${port} \\(from HTTP_PROXY\\) refused the connection: nothing listens there\\n +fix: check the proxy address in HTTP_PROXY`,
        'm',
      ),
    );
    assert.match(r.out, /^skipped +service: the proxy cannot be reached \(above\)/m);
    assert.ok(Date.now() - t0 < 5000, 'no long wait for a refused port');
    const j = await doctorJson(['--base-url', sb.url], { HTTP_PROXY: `http://127.0.0.1:${port}` });
    assert.equal(j.json.problems, 1);
    assert.equal(j.of('proxyConnect').status, 'problem');
  });

  it('a proxy that refuses CONNECT: a finding (not a hang) with the status it gave', async () => {
    const refusing = await startRefusingProxy(403);
    try {
      const t0 = Date.now();
      const j = await doctorJson(['--base-url', sb.url], { HTTPS_PROXY: refusing.url, HTTP_PROXY: refusing.url });
      assert.equal(j.code, 1);
      assert.ok(Date.now() - t0 < 5000);
      const f = j.of('proxyConnect');
      assert.equal(f.status, 'problem');
      assert.match(f.found, /refused CONNECT 127\.0\.0\.1:\d+ \(HTTP 403 Forbidden\)/);
      assert.match(f.fix!, /allow CONNECT .*NO_PROXY/);
      assert.equal(refusing.connects, 1);
    } finally {
      await refusing.close();
    }
  });

  it('a proxy that wants credentials (407): the fix names the URL form; a wrong planted password is never shown', async () => {
    const authed = await startProxy('alice:right-password');
    try {
      const j = await doctorJson(['--base-url', sb.url], {
        HTTP_PROXY: `http://alice:${PLANTED_PASSWORD}@127.0.0.1:${authed.port}`,
      });
      assert.equal(j.code, 1);
      const f = j.of('proxyConnect');
      assert.match(f.found, /needs credentials \(HTTP 407/);
      assert.match(f.fix!, /correct them .*HTTPS_PROXY=http:\/\/user:password@host:port/);
      assert.match(j.of('proxy').found, /with credentials in the URL, not shown/);
      assert.ok(!j.out.includes(PLANTED_PASSWORD), 'the proxy password never comes out');
      const ok = await doctorJson(['--base-url', sb.url], {
        HTTP_PROXY: `http://alice:right-password@127.0.0.1:${authed.port}`,
      });
      assert.equal(ok.of('proxyConnect').status, 'ok', ok.out);
      assert.ok(!ok.out.includes('right-password'));
    } finally {
      await authed.close();
    }
  });

  it('a refused key: a problem naming DEVINDEX_API_KEY; search still reported keyless', async () => {
    const j = await doctorJson(['--base-url', sb.url], { DEVINDEX_API_KEY: PLANTED_KEY });
    assert.equal(j.code, 1);
    const f = j.of('key');
    assert.equal(f.status, 'problem');
    assert.match(f.found, /^refused: the service does not accept this key \(HTTP 401/);
    assert.match(f.fix!, /DEVINDEX_API_KEY/);
    assert.equal(j.of('service').status, 'ok');
    assert.ok(!j.out.includes(PLANTED_KEY));
  });

  it("the keyless quota used up (sandbox fault, production's words): said with when it resets and the key as the way out", async () => {
    await fetch(`${sb.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        faults: [
          {
            kind: 'status',
            status: 429,
            path: '/v2/search',
            error:
              "You've hit Firecrawl's keyless free tier rate limit. Create a key at https://firecrawl.dev/app/api-keys",
            retryAfterSeconds: 46_800,
          },
        ],
      }),
    });
    const j = await doctorJson(['--base-url', sb.url], {});
    assert.equal(j.code, 1);
    const f = j.of('service');
    assert.match(
      f.found,
      /HTTP 429 .*keyless searches are used up for today from this address until \d{4}-\d\d-\d\d \d\d:\d\d UTC \(in 13 h\)/,
    );
    assert.match(f.fix!, /set DEVINDEX_API_KEY/);
    assert.doesNotMatch(f.found, /46800/, 'a day-long wait is not said in seconds');
  });

  it('the keyless quota with reason "credits" and no Retry-After (a loopback service)', async () => {
    const svc = await scripted((req, res) => {
      if (req.url?.startsWith('/v2/search/developer'))
        json(
          res,
          429,
          {
            success: false,
            error: "You've hit the keyless free tier limit",
            reason: 'credits',
            retry_after_seconds: 3600,
          },
          { 'www-authenticate': 'Bearer resource_metadata="x"' },
        );
      else json(res, 404, { success: false, error: 'nope' });
    });
    try {
      const j = await doctorJson(['--base-url', svc.url], {});
      assert.match(j.of('service').found, /keyless credits are used up .*\(in 60 min\)/);
    } finally {
      await svc.close();
    }
  });

  it('the keyless quota left, when the service says it (RateLimit headers); the coverage keys', async () => {
    const svc = await scripted((_req, res) =>
      json(
        res,
        200,
        { success: true, results: [], coverage: { doc: 'ok', issue: 'degraded' } } satisfies ProductionSearchResponse,
        { 'x-ratelimit-remaining': '41', 'x-ratelimit-limit': '50' },
      ),
    );
    try {
      const j = await doctorJson(['--base-url', svc.url], {});
      assert.match(j.of('service').found, /coverage: doc ok, issue degraded; keyless quota left: 41 of 50/);
    } finally {
      await svc.close();
    }
  });

  it('a keyless 403 (suspicious network): keyless access refused here, a key is the fix', async () => {
    const svc = await scripted((_req, res) =>
      json(res, 403, { success: false, error: 'Your IP address looks suspicious' }),
    );
    try {
      const j = await doctorJson(['--base-url', svc.url], {});
      assert.match(
        j.of('service').found,
        /refused keyless search from this network \(HTTP 403: "Your IP address looks suspicious"\)/,
      );
      assert.match(j.of('service').fix!, /DEVINDEX_API_KEY/);
    } finally {
      await svc.close();
    }
  });

  for (const bad of ['not a url', 'ftp://example.com', 'https://user:PLANTED-proxy-pw-4d2e8b@example.com']) {
    it(`a bad base URL (${bad.replace(PLANTED_PASSWORD, '…')}): a finding with its fix, the network checks skipped, no stack trace`, async () => {
      const j = await doctorJson(['--base-url', bad], {});
      assert.equal(j.code, 1);
      const f = j.of('baseUrl');
      assert.equal(f.status, 'problem');
      assert.match(f.fix!, /--base-url or DEVINDEX_BASE_URL/);
      for (const c of ['dns', 'tls', 'service'] as const) assert.equal(j.of(c).status, 'skipped');
      assert.ok(!j.out.includes(PLANTED_PASSWORD));
      noStack(j.out);
    });
  }

  it('DEVINDEX_BASE_URL is read; a plain-http base URL to a host that is not loopback with a key is a problem', async () => {
    const j = await doctorJson([], { DEVINDEX_BASE_URL: 'http://0.0.0.0:9', DEVINDEX_API_KEY: PLANTED_KEY });
    assert.equal(j.json.baseUrl, 'http://0.0.0.0:9');
    assert.match(j.of('baseUrl').found, /plain http to a host that is not loopback/);
    assert.match(j.of('baseUrl').fix!, /DEVINDEX_INSECURE_HTTP=1/);
    assert.match(j.of('key').found, /not sent over plain http/);
  });

  it('a CA file that does not exist, or is not PEM: a finding naming the variable, no stack trace', async () => {
    const missing = await doctorJson(['--base-url', sb.url], { NODE_EXTRA_CA_CERTS: '/nonexistent/ca.pem' });
    assert.match(missing.of('ca').found, /NODE_EXTRA_CA_CERTS names \/nonexistent\/ca\.pem, which does not exist/);
    assert.equal(missing.code, 1);
    const dir = makeTmp();
    const der = join(dir, 'ca.der');
    writeFileSync(der, Buffer.from([0x30, 0x82, 0x01, 0x0a, 0x02]));
    const notPem = await doctorJson(['--base-url', sb.url], { NODE_EXTRA_CA_CERTS: der });
    assert.match(notPem.of('ca').found, /holds no PEM certificate/);
    assert.match(notPem.of('ca').fix!, /PEM \(Base-64 text, not DER\)/);
    noStack(missing.out + notPem.out);
  });

  it('--help, and unknown options exit 2', async () => {
    const h = await doctor(['--help'], {});
    assert.equal(h.code, 0);
    assert.match(h.out, /^Usage: devindex doctor/);
    const bad = await doctor(['--nope'], {});
    assert.equal(bad.code, 2);
    assert.match(bad.err, /^devindex doctor: /);
  });
});

describe(
  'devindex doctor: TLS with a throw-away certificate authority',
  { skip: haveOpenssl() ? false : 'openssl is not installed' },
  () => {
    let ca: TestCa;
    let front: { url: string; close(): Promise<void> };
    before(async () => {
      ca = makeTestCa();
      front = await startHttpsFront(sb.url, ca);
    });
    after(async () => {
      await front?.close();
    });

    it('an untrusted chain: names the issuer and the CA variable; the service is skipped', async () => {
      const j = await doctorJson(['--base-url', front.url], {});
      assert.equal(j.code, 1);
      const f = j.of('tls');
      assert.equal(f.status, 'problem');
      assert.match(
        f.found,
        /issued by "devindex throw-away test CA".*not trusted \((UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED_CERT_IN_CHAIN)\)/,
      );
      assert.match(f.fix!, /"devindex throw-away test CA".*NODE_EXTRA_CA_CERTS/);
      assert.equal(j.of('service').status, 'skipped');
    });

    it('trusted after the CA variable (and through a CONNECT tunnel)', async () => {
      const j = await doctorJson(['--base-url', front.url], { NODE_EXTRA_CA_CERTS: ca.caFile, DEVINDEX_API_KEY: KEY });
      assert.equal(j.code, 0, j.out);
      assert.match(j.of('ca').found, /NODE_EXTRA_CA_CERTS: .*ca\.pem \("devindex throw-away test CA"\)/);
      assert.match(
        j.of('tls').found,
        /^trusted: 127\.0\.0\.1 issued by "devindex throw-away test CA", expires \d{4}-\d\d-\d\d \(less than 14 days left\)/,
      );
      const tunnel = await doctorJson(['--base-url', front.url], {
        NODE_EXTRA_CA_CERTS: ca.caFile,
        HTTPS_PROXY: proxy.url,
      });
      assert.equal(tunnel.code, 0, tunnel.out);
      assert.match(tunnel.of('tls').found, new RegExp(`through ${proxy.url}`));
    });

    it('the editor surface: the fix names devIndex.network.caFile (with a link), and the setting makes it trusted', async () => {
      const bad = await diagnose({ baseUrl: front.url, network: { env: {} }, surface: 'editor' }, FAST);
      const f = bad.findings.find((x) => x.check === 'tls')!;
      assert.match(f.fix!.text, /devIndex\.network\.caFile/);
      assert.deepEqual(f.fix!.settings, ['devIndex.network.caFile']);
      assert.match(
        renderMarkdown(bad),
        /\[devIndex\.network\.caFile\]\(command:workbench\.action\.openSettings\?%5B%22devIndex\.network\.caFile%22%5D/,
      );
      const good = await diagnose(
        { baseUrl: front.url, network: { env: {}, caFile: ca.caFile }, surface: 'editor' },
        FAST,
      );
      assert.equal(good.ok, true, renderText(good));
    });
  },
);

describe('the diagnosis: time limits, cancellation, clock, secrets', () => {
  let silent: { port: number; close(): Promise<void> };
  before(async () => {
    silent = await startSilentServer();
  });
  after(async () => {
    await silent.close();
  });

  it('every host silent (the service and the proxy): each check ends at its limit, the whole run within the total', async () => {
    const t0 = Date.now();
    const r = await diagnose(
      {
        baseUrl: `https://127.0.0.1:${silent.port}`,
        network: { env: { HTTPS_PROXY: `http://127.0.0.1:${silent.port}` } },
        surface: 'cli',
      },
      { timeouts: { dns: 300, proxyConnect: 400, tls: 400, service: 400, key: 400 } },
    );
    const ms = Date.now() - t0;
    assert.ok(ms < 2500, `took ${ms} ms`);
    assert.match(
      find(r, 'proxyConnect').found,
      /accepted the connection but did not answer CONNECT 127\.0\.0\.1:\d+ within 0\.4 s/,
    );
    const direct = await diagnose(
      { baseUrl: `https://127.0.0.1:${silent.port}`, network: { env: {} }, surface: 'cli' },
      { timeouts: { tls: 400, service: 400 } },
    );
    assert.match(find(direct, 'tls').found, /no TLS handshake with 127\.0\.0\.1:\d+ within 0\.4 s/);
  });

  it('the whole run is bounded even when the per-check limits add up to more (default limits, total cut short)', async () => {
    assert.ok(TOTAL_LIMIT_MS <= 15_000);
    const t0 = Date.now();
    const r = await diagnose(
      {
        baseUrl: `http://127.0.0.1:${silent.port}`,
        apiKey: KEY,
        network: { env: { HTTP_PROXY: `http://127.0.0.1:${silent.port}` } },
        surface: 'cli',
      },
      { totalMs: 1500 },
    );
    const ms = Date.now() - t0;
    assert.ok(ms < 2500, `took ${ms} ms`);
    assert.equal(r.findings.length, 9);
    assert.ok(
      r.findings.some(
        (f) => f.status === 'skipped' && /limited to 15 s|cannot be reached|does not open a tunnel/.test(f.found),
      ),
      renderText(r),
    );
  });

  it('Ctrl+C cancels: exit 130, quickly, the rest marked cancelled', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    const t0 = Date.now();
    const r = await doctor(
      ['--base-url', `https://127.0.0.1:${silent.port}`],
      { HTTPS_PROXY: `http://127.0.0.1:${silent.port}` },
      { signal: ac.signal, doctor: {} },
    );
    assert.equal(r.code, 130, r.out);
    assert.ok(Date.now() - t0 < 2000);
    assert.match(r.out, /^skipped +service: cancelled/m);
    assert.match(r.out, /Cancelled after/);
  });

  it("a clock five minutes behind the service's Date header is a problem", async () => {
    const r = await diagnose(
      { baseUrl: sb.url, network: { env: {} }, surface: 'cli' },
      { ...FAST, now: () => Date.now() - 5 * 60_000 },
    );
    const f = find(r, 'clock');
    assert.equal(f.status, 'problem');
    assert.match(f.found, /this machine's clock is 5 min behind the service's/);
    assert.match(f.fix!.text, /system clock/);
  });

  it('a service that echoes the key and the proxy credentials back: neither appears in any finding, text, JSON or markdown', async () => {
    const token = `Basic ${Buffer.from(`bob:${PLANTED_PASSWORD}`).toString('base64')}`;
    const echo = await scripted((req, res) =>
      json(
        res,
        req.url?.startsWith('/v2/agent') ? 401 : 503,
        {
          success: false,
          error: `Invalid token ${req.headers.authorization ?? ''} via ${req.headers['proxy-authorization'] ?? ''} ${PLANTED_PASSWORD}`,
        },
        { date: new Date().toUTCString() },
      ),
    );
    try {
      const r = await diagnose(
        {
          baseUrl: echo.url,
          apiKey: PLANTED_KEY,
          surface: 'editor',
          network: {
            env: { HTTPS_PROXY: `http://bob:${PLANTED_PASSWORD}@127.0.0.1:9` },
            proxy: `http://bob:${PLANTED_PASSWORD}@127.0.0.1:${proxy.port}`,
            proxyAuthorization: token,
            noProxy: [],
          },
        },
        FAST,
      );
      const all = [JSON.stringify(r), renderText(r), renderMarkdown(r)].join('\n');
      for (const secret of [PLANTED_KEY, PLANTED_PASSWORD, token, token.slice(6)])
        assert.ok(!all.includes(secret), `${secret.slice(0, 12)}… leaked`);
      assert.match(find(r, 'key').found, /\[redacted\]/, 'the echo was there, redacted');
      // Credentials in http.proxy are a problem in the editor: they sit in settings.json in clear text.
      assert.equal(find(r, 'proxy').status, 'problem');
      assert.deepEqual(find(r, 'proxy').fix!.settings, ['http.proxy', 'http.proxyAuthorization']);
    } finally {
      await echo.close();
    }
  });
});

function find(r: DiagnosisReport, c: CheckId): Finding {
  return r.findings.find((f) => f.check === c)!;
}

function makeTmp(): string {
  return mkdtempSync(join(tmpdir(), 'devindex-doctor-'));
}
