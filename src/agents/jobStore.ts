// The agent job store: the shell around the jobs' functional core (jobEvents.ts). Each event (a submission, a
// trace or status read, a list entry, other windows' writes, a removal) goes through the reducer; the store
// applies the result and carries out its effects with the repository (jobRepository.ts: one record per job,
// safe with many windows), the follower (jobFollower.ts: the run state of each job, the poller's one timer,
// the request limit) and the tree's change event. Nothing starts before resume().
// vscode-free: the tree subscribes to `onDidChangeJob`, tests drive it with a fake clock.
import { DEFAULT_POLL_TIMING } from '../agentRun/pollSchedule';
import type { AgentSnapshotResponse, AgentSubmitParams, AgentTraceResponse, TraceEvent } from './agentBackend';
import { errorReason } from '../words/agentWords';
import { Emitter, type Event } from './emitter';
import { JobFollower, type ResultView, type TraceLoad } from './jobFollower';
import { type JobEvent, type JobsView, reduceJobs, type Reduced, submittedJob } from './jobEvents';
import { type AgentJob, isActive } from './jobModel';
import type { ApprovalChoice, CancelResult, JobStoreOptions } from './jobStoreOptions';
import { isWaiting } from '../agentRun/runOutcome';
import { termsAcceptCalls } from '../agentRun/terms';
import { JobRepository } from './jobRepository';
import { NewJobSaves } from './newJobSaves';
import { systemTimers, type Timers } from './jobPoller';

export { systemTimers, type Timers, type ResultView, type TraceLoad };

export { START_SAVE_WAIT_MS } from './newJobSaves';
export type { ApprovalChoice, CancelResult, JobStoreOptions } from './jobStoreOptions';

