// AgentClient: the addendum's agent endpoints over DevIndexClient.request. Input is checked before anything is sent,
// a submission is never repeated once the job may exist, and every error is an AgentError stamped with one reason
// (`reasonOf`) whose message says what to do next (agentFailure.ts).
import { UUID_RE } from './agentConstants';
import { reasonOf } from './agentReasons';
import {
  type AgentExchange,
  type AgentSubmitParams,
  inSchemaOrder,
  isCheckedSubmit,
  short,
  SNAPSHOT_ID_RE,
  type SubmitRules,
  TOOL_EXCHANGE_FIELDS,
  TOOL_SUBMIT_FIELDS,
  validateAgentSubmit,
} from './submitSchema';
import {
  AgentJobRecordSchema,
  CancelResponseSchema,
  ListResponseSchema,
  SnapshotResponseSchema,
  SubmitResponseSchema,
  ThreadResponseSchema,
  TraceResponseSchema,
  type AgentCancelResponse,
  type AgentJobRecord,
  type AgentList,
  type AgentListEntry,
  type AgentSnapshot,
  type AgentSubmitResponse,
  type AgentThread,
  type AgentTrace,
} from './agentSchemas';
import { ExchangeAnswerSchema, type ExchangeCall } from './exchangeSchemas';
import type { CallOptions, DevIndexClient } from '../client';
import { ApiError } from '../errors';
import type { ParamIssue } from '../params';
import {
  AGENT_ERRORS,
  AgentError,
  agentErrorReason,
  agentFailure,
  type Ctx,
  invalid,
  withoutRecord,
} from './agentFailure';
import { AGENT_PATH, type NextPage, nextPage } from './listPages';
import { newRequestId } from '../notices';
import {
  acceptCallIssues,
  exchangeResults,
  needsDigest,
  noDigestFailure,
  SCRAPE_PATH,
  showCallFor,
  shownDigest,
  type TermsAccepted,
  termsProvider,
  withDigest,
} from './termsExchange';

/** Pages of the job list followed at most by `listAll` (20 jobs a page). */
const MAX_LIST_PAGES = 10;

export function validateJobId(jobId: unknown): ParamIssue | undefined {
  if (typeof jobId === 'string' && UUID_RE.test(jobId)) return undefined;
  return { field: 'jobId', message: `jobId ${short(jobId)}: ${AGENT_ERRORS.invalidJobId}` };
}

export function validateSnapshotId(snapshotId: unknown): ParamIssue | undefined {
  if (typeof snapshotId === 'string' && SNAPSHOT_ID_RE.test(snapshotId)) return undefined;
  return {
    field: 'snapshotId',
    message:
      `snapshotId ${short(snapshotId)}: ${AGENT_ERRORS.invalidSnapshotId} ` +
      `(expected 1 to 128 letters, digits, "_" or "-", as found in an artifact.updated event)`,
  };
}

interface ListOptions {
  before?: number;
}
interface AgentListPage extends AgentList {
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

export class AgentClient {
  constructor(
    private readonly client: DevIndexClient,
    private readonly options: SubmitRules = {},
  ) {}

  /**
   * POST /v2/agent with the client's `origin`. Retried only when the job cannot exist (429, 503, 500
   * passthrough); never after it may have been created.
   */
  async submit(
    params: AgentSubmitParams,
    opts?: CallOptions & SubmitRules,
  ): Promise<{ id: string; response: AgentSubmitResponse }> {
    // A body a surface has already checked (a tool's start) is sent as it is: a start is checked once.
    const v = isCheckedSubmit(params)
      ? { ok: true as const, body: params }
      : validateAgentSubmit(params, {
          extraModels: [...(this.options.extraModels ?? []), ...(opts?.extraModels ?? [])],
        });
    if (!v.ok) throw invalid(v.issues, 'agent job');
    // The client's own origin (a setting, not input), in its place among the fields.
    const origin = this.client.settings.origin;
    const body = v.body.origin === undefined && origin ? inSchemaOrder({ ...v.body, origin }) : v.body;
    if (opts?.signal?.aborted)
      throw new AgentError(
        new ApiError({ kind: 'aborted', message: 'request cancelled before it was sent', retryable: false }),
        'cancelled',
      );
    const res = await this.call({ op: 'submit', threadId: params.threadId, urls: params.urls }, () =>
      this.client.request(
        { method: 'POST', path: AGENT_PATH, body, schema: SubmitResponseSchema, retry: 'submit' },
        opts,
      ),
    );
    return { id: res.id, response: res };
  }

