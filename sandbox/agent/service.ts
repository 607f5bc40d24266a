// The agent endpoints of the local service (see sandbox/agent/README.md for the behaviour and the
// magic prompts and ids). The server has already checked the key, the rate limit and the faults.
import { randomUUID } from 'node:crypto';
import {
  BLOCKED_HOSTS, CHAT_SUGGESTIONS, ENGINE_2, ENGINE_2_PRODUCTION, MAGIC, MESSAGES, SCHEMA_VERSION, SLOW_FACTOR, applyCreditLimit, applyInternalFailure,
  agentsFor, approvalFor, approvalPoint, approvalSteps, basePlan, chatPlan, interrupt, type PendingApproval, type PlannedEvent, type TraceError,
} from './engine';
import { DEFAULT_MODEL, validateSubmit, type Mode, type SubmitOptions, type Wire } from './validate';

export type { Wire };

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

interface Thread { id: string; team: string; createdAt: number; expiresAt: number; runs: string[] }

interface Approval {
  pending: PendingApproval;
  /** Plan offset (speed 1) where the run stops until the caller answers. */
  pauseAt: number;
  state: 'waiting' | 'approved' | 'declined';
  approvedCalls: string[];
  declinedCalls: string[];
}

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

function legacyRecord(id: string, createdAt: number, wire: Wire) {
  return {
    success: true, ...(wire === 'spec' ? { id } : {}), status: 'completed', model: 'spark-1', creditsUsed: 120,
    data: { items: [{ title: 'Result from the first-generation engine', url: 'https://example.com/legacy' }] },
    expiresAt: new Date(createdAt + 30 * DAY).toISOString(),
  };
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

  /** How far into its plan the run is: a run that waits for approval stays at its pause point. */
  function elapsedOf(job: Job, t: number): number {
    const elapsed = (t - job.createdAt) * speed;
    return job.approval?.state === 'waiting' ? Math.min(elapsed, job.approval.pauseAt) : elapsed;
  }

  /** The approval the run waits for now: it has reached its pause point and has not finished. */
  function waiting(job: Job, v: View): PendingApproval | undefined {
    const ap = job.approval;
    if (!ap || ap.state !== 'waiting' || v.finished || job.cancelRequested) return undefined;
    return (now() - job.createdAt) * speed >= ap.pauseAt ? ap.pending : undefined;
  }

  function view(job: Job, t = now()): View {
    const elapsed = elapsedOf(job, t);
    let n = 0;
    while (n < job.events.length && job.events[n]!.at <= elapsed) n++;
    const visible = job.events.slice(0, n);
    const finished = visible.find((e) => e.type === 'run.finished');
    const credits = visible.reduce((s, e) => s + e.cost, 0);
    let status: RunStatus = 'processing';
    if (finished) {
      const outcome = finished.fields.outcome;
      status = outcome === 'succeeded' ? 'completed' : outcome === 'cancelled' && production ? 'cancelled' : 'failed';
    } else if (job.cancelRequested) status = 'cancelling';
    return { visible, status, finished, credits };
  }

  function render(job: Job, events: PlannedEvent[]): unknown[] {
    const seq = new Map<string, number>();
    const out: unknown[] = [];
    const again: unknown[] = [];
    for (const e of events) {
      const producerSequence = (seq.get(e.agent.id) ?? 0) + 1;
      seq.set(e.agent.id, producerSequence);
      const ev: Record<string, unknown> = {
        schemaVersion: SCHEMA_VERSION, eventId: e.eventId, runId: job.id,
        occurredAt: new Date(job.createdAt + e.at / speed).toISOString(), producerSequence,
        agent: { ...e.agent }, type: e.type, ...e.fields,
      };
      // Plans are written at speed 1; a faster sandbox reports the durations it really took.
      if (typeof ev.durationMs === 'number') ev.durationMs = Math.round(ev.durationMs / speed);
      if (e.snapshot && ev.artifact) ev.artifact = { ...(ev.artifact as object), snapshotId: e.snapshot.id };
      out.push(ev);
      if (e.duplicate) again.push(ev);
    }
    return [...out, ...again];
  }

  function errorMessage(job: Job, finished: PlannedEvent): string {
    const err = finished.fields.error as TraceError | null | undefined;
    switch (finished.fields.outcome) {
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
    for (const e of v.visible) if (e.snapshot && (e.fields.artifact as { artifactId?: string } | undefined)?.artifactId === 'result') last = e;
    if (!last?.snapshot) return undefined;
    try { return JSON.parse(last.snapshot.content) as unknown; } catch { return undefined; }
  }

  function statusRecord(job: Job) {
    const v = view(job);
    if (!production) {
      const rec: Record<string, unknown> = {
        success: true, id: job.id, status: v.status, model: job.options.model,
        expiresAt: new Date(job.expiresAt).toISOString(),
      };
      if (v.status === 'completed') { rec.data = job.data; rec.creditsUsed = v.credits; }
      if (v.status === 'failed') { rec.creditsUsed = 0; rec.error = errorMessage(job, v.finished!); }
      return rec;
    }
    // Production: no id; `effort` always; `cancelled` with the credits spent before the cancel took effect.
    const rec: Record<string, unknown> = {
      success: true, status: v.status, model: reportedModel(job.options.model), effort: job.options.effort ?? 'medium',
      expiresAt: new Date(job.expiresAt).toISOString(), error: null,
    };
    if (v.status === 'processing' || v.status === 'cancelling') rec.creditsUsed = v.credits;
    if (v.status === 'completed') { rec.data = job.mode === 'chat' ? null : job.data; rec.creditsUsed = v.credits; }
    if (v.status === 'cancelled') { rec.creditsUsed = v.credits; rec.error = errorMessage(job, v.finished!); }
    if (v.status === 'failed') {
      rec.creditsUsed = 0;
      rec.error = errorMessage(job, v.finished!);
      if (v.finished!.fields.outcome === 'credit_limit_reached') {
        const partial = partialData(v);
        if (partial !== undefined) { rec.partial = partial; rec.partialSchemaValid = true; }
        rec.stopReason = 'credit_limit_reached';
      }
    }
    const answered = job.mode === 'chat' && v.status === 'completed';
    rec.threadId = job.threadId;
    rec.threadTurn = job.turn;
    rec.mode = job.mode;
    rec.message = answered ? job.message ?? null : null;
    rec.suggestions = answered ? CHAT_SUGGESTIONS.map((x) => ({ ...x })) : null;
    rec.pendingApproval = waiting(job, v) ?? null;
    rec.exchange = exchangeSummary(job);
    return rec;
  }

  /** `{ enabled, callsUsed, maxCalls }` when the run used the exchange (sent it, or asked for an approval); else null. */
  function exchangeSummary(job: Job): Record<string, unknown> | null {
    if (!job.approval && job.options.exchange?.enabled !== true) return null;
    const callsUsed = job.approval?.state === 'approved' || job.approval?.state === 'declined' ? job.approval.approvedCalls.length : 0;
    return { enabled: true, callsUsed, maxCalls: job.options.exchange?.maxCalls ?? 10 };
  }

  /** A thread run's status: the outcome words of the trace (`succeeded`, `refused`, …) or `processing`. */
  function threadRunStatus(v: View): string {
    if (!v.finished) return 'processing';
    return String(v.finished.fields.outcome);
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
      return fail(400, 'Bad Request', v.issues);
    }
    const options = v.value;
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
    const answer = options.exchange?.approve ?? options.exchange?.decline;
    if (options.threadId === undefined) {
      if (answer) return threadError(THREAD_ERRORS.exchangeNotEnabled);
      const job = create(r.team, options);
      return { status: 200, body: { success: true, id: job.id, threadId: job.threadId, threadTurn: job.turn } };
    }
    if (threadsDisabled) return threadError(THREAD_ERRORS.disabled);
    const thread = threads.get(options.threadId);
    if (!thread || thread.team !== r.team) return threadError(THREAD_ERRORS.notFound);
    if (now() >= thread.expiresAt) return threadError(THREAD_ERRORS.expired);
    const latest = latestRun(thread);
    if (answer) {
      const v2 = latest ? view(latest) : undefined;
      const pending = latest && v2 ? waiting(latest, v2) : undefined;
      if (!latest || !pending) return threadError(THREAD_ERRORS.exchangeNotEnabled);
      if (answer.approvalId !== pending.approvalId) {
        return { status: 400, body: { success: false, code: 'invalid_approval', error: `No pending approval with approvalId ${answer.approvalId.slice(0, 100)} in this thread.` } };
      }
      resolveApproval(latest, options.exchange?.approve ? { approve: options.exchange.approve.callIds } : { decline: true });
      return { status: 200, body: { success: true, id: latest.id, threadId: thread.id, threadTurn: latest.turn } };
    }
    if (latest && !view(latest).finished) return threadError(THREAD_ERRORS.busy, { runId: latest.id });
    const job = create(r.team, options, thread);
    return { status: 200, body: { success: true, id: job.id, threadId: thread.id, threadTurn: job.turn } };
  }

  function latestRun(thread: Thread): Job | undefined {
    for (let i = thread.runs.length - 1; i >= 0; i--) {
      const j = jobs.get(thread.runs[i]!);
      if (j) return j;
    }
    return undefined;
  }

  /** The caller answered the run's approval: the rest of the plan resumes from now, after the answer's own steps. */
  function resolveApproval(job: Job, how: { approve?: string[] | undefined } | { decline: true }): void {
    const ap = job.approval!;
    const t = now();
    const at = (t - job.createdAt) * speed;
    const ids = ap.pending.kind === 'calls' ? ap.pending.calls.map((c) => c.id) : ['terms'];
    if ('decline' in how) { ap.state = 'declined'; ap.declinedCalls = ids; ap.approvedCalls = []; } else {
      ap.state = 'approved';
      ap.approvedCalls = how.approve === undefined ? ids : ids.filter((id) => how.approve!.includes(id));
      ap.declinedCalls = ids.filter((id) => !ap.approvedCalls.includes(id));
    }
    if (ap.pending.kind === 'terms') ap.approvedCalls = [];
    const steps = approvalSteps(job.id, ap.pending, ap.approvedCalls, ap.declinedCalls);
    const span = (steps.at(-1)?.dt ?? 0) + 200;
    let order = Math.max(0, ...job.events.map((e) => e.order)) + 1;
    const added: PlannedEvent[] = steps.map((s) => ({ at: at + s.dt, order: order++, eventId: randomUUID(), agent: s.agent, type: s.type, fields: s.fields, cost: 0 }));
    const shift = at - ap.pauseAt + span;
    job.events = [
      ...job.events.filter((e) => e.at <= ap.pauseAt),
      ...added,
      ...job.events.filter((e) => e.at > ap.pauseAt).map((e) => ({ ...e, at: e.at + shift })),
    ].sort((a, b) => a.at - b.at || a.order - b.order);
    const names = (list: string[]) => ap.pending.kind === 'calls' ? ap.pending.calls.filter((c) => list.includes(c.id)).map((c) => c.name) : [];
    if (job.mode === 'chat' && job.message !== undefined) {
      const note = ap.pending.kind === 'terms'
        ? ap.state === 'declined' ? 'The terms of the GitHub toolkit were declined, so the answer was written without it.' : 'The terms of the GitHub toolkit were accepted.'
        : [ap.approvedCalls.length ? `Approved calls made: ${names(ap.approvedCalls).map((n) => `\`${n}\``).join(', ')}.` : '',
          ap.declinedCalls.length ? `The calls were declined and not made: ${names(ap.declinedCalls).map((n) => `\`${n}\``).join(', ')}.` : ''].filter(Boolean).join(' ');
      job.message = `${job.message}\n${note}\n`;
    } else if (ap.pending.kind === 'calls') {
      job.data = { ...job.data, calls: ap.pending.calls.map((c) => ({ id: c.id, name: c.name, status: ap.approvedCalls.includes(c.id) ? 'made' : 'declined' })) };
    } else {
      job.data = { ...job.data, terms: { name: ap.pending.terms.name, status: ap.state === 'declined' ? 'declined' : 'accepted' } };
    }
  }

  function create(team: string, options: SubmitOptions, thread?: Thread): Job {
    const id = randomUUID();
    // Strictly increasing creation times keep `before` paging exact even under a frozen test clock.
    const createdAt = Math.max(now(), lastCreatedAt + 1);
    lastCreatedAt = createdAt;
    const mode: Mode = production ? options.mode ?? 'extract' : 'extract';
    const chat = mode === 'chat' ? chatPlan(id, options) : undefined;
    const base = chat ? { events: chat.events, data: {} } : basePlan(id, options);
    if (options.prompt.includes(MAGIC.slow)) for (const e of base.events) e.at *= SLOW_FACTOR;
    let events = applyCreditLimit(base.events, id, options.maxCredits);
    if (options.prompt.includes(MAGIC.internal)) events = applyInternalFailure(events, id, options.maxCredits);
    const pending = production ? approvalFor(options.prompt) : undefined;
    const pauseAt = pending ? approvalPoint(events) : undefined;
    if (pending && pauseAt !== undefined) {
      // The trace says when the run starts waiting, so a client following it reads the status then.
      const before = events.filter((e) => e.at <= pauseAt);
      events = [...before, {
        at: pauseAt, order: (before.at(-1)?.order ?? 0) + 0.5, eventId: randomUUID(), agent: agentsFor(id).orchestrator, type: 'approval.requested',
        fields: { approvalId: pending.approvalId, kind: pending.kind }, cost: 0,
      }, ...events.filter((e) => e.at > pauseAt)];
    }
    let t = thread;
    if (!t) {
      t = { id: randomUUID(), team, createdAt, expiresAt: createdAt + DAY, runs: [] };
      if (production) threads.set(t.id, t);
    }
    t.runs.push(id);
    t.expiresAt = createdAt + DAY;
    const job: Job = {
      id, team, createdAt, expiresAt: createdAt + DAY, options, events, data: base.data, cancelRequested: false,
      threadId: t.id, turn: t.runs.length, mode, ...(chat ? { message: chat.message } : {}),
      ...(pending && pauseAt !== undefined ? { approval: { pending, pauseAt, state: 'waiting' as const, approvedCalls: [], declinedCalls: [] } } : {}),
    };
    jobs.set(id, job);
    const mine = [...jobs.values()].filter((j) => j.team === team);
    if (mine.length > MAX_JOBS_PER_TEAM) jobs.delete(mine[0]!.id);
    return job;
  }

  function cancel(job: Job): AgentReply {
    const t = now();
    const v = view(job, t);
    if (job.cancelRequested) return fail(409, AGENT_ERRORS.alreadyCancelled);
    if (v.finished) return fail(409, AGENT_ERRORS.alreadyFinished);
    if (job.approval?.state === 'waiting') {
      // A cancel answers a waiting run too: the plan resumes from now, so the cancellation tail takes its usual time.
      const shift = Math.max(0, (t - job.createdAt) * speed - job.approval.pauseAt);
      const pauseAt = job.approval.pauseAt;
      job.events = job.events.map((e) => (e.at > pauseAt ? { ...e, at: e.at + shift } : e));
      job.approval.state = 'declined';
    }
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
    const body: Record<string, unknown> = {
      success: true, id: job.id, events: render(job, v.visible), creditsUsed: v.status === 'failed' ? 0 : v.credits,
    };
    if (live === 'true') {
      const open = new Map<string, string>();
      for (const e of v.visible) {
        if (e.type === 'browser.session.started') open.set(String(e.fields.sessionId), e.agent.id);
        if (e.type === 'browser.session.finished') open.delete(String(e.fields.sessionId));
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
    return { status: 200, body: { success: true, id: job.id, snapshotId, snapshot: e.snapshot.content } };
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
        row: {
          id: j.id, createdAt: new Date(j.createdAt).toISOString(),
          ...(production ? { targetHint: null, origin: j.options.origin ?? 'api', ...(j.options.integration ? { integration: j.options.integration } : {}) } : {}),
          status: view(j).status,
          options: {
            prompt: j.options.prompt, urls: j.options.urls ?? null, schema: j.options.schema ?? null,
            model: production ? reportedModel(j.options.model) : j.options.model,
            effort: production ? j.options.effort ?? 'medium' : j.options.effort ?? null,
            ...(production ? { mode: j.mode, threadId: j.threadId, threadTurn: j.turn } : {}),
          },
          settings: production ? { hidden: false, starred: false } : { label: null, starred: false, hidden: false },
        },
      }));
    if (testMode) {
      rows.push({
        createdAt: legacyCreatedAt,
        row: {
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
    const body: Record<string, unknown> = { success: true, agents: page.map((x) => x.row) };
    if (older.length > PAGE_SIZE) body.next = `${safeOrigin(r.origin)}${cursor}`;
    return { status: 200, body };
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

  /** `GET /v2/agent/threads/{threadId}[?includeData=true]` (production). */
  function threadRecord(threadId: string, r: AgentRequest): AgentReply {
    if (!UUID_RE.test(threadId)) return fail(400, AGENT_ERRORS.invalidThreadId);
    if (threadsDisabled) return threadError(THREAD_ERRORS.disabled);
    const thread = threads.get(threadId.toLowerCase());
    if (!thread || thread.team !== r.team) return threadError(THREAD_ERRORS.notFound);
    if (now() >= thread.expiresAt) return threadError(THREAD_ERRORS.expired);
    const includeData = r.query.get('includeData') === 'true';
    const runs = thread.runs.map((id) => jobs.get(id)).filter((j): j is Job => j !== undefined).map((j) => {
      const v = view(j);
      const status = threadRunStatus(v);
      const done = status === 'succeeded';
      return {
        id: j.id, turn: j.turn, mode: j.mode, prompt: j.options.prompt, status, createdAt: new Date(j.createdAt).toISOString(),
        creditsUsed: v.status === 'failed' ? 0 : v.credits,
        ...(j.mode === 'chat' ? { message: done ? j.message ?? null : null } : {}),
        ...(includeData ? { data: done && j.mode !== 'chat' ? j.data : null } : {}),
      };
    });
    const latest = latestRun(thread);
    const running = latest !== undefined && !view(latest).finished;
    return {
      status: 200,
      body: { success: true, thread: { id: thread.id, status: running ? 'running' : 'idle', createdAt: new Date(thread.createdAt).toISOString(), expiresAt: new Date(thread.expiresAt).toISOString(), runs } },
    };
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
    control,
    close() { jobs = new Map(); threads = new Map(); },
  };
}

/** The request's own origin for an absolute `next`; anything odd in the Host header falls back to loopback. */
function safeOrigin(origin: string | undefined): string {
  return origin && /^http:\/\/[A-Za-z0-9.:[\]-]{1,100}$/.test(origin) ? origin : 'http://127.0.0.1';
}
