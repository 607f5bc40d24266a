// Threads, chat answers and approvals in the editor's pure parts: the tree's rows, the words of a
// waiting run, the actions a row offers, the answer document, and the store's approval and follow-up.
import { PendingApprovalSchema } from '../../../src/api/agent/exchangeSchemas';
import { CALLS_APPROVAL, REQUIRES_ACTION, TERMS_APPROVAL } from '../../support/sdkShapes';
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import {
  agentDocumentPath,
  formatAnswer,
  neutralizeHtml,
  parseAgentDocumentPath,
} from '../../../src/agents/agentDocuments';
import { type AgentJob, readJob } from '../../../src/agents/jobModel';
import {
  canFollowUp,
  endActions,
  hasAnswer,
  hasDataResult,
  jobContextValue,
  jobDescription,
  jobState,
} from '../../../src/agents/jobState';
import { JobStore } from '../../../src/agents/jobStore';
import { jobRows, threadDescription } from '../../../src/agents/threadGroups';
import { FakeBackend } from './fakeBackend';
import { ManualClock, settle } from './manualClock';

const T1 = '11111111-1111-4111-8111-111111111111';
const T2 = '22222222-2222-4222-8222-222222222222';

function job(id: string, o: Partial<AgentJob> = {}): AgentJob {
  return {
    id,
    prompt: `prompt ${id}`,
    createdAt: 1000,
    origin: 'user',
    status: 'completed',
    trace: { eventCount: 0, finished: true },
    finalRead: true,
    ...o,
  };
}

// The SDK's shape (test/support/sdkShapes.ts), read by the wire's own schema as the store keeps it.
const CALLS = PendingApprovalSchema.parse(CALLS_APPROVAL);

class MapStorage {
  readonly map = new Map<string, unknown>();
  get<T>(k: string): T | undefined {
    const v = this.map.get(k);
    return v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as T);
  }
  async update(k: string, v: unknown): Promise<void> {
    if (v === undefined) this.map.delete(k);
    else this.map.set(k, JSON.parse(JSON.stringify(v)));
  }
  keys(): readonly string[] {
    return [...this.map.keys()];
  }
}

describe('thread rows', () => {
  it('a single-turn job is a plain row; two turns of one thread are one row with the turns in order', () => {
    const rows = jobRows([
      job('c', { threadId: T1, threadTurn: 2, createdAt: 3000 }),
      job('b', { createdAt: 2500 }),
      job('a', { threadId: T1, threadTurn: 1, createdAt: 1000 }),
      job('d', { threadId: T2, threadTurn: 1, createdAt: 2000 }),
    ]);
    assert.deepEqual(
      rows.map((r) => (r.kind === 'job' ? r.job.id : `thread:${r.turns.map((t) => t.id).join(',')}`)),
      ['thread:a,c', 'b', 'd'],
    );
  });

  it("orders turns by the service's turn number, then by start time; a thread row is placed by its latest turn", () => {
    const rows = jobRows([
      job('x3', { threadId: T1, threadTurn: 3, createdAt: 100 }),
      job('x1', { threadId: T1, threadTurn: 1, createdAt: 300 }),
      job('y', { createdAt: 200 }),
      job('x2', { threadId: T1, createdAt: 50 }),
    ]);
    assert.equal(rows[0]!.kind, 'thread');
    assert.deepEqual(rows[0]!.kind === 'thread' && rows[0]!.turns.map((t) => t.id), ['x1', 'x3', 'x2']);
    assert.equal(rows[1]!.kind === 'job' && rows[1]!.job.id, 'y');
  });

  it("a thread row says the latest turn's state first, the number of turns, and the credits of all turns", () => {
    const turns = [
      job('a', { threadId: T1, threadTurn: 1, creditsUsed: 10 }),
      job('b', { threadId: T1, threadTurn: 2, status: 'processing', creditsUsed: 4, finalRead: false }),
    ];
    assert.equal(threadDescription(turns), 'running · 2 turns · 14 credits spent');
    const waiting = [turns[0]!, { ...turns[1]!, pendingApproval: CALLS }];
    assert.match(
      threadDescription(waiting),
      /^waiting for approval of 2 paid calls \(at least 5 credits\): github search_issues, stackexchange search · 2 turns/,
    );
  });
});

