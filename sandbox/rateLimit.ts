// Per-minute rate limit, one fixed window per client (a key's opaque id, or the keyless client's
// address). Fixed windows keep the check O(1) at any limit and give an exact Retry-After.

export const WINDOW_MS = 60_000;

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one request. `limit` 0 means no limit. Returns the seconds to wait when over the limit. */
  hit(client: string, limit: number): { ok: true } | { ok: false; retryAfterSeconds: number } {
    if (limit <= 0) return { ok: true };
    const t = this.now();
    let w = this.windows.get(client);
    if (!w || t - w.start >= WINDOW_MS) {
      if (this.windows.size > 10_000) this.prune(t);
      w = { start: t, count: 0 };
      this.windows.set(client, w);
    }
    if (w.count >= limit)
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((w.start + WINDOW_MS - t) / 1000)) };
    w.count++;
    return { ok: true };
  }

  private prune(t: number): void {
    for (const [k, w] of this.windows) if (t - w.start >= WINDOW_MS) this.windows.delete(k);
  }
}
