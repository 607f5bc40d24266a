// Pure helpers over agent trace events (addendum, "Trace response"): de-duplication by eventId,
// ordering by producerSequence per agent, grouping into an agent tree, and one-line summaries.
// Unknown event types are kept and summarised from whatever fields they have.
import { FOLDED_EVENT_TYPES } from '../api/agent/agentConstants';
import type { EventAgent, TraceEvent } from '../api/agent/agentSchemas';

const UNKNOWN_AGENT = '(unknown agent)';

/** The identity used for de-duplication: eventId when present, else agent + sequence + type, else the content. */
export function eventKey(e: TraceEvent): string {
  if (typeof e.eventId === 'string' && e.eventId) return `id:${e.eventId}`;
  if (e.agent?.id && typeof e.producerSequence === 'number') return `seq:${e.agent.id}#${e.producerSequence}#${e.type}`;
  return `raw:${JSON.stringify(e)}`;
}

/** Appends the events not seen before (first copy wins), keeping arrival order. */
export function mergeEvents(known: readonly TraceEvent[], incoming: readonly TraceEvent[]): TraceEvent[] {
  const seen = new Set(known.map(eventKey));
  const out = [...known];
  for (const e of incoming) {
    const k = eventKey(e);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(e);
  }
  return out;
}

export function dedupeEvents(events: readonly TraceEvent[]): TraceEvent[] {
  return mergeEvents([], events);
}

function time(e: TraceEvent): number {
  const t = e.occurredAt ? Date.parse(e.occurredAt) : NaN;
  return Number.isNaN(t) ? Infinity : t;
}

/** One agent's events in producer order: producerSequence, then time, then arrival. */
function orderAgentEvents(events: readonly TraceEvent[]): TraceEvent[] {
  return events
    .map((e, i) => ({ e, i }))
    .sort((a, b) => {
      const sa = a.e.producerSequence ?? Infinity;
      const sb = b.e.producerSequence ?? Infinity;
      if (sa !== sb) return sa < sb ? -1 : 1;
      const ta = time(a.e);
      const tb = time(b.e);
      if (ta !== tb) return ta < tb ? -1 : 1;
      return a.i - b.i;
    })
    .map((x) => x.e);
}

/**
 * The whole trace in reading order: de-duplicated, each agent's events by producerSequence, agents
 * interleaved by time (an event without a usable time keeps its place after its agent's previous one).
 */
export function orderEvents(events: readonly TraceEvent[]): TraceEvent[] {
  const groups = new Map<string, TraceEvent[]>();
  for (const e of dedupeEvents(events)) {
    const id = e.agent?.id ?? UNKNOWN_AGENT;
    groups.set(id, [...(groups.get(id) ?? []), e]);
  }
  const queues = [...groups.values()].map(orderAgentEvents);
  const out: TraceEvent[] = [];
  // k-way merge by time: each agent's order is preserved even when its clock disagrees with another's.
  for (;;) {
    let best = -1;
    for (let q = 0; q < queues.length; q++) {
      if (!queues[q]!.length) continue;
      if (best < 0 || time(queues[q]![0]!) < time(queues[best]![0]!)) best = q;
    }
    if (best < 0) return out;
    out.push(queues[best]!.shift()!);
  }
}

export interface AgentGroup {
  agent: EventAgent;
  /** This agent's events, de-duplicated, in producerSequence order. */
  events: TraceEvent[];
  children: AgentGroup[];
}

const ROLE_RANK: Record<string, number> = { orchestrator: 0, subagent: 1, browser: 1, system: 2 };

/** Whether an event is internal bookkeeping (`usage.recorded`): kept in the trace's JSON, folded away from views. */
export function isFoldedEvent(e: TraceEvent): boolean {
  return FOLDED_EVENT_TYPES.has(e.type);
}

/** The events a view shows: all but the folded ones. */
function visibleEvents(events: readonly TraceEvent[]): TraceEvent[] {
  return events.filter((e) => !isFoldedEvent(e));
}

/**
 * Groups a trace per agent: orchestrators (and agents whose parent never appeared) at the top,
 * subagents nested under their parent at any depth, the system agent last. Events without an agent
 * go to a synthetic "(unknown agent)" node so nothing is lost.
 */
