// The agent job store: the facade the tree and the commands use. It holds the jobs in memory and puts
// the parts together: the repository (jobRepository.ts: one record per job, safe with many windows),
// the follower (jobFollower.ts: the run state of each job, the poller's one timer, the request limit,
// what each answer does to a job) and the service's job list. Nothing starts before resume().
// vscode-free: the tree subscribes to `onDidChangeJob`, tests drive it with a fake clock.
import { DEFAULT_POLL_TIMING, type PollTiming } from '../api/agent/pollSchedule';
import type { AgentBackend, AgentListEntry, AgentSnapshotResponse, AgentSubmitParams, AgentTraceResponse, TraceEvent } from './agentBackend';
import { errorReason } from './agentWords';
import { Emitter, type Event } from './emitter';
import { JobFollower, type ResultView, type TraceLoad } from './jobFollower';
import { type AgentJob, isActive, isTerminalStatus, type JobStorage, type KeptResult } from './jobModel';
import { isWaiting } from '../api/agent/runOutcome';
import { termsAcceptCalls } from '../api/agent/terms';
import { JobRepository, mergeJobs, type PruneLimits } from './jobRepository';
import { systemTimers, type Timers } from './jobPoller';

export { systemTimers, type Timers, type ResultView, type TraceLoad };

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

/** How long start() waits for storage to take a new job's record before showing the job as not saved. */
export const START_SAVE_WAIT_MS = 10_000;

/** How the user answered an approval: which calls (all when left out), always, and agreement to terms. */
export interface ApprovalChoice {
  callIds?: string[];
  always?: boolean;
  /** The user explicitly agreed to the terms a `terms` approval shows. */
  acceptTerms?: boolean;
}

export type CancelResult = 'requested' | 'already-cancelled' | 'already-finished';

export class JobStore {
  private readonly jobsById = new Map<string, AgentJob>();
  private readonly repo: JobRepository;
  private readonly follower: JobFollower;
  private resumed = false;
  /** Jobs submitted whose first record is being written: not shown (nor taken from storage) until it is. */
  private readonly starting = new Set<string>();
  /** New jobs shown before their first record landed (refused, or storage did not answer in time). */
  private readonly unsaved = new Set<string>();
  private syncTimer: unknown;
  private readonly changeEmitter = new Emitter<string | undefined>();
  private readonly endEmitter = new Emitter<AgentJob>();
  private readonly timers: Timers;
  private disposed = false;

  /** Fires with a job id when that job changed, or undefined when jobs were added or removed. */
  readonly onDidChangeJob: Event<string | undefined> = this.changeEmitter.event;
  /** Fires once per job when its run has ended (or it turned out not to exist). */
  readonly onDidEndJob: Event<AgentJob> = this.endEmitter.event;

