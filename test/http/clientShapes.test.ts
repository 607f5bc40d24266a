// DevIndexClient against a tiny local server, for what the sandbox does not show: request headers,
// a gateway path prefix, chunked bodies past the size cap, and a key echoed back in an error body.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { DevIndexClient, type RequestLogEntry } from '../../src/api/client';
import type { ApiError } from '../../src/api/errors';
import { USER_AGENT } from '../../src/api/version';
import type { SpecSearchResponse } from '../../sandbox/search/wireTypes';
import { HttpTransport } from '../../src/api/http';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
const seen: Seen[] = [];
let handler: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
let server: Server;
let base: string;
const clients: DevIndexClient[] = [];
const ok = JSON.stringify({
  success: true,
  results: [],
  coverage: { doc: 'ok', issue: 'ok', pull_request: 'ok', readme: 'ok' },
  reranked: false,
} satisfies SpecSearchResponse);

before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      handler(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});
const make = (o: Partial<ConstructorParameters<typeof DevIndexClient>[0]> = {}) => {
  const c = new DevIndexClient({
    transport: new HttpTransport(),
    baseUrl: base,
    clock: { now: () => Date.now(), sleep: async () => undefined },
    ...o,
  });
  clients.push(c);
  return c;
};

describe('client request shape', () => {
  it('User-Agent devindex/<version>; no Authorization without a key; Bearer with one', async () => {
    handler = (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(ok);
    };
    seen.length = 0;
    await make().search({ query: 'a' });
    await make({ apiKey: async () => 'sk-abc-0123456789' }).search({ query: 'a' });
    await make({ apiKey: () => undefined }).search({ query: 'a' });
    assert.equal(seen[0]!.headers['user-agent'], USER_AGENT);
    assert.equal(seen[0]!.headers.authorization, undefined);
    assert.equal(seen[1]!.headers.authorization, 'Bearer sk-abc-0123456789');
    assert.equal(seen[2]!.headers.authorization, undefined);
  });

  it('a gateway path prefix is kept, GET and POST', async () => {
    handler = (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(ok);
    };
    seen.length = 0;
    const c = make({ baseUrl: `${base}/fc/` });
    await c.search({ query: 'a b', types: ['doc'] });
    await c.search({ query: 'a', sources: ['x,y'] });
    assert.equal(seen[0]!.url, '/fc/v2/search/developer?query=a%20b&types=doc');
    assert.equal(seen[1]!.method, 'POST');
    assert.equal(seen[1]!.url, '/fc/v2/search/developer');
    assert.equal(seen[1]!.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(seen[1]!.body), { query: 'a', sources: ['x,y'] });
  });

  it('a chunked body past the size cap is cut off (no content-length to go by)', async () => {
    handler = (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"success":true,"results":[${'{"id":"x","type":"doc","url":"u","passages":[]},'.repeat(100)}`);
      setTimeout(() => res.end('{"id":"y","type":"doc","url":"u","passages":[]}]}'), 20);
    };
    await assert.rejects(
      make({ maxResponseBytes: 1024 }).search({ query: 'a' }),
      (e: ApiError) => e.kind === 'response-too-large' && /1 KiB/.test(e.message),
    );
  });

  it('a key echoed back by a proxy is redacted from the error and the log', async () => {
    handler = (req, res) => {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: false, error: `Forbidden for ${req.headers.authorization}` }));
    };
    const logs: RequestLogEntry[] = [];
    await assert.rejects(
      make({ apiKey: () => 'sk-leaky-777-0123456789', onLog: (e) => logs.push(e) }).search({ query: 'a' }),
      (e: ApiError) => {
        assert.equal(e.status, 403);
        assert.ok(!e.message.includes('sk-leaky-777-0123456789'), e.message);
        assert.ok(!e.error!.includes('sk-leaky-777-0123456789'));
        assert.match(e.message, /Forbidden for Bearer \[redacted\] \(HTTP 403\)/);
        return true;
      },
    );
    assert.equal(logs.length, 1);
    assert.ok(!JSON.stringify(logs).includes('sk-leaky-777-0123456789'));
  });

  it('a refused connection is reported at once, not retried five times', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const waits: number[] = [];
    const c = make({
      baseUrl: `http://127.0.0.1:${port}`,
      clock: {
        now: () => Date.now(),
        sleep: async (ms) => {
          waits.push(ms);
        },
      },
    });
    await assert.rejects(
      c.search({ query: 'a' }),
      (e: ApiError) => e.kind === 'network' && e.attempts === 1 && /connection refused/.test(e.message),
    );
    assert.deepEqual(waits, []);
  });
});