export function groupByAgent(events: readonly TraceEvent[]): AgentGroup[] {
  const nodes = new Map<string, AgentGroup>();
  const firstSeen = new Map<string, number>();
  visibleEvents(dedupeEvents(events)).forEach((e, i) => {
    const agent: EventAgent = e.agent ?? { id: UNKNOWN_AGENT, role: 'unknown', parentId: undefined };
    let n = nodes.get(agent.id);
    if (!n) {
      n = { agent: { ...agent }, events: [], children: [] };
      nodes.set(agent.id, n);
      firstSeen.set(agent.id, i);
    }
    // A later event may name the parent or the name an earlier one left out.
    if (!n.agent.parentId && agent.parentId) n.agent.parentId = agent.parentId;
    if (!n.agent.name && agent.name) n.agent.name = agent.name;
    if (n.agent.role === 'unknown' && agent.role !== 'unknown') n.agent.role = agent.role;
    n.events.push(e);
  });
  for (const n of nodes.values()) n.events = orderAgentEvents(n.events);

  const startOf = (n: AgentGroup) => Math.min(...n.events.map(time), Infinity);
  // Follows the links made so far, so a parent cycle in the data is broken at the link that closes it.
  const attachedParent = new Map<string, AgentGroup>();
  const closesCycle = (child: AgentGroup, parent: AgentGroup): boolean => {
    for (let cur: AgentGroup | undefined = parent; cur; cur = attachedParent.get(cur.agent.id)) {
      if (cur === child) return true;
    }
    return false;
  };
  const roots: AgentGroup[] = [];
  for (const n of nodes.values()) {
    const parent = n.agent.parentId ? nodes.get(n.agent.parentId) : undefined;
    if (parent && !closesCycle(n, parent)) {
      parent.children.push(n);
      attachedParent.set(n.agent.id, parent);
    } else {
      roots.push(n);
    }
  }
  const byStart = (a: AgentGroup, b: AgentGroup) => {
    const sa = startOf(a);
    const sb = startOf(b);
    if (sa !== sb) return sa < sb ? -1 : 1;
    return (firstSeen.get(a.agent.id) ?? 0) - (firstSeen.get(b.agent.id) ?? 0);
  };
  const sortTree = (list: AgentGroup[]) => {
    list.sort(byStart);
    for (const n of list) sortTree(n.children);
  };
  sortTree(roots);
  roots.sort((a, b) => (ROLE_RANK[a.agent.role] ?? 1.5) - (ROLE_RANK[b.agent.role] ?? 1.5) || byStart(a, b));
  return roots;
}

/** The run's end as the trace tells it: the outcome and error of `run.finished`, if it is there. */
export function runFinished(events: readonly TraceEvent[]): TraceEvent | undefined {
  return events.find((e) => e.type === 'run.finished');
}

function clip(s: string, max = 120): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

function errorText(e: TraceEvent): string {
  if (!e.error) return '';
  const retry = e.error.retryable === true ? ', retryable' : e.error.retryable === false ? ', not retryable' : '';
  return ` [${e.error.code}${retry}]${e.error.message ? ` ${clip(e.error.message, 80)}` : ''}`;
}

/** A one-line summary of any event, known type or not. */
export function summarizeEvent(e: TraceEvent): string {
  switch (e.type) {
    case 'run.started':
      return 'run started';
    case 'run.cancel_requested':
      return `cancel requested${e.reason ? `: ${clip(e.reason)}` : ''}`;
    case 'run.finished':
      return `run finished: ${e.outcome ?? 'unknown outcome'}${errorText(e)}`;
    case 'agent.started':
      return 'agent started';
    case 'agent.finished':
      return (
        `agent finished: ${e.outcome ?? 'unknown outcome'}` +
        `${e.durationMs !== undefined ? ` after ${(e.durationMs / 1000).toFixed(1)} s` : ''}${errorText(e)}`
      );
    case 'browser.session.started':
      return 'browser session started';
    case 'browser.session.finished':
      return `browser session finished${e.durationMs !== undefined ? ` after ${(e.durationMs / 1000).toFixed(1)} s` : ''}`;
    case 'progress.reported':
      return `${e.phase ?? 'progress'}: ${clip(e.message ?? '')}`;
    case 'reasoning.summary':
      return `thinking: ${clip(e.text ?? '')}`;
    case 'assistant.message':
      return `answer: ${clip(e.text ?? '') || '(empty)'}`;
    case 'usage.recorded':
      return 'usage recorded';
    case 'tool_call.started':
      return `tool ${e.toolName ?? '?'} started`;
    case 'tool_call.finished':
      return `tool ${e.toolName ?? '?'} finished`;
    case 'artifact.updated': {
      const a = e.artifact;
      if (!a) return 'artifact updated';
      return (
        `artifact ${a.artifactId ?? a.path ?? '?'} ` +
        `(${a.kind}) ${a.change ?? 'updated'}${a.itemCount !== undefined ? `, ${a.itemCount} item${a.itemCount === 1 ? '' : 's'}` : ''}`
      );
    }
    case 'error.occurred':
      return `error${errorText(e) || ' (no details)'}`;
    default: {
      const rest = { ...(e as Record<string, unknown>) };
      for (const k of ['schemaVersion', 'eventId', 'runId', 'occurredAt', 'producerSequence', 'agent', 'type'])
        delete rest[k];
      const detail = Object.keys(rest).length ? ` ${clip(JSON.stringify(rest), 100)}` : '';
      return `${e.type}${detail}`;
    }
  }
}
