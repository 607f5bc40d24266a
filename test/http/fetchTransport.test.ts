// The browser's transport (src/api/fetchTransport.ts) and the sandbox's CORS ("A web
// extension"). Here the transport runs on Node's own fetch over loopback; the browser tier
// (test/browser/webWorker.test.ts) runs it in a chromium Web Worker. The CORS checks are on both wires.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { AgentClient } from '../../src/api/agent/agentClient';
import { DevIndexClient } from '../../src/api/client';
import type { ApiError } from '../../src/api/errors';
import { FetchTransport } from '../../src/api/fetchTransport';
import { startSandbox } from '../../sandbox/server';
import { type Sandbox } from '../../sandbox/serverParts';
import { until } from '../support/until';

const KEY = 'sk-fetch-transport-0123456789';
const ORIGIN = 'https://vscode.dev';

for (const wire of ['production', 'spec'] as const) {
  describe(`CORS and the fetch transport, --wire ${wire}`, () => {
    let sb: Sandbox;
    before(async () => {
      sb = await startSandbox({ port: 0, wire, keys: [KEY], faults: true, quiet: true, agentSpeed: 50 });
    });
    after(async () => {
      await sb.close();
    });

    it('a preflight from any origin allows GET, POST and DELETE with Authorization and Content-Type', async () => {
      for (const path of ['/v2/search/developer', '/v2/agent', '/v2/agent/some-id']) {
        const r = await fetch(`${sb.url}${path}`, {
          method: 'OPTIONS',
          headers: {
            origin: ORIGIN,
            'access-control-request-method': path.endsWith('some-id') ? 'DELETE' : 'POST',
            'access-control-request-headers': 'authorization,content-type',
          },
        });
        assert.ok(r.status === 204, `${path}: ${r.status}`);
        assert.equal(r.headers.get('access-control-allow-origin'), '*');
        const methods = (r.headers.get('access-control-allow-methods') ?? '').toLowerCase();
        for (const m of ['get', 'post', 'delete']) assert.ok(methods.includes(m), `${path}: ${m} in ${methods}`);
        const allowed = (r.headers.get('access-control-allow-headers') ?? '').toLowerCase();
        assert.ok(allowed.includes('authorization') && allowed.includes('content-type'), allowed);
      }
      // A preflight is not a request of the client's: the test-mode log does not hold it.
      const log = (await (await fetch(`${sb.url}/__sandbox/requests`)).json()) as {
        requests: Array<{ method: string }>;
      };
      assert.ok(!log.requests.some((q) => q.method === 'OPTIONS'));
    });

    it('every answer carries the CORS headers: a search, a 401, a 429 fault exposing Retry-After, a 404', async () => {
      const ok = await fetch(`${sb.url}/v2/search/developer?query=retry`, { headers: { origin: ORIGIN } });
      assert.equal(ok.status, 200);
      assert.equal(ok.headers.get('access-control-allow-origin'), '*');
      const refused = await fetch(`${sb.url}/v2/agent`, {
        headers: { origin: ORIGIN, authorization: 'Bearer sk-not-a-key-0123456789' },
      });
      assert.equal(refused.status, 401);
      assert.equal(refused.headers.get('access-control-allow-origin'), '*');
      await fetch(`${sb.url}/__sandbox/faults`, {
        method: 'POST',
        body: JSON.stringify({ faults: [{ kind: 'status', status: 429, retryAfter: '1' }] }),
      });
      const limited = await fetch(`${sb.url}/v2/search/developer?query=x`, { headers: { origin: ORIGIN } });
      assert.equal(limited.status, 429);
      assert.equal(limited.headers.get('access-control-allow-origin'), '*');
      assert.match(limited.headers.get('access-control-expose-headers') ?? '', /Retry-After/);
      const missing = await fetch(`${sb.url}/v3/nothing`, { headers: { origin: ORIGIN } });
      assert.equal(missing.status, 404);
      assert.equal(missing.headers.get('access-control-allow-origin'), '*');
    });

    it('the client over FetchTransport: a keyless search, a keyed search and an agent job to its end, then a cancel', async () => {
      const keyless = new DevIndexClient({ baseUrl: sb.url, transport: new FetchTransport(), timeoutMs: 5000 });
      const r = await keyless.search({ query: 'retry after rate limit', k: 5, types: ['issue', 'pull_request'] });
      assert.ok(r.results.length > 0);
      const keyed = new DevIndexClient({
        baseUrl: sb.url,
        apiKey: () => KEY,
        transport: new FetchTransport(),
        timeoutMs: 5000,
      });
      const r2 = await keyed.search({ query: 'retry', k: 3, repos: ['fetchline/fetchline'] });
      assert.ok(r2.results.every((x) => x.id.includes('fetchline/fetchline')));
      const agents = new AgentClient(keyed);
      const { id } = await agents.submit({
        prompt: 'Collect TypeScript HTTP clients',
        urls: ['https://github.com/nodejs/undici'],
      });
      const status = await until(
        () => agents.status(id),
        (st) => st.status !== 'processing',
        { timeoutMs: 10_000, stepMs: 50, message: (st) => `still ${st?.status}` },
      );
      assert.equal(status.status, 'completed');
      const other = await agents.submit({ prompt: 'cancel me SLOW' });
      await agents.cancel(other.id);
      const cancelled = await until(
        () => agents.status(other.id),
        (st) => st.status !== 'processing' && st.status !== 'cancelling',
        { timeoutMs: 10_000, stepMs: 50, message: (st) => `still ${st?.status}` },
      );
      // The wires say it differently (sandbox/agent/README.md): `cancelled`, or `failed` with the cancel as its error.
      assert.ok(cancelled.status === 'cancelled' || /cancel/i.test(String(cancelled.error)), JSON.stringify(cancelled));
    });
  });
}

