// Paid Exchange calls in a run's plan (production wire): the calls a magic prompt makes or asks to make,
// where in the plan they happen, a turn that ends waiting for the caller, and the turn that answers it.
import { randomUUID } from 'node:crypto';
import type { PendingApprovalCall } from 'firecrawl';
import { COST, Plan, agentsFor, jsonArtifact, stillOpen, topicOf, type PlannedEvent, type TraceError } from './engine';

/** A paid Exchange call a run makes (or asks to make): the SDK's `PendingApprovalCall` plus what it really costs. */
export interface PaidCall extends PendingApprovalCall {
  /** Credits charged when the call finishes (the estimate may be null). */
  credits: number;
}

const callId = (): string => `call_${randomUUID().replace(/-/g, '').slice(0, 12)}`;

/** `APPROVAL`: two GitHub calls held back for the caller; the second has no estimate and a batch of more inputs. */
export function approvalCalls(prompt: string): PaidCall[] {
  const title = `Follow-up: ${topicOf(prompt)}`;
  return [
    {
      id: callId(),
      provider: 'github',
      capability: 'issues/create',
      input: {
        repo: 'devindex-sandbox/demo',
        title,
        body: 'Opened by the sandbox agent after the caller approved it.',
      },
      creditsEstimate: 10,
      credits: 10,
    },
    {
      id: callId(),
      provider: 'github',
      capability: 'issues/add-labels',
      input: { repo: 'devindex-sandbox/demo', issue: 1, labels: ['sandbox'] },
      more: [{ repo: 'devindex-sandbox/demo', issue: 2, labels: ['sandbox'] }],
      creditsEstimate: null,
      credits: 20,
    },
  ];
}

/** `PAID-CALLS`: two calls the run makes without asking (10 + 20 credits). */
export function inlinePaidCalls(): PaidCall[] {
  return [
    {
      id: callId(),
      provider: 'devdata',
      capability: 'packages/downloads',
      input: { ecosystem: 'npm', name: 'undici' },
      creditsEstimate: 10,
      credits: 10,
    },
    {
      id: callId(),
      provider: 'devdata',
      capability: 'packages/advisories',
      input: { ecosystem: 'npm', name: 'undici' },
      creditsEstimate: 20,
      credits: 20,
    },
  ];
}

/** The trace's tool name of a paid call. */
export const paidToolName = (c: Pick<PaidCall, 'provider' | 'capability'>): string => `${c.provider}/${c.capability}`;

/** Where a run with paid calls or an approval stops or calls: just before it starts finalizing (its `finalizing` progress event). */
export function approvalPoint(events: PlannedEvent[]): number | undefined {
  const e = events.find((x) => x.body.type === 'progress.reported' && x.body.phase === 'finalizing');
  return e ? e.at - 50 : undefined;
}

/** The plan with `calls` made by the orchestrator at `at` (each 600 ms at speed 1); every later event moves back by that span. */
export function insertCalls(events: PlannedEvent[], at: number, runId: string, calls: PaidCall[]): PlannedEvent[] {
  if (!calls.length) return events;
  const plan = new Plan();
  const a = agentsFor(runId);
  let t = at;
  for (const c of calls) {
    plan.add(t, a.orchestrator, {
      type: 'tool_call.started',
      toolCallId: c.id,
      toolName: paidToolName(c),
      parameters: c.input,
    });
    plan.add(
      t + 500,
      a.orchestrator,
      {
        type: 'tool_call.finished',
        toolCallId: c.id,
        toolName: paidToolName(c),
        result: { ok: true, records: 1 + (c.more?.length ?? 0) },
      },
      c.credits,
    );
    t += 600;
  }
  const span = t - at;
  const base = Math.max(0, ...events.map((e) => e.order)) + 1;
  const added = plan.sorted().map((e, i) => ({ ...e, order: base + i }));
  return [
    ...events.filter((e) => e.at <= at),
    ...added,
    ...events.filter((e) => e.at > at).map((e) => ({ ...e, at: e.at + span })),
  ].sort((x, y) => x.at - y.at || x.order - y.order);
}

/**
 * The run ends successfully at `end` without the rest of its plan (a turn that ends waiting for the
 * caller): events after `cut` are dropped, every agent still running finishes, then `run.finished`,
 * then (late) the open browser sessions close.
 */
