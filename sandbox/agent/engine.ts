// The simulated agent engine. A run is a plan: every event it will emit, each at an offset "at speed 1" from the
// run's creation; its state at an instant is the planned events whose offset has passed, so no timers and a fake
// clock drives it. Cancellation and the credit ceiling rewrite the plan's tail when they take effect.
import { randomUUID } from 'node:crypto';
import type {
  AgentTraceAgentIdentity,
  AgentTraceAgentRole,
  AgentTraceArtifactChange,
  AgentTraceError,
} from 'firecrawl';
import type { Effort, SubmitOptions } from './validate';
import type { EventBody } from './wireTypes';

export type Role = AgentTraceAgentRole;
export type AgentRef = AgentTraceAgentIdentity;
export type Outcome = 'succeeded' | 'failed' | 'cancelled' | 'refused' | 'credit_limit_reached';
export type ErrorCode = AgentTraceError['code'];
export type TraceError = AgentTraceError;

/** An event as planned: the `artifact.updated` snapshot id is given when the event is added. */
type ArtifactPlanBody = { type: 'artifact.updated'; artifact: Omit<AgentTraceArtifactChange, 'snapshotId'> };
export type PlanBody = Exclude<EventBody, { type: 'artifact.updated' }> | ArtifactPlanBody;

export interface PlannedEvent {
  at: number;
  order: number;
  eventId: string;
  agent: AgentRef;
  /** The event without its envelope, typed against the SDK's trace event union (wireTypes.ts). */
  body: EventBody;
  cost: number;
  snapshot?: { id: string; content: string };
  /** Delivered twice in the trace (at-least-once delivery), so clients must de-duplicate by eventId. */
  duplicate?: boolean;
}

export const SCHEMA_VERSION = 1;
export const ENGINE_2 = 'FORGE-2';
/** Its name in the production service's messages. */
export const ENGINE_2_PRODUCTION = 'Spark 2';

/** Credits charged per step; a standard (medium effort) run costs STANDARD_RUN_CREDITS in total. */
export const COST = { reasoning: 5, spawn: 2, navigate: 8, extract: 20, readPdf: 12 } as const;
export const ITEMS_BY_EFFORT: Record<Effort, number> = { low: 3, medium: 5, high: 8 };
export const STANDARD_RUN_CREDITS =
  2 * COST.reasoning + 4 * COST.spawn + 5 * (COST.navigate + COST.extract) + COST.readPdf;

/** A `SLOW` prompt stretches the whole plan by this factor (a run that can be cancelled at any speed). */
export const SLOW_FACTOR = 20;

/** Step durations at speed 1, chosen so a standard run lasts about 25 seconds. */
const STEP = { navigate: 2000, extract: 2500, gap: 1000 } as const;

export const MAGIC = {
  refuse: 'REFUSE',
  slow: 'SLOW',
  internal: 'CRASH',
  zeroDataRetention: 'ZERO_DATA_RETENTION',
  /** Production wire: the run stops and waits (status `processing`) for the caller to approve two paid calls. */
  approval: 'APPROVAL',
  /** Production wire: as `APPROVAL`, but the record is an older one: `kind` absent (checked before `APPROVAL`). */
  approvalOld: 'APPROVAL-OLD',
  /** Production wire: the turn ends (`completed`) waiting for the caller to accept two providers' terms (checked before `APPROVAL`). */
  approvalTerms: 'APPROVAL-TERMS',
  /** Production wire: the run makes two paid calls (30 credits) and skips a provider whose terms the team has not accepted. */
  paidCalls: 'PAID-CALLS',
  /** Production wire: the run's snapshots and its thread record answer `{ success: false, error }` without the record. */
  noRecord: 'NO-RECORD',
  /** Production wire: submit answers the back end's 400 `Invalid schema: …`. */
  invalidSchema: 'INVALID_SCHEMA',
} as const;

/** Start URLs on these hosts (or under them) are refused by threat protection (production wire). */
export const BLOCKED_HOSTS = ['blocked.invalid', 'malware.test'];

