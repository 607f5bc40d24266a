// When requests go out: the poller (one timer for every job followed, set for the earliest poll the run engine's
// schedule asks for, none while nothing runs, slower while the view is hidden) and the limiter (requests in flight).
// It starts nothing by itself: the store arms it from resume() and when a job starts.
import { dueAt, type PollTiming, type ScheduleState, startSchedule } from '../agentRun/pollSchedule';

export interface Timers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** What the poller needs of each followed job: its schedule, and whether a poll of it is in flight. */
interface Pollable {
  schedule?: ScheduleState;
  polling: boolean;
}

interface JobPollerOptions {
  timers: Timers;
  timing: PollTiming;
  /** The jobs being followed, by id. */
  entries(): Iterable<[string, Pollable]>;
  /** Polls one job (the store runs the engine's pollRun and applies what it found). */
  poll(id: string): Promise<void>;
  hidden?: boolean;
}

export class JobPoller {
  private timer: unknown;
  private timerDueAt: number | undefined;
  private hiddenNow: boolean;
  private disposed = false;

  constructor(private readonly o: JobPollerOptions) {
    this.hiddenNow = o.hidden ?? false;
  }

  get hidden(): boolean {
    return this.hiddenNow;
  }

  /** Follows a job from now: its first poll one fast interval away. */
  start(p: Pollable): void {
    p.schedule = startSchedule(this.o.timers.now(), this.o.timing);
    this.arm();
  }

  /** Poll this job at the next opportunity, restarting a stopped schedule. */
  pollSoon(p: Pollable): void {
    const now = this.o.timers.now();
    const fast = this.o.timing.fastMs;
    // lastPollAt one fast interval back makes the job due now without touching the backoff rules.
    p.schedule = {
      ...(p.schedule && !p.schedule.stopped ? p.schedule : startSchedule(now, this.o.timing)),
      lastPollAt: now - fast,
      intervalMs: fast,
      notBefore: p.schedule?.notBefore,
    };
    this.arm();
  }

  setHidden(hidden: boolean): void {
    if (this.hiddenNow === hidden) return;
    this.hiddenNow = hidden;
    this.arm();
  }

  /** When the next poll is due; undefined when nothing is scheduled. */
  nextPollAt(): number | undefined {
    return this.timerDueAt;
  }

  /** One timer for all jobs, set for the earliest due poll; none at all while nothing runs. */
  arm(): void {
    if (this.disposed) return;
    let earliest: number | undefined;
    for (const [, p] of this.o.entries()) {
      if (p.polling || !p.schedule) continue;
      const at = dueAt(p.schedule, this.hiddenNow, this.o.timing);
      if (at !== undefined && (earliest === undefined || at < earliest)) earliest = at;
    }
    if (earliest === this.timerDueAt) return;
    if (this.timer !== undefined) this.o.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerDueAt = earliest;
    if (earliest === undefined) return;
    this.timer = this.o.timers.setTimeout(() => this.fire(), Math.max(0, earliest - this.o.timers.now()));
  }

  private fire(): void {
    this.timer = undefined;
    this.timerDueAt = undefined;
    if (this.disposed) return;
    const now = this.o.timers.now();
    for (const [id, p] of this.o.entries()) {
      if (p.polling || !p.schedule) continue;
      const at = dueAt(p.schedule, this.hiddenNow, this.o.timing);
      if (at !== undefined && at <= now) {
        p.polling = true;
        void this.o.poll(id).finally(() => {
          p.polling = false;
          this.arm();
        });
      }
    }
    this.arm();
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) this.o.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerDueAt = undefined;
  }
}

/** Bounds the requests the job store has in flight at once; the rest wait in order. */
export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly max: number) {
    if (!(max >= 1)) throw new RangeError(`max must be at least 1, got ${max}`);
  }

  get inFlight(): number {
    return this.active;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    // A finishing call hands its slot straight to the next waiter, so a newcomer arriving in between
    // can never push the count over the bound.
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
