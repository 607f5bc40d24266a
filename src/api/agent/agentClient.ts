// AgentClient: the agent endpoints of the addendum on top of DevIndexClient.request. Input is checked
// before anything is sent; submission is never repeated once the service may have created the job;
// every error it throws is an AgentError stamped with one reason (`reasonOf`), and its message says
// what to do next. The surfaces keep their own words per reason; nothing re-reads the service's text.
import { type AgentErrorReason, reasonOf, UUID_RE } from './agentConstants';
import { type AgentExchange, type AgentSubmitParams, short, SNAPSHOT_ID_RE, type SubmitRules, validateAgentSubmit } from './submitSchema';
import {
  AgentJobRecordSchema, CancelResponseSchema, ExchangeAnswerSchema, type ExchangeCall, ListResponseSchema, SnapshotResponseSchema, SubmitResponseSchema,
  ThreadResponseSchema, TraceResponseSchema, type AgentCancelResponse, type AgentJobRecord, type AgentList, type AgentListEntry,
  type AgentSnapshot, type AgentSubmitResponse, type AgentThread, type AgentTrace,
} from './agentSchemas';
import type { CallOptions, DevIndexClient } from '../client';
import { ApiError, PASSTHROUGH_ERROR } from '../errors';
import type { ParamIssue } from '../params';

export * from './agentSchemas';
export * from './agentTrace';
export { isWaiting } from './approval';
export { approvalWords } from './runOutcome';
export {
  type AgentExchange, type AgentSchemaParam, type AgentSubmitParams, PAID_CALL_SETTINGS, type SubmitRules, TOOL_EXCHANGE_FIELDS, TOOL_SUBMIT_FIELDS,
  type ToolSubmitParams, validateAgentSubmit,
} from './submitSchema';
export {
  AGENT_EFFORTS, AGENT_ERROR_REASONS, AGENT_MODELS, AGENT_MODES, AGENT_ON_TERMS, DEFAULT_AGENT_MODEL, EXCHANGE_MAX_CALLS, EXCHANGE_MAX_TOOLKITS, FOLDED_EVENT_TYPES, type AgentMode, RETIRED_AGENT_MODELS, NAMED_INTEGRATIONS,
  isValidIntegration, PROMPT_MAX_LENGTH, reasonOf, type AgentErrorReason,
} from './agentConstants';

export const AGENT_PATH = '/v2/agent';
/** Exchange calls (terms/accept) run through the scrape endpoint (addendum, "Accepting terms"). */
export const SCRAPE_PATH = '/v2/scrape';
const MAX_TERMS_CALLS = 5;
/** Pages of the job list followed at most by `listAll` (20 jobs a page). */
export const MAX_LIST_PAGES = 10;

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
} as const;
/** Thread errors: the code, in `code` or as the `error` text. */
export const THREAD_ERROR_CODES = {
  notFound: 'thread_not_found', busy: 'thread_busy', expired: 'thread_expired', disabled: 'threads_disabled',
  exchangeNotEnabled: 'exchange_not_enabled',
} as const;
export const TRACE_ENGINE_RE = /^Trace is only available for (.+) extracts$/;
export const SNAPSHOT_ENGINE_RE = /^Snapshots are only available for (.+) extracts$/;
/** Zero data retention: production continues the sentence with how to contact support. */
const ZDR_PREFIX = 'Your team has zero data retention enabled. This is not supported on extract.';


