import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { groupByAgent } from '../../../src/agentRun/agentTrace';
import {
  eventAccessibleLabel,
  eventRow,
  eventState,
  formatTime,
  mergeToolCalls,
} from '../../../src/agents/eventSummary';
import { ev, ORCH, SYSTEM } from './fakeBackend';

describe('event summaries', () => {
  it('gives each known type its own icon and a one-line summary', () => {
    const t = Date.UTC(2026, 0, 1, 12, 0, 0);
    const rows = [
      eventRow(ev('progress.reported', ORCH, t, 1, { phase: 'working', message: 'Reading\nthe docs' })),
      eventRow(ev('tool_call.started', ORCH, t, 2, { toolCallId: 'c', toolName: 'navigate' })),
      eventRow(
        ev('artifact.updated', ORCH, t, 3, {
          artifact: { kind: 'json', artifactId: 'result', snapshotId: 'snap-1', change: 'append', itemCount: 2 },
        }),
      ),
      eventRow(
        ev('error.occurred', SYSTEM, t, 1, {
          error: { code: 'internal', source: 'system', retryable: true, message: 'boom' },
        }),
      ),
      eventRow(
        ev('run.finished', SYSTEM, t, 2, {
          outcome: 'credit_limit_reached',
          error: { code: 'credit_limit_reached', retryable: false },
        }),
      ),
    ];
    assert.match(rows[0]!.text, /working: Reading the docs/);
    assert.doesNotMatch(rows[0]!.text, /\n/);
    assert.match(rows[1]!.text, /navigate/);
    assert.match(rows[2]!.text, /result \(json\) append, 2 items/);
    assert.deepEqual(rows[2]!.snapshot, { snapshotId: 'snap-1', kind: 'json', artifactId: 'result', path: undefined });
    assert.match(rows[3]!.text, /internal, retryable.*boom/);
    assert.match(rows[4]!.text, /credit_limit_reached/);
    assert.equal(rows[4]!.icon.id, 'credit-card');
    assert.equal(new Set(rows.map((r) => r.icon.id)).size, rows.length);
    assert.match(rows[0]!.time, /^\d\d:\d\d:\d\d$/);
  });

  it('shows an unknown event type raw', () => {
    const s = eventRow(ev('memory.compacted', ORCH, 0, 4, { savedTokens: 1200 }));
    assert.equal(s.icon.id, 'question');
    assert.match(s.text, /memory\.compacted/);
    assert.match(s.text, /savedTokens/);
    assert.equal(s.snapshot, undefined);
  });

  it('marks artifact events without a snapshot id as not openable', () => {
    assert.equal(eventRow(ev('artifact.updated', ORCH, 0, 1, { artifact: { kind: 'markdown' } })).snapshot, undefined);
  });

  it('keeps a time it cannot parse as it came', () => {
    assert.equal(formatTime('yesterday'), 'yesterday');
    assert.equal(formatTime(undefined), '');
  });
});

describe('events per agent (api helpers as the tree uses them)', () => {
  it('nests subagents under their parent, orders by producerSequence, drops duplicates', () => {
    const sub = { id: 'r1', role: 'subagent', name: 'researcher', parentId: 'orch' };
    const reader = { id: 'p1', role: 'subagent', name: 'reader', parentId: 'r1' };
    const dup = ev('tool_call.finished', sub, 5000, 3, { toolName: 'extract' });
    const events = [
      ev('agent.started', ORCH, 1000, 1),
      ev('run.started', SYSTEM, 900, 1),
      dup,
      ev('agent.started', sub, 2000, 1),
      ev('tool_call.started', sub, 3000, 2, { toolName: 'extract' }),
      ev('agent.started', reader, 3500, 1),
      dup,
    ];
    const roots = groupByAgent(events);
    assert.deepEqual(
      roots.map((r) => r.agent.id),
      ['orch', 'sys'],
    );
    const r1 = roots[0]!.children[0]!;
    assert.equal(r1.agent.id, 'r1');
    assert.deepEqual(
      r1.events.map((e) => e.producerSequence),
      [1, 2, 3],
    );
    assert.equal(r1.children[0]!.agent.id, 'p1');
  });
});

