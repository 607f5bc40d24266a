// The follower: what this window has read of each job's run (the run engine's state, the trace read so far) and every
// request made for a known job, through one poller timer and one in-flight limit. It never changes a job: each read
// works on a copy and hands the store the job before and after it (FollowerHost.observed). vscode-free.
import { pollRun } from '../agentRun/runEngine';
import { applyStatus, applyTrace, DEFAULT_STATUS_EVERY_MS, newRunState, type RunState } from '../agentRun/runState';
import { observe, type PollTiming } from '../agentRun/pollSchedule';
import type { AgentJobRecord, AgentTrace, TraceEvent } from '../api/agent/agentSchemas';
import type { AgentBackend, AgentSnapshotResponse } from './agentBackend';
import { describeAgentError, errorReason } from '../words/failureWords';
import { type AgentJob, isPastExpiry, isTerminalStatus, type KeptResult, MAX_KEPT_RESULT_CHARS } from './jobModel';
import { JobPoller, Limiter, type Timers } from './jobPoller';

type TraceLoad = { state: 'unloaded' | 'loading' | 'loaded' | 'unavailable' } | { state: 'error'; message: string };

/** What Open Result (or Open Partial Result) shows: from the service, or the copy kept in this editor. */
interface ResultView {
  which: 'result' | 'partial';
  status: string;
  /** Absent when the job has no such data. */
  data?: unknown;
  error?: string;
  source: 'service' | 'kept' | 'none';
  /** Set when the job has expired on the service (ISO time). */
  expiredOn?: string;
  /** A chat run's answer (markdown), from the service or the kept copy. */
  message?: string;
}

/** What this window has read of one job's run (not persisted: no events until the trace is read this session). */
export interface RunView {
  events: readonly TraceEvent[];
  trace: TraceLoad;
  /** Whether the job is being followed (its schedule is running). */
  polling: boolean;
}

/** What the follower needs of the store that owns the jobs. */
interface FollowerHost {
  job(id: string): AgentJob | undefined;
  /**
   * A read of the service ended: the job as the read began and as it left it. The store applies what the read
   * changed to the job as it is now, writes it (merged with other windows) and tells the tree.
   */
  observed(before: AgentJob, after: AgentJob): void;
  /** The job's run view changed in a way that is not stored (its trace load state): tell the tree. */
  changed(id: string): void;
  /** The job's run has ended (called at most once per job by maybeEnded). */
  ended(id: string): void;
  keepResult(id: string, copy: KeptResult): void;
  kept(id: string): KeptResult | undefined;
  /** The ids of the jobs the store holds. */
  ids(): Iterable<string>;
}

export interface FollowerOptions {
  /** Called on first use, so the client bundle loads only when a request is made. */
  backend: () => AgentBackend | Promise<AgentBackend>;
  timers: Timers;
  timing: PollTiming;
  /** Requests in flight at most, over all jobs. */
  maxInFlight?: number;
  /**
   * The trace alone tells progress and the end, so the status record is read only when the trace has brought
   * nothing new for this long, as a safety net against a trace that stalls (default 5 minutes).
   */
  statusEveryMs?: number;
  hidden?: boolean;
  onLog?: (message: string) => void;
}

/** Per job: the engine's run state, plus the tree's trace load. */
interface Runtime extends RunState {
  polling: boolean;
  trace: TraceLoad;
}

export class JobFollower {
  private readonly runtime = new Map<string, Runtime>();
  private readonly limiter: Limiter;
  private readonly poller: JobPoller;
  private readonly statusEveryMs: number;
  private disposed = false;

  constructor(
    private readonly host: FollowerHost,
    private readonly o: FollowerOptions,
  ) {
    this.limiter = new Limiter(o.maxInFlight ?? 2);
    this.statusEveryMs = o.statusEveryMs ?? DEFAULT_STATUS_EVERY_MS;
    this.poller = new JobPoller({
      timers: o.timers,
      timing: o.timing,
      hidden: o.hidden,
      entries: () =>
        [...this.host.ids()].flatMap((id) => {
          const rt = this.runtime.get(id);
          return rt ? [[id, rt] as [string, Runtime]] : [];
        }),
      poll: (id) => this.poll(id, this.rt(id)),
    });
  }

  /** One request to the service, counted against the in-flight limit. */
  async request<T>(fn: (backend: AgentBackend) => Promise<T>): Promise<T> {
    const backend = await this.o.backend();
    return this.limiter.run(() => fn(backend));
  }

