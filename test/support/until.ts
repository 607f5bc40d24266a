// Waiting for a condition: the one poll loop the tests share. It reads, checks and, while the
// condition does not hold, waits a short step before reading again; it fails after its time limit with what it
// waited for and the last value read. A step between reads is not a sleep standing for a condition, so the house
// rule (test/unit/house/noSleeps.test.ts) allows it here and nowhere else.

export interface UntilOptions<T> {
  /** The time limit, in milliseconds. */
  timeoutMs: number;
  /** The wait between reads, in milliseconds (100 unless told). */
  stepMs?: number;
  /** The failure's message, given the last value read. */
  message: (last: T | undefined) => string;
  /** What a failing read counts as (the read's error is thrown unless this is given). */
  onError?: (e: unknown) => T;
}

/** Reads until `done(value)` holds and returns that value; throws `message(last)` after `timeoutMs`. */
export async function until<T>(read: () => T | Promise<T>, done: (v: T) => boolean, o: UntilOptions<T>): Promise<T> {
  const deadline = Date.now() + o.timeoutMs;
  let last: T | undefined;
  for (;;) {
    try {
      last = await read();
    } catch (e) {
      if (!o.onError) throw e;
      last = o.onError(e);
    }
    if (done(last)) return last;
    if (Date.now() > deadline) throw new Error(o.message(last));
    await step(o.stepMs ?? 100);
  }
}

/** Reads until the value is not undefined. */
export function defined<T>(
  read: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs: number,
  stepMs = 100,
): Promise<T> {
  return until(read, (v) => v !== undefined, {
    timeoutMs,
    stepMs,
    message: () => `timed out after ${timeoutMs} ms waiting for ${what}`,
  }) as Promise<T>;
}

function step(ms: number): Promise<void> {
  return new Promise((next) => setTimeout(next, ms));
}
