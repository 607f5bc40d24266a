// AgentClient: the agent endpoints of the addendum on top of DevIndexClient.request. Input is checked
// before anything is sent; submission is never repeated once the service may have created the job;
// every agent error of spec 7.2 comes back with a message that says what to do next.
import {
  AgentJobSchema, CancelResponseSchema, ListResponseSchema, SnapshotResponseSchema, SubmitResponseSchema,
  TraceResponseSchema, type AgentCancelResponse, type AgentJob, type AgentList, type AgentSnapshot, type AgentTrace,
} from './agentSchemas';
import type { CallOptions, DevIndexClient } from './client';
import { ApiError, PASSTHROUGH_ERROR } from './errors';
import type { ParamIssue } from './params';

export * from './agentSchemas';
export * from './agentTrace';

export const AGENT_PATH = '/v2/agent';
export const PROMPT_MAX_LENGTH = 10_000;
export const AGENT_EFFORTS = ['low', 'medium', 'high'] as const;

export const AGENT_ERRORS = {
  invalidJobId: 'Invalid job ID format. Job ID must be a valid UUID.',
  invalidSnapshotId: 'Invalid snapshot ID',
  zeroDataRetention: 'Your team has zero data retention enabled. This is not supported on extract.',
  notFound: 'Agent job not found',
  snapshotNotFound: 'Snapshot not found',
  alreadyFinished: 'Agent already finished',
  alreadyCancelled: 'Agent is already cancelled',
  passthrough: PASSTHROUGH_ERROR,
} as const;
export const TRACE_ENGINE_RE = /^Trace is only available for (.+) extracts$/;
export const SNAPSHOT_ENGINE_RE = /^Snapshots are only available for (.+) extracts$/;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A snapshot id is one safe path segment: letters, digits, `_` and `-`, 1 to 128 characters. */
const SNAPSHOT_ID_RE = /^[A-Za-z0-9_-]{1,128}$/;

export interface AgentSubmitParams {
  prompt: string;
  urls?: string[];
  schema?: Record<string, unknown>;
  maxCredits?: number;
  model?: string;
  effort?: 'low' | 'medium' | 'high';
  strictConstrainToURLs?: boolean;
  origin?: string;
  integration?: string;
}

/** What kind of agent failure an ApiError is, for callers that react to it (job store, CLI). */
export type AgentErrorReason =
  | 'job-may-exist' | 'not-created' | 'invalid-job-id' | 'invalid-snapshot-id' | 'no-trace' | 'no-snapshots'
  | 'zero-data-retention' | 'not-found' | 'snapshot-not-found' | 'already-finished' | 'already-cancelled';

/**
 * Submission failed in a way that leaves it unknown whether the service created the job (timeout,
 * dropped connection, 502, 504, an unhandled 500, an unreadable success). It is never resubmitted.
 */
export class JobMayExistError extends ApiError {
  readonly jobMayExist = true;
}

function short(v: unknown): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

function isHttpUrl(s: string): boolean {
  let u: URL;
  try { u = new URL(s); } catch { return false; }
  return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
}

