// The agent job store: the facade the tree and the commands use. It holds the jobs in memory and puts
// three parts together: the repository (jobRepository.ts: one record per job, safe with many
// windows), the poller (jobPoller.ts: one timer, armed from resume()), and the run engine
// (src/api/agent/: what a poll does to a job). vscode-free: the tree subscribes to `onDidChangeJob`,
// tests drive it with a fake clock.
import {
  applyStatus, applyTrace, DEFAULT_STATUS_EVERY_MS, newRunState, pollRun, type RunState,
} from '../api/agent/runEngine';
import { DEFAULT_POLL_TIMING, observe, type PollTiming } from '../api/agent/pollSchedule';
import type { AgentBackend, AgentJobRecord, AgentListEntry, AgentSnapshotResponse, AgentSubmitParams, AgentTraceResponse, TraceEvent } from './agentBackend';
import { describeAgentError, errorReason } from './agentWords';
import { Emitter, type Event } from './emitter';
import {
  type AgentJob, isActive, isPastExpiry, isTerminalStatus, type JobStorage, type KeptResult, MAX_KEPT_RESULT_CHARS,
} from './jobModel';
import { JobRepository, mergeJobs, type PruneLimits } from './jobRepository';
import { Limiter } from './limiter';
import { JobPoller, systemTimers, type Timers } from './jobPoller';

export { systemTimers, type Timers };

export interface JobStoreOptions {
  /** Called on first use, so the client bundle loads only when a request is made. */
  backend: () => AgentBackend | Promise<AgentBackend>;
  storage: JobStorage;
  timers?: Timers;
  timing?: PollTiming;
  /** Requests the store has in flight at most, over all jobs. */
  maxInFlight?: number;
  /**
   * The trace alone tells progress and the end, so the status record is not polled while the trace
   * answers; only when the trace has brought nothing new for this long is the status read once, as a
   * safety net against a trace that stalls (default 5 minutes).
   */
  statusEveryMs?: number;
  /** Pages of the service's job list read by `refresh()`. */
  maxListPages?: number;
  /** `devIndex.agent.extraModels`: model names newer than this build, accepted at submission. */
  extraModels?: () => readonly string[];
  /** Whether the service's job list can be read (it needs a key). */
  canList?: () => boolean | Promise<boolean>;
  hidden?: boolean;
  onLog?: (message: string) => void;
  /** How often a visible store looks for jobs other windows started or removed (default 5 s). */
  syncEveryMs?: number;
  prune?: PruneLimits;
}

export type TraceLoad =
  | { state: 'unloaded' | 'loading' | 'loaded' | 'unavailable' }
  | { state: 'error'; message: string };

export type CancelResult = 'requested' | 'already-cancelled' | 'already-finished';

/** What Open Result (or Open Partial Result) shows: from the service, or the copy kept in this editor. */
export interface ResultView {
  which: 'result' | 'partial';
  status: string;
  /** Absent when the job has no such data. */
  data?: unknown;
  error?: string;
  source: 'service' | 'kept' | 'none';
  /** Set when the job has expired on the service (ISO time). */
  expiredOn?: string;
}

/** What the store keeps per job while following it: the engine's run state, plus the tree's trace load. */
interface Runtime extends RunState {
  polling: boolean;
  trace: TraceLoad;
}

export class JobStore {
  private readonly jobsById = new Map<string, AgentJob>();
  private readonly runtime = new Map<string, Runtime>();
  private readonly repo: JobRepository;
  private resumed = false;
  private syncTimer: unknown;
  private readonly changeEmitter = new Emitter<string | undefined>();
  private readonly endEmitter = new Emitter<AgentJob>();
  private readonly timers: Timers;
  private readonly timing: PollTiming;
  private readonly limiter: Limiter;
  private readonly statusEveryMs: number;
  private readonly poller: JobPoller;
  private disposed = false;

  /** Fires with a job id when that job changed, or undefined when jobs were added or removed. */
  readonly onDidChangeJob: Event<string | undefined> = this.changeEmitter.event;
  /** Fires once per job when its run has ended (or it turned out not to exist). */
  readonly onDidEndJob: Event<AgentJob> = this.endEmitter.event;

