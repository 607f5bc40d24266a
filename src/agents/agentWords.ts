// The editor's words for agent failures: one table, keyed by the reason AgentClient stamps on every
// error it throws (src/api/agent/agentConstants.ts). Nothing here re-reads the service's text. Read by shape
// (`reasonOf`) so this feature never loads the client bundle just to describe an error.
import { type AgentErrorReason, isPermanentReason, reasonOf } from '../api/agent/agentConstants';

export type { AgentErrorReason };

/** The stamped reason; an error from anywhere else is `other`. */
export function errorReason(e: unknown): AgentErrorReason {
  return reasonOf(e) ?? 'other';
}

/** The service's Retry-After (ms) carried by the error, if any. */
export function retryAfterOf(e: unknown): number | undefined {
  const v = e !== null && typeof e === 'object' ? (e as { retryAfterMs?: unknown }).retryAfterMs : undefined;
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function messageOf(e: unknown): string {
  const m = e !== null && typeof e === 'object' ? (e as { message?: unknown }).message : undefined;
  return typeof m === 'string' && m ? m : String(e);
}

/** Failures that polling again cannot fix: stop until the user refreshes. */
export function isPermanent(e: unknown): boolean {
  return isPermanentReason(errorReason(e));
}

type Words = string | ((e: unknown) => string);

/** One sentence per reason, with the next step. `message` (the client's, which never holds the key) where it says more. */
const WORDS: Record<AgentErrorReason, Words> = {
  'job-may-exist': 'The submission may have reached the service, so the job may exist; it was not sent again.',
  'not-created': (e) => `The service did not create the job. ${messageOf(e)}`,
  'invalid-input': (e) => messageOf(e),
  'invalid-job-id': 'The job id is not a UUID.',
  'invalid-snapshot-id': 'The snapshot id is not valid.',
  'invalid-schema': (e) => messageOf(e),
  'no-trace': 'This job has no trace: it predates the engine that records one.',
  'no-snapshots': 'This job has no snapshots: it predates the engine that records them.',
  'zero-data-retention': 'Your team has zero data retention enabled, so the service cannot run or show agent jobs for it.',
  'not-found': 'Agent job not found: it may have expired or belong to another team.',
  'snapshot-not-found': 'Snapshot not found for this job.',
  'already-finished': 'The job had already finished; refresh to see how it ended.',
  'already-cancelled': 'The job is already being cancelled; it will show as cancelled shortly.',
  auth: 'The service rejected the API key. Set a valid key with "Developer Index: Set API Key".',
  payment: 'The account has no credits left or billing is not configured (402).',
  forbidden: 'The API key lacks permission for agent jobs (403).',
  'rate-limit': (e) => `The service is rate limiting requests. ${messageOf(e)}`,
  cancelled: 'The request was cancelled.',
  timeout: 'The service did not answer in time.',
  network: (e) => `Could not reach the service: ${messageOf(e)}`,
  service: (e) => `The service failed: ${messageOf(e)}`,
  'invalid-response': (e) => `The service's answer could not be read: ${messageOf(e)}`,
  other: (e) => messageOf(e),
  'thread-not-found': 'This thread is not on the service (unknown id, or another team\'s); start a new job instead.',
  'thread-busy': 'A turn of this thread is still running; follow it, and ask the follow-up when it ends.',
  'thread-expired': 'This thread has expired on the service; start a new job with the prompt.',
  'threads-disabled': 'This service has follow-up threads switched off; start a new job with the prompt instead.',
  'exchange-not-enabled': 'This run is no longer waiting for an approval; refresh it to see where it stands.',
  'blocked-url': (e) => messageOf(e),
  'no-job-list': 'This server keeps no job list; jobs started here are still followed.',
};

/** One sentence for the user with the next step; never includes request details or the key. */
export function describeAgentError(e: unknown): string {
  const w = WORDS[errorReason(e)];
  return typeof w === 'string' ? w : w(e);
}