/** Checks a submission against the documented bounds; every message names the field and the bound. */
export function validateAgentSubmit(p: AgentSubmitParams): { ok: true; body: Record<string, unknown> } | { ok: false; issues: ParamIssue[] } {
  const issues: ParamIssue[] = [];
  const input = p as unknown as Record<string, unknown>;
  if (typeof input.prompt !== 'string') issues.push({ field: 'prompt', message: 'prompt is required and must be a string' });
  else if (input.prompt.trim().length === 0) issues.push({ field: 'prompt', message: 'prompt must not be empty' });
  else if (input.prompt.length > PROMPT_MAX_LENGTH) issues.push({ field: 'prompt', message: `prompt is ${input.prompt.length} characters; the maximum is ${PROMPT_MAX_LENGTH.toLocaleString('en-US')}` });

  if (input.urls !== undefined) {
    if (!Array.isArray(input.urls)) issues.push({ field: 'urls', message: 'urls must be a list of absolute http(s) URLs' });
    else input.urls.forEach((u, i) => {
      if (typeof u !== 'string' || !isHttpUrl(u)) issues.push({ field: 'urls', message: `urls[${i}] ${short(u)} is not an absolute http(s) URL (for example https://example.com/page)` });
    });
  }
  if (input.schema !== undefined && (typeof input.schema !== 'object' || input.schema === null || Array.isArray(input.schema))) {
    issues.push({ field: 'schema', message: `schema must be a JSON object (a JSON Schema such as {"type":"object"}); got ${Array.isArray(input.schema) ? 'an array' : short(input.schema)}` });
  }
  if (input.maxCredits !== undefined && (typeof input.maxCredits !== 'number' || !Number.isFinite(input.maxCredits) || input.maxCredits <= 0)) {
    issues.push({ field: 'maxCredits', message: `maxCredits must be a number greater than 0; got ${short(input.maxCredits)}` });
  }
  if (input.model !== undefined && (typeof input.model !== 'string' || input.model.trim().length === 0)) {
    issues.push({ field: 'model', message: `model must be a non-empty string; got ${short(input.model)}` });
  }
  if (input.effort !== undefined && !(AGENT_EFFORTS as readonly unknown[]).includes(input.effort)) {
    issues.push({ field: 'effort', message: `effort must be one of ${AGENT_EFFORTS.join(', ')}; got ${short(input.effort)}` });
  }
  if (input.strictConstrainToURLs !== undefined && typeof input.strictConstrainToURLs !== 'boolean') {
    issues.push({ field: 'strictConstrainToURLs', message: `strictConstrainToURLs must be true or false; got ${short(input.strictConstrainToURLs)}` });
  }
  for (const f of ['origin', 'integration'] as const) {
    if (input[f] !== undefined && typeof input[f] !== 'string') issues.push({ field: f, message: `${f} must be a string; got ${short(input[f])}` });
  }
  if (issues.length) return { ok: false, issues };
  const body: Record<string, unknown> = {};
  for (const k of ['prompt', 'urls', 'schema', 'maxCredits', 'model', 'effort', 'strictConstrainToURLs', 'origin', 'integration']) {
    if (input[k] !== undefined) body[k] = input[k];
  }
  return { ok: true, body };
}

export function validateJobId(jobId: unknown): ParamIssue | undefined {
  if (typeof jobId === 'string' && UUID_RE.test(jobId)) return undefined;
  return { field: 'jobId', message: `jobId ${short(jobId)}: ${AGENT_ERRORS.invalidJobId}` };
}

export function validateSnapshotId(snapshotId: unknown): ParamIssue | undefined {
  if (typeof snapshotId === 'string' && SNAPSHOT_ID_RE.test(snapshotId)) return undefined;
  return { field: 'snapshotId', message: `snapshotId ${short(snapshotId)}: ${AGENT_ERRORS.invalidSnapshotId} (expected 1 to 128 letters, digits, "_" or "-", as found in an artifact.updated event)` };
}

function invalid(issues: ParamIssue[], what: string): ApiError {
  return new ApiError({ kind: 'validation', message: `invalid ${what}: ${issues.map((i) => i.message).join('; ')}`, issues, retryable: false, attempts: 0 });
}

/** Classifies an error thrown by AgentClient. */
export function agentErrorReason(e: unknown): AgentErrorReason | undefined {
  if (e instanceof JobMayExistError) return 'job-may-exist';
  if (!(e instanceof ApiError)) return undefined;
  if (e.kind === 'validation') {
    const f = e.issues?.[0]?.field;
    return f === 'jobId' ? 'invalid-job-id' : f === 'snapshotId' ? 'invalid-snapshot-id' : undefined;
  }
  if (e.kind !== 'http' && e.kind !== 'retry-after-too-long') return undefined;
  const err = e.error ?? '';
  switch (e.status) {
    case 400:
      if (err === AGENT_ERRORS.invalidJobId) return 'invalid-job-id';
      if (err === AGENT_ERRORS.invalidSnapshotId) return 'invalid-snapshot-id';
      if (TRACE_ENGINE_RE.test(err)) return 'no-trace';
      if (SNAPSHOT_ENGINE_RE.test(err)) return 'no-snapshots';
      if (err === AGENT_ERRORS.zeroDataRetention) return 'zero-data-retention';
      return undefined;
    case 404:
      if (err === AGENT_ERRORS.snapshotNotFound) return 'snapshot-not-found';
      if (err === AGENT_ERRORS.notFound) return 'not-found';
      return undefined;
    case 409:
      if (err === AGENT_ERRORS.alreadyFinished) return 'already-finished';
      if (err === AGENT_ERRORS.alreadyCancelled) return 'already-cancelled';
      return undefined;
    default:
      return undefined;
  }
}