describe('tool calls as one row', () => {
  it("merges a start and its finish into one row with the duration, at the start's place", () => {
    const t = Date.UTC(2026, 0, 1, 12, 0, 0);
    const start = ev('tool_call.started', ORCH, t, 1, { toolCallId: 'c1', toolName: 'navigate' });
    const other = ev('reasoning.summary', ORCH, t + 500, 2, { text: 'hm' });
    const finish = ev('tool_call.finished', ORCH, t + 2500, 3, { toolCallId: 'c1', toolName: 'navigate' });
    const open = ev('tool_call.started', ORCH, t + 3000, 4, { toolCallId: 'c2', toolName: 'extract' });
    const orphan = ev('tool_call.finished', ORCH, t + 3500, 5, { toolCallId: 'c9', toolName: 'read_pdf' });
    const rows = mergeToolCalls([start, other, finish, open, orphan]);
    assert.deepEqual(
      rows.map((r) => r.event.eventId),
      [start.eventId, other.eventId, open.eventId, orphan.eventId],
    );
    assert.equal(rows[0]!.finished, finish);
    assert.equal(eventRow(rows[0]!.event, rows[0]!.finished).text, 'tool navigate · 2.5 s');
    assert.match(eventRow(rows[2]!.event).text, /tool extract started/, 'a call still running keeps its own words');
  });
});

describe('accessible names of trace rows: the state first', () => {
  it('says what each event did before what it is', () => {
    const t = Date.UTC(2026, 0, 1, 12, 0, 0);
    const start = ev('tool_call.started', ORCH, t, 2, { toolCallId: 'c', toolName: 'navigate' });
    const end = ev('tool_call.finished', ORCH, t + 1200, 3, { toolCallId: 'c', toolName: 'navigate' });
    assert.match(eventAccessibleLabel(start, end), /^Done: tool navigate · 1\.2 s, at \d\d:\d\d:\d\d$/);
    assert.match(eventAccessibleLabel(start), /^Started: tool navigate started, at /);
    assert.match(
      eventAccessibleLabel(ev('run.finished', SYSTEM, t, 9, { outcome: 'succeeded', error: null })),
      /^Completed: run finished: succeeded, at /,
    );
    assert.match(
      eventAccessibleLabel(
        ev('run.finished', SYSTEM, t, 9, {
          outcome: 'credit_limit_reached',
          error: { code: 'credit_limit_reached', retryable: false },
        }),
      ),
      /^Credit limit reached: run finished: credit_limit_reached/,
    );
    assert.match(
      eventAccessibleLabel(
        ev('agent.finished', ORCH, t, 9, { outcome: 'failed', error: { code: 'internal', retryable: false } }),
      ),
      /^Failed: agent finished: failed/,
    );
    assert.match(
      eventAccessibleLabel(
        ev('error.occurred', SYSTEM, t, 1, {
          error: { code: 'internal', source: 'system', retryable: true, message: 'boom' },
        }),
      ),
      /^Error: error \[internal, retryable\] boom/,
    );
    assert.match(
      eventAccessibleLabel(
        ev('artifact.updated', ORCH, t, 3, { artifact: { kind: 'json', artifactId: 'result', change: 'append' } }),
      ),
      /^Updated: artifact result \(json\) append/,
    );
    assert.match(
      eventAccessibleLabel(ev('progress.reported', ORCH, t, 1, { phase: 'working', message: 'Reading' })),
      /^Reported: working: Reading, at /,
    );
    assert.match(eventAccessibleLabel(ev('memory.compacted', ORCH, t, 4, {})), /^Reported: memory\.compacted/);
    assert.equal(
      eventState(
        ev('tool_call.finished', ORCH, t, 3, { toolCallId: 'x', error: { code: 'timeout', retryable: true } }),
      ),
      'failed',
    );
  });
});