  constructor(private readonly opts: JobStoreOptions) {
    this.timers = opts.timers ?? systemTimers;
    this.timing = opts.timing ?? DEFAULT_POLL_TIMING;
    this.limiter = new Limiter(opts.maxInFlight ?? 2);
    this.statusEveryMs = opts.statusEveryMs ?? DEFAULT_STATUS_EVERY_MS;
    this.poller = new JobPoller({
      timers: this.timers, timing: this.timing, hidden: opts.hidden,
      entries: () => [...this.runtime].filter(([id]) => this.jobsById.has(id)),
      poll: (id) => this.poll(id, this.rt(id)),
    });
    this.repo = new JobRepository(opts.storage, () => this.timers.now(), opts.onLog, opts.prune);
    // Reading storage starts nothing: `resume()` does.
    for (const job of this.repo.load()) this.jobsById.set(job.id, job);
  }

  /**
   * Starts the work: prunes old tombstones and listed jobs, resumes polling of running jobs, and
   * (while visible) looks for changes made by other windows every few seconds.
   */
  resume(): void {
    if (this.resumed || this.disposed) return;
    this.resumed = true;
    this.repo.prune();
    this.sync();
    for (const job of this.jobsById.values()) if (isActive(job)) this.startPolling(job.id);
    this.armSync();
  }

  /**
   * Reads what other windows wrote: jobs they started appear, jobs they removed go, and what they
   * learned about a job is merged in. Cheap: the storage is in memory.
   */
  sync(): void {
    if (this.disposed) return;
    const { jobs, removed } = this.repo.scan();
    let structural = false;
    for (const id of removed) {
      if (!this.jobsById.has(id)) continue;
      this.jobsById.delete(id);
      this.runtime.delete(id);
      structural = true;
    }
    for (const stored of jobs) {
      const mine = this.jobsById.get(stored.id);
      if (!mine) {
        this.jobsById.set(stored.id, stored);
        if (this.resumed && isActive(stored)) this.startPolling(stored.id);
        structural = true;
        continue;
      }
      const merged = mergeJobs(mine, stored);
      if (JSON.stringify(merged) === JSON.stringify(mine)) continue;
      Object.assign(mine, merged);
      this.changed(mine.id);
    }
    if (structural) {
      this.arm();
      this.changeEmitter.fire(undefined);
    }
  }

  private armSync(): void {
    if (this.syncTimer !== undefined) this.timers.clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    if (this.disposed || !this.resumed || this.poller.hidden) return;
    this.syncTimer = this.timers.setTimeout(() => {
      this.syncTimer = undefined;
      this.sync();
      this.armSync();
    }, this.opts.syncEveryMs ?? 5_000);
  }

  /** Newest first. */
  jobs(): AgentJob[] {
    return [...this.jobsById.values()].sort((a, b) => b.createdAt - a.createdAt);
  }

  get(id: string): AgentJob | undefined {
    return this.jobsById.get(id);
  }

  /** Trace events read so far (not persisted: empty until the trace has been read this session). */
  events(id: string): TraceEvent[] {
    return [...(this.runtime.get(id)?.events.values() ?? [])];
  }

  traceLoad(id: string): TraceLoad {
    const job = this.jobsById.get(id);
    if (job?.trace.unavailable) return { state: 'unavailable' };
    return this.runtime.get(id)?.trace ?? { state: 'unloaded' };
  }

  isPolling(id: string): boolean {
    const s = this.runtime.get(id)?.schedule;
    return s !== undefined && !s.stopped;
  }

  /** The time the next request is due, for tests and the bench; undefined when nothing is scheduled. */
  nextPollAt(): number | undefined {
    return this.poller.nextPollAt();
  }

  get inFlight(): number {
    return this.limiter.inFlight;
  }

  setHidden(hidden: boolean): void {
    if (this.poller.hidden === hidden) return;
    this.poller.setHidden(hidden);
    // Shown again: catch up with other windows at once, then keep looking while visible.
    if (!hidden && this.resumed) this.sync();
    this.armSync();
  }

