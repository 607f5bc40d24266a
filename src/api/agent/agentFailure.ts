// What a failed agent call means: the reason AgentClient stamps on every error it throws (one per row
// of spec 7.2), and the client's own message with the next step, in the style of errors.ts
// (`<service error> (HTTP n): <what to do>`). src/api/failure.ts reads the stamp; the surfaces word it.
import { type AgentErrorReason, reasonOf, statusReason } from './agentReasons';
import { ApiError, PASSTHROUGH_ERROR } from '../errors';
import type { ParamIssue } from '../params';

export const AGENT_ERRORS = {
  invalidJobId: 'Invalid job ID format. Job ID must be a valid UUID.',
  invalidSnapshotId: 'Invalid snapshot ID',
  zeroDataRetention: 'Your team has zero data retention enabled. This is not supported on extract.',
  notFound: 'Agent job not found',
  snapshotNotFound: 'Snapshot not found',
  alreadyFinished: 'Agent already finished',
  alreadyCancelled: 'Agent is already cancelled',
  passthrough: PASSTHROUGH_ERROR,
  invalidSchemaPrefix: 'Invalid JSON schema',
  /** The back end's own schema check (relayed, no `success`). */
  backendSchemaPrefix: 'Invalid schema',
  invalidBefore: 'Invalid before timestamp.',
  /** The Exchange's refusals (`POST /v2/scrape` with provider calls). */
  providerToolsNeedKey: 'An API key is required for provider tools.',
  providerToolsZdr: 'Provider tools do not support zero data retention.',
} as const;
/** The Exchange's 403 for a key that must be verified before it runs provider tools. */
const KEY_UNVERIFIED_CODE = 'AGENT_INDEX_ONLY';
/** Thread errors: the code, in `code` or as the `error` text. */
const THREAD_ERROR_CODES = {
  notFound: 'thread_not_found',
  busy: 'thread_busy',
  expired: 'thread_expired',
  disabled: 'threads_disabled',
  exchangeNotEnabled: 'exchange_not_enabled',
} as const;
const TRACE_ENGINE_RE = /^Trace is only available for (.+) extracts$/;
const SNAPSHOT_ENGINE_RE = /^Snapshots are only available for (.+) extracts$/;
/** Zero data retention: production continues the sentence with how to contact support. */
const ZDR_PREFIX = 'Your team has zero data retention enabled. This is not supported on extract.';

/** An ApiError with the reason AgentClient stamped on it. */
export class AgentError extends ApiError {
  readonly reason: AgentErrorReason;
  constructor(e: ApiError, reason: AgentErrorReason, message = e.message) {
    super({
      kind: e.kind,
      message,
      status: e.status,
      error: e.error,
      details: e.details,
      code: e.code,
      retryable: e.retryable,
      retryAfterMs: e.retryAfterMs,
      issues: e.issues,
      attempts: e.attempts,
      cause: e,
      location: e.location,
      resetAt: e.resetAt,
      quota: e.quota,
      runId: e.runId,
      signupUrl: e.signupUrl,
      requestId: e.requestId,
    });
    this.name = 'AgentError';
    this.reason = reason;
  }
}

/**
 * Submission failed in a way that leaves it unknown whether the service created the job (timeout,
 * dropped connection, 502, 504, an unhandled 500, an unreadable success, Ctrl+C while the request was
 * out). It is never resubmitted.
 */
export class JobMayExistError extends AgentError {
  readonly jobMayExist = true;
  constructor(e: ApiError, message: string) {
    super(e, 'job-may-exist', message);
    this.name = 'JobMayExistError';
  }
}

export function invalid(issues: ParamIssue[], what: string): AgentError {
  const field = issues[0]?.field;
  const reason: AgentErrorReason =
    field === 'jobId' ? 'invalid-job-id' : field === 'snapshotId' ? 'invalid-snapshot-id' : 'invalid-input';
  const e = new ApiError({
    kind: 'validation',
    message: `invalid ${what}: ${issues.map((i) => i.message).join('; ')}`,
    issues,
    retryable: false,
    attempts: 0,
  });
  return new AgentError(e, reason);
}