export function finishEarly(events: PlannedEvent[], cut: number, end: number, runId: string): PlannedEvent[] {
  const kept = events.filter((e) => e.at <= cut);
  const plan = new Plan();
  const a = agentsFor(runId);
  const { running, sessions } = stillOpen(kept);
  const startOf = (id: string) => kept.find((e) => e.body.type === 'agent.started' && e.agent.id === id)?.at ?? end;
  const parentFinished: TraceError = {
    code: 'parent_finished',
    source: 'agent',
    retryable: false,
    message: 'Stopped because the turn ended waiting for the caller.',
  };
  for (const agent of [...running].reverse()) {
    const t = agent.role === 'orchestrator' ? end + 200 : end + 100;
    plan.add(
      t,
      agent,
      agent.role === 'orchestrator'
        ? { type: 'agent.finished', outcome: 'succeeded', durationMs: t - startOf(agent.id), error: null }
        : { type: 'agent.finished', outcome: 'cancelled', durationMs: t - startOf(agent.id), error: parentFinished },
    );
  }
  plan.add(end + 300, a.system, { type: 'run.finished', outcome: 'succeeded', error: null });
  for (const [sessionId, started] of sessions)
    plan.add(end + 600, a.system, { type: 'browser.session.finished', sessionId, durationMs: end + 600 - started });
  const base = Math.max(0, ...kept.map((e) => e.order)) + 1;
  return [...kept, ...plan.sorted().map((e, i) => ({ ...e, order: base + i }))];
}

/**
 * The turn that answers an approval (production wire): it makes the approved calls, says what it did
 * with the declined ones, and finishes. About 3 s at speed 1.
 */
export function answerPlan(
  runId: string,
  o: { mode: 'extract' | 'chat'; made: PaidCall[]; declined: PaidCall[]; note: string },
): { events: PlannedEvent[]; data: Record<string, unknown>; message: string } {
  const plan = new Plan();
  const a = agentsFor(runId);
  plan.add(0, a.system, { type: 'run.started' });
  plan.add(150, a.orchestrator, { type: 'agent.started' });
  plan.add(300, a.orchestrator, {
    type: 'progress.reported',
    phase: 'working',
    message: o.made.length
      ? `Making ${o.made.length === 1 ? 'the approved call' : `${o.made.length} approved calls`}`
      : 'Continuing without the calls',
  });
  let t = 500;
  for (const c of o.made) {
    plan.add(t, a.orchestrator, {
      type: 'tool_call.started',
      toolCallId: c.id,
      toolName: paidToolName(c),
      parameters: c.input,
    });
    plan.add(
      t + 500,
      a.orchestrator,
      {
        type: 'tool_call.finished',
        toolCallId: c.id,
        toolName: paidToolName(c),
        result: { ok: true, records: 1 + (c.more?.length ?? 0) },
      },
      c.credits,
    );
    t += 600;
  }
  plan.add(t, a.orchestrator, { type: 'progress.reported', phase: 'finalizing', message: 'Writing the result' });
  const data = {
    calls: [
      ...o.made.map((c) => ({ id: c.id, provider: c.provider, capability: c.capability, status: 'made' })),
      ...o.declined.map((c) => ({ id: c.id, provider: c.provider, capability: c.capability, status: 'declined' })),
    ],
  };
  const message = `## Done\n\n${o.note}\n`;
  if (o.mode === 'chat') {
    plan.add(t + 600, a.orchestrator, { type: 'assistant.message', text: message }, COST.reasoning);
    plan.add(
      t + 700,
      a.orchestrator,
      {
        type: 'artifact.updated',
        artifact: { kind: 'markdown', artifactId: 'answer', path: 'answer.md', change: 'init' },
      },
      0,
      message,
    );
  } else {
    plan.add(t + 600, a.orchestrator, { type: 'reasoning.summary', text: o.note }, COST.reasoning);
    plan.add(
      t + 700,
      a.orchestrator,
      {
        type: 'artifact.updated',
        artifact: {
          kind: 'json',
          artifactId: 'result',
          path: 'result.json',
          change: 'init',
          itemCount: data.calls.length,
        },
      },
      0,
      jsonArtifact(data),
    );
  }
  plan.add(t + 900, a.orchestrator, { type: 'agent.finished', outcome: 'succeeded', durationMs: t + 750, error: null });
  plan.add(t + 1100, a.system, { type: 'run.finished', outcome: 'succeeded', error: null });
  return { events: plan.sorted(), data, message };
}
