import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTraceEvent, type TraceEvent } from '../../../src/api/agent/agentSchemas';
import {
  dedupeEvents,
  groupByAgent,
  mergeEvents,
  orderEvents,
  summarizeEvent,
  type AgentGroup,
} from '../../../src/agentRun/agentTrace';

const T0 = Date.parse('2025-01-01T00:00:00Z');
const orch = { id: 'o', role: 'orchestrator', name: 'orchestrator' };
const sub1 = { id: 's1', role: 'subagent', name: 'researcher-1', parentId: 'o' };
const sub2 = { id: 's2', role: 'subagent', name: 'researcher-2', parentId: 'o' };
const nested = { id: 'n1', role: 'subagent', name: 'reader', parentId: 's1' };
const sys = { id: 'sys', role: 'system', name: 'system' };

function ev(
  eventId: string,
  agent: object,
  seq: number,
  ms: number,
  type = 'progress.reported',
  extra: object = {},
): TraceEvent {
  return parseTraceEvent({
    schemaVersion: 1,
    eventId,
    runId: 'r',
    occurredAt: new Date(T0 + ms).toISOString(),
    producerSequence: seq,
    agent,
    type,
    ...extra,
  });
}

const ids = (l: TraceEvent[]) => l.map((e) => e.eventId);
const names = (l: AgentGroup[]): unknown =>
  l.map((n) => (n.children.length ? [n.agent.name, names(n.children)] : n.agent.name));

test('de-duplicates by eventId, first copy wins, across merges', () => {
  const a = ev('a', orch, 1, 0);
  const b = ev('b', orch, 2, 10);
  const bAgain = ev('b', orch, 2, 10, 'progress.reported', { message: 'second copy' });
  assert.deepEqual(ids(dedupeEvents([a, b, bAgain, a])), ['a', 'b']);
  const merged = mergeEvents([a], [a, bAgain, b]);
  assert.deepEqual(ids(merged), ['a', 'b']);
  assert.equal(merged[1]!.message, 'second copy');
});

test('events without eventId are de-duplicated by agent and sequence', () => {
  const x = parseTraceEvent({ type: 'progress.reported', agent: orch, producerSequence: 3 });
  const y = parseTraceEvent({ type: 'progress.reported', agent: orch, producerSequence: 3 });
  const z = parseTraceEvent({ type: 'progress.reported', agent: orch, producerSequence: 4 });
  assert.equal(dedupeEvents([x, y, z]).length, 2);
});

test('orders each agent by producerSequence even when arrival and clocks disagree', () => {
  // The orchestrator's clock runs behind: its sequence 2 has an earlier time than sequence 1.
  const events = [
    ev('o2', orch, 2, 5),
    ev('s1', sub1, 1, 20),
    ev('o1', orch, 1, 30),
    ev('o3', orch, 3, 40),
    ev('s2', sub1, 2, 25),
  ];
  const out = orderEvents(events);
  const orchOrder = out.filter((e) => e.agent?.id === 'o').map((e) => e.eventId);
  assert.deepEqual(orchOrder, ['o1', 'o2', 'o3']);
  const subOrder = out.filter((e) => e.agent?.id === 's1').map((e) => e.eventId);
  assert.deepEqual(subOrder, ['s1', 's2']);
  assert.equal(out.length, 5);
});

test('groups per agent: orchestrator at the top with subagents nested under their parent, system last', () => {
  const events = [
    ev('y1', sys, 1, 0, 'run.started'),
    ev('n1', nested, 1, 300, 'agent.started'),
    ev('o1', orch, 1, 10, 'agent.started'),
    ev('b1', sub2, 1, 200, 'agent.started'),
    ev('a1', sub1, 1, 100, 'agent.started'),
    ev('a2', sub1, 2, 150),
    ev('a2', sub1, 2, 150),
    ev('y2', sys, 2, 900, 'run.finished', { outcome: 'succeeded' }),
  ];
  const tree = groupByAgent(events);
  assert.deepEqual(names(tree), [['orchestrator', [['researcher-1', ['reader']], 'researcher-2']], 'system']);
  const r1 = tree[0]!.children[0]!;
  assert.deepEqual(ids(r1.events), ['a1', 'a2']);
});

test('an agent whose parent never appeared, a parent cycle, and events without an agent are all kept at the top', () => {
  const events = [
    ev('o1', orch, 1, 0),
    ev('x1', { id: 'x', role: 'subagent', name: 'orphan', parentId: 'missing' }, 1, 10),
    ev('c1', { id: 'c1', role: 'subagent', name: 'loop-a', parentId: 'c2' }, 1, 20),
    ev('c2', { id: 'c2', role: 'subagent', name: 'loop-b', parentId: 'c1' }, 1, 30),
    parseTraceEvent({ eventId: 'u', type: 'mystery' }),
  ];
  const tree = groupByAgent(events);
  const count = (l: AgentGroup[]): number => l.reduce((s, n) => s + n.events.length + count(n.children), 0);
  assert.equal(count(tree), 5, 'no event lost');
  const top = tree.map((n) => n.agent.name ?? n.agent.id);
  assert.ok(top.includes('orchestrator') && top.includes('orphan') && top.includes('(unknown agent)'));
  const loopTop = tree.filter((n) => n.agent.name === 'loop-a' || n.agent.name === 'loop-b');
  assert.equal(loopTop.length, 1, 'the cycle is broken once');
  assert.equal(loopTop[0]!.children.length, 1);
});

test('summaries: outcome, error code and retryability, artifact change, unknown type shown raw', () => {
  assert.equal(
    summarizeEvent(
      ev('1', sys, 1, 0, 'run.finished', {
        outcome: 'credit_limit_reached',
        error: { code: 'credit_limit_reached', retryable: false, message: 'limit' },
      }),
    ),
    'run finished: credit_limit_reached [credit_limit_reached, not retryable] limit',
  );
  assert.equal(
    summarizeEvent(
      ev('2', orch, 1, 0, 'artifact.updated', {
        artifact: { kind: 'json', artifactId: 'result', change: 'append', itemCount: 2, snapshotId: 's' },
      }),
    ),
    'artifact result (json) append, 2 items',
  );
  assert.equal(
    summarizeEvent(ev('3', sub1, 1, 0, 'tool_call.started', { toolName: 'navigate' })),
    'tool navigate started',
  );
  assert.equal(
    summarizeEvent(ev('4', sub1, 1, 0, 'progress.reported', { phase: 'working', message: 'Reading\n a page' })),
    'working: Reading a page',
  );
  assert.equal(summarizeEvent(ev('5', sub1, 1, 0, 'telepathy.sent', { to: 'o' })), 'telepathy.sent {"to":"o"}');
  assert.equal(summarizeEvent(parseTraceEvent(17)), 'unknown {"value":17}');
});
