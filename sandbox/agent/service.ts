// The agent endpoints of the local service (see sandbox/agent/README.md for the behaviour and the
// magic prompts and ids). The server has already checked the key, the rate limit and the faults.
import { randomUUID } from 'node:crypto';
import {
  BLOCKED_HOSTS, ENGINE_2, ENGINE_2_PRODUCTION, MAGIC, MESSAGES, SCHEMA_VERSION, SLOW_FACTOR, applyCreditLimit, applyInternalFailure, basePlan, interrupt,
  type Outcome, type PlannedEvent,
} from './engine';
import { CHAT_SUGGESTIONS, answerPlan, approvalCalls, approvalPoint, chatPlan, finishEarly, inlinePaidCalls, insertCalls, type PaidCall } from './chatPlan';
import { SKIPPED_PROVIDER, TERMS_PROVIDERS, gateOf, handleScrape, hasAccepted, requiresActionOf, skippedOf, type TermsAcceptances, type TermsProvider } from './exchange';
import { DEFAULT_MODEL, validateSubmit, type Exchange, type Mode, type SubmitOptions, type Wire } from './validate';
import type {
  AgentExchangeSummary, AgentSnapshotResponse, PendingApproval, ProductionListBody, ProductionListItem, ProductionStatusBody, ProductionSubmitBody,
  ProductionThread, ProductionThreadBody, ProductionThreadRun, ProductionTraceBody, ProductionTraceEvent,
} from './wireTypes';

export type { Wire };

/** The spec wire's trace body: as production's, but its events are not held to the SDK's union. */
interface SpecTraceBody { success: true; id: string; events: unknown[]; creditsUsed: number; activeBrowserSessions?: unknown[] }

/** A run's outcome from its `run.finished` event; undefined for any other event (or none). */
function outcomeOf(e: PlannedEvent | undefined): Outcome | undefined {
  return e?.body.type === 'run.finished' ? e.body.outcome : undefined;
}

/** Production's gateway answer when the agent back end refuses a request (e.g. `requireApproval` outside chat mode). */
export const PASSTHROUGH_ERROR = 'Failed to passthrough agent request.';

/** `NO-RECORD` answers: `{ success: false, error }` without the record. */
export const NO_RECORD_ERRORS = {
  snapshot: 'The snapshot could not be read (the sandbox leaves it out: NO-RECORD in the prompt).',
  thread: 'The thread record could not be read (the sandbox leaves it out: NO-RECORD in a prompt of the thread).',
} as const;

/** A follow-up turn: omitted `mode`, `urls`, `schema` and exchange settings carry over from the previous turn (addendum, late November 2026). */
function inherit(prev: SubmitOptions, next: SubmitOptions): SubmitOptions {
  const { approve: _a, decline: _d, ...carried } = prev.exchange ?? {};
  const exchange: Exchange | undefined = prev.exchange || next.exchange ? { ...carried, ...next.exchange } : undefined;
  return {
    ...next,
    ...(next.mode === undefined && prev.mode !== undefined ? { mode: prev.mode } : {}),
    ...(next.urls === undefined && prev.urls !== undefined ? { urls: prev.urls } : {}),
    ...(next.schema === undefined && prev.schema !== undefined ? { schema: prev.schema } : {}),
    ...(exchange ? { exchange } : {}),
  };
}

/** The message of a chat turn that ended waiting for providers' terms. */
function termsMessage(terms: readonly TermsProvider[]): string {
  return `## Waiting for terms\n\nThe answer would use ${terms.map((p) => p.name).join(' and ')}. Read their terms (terms/show), accept them (terms/accept) if you agree, then approve to continue; or decline to go on without them.\n`;
}

/** A list row's `targetHint`: the first start URL's host, else the start of the prompt. */
function targetHintOf(o: SubmitOptions): string {
  const first = o.urls?.[0];
  if (first) { try { return new URL(first).hostname; } catch { /* validated before */ } }
  return o.prompt.trim().replace(/\s+/g, ' ').slice(0, 60);
}

/** `origin`: the address the request came to (`http://127.0.0.1:PORT`), for production's absolute `next`. */
export interface AgentRequest { method: string; path: string; query: URLSearchParams; body: unknown; team: string; origin?: string }
export interface AgentReply { status: number; body?: unknown; headers?: Record<string, string> }

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Snapshot ids are path segments: letters, digits, `_` and `-`, 1 to 128 characters. */
export const SNAPSHOT_ID_RE = /^[A-Za-z0-9_-]{1,128}$/;
/** Every id with this prefix is a job from before the second-generation engine, visible to every team. */
export const LEGACY_PREFIX = '00000000-';
export const LEGACY_LISTED_ID = '00000000-0000-4000-8000-000000000001';
export const PAGE_SIZE = 20;
const MAX_JOBS_PER_TEAM = 500;
const DAY = 24 * 60 * 60 * 1000;

export const AGENT_ERRORS = {
  invalidJobId: 'Invalid job ID format. Job ID must be a valid UUID.',
  invalidSnapshotId: 'Invalid snapshot ID',
  traceEngine: `Trace is only available for ${ENGINE_2} extracts`,
  snapshotEngine: `Snapshots are only available for ${ENGINE_2} extracts`,
  /** The production wire names the engine as the service does (addendum: "names the engine `Spark 2`"). */
  traceEngineProduction: `Trace is only available for ${ENGINE_2_PRODUCTION} extracts`,
  snapshotEngineProduction: `Snapshots are only available for ${ENGINE_2_PRODUCTION} extracts`,
  zeroDataRetention: 'Your team has zero data retention enabled. This is not supported on extract.',
  notFound: 'Agent job not found',
  snapshotNotFound: 'Snapshot not found',
  alreadyFinished: 'Agent already finished',
  alreadyCancelled: 'Agent is already cancelled',
  invalidThreadId: 'Invalid thread ID format. Thread ID must be a valid UUID.',
} as const;