/** The reason in the service's `Invalid JSON schema: <reason>` 400. */
function invalidSchemaReason(error: string | undefined): string | undefined {
  if (!error || !error.startsWith(AGENT_ERRORS.invalidSchemaPrefix)) return undefined;
  return (
    error
      .slice(AGENT_ERRORS.invalidSchemaPrefix.length)
      .replace(/^[\s.:]+/, '')
      .trim() || 'no reason given'
  );
}

type Op = 'submit' | 'status' | 'cancel' | 'trace' | 'snapshot' | 'list' | 'thread' | 'terms';

/** What kind of failure an ApiError from this client's endpoints is. */
function classify(e: ApiError, op: Op): AgentErrorReason {
  const err = e.error ?? '';
  if (e.kind === 'aborted') return 'cancelled';
  if (e.kind === 'timeout') return 'timeout';
  if (e.kind === 'network') return 'network';
  if (e.kind === 'invalid-response' || e.kind === 'response-too-large') return 'invalid-response';
  if (e.kind === 'validation') return 'invalid-input';
  const code = e.code ?? '';
  const is = (c: string) => code === c || err === c;
  if (is(THREAD_ERROR_CODES.notFound)) return 'thread-not-found';
  if (is(THREAD_ERROR_CODES.busy)) return 'thread-busy';
  if (is(THREAD_ERROR_CODES.expired) || (op === 'thread' && e.status === 410)) return 'thread-expired';
  if (is(THREAD_ERROR_CODES.disabled)) return 'threads-disabled';
  if (is(THREAD_ERROR_CODES.exchangeNotEnabled)) return 'exchange-not-enabled';
  if (op === 'terms' && e.status === 403) {
    if (code === KEY_UNVERIFIED_CODE) return 'key-unverified';
    if (err === AGENT_ERRORS.providerToolsNeedKey) return 'key-required';
    if (err === AGENT_ERRORS.providerToolsZdr) return 'zero-data-retention';
  }
  if (op === 'list' && e.status === 501) return 'no-job-list';
  if (op === 'submit' && e.status === 403 && code) return 'blocked-url';
  if (op === 'thread' && e.status === 404) return 'thread-not-found';
  switch (e.status) {
    case 400:
      if (err === AGENT_ERRORS.invalidJobId) return 'invalid-job-id';
      if (err === AGENT_ERRORS.invalidSnapshotId) return 'invalid-snapshot-id';
      if (TRACE_ENGINE_RE.test(err)) return 'no-trace';
      if (SNAPSHOT_ENGINE_RE.test(err)) return 'no-snapshots';
      if (err.startsWith(ZDR_PREFIX)) return 'zero-data-retention';
      if (invalidSchemaReason(err) !== undefined) return 'invalid-schema';
      if (op === 'submit' && err.startsWith(AGENT_ERRORS.backendSchemaPrefix)) return 'invalid-schema';
      return 'invalid-input';
    case 404:
      if (op === 'snapshot' && err === AGENT_ERRORS.snapshotNotFound) return 'snapshot-not-found';
      // Production answers an expired or unknown job with 404 on every agent endpoint.
      return op === 'list' || op === 'submit' ? 'other' : 'not-found';
    case 409:
      if (err === AGENT_ERRORS.alreadyCancelled) return 'already-cancelled';
      if (err === AGENT_ERRORS.alreadyFinished || op === 'cancel') return 'already-finished';
      return 'other';
    case 422:
      return op === 'submit' ? 'invalid-schema' : 'other';
    default:
      // A wait asked for beyond the client's ceiling comes only from a retried status (408, 429, 5xx).
      if (e.kind === 'retry-after-too-long') return 'rate-limit';
      return statusReason(e.status);
  }
}

