// DEVINDEX_TEST_TIMING: the durations the product waits on (the watch lease and checks, an agent run's poll
// schedule, the HTTP retry backoff), each only shortened (its upper bound is the product's own value). Parsed by
// createTestHooks (./hooks.ts) in a test build; vscode-free.
import type { BackoffTiming } from '../api/retry';
import type { PollTiming } from '../agentRun/pollSchedule';

/** The environment variable: a JSON object of the fields below, e.g. `{"leaseTtlMs":8000,"watchIntervalMs":30000}`. */
export const TEST_TIMING_ENV = 'DEVINDEX_TEST_TIMING';

interface TestTiming {
  /** The watch lease's time to live (LEASE_TTL_MS, 90 s). */
  leaseTtlMs?: number;
  /** The watch loop's beat: lease renewal and other windows' changes (LEASE_RENEW_MS, 30 s). At most half the TTL. */
  leaseRenewMs?: number;
  /** How often a watch is checked (WATCH_INTERVAL_MS, 6 hours). */
  watchIntervalMs?: number;
  /** After activation, the first background beat of a window with watches (10 s). */
  watchFirstBeatMs?: number;
  /** A window with no watch looks again this often (5 minutes). */
  watchLookAgainMs?: number;
  /** After taking the lease, how long before it is read back (2 s). */
  watchSettleMs?: number;
  /** Between two watches of one round (BETWEEN_CHECKS_MS, 3 s). */
  watchBetweenMs?: number;
  /** An agent run's first poll and the interval after news (PollTiming.fastMs, 2 s). At most agentPollMaxMs. */
  agentPollFastMs?: number;
  /** The ceiling of an agent run's poll backoff (PollTiming.maxMs, 10 s). */
  agentPollMaxMs?: number;
  /** A waiting run's status read (PollTiming.waitingMs, 30 s). */
  agentWaitingMs?: number;
  /** A quiet trace this long: the run's status record is read (EDITOR_STATUS_EVERY_MS, 15 s). */
  agentStatusEveryMs?: number;
  /**
   * The HTTP retry backoff's unit: the wait after failed attempt n is min(2^n units, retryMaxMs) plus jitter
   * (src/api/retry.ts DEFAULT_BACKOFF, 1 s). The Search view's "retrying in N s" counts down this wait.
   */
  retryUnitMs?: number;
  /** The backoff's ceiling (MAX_BACKOFF_MS, 30 s). */
  retryMaxMs?: number;
  /** The backoff's jitter, at most (JITTER_MS, 1 s). */
  retryJitterMs?: number;
}

/** Each field's bounds in ms, inclusive: the floor keeps a test from a burst of searches, the ceiling is the product's value. */
export const TEST_TIMING_BOUNDS: Readonly<Record<keyof TestTiming, readonly [number, number]>> = {
  leaseTtlMs: [2_000, 90_000],
  leaseRenewMs: [500, 30_000],
  watchIntervalMs: [10_000, 6 * 60 * 60_000],
  watchFirstBeatMs: [0, 10_000],
  watchLookAgainMs: [1_000, 5 * 60_000],
  watchSettleMs: [0, 2_000],
  watchBetweenMs: [0, 3_000],
  agentPollFastMs: [100, 2_000],
  agentPollMaxMs: [500, 10_000],
  agentWaitingMs: [1_000, 30_000],
  agentStatusEveryMs: [1_000, 15_000],
  retryUnitMs: [10, 1_000],
  retryMaxMs: [100, 30_000],
  retryJitterMs: [0, 1_000],
};

/** The field names, for the messages. */
const fields = (): string => Object.keys(TEST_TIMING_BOUNDS).join(', ');
/** The product's lease values, for the check that the beat stays within half the TTL. */
const DEFAULT_TTL = 90_000;
const DEFAULT_RENEW = 30_000;
/** The product's agent poll values (DEFAULT_POLL_TIMING), for the check that the first poll is not slower than the ceiling. */
const DEFAULT_POLL_FAST = 2_000;
const DEFAULT_POLL_MAX = 10_000;

