// A scripted agent backend for the store tests: each job is a timeline of trace events on the test's
// clock, plus failures to inject and a gate to hold requests in flight.
import type { AgentBackend, AgentSnapshotResponse } from '../../../src/agents/agentBackend';
import type { AgentListAll } from '../../../src/api/agent/agentClient';
import type { AgentJobRecord, AgentTrace, EventAgent, TraceEvent } from '../../../src/api/agent/agentSchemas';
import type { AgentSubmitParams } from '../../../src/api/agent/submitSchema';

type AgentTraceAgent = EventAgent;
type AgentTraceEvent = TraceEvent;

export interface Call {
  method: string;
  jobId?: string;
  at: number;
}

export interface ScriptedJob {
  id: string;
  /** Event offsets are relative to `startedAt`. */
  startedAt: number;
  events: Array<{ at: number; event: AgentTraceEvent }>;
  /** Offset at which the status turns terminal. */
  endAt?: number;
  endStatus?: 'completed' | 'failed' | 'cancelled';
  endError?: string;
  credits?: number;
  /** `partial` of the final record (a run stopped by its credit ceiling). */
  partial?: unknown;
  /** ISO expiry the status record reports; after `expireAt` (offset) every call answers 404. */
  expiresAt?: string;
  expireAt?: number;
  noTrace?: boolean;
  data?: unknown;
  /** Fields every status record of the job carries (thread, mode, message, suggestions, pendingApproval). */
  record?: Record<string, unknown>;
}

/** The reason AgentClient would stamp, for the statuses the fake answers with. */
function reasonFor(status: number, error: string): string {
  if (status === 400 && /only available for/.test(error)) return 'no-trace';
  if (status === 404) return /snapshot/i.test(error) ? 'snapshot-not-found' : 'not-found';
  if (status === 409) return /cancelled/.test(error) ? 'already-cancelled' : 'already-finished';
  if (status === 401) return 'auth';
  if (status === 403) return 'forbidden';
  if (status === 429) return 'rate-limit';
  if (status >= 500) return 'service';
  return 'other';
}

export class HttpishError extends Error {
  readonly reason: string;
  constructor(
    readonly status: number,
    readonly error: string,
    readonly retryable = false,
    readonly retryAfterMs?: number,
    readonly kind = 'http',
    reason?: string,
  ) {
    super(`${error} (HTTP ${status})`);
    this.reason = reason ?? reasonFor(status, error);
  }
}

export const ORCH: AgentTraceAgent = { id: 'orch', role: 'orchestrator', name: 'orchestrator', parentId: undefined };
export const SYSTEM: AgentTraceAgent = { id: 'sys', role: 'system', name: 'system', parentId: undefined };

let nextEventId = 0;

export function ev(
  type: string,
  agent: AgentTraceAgent,
  at: number,
  seq: number,
  extra: Record<string, unknown> = {},
): AgentTraceEvent {
  return {
    schemaVersion: 1,
    eventId: `e${++nextEventId}`,
    runId: 'run',
    occurredAt: new Date(at).toISOString(),
    producerSequence: seq,
    agent,
    type,
    ...extra,
  } as AgentTraceEvent;
}

export class FakeBackend implements AgentBackend {
  readonly calls: Call[] = [];
  readonly jobs = new Map<string, ScriptedJob>();
  /** Thrown by the next calls whose method matches (in order). */
  readonly failures: Array<{ method: string; error: unknown }> = [];
  listJobs: AgentListAll = { agents: [], stopped: 'end' };
  concurrent = 0;
  maxConcurrent = 0;
  private gate: Promise<void> | undefined;
  private openGate: (() => void) | undefined;
  private submitted = 0;
  readonly submissions: AgentSubmitParams[] = [];

  constructor(readonly now: () => number) {}

  hold(): void {
    this.gate = new Promise((r) => {
      this.openGate = r;
    });
  }

  release(): void {
    this.openGate?.();
    this.gate = undefined;
  }

  /** A job that runs from now: events at the given offsets, terminal status at `endAt`. */
  script(job: Omit<ScriptedJob, 'startedAt'> & { startedAt?: number }): ScriptedJob {
    const j = { startedAt: this.now(), ...job };
    this.jobs.set(j.id, j);
    return j;
  }

  countOf(method: string): number {
    return this.calls.filter((c) => c.method === method).length;
  }

