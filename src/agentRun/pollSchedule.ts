// When to poll a running agent job next. Pure: every function takes `now` and returns a new state, so the schedule
// is tested with plain numbers and the store only has to honour `dueAt`. Why three speeds: below, above PollTiming.

// The official SDK polls every 2 s for as long as a run lasts. What a client needs to learn fast is
// the end of a run; one trace read carries both the progress and the end (`run.finished`), so the
// trace is the only thing polled. Runs say when their end is near, and most of what happens before
// that says nothing about when it will come. So the schedule has three speeds:
//
// - near the end (`nearEndMs`, about 0.5 s, backing off to `nearEndMaxMs` = 2 s while nothing
//   arrives): the run said its end is near — the orchestrator reports the `finalizing` phase, the
//   orchestrator finished, a cancel was requested, a non-retryable error occurred, or the credits used
//   reached 90% of the ceiling (see `nearEnd` in runEngine.ts). These windows are seconds long,
//   so polling fast in them is cheap, and it is what makes the end detected promptly;
// - fast (`fastMs`, about 2 s) at the start and after a *significant* event: a progress phase change,
//   an artifact update, an agent finishing, an error, a status change;
// - backing off by `backoff` per poll up to `maxMs` (10 s) otherwise — while nothing happens AND
//   while only routine events arrive (tool calls starting and finishing, reasoning summaries, progress
//   messages within the same phase, browser sessions): a run that is busy working is not about to end,
//   however chatty it is. The ceiling is 10 s rather than 15 s: real runs announce their end only
//   5 to 9 s before it, so a 10 s ceiling lands a poll in that window far more often; on real-shaped
//   runs (`npm run bench`, agents) it costs a quarter more requests than 15 s, detects the end about
//   three times sooner, and makes 0.2x the requests of a fixed poll at the same latency (15 s: 0.54x).
//
// Slower while the view is hidden (never faster than `fastMs` there), `Retry-After` honoured, one
// grace poll `graceMs` after `run.finished` for late events, then stop; stop on 404 and on failures
// polling cannot fix.
export interface PollTiming {
  /** First poll, and the interval right after a significant event. */
  fastMs: number;
  /** Ceiling of the backoff while nothing significant happens. */
  maxMs: number;
  /** Growth of the interval per poll without a significant event. */
  backoff: number;
  /** Interval while the run says its end is near... */
  nearEndMs: number;
  /** ...growing by `backoff` per poll with nothing new, up to this. */
  nearEndMaxMs: number;
  /** While the view is hidden, intervals are this much longer (and at least `fastMs`)... */
  hiddenFactor: number;
  /** ...up to this ceiling. */
  hiddenMaxMs: number;
  /** How long to keep reading the trace after `run.finished` for late events. */
  graceMs: number;
  /**
   * While the run waits for the caller (an approval): the status record is read this often, to
   * notice an answer given elsewhere. The run does not move until then, so this is slow.
   */
  waitingMs: number;
  /**
   * The trace has brought nothing new this long: the status record is read once. A run that waits
   * for the caller goes quiet, and only its record says so (the SDK declares no approval event).
   */
  quietMs: number;
}

// Marked pure so that a bundle holding the import only in a dead branch (the test hooks) drops it.
export const DEFAULT_POLL_TIMING: Readonly<PollTiming> = /* @__PURE__ */ Object.freeze({
  fastMs: 2_000,
  maxMs: 10_000,
  backoff: 1.5,
  nearEndMs: 500,
  nearEndMaxMs: 2_000,
  hiddenFactor: 2.5,
  hiddenMaxMs: 25_000,
  // One more trace read two seconds after run.finished: late events come within about a second.
  graceMs: 2_000,
  waitingMs: 30_000,
  quietMs: 15_000,
});

/** How much a poll's news matters to the schedule. */
export type Signal = 'none' | 'routine' | 'significant';

export type PollObservation =
  /**
   * A poll that answered. `signal`: the most important of the new events (`none` when nothing is new).
   * `nearEnd`: whether the run, as known now, says its end is near.
   */
  | { kind: 'progress'; signal: Signal; nearEnd: boolean }
  /** `run.finished` (or a terminal status) has been seen; late events may still come. */
  | { kind: 'finished' }
  /** The run waits for the caller's approval (whatever its status says): polled slowly until answered. */
  | { kind: 'waiting' }
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
export function observe(
  state: ScheduleState,
  obs: PollObservation,
  now: number,
  timing: PollTiming = DEFAULT_POLL_TIMING,
): ScheduleState {
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
      return { ...base, finishedAt, intervalMs: timing.graceMs };
    }
    case 'waiting':
      // Not finished: an answer makes a waiting turn go on (or end), so no grace period starts.
      return { ...base, nearEnd: false, finishedAt: undefined, intervalMs: timing.waitingMs };
    case 'progress': {
      if (obs.nearEnd) {
        // Entering the end window, or anything new inside it: poll at the near-end pace.
        const intervalMs =
          !state.nearEnd || obs.signal !== 'none'
            ? timing.nearEndMs
            : Math.min(state.intervalMs * timing.backoff, timing.nearEndMaxMs);
        return { ...base, nearEnd: true, intervalMs };
      }
      // Leaving an end window that turned out not to be one (back to `working`) is a significant change too.
      const intervalMs =
        obs.signal === 'significant' || state.nearEnd
          ? timing.fastMs
          : Math.min(state.intervalMs * timing.backoff, timing.maxMs);
      return { ...base, nearEnd: false, intervalMs };
    }
    case 'error': {
      const intervalMs = Math.min(Math.max(state.intervalMs, timing.fastMs) * 2, timing.maxMs);
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
export function dueAt(
  state: ScheduleState,
  hidden: boolean,
  timing: PollTiming = DEFAULT_POLL_TIMING,
): number | undefined {
  if (state.stopped) return undefined;
  const at = state.lastPollAt + delayMs(state, hidden, timing);
  return state.notBefore !== undefined ? Math.max(at, state.notBefore) : at;
}
