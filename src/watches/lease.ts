// Pure: which window runs the background watch checks. Windows share globalState, so the one that runs
// them holds a lease there: its owner id and an expiry, renewed while it lives; another window takes the
// lease over only once it has expired (its holder closed or hung). The clock is passed in. vscode-free.

export const LEASE_KEY = 'devIndex.watch.lease';
/** A lease not renewed for this long is free for another window. */
export const LEASE_TTL_MS = 90_000;
/** The holder renews this often (well inside the TTL, so a busy extension host does not lose it). */
export const LEASE_RENEW_MS = 30_000;

interface Lease {
  owner: string;
  expiresAt: number;
}

/** A stored value as a lease; anything else (absent, malformed, from a future format) counts as no lease. */
function readLease(raw: unknown): Lease | undefined {
  const l = raw as Partial<Lease> | null | undefined;
  return l &&
    typeof l === 'object' &&
    typeof l.owner === 'string' &&
    typeof l.expiresAt === 'number' &&
    Number.isFinite(l.expiresAt)
    ? { owner: l.owner, expiresAt: l.expiresAt }
    : undefined;
}

/**
 * What `me` should do with the stored lease at `now`: `renew` its own, `take` a free or expired one, or
 * `wait` while another window's is still valid (until `expiresAt`). `ttl`: LEASE_TTL_MS, unless a test shortens it.
 */
export function leaseStep(
  raw: unknown,
  me: string,
  now: number,
  ttl = LEASE_TTL_MS,
): { action: 'renew' | 'take'; lease: Lease } | { action: 'wait'; holder: string; until: number } {
  const l = readLease(raw);
  if (l?.owner === me) return { action: 'renew', lease: { owner: me, expiresAt: now + ttl } };
  // A lease further in the future than one TTL was written by a skewed clock: it cannot be trusted to expire.
  if (!l || l.expiresAt <= now || l.expiresAt > now + 2 * ttl)
    return { action: 'take', lease: { owner: me, expiresAt: now + ttl } };
  return { action: 'wait', holder: l.owner, until: l.expiresAt };
}

/** Whether `me` holds the stored lease at `now`. */
export function holds(raw: unknown, me: string, now: number): boolean {
  const l = readLease(raw);
  return !!l && l.owner === me && l.expiresAt > now;
}
