// The run engine's reducers without any surface: what each kind of news does to a run's facts and to
// the signal the schedule gets, when the status is read, and followRun's failures.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { followRun } from '../../../src/agentRun/runEngine';
import {
  applyStatus,
  applyTrace,
  nearEnd,
  needsStatus,
  newRunState,
  readSignals,
  type RunFacts,
} from '../../../src/agentRun/runState';
import { endMessage, jobState } from '../../../src/agentRun/runOutcome';
import type { TraceEvent } from '../../../src/api/agent/agentSchemas';

const orch = { id: 'o', role: 'orchestrator', name: 'orchestrator' };
const sub = { id: 's', role: 'subagent', name: 'researcher', parentId: 'o' };
let n = 0;
const ev = (agent: object, type: string, extra: object = {}): TraceEvent =>
  ({
    eventId: `e${++n}`,
    producerSequence: n,
    agent,
    type,
    occurredAt: new Date(1_700_000_000_000 + n * 1000).toISOString(),
    ...extra,
  }) as TraceEvent;
const facts = (extra: Partial<RunFacts> = {}): RunFacts => ({
  status: 'processing',
  trace: { eventCount: 0, finished: false },
  ...extra,
});

describe('run engine: signals', () => {
  it('routine: tool calls, reasoning, messages within a phase, browser sessions, unknown types', () => {
    const run = newRunState();
    readSignals(run, [ev(orch, 'progress.reported', { phase: 'working' })]);
    for (const e of [
      ev(sub, 'tool_call.started'),
      ev(sub, 'tool_call.finished'),
      ev(orch, 'reasoning.summary'),
      ev(orch, 'progress.reported', { phase: 'working', message: 'more' }),
      ev(sub, 'browser.session.started'),
      ev(sub, 'something.new'),
    ]) {
      assert.equal(readSignals(run, [e]), 'routine', e.type);
    }
    assert.equal(readSignals(run, []), 'none');
  });

  it('significant: a phase change, an artifact, an agent finishing, an error, a cancel request, the end', () => {
    for (const e of [
      ev(orch, 'progress.reported', { phase: 'planning' }),
      ev(orch, 'artifact.updated'),
      ev(sub, 'agent.finished'),
      ev(orch, 'error.occurred'),
      ev(orch, 'run.cancel_requested'),
      ev(orch, 'run.finished'),
    ]) {
      assert.equal(readSignals(newRunState(), [e]), 'significant', e.type);
    }
  });

  it('the end is near: finalizing, the orchestrator finished, a cancel, a fatal error, credits close to the ceiling', () => {
    const cases: Array<[string, TraceEvent[], Partial<RunFacts>]> = [
      ['finalizing', [ev(orch, 'progress.reported', { phase: 'finalizing' })], {}],
      ['orchestrator finished', [ev(orch, 'agent.finished')], {}],
      ['cancel requested', [ev(orch, 'run.cancel_requested')], {}],
      ['fatal error', [ev(orch, 'error.occurred', { error: { code: 'internal', retryable: false } })], {}],
      ['90% of the ceiling', [], { creditsUsed: 90, maxCredits: 100 }],
      ['a cancel from here', [], { cancelRequested: true }],
    ];
    for (const [name, events, f] of cases) {
      const run = newRunState();
      readSignals(run, events);
      assert.equal(nearEnd(facts(f), run), true, name);
    }
    const quiet = newRunState();
    readSignals(quiet, [
      ev(sub, 'error.occurred', { error: { code: 'internal', retryable: true } }),
      ev(sub, 'agent.finished'),
    ]);
    assert.equal(
      nearEnd(facts({ creditsUsed: 10, maxCredits: 100 }), quiet),
      false,
      'a retryable error or a subagent finishing is not the end',
    );
  });
});