/** An ApiError with the reason AgentClient stamped on it. */
export class AgentError extends ApiError {
  readonly reason: AgentErrorReason;
  constructor(e: ApiError, reason: AgentErrorReason, message = e.message) {
    super({
      kind: e.kind, message, status: e.status, error: e.error, details: e.details, code: e.code, retryable: e.retryable,
      retryAfterMs: e.retryAfterMs, issues: e.issues, attempts: e.attempts, cause: e,
      location: e.location, resetAt: e.resetAt, quota: e.quota, runId: e.runId,
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

export function validateJobId(jobId: unknown): ParamIssue | undefined {
  if (typeof jobId === 'string' && UUID_RE.test(jobId)) return undefined;
  return { field: 'jobId', message: `jobId ${short(jobId)}: ${AGENT_ERRORS.invalidJobId}` };
}

export function validateSnapshotId(snapshotId: unknown): ParamIssue | undefined {
  if (typeof snapshotId === 'string' && SNAPSHOT_ID_RE.test(snapshotId)) return undefined;
  return { field: 'snapshotId', message: `snapshotId ${short(snapshotId)}: ${AGENT_ERRORS.invalidSnapshotId} (expected 1 to 128 letters, digits, "_" or "-", as found in an artifact.updated event)` };
}

function invalid(issues: ParamIssue[], what: string): AgentError {
  const field = issues[0]?.field;
  const reason: AgentErrorReason = field === 'jobId' ? 'invalid-job-id' : field === 'snapshotId' ? 'invalid-snapshot-id' : 'invalid-input';
  const e = new ApiError({ kind: 'validation', message: `invalid ${what}: ${issues.map((i) => i.message).join('; ')}`, issues, retryable: false, attempts: 0 });
  return new AgentError(e, reason);
}

/** The reason in the service's `Invalid JSON schema: <reason>` 400. */
export function invalidSchemaReason(error: string | undefined): string | undefined {
  if (!error || !error.startsWith(AGENT_ERRORS.invalidSchemaPrefix)) return undefined;
  return error.slice(AGENT_ERRORS.invalidSchemaPrefix.length).replace(/^[\s.:]+/, '').trim() || 'no reason given';
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
    case 401: return 'auth';
    case 402: return 'payment';
    case 403: return 'forbidden';
    case 404:
      if (op === 'snapshot' && err === AGENT_ERRORS.snapshotNotFound) return 'snapshot-not-found';
      // Production answers an expired or unknown job with 404 on every agent endpoint.
      return op === 'list' || op === 'submit' ? 'other' : 'not-found';
    case 409:
      if (err === AGENT_ERRORS.alreadyCancelled) return 'already-cancelled';
      if (err === AGENT_ERRORS.alreadyFinished || op === 'cancel') return 'already-finished';
      return 'other';
    case 422: return op === 'submit' ? 'invalid-schema' : 'other';
    case 429: return 'rate-limit';
    default:
      if (e.kind === 'retry-after-too-long') return 'rate-limit';
      if (e.status !== undefined && e.status >= 500) return 'service';
      return 'other';
  }
}

/** Kept for callers that classify an error of unknown origin: the stamped reason, else a classification. */
export function agentErrorReason(e: unknown): AgentErrorReason | undefined {
  const stamped = reasonOf(e);
  if (stamped) return stamped;
  return e instanceof ApiError ? classify(e, 'status') : undefined;
}

interface Ctx { op: Op; jobId?: string; snapshotId?: string; threadId?: string; urls?: readonly string[] }

/** The next step per reason, in the style of errors.ts: `<service error> (HTTP n): <what to do>`. */
function nextStep(e: ApiError, reason: AgentErrorReason, c: Ctx): string | undefined {
  const err = e.error ?? '';
  const job = c.jobId ? `job ${c.jobId}` : 'the job';
  switch (reason) {
    case 'invalid-job-id': return e.kind === 'validation' ? undefined : 'the job id must be a UUID; copy it from the job list (devindex agent list)';
    case 'invalid-snapshot-id': return e.kind === 'validation' ? undefined : 'take the snapshot id from an artifact.updated event of the job\'s trace';
    case 'invalid-schema': {
      const why = invalidSchemaReason(err) ?? (err.startsWith(AGENT_ERRORS.backendSchemaPrefix) ? err.slice(AGENT_ERRORS.backendSchemaPrefix.length).replace(/^[\s.:]+/, '').trim() || 'no reason given' : undefined);
      return why !== undefined ? `the service refused the schema (${why}); fix the JSON Schema, or leave it out` : undefined;
    }
    case 'invalid-input':
      return err === AGENT_ERRORS.invalidBefore ? 'the job list\'s page marker (before) must be a whole number of epoch milliseconds, 0 or more' : undefined;
    case 'thread-not-found': return `no thread ${c.threadId ?? 'with this id'} for this API key: check the thread id (devindex agent status JOB prints it), or start a new job without one`;
    case 'thread-busy': return `a turn of this thread is still running${e.runId ? ` (job ${e.runId})` : ''}; follow it until it ends, then ask the follow-up`;
    case 'thread-expired': return 'this thread has expired on the service, so it cannot be continued; start a new job with the prompt';
    case 'threads-disabled': return 'this service has follow-up threads switched off; start a new job with the prompt instead';
    case 'exchange-not-enabled': return 'this run is not waiting for an approval (it may have ended, or the approval was already answered); refresh its status';
    case 'blocked-url': {
      const named = c.urls?.find((u) => err.includes(u)) ?? (c.urls?.length === 1 ? c.urls[0] : undefined);
      return `the service's threat protection blocked ${named ? `the start URL ${named}` : 'a start URL'}; remove it, or start from another page`;
    }
    case 'no-job-list': return 'this server keeps no job list; jobs started here are still followed';
    case 'no-trace': return `this job has no trace: it ran on an engine older than ${TRACE_ENGINE_RE.exec(err)?.[1] ?? 'the current one'}, which recorded none; its status and result are still available`;
    case 'no-snapshots': return `this job has no snapshots: it ran on an engine older than ${SNAPSHOT_ENGINE_RE.exec(err)?.[1] ?? 'the current one'}, which recorded none; its status and result are still available`;
    case 'zero-data-retention': return 'agent runs must keep data while they run, so they are not available to a team with zero data retention forced on; ask the team\'s administrator to turn it off, or use a key of a team without it';
    case 'not-found': return `no agent job with this id for this API key: it does not exist, has expired (jobs expire about 24 hours after they end), or belongs to another team; check the id (devindex agent list) and the key`;
    case 'snapshot-not-found': return `${job} has no snapshot ${c.snapshotId ?? 'with this id'}; take the snapshot id from an artifact.updated event of this job's trace`;
    case 'already-finished': return `${job} had already finished, so there was nothing to cancel; refresh its status to see how it ended`;
    case 'already-cancelled': return `${job} is already being cancelled; keep polling its status until it reports that it stopped`;
    case 'not-created': {
      const why = e.status === 500 ? 'the agent service rejected the job at submission' : e.status === 429 || e.kind === 'retry-after-too-long' ? 'the service is rate limiting' : 'the service is temporarily unavailable';
      return `${why}; no job was created (tried ${e.attempts} time${e.attempts === 1 ? '' : 's'}); try again later`;
    }
    default: return undefined;
  }
}

/** After a submission that may have reached the service: say so, and never send it again. */
function mayExist(e: ApiError): JobMayExistError | undefined {
  // Aborted while the request was out (not while waiting to retry after an answer that created nothing).
  const abortedInFlight = e.kind === 'aborted' && e.cause === undefined;
  const uncertain = abortedInFlight || e.kind === 'timeout' || e.kind === 'network' || e.kind === 'invalid-response' || e.kind === 'response-too-large'
    || (e.kind === 'http' && (e.status === 502 || e.status === 504 || (e.status === 500 && e.error !== PASSTHROUGH_ERROR)));
  if (!uncertain) return undefined;
  const what = abortedInFlight ? 'the submission was interrupted after it was sent'
    : e.kind === 'timeout' ? 'the submission timed out'
      : e.kind === 'network' ? 'the connection dropped during the submission'
        : e.kind === 'http' ? `the submission failed with HTTP ${e.status}${e.error ? ` (${e.error})` : ''}`
          : 'the answer to the submission could not be read';
  return new JobMayExistError(e,
    `${what}, so the job may have been created anyway; it was not submitted again, to avoid a second billed run. Look for it in the job list (devindex agent list) before starting it again. (${e.message})`);
}

/** Where a list page's `next` leads: a request on the configured service, or why it is not followed. */
export type NextPage =
  | { follow: true; query: Array<[string, string]>; before?: number }
  | { follow: false; reason: 'none' | 'other-origin' | 'other-path' | 'malformed'; origin?: string };

/**
 * `next` is absolute in production. It is followed only on the configured base URL's origin (and
 * under its path prefix), so the key is never sent anywhere else; a relative `next` (older shape) is
 * read against the base URL.
 */
export function nextPage(next: string | null | undefined, baseUrl: string): NextPage {
  if (!next) return { follow: false, reason: 'none' };
  let base: URL;
  let u: URL;
  try {
    base = new URL(baseUrl);
    const relative = next.startsWith('/') && !next.startsWith('//');
    u = relative ? new URL(next, 'http://relative.invalid') : new URL(next);
    if (!relative && u.origin !== base.origin) return { follow: false, reason: 'other-origin', origin: u.origin };
  } catch {
    return { follow: false, reason: 'malformed' };
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  let path = u.pathname;
  if (prefix && path.startsWith(`${prefix}/`) && path.slice(prefix.length) === AGENT_PATH) path = AGENT_PATH;
  if (path !== AGENT_PATH) return { follow: false, reason: 'other-path' };
  const query = [...u.searchParams.entries()];
  return { follow: true, query, before: beforeOf(next) };
}

export interface ListOptions { before?: number }
export interface AgentListPage extends AgentList {
  /** `before` of the next page, parsed from `next`. */
  nextBefore?: number;
  /** Whether `next` can be followed on the configured service (see `nextPage`). */
  nextPage: NextPage;
}
export interface AgentListAll {
  agents: AgentListEntry[];
  /** Why reading stopped: no more pages, the page bound, or a `next` that is not followed. */
  stopped: 'end' | 'bound' | 'other-origin' | 'other-path' | 'malformed';
}

export type AgentClientOptions = SubmitRules;

export class AgentClient {
  constructor(private readonly client: DevIndexClient, private readonly options: AgentClientOptions = {}) {}

  /**
   * POST /v2/agent with the client's `origin`. Retried only when the job cannot exist (429, 503, 500
   * passthrough); never after it may have been created.
   */
  async submit(params: AgentSubmitParams, opts?: CallOptions & SubmitRules): Promise<{ id: string; response: AgentSubmitResponse }> {
    const withOrigin = params.origin === undefined && this.client.settings.origin ? { ...params, origin: this.client.settings.origin } : params;
    const v = validateAgentSubmit(withOrigin, { extraModels: [...(this.options.extraModels ?? []), ...(opts?.extraModels ?? [])] });
    if (!v.ok) throw invalid(v.issues, 'agent job');
    if (opts?.signal?.aborted) throw new AgentError(new ApiError({ kind: 'aborted', message: 'request cancelled before it was sent', retryable: false }), 'cancelled');
    const res = await this.call({ op: 'submit', threadId: params.threadId, urls: params.urls }, () => this.client.request({ method: 'POST', path: AGENT_PATH, body: v.body, schema: SubmitResponseSchema, retry: 'submit' }, opts));
    return { id: res.id, response: res };
  }

  async status(jobId: string, opts?: CallOptions): Promise<AgentJobRecord> {
    this.checkJob(jobId);
    return this.call({ op: 'status', jobId }, () => this.client.request({ method: 'GET', path: jobPath(jobId), schema: AgentJobRecordSchema, retry: 'spec' }, opts));
  }

  /**
   * DELETE /v2/agent/{jobId}. A retry after a lost answer can meet the 409 of its own first attempt;
   * "already cancelled" on a later attempt therefore means this call succeeded.
   */
  async cancel(jobId: string, opts?: CallOptions): Promise<AgentCancelResponse> {
    this.checkJob(jobId);
    try {
      return await this.call({ op: 'cancel', jobId }, () => this.client.request({ method: 'DELETE', path: jobPath(jobId), schema: CancelResponseSchema, retry: 'spec' }, opts));
    } catch (e) {
      if (reasonOf(e) === 'already-cancelled' && (e as ApiError).attempts > 1) return { success: true };
      throw e;
    }
  }

  async trace(jobId: string, o: { liveView?: boolean } = {}, opts?: CallOptions): Promise<AgentTrace> {
    this.checkJob(jobId);
    const query: Array<[string, string]> = o.liveView === undefined ? [] : [['liveView', String(o.liveView)]];
    return this.call({ op: 'trace', jobId }, () => this.client.request({ method: 'GET', path: `${jobPath(jobId)}/trace`, query, schema: TraceResponseSchema, retry: 'spec' }, opts));
  }

  /**
   * A snapshot of an artifact. The SDK declares `snapshot` optional: an answer without it (`{ success:
   * false, error }`) is the service's word, thrown with its text (reason `other`), not an invalid response.
   */
  async snapshot(jobId: string, snapshotId: string, opts?: CallOptions): Promise<AgentSnapshot & { snapshot: string }> {
    const issues = [validateJobId(jobId), validateSnapshotId(snapshotId)].filter((i): i is ParamIssue => !!i);
    if (issues.length) throw invalid(issues, 'snapshot request');
    const res = await this.call({ op: 'snapshot', jobId, snapshotId }, () => this.client.request({
      method: 'GET', path: `${jobPath(jobId)}/snapshots/${encodeURIComponent(snapshotId)}`, schema: SnapshotResponseSchema, retry: 'spec',
    }, opts));
    if (res.snapshot === undefined) throw withoutRecord(`snapshot ${snapshotId} of job ${jobId}`, res.error);
    return { ...res, snapshot: res.snapshot };
  }

  /** A thread and its turns, oldest first (`GET /v2/agent/threads/{id}`); `includeData` adds each turn's data and answer. */
  async thread(threadId: string, o: { includeData?: boolean } = {}, opts?: CallOptions): Promise<AgentThread> {
    if (typeof threadId !== 'string' || !UUID_RE.test(threadId)) {
      throw invalid([{ field: 'threadId', message: `threadId ${short(threadId)} is not a thread id (a UUID, as printed by devindex agent status)` }], 'thread id');
    }
    const query: Array<[string, string]> = o.includeData ? [['includeData', 'true']] : [];
    const res = await this.call({ op: 'thread', threadId }, () => this.client.request({
      method: 'GET', path: `${AGENT_PATH}/threads/${encodeURIComponent(threadId)}`, query, schema: ThreadResponseSchema, retry: 'spec',
    }, opts));
    if (!res.thread) throw withoutRecord(`thread ${threadId}`, res.error);
    return res.thread;
  }

  /**
   * The caller's answer to a run that waits (`pendingApproval`): a follow-up in its thread with
   * `exchange.approve` or `exchange.decline` and the approval's id. The prompt says the decision in
   * words (the specification requires one).
   */
  /**
   * Accepts providers' data terms: runs the `terms/accept` Exchange calls a run's
   * `exchange.requiresAction` handed over (`POST /v2/scrape` with `{ alexandria: [...] }`). Only ever
   * called after the user explicitly agreed; nothing in this product calls it on its own.
   */
  async acceptTerms(calls: readonly ExchangeCall[], opts?: CallOptions): Promise<{ creditsCost?: number }> {
    const issues: ParamIssue[] = [];
    if (calls.length === 0 || calls.length > MAX_TERMS_CALLS) issues.push({ field: 'alexandria', message: `between 1 and ${MAX_TERMS_CALLS} terms/accept calls; got ${calls.length}` });
    calls.forEach((c, i) => {
      if (c.provider !== 'firecrawl' || c.capability !== 'terms/accept' || c.options?.confirmed !== true || typeof c.options?.provider !== 'string') {
        issues.push({ field: `alexandria[${i}]`, message: 'only a terms/accept call from the run\'s requiresAction, with confirmed: true, is sent' });
      }
    });
    if (issues.length) throw invalid(issues, 'terms acceptance');
    const body = { alexandria: calls.map((c) => ({ provider: c.provider, capability: c.capability, options: c.options })) };
    const res = await this.call({ op: 'terms' }, () => this.client.request({ method: 'POST', path: SCRAPE_PATH, body, schema: ExchangeAnswerSchema, retry: 'spec' }, opts));
    return { creditsCost: res.creditsCost ?? res.data?.creditsCost };
  }

  async answerApproval(a: { threadId: string; approvalId: string; decision: 'approve' | 'decline'; callIds?: string[]; always?: boolean; prompt?: string },
    opts?: CallOptions): Promise<{ id: string; response: AgentSubmitResponse }> {
    const exchange: AgentExchange = a.decision === 'approve'
      ? { approve: { approvalId: a.approvalId, ...(a.callIds ? { callIds: a.callIds } : {}), ...(a.always !== undefined ? { always: a.always } : {}) } }
      : { decline: { approvalId: a.approvalId } };
    return this.submit({ prompt: a.prompt ?? (a.decision === 'approve' ? 'Approved.' : 'Declined.'), threadId: a.threadId, exchange }, opts);
  }

  /** One page (20 jobs, newest first). Pass `nextBefore` of a page as `before` for the next one. */
  async list(o: ListOptions = {}, opts?: CallOptions): Promise<AgentListPage> {
    if (o.before !== undefined && (!Number.isInteger(o.before) || o.before < 0)) {
      throw invalid([{ field: 'before', message: `before must be a whole number of epoch milliseconds, 0 or more; got ${short(o.before)}` }], 'job list request');
    }
    const query: Array<[string, string]> = o.before === undefined ? [] : [['before', String(o.before)]];
    return this.page(query, opts);
  }

  /**
   * The job list, following `next` page after page while it stays on the configured service, up to
   * `maxPages` pages (default MAX_LIST_PAGES).
   */
  async listAll(o: { maxPages?: number } = {}, opts?: CallOptions): Promise<AgentListAll> {
    const maxPages = Math.max(1, Math.min(o.maxPages ?? MAX_LIST_PAGES, 100));
    const agents: AgentListEntry[] = [];
    const seen = new Set<string>();
    let query: Array<[string, string]> = [];
    for (let n = 0; ; n++) {
      const page = await this.page(query, opts);
      for (const a of page.agents) if (!seen.has(a.id)) { seen.add(a.id); agents.push(a); }
      const next = page.nextPage;
      if (!next.follow) return { agents, stopped: next.reason === 'none' ? 'end' : next.reason };
      if (n + 1 >= maxPages) return { agents, stopped: 'bound' };
      // A `next` that leads back to the same page would loop: stop there.
      if (JSON.stringify(next.query) === JSON.stringify(query)) return { agents, stopped: 'end' };
      query = next.query;
    }
  }

  private async page(query: Array<[string, string]>, opts?: CallOptions): Promise<AgentListPage> {
    const page = await this.call({ op: 'list' }, () => this.client.request({ method: 'GET', path: AGENT_PATH, query, schema: ListResponseSchema, retry: 'spec' }, opts));
    const next = nextPage(page.next, this.client.settings.baseUrl);
    return { ...page, nextBefore: next.follow ? next.before : undefined, nextPage: next };
  }

  private checkJob(jobId: string): void {
    const issue = validateJobId(jobId);
    if (issue) throw invalid([issue], 'job id');
  }

  private async call<T>(c: Ctx, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e instanceof AgentError) throw e;
      if (c.op === 'submit') {
        const m = mayExist(e);
        if (m) throw m;
      }
      let reason = classify(e, c.op);
      if (c.op === 'submit' && reason !== 'threads-disabled' && e.kind !== 'validation' && (e.status === 429 || e.status === 503 || e.kind === 'retry-after-too-long'
        || (e.status === 500 && e.error === PASSTHROUGH_ERROR))) reason = 'not-created';
      const step = nextStep(e, reason, c);
      if (!step) throw new AgentError(e, reason);
      const said = e.error ?? e.message;
      throw new AgentError(e, reason, e.status ? `${said} (HTTP ${e.status}): ${step}` : `${said}: ${step}`);
    }
  }
}

/** An answer that came without the record it was asked for: the service's own words, as an error to show. */
function withoutRecord(what: string, error: string | undefined): AgentError {
  const said = error ? error.replace(/\s+/g, ' ').trim().slice(0, 500) : undefined;
  const e = new ApiError({ kind: 'http', status: 200, error: said, message: `The service sent no ${what}${said ? `: ${said}` : ''}`, retryable: false, attempts: 1 });
  return new AgentError(e, 'other');
}

function jobPath(jobId: string): string {
  return `${AGENT_PATH}/${encodeURIComponent(jobId)}`;
}

/** `before` from a `next` URL, absolute or relative. */
export function beforeOf(next: string | null | undefined): number | undefined {
  if (!next) return undefined;
  let u: URL;
  try { u = new URL(next, 'http://placeholder.invalid'); } catch { return undefined; }
  const b = u.searchParams.get('before');
  return b !== null && /^\d{1,16}$/.test(b) ? Number(b) : undefined;
}