export const MESSAGES = {
  cancelled: 'The agent run was cancelled by the user.',
  refused: 'The agent refused the task: it asks for something the agent will not do.',
  internal: 'The agent run failed because of an internal error. Try again.',
  creditLimit: (max: number) =>
    `Credit limit reached: the run used its maxCredits of ${max} credits before it could finish. Failed runs are not billed.`,
};

export class Plan {
  events: PlannedEvent[] = [];
  private n = 0;
  add(at: number, agent: AgentRef, planned: PlanBody, cost = 0, snapshot?: string): PlannedEvent {
    let body: EventBody;
    let snap: PlannedEvent['snapshot'];
    if (planned.type === 'artifact.updated') {
      snap = { id: randomUUID(), content: snapshot ?? '' };
      body = { type: 'artifact.updated', artifact: { ...planned.artifact, snapshotId: snap.id } };
    } else body = planned;
    const e: PlannedEvent = { at, order: this.n++, eventId: randomUUID(), agent, body, cost };
    if (snap) e.snapshot = snap;
    this.events.push(e);
    return e;
  }
  sorted(): PlannedEvent[] {
    return [...this.events].sort((a, b) => a.at - b.at || a.order - b.order);
  }
}

export interface Agents {
  system: AgentRef;
  orchestrator: AgentRef;
  researcher1: AgentRef;
  researcher2: AgentRef;
  reader: AgentRef;
  verifier: AgentRef;
}

export function agentsFor(runId: string): Agents {
  const p = runId.slice(0, 8);
  const orchestrator: AgentRef = { id: `${p}-orchestrator`, role: 'orchestrator', name: 'orchestrator' };
  const researcher1: AgentRef = {
    id: `${p}-researcher-1`,
    role: 'subagent',
    name: 'researcher-1',
    parentId: orchestrator.id,
  };
  return {
    system: { id: `${p}-system`, role: 'system', name: 'system' },
    orchestrator,
    researcher1,
    researcher2: { id: `${p}-researcher-2`, role: 'subagent', name: 'researcher-2', parentId: orchestrator.id },
    reader: { id: `${p}-reader-1`, role: 'subagent', name: 'reader-1', parentId: researcher1.id },
    verifier: { id: `${p}-verifier`, role: 'subagent', name: 'verifier', parentId: orchestrator.id },
  };
}

/** The name of the list in `data`: the first array property of the caller's schema, else `items`. */
export function resultListKey(schema: SubmitOptions['schema']): string {
  const props = schema !== null && typeof schema === 'object' ? schema.properties : undefined;
  if (props && typeof props === 'object' && !Array.isArray(props)) {
    for (const [k, v] of Object.entries(props as Record<string, unknown>)) {
      if (v && typeof v === 'object' && (v as { type?: unknown }).type === 'array') return k;
    }
  }
  return 'items';
}

interface Item {
  title: string;
  url: string;
  summary: string;
}

function itemsFor(o: SubmitOptions): Item[] {
  const n = ITEMS_BY_EFFORT[o.effort ?? 'medium'];
  const topic = o.prompt.trim().replace(/\s+/g, ' ').slice(0, 40);
  return Array.from({ length: n }, (_, i) => {
    const url = o.urls?.length ? o.urls[i % o.urls.length]! : `https://example.com/devindex-sandbox/source-${i + 1}`;
    return {
      title: `Finding ${i + 1}: ${topic}`,
      url,
      summary: `Simulated finding ${i + 1} for the task, read from ${url}.`,
    };
  });
}

function toolCall(
  plan: Plan,
  at: number,
  agent: AgentRef,
  toolName: string,
  parameters: Record<string, unknown>,
  durationMs: number,
  result: unknown,
  cost: number,
): number {
  const toolCallId = randomUUID();
  plan.add(at, agent, { type: 'tool_call.started', toolCallId, toolName, parameters });
  plan.add(at + durationMs, agent, { type: 'tool_call.finished', toolCallId, toolName, result }, cost);
  return at + durationMs;
}

function spawn(plan: Plan, at: number, parent: AgentRef, child: AgentRef, task: string): number {
  toolCall(plan, at, parent, 'spawn_subagent', { name: child.name, task }, 150, { agentId: child.id }, COST.spawn);
  plan.add(at + 200, child, { type: 'agent.started' });
  return at + 200;
}

