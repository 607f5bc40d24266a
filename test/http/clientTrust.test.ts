// Over real HTTP on loopback: the key never comes back out of the client, keys that cannot be
// sent are never sent, plain http to a non-loopback host is refused with a key, redirects are reported
// and not followed, malformed Retry-After means backoff, deep JSON is refused cleanly (client and
// sandbox), the sandbox's request log is bounded in bytes, and timeouts say the total time.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { DevIndexClient, type ClientOptions, type RequestLogEntry } from '../../src/api/client';
import { ApiError } from '../../src/api/errors';
import { type Clock } from '../../src/api/retry';
import { runCli } from '../../src/cli/main';
import type { SpecSearchResponse } from '../../sandbox/search/wireTypes';
import { startSandbox } from '../../sandbox/server';
import { MAX_LOG_BYTES } from '../../sandbox/serverParts';
import { del, post } from './sandboxHelpers';
import { keyEntryProblem, MAX_KEY_LENGTH, MIN_KEY_LENGTH, REDACTED } from '../../src/api/redact';
import { HttpTransport } from '../../src/api/http';

const KEY = 'fc-trust-0123456789abcdef0123';
let sb: { url: string; close(): Promise<void> };

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
const servers: Server[] = [];
async function serve(h: Handler): Promise<{ url: string; port: number; hits: number; lastAuth?: string }> {
  const state = { url: '', port: 0, hits: 0, lastAuth: undefined as string | undefined };
  const s = createServer((req, res) => {
    state.hits++;
    state.lastAuth = req.headers.authorization;
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => h(req, res, body));
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  state.port = (s.address() as AddressInfo).port;
  state.url = `http://127.0.0.1:${state.port}`;
  return state;
}

const noSleep = (): Clock & { waits: number[] } => {
  const waits: number[] = [];
  return {
    waits,
    now: () => Date.now(),
    sleep: async (ms) => {
      waits.push(ms);
    },
  };
};
const clients: DevIndexClient[] = [];
function client(o: Partial<ClientOptions> & { baseUrl: string }) {
  const clock = noSleep();
  const logs: RequestLogEntry[] = [];
  const c = new DevIndexClient({
    transport: new HttpTransport(),
    clock,
    random: () => 0.25,
    timeoutMs: 3000,
    onLog: (e) => logs.push(e),
    apiKey: () => KEY,
    ...o,
  });
  clients.push(c);
  return { c, clock, logs };
}
const caught = async (p: Promise<unknown>): Promise<ApiError> => {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    return e;
  }
  assert.fail('expected a rejection');
};
const everything = (e: ApiError, logs: RequestLogEntry[]) =>
  JSON.stringify({ m: e.message, e: e.error, d: e.details, c: e.code, l: e.location, logs });

before(async () => {
  sb = await startSandbox({
    port: 0,
    keys: [KEY],
    faults: true,
    quiet: true,
    keylessRateLimit: 100_000,
    rateLimit: 100_000,
  });
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
  await sb.close();
});
beforeEach(async () => {
  await fetch(`${sb.url}/__sandbox/faults`, { method: 'DELETE' });
});

