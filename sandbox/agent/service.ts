// The agent endpoints of the local service (see sandbox/agent/README.md for the behaviour and the
// magic prompts and ids). The server has already checked the key, the rate limit and the faults.
import { randomUUID } from 'node:crypto';
import {
  ENGINE_2, MAGIC, MESSAGES, SCHEMA_VERSION, SLOW_FACTOR, applyCreditLimit, applyInternalFailure, basePlan, interrupt,
  type PlannedEvent, type TraceError,
} from './engine';
import { validateSubmit, type SubmitOptions } from './validate';

export interface AgentRequest { method: string; path: string; query: URLSearchParams; body: unknown; team: string }
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
  zeroDataRetention: 'Your team has zero data retention enabled. This is not supported on extract.',
  notFound: 'Agent job not found',
  snapshotNotFound: 'Snapshot not found',
  alreadyFinished: 'Agent already finished',
  alreadyCancelled: 'Agent is already cancelled',
} as const;

interface Job {
  id: string;
  team: string;
  createdAt: number;
  options: SubmitOptions;
  events: PlannedEvent[];
  data: Record<string, unknown>;
  cancelRequested: boolean;
}

type RunStatus = 'processing' | 'cancelling' | 'completed' | 'failed';

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

function legacyRecord(id: string, createdAt: number) {
  return {
    success: true, id, status: 'completed', model: 'spark-1', creditsUsed: 120,
    data: { items: [{ title: 'Result from the first-generation engine', url: 'https://example.com/legacy' }] },
    expiresAt: new Date(createdAt + 30 * DAY).toISOString(),
  };
}

