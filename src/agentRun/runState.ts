// A run's facts and state, and the pure reducers from a trace or status response to them and to the signals the poll
// schedule needs (runEngine.ts drives them). No vscode, no zod at runtime, no clock: times are passed in.
import { isTerminalStatus } from '../api/agent/agentConstants';
import type { AgentJobRecord, AgentSuggestion, AgentTrace, TraceEvent } from '../api/agent/agentSchemas';
import type { ExchangeSummary, PendingApproval } from '../api/agent/exchangeSchemas';
import { isWaiting } from './approval';
import { eventKey } from './agentTrace';
import { DEFAULT_POLL_TIMING, type ScheduleState, type Signal } from './pollSchedule';

export interface TraceProgress {
  /** Distinct events read so far. */
  eventCount: number;
  lastEventId?: string;
  lastEventAt?: string;
  /** `run.finished` has been read. */
  finished: boolean;
  /** The job predates the engine that records traces (400 on trace): poll status only. */
  unavailable?: boolean;
}

/** What is known about a run: the fields the reducers read and write (the editor's job extends it). */
export interface RunFacts {
  /** The service's status: `processing`, `completed`, `failed`, `cancelled`, or a newer value shown raw. */
  status: string;
  model?: string;
  effort?: string;
  maxCredits?: number;
  creditsUsed?: number;
  /** `run.finished` outcome: succeeded, failed, cancelled, refused, credit_limit_reached... */
  outcome?: string;
  /** `error.code` of `run.finished` (spec 7.3). */
  errorCode?: string;
  /** The status record's `error`, or the `run.finished` error message. */
  error?: string;
  expiresAt?: string;
  /** The final record carried `partial`. */
  hasPartial?: boolean;
  /** The final status record has been read. */
  finalRead?: boolean;
  cancelRequested?: boolean;
  /** The thread this run is a turn of, and which turn (1 for a plain start). */
  threadId?: string;
  threadTurn?: number;
  /** `chat` or `extract` as the service reports it. */
  mode?: string;
  /** A chat run's answer (markdown): the status record's `message`. */
  answer?: string;
  /** Follow-ups the service proposes after this turn. */
  suggestions?: AgentSuggestion[];
  /**
   * The caller's approval the run asked for: paid calls to allow or terms to accept. The run waits
   * while its `resolution` is null (`isWaiting`), whatever its status says; kept once answered.
   */
  pendingApproval?: PendingApproval;
  /** The run's paid tool calls: what it paid, which providers it skipped, terms to accept. */
  exchange?: ExchangeSummary;
  trace: TraceProgress;
}

/** What following a run keeps between polls (not persisted). */
export interface RunState {
  schedule?: ScheduleState;
  events: Map<string, TraceEvent>;
  lastTrace?: AgentTrace;
  lastRecord?: AgentJobRecord;
  lastStatusAt?: number;
  /** When the trace last brought a new event (or following started). */
  lastNewEventAt?: number;
  /** The last progress phase per agent id, to tell a phase change from another message. */
  phases: Map<string, string>;
  /** The largest rise of `creditsUsed` between two reads: about the cost of the costliest step. */
  largestCreditStep: number;
  /** What the trace has said about the end being near (see `nearEnd`). */
  endSignals: { finalizing: boolean; orchestratorFinished: boolean; cancelRequested: boolean; fatalError: boolean };
  /** The trace spoke of an approval (asked for or answered): the next poll reads the status record, which says what waits. */
  approvalNews?: boolean;
}

export function newRunState(): RunState {
  return {
    events: new Map(),
    phases: new Map(),
    largestCreditStep: 0,
    endSignals: { finalizing: false, orchestratorFinished: false, cancelRequested: false, fatalError: false },
  };
}

/** Events whose arrival says the run moved on in a way that matters for when it ends. */
const SIGNIFICANT_TYPES = new Set([
  'artifact.updated',
  'error.occurred',
  'agent.finished',
  'run.cancel_requested',
  'run.finished',
]);

/** An event about the caller's approval (`approval.requested`, `approval.resolved`, or any event carrying an `approvalId`). */
function isApprovalEvent(ev: TraceEvent): boolean {
  return ev.type.startsWith('approval.') || typeof (ev as { approvalId?: unknown }).approvalId === 'string';
}

/** Credits used, as a share of the ceiling, from which a run is treated as near its (credit-limited) end. */
const NEAR_CREDIT_LIMIT = 0.9;

