// Reads failures from the backend. The contract is `ApiError` (docs/ARCHITECTURE.md): kind, status,
// error (the service's string), retryable, retryAfterMs. It is read by shape rather than with
// `instanceof` so this feature never loads the client bundle just to classify an error, and so fakes
// in tests need no import of src/api.

export interface AgentErrorShape {
  kind?: string;
  status?: number;
  error?: string;
  code?: string;
  retryable?: boolean;
  retryAfterMs?: number;
  message?: string;
}

export function errorShape(e: unknown): AgentErrorShape {
  if (e === null || typeof e !== 'object') return { message: String(e) };
  const o = e as Record<string, unknown>;
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  return {
    kind: str(o.kind),
    status: num(o.status),
    error: str(o.error),
    code: str(o.code),
    retryable: typeof o.retryable === 'boolean' ? o.retryable : undefined,
    retryAfterMs: num(o.retryAfterMs),
    message: str(o.message),
  };
}

/** 404 on status or trace: the job id is unknown (or another team's). */
export function isJobNotFound(e: unknown): boolean {
  const s = errorShape(e);
  return s.status === 404 && !/snapshot/i.test(s.error ?? '');
}

/** 400 for jobs that predate the engine recording traces (spec 7.2). */
export function isNoTrace(e: unknown): boolean {
  const s = errorShape(e);
  return s.status === 400 && /(trace|snapshots) (is|are) only available/i.test(s.error ?? '');
}

export function isZeroDataRetention(e: unknown): boolean {
  return /zero data retention/i.test(errorShape(e).error ?? '');
}

/**
 * After a timeout, 502, 504 or a dropped connection the service may have created the job: the user
 * must look for it in the job list, never resubmit (issue 5, submit retry safety).
 */
export function submitMayHaveCreatedJob(e: unknown): boolean {
  // AgentClient says so with a JobMayExistError; the rest covers any backend that does not.
  if (e !== null && typeof e === 'object' && (e as { jobMayExist?: unknown }).jobMayExist === true) return true;
  const s = errorShape(e);
  if (s.kind === 'timeout' || s.kind === 'network') return true;
  return s.status === 502 || s.status === 504;
}

/** Errors that will not go away by polling again (auth, permission, bad request, retention). */
export function isPermanent(e: unknown): boolean {
  const s = errorShape(e);
  if (s.retryable === true) return false;
  if (s.kind === 'aborted') return false;
  return s.status !== undefined && s.status >= 400 && s.status < 500 && s.status !== 408 && s.status !== 429;
}

/** One sentence for the user with the next step; never includes request details or the key. */
export function describeAgentError(e: unknown): string {
  const s = errorShape(e);
  const said = s.error ?? s.message ?? 'unknown error';
  if (s.status === 401) return 'The service rejected the API key. Set a valid key with "Developer Index: Set API Key".';
  if (s.status === 402) return 'The account has no credits left or billing is not configured (402).';
  if (s.status === 403) return 'The API key lacks permission for agent jobs (403).';
  if (isZeroDataRetention(e)) return 'Your team has zero data retention enabled, so the service cannot run or show agent jobs for it.';
  if (isNoTrace(e)) return 'This job has no trace: it predates the engine that records one.';
  if (s.status === 404) return /snapshot/i.test(said) ? 'Snapshot not found for this job.' : 'Agent job not found: it may have expired or belong to another team.';
  if (s.status === 409 && /already finished/i.test(said)) return 'The job had already finished; refresh to see how it ended.';
  if (s.status === 409 && /already cancelled/i.test(said)) return 'The job is already being cancelled; it will show as cancelled shortly.';
  if (s.status === 429) return `Rate limit reached: ${said}.`;
  if (s.kind === 'timeout') return 'The service did not answer in time.';
  if (s.kind === 'network') return `Could not reach the service: ${said}.`;
  // The client's own message already names the failure and the next step (and never the key).
  return s.message ?? (s.status !== undefined ? `The service answered ${s.status}: ${said}.` : said);
}
