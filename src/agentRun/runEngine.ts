// The run engine: one poll step of an agent run over an injected backend, and a driver that follows one run with an
// injected clock (the CLI's `agent start --wait`); the editor's poller runs the same step for many jobs on one timer.
// The reducers it applies are runState.ts's. No vscode, no zod at runtime, no timers of its own.
import { failureOf } from '../api/failure';
import { isTerminalStatus } from '../api/agent/agentConstants';
import { isPermanentReason, reasonOf } from '../api/agent/agentReasons';
import type { AgentJobRecord, AgentTrace, TraceEvent } from '../api/agent/agentSchemas';
import { isWaiting } from './approval';
import { orderEvents, runFinished } from './agentTrace';
import {
  DEFAULT_POLL_TIMING,
  dueAt,
  observe,
  type PollObservation,
  type PollTiming,
  type Signal,
  startSchedule,
} from './pollSchedule';
import { applyStatus, applyTrace, nearEnd, needsStatus, newRunState, type RunFacts, type RunState } from './runState';

/** The two calls following a run needs. AgentClient has them; errors carry a stamped reason. */
interface RunBackend {
  trace(jobId: string): Promise<AgentTrace>;
  status(jobId: string): Promise<AgentJobRecord>;
}

interface PollStep {
  observation: PollObservation;
  changed: boolean;
  /** Events new in this poll, in reading order. */
  added: TraceEvent[];
  /** The terminal status record, when this poll read it. */
  finalRecord?: AgentJobRecord;
  /** The failure behind an `error`, `not-found` or `fatal` observation. */
  error?: unknown;
}

interface PollOptions {
  now(): number;
  timing?: PollTiming;
  statusEveryMs?: number;
  /** Wraps each request (the editor's in-flight limiter). */
  call?: <T>(fn: () => Promise<T>) => Promise<T>;
}

/** One poll of one run: the trace (unless the job has none), the status when needed, reducers applied, schedule moved on. */
export async function pollRun(
  jobId: string,
  facts: RunFacts,
  run: RunState,
  backend: RunBackend,
  o: PollOptions,
): Promise<PollStep> {
  const call = o.call ?? (<T>(fn: () => Promise<T>) => fn());
  const timing = o.timing ?? DEFAULT_POLL_TIMING;
  run.schedule ??= startSchedule(o.now(), timing);
  let observation: PollObservation;
  let changed = false;
  let signal: Signal = 'none';
  let added: TraceEvent[] = [];
  let finalRecord: AgentJobRecord | undefined;
  let error: unknown;
  try {
    // A run that waits for the caller does not move: its record alone says when the wait is over.
    if (!facts.trace.unavailable && !isWaiting(facts)) {
      try {
        const trace = await call(() => backend.trace(jobId));
        const r = applyTrace(facts, run, trace, o.now());
        changed ||= r.changed;
        signal = r.signal;
        added = orderEvents(r.added);
      } catch (e) {
        if (reasonOf(e) !== 'no-trace') throw e;
        facts.trace.unavailable = true;
        changed = true;
        signal = 'significant';
      }
    }
    if (needsStatus(facts, run, o.now(), o.statusEveryMs ?? timing.quietMs)) {
      const record = await call(() => backend.status(jobId));
      run.approvalNews = false;
      run.lastRecord = record;
      run.lastStatusAt = o.now();
      const before = facts.status;
      changed = applyStatus(facts, record) || changed;
      if (isTerminalStatus(record.status)) finalRecord = record;
      if (facts.status !== before) signal = 'significant';
      else if (changed && signal === 'none') signal = 'routine';
    }
    observation = isWaiting(facts)
      ? { kind: 'waiting' }
      : isTerminalStatus(facts.status)
        ? { kind: 'finished' }
        : { kind: 'progress', signal, nearEnd: nearEnd(facts, run) };
  } catch (e) {
    error = e;
    const reason = reasonOf(e);
    observation =
      reason === 'not-found'
        ? { kind: 'not-found' }
        : reason !== undefined && isPermanentReason(reason)
          ? { kind: 'fatal' }
          : { kind: 'error', retryAfterMs: failureOf(e).retryAfterMs };
  }
  // Without a trace there are no late events to wait for.
  run.schedule = observe(
    run.schedule,
    observation,
    o.now(),
    facts.trace.unavailable ? { ...timing, graceMs: 0 } : timing,
  );
  return { observation, changed, added, finalRecord, error };
}

export interface FollowClock {
  now(): number;
  /** Rejects when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

interface FollowOptions {
  jobId: string;
  backend: RunBackend;
  clock: FollowClock;
  /** What is known at the start (e.g. the submitted ceiling). */
  facts?: Partial<RunFacts>;
  timing?: PollTiming;
  statusEveryMs?: number;
  /** Give up after this long (the run keeps going on the service). */
  maxWaitMs?: number;
  signal?: AbortSignal;
  /** New events, in reading order, as they arrive. */
  onEvents?: (events: TraceEvent[]) => void;
  /** Once, when the job turns out to have no trace. */
  onNoTrace?: () => void;
  /** Stop following once the run waits for the caller (`pendingApproval`): it goes on only after an answer. */
  stopWhenWaiting?: boolean;
}

interface FollowResult {
  facts: RunFacts;
  /** The final status record (read at the end if the polls had not). */
  record?: AgentJobRecord;
  finished?: TraceEvent;
  /** maxWaitMs passed before the run ended. */
  timedOut: boolean;
  /** The run waits for the caller (`facts.pendingApproval` says what for); only with `stopWhenWaiting`. */
  waiting?: boolean;
}

/**
 * Follows one run to its end on the same schedule as the editor's tree (fast at first and after
 * news, backing off while only routine events come, fast near the end, a grace read for late
 * events). Rejects with the failure when polling cannot go on (not found, key rejected...).
 */
export async function followRun(o: FollowOptions): Promise<FollowResult> {
  const timing = o.timing ?? DEFAULT_POLL_TIMING;
  const facts: RunFacts = {
    status: 'processing',
    ...o.facts,
    trace: { eventCount: 0, finished: false, ...o.facts?.trace },
  };
  const run = newRunState();
  const started = o.clock.now();
  run.schedule = startSchedule(started, timing);
  run.lastNewEventAt = started;
  run.lastStatusAt = started;
  let record: AgentJobRecord | undefined;
  for (;;) {
    const due = dueAt(run.schedule!, false, timing);
    if (due === undefined) break;
    const now = o.clock.now();
    if (o.maxWaitMs !== undefined && due - started > o.maxWaitMs)
      return { facts, record, finished: runFinished([...run.events.values()]), timedOut: true };
    if (due > now) await o.clock.sleep(due - now, o.signal);
    const wasUnavailable = facts.trace.unavailable === true;
    const step = await pollRun(o.jobId, facts, run, o.backend, {
      now: () => o.clock.now(),
      timing,
      statusEveryMs: o.statusEveryMs,
    });
    if (!wasUnavailable && facts.trace.unavailable) o.onNoTrace?.();
    if (step.added.length) o.onEvents?.(step.added);
    if (step.finalRecord) record = step.finalRecord;
    if (step.observation.kind === 'not-found' || step.observation.kind === 'fatal') throw step.error;
    if (o.stopWhenWaiting && isWaiting(facts)) {
      return { facts, record: run.lastRecord, finished: undefined, timedOut: false, waiting: true };
    }
  }
  if (!record) {
    record = await o.backend.status(o.jobId);
    applyStatus(facts, record);
  }
  return { facts, record, finished: runFinished([...run.events.values()]), timedOut: false };
}