  get inFlight(): number {
    return this.limiter.inFlight;
  }

  get hidden(): boolean {
    return this.poller.hidden;
  }

  setHidden(hidden: boolean): void {
    this.poller.setHidden(hidden);
  }

  /** The time the next request is due; undefined when nothing is scheduled. */
  nextPollAt(): number | undefined {
    return this.poller.nextPollAt();
  }

  /** Follows a job from now: its first poll one fast interval away. */
  follow(id: string): void {
    const rt = this.rt(id);
    const now = this.o.timers.now();
    rt.lastStatusAt ??= now;
    rt.lastNewEventAt ??= now;
    this.poller.start(rt);
  }

  /** Poll this job at the next opportunity, restarting a stopped schedule. */
  pollSoon(id: string): void {
    this.poller.pollSoon(this.rt(id));
  }

  /** Stops following a job and drops what was read of it. */
  forget(id: string): void {
    if (this.runtime.delete(id)) this.poller.arm();
  }

  /** Re-arms the timer after jobs came or went. */
  arm(): void {
    this.poller.arm();
  }

  /** What this window has read of the job's run. */
  view(id: string): RunView {
    const rt = this.runtime.get(id);
    const s = rt?.schedule;
    return {
      events: [...(rt?.events.values() ?? [])],
      trace: this.host.job(id)?.trace.unavailable ? { state: 'unavailable' } : (rt?.trace ?? { state: 'unloaded' }),
      polling: s !== undefined && !s.stopped,
    };
  }

  /** Reads the trace once for a job that is not being polled (e.g. after a reload, or from the list). */
  async loadTrace(id: string): Promise<void> {
    const before = this.require(id);
    const rt = this.rt(id);
    if (before.trace.unavailable || rt.trace.state === 'loading' || rt.polling) return;
    rt.trace = { state: 'loading' };
    this.host.changed(id);
    const job = draftOf(before);
    try {
      const trace = await this.request((b) => b.trace(id));
      if (this.disposed) return;
      applyTrace(job, rt, trace, this.o.timers.now());
      rt.trace = { state: 'loaded' };
    } catch (e) {
      const reason = errorReason(e);
      if (reason === 'no-trace') job.trace.unavailable = true;
      else if (reason === 'not-found') {
        this.markGone(job);
        rt.trace = { state: 'loaded' };
      } else rt.trace = { state: 'error', message: describeAgentError(e) };
    }
    this.host.observed(before, job);
    this.maybeEnded(id);
  }

  /** The raw trace response, re-read from the service. */
  async traceResponse(id: string): Promise<AgentTrace> {
    const before = this.require(id);
    const rt = this.rt(id);
    const trace = await this.request((b) => b.trace(id));
    const job = draftOf(before);
    applyTrace(job, rt, trace, this.o.timers.now());
    rt.trace = { state: 'loaded' };
    this.host.observed(before, job);
    return trace;
  }

  snapshot(id: string, snapshotId: string): Promise<AgentSnapshotResponse> {
    return this.request((b) => b.snapshot(id, snapshotId));
  }

  /**
   * A job's result (or its partial result): from the service while it keeps the job, else the copy
   * kept in this editor's storage. A 404 after the job's expiry is not an error: the view says when it
   * expired and shows what is kept.
   */
  async result(id: string, which: 'result' | 'partial' = 'result'): Promise<ResultView> {
    const before = this.require(id);
    const rt = this.rt(id);
    const job = draftOf(before);
    if (!job.expired && !job.notFound) {
      let record = rt.lastRecord && isTerminalStatus(rt.lastRecord.status) ? rt.lastRecord : undefined;
      if (!record) {
        try {
          record = await this.request((b) => b.status(id));
        } catch (e) {
          if (errorReason(e) !== 'not-found') throw e;
          this.markGone(job);
          this.host.observed(before, job);
        }
      }
      if (record) {
        rt.lastRecord = record;
        let changed = applyStatus(job, record);
        if (isTerminalStatus(record.status)) changed = this.keep(job, record) || changed;
        if (changed) this.host.observed(before, job);
        const data = which === 'result' ? record.data : record.partial;
        return {
          which,
          status: record.status,
          data,
          error: record.error ?? undefined,
          source: data === undefined ? 'none' : 'service',
          ...(typeof record.message === 'string' && record.message ? { message: record.message } : {}),
        };
      }
    }
    const kept = this.host.kept(id);
    const data = which === 'result' ? kept?.data : kept?.partial;
    return {
      which,
      status: kept?.status ?? job.status,
      data,
      error: kept?.error ?? job.error,
      source: data === undefined ? 'none' : 'kept',
      expiredOn: job.expired ? job.expiresAt : undefined,
      ...(kept?.message !== undefined ? { message: kept.message } : {}),
    };
  }