describe('run engine: reducers', () => {
  it('reads the end from run.finished, de-duplicates by eventId, and keeps the credits', () => {
    const f = facts();
    const run = newRunState();
    const fin = ev(orch, 'run.finished', {
      outcome: 'cancelled',
      error: { code: 'cancelled', retryable: false, message: 'stopped' },
    });
    const r = applyTrace(f, run, { events: [ev(orch, 'run.started'), fin, fin], creditsUsed: 12 }, 5);
    assert.equal(r.added.length, 2);
    assert.equal(f.trace.finished, true);
    assert.equal(f.status, 'failed', "the specification's status for a cancelled run, until the record says more");
    assert.equal(jobState({ ...f, prompt: 'p' }), 'cancelled');
    assert.equal(f.creditsUsed, 12);
    assert.equal(applyTrace(f, run, { events: [fin], creditsUsed: 12 }, 6).changed, false);
  });

  it('a production record: cancelled with credits spent, partial, expiresAt, effort; the final record is read once', () => {
    const f = facts({ trace: { eventCount: 3, finished: true } });
    const run = newRunState();
    assert.equal(needsStatus(f, run, 0), true, 'the poll that sees the end reads the record');
    applyStatus(f, {
      status: 'cancelled',
      creditsUsed: 37,
      expiresAt: '2026-11-24T10:00:00.000Z',
      effort: 'low',
      partial: { items: [1] },
    });
    assert.equal(f.finalRead, true);
    assert.equal(f.hasPartial, true);
    assert.equal(f.expiresAt, '2026-11-24T10:00:00.000Z');
    assert.equal(needsStatus(f, run, 1), false, 'and only once');
    assert.match(endMessage({ ...f, prompt: 'p' })!.text, /cancelled\. It used 37 credits before it stopped\./);
  });

  it('reads the status after a quiet spell (15 s by default: a waiting run goes quiet), and always without a trace', () => {
    const run = newRunState();
    run.lastNewEventAt = 0;
    run.lastStatusAt = 0;
    assert.equal(needsStatus(facts(), run, 14_999), false);
    assert.equal(needsStatus(facts(), run, 15_000), true);
    assert.equal(needsStatus(facts(), run, 299_000, 300_000), false, 'a longer safety net when asked for');
    assert.equal(needsStatus(facts(), run, 300_000, 300_000), true);
    assert.equal(needsStatus(facts({ trace: { eventCount: 0, finished: false, unavailable: true } }), run, 1), true);
  });
});

describe('run engine: followRun', () => {
  it('rejects with the failure when polling cannot go on (not found), after one poll', async () => {
    let t = 0;
    const notFound = Object.assign(new Error('Agent job not found'), { reason: 'not-found', status: 404 });
    const e = await followRun({
      jobId: 'j',
      clock: {
        now: () => t,
        sleep: async (ms) => {
          t += ms;
        },
      },
      backend: {
        trace: async () => {
          throw notFound;
        },
        status: async () => {
          throw notFound;
        },
      },
    }).then(
      () => undefined,
      (x: unknown) => x,
    );
    assert.equal(e, notFound);
    assert.equal(t, 2000);
  });

  it('retries a transient failure on the schedule, honouring Retry-After', async () => {
    let t = 0;
    let calls = 0;
    const r = await followRun({
      jobId: 'j',
      clock: {
        now: () => t,
        sleep: async (ms) => {
          t += ms;
        },
      },
      backend: {
        trace: async () => {
          calls++;
          if (calls === 1) throw Object.assign(new Error('busy'), { reason: 'rate-limit', retryAfterMs: 9000 });
          return { events: [ev(orch, 'run.finished', { outcome: 'succeeded' })] };
        },
        status: async () => ({ status: 'completed', data: { ok: true } }),
      },
    });
    assert.equal(r.facts.status, 'completed');
    assert.ok(t >= 2000 + 9000, `waited out Retry-After: ${t}`);
    assert.deepEqual(r.record?.data, { ok: true });
  });
});