export function jsonArtifact(data: unknown): string {
  return JSON.stringify(data, null, 2);
}

/** The full plan of a run that nobody interrupts. */
export function basePlan(runId: string, o: SubmitOptions): { events: PlannedEvent[]; data: Record<string, unknown> } {
  const plan = new Plan();
  const a = agentsFor(runId);
  const key = resultListKey(o.schema);
  const items = itemsFor(o);
  plan.add(0, a.system, { type: 'run.started' });
  plan.add(150, a.orchestrator, { type: 'agent.started' });
  plan.add(300, a.orchestrator, { type: 'progress.reported', phase: 'planning', message: 'Planning the task' });

  if (o.prompt.includes(MAGIC.refuse)) {
    plan.add(1200, a.orchestrator, {
      type: 'reasoning.summary',
      text: 'The task asks for something I will not do, so I am declining it.',
    });
    const error: TraceError = { code: 'refused', source: 'agent', retryable: false, message: MESSAGES.refused };
    plan.add(1500, a.orchestrator, { type: 'agent.finished', outcome: 'refused', durationMs: 1350, error });
    plan.add(1700, a.system, { type: 'run.finished', outcome: 'refused', error });
    return { events: plan.sorted(), data: {} };
  }

  plan.add(
    1100,
    a.orchestrator,
    {
      type: 'reasoning.summary',
      text: `Splitting the task between two researchers; collecting ${items.length} findings.`,
    },
    COST.reasoning,
  );
  plan.add(
    1400,
    a.orchestrator,
    {
      type: 'artifact.updated',
      artifact: { kind: 'json', artifactId: 'result', path: 'result.json', change: 'init', itemCount: 0 },
    },
    0,
    jsonArtifact({ [key]: [] }),
  );

  const found: Array<{ at: number; item: Item }> = [];
  const researchers = [a.researcher1, a.researcher2];
  const ends: number[] = [];
  for (const [r, researcher] of researchers.entries()) {
    let t = spawn(
      plan,
      1700 + r * 400,
      a.orchestrator,
      researcher,
      `Collect findings ${r === 0 ? 'with odd numbers' : 'with even numbers'}`,
    );
    const start = t;
    const sessionId = randomUUID();
    plan.add(t + 100, researcher, { type: 'browser.session.started', sessionId });
    t += 200;
    for (let i = r; i < items.length; i += 2) {
      const item = items[i]!;
      plan.add(t, researcher, { type: 'progress.reported', phase: 'working', message: `Reading ${item.url}` });
      t = toolCall(
        plan,
        t + 100,
        researcher,
        'navigate',
        { url: item.url },
        STEP.navigate,
        { status: 200, title: item.title },
        COST.navigate,
      );
      t = toolCall(
        plan,
        t + 100,
        researcher,
        'extract',
        { url: item.url },
        STEP.extract,
        { itemsFound: 1 },
        COST.extract,
      );
      found.push({ at: t + 200, item });
      if (r === 0 && i === 0) {
        // A nested subagent: the orchestrator's child spawns a child of its own.
        const rs = spawn(plan, t + 300, researcher, a.reader, 'Read the PDF linked from the first source');
        plan.add(rs + 100, a.reader, { type: 'progress.reported', phase: 'working', message: 'Reading a linked PDF' });
        const re = toolCall(
          plan,
          rs + 200,
          a.reader,
          'read_pdf',
          { url: `${item.url}#attachment.pdf` },
          1500,
          { pages: 4 },
          COST.readPdf,
        );
        plan.add(re + 100, a.reader, {
          type: 'agent.finished',
          outcome: 'succeeded',
          durationMs: re + 100 - rs,
          error: null,
        });
        t = re + 200;
      }
      t += STEP.gap;
    }
    plan.add(t, researcher, { type: 'browser.session.finished', sessionId, durationMs: t - start - 100 });
    plan.add(t + 100, researcher, {
      type: 'agent.finished',
      outcome: 'succeeded',
      durationMs: t + 100 - start,
      error: null,
    });
    ends.push(t + 100);
  }

  found.sort((x, y) => x.at - y.at);
  const data: Record<string, unknown> = { [key]: [] };
  const list = data[key] as Item[];
  for (const f of found) {
    list.push(f.item);
    plan.add(
      f.at,
      a.orchestrator,
      {
        type: 'artifact.updated',
        artifact: {
          kind: 'json',
          artifactId: 'result',
          path: 'result.json',
          change: 'append',
          changedFields: [`${key}[${list.length - 1}]`],
          itemCount: list.length,
        },
      },
      0,
      jsonArtifact(data),
    );
  }

  const T = Math.max(...ends);
  const vs = spawn(plan, T + 200, a.orchestrator, a.verifier, 'Double-check every source');
  const verifierSession = randomUUID();
  plan.add(vs + 100, a.verifier, { type: 'browser.session.started', sessionId: verifierSession });
  plan.add(vs + 200, a.verifier, {
    type: 'tool_call.started',
    toolCallId: randomUUID(),
    toolName: 'check_sources',
    parameters: { urls: items.map((i) => i.url) },
  });
  plan.add(T + 700, a.orchestrator, {
    type: 'progress.reported',
    phase: 'finalizing',
    message: `Merging ${items.length} findings`,
  });
  plan.add(
    T + 1500,
    a.orchestrator,
    { type: 'reasoning.summary', text: 'All findings are in; writing the result.' },
    COST.reasoning,
  );
  const final = plan.add(
    T + 2000,
    a.orchestrator,
    {
      type: 'artifact.updated',
      artifact: {
        kind: 'json',
        artifactId: 'result',
        path: 'result.json',
        change: 'update',
        changedFields: [key],
        itemCount: list.length,
      },
    },
    0,
    jsonArtifact(data),
  );
  final.duplicate = true;
  const summary = `# Summary\n\n${list.map((i) => `- [${i.title}](${i.url})`).join('\n')}\n`;
  plan.add(
    T + 2300,
    a.orchestrator,
    {
      type: 'artifact.updated',
      artifact: { kind: 'markdown', artifactId: 'summary', path: 'summary.md', change: 'init' },
    },
    0,
    summary,
  );
  plan.add(T + 2600, a.orchestrator, {
    type: 'agent.finished',
    outcome: 'succeeded',
    durationMs: T + 2450,
    error: null,
  });
  plan.add(T + 2800, a.system, { type: 'run.finished', outcome: 'succeeded', error: null });
  // Late events: the verifier notices its parent is gone only after the run has finished.
  const parentFinished: TraceError = {
    code: 'parent_finished',
    source: 'agent',
    retryable: false,
    message: 'Stopped because the orchestrator finished first.',
  };
  plan.add(T + 3300, a.verifier, {
    type: 'agent.finished',
    outcome: 'cancelled',
    durationMs: T + 3300 - vs,
    error: parentFinished,
  });
  plan.add(T + 3500, a.verifier, {
    type: 'browser.session.finished',
    sessionId: verifierSession,
    durationMs: T + 3400 - vs,
  });
  return { events: plan.sorted(), data };
}