export class JobStore {
  private readonly jobsById = new Map<string, AgentJob>();
  private readonly repo: JobRepository;
  private readonly follower: JobFollower;
  private resumed = false;
  private readonly saves: NewJobSaves;
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
    this.follower = new JobFollower(
      {
        job: (id) => this.jobsById.get(id),
        save: (job) => this.save(job),
        changed: (id) => this.changed(id),
        ended: (job) => this.announceEnd(job),
        keepResult: (id, copy) => this.repo.keep(id, copy),
        kept: (id) => this.repo.kept(id),
        ids: () => this.jobsById.keys(),
      },
      {
        backend: opts.backend,
        timers: this.timers,
        timing: opts.timing ?? DEFAULT_POLL_TIMING,
        maxInFlight: opts.maxInFlight,
        statusEveryMs: opts.statusEveryMs,
        hidden: opts.hidden,
        onLog: opts.onLog,
      },
    );
    this.repo = new JobRepository(opts.storage, () => this.timers.now(), opts.onLog, opts.prune, this.timers);
    this.saves = new NewJobSaves(this.repo, this.timers, (id) => this.changed(id));
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
    this.dispatch({ type: 'synced', stored: jobs, removed, starting: this.saves.starting, follow: this.resumed });
  }

  /** The reducer's answer to each event, applied: the jobs become the live ones, then the effects run. */
  private dispatch(...events: JobEvent[]): void {
    let structural = false;
    for (const e of events) structural = this.apply(reduceJobs(this.jobsById, e), e.type === 'synced') || structural;
    if (structural && !this.disposed) this.changeEmitter.fire(undefined);
  }

  /** Dispatches an event that adds a job; returns it (as built, should another window have removed it meanwhile). */
  private added(id: string, e: JobEvent): AgentJob {
    const r = reduceJobs(this.jobsById, e);
    if (this.apply(r) && !this.disposed) this.changeEmitter.fire(undefined);
    return this.jobsById.get(id) ?? r.jobs.get(id)!;
  }

  /** Returns whether jobs came or went (the caller tells the tree once). */
  private apply({ jobs, effects }: Reduced, rearm = false): boolean {
    this.adopt(jobs);
    let structural = false;
    for (const fx of effects) {
      if (fx.kind === 'structural') structural = true;
      else if (fx.kind === 'persist') {
        const job = this.jobsById.get(fx.id);
        if (job) this.persist(job);
      } else if (fx.kind === 'follow') this.follower.follow(fx.id);
      else if (fx.kind === 'pollSoon') this.follower.pollSoon(fx.id);
      else if (fx.kind === 'changed') this.changed(fx.id);
      else if (fx.kind === 'tombstone') this.repo.remove(fx.id);
      else {
        this.saves.forget(fx.id);
        this.follower.forget(fx.id);
      }
    }
    if (structural && rearm) this.follower.arm();
    return structural;
  }

  /**
   * The reducer's jobs become the live ones. A job still known keeps its object: the follower's runs hold it
   * across their requests and the run engine writes what it reads into it.
   */
  private adopt(next: JobsView): void {
    if (next === this.jobsById) return;
    for (const id of [...this.jobsById.keys()]) if (!next.has(id)) this.jobsById.delete(id);
    for (const [id, job] of next) {
      const live = this.jobsById.get(id);
      if (!live) this.jobsById.set(id, job);
      else if (live !== job) Object.assign(live, job);
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
    const res = await this.follower.request((backend) =>
      backend.submit(request, {
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(extraModels.length ? { extraModels } : {}),
      }),
    );
    const job = submittedJob(request, res, this.timers.now());
    const saved = await this.saves.first(job.id, () => this.persist(job));
    if (this.disposed) return job;
    if (!saved) {
      this.opts.onLog?.(
        `agent jobs: job ${job.id} started but is NOT saved in the editor's storage yet; it is shown and saving is retried (if this window closes first, Refresh finds it in the service's job list)`,
      );
    }
    this.dispatch({ type: 'submitted', job });
    if (!saved) this.saves.shownBeforeSaved(job.id);
    return this.require(job.id);
  }

  /** Whether storage has refused this job's record and a retry is pending (the job would not survive a reload yet). */
  isUnsaved(id: string): boolean {
    return this.saves.isUnsaved(id);
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
      return backend.answerApproval({
        threadId,
        approvalId: pending.id,
        decision,
        ...(callIds ? { callIds } : {}),
        ...(always !== undefined ? { always } : {}),
      });
    });
    const answered = pending.kind === 'calls' ? (callIds ?? pending.calls.flatMap((c) => (c.id ? [c.id] : []))) : [];
    this.save({
      ...job,
      pendingApproval: {
        ...pending,
        resolution: {
          approved: decision === 'approve',
          callIds: decision === 'approve' ? answered : [],
          always: always === true,
          byRunId: res.id,
        },
      },
    });
    if (res.id === id) {
      this.follower.pollSoon(id);
      return job;
    }
    const said =
      decision === 'approve' ? (pending.kind === 'terms' ? 'Agreed to the terms.' : 'Approved.') : 'Declined.';
    const turn = this.added(res.id, { type: 'turn', said, threadId, res, now: this.timers.now() });
    // The answered turn handed over to the next one: its record says how it ended (the service's word, read now).
    this.follower.pollSoon(id);
    return turn;
  }

  /**
   * Follows a run this store may not know yet (the turn a busy thread says is still running): polled
   * soon when known, otherwise added as a job from the service.
   */
  track(id: string, known: { prompt?: string; threadId?: string } = {}): AgentJob {
    return this.added(id, { type: 'tracked', id, ...known, now: this.timers.now() });
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
      if (job.pollError) this.save({ ...job, pollError: undefined });
      if (isActive(job)) this.follower.pollSoon(job.id);
    }
    this.sync();
    let listError: unknown;
    if (this.opts.canList && (await this.opts.canList())) {
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

  /** The raw trace response, re-read from the service. */
  traceResponse(id: string): Promise<AgentTraceResponse> {
    return this.follower.traceResponse(this.require(id));
  }

  snapshot(id: string, snapshotId: string): Promise<AgentSnapshotResponse> {
    return this.follower.snapshot(id, snapshotId);
  }

  /** Forgets a job (and keeps it out of later job-list reads). Polling of it stops. */
  remove(id: string): void {
    this.dispatch({ type: 'removed', id });
  }

  /** Resolves once everything changed so far has been written to storage. */
  flush(): Promise<void> {
    return this.repo.flush();
  }

  /** Stops everything; a write storage refused is tried once more (flush() resolves once it has been). */
  /** Resolves once each refused write was tried once more (deactivate waits for it, so a new job is not lost). */
  dispose(): Promise<void> {
    this.disposed = true;
    const writes = this.repo.dispose();
    this.saves.dispose();
    this.follower.dispose();
    if (this.syncTimer !== undefined) this.timers.clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    this.changeEmitter.dispose();
    this.endEmitter.dispose();
    return writes;
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
    const res = await this.follower.request((backend) => backend.listAll({ maxPages: this.opts.maxListPages ?? 2 }));
    const now = this.timers.now();
    this.dispatch(
      ...(Array.isArray(res.agents) ? res.agents : []).map((entry): JobEvent => ({
        type: 'listed',
        entry,
        removed: this.repo.isRemoved(entry?.id),
        now,
      })),
    );
    if (res.stopped === 'other-origin')
      this.opts.onLog?.(
        "agent jobs: the job list's next page is on another address; not followed (the key is only sent to the configured service)",
      );
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
    if (!this.jobsById.has(job.id)) {
      if (merged) Object.assign(job, merged);
      return;
    }
    if (this.apply(reduceJobs(this.jobsById, { type: 'observed', job, merged }))) this.changeEmitter.fire(undefined);
  }
}