  /** Submits a job. Rejects with the backend's error; see `submitMayHaveCreatedJob`. */
  async start(request: AgentSubmitParams, opts: { signal?: AbortSignal } = {}): Promise<AgentJob> {
    const backend = await this.opts.backend();
    const extraModels = this.opts.extraModels?.() ?? [];
    const res = await this.limiter.run(() => backend.submit(request, { ...(opts.signal ? { signal: opts.signal } : {}), ...(extraModels.length ? { extraModels } : {}) }));
    const job: AgentJob = {
      id: res.id,
      prompt: request.prompt,
      createdAt: this.timers.now(),
      origin: 'user',
      status: 'processing',
      model: request.model,
      effort: request.effort,
      urls: request.urls,
      maxCredits: request.maxCredits,
      trace: { eventCount: 0, finished: false },
    };
    this.jobsById.set(job.id, job);
    this.persist(job);
    this.changeEmitter.fire(undefined);
    this.startPolling(job.id);
    return job;
  }

  async cancel(id: string): Promise<CancelResult> {
    const job = this.require(id);
    const backend = await this.opts.backend();
    job.cancelRequested = true;
    this.changed(id);
    let result: CancelResult = 'requested';
    try {
      await this.limiter.run(() => backend.cancel(id));
    } catch (e) {
      const reason = errorReason(e);
      if (reason === 'already-cancelled') result = 'already-cancelled';
      else if (reason === 'already-finished') {
        result = 'already-finished';
        job.cancelRequested = false;
      } else {
        job.cancelRequested = false;
        this.changed(id);
        throw e;
      }
    }
    // Either way the run is about to end: look at it now rather than at the backed-off interval.
    this.pollSoon(id);
    return result;
  }

  /**
   * Re-reads the service's job list (with a key) and polls every unfinished job now, clearing a
   * failure that had stopped polling. Resolves with the list error, if any, after doing the rest.
   */
  async refresh(): Promise<{ listError?: unknown }> {
    for (const job of this.jobsById.values()) {
      if (job.pollError) {
        job.pollError = undefined;
        this.persist(job);
        this.changed(job.id);
      }
      if (isActive(job)) this.pollSoon(job.id);
    }
    this.sync();
    let listError: unknown;
    if (this.opts.canList && await this.opts.canList()) {
      try {
        await this.readList();
      } catch (e) {
        listError = e;
      }
    }
    return listError === undefined ? {} : { listError };
  }

  /** Reads the trace once for a job that is not being polled (e.g. after a reload, or from the list). */
  async loadTrace(id: string): Promise<void> {
    const job = this.require(id);
    const rt = this.rt(id);
    if (job.trace.unavailable || rt.trace.state === 'loading' || rt.polling) return;
    rt.trace = { state: 'loading' };
    this.changed(id);
    try {
      const backend = await this.opts.backend();
      const trace = await this.limiter.run(() => backend.trace(id));
      if (this.disposed) return;
      applyTrace(job, rt, trace, this.timers.now());
      rt.trace = { state: 'loaded' };
    } catch (e) {
      const reason = errorReason(e);
      if (reason === 'no-trace') job.trace.unavailable = true;
      else if (reason === 'not-found') {
        this.markGone(job);
        rt.trace = { state: 'loaded' };
      } else rt.trace = { state: 'error', message: describeAgentError(e) };
    }
    this.persist(job);
    this.changed(id);
    this.maybeEnded(job);
  }

  /**
   * A job's result (or its partial result): from the service while it keeps the job, else the copy
   * kept in this editor's storage. A 404 after the job's expiry is not an error: the view says when it
   * expired and shows what is kept.
   */
  async result(id: string, which: 'result' | 'partial' = 'result'): Promise<ResultView> {
    const job = this.require(id);
    const rt = this.rt(id);
    if (!job.expired && !job.notFound) {
      let record = rt.lastRecord && isTerminalStatus(rt.lastRecord.status) ? rt.lastRecord : undefined;
      if (!record) {
        try {
          const backend = await this.opts.backend();
          record = await this.limiter.run(() => backend.status(id));
        } catch (e) {
          if (errorReason(e) !== 'not-found') throw e;
          this.markGone(job);
          this.persist(job);
          this.changed(id);
        }
      }
      if (record) {
        rt.lastRecord = record;
        const changed = applyStatus(job, record);
        if (isTerminalStatus(record.status)) this.keep(job, record);
        if (changed) {
          this.persist(job);
          this.changed(id);
        }
        const data = which === 'result' ? record.data : record.partial;
        return { which, status: record.status, data, error: record.error ?? undefined, source: data === undefined ? 'none' : 'service' };
      }
    }
    const kept = this.kept(id);
    const data = which === 'result' ? kept?.data : kept?.partial;
    return {
      which, status: kept?.status ?? job.status, data, error: kept?.error ?? job.error, source: data === undefined ? 'none' : 'kept',
      expiredOn: job.expired ? job.expiresAt : undefined,
    };
  }