export type TailKind = 'cancelled' | 'credit_limit_reached' | 'internal';

/** The agents still running and the browser sessions still open (id -> start) after the kept events. */
export function stillOpen(kept: readonly PlannedEvent[]): { running: AgentRef[]; sessions: Map<string, number> } {
  const running: AgentRef[] = [];
  const sessions = new Map<string, number>();
  for (const e of kept) {
    if (e.body.type === 'agent.started') running.push(e.agent);
    if (e.body.type === 'agent.finished') {
      const i = running.findIndex((r) => r.id === e.agent.id);
      if (i >= 0) running.splice(i, 1);
    }
    if (e.body.type === 'browser.session.started') sessions.set(e.body.sessionId, e.at);
    if (e.body.type === 'browser.session.finished') sessions.delete(e.body.sessionId);
  }
  return { running, sessions };
}

/**
 * Cuts the plan at `at` (events at or before `at` stay, except `dropFrom` onwards) and appends the
 * ending of an interrupted run: every agent still running finishes, then run.finished, then (late)
 * the browser sessions close.
 */
export function interrupt(
  events: PlannedEvent[],
  at: number,
  kind: TailKind,
  o: { runId: string; maxCredits: number; dropFrom?: PlannedEvent },
): PlannedEvent[] {
  const cut = o.dropFrom ? events.indexOf(o.dropFrom) : events.findIndex((e) => e.at > at);
  const kept = cut < 0 ? [...events] : events.slice(0, cut);
  const plan = new Plan();
  const a = agentsFor(o.runId);
  const { running, sessions } = stillOpen(kept);
  const error: TraceError =
    kind === 'cancelled'
      ? { code: 'cancelled', source: 'system', retryable: false, message: MESSAGES.cancelled }
      : kind === 'credit_limit_reached'
        ? {
            code: 'credit_limit_reached',
            source: 'billing',
            retryable: false,
            message: MESSAGES.creditLimit(o.maxCredits),
          }
        : { code: 'internal', source: 'system', retryable: true, message: MESSAGES.internal };
  const outcome: Outcome = kind === 'internal' ? 'failed' : kind;
  if (kind === 'cancelled') plan.add(at, a.system, { type: 'run.cancel_requested', reason: 'user' });
  else plan.add(at, a.system, { type: 'error.occurred', error });
  const startOf = (id: string) => kept.find((e) => e.body.type === 'agent.started' && e.agent.id === id)?.at ?? at;
  // Deepest (most recently started) agents stop first, the orchestrator last. `credit_limit_reached`
  // is a run outcome only (addendum; the SDK's agent.finished union): the agents stop as `failed`.
  const agentOutcome = outcome === 'credit_limit_reached' ? 'failed' : outcome;
  for (const agent of [...running].reverse()) {
    const end = agent.role === 'orchestrator' ? at + 900 : at + 600;
    plan.add(end, agent, { type: 'agent.finished', outcome: agentOutcome, durationMs: end - startOf(agent.id), error });
  }
  plan.add(at + 1100, a.system, { type: 'run.finished', outcome, error });
  for (const [sessionId, started] of sessions) {
    plan.add(at + 1600, a.system, { type: 'browser.session.finished', sessionId, durationMs: at + 1600 - started });
  }
  const tail = plan.sorted();
  const base = kept.length ? Math.max(...kept.map((e) => e.order)) + 1 : 0;
  tail.forEach((e, i) => {
    e.order = base + i;
  });
  return [...kept, ...tail];
}