describe("FetchTransport: the client's semantics on fetch", () => {
  let server: Server;
  let base: string;
  let seen: IncomingHttpHeaders = {};
  let answer: (res: import('node:http').ServerResponse) => void = (res) => {
    res.end('{}');
  };
  before(async () => {
    server = createServer((req, res) => {
      seen = req.headers;
      req.resume();
      answer(res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });
  const send = (o: Partial<Parameters<FetchTransport['send']>[0]> = {}) =>
    new FetchTransport().send({
      method: 'GET',
      url: `${base}/v2/x`,
      headers: { 'user-agent': 'devindex/test', accept: 'application/json' },
      timeoutMs: 2000,
      maxResponseBytes: 1024,
      ...o,
    });
  const rejectsWith = async (p: Promise<unknown>, kind: string): Promise<ApiError> => {
    try {
      await p;
    } catch (e) {
      assert.equal((e as ApiError).kind, kind, (e as Error).message);
      return e as ApiError;
    }
    throw new Error(`expected a ${kind} error`);
  };

  it('leaves out User-Agent (a browser forbids it) and sends the other headers', async () => {
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    };
    const r = await send();
    assert.equal(r.status, 200);
    assert.equal(r.bodyText, '{"ok":true}');
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(seen.accept, 'application/json');
    assert.notEqual(seen['user-agent'], 'devindex/test');
  });

  it('the size cap: declared and counted (a chunked body that passes it)', async () => {
    answer = (res) => {
      res.writeHead(200, { 'content-length': '4096' });
      res.end('x'.repeat(4096));
    };
    await rejectsWith(send(), 'response-too-large');
    answer = (res) => {
      res.writeHead(200);
      res.write('y'.repeat(800));
      setTimeout(() => res.end('y'.repeat(800)), 20);
    };
    await rejectsWith(send(), 'response-too-large');
  });

  it("the timeout covers the body, and the caller's signal aborts", async () => {
    answer = (res) => {
      res.writeHead(200);
      res.write('{');
    };
    const started = Date.now();
    const t = await rejectsWith(send({ timeoutMs: 300 }), 'timeout');
    assert.ok(t.retryable);
    assert.ok(Date.now() - started < 2000);
    answer = () => undefined;
    const c = new AbortController();
    setTimeout(() => c.abort(), 100);
    await rejectsWith(send({ signal: c.signal, timeoutMs: 5000 }), 'aborted');
    await rejectsWith(send({ signal: AbortSignal.abort() }), 'aborted');
  });

  it('a redirect is not followed; a 204 is one clear error; a closed port says so', async () => {
    answer = (res) => {
      res.writeHead(302, { location: 'https://elsewhere.example/' });
      res.end();
    };
    const client = new DevIndexClient({ baseUrl: base, transport: new FetchTransport(), timeoutMs: 2000 });
    await rejectsWith(client.search({ query: 'x' }), 'redirect');
    answer = (res) => {
      res.writeHead(204);
      res.end();
    };
    await rejectsWith(send(), 'invalid-response');
    const e = await rejectsWith(
      new FetchTransport().send({
        method: 'GET',
        url: 'http://127.0.0.1:9/v2/x',
        headers: {},
        timeoutMs: 2000,
        maxResponseBytes: 10,
      }),
      'network',
    );
    assert.match(e.message, /127\.0\.0\.1:9/);
  });
});