/**
 * How long the trace may bring nothing new before the status record is read once: a safety net for a
 * trace that stalls, and how a run that waits for the caller is noticed (it goes quiet; no trace
 * event says so). 15 s: a waiting run shows as waiting within about that, at one status read per quiet spell.
 */
export const DEFAULT_STATUS_EVERY_MS = DEFAULT_POLL_TIMING.quietMs;

/** An event's time in ms; 0 when it has none (sorts first). */
function eventTime(e: TraceEvent): number {
  return Date.parse(e.occurredAt ?? '') || 0;
}

/**
 * Classifies new events for the schedule and records what they say about the end being near.
 * Significant: a progress phase change (per agent), an artifact update, an agent finishing, an error,
 * a cancel request, the end. Everything else (tool calls, reasoning, messages within a phase,
 * browser sessions, types this client does not know) is routine: the run is busy, not ending.
 */
export function readSignals(run: RunState, added: readonly TraceEvent[]): Signal {
  let signal: Signal = 'none';
  const ordered = [...added].sort(
    (a, b) => eventTime(a) - eventTime(b) || (a.producerSequence ?? 0) - (b.producerSequence ?? 0),
  );
  for (const ev of ordered) {
    const orchestrator = ev.agent?.role === 'orchestrator';
    let significant = SIGNIFICANT_TYPES.has(ev.type);
    if (ev.type === 'progress.reported' && typeof ev.phase === 'string') {
      const agentId = ev.agent?.id ?? '';
      if (run.phases.get(agentId) !== ev.phase) significant = true;
      run.phases.set(agentId, ev.phase);
      if (orchestrator) run.endSignals.finalizing = ev.phase === 'finalizing';
    }
    if (ev.type === 'agent.finished' && orchestrator) run.endSignals.orchestratorFinished = true;
    if (ev.type === 'run.cancel_requested') run.endSignals.cancelRequested = true;
    if (ev.type === 'error.occurred' && ev.error?.retryable === false) run.endSignals.fatalError = true;
    if (isApprovalEvent(ev)) {
      run.approvalNews = true;
      significant = true;
    }
    signal = significant ? 'significant' : signal === 'none' ? 'routine' : signal;
  }
  return signal;
}

/** A trace response applied to the run: new events kept (de-duplicated), the end read from `run.finished`. */
export function applyTrace(
  facts: RunFacts,
  run: RunState,
  trace: AgentTrace,
  now: number,
): { changed: boolean; signal: Signal; added: TraceEvent[] } {
  run.lastTrace = trace;
  // The persisted read mark tells events already seen before a reload from new ones.
  const before = Math.max(facts.trace.eventCount, run.events.size);
  const added: TraceEvent[] = [];
  for (const ev of trace.events) {
    const key = eventKey(ev);
    if (run.events.has(key)) continue;
    run.events.set(key, ev);
    added.push(ev);
  }
  let changed = run.events.size > before;
  const signal = readSignals(run, added);
  if (added.length) {
    run.lastNewEventAt = now;
    facts.trace.eventCount = Math.max(facts.trace.eventCount, run.events.size);
    let last: TraceEvent | undefined;
    for (const ev of run.events.values()) if (!last || eventTime(ev) >= eventTime(last)) last = ev;
    facts.trace.lastEventId = last?.eventId;
    facts.trace.lastEventAt = last?.occurredAt;
  }
  for (const ev of added) {
    if (ev.type !== 'run.finished') continue;
    facts.trace.finished = true;
    facts.outcome = ev.outcome ?? facts.outcome;
    // The outcome is final: the status follows from it until the final record says more.
    if (!isTerminalStatus(facts.status) && ev.outcome)
      facts.status = ev.outcome === 'succeeded' ? 'completed' : 'failed';
    if (ev.error?.code) facts.errorCode = ev.error.code;
    if (ev.error?.message && !facts.error) facts.error = ev.error.message;
    changed = true;
  }
  if (
    typeof trace.creditsUsed === 'number' &&
    facts.creditsUsed !== undefined &&
    trace.creditsUsed > facts.creditsUsed
  ) {
    run.largestCreditStep = Math.max(run.largestCreditStep, trace.creditsUsed - facts.creditsUsed);
  }
  if (typeof trace.creditsUsed === 'number' && trace.creditsUsed !== facts.creditsUsed) {
    facts.creditsUsed = trace.creditsUsed;
    changed = true;
  }
  return { changed, signal: signal === 'none' && changed ? 'routine' : signal, added };
}