/** Applies the credit ceiling: the first step that would take the total over maxCredits ends the run. */
export function applyCreditLimit(events: PlannedEvent[], runId: string, maxCredits: number): PlannedEvent[] {
  let total = 0;
  for (const e of events) {
    if (total + e.cost > maxCredits)
      return interrupt(events, e.at, 'credit_limit_reached', { runId, maxCredits, dropFrom: e });
    total += e.cost;
  }
  return events;
}

/** The `internal` failure scenario: the run breaks right after its first finding is recorded. */
export function applyInternalFailure(events: PlannedEvent[], runId: string, maxCredits: number): PlannedEvent[] {
  const first = events.find((e) => e.body.type === 'artifact.updated' && e.body.artifact.change === 'append');
  if (!first) return events;
  const next = events[events.indexOf(first) + 1];
  return next ? interrupt(events, first.at + 100, 'internal', { runId, maxCredits, dropFrom: next }) : events;
}

export const topicOf = (prompt: string): string => prompt.trim().replace(/\s+/g, ' ').slice(0, 60);

/** The canned answer of a chat run: a heading, a paragraph, a list, a fenced code block and a link. */
export function chatAnswer(prompt: string, sources: number): string {
  return [
    `## Answer: ${topicOf(prompt)}`,
    '',
    `The sandbox read ${sources} sources for this question and wrote this answer. It is canned: its words do not depend on what the sources say.`,
    '',
    '- **In chat mode** the answer is in `message`, and `data` is null.',
    '- **Follow-ups** continue the thread: send `threadId` with the next prompt.',
    '',
    '```ts',
    'const job = await agent.status(id);',
    'console.log(job.message);',
    '```',
    '',
    'More in [the sandbox agent notes](https://example.com/devindex-sandbox/agent).',
    '',
  ].join('\n');
}