/**
 * The test timing in `raw` (the variable's value). A field that is not a whole
 * number of ms within its bounds, an unknown field, or a beat longer than half the lease is left out, and
 * `problems` names it with its bound; the rest still applies.
 */
export function parseTestTiming(raw: string | undefined): { timing: TestTiming; problems: string[] } {
  if (raw === undefined || raw.trim() === '') return { timing: {}, problems: [] };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return {
      timing: {},
      problems: [`${TEST_TIMING_ENV} is not a JSON object of durations in ms (fields: ${fields()})`],
    };
  }
  const timing: TestTiming = {};
  const problems: string[] = [];
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const bounds = (TEST_TIMING_BOUNDS as Record<string, readonly [number, number] | undefined>)[k];
    if (!bounds) {
      problems.push(`${TEST_TIMING_ENV}.${k.slice(0, 40)} is not a timing field (fields: ${fields()})`);
      continue;
    }
    const [min, max] = bounds;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      problems.push(
        `${TEST_TIMING_ENV}.${k} must be a whole number of ms from ${min} to ${max} (got ${JSON.stringify(v)?.slice(0, 20)})`,
      );
      continue;
    }
    timing[k as keyof TestTiming] = v;
  }
  const ttl = timing.leaseTtlMs ?? DEFAULT_TTL;
  const renew = timing.leaseRenewMs ?? DEFAULT_RENEW;
  if (renew * 2 > ttl) {
    problems.push(
      `${TEST_TIMING_ENV}.leaseRenewMs (${renew}) must be at most half of leaseTtlMs (${ttl}), ` +
        `or the holder loses its lease between beats; both keep the product's values`,
    );
    delete timing.leaseTtlMs;
    delete timing.leaseRenewMs;
  }
  const fast = timing.agentPollFastMs ?? DEFAULT_POLL_FAST;
  const max = timing.agentPollMaxMs ?? DEFAULT_POLL_MAX;
  if (fast > max) {
    problems.push(
      `${TEST_TIMING_ENV}.agentPollFastMs (${fast}) must be at most agentPollMaxMs (${max}); both keep the product's values`,
    );
    delete timing.agentPollFastMs;
    delete timing.agentPollMaxMs;
  }
  return { timing, problems };
}

/** The HTTP retry backoff with the test's retry fields (the spec's for those it leaves out); undefined when it sets none. */
export function backoffOf(t: TestTiming): Partial<BackoffTiming> | undefined {
  if (t.retryUnitMs === undefined && t.retryMaxMs === undefined && t.retryJitterMs === undefined) return undefined;
  return {
    ...(t.retryUnitMs !== undefined ? { unitMs: t.retryUnitMs } : {}),
    ...(t.retryMaxMs !== undefined ? { maxMs: t.retryMaxMs } : {}),
    ...(t.retryJitterMs !== undefined ? { jitterMs: t.retryJitterMs } : {}),
  };
}

/**
 * The product's agent poll timing (`product`, DEFAULT_POLL_TIMING) with the test's agent fields; undefined when it sets
 * none (the store keeps its default). Handed in, not imported: this module then has nothing a bundle must keep.
 */
export function pollTimingOf(t: TestTiming, product: Readonly<PollTiming>): PollTiming | undefined {
  if (t.agentPollFastMs === undefined && t.agentPollMaxMs === undefined && t.agentWaitingMs === undefined)
    return undefined;
  return {
    ...product,
    ...(t.agentPollFastMs !== undefined ? { fastMs: t.agentPollFastMs } : {}),
    // A hidden view polls slower, but never past the test's ceiling times the hidden factor.
    ...(t.agentPollMaxMs !== undefined
      ? {
          maxMs: t.agentPollMaxMs,
          hiddenMaxMs: Math.min(product.hiddenMaxMs, t.agentPollMaxMs * product.hiddenFactor),
        }
      : {}),
    ...(t.agentWaitingMs !== undefined ? { waitingMs: t.agentWaitingMs } : {}),
  };
}