  async status(jobId: string, opts?: CallOptions): Promise<AgentJobRecord> {
    this.checkJob(jobId);
    return this.call({ op: 'status', jobId }, () =>
      this.client.request({ method: 'GET', path: jobPath(jobId), schema: AgentJobRecordSchema, retry: 'spec' }, opts),
    );
  }

  /**
   * DELETE /v2/agent/{jobId}. A retry after a lost answer can meet the 409 of its own first attempt;
   * "already cancelled" on a later attempt therefore means this call succeeded.
   */
  async cancel(jobId: string, opts?: CallOptions): Promise<AgentCancelResponse> {
    this.checkJob(jobId);
    try {
      return await this.call({ op: 'cancel', jobId }, () =>
        this.client.request(
          { method: 'DELETE', path: jobPath(jobId), schema: CancelResponseSchema, retry: 'spec' },
          opts,
        ),
      );
    } catch (e) {
      if (reasonOf(e) === 'already-cancelled' && (e as ApiError).attempts > 1) return { success: true };
      throw e;
    }
  }

  async trace(jobId: string, o: { liveView?: boolean } = {}, opts?: CallOptions): Promise<AgentTrace> {
    this.checkJob(jobId);
    const query: Array<[string, string]> = o.liveView === undefined ? [] : [['liveView', String(o.liveView)]];
    return this.call({ op: 'trace', jobId }, () =>
      this.client.request(
        { method: 'GET', path: `${jobPath(jobId)}/trace`, query, schema: TraceResponseSchema, retry: 'spec' },
        opts,
      ),
    );
  }

  /**
   * A snapshot of an artifact. The SDK declares `snapshot` optional: an answer without it (`{ success:
   * false, error }`) is the service's word, thrown with its text (reason `other`), not an invalid response.
   */
  async snapshot(jobId: string, snapshotId: string, opts?: CallOptions): Promise<AgentSnapshot & { snapshot: string }> {
    const issues = [validateJobId(jobId), validateSnapshotId(snapshotId)].filter((i): i is ParamIssue => !!i);
    if (issues.length) throw invalid(issues, 'snapshot request');
    const res = await this.call({ op: 'snapshot', jobId, snapshotId }, () =>
      this.client.request(
        {
          method: 'GET',
          path: `${jobPath(jobId)}/snapshots/${encodeURIComponent(snapshotId)}`,
          schema: SnapshotResponseSchema,
          retry: 'spec',
        },
        opts,
      ),
    );
    if (res.snapshot === undefined) throw withoutRecord(`snapshot ${snapshotId} of job ${jobId}`, res.error);
    return { ...res, snapshot: res.snapshot };
  }

  /** A thread and its turns, oldest first (`GET /v2/agent/threads/{id}`); `includeData` adds each turn's data and answer. */
  async thread(threadId: string, o: { includeData?: boolean } = {}, opts?: CallOptions): Promise<AgentThread> {
    if (typeof threadId !== 'string' || !UUID_RE.test(threadId)) {
      throw invalid(
        [
          {
            field: 'threadId',
            message: `threadId ${short(threadId)} is not a thread id (a UUID, as printed by devindex agent status)`,
          },
        ],
        'thread id',
      );
    }
    const query: Array<[string, string]> = o.includeData ? [['includeData', 'true']] : [];
    const res = await this.call({ op: 'thread', threadId }, () =>
      this.client.request(
        {
          method: 'GET',
          path: `${AGENT_PATH}/threads/${encodeURIComponent(threadId)}`,
          query,
          schema: ThreadResponseSchema,
          retry: 'spec',
        },
        opts,
      ),
    );
    if (!res.thread) throw withoutRecord(`thread ${threadId}`, res.error);
    return res.thread;
  }

  /**
   * Accepts providers' data terms: runs the `terms/accept` Exchange calls a run's `exchange.requiresAction`
   * handed over, each without a digest after its `terms/show`. Only ever called after the user explicitly
   * agreed; resolves only when every result accepted (a failed one is a `terms-not-accepted` AgentError).
   */
  async acceptTerms(calls: readonly ExchangeCall[], opts?: CallOptions): Promise<TermsAccepted> {
    const issues = acceptCallIssues(calls);
    if (issues.length) throw invalid(issues, 'terms acceptance');
    const ready: ExchangeCall[] = [];
    for (const c of calls) {
      if (!needsDigest(c)) {
        ready.push(c);
        continue;
      }
      const show = showCallFor(c);
      const { results, retryId } = await this.exchange([show], opts);
      const digest = shownDigest(results[0]!);
      if (!digest) throw noDigestFailure(c, retryId);
      ready.push(withDigest(c, digest));
    }
    const { answer } = await this.exchange(ready, opts);
    return { providers: ready.map(termsProvider), creditsCost: answer.creditsCost ?? answer.data?.creditsCost };
  }