describe('the key never comes back out (finding 2)', () => {
  const echoes: Array<[string, Handler]> = [
    [
      'an HTML page whose title echoes the Authorization header',
      (req, res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end(`<html><head><title>Bad gateway for ${req.headers.authorization}</title></head></html>`);
      },
    ],
    [
      'a text body whose first line echoes it',
      (req, res) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`authorization=${req.headers.authorization}\nsecond line`);
      },
    ],
    [
      'a JSON error and details echoing it',
      (req, res) => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            success: false,
            error: `bad ${req.headers.authorization}`,
            code: String(req.headers.authorization),
            details: [{ path: [String(req.headers.authorization)], message: `got ${req.headers.authorization}` }],
          }),
        );
      },
    ],
    [
      'a percent-encoded echo',
      (req, res) => {
        res.writeHead(401, { 'content-type': 'text/plain' });
        res.end(`token=${encodeURIComponent(String(req.headers.authorization))}`);
      },
    ],
    [
      'a redirect whose Location carries it',
      (_req, res) => {
        res.writeHead(302, { location: `http://${KEY}.example/?k=${KEY}` });
        res.end();
      },
    ],
  ];
  for (const [name, h] of echoes) {
    it(name, async () => {
      const s = await serve(h);
      const { c, logs } = client({ baseUrl: s.url });
      const e = await caught(c.search({ query: 'q' }));
      assert.equal(s.lastAuth, `Bearer ${KEY}`, 'the key was sent (to the configured address)');
      assert.ok(!everything(e, logs).includes(KEY), everything(e, logs));
    });
  }
  it('a successful response echoing the key: redacted before it is parsed', async () => {
    const s = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          success: true,
          results: [
            {
              id: 'doc:x/y',
              type: 'doc',
              url: 'https://x.example/',
              title: `hello ${req.headers.authorization}`,
              passages: [],
            },
          ],
        } satisfies Omit<SpecSearchResponse, 'coverage' | 'reranked'>),
      );
    });
    const { c } = client({ baseUrl: s.url });
    const r = await c.search({ query: 'q' });
    assert.equal(r.results[0]!.title, 'hello Bearer [redacted]');
  });
  it('a successful response spelling the key with JSON escapes (\\u, \\/): redacted once decoded', async () => {
    // The text holds no literal key; only JSON.parse reveals it. Every character \u-escaped, and a
    // key with a slash sent as \/ in a passage.
    const escaped = (k: string) =>
      k
        .split('')
        .map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
        .join('');
    const slashKey = `${KEY}/tail`;
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        `{"success":true,"results":[{"id":"doc:x/y","url":"https://x.example/","title":"t ${escaped(KEY)}","passages":[{"text":"p ${slashKey.replace('/', '\\/')}"}],"${escaped(KEY)}":1}]}`,
      );
    });
    for (const key of [KEY, slashKey]) {
      const { c } = client({ baseUrl: s.url, apiKey: () => key });
      const r = await c.search({ query: 'q' });
      assert.ok(!JSON.stringify(r).includes(key), JSON.stringify(r));
    }
    const { c } = client({ baseUrl: s.url, apiKey: () => undefined });
    assert.equal(
      (await c.search({ query: 'q' })).results[0]!.title,
      `t ${KEY}`,
      'keyless: nothing to redact, the body is as sent',
    );
  });
});

describe('keys that cannot be sent (finding 8)', () => {
  for (const [name, key] of [
    ['a newline', `${KEY}\nX-Evil: 1`],
    ['a character above U+00FF', `${KEY}\u2603`],
  ] as const) {
    it(`${name}: refused before sending, never retried, fast`, async () => {
      const s = await serve((_q, res) => {
        res.end('{}');
      });
      const { c, clock } = client({ baseUrl: s.url, apiKey: () => key });
      const t = Date.now();
      const e = await caught(c.search({ query: 'q' }));
      assert.equal(e.kind, 'invalid-key');
      assert.equal(e.attempts, 0);
      assert.equal(s.hits, 0);
      assert.deepEqual(clock.waits, []);
      assert.ok(Date.now() - t < 1000);
      assert.ok(!e.message.includes(KEY));
    });
  }
  it('the CLI exits 2 and says so', async () => {
    const out = { o: '', e: '' };
    const code = await runCli(['search', 'q', '--base-url', sb.url], {
      out: (s) => {
        out.o += s;
      },
      err: (s) => {
        out.e += s;
      },
      env: { DEVINDEX_API_KEY: `${KEY}\u0001x` },
    });
    assert.equal(code, 2);
    assert.match(out.e, /control character \(U\+0001\)/);
    assert.match(out.e, /DEVINDEX_API_KEY/);
  });
});

