// Bounds the number of requests the job store has in flight at once; the rest wait in order.

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