  constructor(private readonly opts: JobStoreOptions) {
    this.timers = opts.timers ?? systemTimers;
    this.follower = new JobFollower({
      job: (id) => this.jobsById.get(id),
      save: (job) => this.save(job),
      changed: (id) => this.changed(id),
      ended: (job) => this.announceEnd(job),
      keepResult: (id, copy) => this.repo.keep(id, copy),
      kept: (id) => this.repo.kept(id),
      ids: () => this.jobsById.keys(),
    }, {
      backend: opts.backend, timers: this.timers, timing: opts.timing ?? DEFAULT_POLL_TIMING, maxInFlight: opts.maxInFlight,
      statusEveryMs: opts.statusEveryMs, hidden: opts.hidden, onLog: opts.onLog,
    });
    this.repo = new JobRepository(opts.storage, () => this.timers.now(), opts.onLog, opts.prune, this.timers);
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
    for (const job of this.jobsById.values()) if (isActive(job)) this.follower.follow(job.id);
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
      this.follower.forget(id);
      structural = true;
    }
    for (const stored of jobs) {
      if (this.starting.has(stored.id)) continue;
      const mine = this.jobsById.get(stored.id);
      if (!mine) {
        this.jobsById.set(stored.id, stored);
        if (this.resumed && isActive(stored)) this.follower.follow(stored.id);
        structural = true;
        continue;
      }
      const merged = mergeJobs(mine, stored);
      if (JSON.stringify(merged) === JSON.stringify(mine)) continue;
      Object.assign(mine, merged);
      this.changed(mine.id);
    }
    if (structural) {
      this.follower.arm();
      this.changeEmitter.fire(undefined);
    }
  }

  private armSync(): void {
    if (this.syncTimer !== undefined) this.timers.clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    if (this.disposed || !this.resumed || this.follower.hidden) return;
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
    return this.follower.events(id);
  }

  traceLoad(id: string): TraceLoad {
    return this.follower.traceLoad(id);
  }

  isPolling(id: string): boolean {
    return this.follower.isPolling(id);
  }

  /** The time the next request is due, for tests and the bench; undefined when nothing is scheduled. */
  nextPollAt(): number | undefined {
    return this.follower.nextPollAt();
  }

  get inFlight(): number {
    return this.follower.inFlight;
  }

  setHidden(hidden: boolean): void {
    if (this.follower.hidden === hidden) return;
    this.follower.setHidden(hidden);
    // Shown again: catch up with other windows at once, then keep looking while visible.
    if (!hidden && this.resumed) this.sync();
    this.armSync();
  }

  /**
   * Submits a job. Resolves once its record is in storage, so a window that closes then keeps it;
   * when storage refuses the record the job is shown all the same, `isUnsaved(id)` says so, and the
   * write is retried. Rejects with the backend's error; see `submitMayHaveCreatedJob`.
   */
  async start(request: AgentSubmitParams, opts: { signal?: AbortSignal } = {}): Promise<AgentJob> {
    const extraModels = this.opts.extraModels?.() ?? [];
    const res = await this.follower.request((backend) => backend.submit(request, { ...(opts.signal ? { signal: opts.signal } : {}), ...(extraModels.length ? { extraModels } : {}) }));
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
      ...threadOf(request, res),
      trace: { eventCount: 0, finished: false },
    };
    this.starting.add(job.id);
    let saved: boolean;
    try {
      this.persist(job);
      saved = await this.firstSave(job.id);
    } finally {
      this.starting.delete(job.id);
    }
    if (this.disposed) return job;
    if (!saved) {
      this.opts.onLog?.(`agent jobs: job ${job.id} started but is NOT saved in the editor's storage yet; it is shown and saving is retried (if this window closes first, Refresh finds it in the service's job list)`);
    }
    this.jobsById.set(job.id, job);
    this.changeEmitter.fire(undefined);
    this.follower.follow(job.id);
    if (!saved) {
      this.unsaved.add(job.id);
      this.tellWhenSaved(job.id);
    }
    return job;
  }

  /** The tree hears of the retry that finally lands a new job's record. */
  private tellWhenSaved(id: string): void {
    void this.repo.saved(id).then((ok) => {
      if (this.disposed) return;
      if (!ok) {
        this.tellWhenSaved(id);
        return;
      }
      this.unsaved.delete(id);
      this.changed(id);
    });
  }

  /** Whether storage has refused this job's record and a retry is pending (the job would not survive a reload yet). */
  isUnsaved(id: string): boolean {
    return this.unsaved.has(id) || this.repo.isUnsaved(id);
  }

  /** The first write of a new job's record: true once landed, false when refused or not answered within 10 s. */
  private firstSave(id: string): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = this.timers.setTimeout(() => resolve(false), START_SAVE_WAIT_MS);
      void this.repo.saved(id).then((ok) => {
        this.timers.clearTimeout(timer);
        resolve(ok);
      });
    });
  }

  /**
   * Answers a waiting run's approval: the next turn of its thread, followed as a job of its own (the
   * service may also resume the waiting run under its own id: then that job is followed again). The
   * waiting record is marked answered at once, so it stops showing as waiting before the next poll.
   * A `terms` approval is approved only with `acceptTerms` (the user explicitly agreed): the run's own
   * `terms/accept` calls go first; nothing here accepts terms otherwise.
   */
  async answerApproval(id: string, decision: 'approve' | 'decline', choice: ApprovalChoice = {}): Promise<AgentJob> {
    const job = this.require(id);
    const pending = job.pendingApproval;
    if (!pending || !isWaiting(job) || !job.threadId) throw new Error('This run is not waiting for an approval.');
    const threadId = job.threadId;
    if (decision === 'approve' && pending.kind === 'terms') {
      if (choice.acceptTerms !== true) throw new Error('These data terms are accepted only once you agree to them.');
      const calls = termsAcceptCalls(job);
      await this.follower.request((backend) => {
        if (!backend.acceptTerms) throw new Error('This client cannot accept terms.');
        return backend.acceptTerms(calls);
      });
    }
    const callIds = decision === 'approve' && pending.kind === 'calls' ? choice.callIds : undefined;
    const always = decision === 'approve' && pending.kind === 'calls' ? choice.always : undefined;
    const res = await this.follower.request((backend) => {
      if (!backend.answerApproval) throw new Error('This client cannot answer approvals.');
      return backend.answerApproval({ threadId, approvalId: pending.id, decision, ...(callIds ? { callIds } : {}), ...(always !== undefined ? { always } : {}) });
    });
    const answered = pending.kind === 'calls' ? (callIds ?? pending.calls.flatMap((c) => (c.id ? [c.id] : []))) : [];
    job.pendingApproval = { ...pending, resolution: { approved: decision === 'approve', callIds: decision === 'approve' ? answered : [], always: always === true, byRunId: res.id } };
    this.save(job);
    this.changeEmitter.fire(id);
    if (res.id === id) {
      this.follower.pollSoon(id);
      return job;
    }
    const said = decision === 'approve'
      ? pending.kind === 'terms' ? 'Agreed to the terms.' : 'Approved.'
      : 'Declined.';
    const turn: AgentJob = {
      id: res.id, prompt: said, createdAt: this.timers.now(), origin: 'user', status: 'processing',
      ...threadOf({ threadId }, res), trace: { eventCount: 0, finished: false },
    };
    this.jobsById.set(turn.id, turn);
    this.persist(turn);
    this.changeEmitter.fire(undefined);
    this.follower.follow(turn.id);
    // The answered turn handed over to the next one: its record says how it ended (the service's word, read now).
    this.follower.pollSoon(id);
    return turn;
  }

  /**
   * Follows a run this store may not know yet (the turn a busy thread says is still running): polled
   * soon when known, otherwise added as a job from the service.
   */
  track(id: string, known: { prompt?: string; threadId?: string } = {}): AgentJob {
    const existing = this.jobsById.get(id);
    if (existing) {
      if (isActive(existing)) this.follower.pollSoon(id);
      return existing;
    }
    const job: AgentJob = {
      id, prompt: known.prompt ?? '', createdAt: this.timers.now(), origin: 'service', status: 'processing',
      ...(known.threadId ? { threadId: known.threadId } : {}), trace: { eventCount: 0, finished: false },
    };
    this.jobsById.set(id, job);
    this.persist(job);
    this.changeEmitter.fire(undefined);
    this.follower.follow(id);
    return job;
  }

  async cancel(id: string): Promise<CancelResult> {
    const job = this.require(id);
    job.cancelRequested = true;
    this.changed(id);
    let result: CancelResult = 'requested';
    try {
      await this.follower.request((backend) => backend.cancel(id));
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
    this.follower.pollSoon(id);
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
        this.save(job);
      }
      if (isActive(job)) this.follower.pollSoon(job.id);
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
  loadTrace(id: string): Promise<void> {
    return this.follower.loadTrace(this.require(id));
  }

  /**
   * A job's result (or its partial result): from the service while it keeps the job, else the copy
   * kept in this editor's storage (after the service has let the job expire).
   */
  result(id: string, which: 'result' | 'partial' = 'result'): Promise<ResultView> {
    return this.follower.result(this.require(id), which);
  }

  /** The copy of a finished job's result kept in storage, if any. */
  kept(id: string): KeptResult | undefined {
    return this.repo.kept(id);
  }

  /** The raw trace response, re-read from the service. */
  traceResponse(id: string): Promise<AgentTraceResponse> {
    return this.follower.traceResponse(this.require(id));
  }

  snapshot(id: string, snapshotId: string): Promise<AgentSnapshotResponse> {
    return this.follower.snapshot(id, snapshotId);
  }

  /** Forgets a job (and keeps it out of later job-list reads). Polling of it stops. */
  remove(id: string): void {
    if (!this.jobsById.delete(id)) return;
    this.unsaved.delete(id);
    this.follower.forget(id);
    this.repo.remove(id);
    this.changeEmitter.fire(undefined);
  }

  /** Resolves once everything changed so far has been written to storage. */
  flush(): Promise<void> {
    return this.repo.flush();
  }

  dispose(): void {
    this.disposed = true;
    this.repo.dispose();
    this.follower.dispose();
    if (this.syncTimer !== undefined) this.timers.clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    this.changeEmitter.dispose();
    this.endEmitter.dispose();
  }

  /** A run has ended: said once per job, by one window (another window may have told the user already). */
  private announceEnd(job: AgentJob): void {
    if (job.notified) return;
    const told = this.repo.read(job.id)?.notified === true;
    job.notified = true;
    this.persist(job);
    if (!told) this.endEmitter.fire(job);
  }

  // ---- the service's job list ----

  private async readList(): Promise<void> {
    let added = false;
    const res = await this.follower.request((backend) => backend.listAll({ maxPages: this.opts.maxListPages ?? 2 }));
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
        this.save(existing);
        this.follower.pollSoon(existing.id);
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
      ...(typeof item.options?.threadId === 'string' ? { threadId: item.options.threadId } : {}),
      ...(typeof item.options?.threadTurn === 'number' ? { threadTurn: item.options.threadTurn } : {}),
      ...(typeof item.options?.mode === 'string' ? { mode: item.options.mode } : {}),
      // Runs that ended before this editor saw them are history, not news.
      notified: isTerminalStatus(item.status),
      trace: { eventCount: 0, finished: false },
    };
    this.jobsById.set(job.id, job);
    this.persist(job);
    if (isActive(job)) this.follower.follow(job.id);
    return true;
  }

  // ---- helpers ----

  private require(id: string): AgentJob {
    const job = this.jobsById.get(id);
    if (!job) throw new Error(`No agent job ${id} in the list.`);
    return job;
  }

  private changed(id: string): void {
    if (!this.disposed) this.changeEmitter.fire(id);
  }

  private save(job: AgentJob): void {
    this.persist(job);
    this.changed(job.id);
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
    this.follower.forget(job.id);
    this.changeEmitter.fire(undefined);
  }
}

/** The thread a start opened or continued, and the mode asked for. */
function threadOf(request: Pick<AgentSubmitParams, 'threadId' | 'mode'>, res: { response?: { threadId?: string | null; threadTurn?: number | null } }): Partial<AgentJob> {
  const threadId = res.response?.threadId ?? request.threadId;
  const turn = res.response?.threadTurn;
  return { ...(threadId ? { threadId } : {}), ...(typeof turn === 'number' ? { threadTurn: turn } : {}), ...(request.mode ? { mode: request.mode } : {}) };
}

function parseTime(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string') {
    const t = Date.parse(v);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}