describe("a key too short to be a key: Set API Key's rule, everywhere", () => {
  it('the client refuses it before sending, with the bound, and its messages keep every "a"', async () => {
    // A server that echoes the Authorization header: with the key sent, "a" would be redacted as a word.
    const s = await serve((req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: false, error: `a bad token: ${req.headers.authorization}` }));
    });
    for (const key of ['a', 'abc', 'short-key-15chr']) {
      const { c, clock, logs } = client({ baseUrl: s.url, apiKey: () => key });
      const e = await caught(c.search({ query: 'a' }));
      assert.equal(e.kind, 'invalid-key');
      assert.equal(e.attempts, 0);
      assert.equal(
        e.message,
        `the API key was not sent: an API key has at least ${MIN_KEY_LENGTH} characters (this one has ${key.length}); paste the whole key`,
      );
      assert.ok(!e.message.includes(REDACTED) && !JSON.stringify(logs).includes(REDACTED), everything(e, logs));
      assert.deepEqual(clock.waits, []);
    }
    assert.equal(s.hits, 0, 'nothing was sent');
    const { c } = client({ baseUrl: s.url, apiKey: () => 'with space inside-0123' });
    assert.match(
      (await caught(c.search({ query: 'q' }))).message,
      /^the API key was not sent: an API key has no spaces or line breaks$/,
    );
    assert.equal(s.hits, 0);
  });
  it('the same rule as Set API Key: whatever keyEntryProblem (its input check) refuses, the client refuses with its words', async () => {
    const s = await serve((_q, res) => {
      res.end('{}');
    });
    for (const key of ['x'.repeat(MIN_KEY_LENGTH - 1), 'y'.repeat(MAX_KEY_LENGTH + 1), 'two words-0123456789']) {
      const problem = keyEntryProblem(key)!;
      assert.ok(problem, key);
      const e = await caught(client({ baseUrl: s.url, apiKey: () => key }).c.search({ query: 'q' }));
      assert.equal(e.kind, 'invalid-key');
      assert.equal(e.message, `the API key was not sent: ${problem.charAt(0).toLowerCase()}${problem.slice(1, -1)}`);
    }
    assert.equal(keyEntryProblem(KEY), undefined);
    assert.equal(s.hits, 0);
  });
  it('DEVINDEX_API_KEY=a: devindex search and devindex agent exit 2 with the bound, nothing sent', async () => {
    await del(sb.url, '/__sandbox/requests');
    for (const args of [
      ['search', 'a', '--base-url', sb.url],
      ['agent', 'list', '--base-url', sb.url],
    ]) {
      const out = { o: '', e: '' };
      const code = await runCli(args, {
        out: (t) => {
          out.o += t;
        },
        err: (t) => {
          out.e += t;
        },
        env: { DEVINDEX_API_KEY: 'a' },
      });
      assert.equal(code, 2, out.e);
      assert.match(
        out.e,
        /: the API key was not sent: an API key has at least 16 characters \(this one has 1\); paste the whole key \(the key is read from DEVINDEX_API_KEY\)\n$/,
      );
      assert.ok(!out.e.includes(REDACTED), out.e);
      assert.equal(out.o, '');
    }
    const seen = (await (await fetch(`${sb.url}/__sandbox/requests`)).json()) as { requests: unknown[] };
    assert.deepEqual(seen.requests, [], 'no request reached the service');
  });
});

describe('plain http to a host that is not loopback', () => {
  it('is refused with a key, before anything is sent; the insecure setting allows it; keyless is allowed', async () => {
    const s = await serve((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"success":true,"results":[]}');
    });
    // 0.0.0.0 reaches this machine on Linux but is not a loopback name: it stands for "a host on the network".
    const base = `http://0.0.0.0:${s.port}`;
    const e = await caught(client({ baseUrl: base }).c.search({ query: 'q' }));
    assert.equal(e.kind, 'insecure-transport');
    assert.match(e.message, /refused to send the API key over plain http to 0\.0\.0\.0/);
    assert.match(e.message, /devIndex\.insecure\.allowHttpWithKey/);
    assert.equal(s.hits, 0);
    await client({ baseUrl: base, allowInsecureHttp: true }).c.search({ query: 'q' });
    assert.equal(s.lastAuth, `Bearer ${KEY}`);
    await client({ baseUrl: base, apiKey: () => undefined }).c.search({ query: 'q' });
    assert.equal(s.hits, 2);
  });
});

describe('redirects (finding 8)', () => {
  it('are reported with the target origin and never followed, so the key never reaches the target', async () => {
    const target = await serve((_q, res) => {
      res.end('{"results":[]}');
    });
    const s = await serve((_q, res) => {
      res.writeHead(307, { location: `${target.url}/v2/search/developer?x=1` });
      res.end();
    });
    const e = await caught(client({ baseUrl: s.url }).c.search({ query: 'q' }));
    assert.equal(e.kind, 'redirect');
    assert.equal(e.status, 307);
    assert.equal(e.location, target.url);
    assert.match(e.message, new RegExp(`redirect \\(HTTP 307\\) to ${target.url.replace(/\./g, '\\.')}`));
    assert.equal(target.hits, 0);
    assert.equal(s.hits, 1, 'not retried');
  });
});

