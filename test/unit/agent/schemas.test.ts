import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  AgentJobRecordSchema,
  CancelResponseSchema,
  ListResponseSchema,
  SnapshotResponseSchema,
  SubmitResponseSchema,
  TraceResponseSchema,
} from '../../../src/api/agent/agentSchemas';
import { isTerminalStatus } from '../../../src/api/agent/agentConstants';

test('job record: unknown fields and status values are kept; wrong-typed optional fields are dropped', () => {
  const r = AgentJobRecordSchema.parse({
    success: true,
    id: 'x',
    status: 'cancelling',
    creditsUsed: 'many',
    error: 42,
    futureField: { a: 1 },
  });
  assert.equal(r.status, 'cancelling');
  assert.equal(r.creditsUsed, undefined);
  assert.equal(r.error, undefined);
  assert.deepEqual((r as Record<string, unknown>).futureField, { a: 1 });
  assert.equal(
    AgentJobRecordSchema.safeParse({ success: true }).success,
    false,
    'a record without a status is not a job record',
  );
  assert.equal(isTerminalStatus('cancelling'), false);
  assert.equal(isTerminalStatus('failed'), true);
});

test('submit response needs an id; cancel accepts an empty body', () => {
  assert.equal(SubmitResponseSchema.safeParse({ success: true }).success, false);
  assert.equal(SubmitResponseSchema.parse({ success: true, id: 'abc', extra: 1 }).id, 'abc');
  assert.deepEqual(CancelResponseSchema.parse(undefined), {});
});

test('trace: unknown event types, odd shapes and non-objects never crash and are kept', () => {
  const r = TraceResponseSchema.parse({
    success: true,
    id: 'job',
    events: [
      { eventId: 'a', type: 'run.started', producerSequence: 1, agent: { id: 's', role: 'system', name: 'system' } },
      {
        eventId: 'b',
        type: 'quantum.entangled',
        producerSequence: 'two',
        agent: { id: 'o', role: 'overlord' },
        payload: [1, 2],
      },
      { eventId: 'c', agent: 'not an object', error: { code: 'brand_new_code', retryable: 'maybe' } },
      'garbage',
      null,
      {
        eventId: 'd',
        type: 'artifact.updated',
        artifact: { kind: 'hologram', change: 'morph', snapshotId: 's1' },
        agent: { id: 'o', role: 'orchestrator', parentId: null },
      },
    ],
    creditsUsed: 12,
    activeBrowserSessions: [{ id: 'b1', liveViewUrl: 'https://x' }, 'junk'],
  });
  assert.equal(r.events.length, 6);
  assert.equal(r.events[1]!.type, 'quantum.entangled');
  assert.equal(r.events[1]!.producerSequence, undefined);
  assert.equal(r.events[1]!.agent?.role, 'overlord');
  assert.deepEqual((r.events[1] as Record<string, unknown>).payload, [1, 2]);
  assert.equal(r.events[2]!.type, 'unknown');
  assert.equal(r.events[2]!.agent, undefined);
  assert.equal(r.events[2]!.error?.code, 'brand_new_code');
  assert.equal(r.events[2]!.error?.retryable, undefined);
  assert.equal(r.events[3]!.type, 'unknown');
  assert.equal((r.events[3] as Record<string, unknown>).value, 'garbage');
  assert.equal(r.events[5]!.artifact?.kind, 'hologram');
  assert.equal(r.events[5]!.agent?.parentId, undefined);
  assert.equal(r.activeBrowserSessions?.length, 1);
});

test('trace without events or with events of the wrong type still parses', () => {
  assert.deepEqual(TraceResponseSchema.parse({ success: true }).events, []);
  assert.deepEqual(TraceResponseSchema.parse({ success: true, events: 'nope' }).events, []);
});

test('snapshot: string kept as is, object turned into JSON text', () => {
  assert.equal(SnapshotResponseSchema.parse({ snapshot: '{"a":1}' }).snapshot, '{"a":1}');
  assert.deepEqual(JSON.parse(SnapshotResponseSchema.parse({ snapshot: { a: 1 } }).snapshot!), { a: 1 });
});

test('list: rows without id are left out, others kept with unknown status and fields', () => {
  const r = ListResponseSchema.parse({
    success: true,
    jobs: [
      {
        id: 'a',
        status: 'queued',
        options: { prompt: 'p', urls: null, model: 7 },
        settings: { label: null },
        pinned: true,
      },
      { status: 'completed' },
      5,
    ],
    next: '/v2/agent?before=10',
  });
  assert.equal(r.agents.length, 1);
  assert.equal(r.agents[0]!.status, 'queued');
  assert.equal(r.agents[0]!.options?.model, undefined);
  assert.equal(r.agents[0]!.options?.urls, null);
  assert.equal((r.agents[0] as Record<string, unknown>).pinned, true);
  assert.equal(r.next, '/v2/agent?before=10');
});

test("list: production's `agents` and the older `jobs` both read into `agents`; `agents` wins when both come", () => {
  const row = (id: string) => ({
    id,
    createdAt: '2026-11-23T10:00:00.000Z',
    status: 'processing',
    options: { prompt: id, effort: 'high' },
    settings: { hidden: false, starred: false },
  });
  assert.deepEqual(
    ListResponseSchema.parse({ success: true, agents: [row('p')] }).agents.map((a) => a.id),
    ['p'],
  );
  assert.deepEqual(
    ListResponseSchema.parse({ success: true, jobs: [row('s')] }).agents.map((a) => a.id),
    ['s'],
  );
  assert.deepEqual(
    ListResponseSchema.parse({ success: true, agents: [row('p')], jobs: [row('s')] }).agents.map((a) => a.id),
    ['p'],
  );
  assert.deepEqual(ListResponseSchema.parse({ success: true }).agents, []);
  const withThread = ListResponseSchema.parse({
    success: true,
    agents: [{ ...row('t'), threadId: 'th_1', threadTurn: 2, createdAt: 1_700_000_000_000 }],
  });
  assert.equal(withThread.agents[0]!.threadId, 'th_1');
  assert.equal(withThread.agents[0]!.createdAt, 1_700_000_000_000);
  assert.equal(withThread.agents[0]!.options?.effort, 'high');
});

test("status: production's record without id, cancelled, partial, expiresAt, effort and thread fields", () => {
  const r = AgentJobRecordSchema.parse({
    success: true,
    status: 'failed',
    error: 'Credit limit reached',
    creditsUsed: 0,
    partial: { items: [1] },
    partialSchemaValid: true,
    stopReason: 'credit_limit_reached',
    model: 'spark-2',
    effort: 'low',
    expiresAt: '2026-11-24T10:00:00.000Z',
    threadId: 'th',
    threadTurn: 1,
  });
  assert.equal(r.id, undefined);
  assert.deepEqual(r.partial, { items: [1] });
  assert.equal(r.expiresAt, '2026-11-24T10:00:00.000Z');
  assert.equal(r.effort, 'low');
  assert.equal(r.threadTurn, 1);
  assert.equal(isTerminalStatus(AgentJobRecordSchema.parse({ status: 'cancelled', creditsUsed: 12 }).status), true);
  // Thread fields of an unexpected type are dropped, never a reason to refuse the record.
  const odd = AgentJobRecordSchema.parse({ status: 'processing', threadId: 5, threadTurn: 'two', error: null });
  assert.equal(odd.threadId, undefined);
  assert.equal(odd.threadTurn, undefined);
  assert.equal(SubmitResponseSchema.parse({ success: true, id: 'j', threadId: 'th', threadTurn: 1 }).threadId, 'th');
});