describe('waiting runs, answers and follow-ups', () => {
  it('a waiting run says what it waits for, offers Approve, Decline and Cancel, and never runs', () => {
    const j = job('w', { status: 'processing', finalRead: false, threadId: T1, pendingApproval: CALLS });
    assert.equal(jobState(j), 'waiting');
    assert.match(
      jobDescription(j),
      /^waiting for approval of 2 paid calls \(at least 5 credits\): github search_issues, stackexchange search/,
    );
    assert.equal(jobContextValue(j), 'job;waiting;cancellable;approvable;trace');
    const terms = { ...j, pendingApproval: PendingApprovalSchema.parse(TERMS_APPROVAL) };
    assert.match(jobDescription(terms), /^waiting for acceptance of Crunchbase data terms, version 2026-10/);
    // A turn that ended waiting (status completed, approval unresolved) is waiting, not completed; nothing left to cancel.
    const ended = { ...terms, status: 'completed', finalRead: true, outcome: 'succeeded' };
    assert.equal(jobState(ended), 'waiting');
    assert.equal(jobContextValue(ended), 'job;waiting;approvable;trace');
    // Once answered it is what its status says.
    const answered = {
      ...ended,
      pendingApproval: {
        ...ended.pendingApproval,
        resolution: { approved: true, callIds: [], always: false, byRunId: 'r2' },
      },
    };
    assert.equal(jobState(answered), 'completed');
  });

  it('a completed chat run has an answer (not a data result); Open Answer comes first, then Ask a Follow-up…', () => {
    const chat = job('c', { mode: 'chat', threadId: T1, threadTurn: 1, answer: '## Hi' });
    assert.equal(hasAnswer(chat), true);
    assert.equal(hasDataResult(chat), false);
    assert.equal(canFollowUp(chat), true);
    assert.equal(jobContextValue(chat), 'job;completed;answer;trace;followup');
    assert.deepEqual(endActions(chat), ['Open Answer', 'Ask a Follow-up…', 'Show in Tree']);
    const data = job('d', { threadId: T1 });
    assert.deepEqual(endActions(data), ['Open Result', 'Show in Tree'], 'a data run is as before');
    assert.equal(jobContextValue(data), 'job;completed;result;trace;followup');
  });

  it('an expired chat run still opens its kept answer; no follow-up in an expired or unthreaded job', () => {
    const expired = job('e', {
      mode: 'chat',
      threadId: T1,
      expired: true,
      kept: { result: false, partial: false, answer: true },
      expiresAt: '2026-01-01T00:00:00Z',
    });
    assert.equal(hasAnswer(expired), true);
    assert.deepEqual(endActions(expired), ['Open Answer']);
    assert.match(jobDescription(expired), /answer kept$/);
    assert.equal(canFollowUp(expired), false);
    assert.equal(canFollowUp(job('n')), false, 'no thread id: no follow-up');
    assert.equal(
      canFollowUp(job('r', { threadId: T1, status: 'processing', finalRead: false })),
      false,
      'not while it runs',
    );
  });

  it('thread, turn, mode, suggestions and a pending approval survive storage; junk in them is dropped', () => {
    const back = readJob(
      JSON.parse(
        JSON.stringify(
          job('s', {
            threadId: T1,
            threadTurn: 2,
            mode: 'chat',
            suggestions: [{ label: 'More', prompt: 'Tell me more' }, { prompt: '' } as never, 7 as never],
            pendingApproval: CALLS,
          }),
        ),
      ),
    )!;
    assert.equal(back.threadId, T1);
    assert.equal(back.threadTurn, 2);
    assert.equal(back.mode, 'chat');
    assert.deepEqual(back.suggestions, [{ prompt: 'Tell me more', label: 'More' }]);
    assert.equal(back.pendingApproval?.id, CALLS_APPROVAL.id);
    assert.deepEqual(
      back.pendingApproval?.calls.map((c) => [c.provider, c.capability, c.creditsEstimate]),
      [
        ['github', 'search_issues', 5],
        ['stackexchange', 'search', null],
      ],
    );
    assert.equal(
      readJob({ ...job('z'), pendingApproval: { kind: 'calls' } })!.pendingApproval,
      undefined,
      'no approval id: not waiting',
    );
    // A record kept by an earlier version (the id under `approvalId`, calls named `name`) still waits after the update.
    const old = readJob({
      ...job('o'),
      status: 'processing',
      pendingApproval: { kind: 'calls', approvalId: 'a1', calls: [{ id: 'c1', name: 'github.create_issue' }] },
    })!;
    assert.equal(old.pendingApproval?.id, 'a1');
    assert.equal(jobState(old), 'waiting');
  });
});