/** Kept for callers that classify an error of unknown origin: the stamped reason, else a classification. */
export function agentErrorReason(e: unknown): AgentErrorReason | undefined {
  const stamped = reasonOf(e);
  if (stamped) return stamped;
  return e instanceof ApiError ? classify(e, 'status') : undefined;
}

export interface Ctx {
  op: Op;
  jobId?: string;
  snapshotId?: string;
  threadId?: string;
  urls?: readonly string[];
}

/** The next step per reason, in the style of errors.ts: `<service error> (HTTP n): <what to do>`. */
function nextStep(e: ApiError, reason: AgentErrorReason, c: Ctx): string | undefined {
  const err = e.error ?? '';
  const job = c.jobId ? `job ${c.jobId}` : 'the job';
  switch (reason) {
    case 'invalid-job-id':
      return e.kind === 'validation'
        ? undefined
        : 'the job id must be a UUID; copy it from the job list (devindex agent list)';
    case 'invalid-snapshot-id':
      return e.kind === 'validation'
        ? undefined
        : "take the snapshot id from an artifact.updated event of the job's trace";
    case 'invalid-schema': {
      const why =
        invalidSchemaReason(err) ??
        (err.startsWith(AGENT_ERRORS.backendSchemaPrefix)
          ? err
              .slice(AGENT_ERRORS.backendSchemaPrefix.length)
              .replace(/^[\s.:]+/, '')
              .trim() || 'no reason given'
          : undefined);
      return why !== undefined
        ? `the service refused the schema (${why}); fix the JSON Schema, or leave it out`
        : undefined;
    }
    case 'invalid-input':
      return err === AGENT_ERRORS.invalidBefore
        ? "the job list's page marker (before) must be a whole number of epoch milliseconds, 0 or more"
        : undefined;
    case 'thread-not-found':
      return (
        `no thread ${c.threadId ?? 'with this id'} for this API key: ` +
        `check the thread id (devindex agent status JOB prints it), or start a new job without one`
      );
    case 'thread-busy':
      return `a turn of this thread is still running${e.runId ? ` (job ${e.runId})` : ''}; follow it until it ends, then ask the follow-up`;
    case 'thread-expired':
      return 'this thread has expired on the service, so it cannot be continued; start a new job with the prompt';
    case 'threads-disabled':
      return 'this service has follow-up threads switched off; start a new job with the prompt instead';
    case 'exchange-not-enabled':
      return 'this run is not waiting for an approval (it may have ended, or the approval was already answered); refresh its status';
    case 'blocked-url': {
      const named = c.urls?.find((u) => err.includes(u)) ?? (c.urls?.length === 1 ? c.urls[0] : undefined);
      return (
        `the service's threat protection blocked ${named ? `the start URL ${named}` : 'a start URL'}; ` +
        `remove it, or start from another page`
      );
    }
    case 'no-job-list':
      return 'this server keeps no job list; jobs started here are still followed';
    case 'no-trace':
      return (
        `this job has no trace: ` +
        `it ran on an engine older than ${TRACE_ENGINE_RE.exec(err)?.[1] ?? 'the current one'}, which recorded none; ` +
        `its status and result are still available`
      );
    case 'no-snapshots':
      return (
        `this job has no snapshots: ` +
        `it ran on an engine older than ${SNAPSHOT_ENGINE_RE.exec(err)?.[1] ?? 'the current one'}, which recorded none; ` +
        `its status and result are still available`
      );
    case 'zero-data-retention':
      if (c.op === 'terms')
        return (
          'a team with zero data retention cannot run provider tools, ' +
          'so these terms cannot be accepted for it; decline the approval, ' +
          'or use a key of a team without it'
        );
      return (
        'agent runs must keep data while they run, so they are not available to a team with zero ' +
        "data retention forced on; ask the team's administrator to turn it off, " +
        'or use a key of a team without it'
      );
    case 'not-found':
      return (
        `no agent job with this id for this API key: it does not exist, ` +
        `has expired (jobs expire about 24 hours after they end), or belongs to another team; ` +
        `check the id (devindex agent list) and the key`
      );
    case 'snapshot-not-found':
      return (
        `${job} has no snapshot ${c.snapshotId ?? 'with this id'}; ` +
        `take the snapshot id from an artifact.updated event of this job's trace`
      );
    case 'already-finished':
      return `${job} had already finished, so there was nothing to cancel; refresh its status to see how it ended`;
    case 'already-cancelled':
      return `${job} is already being cancelled; keep polling its status until it reports that it stopped`;
    case 'key-unverified':
      return (
        'the service runs provider tools only for a verified API key: ' +
        "verify this key in the service's dashboard, then answer the approval again"
      );
    case 'key-required':
      return 'provider tools need an API key: set one, then answer the approval again';
    case 'not-created': {
      const why =
        e.status === 500
          ? 'the agent service rejected the job at submission'
          : e.status === 429 || e.kind === 'retry-after-too-long'
            ? 'the service is rate limiting'
            : 'the service is temporarily unavailable';
      return `${why}; no job was created (tried ${e.attempts} time${e.attempts === 1 ? '' : 's'}); try again later`;
    }
    default:
      return undefined;
  }
}

