// When to poll a running agent job next. Pure: every function takes `now` and returns a new state,
// so the schedule is tested with plain numbers and the store only has to honour `dueAt`.
//
// The official SDK polls every 2 s for as long as a run lasts. Agent runs spend long stretches in a
// single tool call, so polling fast only right after something changed, and backing off while nothing
// does, detects the end of a run as quickly for a fraction of the requests: runs announce their end
// (new events, the `finalizing` phase) before `run.finished`.

export interface PollTiming {
  /** First poll, and the interval right after anything changed. */
  fastMs: number;
  /** Ceiling of the backoff while nothing changes. */
  maxMs: number;
  /** Growth of the interval per unchanged poll. */
  backoff: number;
  /** While the view is hidden, intervals are this much longer... */
  hiddenFactor: number;
  /** ...up to this ceiling. */
  hiddenMaxMs: number;
  /** How long to keep reading the trace after `run.finished` for late events. */
  graceMs: number;
}

export const DEFAULT_POLL_TIMING: Readonly<PollTiming> = Object.freeze({
  fastMs: 2_000,
  maxMs: 15_000,
  backoff: 1.5,
  hiddenFactor: 2.5,
  hiddenMaxMs: 30_000,
  // One more trace read two seconds after run.finished: late events come within about a second.
  graceMs: 2_000,
});

export type PollObservation =
  /** Something new: events, credits or status. `nearEnd` once the run says it is finalizing. */
  | { kind: 'changed'; nearEnd?: boolean }
  | { kind: 'unchanged' }
  /** `run.finished` (or a terminal status) has been seen; late events may still come. */
  | { kind: 'finished' }
  /** A transient failure; `retryAfterMs` from the service's Retry-After. */
  | { kind: 'error'; retryAfterMs?: number }
  | { kind: 'not-found' }
  /** A failure polling cannot fix (key rejected, no permission...): stop until the user refreshes. */
  | { kind: 'fatal' };

export type StopReason = 'finished' | 'not-found' | 'fatal';

export interface ScheduleState {
  readonly intervalMs: number;
  readonly lastPollAt: number;
  readonly nearEnd: boolean;
  readonly finishedAt?: number;
  readonly notBefore?: number;
  readonly stopped?: StopReason;
}

/** A job just submitted (or resumed after a reload): first poll one fast interval from now. */
export function startSchedule(now: number, timing: PollTiming = DEFAULT_POLL_TIMING): ScheduleState {
  return { intervalMs: timing.fastMs, lastPollAt: now, nearEnd: false };
}

/** The state after a poll that ended at `now` with the given observation. */
export function observe(state: ScheduleState, obs: PollObservation, now: number, timing: PollTiming = DEFAULT_POLL_TIMING): ScheduleState {
  if (state.stopped) return state;
  const base = { ...state, lastPollAt: now, notBefore: undefined };
  switch (obs.kind) {
    case 'not-found':
      return { ...base, stopped: 'not-found' };
    case 'fatal':
      return { ...base, stopped: 'fatal' };
    case 'finished': {
      const finishedAt = state.finishedAt ?? now;
      if (now - finishedAt >= timing.graceMs) return { ...base, finishedAt, stopped: 'finished' };
      return { ...base, finishedAt, intervalMs: timing.fastMs };
    }
    case 'changed':
      return { ...base, intervalMs: timing.fastMs, nearEnd: state.nearEnd || obs.nearEnd === true };
    case 'unchanged': {
      const ceiling = state.nearEnd ? timing.fastMs : timing.maxMs;
      return { ...base, intervalMs: Math.min(state.intervalMs * timing.backoff, ceiling) };
    }
    case 'error': {
      const intervalMs = Math.min(state.intervalMs * 2, timing.maxMs);
      const notBefore = obs.retryAfterMs !== undefined && obs.retryAfterMs > 0 ? now + obs.retryAfterMs : undefined;
      return { ...base, intervalMs, notBefore };
    }
  }
}

/** The delay after the last poll, given whether the view is visible. */
export function delayMs(state: ScheduleState, hidden: boolean, timing: PollTiming = DEFAULT_POLL_TIMING): number {
  // The grace period is short and bounded: slowing it down would only delay the end notification.
  if (state.finishedAt !== undefined || !hidden) return state.intervalMs;
  return Math.min(Math.max(state.intervalMs * timing.hiddenFactor, timing.fastMs), timing.hiddenMaxMs);
}

/** When the next poll is due, or undefined once the schedule has stopped. */
export function dueAt(state: ScheduleState, hidden: boolean, timing: PollTiming = DEFAULT_POLL_TIMING): number | undefined {
  if (state.stopped) return undefined;
  const at = state.lastPollAt + delayMs(state, hidden, timing);
  return state.notBefore !== undefined ? Math.max(at, state.notBefore) : at;
}
