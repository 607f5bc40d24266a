// What the agent service reads from a job at a moment: how far its plan has run (a View), its status
// record, trace events, list row and thread run, each in the shape of the wire it answers on.
import { CHAT_SUGGESTIONS, MESSAGES, SCHEMA_VERSION, type PlannedEvent } from './engine';
import { requiresActionOf, skippedOf } from './exchange';
import { DEFAULT_MODEL } from './validate';
import {
  outcomeOf,
  targetHintOf,
  type Job,
  type RunStatus,
  type ServiceContext,
  type Thread,
  type View,
} from './serviceTypes';
import type {
  AgentExchangeSummary,
  PendingApproval,
  ProductionListItem,
  ProductionStatusBody,
  ProductionThreadRun,
  ProductionTraceEvent,
} from './wireTypes';

export type RunRecords = ReturnType<typeof runRecords>;

export function runRecords(c: ServiceContext) {
  const { speed, now, production, jobs } = c;

  /** How far into its plan the run is: a run that waits for approval stays at its pause point. */
  function elapsedOf(job: Job, t: number): number {
    const elapsed = (t - job.createdAt) * speed;
    const ap = job.approval;
    return ap?.waits && ap.state === 'waiting' ? Math.min(elapsed, ap.pauseAt) : elapsed;
  }

  /**
   * The run's `pendingApproval` as the caller sees it now: a `calls` approval from its pause point on
   * (resolution null while it waits; absent after a cancel), a `terms` approval once the turn ended.
   */
  function approvalView(job: Job, v: View): PendingApproval | undefined {
    const ap = job.approval;
    if (!ap || ap.state === 'cancelled') return undefined;
    if (ap.waits) return (now() - job.createdAt) * speed >= ap.pauseAt ? ap.pending : undefined;
    return v.finished ? ap.pending : undefined;
  }

  /** The approval a caller may answer now: visible and unresolved. */
  function answerable(job: Job, v: View): PendingApproval | undefined {
    const p = approvalView(job, v);
    return p && p.resolution === null && !job.cancelRequested ? p : undefined;
  }

  function view(job: Job, t = now()): View {
    const elapsed = elapsedOf(job, t);
    let n = 0;
    while (n < job.events.length && job.events[n]!.at <= elapsed) n++;
    const visible = job.events.slice(0, n);
    const finished = visible.find((e) => e.body.type === 'run.finished');
    const credits = visible.reduce((s, e) => s + e.cost, 0);
    let status: RunStatus = 'processing';
    const outcome = outcomeOf(finished);
    if (outcome) {
      status = outcome === 'succeeded' ? 'completed' : outcome === 'cancelled' && production ? 'cancelled' : 'failed';
    } else if (job.cancelRequested) status = 'cancelling';
    return { visible, status, finished, credits };
  }

  function render(job: Job, events: PlannedEvent[]): ProductionTraceEvent[] {
    const seq = new Map<string, number>();
    const out: ProductionTraceEvent[] = [];
    const again: ProductionTraceEvent[] = [];
    for (const e of events) {
      const producerSequence = (seq.get(e.agent.id) ?? 0) + 1;
      seq.set(e.agent.id, producerSequence);
      let body = e.body;
      // Plans are written at speed 1; a faster sandbox reports the durations it really took.
      if ('durationMs' in body) body = { ...body, durationMs: Math.round(body.durationMs / speed) };
      const ev = {
        schemaVersion: SCHEMA_VERSION,
        eventId: e.eventId,
        runId: job.id,
        occurredAt: new Date(job.createdAt + e.at / speed).toISOString(),
        producerSequence,
        agent: { ...e.agent },
        ...body,
      } satisfies ProductionTraceEvent;
      out.push(ev);
      if (e.duplicate) again.push(ev);
    }
    return [...out, ...again];
  }

  function errorMessage(job: Job, finished: PlannedEvent): string {
    const err = finished.body.type === 'run.finished' ? finished.body.error : undefined;
    switch (outcomeOf(finished)) {
      case 'cancelled':
        return MESSAGES.cancelled;
      case 'credit_limit_reached':
        return MESSAGES.creditLimit(job.options.maxCredits);
      case 'refused':
        return MESSAGES.refused;
      default:
        return err?.message ?? MESSAGES.internal;
    }
  }

  /** The model a record reports: retired aliases run on (and report) the current model in production. */
  function reportedModel(model: string): string {
    return production && (model === 'spark-1-pro' || model === 'spark-1-mini') ? DEFAULT_MODEL : model;
  }

  /** The `result` artifact as far as the run got: production's `partial` of a run stopped early. */
  function partialData(v: View): unknown {
    let last: PlannedEvent | undefined;
    for (const e of v.visible)
      if (e.snapshot && e.body.type === 'artifact.updated' && e.body.artifact.artifactId === 'result') last = e;
    if (!last?.snapshot) return undefined;
    try {
      return JSON.parse(last.snapshot.content) as unknown;
    } catch {
      return undefined;
    }
  }

  function specStatusRecord(job: Job, v: View): Record<string, unknown> {
    const rec: Record<string, unknown> = {
      success: true,
      id: job.id,
      status: v.status,
      model: job.options.model,
      expiresAt: new Date(job.expiresAt).toISOString(),
    };
    if (v.status === 'completed') {
      rec.data = job.data;
      rec.creditsUsed = v.credits;
    }
    if (v.status === 'failed') {
      rec.creditsUsed = 0;
      rec.error = errorMessage(job, v.finished!);
    }
    return rec;
  }

  /**
   * Production's job record, typed against the SDK's `AgentStatusResponse` (wireTypes.ts): no `id`;
   * optional fields are absent rather than null (`error`, `message`, `suggestions`, `pendingApproval`,
   * `exchange`); `effort` only when the run specified it.
   */
  function statusRecord(job: Job): ProductionStatusBody | Record<string, unknown> {
    const v = view(job);
    if (!production) return specStatusRecord(job, v);
    const rec: ProductionStatusBody = {
      success: true,
      status: v.status,
      model: reportedModel(job.options.model),
      ...(job.options.effort ? { effort: job.options.effort } : {}),
      expiresAt: new Date(job.expiresAt).toISOString(),
      threadId: job.threadId,
      threadTurn: job.turn,
      mode: job.mode,
    };
    if (v.status === 'processing' || v.status === 'cancelling') rec.creditsUsed = v.credits;
    if (v.status === 'completed') {
      rec.data = job.mode === 'chat' ? null : job.data;
      rec.creditsUsed = v.credits;
    }
    if (v.status === 'cancelled') {
      rec.creditsUsed = v.credits;
      rec.error = errorMessage(job, v.finished!);
    }
    if (v.status === 'failed') {
      rec.creditsUsed = 0;
      rec.error = errorMessage(job, v.finished!);
      if (outcomeOf(v.finished) === 'credit_limit_reached') {
        const partial = partialData(v);
        if (partial !== undefined) {
          rec.partial = partial;
          rec.partialSchemaValid = true;
        }
        rec.stopReason = 'credit_limit_reached';
      }
    }
    if (job.mode === 'chat' && v.status === 'completed' && job.message !== undefined) {
      rec.message = job.message;
      rec.suggestions = CHAT_SUGGESTIONS.map((x) => ({ ...x }));
    }
    const pending = approvalView(job, v);
    if (pending) rec.pendingApproval = pending;
    const exchange = exchangeSummary(job, v);
    if (exchange) rec.exchange = exchange;
    return rec;
  }

  /**
   * The run's `exchange` summary (SDK `AgentExchangeSummary`): present when the run sent `exchange`,
   * made paid calls, skipped a provider or asked for an approval. `creditsUsed` is null until the run
   * has finished; `requiresAction` only while a terms approval waits for its answer.
   */
  function exchangeSummary(job: Job, v: View): AgentExchangeSummary | undefined {
    const x = job.exchange;
    if (!x) return undefined;
    const finishedCalls = new Set(
      v.visible.flatMap((e) => (e.body.type === 'tool_call.finished' ? [e.body.toolCallId] : [])),
    );
    const made = x.paid.filter((c) => finishedCalls.has(c.id));
    const ap = job.approval;
    const termsWaiting =
      ap && ap.pending.kind === 'terms' && ap.pending.resolution === null && v.finished !== undefined;
    return {
      enabled: job.options.exchange?.enabled !== false || x.paid.length > 0 || ap !== undefined,
      ...(x.toolkits ? { toolkits: x.toolkits } : {}),
      ...(x.requireApproval !== undefined ? { requireApproval: x.requireApproval } : {}),
      ...(x.onTermsRequired ? { onTermsRequired: x.onTermsRequired } : {}),
      paidCalls: made.length,
      creditsUsed: v.finished ? (v.status === 'failed' ? 0 : made.reduce((s, c) => s + c.credits, 0)) : null,
      ...(x.skipped.length && v.finished ? { skippedProviders: x.skipped.map(skippedOf) } : {}),
      ...(termsWaiting && ap ? { requiresAction: requiresActionOf(ap.pending.id, ap.terms) } : {}),
    } satisfies AgentExchangeSummary;
  }

  /** A thread run's status: the outcome words of the trace (`succeeded`, `refused`, …) or `processing`. */
  function threadRunStatus(v: View): ProductionThreadRun['status'] {
    return outcomeOf(v.finished) ?? 'processing';
  }

  function expired(job: Job, t = now()): boolean {
    return production && t >= job.expiresAt;
  }

  function findJob(id: string, team: string): Job | undefined {
    const job = jobs.get(id.toLowerCase());
    return job && job.team === team && !expired(job) ? job : undefined;
  }

  function latestRun(thread: Thread): Job | undefined {
    for (let i = thread.runs.length - 1; i >= 0; i--) {
      const j = jobs.get(thread.runs[i]!);
      if (j) return j;
    }
    return undefined;
  }

  /** A production list row (SDK `AgentListItem`): `targetHint` a string; `urls`, `schema`, `effort` absent when the run had none. */
  function listRow(j: Job): ProductionListItem {
    return {
      id: j.id,
      createdAt: new Date(j.createdAt).toISOString(),
      targetHint: targetHintOf(j.options),
      origin: j.options.origin ?? 'api',
      ...(j.options.integration ? { integration: j.options.integration } : {}),
      status: view(j).status,
      options: {
        ...(j.options.urls ? { urls: j.options.urls } : {}),
        prompt: j.options.prompt,
        ...(j.options.schema !== undefined && j.options.schema !== null ? { schema: j.options.schema } : {}),
        model: reportedModel(j.options.model),
        // The list names the effort a spark-2 run runs at, `medium` when the start left it out.
        ...(j.options.effort || (production && reportedModel(j.options.model) === DEFAULT_MODEL)
          ? { effort: j.options.effort ?? 'medium' }
          : {}),
        mode: j.mode,
        threadId: j.threadId,
        threadTurn: j.turn,
      },
      settings: { hidden: false, starred: false },
    } satisfies ProductionListItem;
  }

  /** When the run finished (its `run.finished` event), or null. */
  function finishedAtOf(job: Job, v: View): string | null {
    return v.finished ? new Date(job.createdAt + v.finished.at / speed).toISOString() : null;
  }

  /** A thread run (SDK `AgentThreadRun`): `message` null unless a chat turn succeeded; `data` only with `includeData`. */
  function threadRun(j: Job, includeData: boolean): ProductionThreadRun {
    const v = view(j);
    const status = threadRunStatus(v);
    const done = status === 'succeeded';
    const answered = done && j.mode === 'chat' && j.message !== undefined;
    return {
      id: j.id,
      turn: j.turn,
      mode: j.mode,
      prompt: j.options.prompt,
      ...(j.options.urls ? { urls: j.options.urls } : {}),
      ...(j.options.schema !== undefined && j.options.schema !== null ? { schema: j.options.schema } : {}),
      ...(j.options.effort ? { effort: j.options.effort } : {}),
      status,
      createdAt: new Date(j.createdAt).toISOString(),
      finishedAt: finishedAtOf(j, v),
      creditsUsed: v.status === 'failed' ? 0 : v.credits,
      message: answered ? j.message! : null,
      ...(includeData ? { data: done && j.mode !== 'chat' ? j.data : null } : {}),
      suggestions: answered ? CHAT_SUGGESTIONS.map((x) => ({ ...x })) : null,
      pendingApproval: approvalView(j, v) ?? null,
      exchange: exchangeSummary(j, v) ?? null,
    } satisfies ProductionThreadRun;
  }

  return {
    approvalView,
    answerable,
    view,
    render,
    reportedModel,
    statusRecord,
    exchangeSummary,
    expired,
    findJob,
    latestRun,
    listRow,
    threadRun,
  };
}
