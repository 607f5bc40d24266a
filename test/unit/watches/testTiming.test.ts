// The one test setting for time (src/testHooks/timing.ts): each field within its bounds, and a clear message
// naming the field and the bound for anything else.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_POLL_TIMING } from '../../../src/agentRun/pollSchedule';
import { DevIndexClient } from '../../../src/api/client';
import type { RetryEvent } from '../../../src/api/retry';
import type { Transport } from '../../../src/api/transport';
import {
  backoffOf,
  parseTestTiming,
  pollTimingOf,
  TEST_TIMING_BOUNDS,
  TEST_TIMING_ENV,
} from '../../../src/testHooks/timing';

const short = JSON.stringify({
  leaseTtlMs: 8_000,
  leaseRenewMs: 2_000,
  watchIntervalMs: 30_000,
  watchFirstBeatMs: 1_000,
  watchLookAgainMs: 5_000,
  watchSettleMs: 300,
  watchBetweenMs: 200,
});

test('test timing: every field within its bounds applies', () => {
  assert.deepEqual(parseTestTiming(short), {
    timing: {
      leaseTtlMs: 8_000,
      leaseRenewMs: 2_000,
      watchIntervalMs: 30_000,
      watchFirstBeatMs: 1_000,
      watchLookAgainMs: 5_000,
      watchSettleMs: 300,
      watchBetweenMs: 200,
    },
    problems: [],
  });
  assert.deepEqual(parseTestTiming(undefined), { timing: {}, problems: [] });
  assert.deepEqual(parseTestTiming('  '), { timing: {}, problems: [] });
  // Each bound itself is allowed (the ceiling is the product's value: a test only shortens).
  for (const [k, [min, max]] of Object.entries(TEST_TIMING_BOUNDS)) {
    if (k === 'leaseRenewMs' || k === 'leaseTtlMs' || k === 'agentPollFastMs' || k === 'agentPollMaxMs') continue; // checked in pairs below
    assert.deepEqual(parseTestTiming(JSON.stringify({ [k]: min })).timing, { [k]: min }, `${k} at ${min}`);
    assert.deepEqual(parseTestTiming(JSON.stringify({ [k]: max })).timing, { [k]: max }, `${k} at ${max}`);
  }
});

test('test timing: a field out of bounds, not whole or not a number is left out and named with its bound; the rest applies', () => {
  const r = parseTestTiming(
    JSON.stringify({
      watchIntervalMs: 9_999,
      watchSettleMs: 2_001,
      watchBetweenMs: 1.5,
      watchFirstBeatMs: '1000',
      watchLookAgainMs: 5_000,
    }),
  );
  assert.deepEqual(r.timing, { watchLookAgainMs: 5_000 });
  assert.deepEqual(r.problems, [
    `${TEST_TIMING_ENV}.watchIntervalMs must be a whole number of ms from 10000 to 21600000 (got 9999)`,
    `${TEST_TIMING_ENV}.watchSettleMs must be a whole number of ms from 0 to 2000 (got 2001)`,
    `${TEST_TIMING_ENV}.watchBetweenMs must be a whole number of ms from 0 to 3000 (got 1.5)`,
    `${TEST_TIMING_ENV}.watchFirstBeatMs must be a whole number of ms from 0 to 10000 (got "1000")`,
  ]);
  assert.match(
    parseTestTiming('{"leaseTtlMs": 90001}').problems.join(),
    /leaseTtlMs must be a whole number of ms from 2000 to 90000 \(got 90001\)/,
  );
  assert.match(parseTestTiming('{"leaseTtlMs": -1}').problems.join(), /from 2000 to 90000 \(got -1\)/);
});