describe('the answer document', () => {
  it('is named "answer — <label>.md" and parses back', () => {
    const path = agentDocumentPath({ kind: 'answer', jobId: 'abc-1', label: 'What is retry' });
    assert.equal(path, '/abc-1/answer/answer — What is retry.md');
    assert.deepEqual(parseAgentDocumentPath(path), { kind: 'answer', jobId: 'abc-1', label: 'What is retry' });
  });

  it('shows raw HTML as text, outside code only; autolinks and code stay', () => {
    const md =
      'Hi <img src=x onerror=alert(1)> and `<b>` and <https://example.com>\n```html\n<script>x</script>\n```\n<div>after</div>';
    assert.equal(
      neutralizeHtml(md),
      'Hi &lt;img src=x onerror=alert(1)> and `<b>` and <https://example.com>\n```html\n<script>x</script>\n```\n&lt;div>after&lt;/div>',
    );
  });

  it('says when it is the kept copy of an expired job, and why there is none', () => {
    assert.match(
      formatAnswer({ prompt: 'Q', message: 'A', status: 'completed', source: 'kept', expiredOn: '2026-01-01' }),
      /^# Q\n\nA\n\n---\n\n\*This job expired on the service on 2026-01-01; this is the answer kept in this editor\.\*/,
    );
    assert.match(formatAnswer({ status: 'failed', error: 'boom', source: 'none' }), /no answer \(failed\): boom/);
  });
});

