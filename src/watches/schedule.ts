// Pure: when the background watcher checks next (at most every 6 hours) and how long it keeps quiet after a
// failure: a limit (a rate limit, the keyless daily quota) pauses every watch until it resets, the network
// (offline) with a growing wait. The clock is passed in; vscode-free.
import { WATCH_INTERVAL_MS, type Watch } from '../deps/watch';
import { failureOf } from '../api/failure';

/** Offline: the first wait, doubled per failure up to the last. */
export const OFFLINE_FIRST_MS = 5 * 60_000;
export const OFFLINE_MAX_MS = 60 * 60_000;
/** A rate limit that says no time: wait this long. */
const RATE_LIMIT_MS = 15 * 60_000;
/** Between two watches of one round: never a burst of searches. */
export const BETWEEN_CHECKS_MS = 3_000;

/** A new watch was made from a search that just ran: its first check is one interval after it was made. */
const since = (w: Watch): number => w.lastCheck ?? w.createdAt;

/** The watches due now, the longest unchecked first. */
export function dueWatches(watches: readonly Watch[], now: number, interval = WATCH_INTERVAL_MS): Watch[] {
  return watches.filter((w) => now - since(w) >= interval).sort((a, b) => since(a) - since(b));
}

/** When the next watch falls due (undefined: no watch); never before `pausedUntil`. */
export function nextDueAt(
  watches: readonly Watch[],
  now: number,
  pausedUntil = 0,
  interval = WATCH_INTERVAL_MS,
): number | undefined {
  if (!watches.length) return undefined;
  const at = Math.min(...watches.map((w) => since(w) + interval));
  return Math.max(at, now, pausedUntil);
}

/**
 * What a failed search means for the watcher: `pause` every watch until `until` (offline, a rate limit, the
 * keyless quota, a refused key: trying the next watch would fail the same way), or `skip` this watch until
 * its next turn (the service refused this search). `offlineRuns`: consecutive offline failures so far.
 */
export function afterFailure(
  e: unknown,
  now: number,
  offlineRuns: number,
): { action: 'pause'; until: number; why: 'offline' | 'rate-limit' | 'keyless-quota' | 'key' } | { action: 'skip' } {
  const f = failureOf(e, now);
  const resetAt = f.untilFrom === 'reset' && f.until! > now ? f.until : undefined;
  switch (f.reason) {
    case 'network':
    case 'timeout':
      return {
        action: 'pause',
        until: now + Math.min(OFFLINE_MAX_MS, OFFLINE_FIRST_MS * 2 ** Math.max(0, offlineRuns)),
        why: 'offline',
      };
    case 'keyless-quota':
      return { action: 'pause', until: resetAt ?? now + WATCH_INTERVAL_MS, why: 'keyless-quota' };
    case 'keyless-refused':
    case 'invalid-key':
    case 'auth':
      return { action: 'pause', until: now + WATCH_INTERVAL_MS, why: 'key' };
    case 'rate-limit':
      // A wait beyond the client's own ceiling says how long; a 429 it gave up on waits at least RATE_LIMIT_MS.
      return f.kind === 'retry-after-too-long'
        ? { action: 'pause', until: resetAt ?? now + (f.retryAfterMs ?? RATE_LIMIT_MS), why: 'rate-limit' }
        : { action: 'pause', until: resetAt ?? now + Math.max(RATE_LIMIT_MS, f.retryAfterMs ?? 0), why: 'rate-limit' };
    case 'service':
      // The service failing (5xx) is waited out like an outage; a 408 is this search's own.
      return f.status !== undefined && f.status >= 500
        ? { action: 'pause', until: now + RATE_LIMIT_MS, why: 'offline' }
        : { action: 'skip' };
    default:
      return { action: 'skip' };
  }
}