  /** One Exchange request; its retries carry the same `x-request-id`, so the service runs it once. */
  private async exchange(calls: readonly ExchangeCall[], opts?: CallOptions) {
    const retryId = newRequestId();
    const body = {
      alexandria: calls.map((c) => ({ provider: c.provider, capability: c.capability, options: c.options })),
    };
    const answer = await this.call({ op: 'terms' }, () =>
      this.client.request(
        { method: 'POST', path: SCRAPE_PATH, body, schema: ExchangeAnswerSchema, retry: 'spec', retryId },
        opts,
      ),
    );
    return { answer, retryId, results: exchangeResults(answer, calls, retryId) };
  }

  /**
   * The caller's answer to a run that waits (`pendingApproval`): a follow-up in its thread with
   * `exchange.approve` or `exchange.decline` and the approval's id. The prompt says the decision in
   * words (the specification requires one).
   */
  async answerApproval(
    a: {
      threadId: string;
      approvalId: string;
      decision: 'approve' | 'decline';
      callIds?: string[];
      always?: boolean;
      prompt?: string;
    },
    opts?: CallOptions,
  ): Promise<{ id: string; response: AgentSubmitResponse }> {
    const exchange: AgentExchange =
      a.decision === 'approve'
        ? {
            approve: {
              approvalId: a.approvalId,
              ...(a.callIds ? { callIds: a.callIds } : {}),
              ...(a.always !== undefined ? { always: a.always } : {}),
            },
          }
        : { decline: { approvalId: a.approvalId } };
    return this.submit(
      { prompt: a.prompt ?? (a.decision === 'approve' ? 'Approved.' : 'Declined.'), threadId: a.threadId, exchange },
      opts,
    );
  }

  /** One page (20 jobs, newest first). Pass `nextBefore` of a page as `before` for the next one. */
  async list(o: ListOptions = {}, opts?: CallOptions): Promise<AgentListPage> {
    if (o.before !== undefined && (!Number.isInteger(o.before) || o.before < 0)) {
      throw invalid(
        [
          {
            field: 'before',
            message: `before must be a whole number of epoch milliseconds, 0 or more; got ${short(o.before)}`,
          },
        ],
        'job list request',
      );
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
      for (const a of page.agents)
        if (!seen.has(a.id)) {
          seen.add(a.id);
          agents.push(a);
        }
      const next = page.nextPage;
      if (!next.follow) return { agents, stopped: next.reason === 'none' ? 'end' : next.reason };
      if (n + 1 >= maxPages) return { agents, stopped: 'bound' };
      // A `next` that leads back to the same page would loop: stop there.
      if (JSON.stringify(next.query) === JSON.stringify(query)) return { agents, stopped: 'end' };
      query = next.query;
    }
  }

  private async page(query: Array<[string, string]>, opts?: CallOptions): Promise<AgentListPage> {
    const page = await this.call({ op: 'list' }, () =>
      this.client.request({ method: 'GET', path: AGENT_PATH, query, schema: ListResponseSchema, retry: 'spec' }, opts),
    );
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
      throw e instanceof ApiError && !(e instanceof AgentError) ? agentFailure(e, c) : e;
    }
  }
}

function jobPath(jobId: string): string {
  return `${AGENT_PATH}/${encodeURIComponent(jobId)}`;
}

/** What the tools take from the agent code once it is loaded (tools/toolTypes.ts's AgentModule). */
export const agentModule = {
  TOOL_EXCHANGE_FIELDS,
  TOOL_SUBMIT_FIELDS,
  agentErrorReason,
  validateAgentSubmit,
  validateJobId,
  validateSnapshotId,
};

const over = new WeakMap<DevIndexClient, AgentClient>();

/**
 * The agent endpoints over a search client: the same pool, key and retry rules. One AgentClient per DevIndexClient,
 * so a settings change (a new client) gets a new one and the old one is dropped with it.
 */
export function agentClientOver(client: DevIndexClient): AgentClient {
  let api = over.get(client);
  if (!api) over.set(client, (api = new AgentClient(client)));
  return api;
}