interface Ctx { op: 'submit' | 'status' | 'cancel' | 'trace' | 'snapshot' | 'list'; jobId?: string; snapshotId?: string }

/** The next step for each row of spec 7.2, in the style of errors.ts: `<service error> (HTTP n): <what to do>`. */
function nextStep(e: ApiError, c: Ctx): string | undefined {
  const err = e.error ?? '';
  const job = c.jobId ? `job ${c.jobId}` : 'the job';
  switch (agentErrorReason(e)) {
    case 'invalid-job-id': return 'the job id must be a UUID; copy it from the job list (devindex agent list)';
    case 'invalid-snapshot-id': return 'take the snapshot id from an artifact.updated event of the job\'s trace';
    case 'no-trace': return `this job has no trace: it ran on an engine older than ${TRACE_ENGINE_RE.exec(err)?.[1] ?? 'the current one'}, which recorded none; its status and result are still available`;
    case 'no-snapshots': return `this job has no snapshots: it ran on an engine older than ${SNAPSHOT_ENGINE_RE.exec(err)?.[1] ?? 'the current one'}, which recorded none; its status and result are still available`;
    case 'zero-data-retention': return 'agent runs must keep data while they run, so they are not available to a team with zero data retention forced on; ask the team\'s administrator to turn it off, or use a key of a team without it';
    case 'not-found': return `no agent job with this id for this API key: it does not exist, has expired, or belongs to another team; check the id (devindex agent list) and the key`;
    case 'snapshot-not-found': return `${job} has no snapshot ${c.snapshotId ?? 'with this id'}; take the snapshot id from an artifact.updated event of this job's trace`;
    case 'already-finished': return `${job} had already finished, so there was nothing to cancel; refresh its status to see how it ended`;
    case 'already-cancelled': return `${job} is already being cancelled; keep polling its status until it reports that it stopped`;
    default: break;
  }
  if (c.op === 'submit' && e.kind === 'http' && (e.status === 429 || e.status === 503 || (e.status === 500 && err === PASSTHROUGH_ERROR))) {
    const why = e.status === 500 ? 'the agent service rejected the job at submission' : e.status === 429 ? 'the service is rate limiting' : 'the service is temporarily unavailable';
    return `${why}; no job was created (tried ${e.attempts} time${e.attempts === 1 ? '' : 's'}); try again later`;
  }
  return undefined;
}

function withMessage(e: ApiError, message: string): ApiError {
  const copy = new ApiError({
    kind: e.kind, message, status: e.status, error: e.error, details: e.details, code: e.code, retryable: e.retryable,
    retryAfterMs: e.retryAfterMs, issues: e.issues, attempts: e.attempts, cause: e,
  });
  return copy;
}

/** After a submission that may have reached the service: say so, and never send it again. */
function mayExist(e: ApiError): JobMayExistError | undefined {
  const uncertain = e.kind === 'timeout' || e.kind === 'network' || e.kind === 'invalid-response' || e.kind === 'response-too-large'
    || (e.kind === 'http' && (e.status === 502 || e.status === 504 || (e.status === 500 && e.error !== PASSTHROUGH_ERROR)));
  if (!uncertain) return undefined;
  const what = e.kind === 'timeout' ? 'the submission timed out'
    : e.kind === 'network' ? 'the connection dropped during the submission'
      : e.kind === 'http' ? `the submission failed with HTTP ${e.status}${e.error ? ` (${e.error})` : ''}`
        : 'the answer to the submission could not be read';
  return new JobMayExistError({
    kind: e.kind, status: e.status, error: e.error, details: e.details, code: e.code, retryable: false, attempts: e.attempts, cause: e,
    message: `${what}, so the job may have been created anyway; it was not submitted again, to avoid a second billed run. Look for it in the job list (devindex agent list) before starting it again. (${e.message})`,
  });
}

