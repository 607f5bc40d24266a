// The agent job store: the shell around the jobs' pure reducer (jobEvents.ts). Its jobs are one immutable map,
// replaced by each event's next state; it carries out the effects with the repository (storage, many windows) and the
// follower (`runs`: reads and requests), and says each change once (`onDidChangeJob`). vscode-free.
import { DEFAULT_POLL_TIMING, type PollTiming } from '../agentRun/pollSchedule';
import type { AgentSubmitParams } from '../api/agent/submitSchema';
import { errorReason } from '../words/failureWords';
import { Emitter, type Event } from './emitter';
import { type FollowerOptions, JobFollower, type RunView } from './jobFollower';
import { jobChanges, type JobEvent, type JobsView, reduceJobs, type Reduced, submittedJob } from './jobEvents';
import { type AgentJob, isActive } from './jobModel';
import type { RecordStorage } from '../storage/sharedRecords';
import { isWaiting, termsAcceptCalls } from '../agentRun/approval';
import { JobRepository, NewJobSaves, type PruneLimits } from './jobRepository';
import { systemTimers, type Timers } from './jobPoller';

export interface JobStoreOptions extends Omit<FollowerOptions, 'timers' | 'timing'> {
  storage: RecordStorage;
  timers?: Timers;
  timing?: PollTiming;
  /** Pages of the service's job list read by `refresh()`. */
  maxListPages?: number;
  /** `devIndex.agent.extraModels`: model names newer than this build, accepted at submission. */
  extraModels?: () => readonly string[];
  /** Whether the service's job list can be read (it needs a key). */
  canList?: () => boolean | Promise<boolean>;
  /** How often a visible store looks for jobs other windows started or removed (default 5 s). */
  syncEveryMs?: number;
  prune?: PruneLimits;
}

/** How the user answered an approval: which calls (all when left out), always, and agreement to terms. */
export interface ApprovalChoice {
  callIds?: string[];
  always?: boolean;
  /** The user explicitly agreed to the terms a `terms` approval shows. */
  acceptTerms?: boolean;
}

type CancelResult = 'requested' | 'already-cancelled' | 'already-finished';

/** What the tree, the documents and the commands read: the jobs, what this window has read of each run, each change. */
export interface JobsReadModel {
  /** Newest first. */
  jobs(): AgentJob[];
  get(id: string): AgentJob | undefined;
  run(id: string): RunView;
  /** Fires with a job id when that job changed, or undefined when jobs were added or removed. */
  readonly onDidChangeJob: Event<string | undefined>;
}

