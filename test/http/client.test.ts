// DevIndexClient against the sandbox over real HTTP on 127.0.0.1, with each injected fault.
// Retry waits go through a recording clock that does not really sleep, so the tests stay fast.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { z } from 'zod';
import { DevIndexClient, type ClientOptions, type RequestLogEntry } from '../../src/api/client';
import { ApiError } from '../../src/api/errors';
import { AbortedError, type Clock, type RetryEvent } from '../../src/api/retry';
import { startSandbox } from '../../sandbox/server';
import { HttpTransport } from '../../src/api/http';

const KEY = 'sk-test-client-0123456789';
let sb: { url: string; close(): Promise<void> };

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const r = await fetch(`${sb.url}${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(5000),
  });
  assert.equal(r.status, 200, `control ${method} ${path}`);
  return r.json();
}
const faults = (...f: unknown[]) => control('POST', '/__sandbox/faults', { faults: f });
const logged = async () =>
  (
    (await control('GET', '/__sandbox/requests')) as {
      requests: Array<{ method: string; path: string; query: string; body: unknown; auth: string }>;
    }
  ).requests;

function recordingClock() {
  const waits: number[] = [];
  const clock: Clock & { waits: number[] } = {
    waits,
    now: () => Date.now(),
    sleep: (ms, signal) => {
      if (signal?.aborted) return Promise.reject(new AbortedError());
      waits.push(ms);
      return Promise.resolve();
    },
  };
  return clock;
}

const clients: DevIndexClient[] = [];
function client(o: Partial<ClientOptions> = {}) {
  const clock = recordingClock();
  const logs: RequestLogEntry[] = [];
  const c = new DevIndexClient({
    transport: new HttpTransport(),
    baseUrl: sb.url,
    clock,
    random: () => 0.25,
    timeoutMs: 5000,
    onLog: (e) => logs.push(e),
    ...o,
  });
  clients.push(c);
  return { c, clock, logs };
}

before(async () => {
  sb = await startSandbox({
    port: 0,
    wire: 'spec',
    keys: [KEY],
    faults: true,
    quiet: true,
    keylessRateLimit: 100_000,
    rateLimit: 100_000,
  });
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sb.close();
});
beforeEach(async () => {
  await control('DELETE', '/__sandbox/faults');
  await control('DELETE', '/__sandbox/requests');
});

describe('client against the sandbox: normal answers', () => {
  it('keyless GET search: validated response, no Authorization header', async () => {
    const { c, logs } = client();
    const r = await c.search({ query: 'retry after rate limit', k: 5, passages: 2 });
    assert.equal(r.success, true);
    assert.ok(r.results.length > 0 && r.results.length <= 5);
    for (const x of r.results) assert.ok(x.passages.length >= 1 && x.passages.length <= 2);
    assert.ok(r.coverage);
    const reqs = await logged();
    assert.equal(reqs.length, 1);
    assert.equal(reqs[0]!.method, 'GET');
    assert.equal(reqs[0]!.auth, 'none');
    assert.deepEqual(
      logs.map((l) => [l.method, l.path, l.status, l.attempts]),
      [['GET', '/v2/search/developer', 200, 1]],
    );
  });

  it('with a key: Authorization sent (valid), and arrays as repeated parameters', async () => {
    const { c } = client({ apiKey: () => KEY });
    const r = await c.search({
      query: 'retry',
      types: ['issue', 'pull_request'],
      repos: ['fetchline/fetchline', 'tidewater/httpwell'],
    });
    assert.ok(r.results.every((x) => x.type === 'issue' || x.type === 'pull_request'));
    assert.deepEqual(
      r.repos?.map((e) => e.repo),
      ['fetchline/fetchline', 'tidewater/httpwell'],
    );
    const [req] = await logged();
    assert.equal(req!.auth, 'valid');
    const q = new URLSearchParams(req!.query);
    assert.deepEqual(q.getAll('types'), ['issue', 'pull_request']);
    assert.deepEqual(q.getAll('repos'), ['fetchline/fetchline', 'tidewater/httpwell']);
    assert.ok(!req!.query.includes(KEY));
  });

  it('POST with a JSON body when a source id holds a comma; the sources echo comes back', async () => {
    const { c } = client();
    const r = await c.search({ query: 'streams', sources: ['fetchline', 'odd,id'] });
    const [req] = await logged();
    assert.equal(req!.method, 'POST');
    assert.deepEqual(req!.body, { query: 'streams', sources: ['fetchline', 'odd,id'] });
    assert.deepEqual(r.sources, [
      { source: 'fetchline', indexed: true },
      { source: 'odd,id', indexed: false },
    ]);
  });

  it('invalid parameters: ApiError validation and no request made', async () => {
    const { c } = client();
    await assert.rejects(
      c.search({ query: 'q', types: ['issue'], sources: ['fetchline'] }),
      (e: ApiError) =>
        e.kind === 'validation' &&
        e.attempts === 0 &&
        e.issues![0]!.message === 'sources cannot match any requested type; add doc or drop sources',
    );
    assert.deepEqual(await logged(), []);
  });

  it('an invalid key: 401 with its advice, not retried, key nowhere in the error or log', async () => {
    const { c, logs } = client({ apiKey: () => 'sk-wrong-key-999' });
    await assert.rejects(c.search({ query: 'retry' }), (e: ApiError) => {
      assert.equal(e.status, 401);
      assert.equal(e.error, 'Unauthorized: Invalid token');
      assert.equal(e.attempts, 1);
      assert.match(e.message, /set or replace the API key/);
      assert.ok(!JSON.stringify({ m: e.message, e }).includes('sk-wrong-key-999'));
      return true;
    });
    assert.ok(!JSON.stringify(logs).includes('sk-wrong-key-999'));
    assert.equal((await logged()).length, 1);
  });

  it('the sandbox rate limit: 429 with Retry-After is waited (as a minimum) and retried', async () => {
    const local = await startSandbox({ port: 0, wire: 'spec', faults: true, quiet: true, keylessRateLimit: 1 });
    const c = new DevIndexClient({
      transport: new HttpTransport(),
      baseUrl: local.url,
      clock: recordingClock(),
      random: () => 0,
      maxRetryAfterMs: 120_000,
    });
    try {
      await c.search({ query: 'retry' });
      const events: RetryEvent[] = [];
      // The fake clock does not wait, so the bucket stays empty and all 5 attempts are spent.
      await assert.rejects(
        c.search({ query: 'retry' }, { onRetry: (e) => events.push(e) }),
        (e: ApiError) => e.status === 429 && e.error === 'Rate limit exceeded' && e.attempts === 5,
      );
      assert.equal(events.length, 4);
      assert.ok(events.every((e) => e.reason === 'rate limited' && e.delayMs >= 1000));
    } finally {
      await c.close();
      await local.close();
    }
  });
});

describe('client against the sandbox: injected faults', () => {
  const retried: Array<[string, object]> = [
    ['408', { kind: 'status', status: 408 }],
    ['429 without Retry-After', { kind: 'status', status: 429 }],
    ['500', { kind: 'status', status: 500 }],
    ['502 with an empty body', { kind: 'status', status: 502, body: 'empty' }],
    ['503', { kind: 'status', status: 503 }],
    ['504 with an empty body', { kind: 'status', status: 504, body: 'empty' }],
    ['500 HTML page', { kind: 'status', status: 500, body: 'html' }],
    ['503 truncated JSON', { kind: 'status', status: 503, body: 'truncated' }],
    ['502 with detail', { kind: 'status', status: 502, body: 'detail' }],
    ['504 with title', { kind: 'status', status: 504, body: 'title' }],
    ['a reset connection', { kind: 'reset' }],
  ];
  for (const [name, fault] of retried) {
    it(`${name}: retried with backoff, then success`, async () => {
      await faults({ ...fault, count: 2 });
      const { c, clock, logs } = client();
      const events: RetryEvent[] = [];
      const r = await c.search({ query: 'retry' }, { onRetry: (e) => events.push(e) });
      assert.ok(r.results.length > 0);
      // min(2^attempt, 30) s + 0.25 s jitter after attempts 1 and 2.
      assert.deepEqual(clock.waits, [2250, 4250]);
      assert.deepEqual(
        events.map((e) => e.attempt),
        [2, 3],
      );
      assert.equal((await logged()).length, 3);
      assert.equal(logs.at(-1)!.attempts, 3);
    });
  }

  const messages: Array<[string, object, RegExp]> = [
    [
      '502 empty',
      { kind: 'status', status: 502, body: 'empty' },
      /^Bad Gateway: the service sent an empty body \(HTTP 502\)/,
    ],
    [
      '504 empty',
      { kind: 'status', status: 504, body: 'empty' },
      /^Gateway Timeout: the service sent an empty body \(HTTP 504\)/,
    ],
    ['HTML page', { kind: 'status', status: 502, body: 'html' }, /an HTML page \("502 Bad Gateway"\) \(HTTP 502\)/],
    ['truncated JSON', { kind: 'status', status: 500, body: 'truncated' }, /truncated or malformed JSON \(HTTP 500\)/],
    ['detail', { kind: 'status', status: 503, body: 'detail' }, /^Service Unavailable \(HTTP 503\)/],
    ['title', { kind: 'status', status: 502, body: 'title' }, /^Bad Gateway \(HTTP 502\)/],
    [
      'no success',
      { kind: 'status', status: 503, body: 'no-success', error: 'Service Unavailable' },
      /^Service Unavailable \(HTTP 503\)/,
    ],
    [
      '429 concurrency',
      { kind: 'status', status: 429, error: 'Concurrency limit reached' },
      /^Concurrency limit reached \(HTTP 429\): .*concurrent browser limit/,
    ],
  ];
  for (const [name, fault, re] of messages) {
    it(`${name}: after 5 attempts a clear message with the status`, async () => {
      await faults({ ...fault, count: 5 });
      const { c, clock } = client();
      await assert.rejects(c.search({ query: 'retry' }), (e: ApiError) => {
        assert.equal(e.kind, 'http');
        assert.equal(e.attempts, 5);
        assert.match(e.message, re);
        return true;
      });
      assert.deepEqual(clock.waits, [2250, 4250, 8250, 16250]);
      assert.equal((await logged()).length, 5);
    });
  }

  it('429 with Retry-After in seconds: waits exactly that (no backoff)', async () => {
    await faults({ kind: 'status', status: 429, retryAfter: '3' });
    const { c, clock } = client();
    const events: RetryEvent[] = [];
    await c.search({ query: 'retry' }, { onRetry: (e) => events.push(e) });
    assert.deepEqual(clock.waits, [3000]);
    assert.deepEqual(events, [{ attempt: 2, maxAttempts: 5, delayMs: 3000, reason: 'rate limited', status: 429 }]);
  });

  it('503 with Retry-After as an HTTP date', async () => {
    const at = new Date(Math.ceil((Date.now() + 4000) / 1000) * 1000);
    await faults({ kind: 'status', status: 503, retryAfter: at.toUTCString() });
    const { c, clock } = client();
    await c.search({ query: 'retry' });
    assert.equal(clock.waits.length, 1);
    assert.ok(clock.waits[0]! > 2500 && clock.waits[0]! <= 5000, String(clock.waits[0]));
  });

  it('a Retry-After beyond maxRetryAfterMs is reported, not waited', async () => {
    await faults({ kind: 'status', status: 429, retryAfter: '90' });
    const { c, clock } = client({ maxRetryAfterMs: 30_000 });
    await assert.rejects(
      c.search({ query: 'retry' }),
      (e: ApiError) => e.kind === 'retry-after-too-long' && e.retryAfterMs === 90_000 && e.attempts === 1,
    );
    assert.deepEqual(clock.waits, []);
  });

  it('non-retryable statuses end at once: 400, 401, 402, 403, 404, 413, 422', async () => {
    for (const status of [400, 401, 402, 403, 404, 413, 422]) {
      await control('DELETE', '/__sandbox/requests');
      await faults({ kind: 'status', status });
      const { c, clock } = client();
      await assert.rejects(
        c.search({ query: 'retry' }),
        (e: ApiError) => e.status === status && e.attempts === 1 && !e.retryable,
      );
      assert.deepEqual(clock.waits, []);
      assert.equal((await logged()).length, 1);
    }
  });

  it('slow past the per-attempt timeout: kind timeout, retried, then success', async () => {
    await faults({ kind: 'slow', ms: 1500 });
    const { c, clock } = client({ timeoutMs: 300 });
    const r = await c.search({ query: 'retry' });
    assert.ok(r.results.length > 0);
    assert.equal(clock.waits.length, 1);
  });

  it('slow every time: ApiError timeout after 5 attempts', async () => {
    await faults({ kind: 'slow', ms: 1000, count: 5 });
    const { c } = client({ timeoutMs: 150 });
    await assert.rejects(
      c.search({ query: 'retry' }),
      (e: ApiError) =>
        e.kind === 'timeout' && e.attempts === 5 && /within 0\.2 s \(timeout per attempt\)/.test(e.message),
    );
  });

  it('reset every time: ApiError network after 5 attempts', async () => {
    await faults({ kind: 'reset', count: 5 });
    const { c } = client();
    await assert.rejects(
      c.search({ query: 'retry' }),
      (e: ApiError) => e.kind === 'network' && e.attempts === 5 && /could not complete the request/.test(e.message),
    );
  });

  it('a 200 with truncated JSON is invalid-response, not retried', async () => {
    await faults({ kind: 'status', status: 200, body: 'truncated' });
    const { c } = client();
    await assert.rejects(
      c.search({ query: 'retry' }),
      (e: ApiError) =>
        e.kind === 'invalid-response' &&
        e.status === 200 &&
        /truncated or malformed JSON/.test(e.message) &&
        e.attempts === 1,
    );
  });

  it('a 200 without the documented fields is invalid-response naming the field', async () => {
    await faults({ kind: 'status', status: 200, body: 'no-success', error: 'x' });
    const { c } = client();
    await assert.rejects(
      c.search({ query: 'retry' }),
      (e: ApiError) => e.kind === 'invalid-response' && /success: /.test(e.message) && /results: /.test(e.message),
    );
  });

  it('response size cap', async () => {
    const { c } = client({ maxResponseBytes: 512 });
    await assert.rejects(
      c.search({ query: 'retry', k: 20, passages: 5 }),
      (e: ApiError) => e.kind === 'response-too-large' && !e.retryable,
    );
  });

  it('abort during a real backoff wait ends the call at once', async () => {
    await faults({ kind: 'status', status: 503, retryAfter: '30' });
    const c = new DevIndexClient({ transport: new HttpTransport(), baseUrl: sb.url });
    clients.push(c);
    const ac = new AbortController();
    const t0 = Date.now();
    const p = c.search({ query: 'retry' }, { signal: ac.signal, onRetry: () => setTimeout(() => ac.abort(), 50) });
    await assert.rejects(p, (e: ApiError) => e.kind === 'aborted' && e.attempts === 1);
    assert.ok(Date.now() - t0 < 5000);
  });

  it('abort during a slow answer ends the attempt as aborted (not timeout, not retried)', async () => {
    await faults({ kind: 'slow', ms: 3000 });
    const { c, clock } = client();
    await assert.rejects(
      c.search({ query: 'retry' }, { signal: AbortSignal.timeout(100) }),
      (e: ApiError) => e.kind === 'aborted',
    );
    assert.deepEqual(clock.waits, []);
  });
});

describe('request<T>() with retry mode submit (agent submit)', () => {
  const schema = z.looseObject({ success: z.boolean() });
  const submit = (c: DevIndexClient) =>
    c.request({ method: 'POST', path: '/v2/agent', body: { prompt: 'find things' }, schema, retry: 'submit' });
  const posts = async () => (await logged()).filter((r) => r.method === 'POST' && r.path === '/v2/agent').length;

  for (const [name, fault] of [
    ['429', { kind: 'status', status: 429, path: '/v2/agent' }],
    ['503', { kind: 'status', status: 503, path: '/v2/agent' }],
    [
      '500 passthrough',
      { kind: 'status', status: 500, error: 'Failed to passthrough agent request.', path: '/v2/agent' },
    ],
  ] as const) {
    it(`retries ${name}`, async () => {
      await faults(fault);
      const { c, clock } = client({ apiKey: () => KEY });
      await submit(c).catch(() => undefined); // the agent service's own answer is not this test's concern
      assert.equal(clock.waits.length, 1);
      assert.equal(await posts(), 2);
    });
  }
  for (const [name, fault] of [
    ['502', { kind: 'status', status: 502, body: 'empty', path: '/v2/agent' }],
    ['504', { kind: 'status', status: 504, body: 'empty', path: '/v2/agent' }],
    ['500', { kind: 'status', status: 500, path: '/v2/agent' }],
    ['reset', { kind: 'reset', path: '/v2/agent' }],
  ] as const) {
    it(`never retries ${name}`, async () => {
      await faults(fault);
      const { c, clock } = client({ apiKey: () => KEY });
      await assert.rejects(submit(c), (e: ApiError) => e.attempts === 1);
      assert.deepEqual(clock.waits, []);
      assert.equal(await posts(), 1);
    });
  }
  it('never retries a timeout', async () => {
    await faults({ kind: 'slow', ms: 1500, path: '/v2/agent' });
    const { c } = client({ apiKey: () => KEY, timeoutMs: 200 });
    await assert.rejects(submit(c), (e: ApiError) => e.kind === 'timeout' && e.attempts === 1);
    assert.equal(await posts(), 1);
  });
});