export const CHAT_SUGGESTIONS = [
  { label: 'Go deeper', prompt: 'Explain the follow-up part of the answer in more detail.' },
  { label: 'Collect as data', prompt: 'List the sources you read, with their titles and URLs.' },
] as const;

/**
 * A chat run (production wire, `mode: "chat"`): one researcher with a `browser` worker under it,
 * `usage.recorded` events (internal), and the answer as an `assistant.message` event. About 9 s at speed 1.
 */
export function chatPlan(runId: string, o: SubmitOptions): { events: PlannedEvent[]; message: string } {
  if (o.prompt.includes(MAGIC.refuse)) return { events: basePlan(runId, o).events, message: '' };
  const plan = new Plan();
  const a = agentsFor(runId);
  const browser: AgentRef = {
    id: `${runId.slice(0, 8)}-browser-1`,
    role: 'browser',
    name: 'browser-1',
    parentId: a.researcher1.id,
  };
  const items = itemsFor(o).slice(0, 2);
  const usage = (at: number, agent: AgentRef, inputTokens: number, outputTokens: number): void => {
    plan.add(at, agent, { type: 'usage.recorded', usage: { model: o.model, inputTokens, outputTokens } });
  };
  plan.add(0, a.system, { type: 'run.started' });
  plan.add(150, a.orchestrator, { type: 'agent.started' });
  plan.add(300, a.orchestrator, { type: 'progress.reported', phase: 'planning', message: 'Planning the answer' });
  plan.add(
    900,
    a.orchestrator,
    { type: 'reasoning.summary', text: `Reading ${items.length} sources before answering.` },
    COST.reasoning,
  );
  usage(1000, a.orchestrator, 1800, 240);
  let t = spawn(plan, 1200, a.orchestrator, a.researcher1, 'Read the sources for the answer');
  plan.add(t + 100, browser, { type: 'agent.started' });
  const sessionId = randomUUID();
  plan.add(t + 200, browser, { type: 'browser.session.started', sessionId });
  const start = t + 100;
  t += 300;
  for (const item of items) {
    plan.add(t, a.researcher1, { type: 'progress.reported', phase: 'working', message: `Reading ${item.url}` });
    t = toolCall(
      plan,
      t + 100,
      browser,
      'navigate',
      { url: item.url },
      STEP.navigate,
      { status: 200, title: item.title },
      COST.navigate,
    );
    t = toolCall(plan, t + 100, a.researcher1, 'extract', { url: item.url }, 1200, { itemsFound: 1 }, COST.extract);
  }
  plan.add(t + 100, browser, { type: 'browser.session.finished', sessionId, durationMs: t - start });
  plan.add(t + 200, browser, {
    type: 'agent.finished',
    outcome: 'succeeded',
    durationMs: t + 100 - start,
    error: null,
  });
  plan.add(t + 300, a.researcher1, {
    type: 'agent.finished',
    outcome: 'succeeded',
    durationMs: t + 300 - 1400,
    error: null,
  });
  usage(t + 350, a.researcher1, 5200, 610);
  plan.add(t + 500, a.orchestrator, { type: 'progress.reported', phase: 'finalizing', message: 'Writing the answer' });
  const message = chatAnswer(o.prompt, items.length);
  plan.add(t + 1200, a.orchestrator, { type: 'assistant.message', text: message }, COST.reasoning);
  plan.add(
    t + 1300,
    a.orchestrator,
    {
      type: 'artifact.updated',
      artifact: { kind: 'markdown', artifactId: 'answer', path: 'answer.md', change: 'init' },
    },
    0,
    message,
  );
  usage(t + 1350, a.orchestrator, 2400, 380);
  plan.add(t + 1500, a.orchestrator, {
    type: 'agent.finished',
    outcome: 'succeeded',
    durationMs: t + 1350,
    error: null,
  });
  plan.add(t + 1700, a.system, { type: 'run.finished', outcome: 'succeeded', error: null });
  return { events: plan.sorted(), message };
}
