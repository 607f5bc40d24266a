// The trace as the tree shows it: events de-duplicated by `eventId`, grouped per agent, ordered by
// `producerSequence`, subagents nested under the agent that spawned them. Events are untrusted and
// their type-specific fields are read by name with a type check (unknown types must never crash).
import type { AgentTraceAgent, AgentTraceEvent } from './agentBackend';

export function field(ev: object, name: string): unknown {
  return (ev as Record<string, unknown>)[name];
}

export function stringField(ev: object, name: string): string | undefined {
  const v = field(ev, name);
  return typeof v === 'string' ? v : undefined;
}

export function numberField(ev: object, name: string): number | undefined {
  const v = field(ev, name);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function objectField(ev: object, name: string): Record<string, unknown> | undefined {
  const v = field(ev, name);
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** Adds the events not seen before to `known`; returns only those, in arrival order. */
export function mergeEvents(known: Map<string, AgentTraceEvent>, incoming: readonly AgentTraceEvent[]): AgentTraceEvent[] {
  const added: AgentTraceEvent[] = [];
  for (const ev of incoming) {
    if (typeof ev?.eventId !== 'string' || known.has(ev.eventId)) continue;
    known.set(ev.eventId, ev);
    added.push(ev);
  }
  return added;
}

export function compareEvents(a: AgentTraceEvent, b: AgentTraceEvent): number {
  return (a.producerSequence - b.producerSequence)
    || Date.parse(a.occurredAt) - Date.parse(b.occurredAt)
    || (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0);
}

export interface AgentGroup {
  agent: AgentTraceAgent;
  events: AgentTraceEvent[];
  children: AgentGroup[];
}

/** Roots are agents without a (known) parent: normally the orchestrator and the system agent. */
export function buildAgentTree(events: Iterable<AgentTraceEvent>): AgentGroup[] {
  const groups = new Map<string, AgentGroup>();
  const firstSeen = new Map<string, number>();
  let i = 0;
  for (const ev of events) {
    const id = ev.agent?.id;
    if (typeof id !== 'string') continue;
    let g = groups.get(id);
    if (!g) {
      g = { agent: { ...ev.agent }, events: [], children: [] };
      groups.set(id, g);
      firstSeen.set(id, i);
    } else {
      // Later events may name the agent or its parent when earlier ones did not.
      if (!g.agent.name && ev.agent.name) g.agent.name = ev.agent.name;
      if (!g.agent.parentId && ev.agent.parentId) g.agent.parentId = ev.agent.parentId;
    }
    g.events.push(ev);
    i++;
  }
  for (const g of groups.values()) g.events.sort(compareEvents);
  const startOf = (g: AgentGroup): number => Date.parse(g.events[0]?.occurredAt ?? '') || 0;
  const order = (a: AgentGroup, b: AgentGroup): number => startOf(a) - startOf(b) || firstSeen.get(a.agent.id)! - firstSeen.get(b.agent.id)!;

  const roots: AgentGroup[] = [];
  for (const g of [...groups.values()].sort(order)) {
    const parent = g.agent.parentId ? groups.get(g.agent.parentId) : undefined;
    if (parent && parent !== g && !isAncestor(g, parent, groups)) parent.children.push(g);
    else roots.push(g);
  }
  return roots;
}

/** True when `g` is already above `candidate` in the parent chain: a cycle in untrusted data. */
function isAncestor(g: AgentGroup, candidate: AgentGroup, groups: Map<string, AgentGroup>): boolean {
  const seen = new Set<string>();
  let cur: AgentGroup | undefined = candidate;
  while (cur && !seen.has(cur.agent.id)) {
    if (cur === g) return true;
    seen.add(cur.agent.id);
    cur = cur.agent.parentId ? groups.get(cur.agent.parentId) : undefined;
  }
  return false;
}

export function findEvent(events: Iterable<AgentTraceEvent>, type: string): AgentTraceEvent | undefined {
  for (const ev of events) if (ev.type === type) return ev;
  return undefined;
}

/** The `error` object of terminal and `error.occurred` events (spec 7.3), if well formed. */
export function eventError(ev: object): { code?: string; source?: string; retryable?: boolean; message?: string } | undefined {
  const e = objectField(ev, 'error');
  if (!e) return undefined;
  return {
    code: typeof e.code === 'string' ? e.code : undefined,
    source: typeof e.source === 'string' ? e.source : undefined,
    retryable: typeof e.retryable === 'boolean' ? e.retryable : undefined,
    message: typeof e.message === 'string' ? e.message : undefined,
  };
}
