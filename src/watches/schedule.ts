// Pure: when the background watcher checks next, and how long it keeps quiet after a failure. The clock
// is passed in. A watch is checked at most every 6 hours (WATCH_INTERVAL_MS); a failure of the service's
// limits (a rate limit, the keyless daily quota) pauses every watch until the limit resets, a failure of
// the network (offline) pauses them with a growing wait. vscode-free.
import { WATCH_INTERVAL_MS, type Watch } from '../deps/watch';

/** Offline: the first wait, doubled per failure up to the last. */
export const OFFLINE_FIRST_MS = 5 * 60_000;
export const OFFLINE_MAX_MS = 60 * 60_000;
/** A rate limit that says no time: wait this long. */
export const RATE_LIMIT_MS = 15 * 60_000;
/** Between two watches of one round: never a burst of searches. */
export const BETWEEN_CHECKS_MS = 3_000;

/** A new watch was made from a search that just ran: its first check is one interval after it was made. */
const since = (w: Watch): number => w.lastCheck ?? w.createdAt;

/** The watches due now, the longest unchecked first. */
export function dueWatches(watches: readonly Watch[], now: number, interval = WATCH_INTERVAL_MS): Watch[] {
  return watches.filter((w) => now - since(w) >= interval).sort((a, b) => since(a) - since(b));
}

/** When the next watch falls due (undefined: no watch); never before `pausedUntil`. */
export function nextDueAt(watches: readonly Watch[], now: number, pausedUntil = 0, interval = WATCH_INTERVAL_MS): number | undefined {
  if (!watches.length) return undefined;
  const at = Math.min(...watches.map((w) => since(w) + interval));
  return Math.max(at, now, pausedUntil);
}

interface ErrorLike { kind?: unknown; status?: unknown; retryAfterMs?: unknown; resetAt?: unknown }

/**
 * What a failed search means for the watcher: `pause` every watch until `until` (offline, a rate limit, the
 * keyless quota, a refused key: trying the next watch would fail the same way), or `skip` this watch until
 * its next turn (the service refused this search). `offlineRuns`: consecutive offline failures so far.
 */
export function afterFailure(e: unknown, now: number, offlineRuns: number): { action: 'pause'; until: number; why: 'offline' | 'rate-limit' | 'keyless-quota' | 'key' } | { action: 'skip' } {
  const err = (e && typeof e === 'object' ? e : {}) as ErrorLike;
  const resetAt = typeof err.resetAt === 'number' && Number.isFinite(err.resetAt) && err.resetAt > now ? err.resetAt : undefined;
  switch (err.kind) {
    case 'network': case 'timeout':
      return { action: 'pause', until: now + Math.min(OFFLINE_MAX_MS, OFFLINE_FIRST_MS * 2 ** Math.max(0, offlineRuns)), why: 'offline' };
    case 'keyless-quota':
      return { action: 'pause', until: resetAt ?? now + WATCH_INTERVAL_MS, why: 'keyless-quota' };
    case 'keyless-refused': case 'invalid-key':
      return { action: 'pause', until: now + WATCH_INTERVAL_MS, why: 'key' };
    case 'retry-after-too-long':
      return { action: 'pause', until: resetAt ?? now + (typeof err.retryAfterMs === 'number' ? err.retryAfterMs : RATE_LIMIT_MS), why: 'rate-limit' };
    case 'http':
      if (err.status === 429) return { action: 'pause', until: resetAt ?? now + Math.max(RATE_LIMIT_MS, typeof err.retryAfterMs === 'number' ? err.retryAfterMs : 0), why: 'rate-limit' };
      if (err.status === 401) return { action: 'pause', until: now + WATCH_INTERVAL_MS, why: 'key' };
      if (typeof err.status === 'number' && err.status >= 500) return { action: 'pause', until: now + RATE_LIMIT_MS, why: 'offline' };
      return { action: 'skip' };
    default:
      return { action: 'skip' };
  }
}
