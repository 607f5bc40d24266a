// Statuses the client does not expect ("Nothing lost, nothing garbled"): a 304 or 204 with a
// Content-Length but no body, a 3xx whose body never ends, interim 1xx answers, answers that are not
// HTTP. Each must be one clear error at once: no wait for a body that never comes, no retries. The
// server writes raw bytes and keeps the connection open, as a misbehaving cache or gateway does.
import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { DevIndexClient } from '../../src/api/client';
import type { ApiError } from '../../src/api/errors';
import { runCliProcess } from './cliProcess';
import { HttpTransport } from '../../src/api/http';

const KEY = 'fc-unexpected-0123456789abcdef';
let answer = '';
let requests = 0;
let server: Server;
let base: string;
const sockets = new Set<Socket>();

before(async () => {
  server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
    let buf = '';
    s.on('data', (d: Buffer) => {
      buf += d.toString('latin1');
      if (!buf.includes('\r\n\r\n')) return;
      buf = '';
      requests++;
      s.write(answer);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
});

const CASES: Array<{ name: string; raw: string; kind: string; status?: number; message: RegExp }> = [
  {
    name: '304 with a Content-Length and no body',
    raw: 'HTTP/1.1 304 Not Modified\r\nContent-Length: 16\r\n\r\n',
    kind: 'invalid-response',
    status: 304,
    message:
      /answered HTTP 304 \(Not Modified\), an answer without a body that this client never asks for; nothing to show, and not retried/,
  },
  {
    name: '304 without a Content-Length',
    raw: 'HTTP/1.1 304 Not Modified\r\n\r\n',
    kind: 'invalid-response',
    status: 304,
    message: /HTTP 304 \(Not Modified\)/,
  },
  {
    name: '204 with a Content-Length and no body',
    raw: 'HTTP/1.1 204 No Content\r\nContent-Length: 16\r\n\r\n',
    kind: 'invalid-response',
    status: 204,
    message: /HTTP 204 \(No Content\)/,
  },
  {
    name: '205',
    raw: 'HTTP/1.1 205 Reset Content\r\nContent-Length: 0\r\n\r\n',
    kind: 'invalid-response',
    status: 205,
    message: /HTTP 205 \(Reset Content\)/,
  },
  {
    name: '102 Processing, then 304',
    raw: 'HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 304 Not Modified\r\nContent-Length: 16\r\n\r\n',
    kind: 'invalid-response',
    status: 304,
    message: /HTTP 304/,
  },
  {
    name: '300 whose body never ends (no length, connection kept open)',
    raw: 'HTTP/1.1 300 Multiple Choices\r\nContent-Type: text/html\r\n\r\n<html>',
    kind: 'redirect',
    status: 300,
    message: /redirect \(HTTP 300\) without a usable Location/,
  },
  {
    name: '302 with a Location, body never ends',
    raw: 'HTTP/1.1 302 Found\r\nLocation: https://elsewhere.example/x\r\nContent-Length: 100\r\n\r\n',
    kind: 'redirect',
    status: 302,
    message: /redirect \(HTTP 302\) to https:\/\/elsewhere\.example/,
  },
  {
    name: 'a status outside 200 to 599',
    raw: 'HTTP/1.1 700 Odd\r\nContent-Length: 2\r\n\r\n{}',
    kind: 'invalid-response',
    status: 700,
    message: /HTTP 700, which is not an HTTP status/,
  },
  {
    name: '199, then bytes that are not HTTP',
    raw: 'HTTP/1.1 199 Odd\r\nContent-Length: 2\r\n\r\n{}',
    kind: 'invalid-response',
    message: /is not valid HTTP\/1\.1 \(Response does not match the HTTP\/1\.1 protocol/,
  },
];

describe('unexpected statuses: an immediate, clear error', () => {
  for (const c of CASES) {
    it(`client: ${c.name}`, async () => {
      answer = c.raw;
      requests = 0;
      // The real clock: a retry would really wait, a body that never comes would wait for the timeout.
      const client = new DevIndexClient({
        transport: new HttpTransport(),
        baseUrl: base,
        apiKey: () => KEY,
        timeoutMs: 10_000,
      });
      const t0 = Date.now();
      try {
        await assert.rejects(client.search({ query: 'q' }), (e: ApiError) => {
          assert.equal(e.kind, c.kind, e.message);
          if (c.status !== undefined) assert.equal(e.status, c.status);
          assert.match(e.message, c.message);
          assert.equal(e.attempts, 1, 'not retried');
          return true;
        });
      } finally {
        await client.close();
      }
      const ms = Date.now() - t0;
      assert.ok(ms < 5_000, `answered in ${ms} ms`);
      assert.equal(requests, 1);
    });
  }

  // A whole process on 2 loaded cores can take seconds to start, so the bound is what tells "at once"
  // from the old ways: five attempts over 33 s, or one wait for the 30 s timeout; one request proves
  // there was no retry.
  const PROCESS_BOUND_MS = 15_000;

  it('devindex search: a 304 with a Content-Length is reported at once with exit 1', async () => {
    answer = CASES[0]!.raw;
    requests = 0;
    const t0 = Date.now();
    const r = await runCliProcess(['search', 'hello'], { DEVINDEX_BASE_URL: base, DEVINDEX_API_KEY: KEY });
    const ms = Date.now() - t0;
    assert.equal(r.code, 1, r.err);
    assert.match(
      r.err,
      /^devindex search: http:\/\/127\.0\.0\.1:\d+ answered HTTP 304 \(Not Modified\), an answer without a body that this client never asks for; nothing to show, and not retried: check the base URL/,
    );
    assert.doesNotMatch(r.err, /retrying/);
    assert.equal(r.out, '');
    assert.equal(requests, 1, 'one request, no retry');
    assert.ok(ms < PROCESS_BOUND_MS, `the CLI answered in ${ms} ms`);
  });

  it('devindex search: a 204 with a Content-Length, likewise', async () => {
    answer = CASES[2]!.raw;
    requests = 0;
    const t0 = Date.now();
    const r = await runCliProcess(['search', 'hello'], { DEVINDEX_BASE_URL: base, DEVINDEX_API_KEY: KEY });
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /answered HTTP 204 \(No Content\)/);
    assert.doesNotMatch(r.err, /retrying/);
    assert.equal(requests, 1, 'one request, no retry');
    assert.ok(Date.now() - t0 < PROCESS_BOUND_MS, `the CLI answered in ${Date.now() - t0} ms`);
  });
});