test('test timing: an unknown field and a value that is not an object are named', () => {
  const r = parseTestTiming('{"leaseTTL": 8000, "watchIntervalMs": 20000}');
  assert.deepEqual(r.timing, { watchIntervalMs: 20_000 });
  assert.equal(r.problems.length, 1);
  assert.match(
    r.problems[0]!,
    /^DEVINDEX_TEST_TIMING\.leaseTTL is not a timing field \(fields: leaseTtlMs, leaseRenewMs, /,
  );
  for (const raw of ['8000', '[8000]', 'null', '{leaseTtlMs: 8000}', '"x"']) {
    const bad = parseTestTiming(raw);
    assert.deepEqual(bad.timing, {}, raw);
    assert.match(bad.problems.join(), /^DEVINDEX_TEST_TIMING is not a JSON object of durations in ms/, raw);
  }
});

test("test timing: the beat must stay within half the lease, or both keep the product's values", () => {
  // A shorter lease with the product's 30 s beat would be lost between beats.
  const ttlOnly = parseTestTiming('{"leaseTtlMs": 8000, "watchIntervalMs": 30000}');
  assert.deepEqual(ttlOnly.timing, { watchIntervalMs: 30_000 });
  assert.match(ttlOnly.problems.join(), /leaseRenewMs \(30000\) must be at most half of leaseTtlMs \(8000\)/);
  const tooSlow = parseTestTiming('{"leaseTtlMs": 8000, "leaseRenewMs": 4001}');
  assert.deepEqual(tooSlow.timing, {});
  assert.match(tooSlow.problems.join(), /leaseRenewMs \(4001\) must be at most half of leaseTtlMs \(8000\)/);
  assert.deepEqual(parseTestTiming('{"leaseTtlMs": 8000, "leaseRenewMs": 4000}'), {
    timing: { leaseTtlMs: 8_000, leaseRenewMs: 4_000 },
    problems: [],
  });
  // A shorter beat alone, under the product's 90 s lease, is fine.
  assert.deepEqual(parseTestTiming('{"leaseRenewMs": 500}'), { timing: { leaseRenewMs: 500 }, problems: [] });
});

test("test timing: an agent run's first poll must not be slower than its ceiling, or both keep the product's values", () => {
  assert.deepEqual(
    parseTestTiming(
      '{"agentPollFastMs": 100, "agentPollMaxMs": 500, "agentWaitingMs": 1000, "agentStatusEveryMs": 1000}',
    ),
    {
      timing: { agentPollFastMs: 100, agentPollMaxMs: 500, agentWaitingMs: 1_000, agentStatusEveryMs: 1_000 },
      problems: [],
    },
  );
  // A 500 ms ceiling under the product's 2 s first poll.
  const r = parseTestTiming('{"agentPollMaxMs": 500, "agentWaitingMs": 1000}');
  assert.deepEqual(r.timing, { agentWaitingMs: 1_000 });
  assert.deepEqual(r.problems, [
    `${TEST_TIMING_ENV}.agentPollFastMs (2000) must be at most agentPollMaxMs (500); both keep the product's values`,
  ]);
  assert.match(
    parseTestTiming('{"agentPollFastMs": 99}').problems.join(),
    /agentPollFastMs must be a whole number of ms from 100 to 2000 \(got 99\)/,
  );
  assert.match(
    parseTestTiming('{"agentStatusEveryMs": 15001}').problems.join(),
    /agentStatusEveryMs must be a whole number of ms from 1000 to 15000 \(got 15001\)/,
  );
});

test("test timing: the agent fields become the store's poll timing, the rest of it the product's", () => {
  assert.equal(
    pollTimingOf({ watchIntervalMs: 30_000, agentStatusEveryMs: 1_000 }, DEFAULT_POLL_TIMING),
    undefined,
    'no poll field: the store keeps its default',
  );
  const p = pollTimingOf(
    parseTestTiming('{"agentPollFastMs": 200, "agentPollMaxMs": 1000, "agentWaitingMs": 2000}').timing,
    DEFAULT_POLL_TIMING,
  )!;
  assert.deepEqual(p, { ...DEFAULT_POLL_TIMING, fastMs: 200, maxMs: 1_000, hiddenMaxMs: 2_500, waitingMs: 2_000 });
  assert.equal(DEFAULT_POLL_TIMING.fastMs, 2_000, "the product's own timing is not changed");
});

/** The waits a client made before its search succeeded: four 503s, then an answer (the clock records, never sleeps). */
async function retryWaits(raw: string | undefined): Promise<{ waits: number[]; events: RetryEvent[] }> {
  let calls = 0;
  const transport: Transport = {
    send: async () =>
      ++calls <= 4
        ? { status: 503, headers: {}, bodyText: '' }
        : {
            status: 200,
            headers: { 'content-type': 'application/json' },
            bodyText: JSON.stringify({ success: true, results: [] }),
          },
    close: async () => undefined,
  };
  const waits: number[] = [];
  const backoff = backoffOf(parseTestTiming(raw).timing);
  const client = new DevIndexClient({
    baseUrl: 'http://127.0.0.1:1',
    transport,
    random: () => 0.5,
    clock: {
      now: () => 0,
      sleep: async (ms) => {
        waits.push(ms);
      },
    },
    ...(backoff ? { backoff } : {}),
  });
  const events: RetryEvent[] = [];
  await client.search({ query: 'retry' }, { onRetry: (e) => events.push(e) });
  return { waits, events };
}

test('test timing: the retry fields shorten the HTTP retry backoff (and so the Search view\'s "retrying in N s")', async () => {
  // The spec's backoff without them: 2, 4, 8 and 16 s, each with half of its 1 s jitter.
  assert.deepEqual((await retryWaits(undefined)).waits, [2_500, 4_500, 8_500, 16_500]);
  const short = await retryWaits('{"retryUnitMs": 10, "retryMaxMs": 100, "retryJitterMs": 4}');
  assert.deepEqual(short.waits, [22, 42, 82, 102], 'min(2^n units, the ceiling) plus half the jitter');
  // The RetryEvent the Search view counts down from carries the same, shortened wait.
  assert.deepEqual(
    short.events.map((e) => e.delayMs),
    [22, 42, 82, 102],
  );
  // A field left out keeps the spec's value.
  assert.deepEqual((await retryWaits('{"retryJitterMs": 0}')).waits, [2_000, 4_000, 8_000, 16_000]);
  assert.equal(
    backoffOf(parseTestTiming('{"leaseRenewMs": 500}').timing),
    undefined,
    'no retry field: the client keeps its default',
  );
  assert.match(
    parseTestTiming('{"retryUnitMs": 1001}').problems.join(),
    /retryUnitMs must be a whole number of ms from 10 to 1000 \(got 1001\)/,
  );
  assert.match(
    parseTestTiming('{"retryMaxMs": 99}').problems.join(),
    /retryMaxMs must be a whole number of ms from 100 to 30000 \(got 99\)/,
  );
});