/** Production's thread errors (from late August 2026): status, `code` and the plain text. */
export const THREAD_ERRORS = {
  notFound: { status: 404, code: 'thread_not_found', error: 'Agent thread not found.' },
  busy: { status: 409, code: 'thread_busy', error: 'A turn of this agent thread is still running. Wait for it to finish.' },
  expired: { status: 410, code: 'thread_expired', error: 'This agent thread has expired. Start a new one.' },
  disabled: { status: 503, code: 'threads_disabled', error: 'Agent threads are disabled on this server.' },
  exchangeNotEnabled: { status: 400, code: 'exchange_not_enabled', error: 'Exchange is not enabled for this run: there is no pending approval to answer.' },
} as const;
const threadError = (e: (typeof THREAD_ERRORS)[keyof typeof THREAD_ERRORS], extra: Record<string, unknown> = {}): AgentReply =>
  ({ status: e.status, body: { success: false, code: e.code, error: e.error, ...extra } });

interface Thread {
  id: string; team: string; createdAt: number; expiresAt: number; runs: string[];
  /** `provider/capability` of calls approved with `always: true`: later turns of the thread make them without asking. */
  always: Set<string>;
}

/** A run's approval (production wire): the SDK's `PendingApproval`, whose `resolution` is filled in when the caller answers. */
interface Approval {
  pending: PendingApproval;
  /** Plan offset (speed 1) where the run asks. */
  pauseAt: number;
  /** `calls`: the run stays `processing` at its pause point until answered. `terms`: the turn ended there (`completed`). */
  waits: boolean;
  calls: PaidCall[];
  terms: TermsProvider[];
  state: 'waiting' | 'answered' | 'cancelled';
}

/** The paid-call side of a run (production wire): what its `exchange` summary reports. */
interface ExchangeRun {
  toolkits?: string[];
  requireApproval?: boolean;
  onTermsRequired?: 'skip' | 'ask';
  /** Calls in this run's plan, charged when their `tool_call.finished` event has happened. */
  paid: PaidCall[];
  skipped: TermsProvider[];
}

/** What an approval's answer turn does. */
interface Answer { made: PaidCall[]; declined: PaidCall[]; skipped: TermsProvider[]; note: string }

interface Job {
  id: string;
  team: string;
  createdAt: number;
  /** Epoch ms after which every endpoint answers 404 for the job (production wire). */
  expiresAt: number;
  options: SubmitOptions;
  events: PlannedEvent[];
  data: Record<string, unknown>;
  cancelRequested: boolean;
  threadId: string;
  turn: number;
  mode: Mode;
  /** The chat answer (chat mode): `message` once the run completed. */
  message?: string;
  approval?: Approval;
  exchange?: ExchangeRun;
  /** `NO-RECORD`: snapshots and the thread record answer without their record. */
  noRecord: boolean;
}

type RunStatus = 'processing' | 'cancelling' | 'completed' | 'failed' | 'cancelled';

interface View {
  visible: PlannedEvent[];
  status: RunStatus;
  finished?: PlannedEvent;
  credits: number;
}

const fail = (status: number, error: string, details?: unknown): AgentReply =>
  ({ status, body: details === undefined ? { success: false, error } : { success: false, error, details } });
/** Trace and snapshot relay the upstream error body unchanged, which has no `success`. */
const relayed = (status: number, error: string, details?: unknown): AgentReply =>
  ({ status, body: details === undefined ? { error } : { error, details } });

function legacyRecord(id: string, createdAt: number, wire: Wire): ProductionStatusBody | Record<string, unknown> {
  const common = {
    status: 'completed' as const, model: 'spark-1', creditsUsed: 120,
    data: { items: [{ title: 'Result from the first-generation engine', url: 'https://example.com/legacy' }] },
    expiresAt: new Date(createdAt + 30 * DAY).toISOString(),
  };
  return wire === 'spec' ? { success: true, id, ...common } : { success: true, ...common } satisfies ProductionStatusBody;
}

export interface AgentServiceOptions {
  speed: number;
  now?: () => number;
  /** `production` (default): the shapes the service sends today; `spec`: the specification's. See README.md. */
  wire?: Wire;
  /** The sandbox's test flag (`--faults`): the first-generation fixture job and the control routes exist only then. */
  testMode?: boolean;
  /** Production wire: follow-ups and thread records answer 503 `threads_disabled` (also `POST /__sandbox/agent/threads`). */
  threadsDisabled?: boolean;
}

/** Production's zero-data-retention text: the specification's, then how to reach support (addendum). */
export const ZDR_PRODUCTION = `${'Your team has zero data retention enabled. This is not supported on extract.'} Please contact support@firecrawl.com to enable it for agent runs.`;

/** Whether a start URL's host is one threat protection blocks (or under one). */
function isBlocked(url: string): boolean {
  let host: string;
  try { host = new URL(url).hostname.toLowerCase(); } catch { return false; }
  return BLOCKED_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));
}

const DOCS_URL = 'https://docs.firecrawl.dev';