  /** The copy of a finished job's result kept in storage, if any. */
  kept(id: string): KeptResult | undefined {
    return this.repo.kept(id);
  }

  /** The raw trace response, re-read from the service. */
  async traceResponse(id: string): Promise<AgentTraceResponse> {
    const job = this.require(id);
    const rt = this.rt(id);
    const backend = await this.opts.backend();
    const trace = await this.limiter.run(() => backend.trace(id));
    applyTrace(job, rt, trace, this.timers.now());
    rt.trace = { state: 'loaded' };
    this.persist(job);
    this.changed(id);
    return trace;
  }

  async snapshot(id: string, snapshotId: string): Promise<AgentSnapshotResponse> {
    const backend = await this.opts.backend();
    return this.limiter.run(() => backend.snapshot(id, snapshotId));
  }

  /** Forgets a job (and keeps it out of later job-list reads). Polling of it stops. */
  remove(id: string): void {
    if (!this.jobsById.delete(id)) return;
    this.runtime.delete(id);
    this.repo.remove(id);
    this.arm();
    this.changeEmitter.fire(undefined);
  }

  /** Resolves once everything changed so far has been written to storage. */
  flush(): Promise<void> {
    return this.repo.flush();
  }

  dispose(): void {
    this.disposed = true;
    this.poller.dispose();
    if (this.syncTimer !== undefined) this.timers.clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    this.changeEmitter.dispose();
    this.endEmitter.dispose();
  }

  // ---- polling ----

  private startPolling(id: string): void {
    const rt = this.rt(id);
    const now = this.timers.now();
    rt.lastStatusAt ??= now;
    rt.lastNewEventAt ??= now;
    this.poller.start(rt);
  }

  /** Poll this job at the next opportunity, restarting a stopped schedule. */
  private pollSoon(id: string): void {
    this.poller.pollSoon(this.rt(id));
  }

  private arm(): void {
    this.poller.arm();
  }

  /** One poll through the run engine; what it found is kept, shown and (at the end) announced. */
  private async poll(id: string, rt: Runtime): Promise<void> {
    const job = this.jobsById.get(id);
    if (!job || !rt.schedule) return;
    const backend = await this.opts.backend();
    if (this.disposed) return;
    const step = await pollRun(id, job, rt, backend, {
      now: () => this.timers.now(), timing: this.timing, statusEveryMs: this.statusEveryMs, call: (fn) => this.limiter.run(fn),
    });
    if (this.disposed || !this.jobsById.has(id)) return;
    let changed = step.changed;
    if (rt.lastTrace) rt.trace = { state: 'loaded' };
    if (step.finalRecord) changed = this.keep(job, step.finalRecord) || changed;
    if (step.observation.kind === 'not-found') {
      this.markGone(job);
      changed = true;
    } else if (step.observation.kind === 'fatal') {
      job.pollError = describeAgentError(step.error);
      changed = true;
    }
    if (step.error !== undefined) this.opts.onLog?.(`agent job ${id}: poll failed: ${describeAgentError(step.error)}`);
    if (changed) {
      this.persist(job);
      this.changed(id);
    }
    this.maybeEnded(job);
  }

  /**
   * Keeps a finished job's result and partial result in storage (one key per job), so they still open
   * after the service has let the job expire. Returns whether the job changed.
   */
  private keep(job: AgentJob, record: AgentJobRecord): boolean {
    const wasRead = job.finalRead === true && job.kept !== undefined;
    job.finalRead = true;
    const hasData = record.data !== undefined && record.data !== null;
    const hasPartial = record.partial !== undefined && record.partial !== null;
    if (job.kept && job.kept.result === hasData && job.kept.partial === hasPartial) return !wasRead;
    if (!hasData && !hasPartial) return !wasRead;
    const copy: KeptResult = {
      jobId: job.id, status: record.status, savedAt: this.timers.now(),
      ...(hasData ? { data: record.data } : {}), ...(hasPartial ? { partial: record.partial } : {}),
      ...(record.error ? { error: record.error } : {}), ...(record.creditsUsed !== undefined ? { creditsUsed: record.creditsUsed } : {}),
      ...(record.expiresAt ? { expiresAt: record.expiresAt } : {}),
    };
    if (JSON.stringify(copy).length > MAX_KEPT_RESULT_CHARS) {
      this.opts.onLog?.(`agent job ${job.id}: result larger than ${MAX_KEPT_RESULT_CHARS} characters, not kept locally`);
      return !wasRead;
    }
    this.repo.keep(job.id, copy);
    job.kept = { result: hasData, partial: hasPartial };
    return true;
  }

