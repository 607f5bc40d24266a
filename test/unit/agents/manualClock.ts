// A clock the test advances by hand: timers fire in order of due time, and the promise chains they
// start are drained before time moves on, so a poll started at t finishes at t.
import type { Timers } from '../../../src/agents/jobPoller';

interface Pending {
  id: number;
  at: number;
  fn: () => void;
}

export class ManualClock implements Timers {
  private t: number;
  private seq = 0;
  private pending: Pending[] = [];

  constructor(start = 1_700_000_000_000) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const p = { id: ++this.seq, at: this.t + Math.max(0, ms), fn };
    this.pending.push(p);
    return p.id;
  }

  clearTimeout(handle: unknown): void {
    this.pending = this.pending.filter((p) => p.id !== handle);
  }

  /** Timers currently armed (the store keeps at most one). */
  get armed(): number {
    return this.pending.length;
  }

  nextAt(): number | undefined {
    return this.pending.length ? Math.min(...this.pending.map((p) => p.at)) : undefined;
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  async advance(ms: number): Promise<void> {
    const target = this.t + ms;
    for (let guard = 0; guard < 100_000; guard++) {
      await settle();
      const next = this.pending.filter((p) => p.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!next) break;
      this.pending = this.pending.filter((p) => p !== next);
      this.t = Math.max(this.t, next.at);
      next.fn();
    }
    this.t = target;
    await settle();
  }
}

/** Lets pending promise callbacks (and the ones they schedule) run. */
export async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}
