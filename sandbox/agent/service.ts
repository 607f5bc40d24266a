// The agent endpoints of the local service (see sandbox/agent/README.md for the behaviour and the
// magic prompts and ids). The server has already checked the key, the rate limit and the faults.
import { interrupt } from './engine';
import { handleScrape } from './exchange';
import type { Wire } from '../serverParts';
import { runRecords } from './runRecords';
import { submitting } from './submitJob';
import {
  AGENT_ERRORS,
  DAY,
  DOCS_URL,
  LEGACY_LISTED_ID,
  LEGACY_PREFIX,
  NO_RECORD_ERRORS,
  PAGE_SIZE,
  SNAPSHOT_ID_RE,
  THREAD_ERRORS,
  UUID_RE,
  fail,
  legacyRecord,
  relayed,
  safeOrigin,
  threadError,
  type AgentReply,
  type AgentRequest,
  type AgentServiceOptions,
  type Job,
  type ServiceContext,
  type SpecTraceBody,
} from './serviceTypes';
import type {
  AgentSnapshotResponse,
  ProductionListBody,
  ProductionListItem,
  ProductionThread,
  ProductionThreadBody,
  ProductionTraceBody,
} from './wireTypes';

export function createAgentService(o: AgentServiceOptions): {
  handle(r: AgentRequest): AgentReply | undefined;
  /** `POST /v2/scrape`: Exchange calls (`terms/show`, `terms/accept`) on the production wire. */
  scrape(r: AgentRequest): AgentReply;
  /** `/__sandbox/agent/...` control routes (test mode only); undefined for any other path. */
  control(method: string, path: string, body: unknown): AgentReply | undefined;
  close(): void;
} {
  const now = o.now ?? Date.now;
  const wire: Wire = o.wire ?? 'production';
  const c: ServiceContext = {
    speed: o.speed > 0 && Number.isFinite(o.speed) ? o.speed : 1,
    now,
    wire,
    testMode: o.testMode === true,
    production: wire === 'production',
    legacyCreatedAt: now() - 3 * DAY,
    jobs: new Map(),
    threads: new Map(),
    termsAccepted: new Map(),
    state: { threadsDisabled: o.threadsDisabled === true, lastCreatedAt: 0 },
  };
  const { speed, testMode, production, legacyCreatedAt, jobs, threads, termsAccepted } = c;
  const unavailableSeen = new Set<string>();
  const records = runRecords(c);
  const { expired, findJob, latestRun, listRow, render, statusRecord, threadRun, view } = records;
  const { submit } = submitting(c, records);

  /** Production's answer to a path it has no route for. */
  function noRoute(method: string, path: string): AgentReply {
    if (!production) return fail(404, 'Not Found');
    return {
      status: 404,
      body: {
        success: false,
        code: 'NOT_FOUND',
        error: `${method} ${path.slice(0, 200)} is not a Firecrawl API endpoint.`,
        documentation_url: DOCS_URL,
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
    job.events = interrupt(job.events, (t - job.createdAt) * speed, 'cancelled', {
      runId: job.id,
      maxCredits: job.options.maxCredits,
    });
    return { status: 200, body: { success: true } };
  }

  function trace(job: Job, query: URLSearchParams): AgentReply {
    const live = query.get('liveView');
    if (live !== null && live !== 'true' && live !== 'false') {
      return relayed(400, 'Bad Request', [
        { code: 'invalid_enum_value', path: ['liveView'], message: 'liveView must be true or false' },
      ]);
    }
    const v = view(job);
    const events = render(job, v.visible);
    const body: ProductionTraceBody | SpecTraceBody = production
      ? ({
          success: true,
          id: job.id,
          events,
          creditsUsed: v.status === 'failed' ? 0 : v.credits,
        } satisfies ProductionTraceBody)
      : // The spec wire keeps its free-text cancel reason (production sends `user`, as the SDK declares).
        {
          success: true,
          id: job.id,
          events: events.map((e) =>
            e.type === 'run.cancel_requested' ? { ...e, reason: 'Cancelled by the user' } : e,
          ),
          creditsUsed: v.status === 'failed' ? 0 : v.credits,
        };
    if (live === 'true') {
      const open = new Map<string, string>();
      for (const e of v.visible) {
        if (e.body.type === 'browser.session.started') open.set(e.body.sessionId, e.agent.id);
        if (e.body.type === 'browser.session.finished') open.delete(e.body.sessionId);
      }
      body.activeBrowserSessions = [...open.keys()].map((id) => ({
        id,
        liveViewUrl: `https://live.devindex.invalid/sessions/${id}`,
        viewport: { width: 1280, height: 800 },
      }));
    }
    return { status: 200, body };
  }

  function snapshot(job: Job, snapshotId: string): AgentReply {
    const v = view(job);
    const e = v.visible.find((x) => x.snapshot?.id === snapshotId);
    if (!e?.snapshot) return relayed(404, AGENT_ERRORS.snapshotNotFound);
    // `NO-RECORD`: the SDK declares `snapshot` optional; an answer without it is one a client must show.
    if (job.noRecord)
      return {
        status: 200,
        body: { success: false, error: NO_RECORD_ERRORS.snapshot } satisfies AgentSnapshotResponse,
      };
    return {
      status: 200,
      body: { success: true, id: job.id, snapshotId, snapshot: e.snapshot.content } satisfies AgentSnapshotResponse,
    };
  }

  function list(r: AgentRequest): AgentReply {
    const raw = r.query.get('before');
    let before = Infinity;
    if (raw !== null) {
      if (!/^\d{1,16}$/.test(raw)) {
        if (production) return fail(400, 'Invalid before timestamp.');
        return fail(400, 'Bad Request', [
          {
            code: 'invalid_type',
            path: ['before'],
            message: 'before must be a non-negative integer (epoch milliseconds)',
          },
        ]);
      }
      before = Number(raw);
    }
    const rows: Array<{ createdAt: number; row: unknown }> = [...jobs.values()]
      .filter((j) => j.team === r.team && !expired(j))
      .map((j) => ({
        createdAt: j.createdAt,
        row: production
          ? listRow(j)
          : {
              id: j.id,
              createdAt: new Date(j.createdAt).toISOString(),
              status: view(j).status,
              options: {
                prompt: j.options.prompt,
                urls: j.options.urls ?? null,
                schema: j.options.schema ?? null,
                model: j.options.model,
                effort: j.options.effort ?? null,
              },
              settings: { label: null, starred: false, hidden: false },
            },
      }));
    if (testMode) {
      rows.push({
        createdAt: legacyCreatedAt,
        row: production
          ? ({
              id: LEGACY_LISTED_ID,
              createdAt: new Date(legacyCreatedAt).toISOString(),
              targetHint: 'example.com',
              origin: 'api',
              status: 'completed',
              // Addendum ("Agent threads, chat mode and approvals"): old runs list `model: spark-1-pro`.
              options: { prompt: 'A job from the first-generation engine', model: 'spark-1-pro' },
              settings: { hidden: false, starred: false },
            } satisfies ProductionListItem)
          : {
              id: LEGACY_LISTED_ID,
              createdAt: new Date(legacyCreatedAt).toISOString(),
              status: 'completed',
              options: {
                prompt: 'A job from the first-generation engine',
                urls: null,
                schema: null,
                model: 'spark-1',
                effort: null,
              },
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
    return handleScrape(r.body, {
      team: r.team,
      store: termsAccepted,
      now,
      retryId: r.retryId,
      unavailableSeen,
    });
  }

  function handle(r: AgentRequest): AgentReply | undefined {
    if (r.path !== '/v2/agent' && !r.path.startsWith('/v2/agent/')) return undefined;
    let segs: string[];
    const method = r.method.toUpperCase();
    try {
      segs = r.path
        .slice('/v2/agent'.length)
        .split('/')
        .filter((s) => s.length > 0)
        .map(decodeURIComponent);
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
    if (c.state.threadsDisabled) return threadError(THREAD_ERRORS.disabled);
    const thread = threads.get(threadId.toLowerCase());
    if (!thread || thread.team !== r.team) return threadError(THREAD_ERRORS.notFound);
    if (now() >= thread.expiresAt) return threadError(THREAD_ERRORS.expired);
    const includeData = r.query.get('includeData') === 'true';
    const members = thread.runs.map((id) => jobs.get(id)).filter((j): j is Job => j !== undefined);
    // `NO-RECORD`: the SDK declares `thread` optional; an answer without it is one a client must show.
    if (members.some((j) => j.noRecord))
      return { status: 200, body: { success: false, error: NO_RECORD_ERRORS.thread } satisfies ProductionThreadBody };
    const runs = members.map((j) => threadRun(j, includeData));
    const latest = latestRun(thread);
    const running = latest !== undefined && !view(latest).finished;
    const updatedAt = Math.max(
      thread.createdAt,
      ...runs.flatMap((x) => [Date.parse(x.createdAt), x.finishedAt ? Date.parse(x.finishedAt) : 0]),
    );
    const record: ProductionThread = {
      id: thread.id,
      createdAt: new Date(thread.createdAt).toISOString(),
      updatedAt: new Date(updatedAt).toISOString(),
      status: running ? 'running' : 'idle',
      runs,
      expiresAt: new Date(thread.expiresAt).toISOString(),
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
    const b = (body !== null && typeof body === 'object' ? body : {}) as {
      jobId?: unknown;
      threadId?: unknown;
      inMs?: unknown;
      enabled?: unknown;
    };
    if (path === '/__sandbox/agent/threads') {
      if (typeof b.enabled !== 'boolean')
        return fail(400, 'Bad Request', [
          { code: 'invalid_type', path: ['enabled'], message: 'enabled must be a boolean' },
        ]);
      c.state.threadsDisabled = !b.enabled;
      return { status: 200, body: { success: true, enabled: b.enabled } };
    }
    const inMs = b.inMs === undefined ? 0 : b.inMs;
    if (typeof inMs !== 'number' || !Number.isFinite(inMs) || inMs < 0)
      return fail(400, 'Bad Request', [
        { code: 'invalid_type', path: ['inMs'], message: 'inMs must be a number of milliseconds, 0 or more' },
      ]);
    if (path === '/__sandbox/agent/expire-thread') {
      if (typeof b.threadId !== 'string')
        return fail(400, 'Bad Request', [
          { code: 'invalid_type', path: ['threadId'], message: 'threadId must be a string' },
        ]);
      const thread = threads.get(b.threadId.toLowerCase());
      if (!thread) return threadError(THREAD_ERRORS.notFound);
      thread.expiresAt = now() + inMs;
      return { status: 200, body: { success: true, expiresAt: new Date(thread.expiresAt).toISOString() } };
    }
    if (path !== '/__sandbox/agent/expire') return fail(404, 'Not Found');
    if (b.jobId !== undefined && typeof b.jobId !== 'string')
      return fail(400, 'Bad Request', [{ code: 'invalid_type', path: ['jobId'], message: 'jobId must be a string' }]);
    const targets =
      b.jobId === undefined
        ? [...jobs.values()]
        : [jobs.get(b.jobId.toLowerCase())].filter((j): j is Job => j !== undefined);
    if (b.jobId !== undefined && targets.length === 0) return fail(404, AGENT_ERRORS.notFound);
    // One instant for the jobs and the answer: a second now() could be a millisecond later than what the jobs keep.
    const expiresAt = now() + inMs;
    for (const j of targets) j.expiresAt = expiresAt;
    return {
      status: 200,
      body: { success: true, expired: targets.length, expiresAt: new Date(expiresAt).toISOString() },
    };
  }

  return {
    handle,
    scrape,
    control,
    close() {
      jobs.clear();
      threads.clear();
      termsAccepted.clear();
      unavailableSeen.clear();
    },
  };
}