export function createAgentService(o: { speed: number; now?: () => number }): {
  handle(r: AgentRequest): AgentReply | undefined;
  close(): void;
} {
  const speed = o.speed > 0 && Number.isFinite(o.speed) ? o.speed : 1;
  const now = o.now ?? Date.now;
  const startedAt = now();
  const legacyCreatedAt = startedAt - 3 * DAY;
  let jobs = new Map<string, Job>();
  let lastCreatedAt = 0;

  function view(job: Job, t = now()): View {
    const elapsed = (t - job.createdAt) * speed;
    let n = 0;
    while (n < job.events.length && job.events[n]!.at <= elapsed) n++;
    const visible = job.events.slice(0, n);
    const finished = visible.find((e) => e.type === 'run.finished');
    const credits = visible.reduce((s, e) => s + e.cost, 0);
    let status: RunStatus = 'processing';
    if (finished) status = (finished.fields.outcome === 'succeeded') ? 'completed' : 'failed';
    else if (job.cancelRequested) status = 'cancelling';
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

  function statusRecord(job: Job) {
    const v = view(job);
    const rec: Record<string, unknown> = {
      success: true, id: job.id, status: v.status, model: job.options.model,
      expiresAt: new Date(job.createdAt + DAY).toISOString(),
    };
    if (v.status === 'completed') { rec.data = job.data; rec.creditsUsed = v.credits; }
    if (v.status === 'failed') { rec.creditsUsed = 0; rec.error = errorMessage(job, v.finished!); }
    return rec;
  }

  function findJob(id: string, team: string): Job | undefined {
    const job = jobs.get(id.toLowerCase());
    return job && job.team === team ? job : undefined;
  }

  function submit(r: AgentRequest): AgentReply {
    const v = validateSubmit(r.body);
    if (!v.ok) return fail(400, 'Bad Request', v.issues);
    const options = v.value;
    if (options.prompt.includes(MAGIC.zeroDataRetention)) return fail(400, AGENT_ERRORS.zeroDataRetention);
    const id = randomUUID();
    // Strictly increasing creation times keep `before` paging exact even under a frozen test clock.
    const createdAt = Math.max(now(), lastCreatedAt + 1);
    lastCreatedAt = createdAt;
    const base = basePlan(id, options);
    if (options.prompt.includes(MAGIC.slow)) for (const e of base.events) e.at *= SLOW_FACTOR;
    let events = applyCreditLimit(base.events, id, options.maxCredits);
    if (options.prompt.includes(MAGIC.internal)) events = applyInternalFailure(events, id, options.maxCredits);
    jobs.set(id, { id, team: r.team, createdAt, options, events, data: base.data, cancelRequested: false });
    const mine = [...jobs.values()].filter((j) => j.team === r.team);
    if (mine.length > MAX_JOBS_PER_TEAM) jobs.delete(mine[0]!.id);
    return { status: 200, body: { success: true, id } };
  }

  function cancel(job: Job): AgentReply {
    const t = now();
    const v = view(job, t);
    if (job.cancelRequested) return fail(409, AGENT_ERRORS.alreadyCancelled);
    if (v.finished) return fail(409, AGENT_ERRORS.alreadyFinished);
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
        return fail(400, 'Bad Request', [{ code: 'invalid_type', path: ['before'], message: 'before must be a non-negative integer (epoch milliseconds)' }]);
      }
      before = Number(raw);
    }
    const rows: Array<{ createdAt: number; row: unknown }> = [...jobs.values()]
      .filter((j) => j.team === r.team)
      .map((j) => ({
        createdAt: j.createdAt,
        row: {
          id: j.id, createdAt: new Date(j.createdAt).toISOString(), status: view(j).status,
          options: { prompt: j.options.prompt, urls: j.options.urls ?? null, schema: j.options.schema ?? null, model: j.options.model, effort: j.options.effort ?? null },
          settings: { label: null, starred: false, hidden: false },
        },
      }));
    rows.push({
      createdAt: legacyCreatedAt,
      row: {
        id: LEGACY_LISTED_ID, createdAt: new Date(legacyCreatedAt).toISOString(), status: 'completed',
        options: { prompt: 'A job from the first-generation engine', urls: null, schema: null, model: 'spark-1', effort: null },
        settings: { label: null, starred: false, hidden: false },
      },
    });
    const older = rows.filter((x) => x.createdAt < before).sort((a, b) => b.createdAt - a.createdAt);
    const page = older.slice(0, PAGE_SIZE);
    const body: Record<string, unknown> = { success: true, jobs: page.map((x) => x.row) };
    if (older.length > PAGE_SIZE) body.next = `/v2/agent?before=${page[page.length - 1]!.createdAt}`;
    return { status: 200, body };
  }

  function handle(r: AgentRequest): AgentReply | undefined {
    if (r.path !== '/v2/agent' && !r.path.startsWith('/v2/agent/')) return undefined;
    let segs: string[];
    try {
      segs = r.path.slice('/v2/agent'.length).split('/').filter((s) => s.length > 0).map(decodeURIComponent);
    } catch {
      return fail(404, 'Not Found');
    }
    const method = r.method.toUpperCase();
    if (segs.length === 0) {
      if (method === 'POST') return submit(r);
      if (method === 'GET') return list(r);
      return fail(404, 'Not Found');
    }
    const [jobId, sub, snapshotId] = segs as [string, string | undefined, string | undefined];
    const isTrace = segs.length === 2 && sub === 'trace' && method === 'GET';
    const isSnapshot = segs.length === 3 && sub === 'snapshots' && method === 'GET';
    const isJob = segs.length === 1 && (method === 'GET' || method === 'DELETE');
    if (!isTrace && !isSnapshot && !isJob) return fail(404, 'Not Found');
    const err = isJob ? fail : relayed;
    if (!UUID_RE.test(jobId)) return err(400, AGENT_ERRORS.invalidJobId);
    if (isSnapshot && !SNAPSHOT_ID_RE.test(snapshotId!)) return err(400, AGENT_ERRORS.invalidSnapshotId);

    if (jobId.startsWith(LEGACY_PREFIX)) {
      if (isTrace) return err(400, AGENT_ERRORS.traceEngine);
      if (isSnapshot) return err(400, AGENT_ERRORS.snapshotEngine);
      if (method === 'DELETE') return fail(409, AGENT_ERRORS.alreadyFinished);
      return { status: 200, body: legacyRecord(jobId.toLowerCase(), legacyCreatedAt) };
    }
    const job = findJob(jobId, r.team);
    if (!job) return err(404, AGENT_ERRORS.notFound);
    if (isTrace) return trace(job, r.query);
    if (isSnapshot) return snapshot(job, snapshotId!);
    if (method === 'DELETE') return cancel(job);
    return { status: 200, body: statusRecord(job) };
  }

  return {
    handle,
    close() { jobs = new Map(); },
  };
}