describe('Retry-After over HTTP (finding 5) and the 429 text', () => {
  for (const v of ['-1', '+5', '5, 7', '-0']) {
    it(`${JSON.stringify(v)} is absent: the backoff waits`, async () => {
      await post(sb.url, '/__sandbox/faults', { faults: [{ kind: 'status', status: 429, retryAfter: v, count: 2 }] });
      const { c, clock } = client({ baseUrl: sb.url });
      await c.search({ query: 'retry' });
      assert.deepEqual(clock.waits, [2250, 4250]);
    });
  }
  it('a 429 that says its wait only in the text waits that long', async () => {
    await post(sb.url, '/__sandbox/faults', {
      faults: [
        {
          kind: 'status',
          status: 429,
          error: 'Rate limit exceeded. please retry after 7s, resets at Mon Nov 23 2026',
          count: 1,
        },
      ],
    });
    const { c, clock } = client({ baseUrl: sb.url });
    await c.search({ query: 'retry' });
    assert.deepEqual(clock.waits, [7000]);
  });
});

describe('deep JSON (finding 7)', () => {
  it('a deeply nested response is refused with a clear message, no stack overflow, not retried', async () => {
    const deep = `{"results":[],"coverage":{"wiki":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`;
    const s = await serve((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(deep);
    });
    const e = await caught(client({ baseUrl: s.url }).c.search({ query: 'q' }));
    assert.equal(e.kind, 'invalid-response');
    assert.match(e.message, /response too deeply nested/);
    assert.equal(s.hits, 1);
  });
  it('the sandbox answers a deep body with 400, not 500 (which clients retry)', async () => {
    const deep = `{"query":"x","k":${'['.repeat(50_000)}1${']'.repeat(50_000)}}`;
    const r = await post(sb.url, '/v2/search/developer', deep);
    assert.equal(r.status, 400);
    assert.match(JSON.stringify(r.json.details), /nested deeper than 100 levels/);
    const a = await post(sb.url, '/v2/agent', `{"prompt":${'['.repeat(50_000)}${']'.repeat(50_000)}}`, {
      authorization: `Bearer ${KEY}`,
    });
    assert.equal(a.status, 400);
    const log = await fetch(`${sb.url}/__sandbox/requests`);
    assert.equal(log.status, 200, 'the request log still serialises');
  });
});

describe('sandbox request log (finding 8)', () => {
  it('is bounded in bytes, keeping the newest entries', async () => {
    await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
    const big = JSON.stringify({ query: 'x', pad: 'p'.repeat(1_000_000) });
    for (let i = 0; i < 20; i++) await post(sb.url, '/v2/search/developer', big);
    await post(sb.url, '/v2/search/developer', { query: 'last one' });
    const r = (await (await fetch(`${sb.url}/__sandbox/requests`)).json()) as { requests: Array<{ body: unknown }> };
    const bytes = r.requests.reduce((n, q) => n + JSON.stringify(q.body).length, 0);
    assert.ok(bytes <= MAX_LOG_BYTES, `${bytes} bytes kept`);
    assert.ok(r.requests.length < 21 && r.requests.length >= 10, `${r.requests.length} entries`);
    assert.deepEqual(r.requests.at(-1)!.body, { query: 'last one' });
  });
});

describe('timeouts (finding 8)', () => {
  it('the final error says how many attempts over how long, and the per-attempt bound', async () => {
    const s = await serve(() => {
      /* never answers */
    });
    const e = await caught(client({ baseUrl: s.url, timeoutMs: 100 }).c.search({ query: 'q' }));
    assert.equal(e.kind, 'timeout');
    assert.equal(s.hits, 5);
    assert.match(
      e.message,
      /within 0\.1 s \(timeout per attempt\) \(gave up after 5 attempts over \d+ s; each attempt may take up to 0\.1 s\)/,
    );
  });
  it('devindex --timeout bounds each attempt (agent start: one attempt, never resent)', async () => {
    const s = await serve(() => {
      /* never answers */
    });
    const out = { o: '', e: '' };
    const t = Date.now();
    const code = await runCli(['agent', 'start', 'find things', '--timeout', '0.3', '--base-url', s.url], {
      out: (x) => {
        out.o += x;
      },
      err: (x) => {
        out.e += x;
      },
      env: { DEVINDEX_API_KEY: KEY },
    });
    assert.equal(code, 1);
    assert.ok(Date.now() - t < 3000, `${Date.now() - t} ms`);
    assert.match(out.e, /within 0\.3 s/);
    assert.equal(s.hits, 1);
  });
});