export function createAgentService(o: AgentServiceOptions): {
  handle(r: AgentRequest): AgentReply | undefined;
  /** `POST /v2/scrape`: Exchange calls (`terms/show`, `terms/accept`) on the production wire. */
  scrape(r: AgentRequest): AgentReply;
  /** `/__sandbox/agent/...` control routes (test mode only); undefined for any other path. */
  control(method: string, path: string, body: unknown): AgentReply | undefined;
  close(): void;
} {
  const speed = o.speed > 0 && Number.isFinite(o.speed) ? o.speed : 1;
  const now = o.now ?? Date.now;
  const wire: Wire = o.wire ?? 'production';
  const testMode = o.testMode === true;
  const production = wire === 'production';
  const startedAt = now();
  const legacyCreatedAt = startedAt - 3 * DAY;
  let jobs = new Map<string, Job>();
  let threads = new Map<string, Thread>();
  let threadsDisabled = o.threadsDisabled === true;
  let lastCreatedAt = 0;
  /** Terms accepted with `terms/accept`, per team (kept for the life of the service). */
  const termsAccepted: TermsAcceptances = new Map();

  /** How far into its plan the run is: a run that waits for approval stays at its pause point. */
  function elapsedOf(job: Job, t: number): number {
    const elapsed = (t - job.createdAt) * speed;
    const ap = job.approval;
    return ap?.waits && ap.state === 'waiting' ? Math.min(elapsed, ap.pauseAt) : elapsed;
  }

  /**
   * The run's `pendingApproval` as the caller sees it now: a `calls` approval from its pause point on
   * (resolution null while it waits; absent after a cancel), a `terms` approval once the turn ended.
   */
  function approvalView(job: Job, v: View): PendingApproval | undefined {
    const ap = job.approval;
    if (!ap || ap.state === 'cancelled') return undefined;
    if (ap.waits) return (now() - job.createdAt) * speed >= ap.pauseAt ? ap.pending : undefined;
    return v.finished ? ap.pending : undefined;
  }

  /** The approval a caller may answer now: visible and unresolved. */
  function answerable(job: Job, v: View): PendingApproval | undefined {
    const p = approvalView(job, v);
    return p && p.resolution === null && !job.cancelRequested ? p : undefined;
  }

  function view(job: Job, t = now()): View {
    const elapsed = elapsedOf(job, t);
    let n = 0;
    while (n < job.events.length && job.events[n]!.at <= elapsed) n++;
    const visible = job.events.slice(0, n);
    const finished = visible.find((e) => e.body.type === 'run.finished');
    const credits = visible.reduce((s, e) => s + e.cost, 0);
    let status: RunStatus = 'processing';
    const outcome = outcomeOf(finished);
    if (outcome) {
      status = outcome === 'succeeded' ? 'completed' : outcome === 'cancelled' && production ? 'cancelled' : 'failed';
    } else if (job.cancelRequested) status = 'cancelling';
    return { visible, status, finished, credits };
  }

  function render(job: Job, events: PlannedEvent[]): ProductionTraceEvent[] {
    const seq = new Map<string, number>();
    const out: ProductionTraceEvent[] = [];
    const again: ProductionTraceEvent[] = [];
    for (const e of events) {
      const producerSequence = (seq.get(e.agent.id) ?? 0) + 1;
      seq.set(e.agent.id, producerSequence);
      let body = e.body;
      // Plans are written at speed 1; a faster sandbox reports the durations it really took.
      if ('durationMs' in body) body = { ...body, durationMs: Math.round(body.durationMs / speed) };
      const ev = {
        schemaVersion: SCHEMA_VERSION, eventId: e.eventId, runId: job.id,
        occurredAt: new Date(job.createdAt + e.at / speed).toISOString(), producerSequence,
        agent: { ...e.agent }, ...body,
      } satisfies ProductionTraceEvent;
      out.push(ev);
      if (e.duplicate) again.push(ev);
    }
    return [...out, ...again];
  }

  function errorMessage(job: Job, finished: PlannedEvent): string {
    const err = finished.body.type === 'run.finished' ? finished.body.error : undefined;
    switch (outcomeOf(finished)) {
      case 'cancelled': return MESSAGES.cancelled;
      case 'credit_limit_reached': return MESSAGES.creditLimit(job.options.maxCredits);
      case 'refused': return MESSAGES.refused;
      default: return err?.message ?? MESSAGES.internal;
    }
  }

  /** The model a record reports: retired aliases run on (and report) the current model in production. */
  function reportedModel(model: string): string {
    return production && (model === 'spark-1-pro' || model === 'spark-1-mini') ? DEFAULT_MODEL : model;
  }

  /** The `result` artifact as far as the run got: production's `partial` of a run stopped early. */
  function partialData(v: View): unknown {
    let last: PlannedEvent | undefined;
    for (const e of v.visible) if (e.snapshot && e.body.type === 'artifact.updated' && e.body.artifact.artifactId === 'result') last = e;
    if (!last?.snapshot) return undefined;
    try { return JSON.parse(last.snapshot.content) as unknown; } catch { return undefined; }
  }

  function specStatusRecord(job: Job, v: View): Record<string, unknown> {
    const rec: Record<string, unknown> = {
      success: true, id: job.id, status: v.status, model: job.options.model,
      expiresAt: new Date(job.expiresAt).toISOString(),
    };
    if (v.status === 'completed') { rec.data = job.data; rec.creditsUsed = v.credits; }
    if (v.status === 'failed') { rec.creditsUsed = 0; rec.error = errorMessage(job, v.finished!); }
    return rec;
  }

  /**
   * Production's job record, typed against the SDK's `AgentStatusResponse` (wireTypes.ts): no `id`;
   * optional fields are absent rather than null (`error`, `message`, `suggestions`, `pendingApproval`,
   * `exchange`); `effort` only when the run specified it.
   */
  function statusRecord(job: Job): ProductionStatusBody | Record<string, unknown> {
    const v = view(job);
    if (!production) return specStatusRecord(job, v);
    const rec: ProductionStatusBody = {
      success: true, status: v.status, model: reportedModel(job.options.model),
      ...(job.options.effort ? { effort: job.options.effort } : {}),
      expiresAt: new Date(job.expiresAt).toISOString(),
      threadId: job.threadId, threadTurn: job.turn, mode: job.mode,
    };
    if (v.status === 'processing' || v.status === 'cancelling') rec.creditsUsed = v.credits;
    if (v.status === 'completed') { rec.data = job.mode === 'chat' ? null : job.data; rec.creditsUsed = v.credits; }
    if (v.status === 'cancelled') { rec.creditsUsed = v.credits; rec.error = errorMessage(job, v.finished!); }
    if (v.status === 'failed') {
      rec.creditsUsed = 0;
      rec.error = errorMessage(job, v.finished!);
      if (outcomeOf(v.finished) === 'credit_limit_reached') {
        const partial = partialData(v);
        if (partial !== undefined) { rec.partial = partial; rec.partialSchemaValid = true; }
        rec.stopReason = 'credit_limit_reached';
      }
    }
    if (job.mode === 'chat' && v.status === 'completed' && job.message !== undefined) {
      rec.message = job.message;
      rec.suggestions = CHAT_SUGGESTIONS.map((x) => ({ ...x }));
    }
    const pending = approvalView(job, v);
    if (pending) rec.pendingApproval = pending;
    const exchange = exchangeSummary(job, v);
    if (exchange) rec.exchange = exchange;
    return rec;
  }

  /**
   * The run's `exchange` summary (SDK `AgentExchangeSummary`): present when the run sent `exchange`,
   * made paid calls, skipped a provider or asked for an approval. `creditsUsed` is null until the run
   * has finished; `requiresAction` only while a terms approval waits for its answer.
   */
  function exchangeSummary(job: Job, v: View): AgentExchangeSummary | undefined {
    const x = job.exchange;
    if (!x) return undefined;
    const finishedCalls = new Set(v.visible.flatMap((e) => (e.body.type === 'tool_call.finished' ? [e.body.toolCallId] : [])));
    const made = x.paid.filter((c) => finishedCalls.has(c.id));
    const ap = job.approval;
    const termsWaiting = ap && ap.pending.kind === 'terms' && ap.pending.resolution === null && v.finished !== undefined;
    return {
      enabled: job.options.exchange?.enabled !== false || x.paid.length > 0 || ap !== undefined,
      ...(x.toolkits ? { toolkits: x.toolkits } : {}),
      ...(x.requireApproval !== undefined ? { requireApproval: x.requireApproval } : {}),
      ...(x.onTermsRequired ? { onTermsRequired: x.onTermsRequired } : {}),
      paidCalls: made.length,
      creditsUsed: v.finished ? (v.status === 'failed' ? 0 : made.reduce((s, c) => s + c.credits, 0)) : null,
      ...(x.skipped.length && v.finished ? { skippedProviders: x.skipped.map(skippedOf) } : {}),
      ...(termsWaiting && ap ? { requiresAction: requiresActionOf(ap.pending.id, ap.terms) } : {}),
    } satisfies AgentExchangeSummary;
  }

  /** A thread run's status: the outcome words of the trace (`succeeded`, `refused`, …) or `processing`. */
  function threadRunStatus(v: View): ProductionThreadRun['status'] {
    return outcomeOf(v.finished) ?? 'processing';
  }

  function expired(job: Job, t = now()): boolean {
    return production && t >= job.expiresAt;
  }

  function findJob(id: string, team: string): Job | undefined {
    const job = jobs.get(id.toLowerCase());
    return job && job.team === team && !expired(job) ? job : undefined;
  }

  /** Production's answer to a path it has no route for. */
  function noRoute(method: string, path: string): AgentReply {
    if (!production) return fail(404, 'Not Found');
    return { status: 404, body: { success: false, code: 'NOT_FOUND', error: `${method} ${path.slice(0, 200)} is not a Firecrawl API endpoint.`, documentation_url: DOCS_URL } };
  }

  function submit(r: AgentRequest): AgentReply {
    const v = validateSubmit(r.body, wire);
    if (!v.ok) {
      if ('invalidSchema' in v) return { status: 400, body: { success: false, code: 'BAD_REQUEST', error: `Invalid JSON schema: ${v.invalidSchema}` } };
      if ('passthrough' in v) return fail(500, PASSTHROUGH_ERROR);
      return fail(400, 'Bad Request', v.issues);
    }
    let options = v.value;
    if (options.prompt.includes(MAGIC.zeroDataRetention)) return fail(400, production ? ZDR_PRODUCTION : AGENT_ERRORS.zeroDataRetention);
    if (!production) return { status: 200, body: { success: true, id: create(r.team, options).id } };

    // Production: what the back end and the gateway refuse, then the thread.
    if (options.prompt.includes(MAGIC.invalidSchema)) {
      return { status: 400, body: { code: 'BAD_REQUEST', error: 'Invalid schema: the extraction back end cannot use this schema (a sandbox refusal, asked for by INVALID_SCHEMA in the prompt).' } };
    }
    const blocked = (options.urls ?? []).find(isBlocked);
    if (blocked !== undefined) {
      return { status: 403, body: { success: false, code: 'URL_BLOCKED_BY_THREAT_PROTECTION', error: `The URL ${blocked} is blocked by threat protection.` } };
    }
    const started = (job: Job): AgentReply => ({ status: 200, body: { success: true, id: job.id, threadId: job.threadId, threadTurn: job.turn } satisfies ProductionSubmitBody });
    if (options.threadId === undefined) return started(create(r.team, options));
    if (threadsDisabled) return threadError(THREAD_ERRORS.disabled);
    const thread = threads.get(options.threadId);
    if (!thread || thread.team !== r.team) return threadError(THREAD_ERRORS.notFound);
    if (now() >= thread.expiresAt) return threadError(THREAD_ERRORS.expired);
    const latest = latestRun(thread);
    if (latest) options = inherit(latest.options, options);
    const answer = options.exchange?.approve ?? options.exchange?.decline;
    if (answer) {
      const pending = latest ? answerable(latest, view(latest)) : undefined;
      if (!latest || !pending) return threadError(THREAD_ERRORS.exchangeNotEnabled);
      if (answer.approvalId !== pending.id) {
        return { status: 400, body: { success: false, code: 'invalid_approval', error: `No pending approval with approvalId ${answer.approvalId.slice(0, 100)} in this thread.` } };
      }
      const approve = options.exchange?.approve;
      const ap = latest.approval!;
      if (approve && ap.pending.kind === 'terms') {
        const missing = ap.terms.filter((p) => !hasAccepted(termsAccepted, r.team, p));
        if (missing.length) {
          return {
            status: 400,
            body: {
              success: false, code: 'terms_not_accepted',
              error: `Accept the terms of ${missing.map((p) => `${p.name} (${p.provider}, version ${p.version})`).join(' and ')} with a terms/accept call before approving: the user must agree to them first.`,
            },
          };
        }
      }
      return started(answerApproval(latest, thread, options, approve ? { callIds: approve.callIds, always: approve.always === true } : undefined));
    }
    if (latest && !view(latest).finished) return threadError(THREAD_ERRORS.busy, { runId: latest.id });
    return started(create(r.team, options, thread));
  }

  function latestRun(thread: Thread): Job | undefined {
    for (let i = thread.runs.length - 1; i >= 0; i--) {
      const j = jobs.get(thread.runs[i]!);
      if (j) return j;
    }
    return undefined;
  }

  /**
   * The caller answered the approval of the thread's latest run (`approve` undefined: declined). The
   * answer is the next turn of the thread: a new run that makes the approved calls (or, for terms, the
   * now accepted providers' calls). A waiting `calls` run ends now (`completed`); the approval's
   * `resolution` names the new run.
   */
  function answerApproval(job: Job, thread: Thread, options: SubmitOptions, approve: { callIds?: string[] | undefined; always: boolean } | undefined): Job {
    const ap = job.approval!;
    const t = now();
    if (ap.waits && ap.state === 'waiting') {
      const at = (t - job.createdAt) * speed;
      job.events = finishEarly(job.events, ap.pauseAt, Math.max(ap.pauseAt, at - 300), job.id);
      if (job.mode === 'chat') job.message = `This turn stopped to ask for approval of ${ap.calls.length} paid calls; the next turn of the thread carries on with the answer.\n`;
    }
    ap.state = 'answered';
    let answer: Answer;
    if (ap.pending.kind === 'terms') {
      const made = approve ? ap.terms.map((p): PaidCall => ({
        id: `call_${randomUUID().replace(/-/g, '').slice(0, 12)}`, provider: p.provider, capability: p.capability ?? 'data/read',
        input: { topic: job.options.prompt.slice(0, 60) }, creditsEstimate: 15, credits: 15,
      })) : [];
      answer = {
        made, declined: [], skipped: approve ? [] : ap.terms,
        note: approve ? `The terms of ${ap.terms.map((p) => p.name).join(' and ')} were accepted; their data is in this answer.` : `The terms of ${ap.terms.map((p) => p.name).join(' and ')} were declined, so the answer was written without them.`,
      };
    } else {
      const ids = approve ? approve.callIds ?? ap.calls.map((c) => c.id) : [];
      const made = ap.calls.filter((c) => ids.includes(c.id));
      const declined = ap.calls.filter((c) => !ids.includes(c.id));
      const names = (list: PaidCall[]) => list.map((c) => `\`${c.provider}/${c.capability}\``).join(', ');
      answer = {
        made, declined, skipped: [],
        note: [made.length ? `Approved calls made: ${names(made)}.` : '', declined.length ? `The calls were declined and not made: ${names(declined)}.` : ''].filter(Boolean).join(' '),
      };
      if (approve?.always) for (const c of made) thread.always.add(`${c.provider}/${c.capability}`);
    }
    const next = create(job.team, options, thread, answer);
    ap.pending.resolution = {
      approved: approve !== undefined,
      callIds: ap.pending.kind === 'terms' ? [] : answer.made.map((c) => c.id),
      always: ap.pending.kind === 'terms' ? false : approve?.always === true,
      byRunId: next.id,
    };
    return next;
  }

  function create(team: string, options: SubmitOptions, thread?: Thread, answer?: Answer): Job {
    const id = randomUUID();
    // Strictly increasing creation times keep `before` paging exact even under a frozen test clock.
    const createdAt = Math.max(now(), lastCreatedAt + 1);
    lastCreatedAt = createdAt;
    const mode: Mode = production ? options.mode ?? 'extract' : 'extract';
    let t = thread;
    if (!t) {
      t = { id: randomUUID(), team, createdAt, expiresAt: createdAt + DAY, runs: [], always: new Set() };
      if (production) threads.set(t.id, t);
    }
    const settings = options.exchange;
    const x: ExchangeRun = {
      ...(settings?.toolkits ? { toolkits: settings.toolkits } : {}),
      ...(settings?.requireApproval !== undefined ? { requireApproval: settings.requireApproval } : {}),
      ...(settings?.onTermsRequired ? { onTermsRequired: settings.onTermsRequired } : {}),
      paid: [], skipped: [],
    };
    let events: PlannedEvent[];
    let data: Record<string, unknown>;
    let message: string | undefined;
    let approval: Approval | undefined;
    if (answer) {
      const plan = answerPlan(id, { mode, made: answer.made, declined: answer.declined, note: answer.note });
      events = plan.events;
      data = plan.data;
      if (mode === 'chat') message = plan.message;
      x.paid = answer.made;
      x.skipped = answer.skipped;
    } else {
      const chat = mode === 'chat' ? chatPlan(id, options) : undefined;
      const base = chat ? { events: chat.events, data: {} } : basePlan(id, options);
      if (chat) message = chat.message;
      data = base.data;
      if (options.prompt.includes(MAGIC.slow)) for (const e of base.events) e.at *= SLOW_FACTOR;
      events = applyCreditLimit(base.events, id, options.maxCredits);
      if (options.prompt.includes(MAGIC.internal)) events = applyInternalFailure(events, id, options.maxCredits);
      const planned = production ? planExchange(id, team, options, t, events, x) : undefined;
      if (planned) { events = planned.events; approval = planned.approval; }
      // A chat turn that ended asking for terms did not write its answer: its message says what it waits for.
      if (chat && approval && !approval.waits) message = termsMessage(approval.terms);
    }
    t.runs.push(id);
    t.expiresAt = createdAt + DAY;
    const used = production && (settings !== undefined || approval !== undefined || x.paid.length > 0 || x.skipped.length > 0 || answer !== undefined);
    const job: Job = {
      id, team, createdAt, expiresAt: createdAt + DAY, options, events, data, cancelRequested: false,
      threadId: t.id, turn: t.runs.length, mode, ...(message !== undefined ? { message } : {}),
      ...(approval ? { approval } : {}), ...(used ? { exchange: x } : {}),
      noRecord: production && options.prompt.includes(MAGIC.noRecord),
    };
    jobs.set(id, job);
    const mine = [...jobs.values()].filter((j) => j.team === team);
    if (mine.length > MAX_JOBS_PER_TEAM) jobs.delete(mine[0]!.id);
    return job;
  }

  /**
   * The paid calls and approvals a new run plans (production wire), at the point where it would start
   * finalizing; a run cut before it (credit ceiling, crash, refusal) neither calls nor asks.
   * - `APPROVAL-TERMS`: the turn ends there waiting for two providers' terms (always asks, even after they were accepted).
   * - `APPROVAL` / `APPROVAL-OLD`, or `PAID-CALLS` with `requireApproval`: the run waits there for two calls
   *   (calls approved with `always` earlier in the thread are made without asking).
   * - `PAID-CALLS`: two calls are made; `acme-data` is skipped unless the team accepted its terms, or
   *   (`onTermsRequired: "ask"`) the turn ends asking for them.
   */
  function planExchange(id: string, team: string, o: SubmitOptions, thread: Thread, events: PlannedEvent[], x: ExchangeRun): { events: PlannedEvent[]; approval?: Approval } | undefined {
    const point = approvalPoint(events);
    if (point === undefined || o.prompt.includes(MAGIC.refuse)) return undefined;
    const approvalId = randomUUID();
    const reasonTerms = (ps: readonly TermsProvider[]) => `The answer would use ${ps.map((p) => p.name).join(' and ')}, whose data terms your team has not accepted.`;
    if (o.prompt.includes(MAGIC.approvalTerms)) {
      const terms = [...TERMS_PROVIDERS];
      x.onTermsRequired = 'ask';
      x.skipped = terms;
      return {
        events: finishEarly(events, point, point, id),
        approval: { pending: { id: approvalId, reason: reasonTerms(terms), kind: 'terms', calls: [], terms: terms.map(gateOf), resolution: null }, pauseAt: point, waits: false, calls: [], terms, state: 'waiting' },
      };
    }
    const paidCalls = o.prompt.includes(MAGIC.paidCalls);
    const asks = o.prompt.includes(MAGIC.approval) || (paidCalls && x.requireApproval === true);
    if (!asks && !paidCalls) return undefined;
    const candidates = (asks && !paidCalls ? approvalCalls(o.prompt) : inlinePaidCalls()).slice(0, o.exchange?.maxCalls ?? 30);
    const remembered = asks ? candidates.filter((c) => thread.always.has(`${c.provider}/${c.capability}`)) : candidates;
    const held = candidates.filter((c) => !remembered.includes(c));
    x.paid = remembered;
    x.toolkits ??= [...new Set(candidates.map((c) => c.provider))];
    let planned = insertCalls(events, point, id, remembered);
    const after = point + remembered.length * 600;
    if (held.length) {
      const old = o.prompt.includes(MAGIC.approvalOld);
      const total = held.reduce((s, c) => s + (c.creditsEstimate ?? 0), 0);
      const unknown = held.filter((c) => c.creditsEstimate === null).length;
      const pending: PendingApproval = {
        id: approvalId,
        reason: `${held.length === 1 ? 'A paid call needs' : `${held.length} paid calls need`} your approval (about ${total} credits estimated${unknown ? `; ${unknown === 1 ? 'one estimate is' : `${unknown} estimates are`} unknown` : ''}).`,
        ...(old ? {} : { kind: 'calls' as const }),
        calls: held.map(({ credits: _credits, ...c }) => c),
        resolution: null,
      };
      return { events: planned, approval: { pending, pauseAt: after, waits: true, calls: held, terms: [], state: 'waiting' } };
    }
    if (!paidCalls || hasAccepted(termsAccepted, team, SKIPPED_PROVIDER)) return { events: planned };
    x.skipped = [SKIPPED_PROVIDER];
    if (x.onTermsRequired !== 'ask') return { events: planned };
    planned = finishEarly(planned, after, after, id);
    return {
      events: planned,
      approval: {
        pending: { id: approvalId, reason: reasonTerms([SKIPPED_PROVIDER]), kind: 'terms', calls: [], terms: [gateOf(SKIPPED_PROVIDER)], resolution: null },
        pauseAt: after, waits: false, calls: [], terms: [SKIPPED_PROVIDER], state: 'waiting',
      },
    };
  }

  function cancel(job: Job): AgentReply {
    const t = now();
    const v = view(job, t);
    if (job.cancelRequested) return fail(409, AGENT_ERRORS.alreadyCancelled);
    if (v.finished) return fail(409, AGENT_ERRORS.alreadyFinished);
    const ap = job.approval;
    if (ap?.waits && ap.state === 'waiting') {
      // A cancel answers a waiting run too: the plan resumes from now, so the cancellation tail takes its usual time.
      const shift = Math.max(0, (t - job.createdAt) * speed - ap.pauseAt);
      job.events = job.events.map((e) => (e.at > ap.pauseAt ? { ...e, at: e.at + shift } : e));
    }
    if (ap) ap.state = 'cancelled';
    job.cancelRequested = true;
    job.events = interrupt(job.events, (t - job.createdAt) * speed, 'cancelled', { runId: job.id, maxCredits: job.options.maxCredits });
    return { status: 200, body: { success: true } };
  }

  function trace(job: Job, query: URLSearchParams): AgentReply {
    const live = query.get('liveView');
    if (live !== null && live !== 'true' && live !== 'false') {
      return relayed(400, 'Bad Request', [{ code: 'invalid_enum_value', path: ['liveView'], message: 'liveView must be true or false' }]);
    }
    const v = view(job);
    const events = render(job, v.visible);
    const body: ProductionTraceBody | SpecTraceBody = production
      ? { success: true, id: job.id, events, creditsUsed: v.status === 'failed' ? 0 : v.credits } satisfies ProductionTraceBody
      // The spec wire keeps its free-text cancel reason (production sends `user`, as the SDK declares).
      : { success: true, id: job.id, events: events.map((e) => (e.type === 'run.cancel_requested' ? { ...e, reason: 'Cancelled by the user' } : e)), creditsUsed: v.status === 'failed' ? 0 : v.credits };
    if (live === 'true') {
      const open = new Map<string, string>();
      for (const e of v.visible) {
        if (e.body.type === 'browser.session.started') open.set(e.body.sessionId, e.agent.id);
        if (e.body.type === 'browser.session.finished') open.delete(e.body.sessionId);
      }
      body.activeBrowserSessions = [...open.keys()].map((id) => ({
        id, liveViewUrl: `https://live.devindex.invalid/sessions/${id}`, viewport: { width: 1280, height: 800 },
      }));
    }
    return { status: 200, body };
  }

  function snapshot(job: Job, snapshotId: string): AgentReply {
    const v = view(job);
    const e = v.visible.find((x) => x.snapshot?.id === snapshotId);
    if (!e?.snapshot) return relayed(404, AGENT_ERRORS.snapshotNotFound);
    // `NO-RECORD`: the SDK declares `snapshot` optional; an answer without it is one a client must show.
    if (job.noRecord) return { status: 200, body: { success: false, error: NO_RECORD_ERRORS.snapshot } satisfies AgentSnapshotResponse };
    return { status: 200, body: { success: true, id: job.id, snapshotId, snapshot: e.snapshot.content } satisfies AgentSnapshotResponse };
  }

  /** A production list row (SDK `AgentListItem`): `targetHint` a string; `urls`, `schema`, `effort` absent when the run had none. */
  function listRow(j: Job): ProductionListItem {
    return {
      id: j.id, createdAt: new Date(j.createdAt).toISOString(), targetHint: targetHintOf(j.options),
      origin: j.options.origin ?? 'api', ...(j.options.integration ? { integration: j.options.integration } : {}),
      status: view(j).status,
      options: {
        ...(j.options.urls ? { urls: j.options.urls } : {}), prompt: j.options.prompt,
        ...(j.options.schema !== undefined && j.options.schema !== null ? { schema: j.options.schema } : {}),
        model: reportedModel(j.options.model), ...(j.options.effort ? { effort: j.options.effort } : {}),
        mode: j.mode, threadId: j.threadId, threadTurn: j.turn,
      },
      settings: { hidden: false, starred: false },
    } satisfies ProductionListItem;
  }

  function list(r: AgentRequest): AgentReply {
    const raw = r.query.get('before');
    let before = Infinity;
    if (raw !== null) {
      if (!/^\d{1,16}$/.test(raw)) {
        if (production) return fail(400, 'Invalid before timestamp.');
        return fail(400, 'Bad Request', [{ code: 'invalid_type', path: ['before'], message: 'before must be a non-negative integer (epoch milliseconds)' }]);
      }
      before = Number(raw);
    }
    const rows: Array<{ createdAt: number; row: unknown }> = [...jobs.values()]
      .filter((j) => j.team === r.team && !expired(j))
      .map((j) => ({
        createdAt: j.createdAt,
        row: production ? listRow(j) : {
          id: j.id, createdAt: new Date(j.createdAt).toISOString(), status: view(j).status,
          options: { prompt: j.options.prompt, urls: j.options.urls ?? null, schema: j.options.schema ?? null, model: j.options.model, effort: j.options.effort ?? null },
          settings: { label: null, starred: false, hidden: false },
        },
      }));
    if (testMode) {
      rows.push({
        createdAt: legacyCreatedAt,
        row: production
          ? {
            id: LEGACY_LISTED_ID, createdAt: new Date(legacyCreatedAt).toISOString(), targetHint: 'example.com', origin: 'api', status: 'completed',
            // Addendum ("Agent threads, chat mode and approvals"): old runs list `model: spark-1-pro`.
            options: { prompt: 'A job from the first-generation engine', model: 'spark-1-pro' }, settings: { hidden: false, starred: false },
          } satisfies ProductionListItem
          : {
            id: LEGACY_LISTED_ID, createdAt: new Date(legacyCreatedAt).toISOString(), status: 'completed',
            options: { prompt: 'A job from the first-generation engine', urls: null, schema: null, model: 'spark-1', effort: null },
            settings: { label: null, starred: false, hidden: false },
          },
      });
    }
    const older = rows.filter((x) => x.createdAt < before).sort((a, b) => b.createdAt - a.createdAt);
    const page = older.slice(0, PAGE_SIZE);
    const cursor = page.length ? `/v2/agent?before=${page[page.length - 1]!.createdAt}` : undefined;
    if (!production) {
      const body: Record<string, unknown> = { success: true, jobs: page.map((x) => x.row) };
      if (older.length > PAGE_SIZE) body.next = cursor;
      return { status: 200, body };
    }
    // Production: under `agents`, with an absolute `next` only when another page exists.
    const body: ProductionListBody = { success: true, agents: page.map((x) => x.row as ProductionListItem) };
    if (older.length > PAGE_SIZE) body.next = `${safeOrigin(r.origin)}${cursor}`;
    return { status: 200, body };
  }

  /** `POST /v2/scrape` (production wire): Exchange calls, `terms/show` and `terms/accept` (exchange.ts). */
  function scrape(r: AgentRequest): AgentReply {
    if (!production) return noRoute(r.method.toUpperCase(), r.path);
    return handleScrape(r.body, r.team, termsAccepted, now);
  }

  function handle(r: AgentRequest): AgentReply | undefined {
    if (r.path !== '/v2/agent' && !r.path.startsWith('/v2/agent/')) return undefined;
    let segs: string[];
    const method = r.method.toUpperCase();
    try {
      segs = r.path.slice('/v2/agent'.length).split('/').filter((s) => s.length > 0).map(decodeURIComponent);
    } catch {
      return noRoute(method, r.path);
    }
    if (segs.length === 0) {
      if (method === 'POST') return submit(r);
      if (method === 'GET') return list(r);
      return noRoute(method, r.path);
    }
    if (production && segs[0] === 'threads') {
      if (segs.length !== 2 || method !== 'GET') return noRoute(method, r.path);
      return threadRecord(segs[1]!, r);
    }
    const [jobId, sub, snapshotId] = segs as [string, string | undefined, string | undefined];
    const isTrace = segs.length === 2 && sub === 'trace' && method === 'GET';
    const isSnapshot = segs.length === 3 && sub === 'snapshots' && method === 'GET';
    const isJob = segs.length === 1 && (method === 'GET' || method === 'DELETE');
    if (!isTrace && !isSnapshot && !isJob) return noRoute(method, r.path);
    const err = isJob ? fail : relayed;
    if (!UUID_RE.test(jobId)) return err(400, AGENT_ERRORS.invalidJobId);
    if (isSnapshot && !SNAPSHOT_ID_RE.test(snapshotId!)) return err(400, AGENT_ERRORS.invalidSnapshotId);

    if (testMode && jobId.startsWith(LEGACY_PREFIX)) {
      if (isTrace) return err(400, production ? AGENT_ERRORS.traceEngineProduction : AGENT_ERRORS.traceEngine);
      if (isSnapshot) return err(400, production ? AGENT_ERRORS.snapshotEngineProduction : AGENT_ERRORS.snapshotEngine);
      if (method === 'DELETE') return fail(409, AGENT_ERRORS.alreadyFinished);
      return { status: 200, body: legacyRecord(jobId.toLowerCase(), legacyCreatedAt, wire) };
    }
    const job = findJob(jobId, r.team);
    if (!job) return err(404, AGENT_ERRORS.notFound);
    if (isTrace) return trace(job, r.query);
    if (isSnapshot) return snapshot(job, snapshotId!);
    if (method === 'DELETE') return cancel(job);
    return { status: 200, body: statusRecord(job) };
  }

  /** When the run finished (its `run.finished` event), or null. */
  function finishedAtOf(job: Job, v: View): string | null {
    return v.finished ? new Date(job.createdAt + v.finished.at / speed).toISOString() : null;
  }

  /** A thread run (SDK `AgentThreadRun`): `message` null unless a chat turn succeeded; `data` only with `includeData`. */
  function threadRun(j: Job, includeData: boolean): ProductionThreadRun {
    const v = view(j);
    const status = threadRunStatus(v);
    const done = status === 'succeeded';
    const answered = done && j.mode === 'chat' && j.message !== undefined;
    return {
      id: j.id, turn: j.turn, mode: j.mode, prompt: j.options.prompt,
      ...(j.options.urls ? { urls: j.options.urls } : {}),
      ...(j.options.schema !== undefined && j.options.schema !== null ? { schema: j.options.schema } : {}),
      ...(j.options.effort ? { effort: j.options.effort } : {}),
      status, createdAt: new Date(j.createdAt).toISOString(), finishedAt: finishedAtOf(j, v),
      creditsUsed: v.status === 'failed' ? 0 : v.credits,
      message: answered ? j.message! : null,
      ...(includeData ? { data: done && j.mode !== 'chat' ? j.data : null } : {}),
      suggestions: answered ? CHAT_SUGGESTIONS.map((x) => ({ ...x })) : null,
      pendingApproval: approvalView(j, v) ?? null,
      exchange: exchangeSummary(j, v) ?? null,
    } satisfies ProductionThreadRun;
  }

  /** `GET /v2/agent/threads/{threadId}[?includeData=true]` (production). */
  function threadRecord(threadId: string, r: AgentRequest): AgentReply {
    if (!UUID_RE.test(threadId)) return fail(400, AGENT_ERRORS.invalidThreadId);
    if (threadsDisabled) return threadError(THREAD_ERRORS.disabled);
    const thread = threads.get(threadId.toLowerCase());
    if (!thread || thread.team !== r.team) return threadError(THREAD_ERRORS.notFound);
    if (now() >= thread.expiresAt) return threadError(THREAD_ERRORS.expired);
    const includeData = r.query.get('includeData') === 'true';
    const members = thread.runs.map((id) => jobs.get(id)).filter((j): j is Job => j !== undefined);
    // `NO-RECORD`: the SDK declares `thread` optional; an answer without it is one a client must show.
    if (members.some((j) => j.noRecord)) return { status: 200, body: { success: false, error: NO_RECORD_ERRORS.thread } satisfies ProductionThreadBody };
    const runs = members.map((j) => threadRun(j, includeData));
    const latest = latestRun(thread);
    const running = latest !== undefined && !view(latest).finished;
    const updatedAt = Math.max(thread.createdAt, ...runs.flatMap((x) => [Date.parse(x.createdAt), x.finishedAt ? Date.parse(x.finishedAt) : 0]));
    const record: ProductionThread = {
      id: thread.id, createdAt: new Date(thread.createdAt).toISOString(), updatedAt: new Date(updatedAt).toISOString(),
      status: running ? 'running' : 'idle', runs, expiresAt: new Date(thread.expiresAt).toISOString(),
    };
    return { status: 200, body: { success: true, thread: record } satisfies ProductionThreadBody };
  }

  /**
   * `POST /__sandbox/agent/expire` `{ jobId?, inMs? }`: the job (every job without `jobId`) expires
   * `inMs` from now (default 0), so a test sees expiry in seconds rather than a day.
   */
  function control(method: string, path: string, body: unknown): AgentReply | undefined {
    if (!path.startsWith('/__sandbox/agent/')) return undefined;
    if (!testMode) return fail(404, 'Not Found');
    if (method.toUpperCase() !== 'POST') return fail(404, 'Not Found');
    const b = (body !== null && typeof body === 'object' ? body : {}) as { jobId?: unknown; threadId?: unknown; inMs?: unknown; enabled?: unknown };
    if (path === '/__sandbox/agent/threads') {
      if (typeof b.enabled !== 'boolean') return fail(400, 'Bad Request', [{ code: 'invalid_type', path: ['enabled'], message: 'enabled must be a boolean' }]);
      threadsDisabled = !b.enabled;
      return { status: 200, body: { success: true, enabled: b.enabled } };
    }
    const inMs = b.inMs === undefined ? 0 : b.inMs;
    if (typeof inMs !== 'number' || !Number.isFinite(inMs) || inMs < 0) return fail(400, 'Bad Request', [{ code: 'invalid_type', path: ['inMs'], message: 'inMs must be a number of milliseconds, 0 or more' }]);
    if (path === '/__sandbox/agent/expire-thread') {
      if (typeof b.threadId !== 'string') return fail(400, 'Bad Request', [{ code: 'invalid_type', path: ['threadId'], message: 'threadId must be a string' }]);
      const thread = threads.get(b.threadId.toLowerCase());
      if (!thread) return threadError(THREAD_ERRORS.notFound);
      thread.expiresAt = now() + inMs;
      return { status: 200, body: { success: true, expiresAt: new Date(thread.expiresAt).toISOString() } };
    }
    if (path !== '/__sandbox/agent/expire') return fail(404, 'Not Found');
    if (b.jobId !== undefined && typeof b.jobId !== 'string') return fail(400, 'Bad Request', [{ code: 'invalid_type', path: ['jobId'], message: 'jobId must be a string' }]);
    const targets = b.jobId === undefined ? [...jobs.values()] : [jobs.get(b.jobId.toLowerCase())].filter((j): j is Job => j !== undefined);
    if (b.jobId !== undefined && targets.length === 0) return fail(404, AGENT_ERRORS.notFound);
    for (const j of targets) j.expiresAt = now() + inMs;
    return { status: 200, body: { success: true, expired: targets.length, expiresAt: new Date(now() + inMs).toISOString() } };
  }

  return {
    handle,
    scrape,
    control,
    close() { jobs = new Map(); threads = new Map(); termsAccepted.clear(); },
  };
}

/** The request's own origin for an absolute `next`; anything odd in the Host header falls back to loopback. */
function safeOrigin(origin: string | undefined): string {
  return origin && /^http:\/\/[A-Za-z0-9.:[\]-]{1,100}$/.test(origin) ? origin : 'http://127.0.0.1';
}