/** After a submission that may have reached the service: say so, and never send it again. */
function mayExist(e: ApiError): JobMayExistError | undefined {
  // Aborted while the request was out (not while waiting to retry after an answer that created nothing).
  const abortedInFlight = e.kind === 'aborted' && e.cause === undefined;
  const uncertain =
    abortedInFlight ||
    e.kind === 'timeout' ||
    e.kind === 'network' ||
    e.kind === 'invalid-response' ||
    e.kind === 'response-too-large' ||
    (e.kind === 'http' &&
      (e.status === 502 || e.status === 504 || (e.status === 500 && e.error !== PASSTHROUGH_ERROR)));
  if (!uncertain) return undefined;
  const what = abortedInFlight
    ? 'the submission was interrupted after it was sent'
    : e.kind === 'timeout'
      ? 'the submission timed out'
      : e.kind === 'network'
        ? 'the connection dropped during the submission'
        : e.kind === 'http'
          ? `the submission failed with HTTP ${e.status}${e.error ? ` (${e.error})` : ''}`
          : 'the answer to the submission could not be read';
  return new JobMayExistError(
    e,
    `${what}, so the job may have been created anyway; it was not submitted again, ` +
      `to avoid a second billed run. Look for it in the job list (devindex agent list) ` +
      `before starting it again. (${e.message})`,
  );
}

/** An answer that came without the record it was asked for: the service's own words, as an error to show. */
export function withoutRecord(what: string, error: string | undefined): AgentError {
  const said = error ? error.replace(/\s+/g, ' ').trim().slice(0, 500) : undefined;
  const e = new ApiError({
    kind: 'http',
    status: 200,
    error: said,
    message: `The service sent no ${what}${said ? `: ${said}` : ''}`,
    retryable: false,
    attempts: 1,
  });
  return new AgentError(e, 'other');
}

/** The AgentError for an ApiError from one of the client's calls: a submission that may have reached the service first. */
export function agentFailure(e: ApiError, c: Ctx): AgentError {
  if (c.op === 'submit') {
    const m = mayExist(e);
    if (m) return m;
  }
  let reason = classify(e, c.op);
  if (
    c.op === 'submit' &&
    reason !== 'threads-disabled' &&
    e.kind !== 'validation' &&
    (e.status === 429 ||
      e.status === 503 ||
      e.kind === 'retry-after-too-long' ||
      (e.status === 500 && e.error === PASSTHROUGH_ERROR))
  )
    reason = 'not-created';
  const step = nextStep(e, reason, c);
  if (!step) return new AgentError(e, reason);
  const said = e.error ?? e.message;
  return new AgentError(e, reason, e.status ? `${said} (HTTP ${e.status}): ${step}` : `${said}: ${step}`);
}
