// Timing helpers the benches share: sequential timed calls and their median and 95th percentile.

export function stats(samples: number[]): { median: number; p95: number } {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return { median: q(0.5), p95: q(0.95) };
}

/** Calls `fn` `n` times one after another and pushes each call's time in ms into `into`. */
export async function time(fn: () => Promise<unknown>, n: number, into: number[]): Promise<void> {
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await fn();
    into.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
}

/** A duration in µs, right-aligned. */
export const fmt = (ms: number): string => `${(ms * 1000).toFixed(0).padStart(6)} µs`;