  /** Tells the host once per job, when the end is known: a terminal status plus the trace's outcome (or no trace). */
  private maybeEnded(id: string): void {
    const job = this.host.job(id);
    if (!job || job.notified) return;
    const stopped = this.runtime.get(id)?.schedule?.stopped !== undefined;
    const ended =
      job.notFound ||
      job.expired ||
      (isTerminalStatus(job.status) &&
        (job.trace.finished || job.trace.unavailable || stopped) &&
        (job.finalRead === true || stopped));
    if (ended) this.host.ended(id);
  }

  dispose(): void {
    this.disposed = true;
    this.poller.dispose();
  }

  /** One poll through the run engine; what it found is kept, shown and (at the end) announced. */
  private async poll(id: string, rt: Runtime): Promise<void> {
    if (!this.host.job(id) || !rt.schedule) return;
    const backend = await this.o.backend();
    const before = this.host.job(id);
    if (this.disposed || !before) return;
    const job = draftOf(before);
    const step = await pollRun(id, job, rt, backend, {
      now: () => this.o.timers.now(),
      timing: this.o.timing,
      statusEveryMs: this.statusEveryMs,
      call: (fn) => this.limiter.run(fn),
    });
    if (this.disposed || !this.host.job(id)) return;
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
    if (step.error !== undefined) this.o.onLog?.(`agent job ${id}: poll failed: ${describeAgentError(step.error)}`);
    if (changed) this.host.observed(before, job);
    this.maybeEnded(id);
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
    const hasAnswer = typeof record.message === 'string' && record.message !== '';
    if (
      job.kept &&
      job.kept.result === hasData &&
      job.kept.partial === hasPartial &&
      (job.kept.answer === true) === hasAnswer
    )
      return !wasRead;
    if (!hasData && !hasPartial && !hasAnswer) return !wasRead;
    const copy: KeptResult = {
      jobId: job.id,
      status: record.status,
      savedAt: this.o.timers.now(),
      ...(hasData ? { data: record.data } : {}),
      ...(hasPartial ? { partial: record.partial } : {}),
      ...(hasAnswer ? { message: record.message! } : {}),
      ...(record.error ? { error: record.error } : {}),
      ...(record.creditsUsed !== undefined ? { creditsUsed: record.creditsUsed } : {}),
      ...(record.expiresAt ? { expiresAt: record.expiresAt } : {}),
    };
    if (JSON.stringify(copy).length > MAX_KEPT_RESULT_CHARS) {
      this.o.onLog?.(`agent job ${job.id}: result larger than ${MAX_KEPT_RESULT_CHARS} characters, not kept locally`);
      return !wasRead;
    }
    this.host.keepResult(job.id, copy);
    job.kept = { result: hasData, partial: hasPartial, ...(hasAnswer ? { answer: true } : {}) };
    return true;
  }

  /** 404 on a job: expired when its expiry has passed, else unknown (or another team's). */
  private markGone(job: AgentJob): void {
    const now = this.o.timers.now();
    if (isPastExpiry(job, now)) job.expired = true;
    else job.notFound = true;
    const rt = this.runtime.get(job.id);
    if (rt?.schedule) rt.schedule = observe(rt.schedule, { kind: 'not-found' }, now, this.o.timing);
  }

  private require(id: string): AgentJob {
    const job = this.host.job(id);
    if (!job) throw new Error(`No agent job ${id} in the list.`);
    return job;
  }

  private rt(id: string): Runtime {
    let rt = this.runtime.get(id);
    if (!rt) {
      rt = { ...newRunState(), polling: false, trace: { state: 'unloaded' } };
      this.runtime.set(id, rt);
    }
    return rt;
  }
}

/** The copy a read works on (the run engine writes what it reads into it); the job itself is never changed. */
function draftOf(job: AgentJob): AgentJob {
  return { ...job, trace: { ...job.trace } };
}
