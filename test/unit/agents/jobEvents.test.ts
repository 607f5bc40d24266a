// The agent jobs' functional core: each event's next jobs and effects, the merge rules of two
// windows' views, and tombstones (a removed job never comes back through the list or another window's write).
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { type JobEffect, type JobsView, mergeJobs, reduceJobs, submittedJob } from '../../../src/agents/jobEvents';
import type { AgentJob } from '../../../src/agents/jobModel';
import type { AgentListEntry } from '../../../src/api/agent/agentSchemas';

const job = (id: string, extra: Partial<AgentJob> = {}): AgentJob => ({
  id,
  prompt: id,
  createdAt: 1,
  origin: 'user',
  status: 'processing',
  trace: { eventCount: 0, finished: false },
  ...extra,
});
const view = (...jobs: AgentJob[]): JobsView => new Map(jobs.map((j) => [j.id, j]));
const kinds = (effects: JobEffect[]): string[] => effects.map((e) => ('id' in e ? `${e.kind}:${e.id}` : e.kind));
const frozen = (v: JobsView): string => JSON.stringify([...v]);

describe('jobs reducer: one event at a time', () => {
  it('submitted: the job the submission started is shown and followed (its record was written first)', () => {
    const j = submittedJob(
      { prompt: 'find x', model: 'spark-1', threadId: 'th_old', mode: 'chat' },
      { id: 'a1', response: { threadId: 'th_1', threadTurn: 2 } },
      500,
    );
    assert.deepEqual(
      {
        id: j.id,
        prompt: j.prompt,
        createdAt: j.createdAt,
        origin: j.origin,
        status: j.status,
        model: j.model,
        threadId: j.threadId,
        threadTurn: j.threadTurn,
        mode: j.mode,
        trace: j.trace,
      },
      {
        id: 'a1',
        prompt: 'find x',
        createdAt: 500,
        origin: 'user',
        status: 'processing',
        model: 'spark-1',
        threadId: 'th_1',
        threadTurn: 2,
        mode: 'chat',
        trace: { eventCount: 0, finished: false },
      },
      'the thread the service answered wins over the one asked for',
    );
    const before = view(job('old'));
    const r = reduceJobs(before, { type: 'submitted', job: j });
    assert.deepEqual([...r.jobs.keys()].sort(), ['a1', 'old']);
    assert.deepEqual(kinds(r.effects), ['structural', 'follow:a1']);
    assert.deepEqual([...before.keys()], ['old'], 'the jobs before are left as they were');
  });

  it("turn: an answered approval's next turn is a new job of the thread, persisted and followed", () => {
    const r = reduceJobs(view(), {
      type: 'turn',
      said: 'Approved.',
      threadId: 'th_1',
      res: { id: 't2', response: { threadTurn: 3 } },
      now: 9,
    });
    const t = r.jobs.get('t2')!;
    assert.equal(t.prompt, 'Approved.');
    assert.equal(t.threadId, 'th_1');
    assert.equal(t.threadTurn, 3);
    assert.equal(t.origin, 'user');
    assert.deepEqual(kinds(r.effects), ['persist:t2', 'structural', 'follow:t2']);
  });

  it('tracked: an unknown run is added from the service; a known running one is polled soon, an ended one left alone', () => {
    const added = reduceJobs(view(), { type: 'tracked', id: 'r9', threadId: 'th', now: 3 });
    assert.equal(added.jobs.get('r9')?.origin, 'service');
    assert.equal(added.jobs.get('r9')?.threadId, 'th');
    assert.deepEqual(kinds(added.effects), ['persist:r9', 'structural', 'follow:r9']);
    const running = view(job('r9'));
    const soon = reduceJobs(running, { type: 'tracked', id: 'r9', now: 3 });
    assert.equal(soon.jobs, running, 'nothing changes');
    assert.deepEqual(kinds(soon.effects), ['pollSoon:r9']);
    assert.deepEqual(
      kinds(reduceJobs(view(job('r9', { status: 'completed' })), { type: 'tracked', id: 'r9', now: 3 }).effects),
      [],
    );
  });

  it('observed (trace or status read): the merged view replaces the job; without one (removed elsewhere) the job goes', () => {
    const mine = job('a', { status: 'processing', trace: { eventCount: 4, finished: false } });
    const merged = { ...mine, status: 'completed' };
    const r = reduceJobs(view(mine), { type: 'observed', job: mine, merged });
    assert.equal(r.jobs.get('a'), merged);
    assert.deepEqual(r.effects, []);
    const gone = reduceJobs(view(mine, job('b')), { type: 'observed', job: mine, merged: undefined });
    assert.deepEqual([...gone.jobs.keys()], ['b']);
    assert.deepEqual(kinds(gone.effects), ['forget:a', 'structural']);
    assert.deepEqual(
      reduceJobs(view(), { type: 'observed', job: mine, merged }).effects,
      [],
      'a job not (yet) shown is not added by a read',
    );
  });

  it('listed: a new entry becomes a job (an ended one counts as told), a known one moves on, an ended or removed one stays put', () => {
    const entry = (id: string, status: string, extra: Partial<AgentListEntry> = {}): AgentListEntry =>
      ({ id, status, ...extra }) as AgentListEntry;
    const r = reduceJobs(view(), {
      type: 'listed',
      entry: entry('n1', 'completed', {
        createdAt: '2026-11-01T00:00:00Z',
        options: { prompt: 'p', threadId: 'th', threadTurn: 1 },
      } as Partial<AgentListEntry>),
      removed: false,
      now: 7,
    });
    const n1 = r.jobs.get('n1')!;
    assert.equal(n1.createdAt, Date.parse('2026-11-01T00:00:00Z'));
    assert.equal(n1.notified, true, 'history, not news');
    assert.equal(n1.origin, 'service');
    assert.equal(n1.threadTurn, 1);
    assert.deepEqual(kinds(r.effects), ['persist:n1', 'structural'], 'an ended run is not followed');
    const running = reduceJobs(view(), { type: 'listed', entry: entry('n2', 'processing'), removed: false, now: 7 });
    assert.equal(running.jobs.get('n2')?.createdAt, 7, 'no time in the entry: now');
    assert.deepEqual(kinds(running.effects), ['persist:n2', 'structural', 'follow:n2']);

    const known = view(job('k', { status: 'processing' }));
    const moved = reduceJobs(known, { type: 'listed', entry: entry('k', 'completed'), removed: false, now: 7 });
    assert.equal(moved.jobs.get('k')?.status, 'completed');
    assert.equal(known.get('k')?.status, 'processing', 'a new object, the old one unchanged');
    assert.deepEqual(kinds(moved.effects), ['persist:k', 'changed:k', 'pollSoon:k']);
    for (const before of [job('k', { status: 'failed' }), job('k', { notFound: true })]) {
      const still = reduceJobs(view(before), {
        type: 'listed',
        entry: entry('k', 'processing'),
        removed: false,
        now: 7,
      });
      assert.equal(
        still.jobs.get('k')?.status,
        before.status,
        'an end, or a job the service does not know, is not undone by a list',
      );
    }
    const stone = reduceJobs(view(), { type: 'listed', entry: entry('gone', 'processing'), removed: true, now: 7 });
    assert.equal(stone.jobs.size, 0, 'a tombstoned job never comes back from the list');
    assert.equal(
      reduceJobs(view(), { type: 'listed', entry: { id: 5 } as unknown as AgentListEntry, removed: false, now: 7 }).jobs
        .size,
      0,
      'a malformed entry is ignored',
    );
  });

  it("synced: other windows' jobs appear (followed only once resumed), their removals go, their knowledge is merged in", () => {
    const mine = view(job('a', { trace: { eventCount: 2, finished: false } }), job('b'), job('starting'));
    const before = frozen(mine);
    const r = reduceJobs(mine, {
      type: 'synced',
      stored: [
        job('a', { trace: { eventCount: 5, finished: false } }),
        job('c'),
        job('d', { status: 'completed' }),
        job('s2'),
      ],
      removed: new Set(['b', 'never-known']),
      starting: new Set(['s2']),
      follow: true,
    });
    assert.deepEqual([...r.jobs.keys()].sort(), ['a', 'c', 'd', 'starting']);
    assert.equal(r.jobs.get('a')?.trace.eventCount, 5);
    assert.deepEqual(
      kinds(r.effects),
      ['forget:b', 'changed:a', 'follow:c', 'structural'],
      'an ended job (d) is not followed; the tree is told once, at the end',
    );
    assert.equal(frozen(mine), before, 'the jobs before are left as they were');
    const notResumed = reduceJobs(view(), {
      type: 'synced',
      stored: [job('c')],
      removed: new Set(),
      starting: new Set(),
      follow: false,
    });
    assert.deepEqual(kinds(notResumed.effects), ['structural']);
    const same = view(job('a'));
    const quiet = reduceJobs(same, {
      type: 'synced',
      stored: [job('a')],
      removed: new Set(),
      starting: new Set(),
      follow: true,
    });
    assert.deepEqual(quiet.effects, [], 'nothing new: nothing to tell');
  });

  it('removed: the job goes, its polling stops, and a tombstone keeps it out for every window', () => {
    const r = reduceJobs(view(job('a'), job('b')), { type: 'removed', id: 'a' });
    assert.deepEqual([...r.jobs.keys()], ['b']);
    assert.deepEqual(kinds(r.effects), ['forget:a', 'tombstone:a', 'structural']);
    assert.deepEqual(reduceJobs(view(), { type: 'removed', id: 'a' }).effects, [], 'an unknown job: nothing');
  });
});

