import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, errorFromResponse } from '../../../src/api/errors';
import {
  AbortedError,
  backoffMs,
  formatRetryEvent,
  MAX_ATTEMPTS,
  shouldRetry,
  withRetry,
  type Clock,
  type RetryEvent,
  type RateLimitMode,
  type RetryMode,
} from '../../../src/api/retry';

/** A clock whose sleep returns at once and records the wait; aborts like the real one. */
function fakeClock(start = Date.parse('2025-01-01T00:00:00Z')) {
  const waits: number[] = [];
  let t = start;
  const clock: Clock & { waits: number[] } = {
    waits,
    now: () => t,
    sleep: (ms, signal) => {
      if (signal?.aborted) return Promise.reject(new AbortedError());
      waits.push(ms);
      t += ms;
      return Promise.resolve();
    },
  };
  return clock;
}

const http = (status: number, error?: string, retryAfter?: string, nowMs = 0) =>
  errorFromResponse({
    status,
    bodyText: error ? JSON.stringify({ success: false, error }) : '',
    retryAfter,
    nowMs,
    attempts: 0,
  });

/** Fails with the given errors in turn, then returns 'done'. */
function script(errors: ApiError[]) {
  let calls = 0;
  const fn = async (): Promise<string> => {
    const e = errors[calls++];
    if (e) throw e;
    return 'done';
  };
  return { fn, calls: () => calls };
}

function run(
  errors: ApiError[],
  o: {
    mode?: RetryMode;
    random?: () => number;
    maxRetryAfterMs?: number;
    clock?: ReturnType<typeof fakeClock>;
    signal?: AbortSignal;
    rateLimit?: RateLimitMode;
  } = {},
) {
  const clock = o.clock ?? fakeClock();
  const events: RetryEvent[] = [];
  const s = script(errors);
  const p = withRetry(s.fn, {
    mode: o.mode ?? 'spec',
    clock,
    random: o.random ?? (() => 0),
    maxRetryAfterMs: o.maxRetryAfterMs ?? 60_000,
    signal: o.signal,
    onRetry: (e) => events.push(e),
    rateLimit: o.rateLimit,
  });
  return { p, clock, events, calls: s.calls };
}

describe('backoff: min(2^attempt, 30) s plus up to 1 s of jitter', () => {
  it('bounds for each attempt with the smallest and largest random value', () => {
    const expected = [2000, 4000, 8000, 16000, 30000, 30000];
    expected.forEach((base, i) => {
      assert.equal(
        backoffMs(i + 1, () => 0),
        base,
      );
      const hi = backoffMs(i + 1, () => 0.9999999);
      assert.ok(hi >= base + 999 && hi < base + 1000, `attempt ${i + 1}: ${hi}`);
    });
  });
});