describe('the store: follow-ups and approvals', () => {
  function setup() {
    const clock = new ManualClock();
    const backend = new FakeBackend(() => clock.now());
    const storage = new MapStorage();
    const store = new JobStore({ backend: () => backend, storage, timers: clock, statusEveryMs: 3_000 });
    store.resume();
    return { clock, backend, store, storage };
  }

  it('a start records the thread the service opened; a follow-up joins it as turn 2', async () => {
    const { backend, store } = setup();
    const first = await store.start({ prompt: 'first', mode: 'chat' });
    assert.ok(first.threadId);
    assert.equal(first.threadTurn, 1);
    assert.equal(first.mode, 'chat');
    const second = await store.start({ prompt: 'again', threadId: first.threadId });
    assert.equal(second.threadId, first.threadId);
    assert.equal(second.threadTurn, 2);
    assert.equal(backend.submissions[1]!.threadId, first.threadId);
    const rows = jobRows(store.jobs());
    assert.equal(rows.length, 1);
    assert.deepEqual(rows[0]!.kind === 'thread' && rows[0]!.turns.map((t) => t.id), [first.id, second.id]);
    store.dispose();
  });

  it('sees a run wait through its status while the trace is quiet; Approve sends the approval id and the same run goes on', async () => {
    const { clock, backend, store } = setup();
    const j = await store.start({ prompt: 'APPROVAL please' });
    backend.jobs.get(j.id)!.record = { pendingApproval: CALLS, threadId: j.threadId };
    for (let i = 0; i < 10 && jobState(store.get(j.id)!) !== 'waiting'; i++) {
      await clock.advance(2_000);
      await settle();
    }
    assert.equal(jobState(store.get(j.id)!), 'waiting', 'the status record said it waits');
    assert.ok(store.run(j.id).polling, 'polling goes on while it waits');
    backend.approvalAnswer = () => ({ id: j.id });
    backend.jobs.get(j.id)!.record = { threadId: j.threadId };
    const next = await store.answerApproval(j.id, 'approve');
    assert.equal(next.id, j.id);
    assert.deepEqual(backend.approvals, [{ threadId: j.threadId, approvalId: CALLS.id, decision: 'approve' }]);
    assert.equal(jobState(store.get(j.id)!), 'running', 'back to running at once');
    store.dispose();
  });

  it('an approval answered with another run id becomes a new turn of the thread', async () => {
    const { clock, backend, store } = setup();
    const j = await store.start({ prompt: 'APPROVAL please' });
    backend.jobs.get(j.id)!.record = { pendingApproval: CALLS };
    for (let i = 0; i < 10 && jobState(store.get(j.id)!) !== 'waiting'; i++) {
      await clock.advance(2_000);
      await settle();
    }
    backend.approvalAnswer = () => ({ id: '00000000-0000-4000-8000-999999999999' });
    const next = await store.answerApproval(j.id, 'decline');
    assert.notEqual(next.id, j.id);
    assert.equal(next.threadId, j.threadId);
    assert.equal(jobRows(store.jobs()).length, 1, 'one thread row');
    store.dispose();
  });

  it('chosen calls and always are sent; the waiting record is marked answered at once and the next turn followed', async () => {
    const { clock, backend, store } = setup();
    const j = await store.start({ prompt: 'APPROVAL please', mode: 'chat' });
    backend.jobs.get(j.id)!.record = { pendingApproval: CALLS };
    for (let i = 0; i < 10 && jobState(store.get(j.id)!) !== 'waiting'; i++) {
      await clock.advance(2_000);
      await settle();
    }
    backend.approvalAnswer = () => ({ id: '00000000-0000-4000-8000-888888888888' });
    const next = await store.answerApproval(j.id, 'approve', { callIds: ['call_1'], always: true });
    assert.deepEqual(backend.approvals, [
      { threadId: j.threadId, approvalId: CALLS.id, decision: 'approve', callIds: ['call_1'], always: true },
    ]);
    assert.deepEqual(store.get(j.id)!.pendingApproval!.resolution, {
      approved: true,
      callIds: ['call_1'],
      always: true,
      byRunId: next.id,
    });
    assert.notEqual(jobState(store.get(j.id)!), 'waiting', 'no longer shown as waiting');
    assert.ok(store.run(next.id).polling, 'the next turn is followed');
    assert.equal(next.prompt, 'Approved.');
    // The answered turn handed over: its record is read again at once, and says how it ended.
    backend.jobs.get(j.id)!.record = {
      pendingApproval: {
        ...CALLS,
        resolution: { approved: true, callIds: ['call_1'], always: true, byRunId: next.id },
      },
    };
    Object.assign(backend.jobs.get(j.id)!, { endAt: 0, endStatus: 'completed' });
    const reads = backend.calls.filter((c) => c.method === 'status' && c.jobId === j.id).length;
    await clock.advance(1_000);
    await settle();
    assert.ok(backend.calls.filter((c) => c.method === 'status' && c.jobId === j.id).length > reads, 'read again soon');
    assert.equal(jobState(store.get(j.id)!), 'completed');
    store.dispose();
  });

  it("a terms approval is approved only with the user's agreement; the run's own terms/accept calls go first", async () => {
    const { clock, backend, store } = setup();
    const j = await store.start({ prompt: 'TERMS please', mode: 'chat' });
    backend.jobs.get(j.id)!.record = {
      pendingApproval: PendingApprovalSchema.parse(TERMS_APPROVAL),
      exchange: { enabled: true, paidCalls: 0, creditsUsed: 0, requiresAction: REQUIRES_ACTION },
    };
    for (let i = 0; i < 10 && jobState(store.get(j.id)!) !== 'waiting'; i++) {
      await clock.advance(2_000);
      await settle();
    }
    assert.equal(jobState(store.get(j.id)!), 'waiting');
    await assert.rejects(store.answerApproval(j.id, 'approve'), /only once you agree/);
    assert.deepEqual(backend.acceptedTerms, [], 'nothing accepted without agreement');
    assert.deepEqual(backend.approvals, [], 'nothing approved without agreement');
    backend.approvalAnswer = () => ({ id: '00000000-0000-4000-8000-888888888889' });
    await store.answerApproval(j.id, 'approve', { acceptTerms: true, callIds: ['ignored'], always: true });
    assert.deepEqual(
      backend.acceptedTerms,
      [[REQUIRES_ACTION.providers[0]!.accept]],
      "the record's own accept call, as given",
    );
    assert.deepEqual(
      backend.approvals,
      [{ threadId: j.threadId, approvalId: TERMS_APPROVAL.id, decision: 'approve' }],
      'callIds and always are not sent on terms',
    );
    store.dispose();
  });

  it('a turn that ends waiting (completed, approval unresolved) is still followed, slowly, until it is answered elsewhere', async () => {
    const { clock, backend, store } = setup();
    const j = await store.start({ prompt: 'TERMS please', mode: 'chat' });
    backend.jobs.get(j.id)!.record = { pendingApproval: PendingApprovalSchema.parse(TERMS_APPROVAL) };
    Object.assign(backend.jobs.get(j.id)!, { endAt: 0, endStatus: 'completed' });
    for (
      let i = 0;
      i < 20 && !(jobState(store.get(j.id)!) === 'waiting' && store.get(j.id)!.status === 'completed');
      i++
    ) {
      await clock.advance(2_000);
      await settle();
    }
    assert.equal(store.get(j.id)!.status, 'completed');
    assert.equal(jobState(store.get(j.id)!), 'waiting', 'completed, but waiting for the caller');
    assert.ok(store.run(j.id).polling, 'still followed');
    const before = backend.calls.filter((c) => c.method === 'status' && c.jobId === j.id).length;
    await clock.advance(10_000);
    await settle();
    assert.equal(
      backend.calls.filter((c) => c.method === 'status' && c.jobId === j.id).length,
      before,
      'not polled as a running run (every 2 s)',
    );
    backend.jobs.get(j.id)!.record = {
      pendingApproval: {
        ...PendingApprovalSchema.parse(TERMS_APPROVAL),
        resolution: { approved: false, callIds: [], always: false, byRunId: 'x' },
      },
    };
    await clock.advance(30_000);
    await settle();
    assert.equal(jobState(store.get(j.id)!), 'completed', 'answered elsewhere: it is what its status says');
    store.dispose();
  });

  it("track() follows a run it did not know (a busy thread's running turn)", () => {
    const { store } = setup();
    const id = '00000000-0000-4000-8000-777777777777';
    const t = store.track(id, { threadId: T1 });
    assert.equal(t.origin, 'service');
    assert.equal(store.run(id).polling, true);
    assert.equal(store.track(id), store.get(id), 'known: the same job');
    store.dispose();
  });
});