describe("jobs reducer: merging two windows' views of a job", () => {
  it('facts only grow: events read, the end, the kept result, the notification', () => {
    const stored = job('a', {
      status: 'completed',
      outcome: 'succeeded',
      notified: true,
      kept: { result: true, partial: false },
      trace: { eventCount: 9, finished: true },
    });
    const mine = job('a', { status: 'processing', pollError: 'x', trace: { eventCount: 3, finished: false } });
    const m = mergeJobs(stored, mine);
    assert.equal(m.status, 'completed', 'the end is never undone');
    assert.equal(m.outcome, 'succeeded');
    assert.equal(m.notified, true);
    assert.deepEqual(m.kept, { result: true, partial: false });
    assert.deepEqual({ n: m.trace.eventCount, f: m.trace.finished }, { n: 9, f: true });
    assert.equal(m.pollError, 'x', 'plain fields: the second view wins');
  });

  it("a pending approval is the second view's: its absence means the run went on", () => {
    const waiting = job('a', {
      pendingApproval: { id: 'ap1', kind: 'calls', calls: [] } as unknown as AgentJob['pendingApproval'],
    });
    assert.equal(mergeJobs(waiting, job('a')).pendingApproval, undefined);
    assert.equal(mergeJobs(job('a'), waiting).pendingApproval?.id, 'ap1');
  });
});