export interface ListOptions { before?: number }
export interface AgentListPage extends AgentList { /** `before` of the next page, parsed from `next`. */ nextBefore?: number }

export class AgentClient {
  constructor(private readonly client: DevIndexClient) {}

  /** POST /v2/agent. Retried only when the job cannot exist (429, 503, 500 passthrough). */
  async submit(params: AgentSubmitParams, opts?: CallOptions): Promise<{ id: string; response: Record<string, unknown> }> {
    const v = validateAgentSubmit(params);
    if (!v.ok) throw invalid(v.issues, 'agent job');
    const res = await this.call({ op: 'submit' }, () => this.client.request({ method: 'POST', path: AGENT_PATH, body: v.body, schema: SubmitResponseSchema, retry: 'submit' }, opts));
    return { id: res.id, response: res };
  }

  async status(jobId: string, opts?: CallOptions): Promise<AgentJob> {
    this.checkJob(jobId);
    return this.call({ op: 'status', jobId }, () => this.client.request({ method: 'GET', path: jobPath(jobId), schema: AgentJobSchema, retry: 'spec' }, opts));
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
      if (agentErrorReason(e) === 'already-cancelled' && (e as ApiError).attempts > 1) return { success: true };
      throw e;
    }
  }

  async trace(jobId: string, o: { liveView?: boolean } = {}, opts?: CallOptions): Promise<AgentTrace> {
    this.checkJob(jobId);
    const query: Array<[string, string]> = o.liveView === undefined ? [] : [['liveView', String(o.liveView)]];
    return this.call({ op: 'trace', jobId }, () => this.client.request({ method: 'GET', path: `${jobPath(jobId)}/trace`, query, schema: TraceResponseSchema, retry: 'spec' }, opts));
  }

  async snapshot(jobId: string, snapshotId: string, opts?: CallOptions): Promise<AgentSnapshot> {
    const issues = [validateJobId(jobId), validateSnapshotId(snapshotId)].filter((i): i is ParamIssue => !!i);
    if (issues.length) throw invalid(issues, 'snapshot request');
    return this.call({ op: 'snapshot', jobId, snapshotId }, () => this.client.request({
      method: 'GET', path: `${jobPath(jobId)}/snapshots/${encodeURIComponent(snapshotId)}`, schema: SnapshotResponseSchema, retry: 'spec',
    }, opts));
  }

  /** One page (20 jobs, newest first). Pass `nextBefore` of a page as `before` for the next one. */
  async list(o: ListOptions = {}, opts?: CallOptions): Promise<AgentListPage> {
    if (o.before !== undefined && (!Number.isInteger(o.before) || o.before < 0)) {
      throw invalid([{ field: 'before', message: `before must be a whole number of epoch milliseconds, 0 or more; got ${short(o.before)}` }], 'job list request');
    }
    const query: Array<[string, string]> = o.before === undefined ? [] : [['before', String(o.before)]];
    const page = await this.call({ op: 'list' }, () => this.client.request({ method: 'GET', path: AGENT_PATH, query, schema: ListResponseSchema, retry: 'spec' }, opts));
    return { ...page, nextBefore: beforeOf(page.next) };
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
      if (c.op === 'submit') {
        const m = mayExist(e);
        if (m) throw m;
      }
      const step = nextStep(e, c);
      if (!step) throw e;
      const said = e.error ?? e.message;
      throw withMessage(e, e.status ? `${said} (HTTP ${e.status}): ${step}` : `${said}: ${step}`);
    }
  }
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