  private async call<T>(method: string, jobId: string | undefined, fn: () => T): Promise<T> {
    this.calls.push({ method, jobId, at: this.now() });
    this.concurrent++;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.concurrent);
    try {
      if (this.gate) await this.gate;
      const i = this.failures.findIndex((f) => f.method === method);
      if (i >= 0) throw this.failures.splice(i, 1)[0]!.error;
      return fn();
    } finally {
      this.concurrent--;
    }
  }

  private job(id: string): ScriptedJob {
    const j = this.jobs.get(id);
    if (!j || (j.expireAt !== undefined && this.elapsed(j) >= j.expireAt))
      throw new HttpishError(404, 'Agent job not found');
    return j;
  }

  private elapsed(j: ScriptedJob): number {
    return this.now() - j.startedAt;
  }

  async submit(
    request: AgentSubmitParams,
  ): Promise<{ id: string; response: { threadId: string; threadTurn: number } }> {
    return this.call('submit', undefined, () => {
      const id = `00000000-0000-4000-8000-${String(++this.submitted).padStart(12, '0')}`;
      if (!this.jobs.has(id)) this.script({ id, events: [] });
      this.submissions.push(request);
      const threadId = request.threadId ?? `10000000-0000-4000-8000-${String(this.submitted).padStart(12, '0')}`;
      const threadTurn = request.threadId
        ? this.submissions.filter((r) => r.threadId === request.threadId).length + 1
        : 1;
      return { id, response: { threadId, threadTurn } };
    });
  }

  /** What answerApproval answers with: the waiting run's own id by default. */
  approvalAnswer: ((a: { threadId: string; approvalId: string; decision: string }) => { id: string }) | undefined;
  readonly approvals: Array<{
    threadId: string;
    approvalId: string;
    decision: string;
    callIds?: string[];
    always?: boolean;
  }> = [];
  /** The terms/accept calls run, in order. */
  readonly acceptedTerms: unknown[][] = [];

  async acceptTerms(calls: readonly unknown[]): Promise<unknown> {
    return this.call('acceptTerms', undefined, () => {
      this.acceptedTerms.push([...calls]);
      return { creditsCost: 0 };
    });
  }

  async answerApproval(a: {
    threadId: string;
    approvalId: string;
    decision: 'approve' | 'decline';
    callIds?: string[];
    always?: boolean;
  }): Promise<{ id: string }> {
    return this.call('answerApproval', undefined, () => {
      this.approvals.push(a);
      const r = this.approvalAnswer?.(a);
      if (!r) throw new Error('no approvalAnswer scripted');
      return r;
    });
  }

  async status(jobId: string): Promise<AgentJobRecord> {
    return this.call('status', jobId, () => {
      const j = this.job(jobId);
      const ended = j.endAt !== undefined && this.elapsed(j) >= j.endAt;
      const expiry = j.expiresAt ? { expiresAt: j.expiresAt } : {};
      return ended
        ? {
            success: true,
            status: j.endStatus ?? 'completed',
            creditsUsed: j.endStatus === 'failed' ? 0 : j.credits,
            error: j.endError,
            data: j.data,
            model: 'spark-2',
            ...(j.partial !== undefined ? { partial: j.partial } : {}),
            ...expiry,
            ...j.record,
          }
        : { success: true, status: 'processing', model: 'spark-2', ...expiry, ...j.record };
    });
  }

  async cancel(jobId: string): Promise<unknown> {
    return this.call('cancel', jobId, () => {
      this.job(jobId);
      return { success: true };
    });
  }

  async trace(jobId: string): Promise<AgentTrace> {
    return this.call('trace', jobId, () => {
      const j = this.job(jobId);
      if (j.noTrace) throw new HttpishError(400, 'Trace is only available for FORGE-2 extracts');
      const events = j.events.filter((e) => e.at <= this.elapsed(j)).map((e) => e.event);
      return { success: true, id: jobId, events, ...(j.credits === undefined ? {} : { creditsUsed: j.credits }) };
    });
  }

  async snapshot(jobId: string, snapshotId: string): Promise<AgentSnapshotResponse> {
    return this.call('snapshot', jobId, () => ({ success: true, id: jobId, snapshotId, snapshot: '{"items":[]}' }));
  }

  async listAll(): Promise<AgentListAll> {
    return this.call('list', undefined, () => this.listJobs);
  }
}