  /** 404 on a job: expired when its expiry has passed, else unknown (or another team's). */
  private markGone(job: AgentJob): void {
    if (isPastExpiry(job, this.timers.now())) job.expired = true;
    else job.notFound = true;
    const rt = this.runtime.get(job.id);
    if (rt?.schedule) rt.schedule = observe(rt.schedule, { kind: 'not-found' }, this.timers.now(), this.timing);
  }

  /** Notifies once per job, when the end is known: a terminal status plus the trace's outcome (or no trace). */
  private maybeEnded(job: AgentJob): void {
    if (job.notified) return;
    const rt = this.runtime.get(job.id);
    const stopped = rt?.schedule?.stopped !== undefined;
    const ended = job.notFound || job.expired
      || (isTerminalStatus(job.status) && (job.trace.finished || job.trace.unavailable || stopped) && (job.finalRead === true || stopped));
    if (!ended) return;
    // Another window following the same job may have told the user already.
    const told = this.repo.read(job.id)?.notified === true;
    job.notified = true;
    this.persist(job);
    if (!told) this.endEmitter.fire(job);
  }

  private async readList(): Promise<void> {
    const backend = await this.opts.backend();
    let added = false;
    const res = await this.limiter.run(() => backend.listAll({ maxPages: this.opts.maxListPages ?? 2 }));
    for (const item of Array.isArray(res.agents) ? res.agents : []) added = this.mergeListed(item) || added;
    if (res.stopped === 'other-origin') this.opts.onLog?.('agent jobs: the job list\'s next page is on another address; not followed (the key is only sent to the configured service)');
    if (added) this.changeEmitter.fire(undefined);
  }

  /** Returns true when the job is new to the store. */
  private mergeListed(item: AgentListEntry): boolean {
    if (typeof item?.id !== 'string' || typeof item.status !== 'string' || this.repo.isRemoved(item.id)) return false;
    const existing = this.jobsById.get(item.id);
    if (existing) {
      if (existing.status !== item.status && !existing.notFound && !isTerminalStatus(existing.status)) {
        existing.status = item.status;
        this.persist(existing);
        this.changed(existing.id);
        this.pollSoon(existing.id);
      }
      return false;
    }
    const job: AgentJob = {
      id: item.id,
      prompt: typeof item.options?.prompt === 'string' ? item.options.prompt : '',
      createdAt: parseTime(item.createdAt) ?? this.timers.now(),
      origin: 'service',
      status: item.status,
      model: item.options?.model ?? undefined,
      effort: item.options?.effort ?? undefined,
      urls: item.options?.urls ?? undefined,
      // Runs that ended before this editor saw them are history, not news.
      notified: isTerminalStatus(item.status),
      trace: { eventCount: 0, finished: false },
    };
    this.jobsById.set(job.id, job);
    this.persist(job);
    if (isActive(job)) this.startPolling(job.id);
    return true;
  }

  // ---- helpers ----

  private rt(id: string): Runtime {
    let rt = this.runtime.get(id);
    if (!rt) {
      rt = { ...newRunState(), polling: false, trace: { state: 'unloaded' } };
      this.runtime.set(id, rt);
    }
    return rt;
  }

  private require(id: string): AgentJob {
    const job = this.jobsById.get(id);
    if (!job) throw new Error(`No agent job ${id} in the list.`);
    return job;
  }

  private changed(id: string): void {
    if (!this.disposed) this.changeEmitter.fire(id);
  }

  /** Writes this job (merged with what other windows wrote); drops it when another window removed it. */
  private persist(job: AgentJob): void {
    if (this.disposed) return;
    const merged = this.repo.save(job);
    if (merged) {
      Object.assign(job, merged);
      return;
    }
    if (!this.jobsById.delete(job.id)) return;
    this.runtime.delete(job.id);
    this.arm();
    this.changeEmitter.fire(undefined);
  }
}

function parseTime(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string') {
    const t = Date.parse(v);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}