export class JobStore implements JobsReadModel {
  /** The jobs, never changed in place: each event's reduction replaces the map. */
  private state: JobsView;
  private readonly repo: JobRepository;
  /** What this window has read of each run, and the requests for known jobs (results, traces, snapshots). */
  readonly runs: JobFollower;
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
    this.runs = new JobFollower(
      {
        job: (id) => this.state.get(id),
        observed: (before, after) => this.observed(before, after),
        changed: (id) => this.changed(id),
        ended: (id) => this.announceEnd(id),
        keepResult: (id, copy) => this.repo.keep(id, copy),
        kept: (id) => this.repo.kept(id),
        ids: () => this.state.keys(),
      },
      { ...opts, timers: this.timers, timing: opts.timing ?? DEFAULT_POLL_TIMING },
    );
    this.repo = new JobRepository(opts.storage, () => this.timers.now(), opts.onLog, opts.prune, this.timers);
    this.saves = new NewJobSaves(this.repo, this.timers, (id) => this.changed(id));
    // Reading storage starts nothing: `resume()` does.
    this.state = new Map(this.repo.load().map((job) => [job.id, job]));
  }

  /** Prunes old tombstones and listed jobs, resumes polling, and (while visible) watches other windows' changes. */
  resume(): void {
    if (this.resumed || this.disposed) return;
    this.resumed = true;
    this.repo.prune();
    this.sync();
    for (const job of this.state.values()) if (isActive(job)) this.runs.follow(job.id);
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
    for (const e of events) structural = this.apply(reduceJobs(this.state, e), e.type === 'synced') || structural;
    if (structural && !this.disposed) this.changeEmitter.fire(undefined);
  }

  /** Dispatches an event that adds a job; returns it (as built, should another window have removed it meanwhile). */
  private added(id: string, e: JobEvent): AgentJob {
    const r = reduceJobs(this.state, e);
    if (this.apply(r) && !this.disposed) this.changeEmitter.fire(undefined);
    return this.state.get(id) ?? r.jobs.get(id)!;
  }

  /** Returns whether jobs came or went (the caller tells the tree once). */
  private apply({ jobs, effects }: Reduced, rearm = false): boolean {
    this.state = jobs;
    let structural = false;
    for (const fx of effects) {
      if (fx.kind === 'structural') structural = true;
      else if (fx.kind === 'persist') {
        const job = this.state.get(fx.id);
        if (job) this.persist(job);
      } else if (fx.kind === 'follow') this.runs.follow(fx.id);
      else if (fx.kind === 'pollSoon') this.runs.pollSoon(fx.id);
      else if (fx.kind === 'changed') this.changed(fx.id);
      else if (fx.kind === 'tombstone') this.repo.remove(fx.id);
      else {
        this.saves.forget(fx.id);
        this.runs.forget(fx.id);
      }
    }
    if (structural && rearm) this.runs.arm();
    return structural;
  }

  private armSync(): void {
    if (this.syncTimer !== undefined) this.timers.clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    if (this.disposed || !this.resumed || this.runs.hidden) return;
    this.syncTimer = this.timers.setTimeout(() => {
      this.syncTimer = undefined;
      this.sync();
      this.armSync();
    }, this.opts.syncEveryMs ?? 5_000);
  }

  /** Newest first. */
  jobs(): AgentJob[] {
    return [...this.state.values()].sort((a, b) => b.createdAt - a.createdAt);
  }

  get(id: string): AgentJob | undefined {
    return this.state.get(id);
  }

  run(id: string): RunView {
    return this.runs.view(id);
  }

  setHidden(hidden: boolean): void {
    if (this.runs.hidden === hidden) return;
    this.runs.setHidden(hidden);
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
    const res = await this.runs.request((backend) =>
      backend.submit(request, {
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(extraModels.length ? { extraModels } : {}),
      }),
    );
    let job = submittedJob(request, res, this.timers.now());
    // Not in the jobs yet (it is shown once its record has landed): written as it is, merged with any record of it.
    const saved = await this.saves.first(job.id, () => {
      if (!this.disposed) job = this.repo.save(job) ?? job;
    });
    if (this.disposed) return job;
    if (!saved) {
      this.opts.onLog?.(
        `agent jobs: job ${job.id} started but is NOT saved in the editor's storage yet; ` +
          `it is shown and saving is retried (if this window closes first, ` +
          `Refresh finds it in the service's job list)`,
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
      await this.runs.request((backend) => {
        if (!backend.acceptTerms) throw new Error('This client cannot accept terms.');
        return backend.acceptTerms(calls);
      });
    }
    const callIds = decision === 'approve' && pending.kind === 'calls' ? choice.callIds : undefined;
    const always = decision === 'approve' && pending.kind === 'calls' ? choice.always : undefined;
    const res = await this.runs.request((backend) => {
      if (!backend.answerApproval) throw new Error('This client cannot answer approvals.');
      return backend.answerApproval({
        threadId,
        approvalId: pending.id,
        decision,
        ...(callIds ? { callIds } : {}),
        ...(always !== undefined ? { always } : {}),
      });
    });
    this.dispatch({ type: 'answered', id, decision, ...(callIds ? { callIds } : {}), always, byRunId: res.id });
    if (res.id === id) {
      this.runs.pollSoon(id);
      return this.require(id);
    }
    const said =
      decision === 'approve' ? (pending.kind === 'terms' ? 'Agreed to the terms.' : 'Approved.') : 'Declined.';
    const turn = this.added(res.id, { type: 'turn', said, threadId, res, now: this.timers.now() });
    // The answered turn handed over to the next one: its record says how it ended (the service's word, read now).
    this.runs.pollSoon(id);
    return turn;
  }

  /** Follows a run this store may not know yet (a busy thread's running turn): polled soon, else added as a job. */
  track(id: string, known: { prompt?: string; threadId?: string } = {}): AgentJob {
    return this.added(id, { type: 'tracked', id, ...known, now: this.timers.now() });
  }

  async cancel(id: string): Promise<CancelResult> {
    this.require(id);
    this.mark(id, { cancelRequested: true });
    let result: CancelResult = 'requested';
    try {
      await this.runs.request((backend) => backend.cancel(id));
    } catch (e) {
      const reason = errorReason(e);
      if (reason === 'already-cancelled') result = 'already-cancelled';
      else if (reason === 'already-finished') {
        result = 'already-finished';
        this.mark(id, { cancelRequested: false });
      } else {
        this.mark(id, { cancelRequested: false });
        throw e;
      }
    }
    // Either way the run is about to end: look at it now rather than at the backed-off interval.
    this.runs.pollSoon(id);
    return result;
  }

  /**
   * Re-reads the service's job list (with a key) and polls every unfinished job now, clearing a
   * failure that had stopped polling. Resolves with the list error, if any, after doing the rest.
   */
  async refresh(): Promise<{ listError?: unknown }> {
    for (const before of this.state.values()) {
      if (before.pollError) this.save({ ...before, pollError: undefined });
      const job = this.state.get(before.id);
      if (job && isActive(job)) this.runs.pollSoon(job.id);
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

  /** Forgets a job (and keeps it out of later job-list reads). Polling of it stops. */
  remove(id: string): void {
    this.dispatch({ type: 'removed', id });
  }

  /** Resolves once everything changed so far has been written to storage. */
  flush(): Promise<void> {
    return this.repo.flush();
  }

  /** Stops everything. Resolves once each refused write was tried once more (deactivate waits for it, so a new job is not lost). */
  dispose(): Promise<void> {
    this.disposed = true;
    const writes = this.repo.dispose();
    this.saves.dispose();
    this.runs.dispose();
    if (this.syncTimer !== undefined) this.timers.clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    this.changeEmitter.dispose();
    this.endEmitter.dispose();
    return writes;
  }

  /** A run has ended: said once per job, by one window (another window may have told the user already). */
  private announceEnd(id: string): void {
    const job = this.state.get(id);
    if (!job || job.notified) return;
    const told = this.repo.read(id)?.notified === true;
    this.persist({ ...job, notified: true });
    if (!told) this.endEmitter.fire(this.state.get(id) ?? { ...job, notified: true });
  }

  // ---- the service's job list ----

  private async readList(): Promise<void> {
    const res = await this.runs.request((backend) => backend.listAll({ maxPages: this.opts.maxListPages ?? 2 }));
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
    const job = this.state.get(id);
    if (!job) throw new Error(`No agent job ${id} in the list.`);
    return job;
  }

  private changed(id: string): void {
    if (!this.disposed) this.changeEmitter.fire(id);
  }

  /** A change this window shows but does not store on its own (a cancel asked for): written with the job's next save. */
  private mark(id: string, patch: Partial<AgentJob>): void {
    this.dispatch({ type: 'marked', id, patch });
  }

  /** What a read of the service changed (before to after), applied to the job as it is now: other changes meanwhile stay. */
  private observed(before: AgentJob, after: AgentJob): void {
    const now = this.state.get(after.id);
    if (!now) return;
    const patch = jobChanges(before, after);
    if (Object.keys(patch).length) this.save({ ...now, ...patch });
    else this.changed(after.id);
  }

  private save(job: AgentJob): void {
    this.persist(job);
    this.changed(job.id);
  }

  /** Writes this job (merged with what other windows wrote); drops it when another window removed it. */
  private persist(job: AgentJob): void {
    if (this.disposed || !this.state.has(job.id)) return;
    const merged = this.repo.save(job);
    if (this.apply(reduceJobs(this.state, { type: 'observed', job, merged }))) this.changeEmitter.fire(undefined);
  }
}
