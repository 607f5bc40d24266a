// Spec section 7.4, and nothing else: which failures are retried, and how long to wait before each retry.
import { ApiError, PASSTHROUGH_ERROR } from './errors';
import { durationWords } from '../words/duration';
import { untilWords } from '../words/waitWords';

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
/** `attempt` is the attempt about to be made after the wait (2 to 5), as in "attempt 2 of 5". */
export interface RetryEvent {
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  reason: string;
  status?: number;
}
/** 'none': one attempt only (a probe such as the API key check). */
export type RetryMode = 'spec' | 'submit' | 'none';
/**
 * What a call does with a 429 it could wait out: wait and retry (the default), or reject at once with it (a caller
 * that stops on a rate limit, like the fixes check). A wait longer than the client's ceiling is never waited either.
 */
export type RateLimitMode = 'wait' | 'fail';

/** "at most 5 attempts" (7.4 rule 4), counting the first one. */
export const MAX_ATTEMPTS = 5;
export const MAX_BACKOFF_MS = 30_000;
export const JITTER_MS = 1_000;

export class AbortedError extends Error {
  constructor() {
    super('aborted');
    this.name = 'AbortError';
  }
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(new AbortedError());
        return;
      }
      const onAbort = () => {
        clearTimeout(t);
        reject(new AbortedError());
      };
      const t = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/**
 * The backoff's durations: the spec's (a 1 s unit, a 30 s ceiling, 1 s of jitter), or shorter ones a caller passes.
 */
export interface BackoffTiming {
  unitMs: number;
  maxMs: number;
  jitterMs: number;
}
export const DEFAULT_BACKOFF: BackoffTiming = { unitMs: 1000, maxMs: MAX_BACKOFF_MS, jitterMs: JITTER_MS };

/** min(2^attempt, 30) s plus up to 1 s of jitter, where `attempt` is the 1-based attempt that just failed. */
export function backoffMs(attempt: number, random: () => number, t: Partial<BackoffTiming> = {}): number {
  const { unitMs, maxMs, jitterMs } = { ...DEFAULT_BACKOFF, ...t };
  const r = Math.min(Math.max(random(), 0), 0.999999);
  return Math.min(2 ** attempt * unitMs, maxMs) + Math.floor(r * jitterMs);
}

/**
 * Whether the failed attempt may be repeated.
 * - 'spec': the Retryable column of 7.1 (408, 429, 500, 502, 503, 504), plus a timed-out or dropped
 *   connection, which is the client-side face of 408/502/504 on an idempotent search.
 * - 'submit' (agent submit is not idempotent): only when the service cannot have created the job:
 *   429, 503, and 500 `Failed to passthrough agent request.`. Never after a timeout, 502, 504 or a
 *   dropped connection, where the job may exist and a retry would start a second, billed run.
 */
export function shouldRetry(err: ApiError, mode: RetryMode): boolean {
  if (mode === 'none') return false;
  if (mode === 'submit') {
    if (err.kind !== 'http') return false;
    return err.status === 429 || err.status === 503 || (err.status === 500 && err.error === PASSTHROUGH_ERROR);
  }
  if (err.kind === 'http') return err.retryable;
  return (err.kind === 'network' || err.kind === 'timeout') && err.retryable;
}

/** The wait before the next attempt: Retry-After when the service sent one (a minimum), else backoff. */
function retryDelayMs(err: ApiError, attempt: number, random: () => number, backoff?: Partial<BackoffTiming>): number {
  return err.retryAfterMs !== undefined ? err.retryAfterMs : backoffMs(attempt, random, backoff);
}

/** Short words for progress lines: "rate limited; retrying in 3 s (attempt 2 of 5)". */
function retryReason(err: ApiError): string {
  if (err.kind === 'timeout') return 'timed out';
  if (err.kind === 'network') return 'connection failed';
  switch (err.status) {
    case 429:
      return err.error === 'Concurrency limit reached' ? 'concurrency limit reached' : 'rate limited';
    case 408:
      return 'request timeout (HTTP 408)';
    case 500:
      return 'server error (HTTP 500)';
    case 502:
      return 'bad gateway (HTTP 502)';
    case 503:
      return 'service unavailable (HTTP 503)';
    case 504:
      return 'gateway timeout (HTTP 504)';
    default:
      return `HTTP ${err.status}`;
  }
}

export function formatRetryEvent(e: RetryEvent): string {
  const s = Math.ceil(e.delayMs / 1000);
  return `${e.reason}; retrying ${s > 0 ? `in ${s} s` : 'now'} (attempt ${e.attempt} of ${e.maxAttempts})`;
}

interface RetryLoopOptions {
  mode: RetryMode;
  clock: Clock;
  random: () => number;
  maxRetryAfterMs: number;
  signal?: AbortSignal;
  onRetry?: (e: RetryEvent) => void;
  /** 'fail': a 429 the client would wait out and retry rejects at once instead (a long one is still said as such). */
  rateLimit?: RateLimitMode;
  /** The zone long waits are said in (tests); the system's own by default. */
  timeZone?: string;
  /** The backoff's durations (test builds shorten them); the spec's by default. */
  backoff?: Partial<BackoffTiming>;
}

/**
 * Runs `attempt(n)` until it succeeds, fails for good, or 5 attempts are spent. `attempt` throws
 * ApiError (with `attempts` unset); the error that ends the loop carries the attempt count.
 */
export async function withRetry<T>(attemptFn: (n: number) => Promise<T>, o: RetryLoopOptions): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attemptFn(n);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      e.attempts = n;
      if (!shouldRetry(e, o.mode) || n >= MAX_ATTEMPTS) throw e;
      if (e.retryAfterMs !== undefined && e.retryAfterMs > o.maxRetryAfterMs) {
        // Never waited, and said in human time: a day-long wait is not "86400 s".
        const resetAt = o.clock.now() + e.retryAfterMs;
        throw new ApiError({
          kind: 'retry-after-too-long',
          status: e.status,
          error: e.error,
          details: e.details,
          code: e.code,
          retryable: true,
          retryAfterMs: e.retryAfterMs,
          attempts: n,
          resetAt,
          quota: e.quota,
          signupUrl: e.signupUrl,
          requestId: e.requestId,
          message:
            `${e.error ?? `HTTP ${e.status}`} (HTTP ${e.status}): ` +
            `the service asks to wait until ${untilWords(resetAt, o.clock.now(), { timeZone: o.timeZone })}, ` +
            `longer than the ${durationWords(o.maxRetryAfterMs)} this client waits by itself; ` +
            `try again then`,
        });
      }
      if (o.rateLimit === 'fail' && e.status === 429) throw e;
      const delayMs = retryDelayMs(e, n, o.random, o.backoff);
      o.onRetry?.({ attempt: n + 1, maxAttempts: MAX_ATTEMPTS, delayMs, reason: retryReason(e), status: e.status });
      try {
        await o.clock.sleep(delayMs, o.signal);
      } catch {
        throw new ApiError({
          kind: 'aborted',
          message: 'request cancelled while waiting to retry',
          attempts: n,
          retryable: false,
          cause: e,
        });
      }
    }
  }
}