describe('withRetry (spec mode)', () => {
  it('retries each retryable status until success, with backoff waits', async () => {
    const r = run([http(503), http(500), http(502), http(504)], { random: () => 0.5 });
    assert.equal(await r.p, 'done');
    assert.equal(r.calls(), 5);
    assert.deepEqual(r.clock.waits, [2500, 4500, 8500, 16500]);
    assert.deepEqual(
      r.events.map((e) => [e.attempt, e.maxAttempts, e.status]),
      [
        [2, 5, 503],
        [3, 5, 500],
        [4, 5, 502],
        [5, 5, 504],
      ],
    );
  });

  it('stops at 5 attempts in all and reports the attempt count', async () => {
    const r = run(Array.from({ length: 10 }, () => http(429, 'Rate limit exceeded')));
    await assert.rejects(r.p, (e: ApiError) => e.status === 429 && e.attempts === MAX_ATTEMPTS);
    assert.equal(r.calls(), 5);
    assert.equal(r.clock.waits.length, 4);
  });

  it('Retry-After in seconds is the wait (a minimum, no shorter)', async () => {
    const r = run([http(429, 'Rate limit exceeded', '3')], { random: () => 0.99 });
    assert.equal(await r.p, 'done');
    assert.deepEqual(r.clock.waits, [3000]);
    assert.equal(formatRetryEvent(r.events[0]!), 'rate limited; retrying in 3 s (attempt 2 of 5)');
  });

  it('Retry-After as an HTTP date', async () => {
    const clock = fakeClock(Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'));
    const r = run([http(503, 'Service Unavailable', 'Wed, 21 Oct 2015 07:28:05 GMT', clock.now())], { clock });
    assert.equal(await r.p, 'done');
    assert.deepEqual(clock.waits, [5000]);
  });

  it('a Retry-After beyond the ceiling is reported, not waited out', async () => {
    const r = run([http(429, 'Rate limit exceeded', '120')], { maxRetryAfterMs: 60_000 });
    await assert.rejects(r.p, (e: ApiError) => {
      assert.equal(e.kind, 'retry-after-too-long');
      assert.equal(e.retryAfterMs, 120_000);
      assert.equal(e.status, 429);
      assert.match(e.message, /wait until \d\d:\d\d \(in 2 min\), longer than the 60 s this client waits by itself/);
      return true;
    });
    assert.deepEqual(r.clock.waits, []);
    assert.equal(r.events.length, 0);
  });

  it("rateLimit 'fail': a 429 it would wait out rejects at once with that 429; other statuses are still retried", async () => {
    const r = run([http(503), http(429, 'Rate limit exceeded', '3')], { rateLimit: 'fail', random: () => 0 });
    await assert.rejects(r.p, (e: ApiError) => {
      assert.equal(e.kind, 'http');
      assert.equal(e.status, 429);
      assert.equal(e.retryAfterMs, 3000);
      assert.equal(e.attempts, 2);
      return true;
    });
    assert.equal(r.calls(), 2);
    assert.deepEqual(r.clock.waits, [2000], 'the 503 was waited out, the 429 not');
    assert.deepEqual(
      r.events.map((e) => e.status),
      [503],
    );
    const long = run([http(429, 'Rate limit exceeded', '120')], { rateLimit: 'fail' });
    await assert.rejects(long.p, (e: ApiError) => e.kind === 'retry-after-too-long' && /wait until/.test(e.message));
  });

  it('a Retry-After equal to the ceiling is waited', async () => {
    const r = run([http(429, 'Rate limit exceeded', '60')], { maxRetryAfterMs: 60_000 });
    assert.equal(await r.p, 'done');
    assert.deepEqual(r.clock.waits, [60_000]);
  });

  it('does not retry non-retryable statuses (400, 401, 402, 403, 404, 409, 413, 422)', async () => {
    for (const s of [400, 401, 402, 403, 404, 409, 413, 422]) {
      const r = run([http(s)]);
      await assert.rejects(r.p, (e: ApiError) => e.status === s && e.attempts === 1);
      assert.equal(r.calls(), 1);
    }
  });

  it('408 is retried', async () => {
    const r = run([http(408, 'Request Timeout')]);
    assert.equal(await r.p, 'done');
  });

  it('retries timeouts and dropped connections, not refused ones', async () => {
    const timeout = new ApiError({ kind: 'timeout', message: 't', retryable: true });
    const reset = new ApiError({ kind: 'network', message: 'r', retryable: true, code: 'ECONNRESET' });
    assert.equal(await run([timeout, reset]).p, 'done');
    const refused = new ApiError({ kind: 'network', message: 'r', retryable: false, code: 'ECONNREFUSED' });
    const r = run([refused]);
    await assert.rejects(r.p, (e: ApiError) => e.code === 'ECONNREFUSED');
    assert.equal(r.calls(), 1);
  });

  it('an abort during a backoff wait ends it at once as kind aborted', async () => {
    const ac = new AbortController();
    let t = 0;
    const clock: Clock = {
      now: () => t,
      // A real wait that only the signal can end: proves the abort cuts the wait short.
      sleep: (_ms, signal) =>
        new Promise((_res, rej) => signal!.addEventListener('abort', () => rej(new AbortedError()), { once: true })),
    };
    const events: RetryEvent[] = [];
    const p = withRetry(script([http(503)]).fn, {
      mode: 'spec',
      clock,
      random: () => 0,
      maxRetryAfterMs: 60_000,
      signal: ac.signal,
      onRetry: (e) => {
        events.push(e);
        t = 1;
        setImmediate(() => ac.abort());
      },
    });
    await assert.rejects(p, (e: ApiError) => e.kind === 'aborted' && e.attempts === 1 && !e.retryable);
    assert.equal(events.length, 1);
  });
});

describe('withRetry (submit mode: only when the job cannot exist)', () => {
  const retried: Array<[string, ApiError]> = [
    ['429', http(429, 'Rate limit exceeded')],
    ['503', http(503, 'Service Unavailable')],
    ['500 passthrough', http(500, 'Failed to passthrough agent request.')],
  ];
  for (const [name, err] of retried) {
    it(`retries ${name}`, async () => {
      assert.equal(shouldRetry(err, 'submit'), true);
      assert.equal(await run([err], { mode: 'submit' }).p, 'done');
    });
  }
  const notRetried: Array<[string, ApiError]> = [
    ['500 other', http(500, 'Internal Server Error')],
    ['502', http(502)],
    ['504', http(504)],
    ['408', http(408, 'Request Timeout')],
    ['timeout', new ApiError({ kind: 'timeout', message: 't', retryable: true })],
    ['dropped connection', new ApiError({ kind: 'network', message: 'r', retryable: true, code: 'ECONNRESET' })],
  ];
  for (const [name, err] of notRetried) {
    it(`never retries ${name}`, async () => {
      const r = run([err], { mode: 'submit' });
      await assert.rejects(r.p, (e: ApiError) => e === err && e.attempts === 1);
      assert.equal(r.calls(), 1);
      // The same failure in spec mode would be retried (except the non-retryable 500 check above).
      if (name !== '500 other') assert.equal(shouldRetry(err, 'spec'), true);
    });
  }
});

it('formatRetryEvent rounds the wait up to whole seconds, and says "now" for no wait', () => {
  assert.equal(
    formatRetryEvent({
      attempt: 3,
      maxAttempts: 5,
      delayMs: 4001,
      reason: 'service unavailable (HTTP 503)',
      status: 503,
    }),
    'service unavailable (HTTP 503); retrying in 5 s (attempt 3 of 5)',
  );
  assert.equal(
    formatRetryEvent({ attempt: 2, maxAttempts: 5, delayMs: 0, reason: 'rate limited' }),
    'rate limited; retrying now (attempt 2 of 5)',
  );
});