/** A status record applied to the run. Returns whether anything changed. */
export function applyStatus(facts: RunFacts, record: AgentJobRecord): boolean {
  let changed = false;
  const set = <K extends keyof RunFacts>(k: K, v: RunFacts[K] | undefined): void => {
    if (v !== undefined && facts[k] !== v) {
      facts[k] = v;
      changed = true;
    }
  };
  set('status', typeof record.status === 'string' ? record.status : undefined);
  set('creditsUsed', typeof record.creditsUsed === 'number' ? record.creditsUsed : undefined);
  set('error', typeof record.error === 'string' && record.error ? record.error : undefined);
  set('model', typeof record.model === 'string' ? record.model : undefined);
  set('effort', typeof record.effort === 'string' ? record.effort : undefined);
  set('expiresAt', typeof record.expiresAt === 'string' ? record.expiresAt : undefined);
  if (record.partial !== undefined && record.partial !== null) set('hasPartial', true);
  set('threadId', typeof record.threadId === 'string' ? record.threadId : undefined);
  set('threadTurn', typeof record.threadTurn === 'number' ? record.threadTurn : undefined);
  set('mode', typeof record.mode === 'string' ? record.mode : undefined);
  set('answer', typeof record.message === 'string' && record.message ? record.message : undefined);
  if (
    record.suggestions &&
    record.suggestions.length &&
    JSON.stringify(record.suggestions) !== JSON.stringify(facts.suggestions)
  ) {
    facts.suggestions = record.suggestions.map((x) => ({ label: x.label, prompt: x.prompt }));
    changed = true;
  }
  // `pendingApproval` stays on the record once answered (with its `resolution`); a final status does
  // not end it: a turn can end waiting for the caller.
  const approval = record.pendingApproval ?? undefined;
  if (JSON.stringify(approval) !== JSON.stringify(facts.pendingApproval)) {
    if (approval) facts.pendingApproval = approval;
    else delete facts.pendingApproval;
    changed = true;
  }
  const exchange = record.exchange ?? undefined;
  if (exchange && JSON.stringify(exchange) !== JSON.stringify(facts.exchange)) {
    facts.exchange = exchange;
    changed = true;
  }
  if (isTerminalStatus(record.status)) set('finalRead', true);
  return changed;
}

/**
 * Whether the run, as known now, says its end is near: the orchestrator is finalizing or has
 * finished, a cancel was requested, an error that will not be retried occurred, or the credit
 * ceiling is close: within 10% of it, or within the largest rise seen so far (one more costly step
 * would hit it). The schedule polls fast only then.
 */
export function nearEnd(facts: RunFacts, run: RunState): boolean {
  const s = run.endSignals;
  const used = facts.creditsUsed;
  const credits =
    facts.maxCredits !== undefined &&
    used !== undefined &&
    used > 0 &&
    (used >= NEAR_CREDIT_LIMIT * facts.maxCredits || used + run.largestCreditStep >= facts.maxCredits);
  return (
    s.finalizing ||
    s.orchestratorFinished ||
    s.cancelRequested ||
    s.fatalError ||
    facts.cancelRequested === true ||
    facts.status === 'cancelling' ||
    credits
  );
}

/**
 * Whether this poll reads the status record: always without a trace; once, in the poll that sees the
 * end (the final record holds the result, the partial result and the credits a cancelled run
 * spent); and as a safety net when the trace has brought nothing new for `statusEveryMs`.
 */
export function needsStatus(
  facts: RunFacts,
  run: RunState,
  now: number,
  statusEveryMs = DEFAULT_STATUS_EVERY_MS,
): boolean {
  const quietSince = Math.max(run.lastNewEventAt ?? now, run.lastStatusAt ?? now);
  // While a run waits for the caller, each poll reads the record: it is what says the wait is over; and
  // once answered until its record is final (an answered turn hands over to the next one and ends).
  return (
    facts.trace.unavailable === true ||
    run.approvalNews === true ||
    isWaiting(facts) ||
    (facts.pendingApproval !== undefined && !isTerminalStatus(facts.status)) ||
    ((facts.trace.finished || isTerminalStatus(facts.status)) && !facts.finalRead) ||
    now - quietSince >= statusEveryMs
  );
}
