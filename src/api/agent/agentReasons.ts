// Why an agent call failed, apart from the other agent constants so that what reads a stamped reason (src/api/failure.ts,
// in dist/core.js) carries only this. No zod, no vscode.

/**
 * Why an agent call failed: one value per row of spec 7.2 and per failure a user meets. Every error
 * AgentClient throws carries one (`AgentError.reason`); each surface keeps one table of words per reason.
 */
export type AgentErrorReason =
  | 'job-may-exist'
  | 'not-created'
  | 'invalid-input'
  | 'invalid-job-id'
  | 'invalid-snapshot-id'
  | 'invalid-schema'
  | 'no-trace'
  | 'no-snapshots'
  | 'zero-data-retention'
  | 'not-found'
  | 'snapshot-not-found'
  | 'already-finished'
  | 'already-cancelled'
  | 'auth'
  | 'payment'
  | 'forbidden'
  | 'rate-limit'
  | 'cancelled'
  | 'timeout'
  | 'network'
  | 'service'
  | 'invalid-response'
  | 'other'
  | 'thread-not-found'
  | 'thread-busy'
  | 'thread-expired'
  | 'threads-disabled'
  | 'exchange-not-enabled'
  | 'blocked-url'
  | 'no-job-list'
  | 'terms-not-accepted'
  | 'key-unverified'
  | 'key-required';

export const AGENT_ERROR_REASONS: readonly AgentErrorReason[] = [
  'job-may-exist',
  'not-created',
  'invalid-input',
  'invalid-job-id',
  'invalid-snapshot-id',
  'invalid-schema',
  'no-trace',
  'no-snapshots',
  'zero-data-retention',
  'not-found',
  'snapshot-not-found',
  'already-finished',
  'already-cancelled',
  'auth',
  'payment',
  'forbidden',
  'rate-limit',
  'cancelled',
  'timeout',
  'network',
  'service',
  'invalid-response',
  'other',
  'thread-not-found',
  'thread-busy',
  'thread-expired',
  'threads-disabled',
  'exchange-not-enabled',
  'blocked-url',
  'no-job-list',
  'terms-not-accepted',
  'key-unverified',
  'key-required',
];

/** The reason an HTTP status gives by itself, where no rule of the endpoint names a more particular one. */
export function statusReason(status: number | undefined): AgentErrorReason {
  if (status === undefined) return 'other';
  return STATUS_REASONS[status] ?? (status >= 500 ? 'service' : 'other');
}

const STATUS_REASONS: Readonly<Record<number, AgentErrorReason>> = {
  400: 'invalid-input',
  401: 'auth',
  402: 'payment',
  403: 'forbidden',
  429: 'rate-limit',
};

/** The reason AgentClient stamped on an error, read by shape so editor code needs no client import. */
export function reasonOf(e: unknown): AgentErrorReason | undefined {
  const r = e !== null && typeof e === 'object' ? (e as { reason?: unknown }).reason : undefined;
  return typeof r === 'string' && (AGENT_ERROR_REASONS as readonly string[]).includes(r)
    ? (r as AgentErrorReason)
    : undefined;
}

/** Failures that polling again cannot fix (the key, the plan, the team's settings, the request itself). */
const PERMANENT_REASONS: ReadonlySet<AgentErrorReason> = new Set([
  'auth',
  'payment',
  'forbidden',
  'zero-data-retention',
  'invalid-job-id',
  'invalid-input',
  'no-job-list',
  'key-unverified',
  'key-required',
]);

export function isPermanentReason(r: AgentErrorReason): boolean {
  return PERMANENT_REASONS.has(r);
}
