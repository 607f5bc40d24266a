// In the client: threads, chat answers and approvals as the service sends them from late
// August 2026 (addendum, "What changed in production"), each thread error with its own reason.
import { CALLS_APPROVAL, RESOLVED_APPROVAL, TERMS_APPROVAL, THREAD_WITHOUT_RECORD } from '../../support/sdkShapes';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AgentClient } from '../../../src/api/agent/agentClient';
import { reasonOf } from '../../../src/api/agent/agentReasons';
import { validateAgentSubmit } from '../../../src/api/agent/submitSchema';
import {
  AgentJobRecordSchema,
  ListResponseSchema,
  ThreadResponseSchema,
  parseTraceEvent,
} from '../../../src/api/agent/agentSchemas';
import { applyStatus, type RunFacts } from '../../../src/agentRun/runState';
import { approvalWords, isChat, jobState } from '../../../src/agentRun/runOutcome';
import { groupByAgent, summarizeEvent } from '../../../src/agentRun/agentTrace';
import { ApiError, errorFromResponse } from '../../../src/api/errors';
import { fakeClient } from '../../support/fakeClient';

const JOB = '123e4567-e89b-42d3-a456-426614174000';
const THREAD = '9d0c7a52-2f1e-4c8b-9a44-6f1b3c2d1e00';

/** The ApiError the client builds for a response, as the transport would see it. */
const answered = (status: number, body: unknown) =>
  errorFromResponse({ status, bodyText: JSON.stringify(body), nowMs: 0, attempts: 1 });

const facts = (): RunFacts => ({ status: 'processing', trace: { eventCount: 0, finished: false } });

describe('submit: threadId, mode and exchange', () => {
  it('sends the thread, the mode and the exchange as given, and leaves mode out when not chosen', async () => {
    const { client, seen } = fakeClient(() => ({ success: true, id: JOB, threadId: THREAD, threadTurn: 2 }));
    const agent = new AgentClient(client);
    const r = await agent.submit({ prompt: 'and the tests?', threadId: THREAD, mode: 'chat' });
    assert.deepEqual(seen[0]!.body, { prompt: 'and the tests?', threadId: THREAD, mode: 'chat' });
    assert.equal(r.response.threadId, THREAD);
    assert.equal(r.response.threadTurn, 2);
    await agent.submit({ prompt: 'plain' });
    assert.deepEqual(seen[1]!.body, { prompt: 'plain' });
  });

  it('refuses a thread id that is not a UUID, an unknown mode and exchange.maxCalls out of 1..30, naming field and bound', () => {
    const r = validateAgentSubmit({ prompt: 'p', threadId: 'abc', mode: 'talk' as never, exchange: { maxCalls: 31 } });
    assert.equal(r.ok, false);
    const issues = !r.ok ? r.issues : [];
    assert.deepEqual(
      issues.map((i) => i.field),
      ['threadId', 'mode', 'exchange.maxCalls'],
    );
    assert.match(issues[1]!.message, /mode must be one of chat, extract; got "talk"/);
    assert.match(issues[2]!.message, /from 1 to 30; got 31/);
    assert.equal(validateAgentSubmit({ prompt: 'p', exchange: { maxCalls: 30 } }).ok, true);
    assert.equal(validateAgentSubmit({ prompt: 'p', exchange: { maxCalls: 0 } }).ok, false);
  });

  it('answers an approval with a follow-up in the thread carrying exchange.approve or exchange.decline', async () => {
    const { client, seen } = fakeClient(() => ({ success: true, id: JOB, threadId: THREAD, threadTurn: 1 }));
    const agent = new AgentClient(client);
    await agent.answerApproval({ threadId: THREAD, approvalId: 'apr_1', decision: 'approve', callIds: ['call_1'] });
    await agent.answerApproval({ threadId: THREAD, approvalId: 'apr_1', decision: 'decline' });
    assert.deepEqual(seen[0]!.body, {
      prompt: 'Approved.',
      threadId: THREAD,
      exchange: { approve: { approvalId: 'apr_1', callIds: ['call_1'] } },
    });
    assert.deepEqual(seen[1]!.body, {
      prompt: 'Declined.',
      threadId: THREAD,
      exchange: { decline: { approvalId: 'apr_1' } },
    });
  });
});

describe('thread errors: each its own reason and words', () => {
  const cases: Array<[number, unknown, string, RegExp]> = [
    [
      404,
      { success: false, code: 'thread_not_found', error: 'Thread not found.' },
      'thread-not-found',
      /no thread 9d0c7a52-.* for this API key/,
    ],
    [
      409,
      { success: false, code: 'thread_busy', error: 'Thread is busy.', runId: JOB },
      'thread-busy',
      new RegExp(`still running \\(job ${JOB}\\)`),
    ],
    [
      410,
      { success: false, code: 'thread_expired', error: 'Thread expired.' },
      'thread-expired',
      /has expired on the service.*start a new job with the prompt/,
    ],
    [
      503,
      { success: false, code: 'threads_disabled', error: 'Threads are disabled.' },
      'threads-disabled',
      /threads switched off/,
    ],
    [
      400,
      { success: false, code: 'exchange_not_enabled', error: 'Exchange is not enabled for this run.' },
      'exchange-not-enabled',
      /not waiting for an approval/,
    ],
  ];
  for (const [status, body, reason, words] of cases) {
    it(`${status} ${reason}`, async () => {
      const { client } = fakeClient(() => answered(status, body));
      const e = await new AgentClient(client).submit({ prompt: 'again', threadId: THREAD }).catch((x: unknown) => x);
      assert.equal(reasonOf(e), reason);
      assert.match((e as Error).message, words);
    });
  }

  it('threads_disabled is not retried: switched off is not busy', () => {
    assert.equal(answered(503, { code: 'threads_disabled', error: 'Threads are disabled.' }).retryable, false);
    assert.equal(answered(503, { error: 'Service Unavailable' }).retryable, true);
  });

  it('a busy thread carries the run that is still going', () => {
    assert.equal(answered(409, { code: 'thread_busy', error: 'busy', runId: JOB }).runId, JOB);
  });

  it("the thread record reads turns in order, with production's run statuses kept as they came", async () => {
    const { client, seen } = fakeClient(() => ({
      success: true,
      thread: {
        id: THREAD,
        status: 'idle',
        runs: [
          { id: 'b', turn: 2, mode: 'chat', prompt: 'second', status: 'credit_limit_reached' },
          { id: 'a', turn: 1, mode: 'extract', prompt: 'first', status: 'succeeded', data: { n: 1 } },
          'not a run',
        ],
      },
    }));
    const t = await new AgentClient(client).thread(THREAD, { includeData: true });
    assert.equal(seen[0]!.path, `/v2/agent/threads/${THREAD}`);
    assert.deepEqual(seen[0]!.query, [['includeData', 'true']]);
    assert.deepEqual(
      t.runs.map((r) => [r.turn, r.status]),
      [
        [1, 'succeeded'],
        [2, 'credit_limit_reached'],
      ],
    );
    const e = await new AgentClient(fakeClient(() => answered(404, { success: false, error: 'Not found' })).client)
      .thread(THREAD)
      .catch((x: unknown) => x);
    assert.equal(reasonOf(e), 'thread-not-found');
    assert.equal(reasonOf(await new AgentClient(client).thread('nope').catch((x: unknown) => x)), 'invalid-input');
  });
});

describe('submit and list cases with their own words', () => {
  it('the back end\'s "Invalid schema:" is a refused schema', async () => {
    const { client } = fakeClient(() =>
      answered(400, { code: 'BAD_REQUEST', error: 'Invalid schema: properties.name.type must be a string' }),
    );
    const e = await new AgentClient(client)
      .submit({ prompt: 'p', schema: { type: 'object' } })
      .catch((x: unknown) => x);
    assert.equal(reasonOf(e), 'invalid-schema');
    assert.match((e as Error).message, /refused the schema \(properties\.name\.type must be a string\)/);
  });

  it('a 403 with a code on submit names the start URL threat protection blocked', async () => {
    const { client } = fakeClient(() =>
      answered(403, {
        success: false,
        code: 'URL_BLOCKED',
        error: 'This URL is blocked by threat protection: https://bad.example/x',
      }),
    );
    const e = await new AgentClient(client)
      .submit({ prompt: 'p', urls: ['https://ok.example/', 'https://bad.example/x'] })
      .catch((x: unknown) => x);
    assert.equal(reasonOf(e), 'blocked-url');
    assert.match((e as Error).message, /threat protection blocked the start URL https:\/\/bad\.example\/x/);
  });

  it('"Invalid before timestamp." and a 501 list have their own words', async () => {
    const bad = await new AgentClient(
      fakeClient(() => answered(400, { success: false, error: 'Invalid before timestamp.' })).client,
    )
      .list()
      .catch((x: unknown) => x);
    assert.match((bad as Error).message, /page marker \(before\) must be a whole number/);
    const none = await new AgentClient(
      fakeClient(() => answered(501, { success: false, error: 'Not implemented' })).client,
    )
      .list()
      .catch((x: unknown) => x);
    assert.equal(reasonOf(none), 'no-job-list');
    assert.match((none as Error).message, /this server keeps no job list; jobs started here are still followed/);
  });

  it("the list's options may carry mode and thread fields", () => {
    const l = ListResponseSchema.parse({
      success: true,
      agents: [
        {
          id: JOB,
          status: 'completed',
          options: { prompt: 'p', mode: 'chat', threadId: THREAD, threadTurn: 3, model: 'spark-1-pro' },
        },
      ],
    });
    assert.equal(l.agents[0]!.options?.mode, 'chat');
    assert.equal(l.agents[0]!.options?.threadTurn, 3);
  });
});

describe('the job record of a chat run, and one that waits', () => {
  it('keeps the answer, the suggestions, the thread and the mode', () => {
    const rec = AgentJobRecordSchema.parse({
      success: true,
      status: 'completed',
      data: null,
      mode: 'chat',
      message: '## Answer\n\nUse `retry`.',
      threadId: THREAD,
      threadTurn: 1,
      suggestions: [{ label: 'Show an example', prompt: 'Show an example of retry' }, { label: 'no prompt' }, 7],
      exchange: { enabled: false },
    });
    const f = facts();
    assert.equal(applyStatus(f, rec), true);
    assert.equal(f.answer, '## Answer\n\nUse `retry`.');
    // The SDK allows an empty prompt: a suggestion without one sends its label.
    assert.deepEqual(f.suggestions, [
      { label: 'Show an example', prompt: 'Show an example of retry' },
      { label: 'no prompt', prompt: 'no prompt' },
    ]);
    assert.equal(f.threadId, THREAD);
    assert.equal(f.threadTurn, 1);
    assert.equal(isChat(f), true);
    assert.equal(jobState({ ...f, prompt: 'p' }), 'completed');
  });

  it('a run with an unresolved pendingApproval is waiting, never running; once resolved it is what its status says', () => {
    const f = facts();
    applyStatus(f, AgentJobRecordSchema.parse({ status: 'processing', pendingApproval: CALLS_APPROVAL }));
    assert.equal(jobState({ ...f, prompt: 'p' }), 'waiting');
    assert.equal(
      approvalWords(f.pendingApproval!),
      'approval of 2 paid calls (at least 5 credits): github search_issues, stackexchange search',
    );
    applyStatus(f, AgentJobRecordSchema.parse({ status: 'processing', pendingApproval: RESOLVED_APPROVAL }));
    assert.equal(jobState({ ...f, prompt: 'p' }), 'running', 'answered: it runs');
    assert.deepEqual(f.pendingApproval?.resolution, RESOLVED_APPROVAL.resolution, 'the answer is kept');
    applyStatus(f, AgentJobRecordSchema.parse({ status: 'processing' }));
    assert.equal(f.pendingApproval, undefined, 'gone from the record: gone here');
    applyStatus(f, AgentJobRecordSchema.parse({ status: 'completed', pendingApproval: TERMS_APPROVAL }));
    assert.equal(jobState({ ...f, prompt: 'p' }), 'waiting', 'a turn that ended waiting is waiting, not completed');
    assert.equal(approvalWords(f.pendingApproval!), 'acceptance of Crunchbase data terms, version 2026-10');
  });
});

describe('trace: assistant messages, usage and browser agents', () => {
  const agent = (id: string, role: string, parentId?: string) => ({
    id,
    role,
    name: `${role} ${id}`,
    ...(parentId ? { parentId } : {}),
  });
  const events = [
    {
      eventId: '1',
      producerSequence: 1,
      occurredAt: '2026-11-25T10:00:00Z',
      agent: agent('o', 'orchestrator'),
      type: 'agent.started',
    },
    {
      eventId: '2',
      producerSequence: 1,
      occurredAt: '2026-11-25T10:00:01Z',
      agent: agent('s', 'subagent', 'o'),
      type: 'agent.started',
    },
    {
      eventId: '3',
      producerSequence: 1,
      occurredAt: '2026-11-25T10:00:02Z',
      agent: agent('b', 'browser', 's'),
      type: 'agent.started',
    },
    {
      eventId: '4',
      producerSequence: 2,
      occurredAt: '2026-11-25T10:00:03Z',
      agent: agent('o', 'orchestrator'),
      type: 'usage.recorded',
      tokens: 12,
    },
    {
      eventId: '5',
      producerSequence: 3,
      occurredAt: '2026-11-25T10:00:04Z',
      agent: agent('o', 'orchestrator'),
      type: 'assistant.message',
      text: 'Use {"retry": 3} in the options.',
    },
  ].map(parseTraceEvent);

  it('an assistant.message shows its text, never JSON', () => {
    assert.equal(summarizeEvent(events[4]!), 'answer: Use {"retry": 3} in the options.');
  });

  it('a browser agent nests under its parent, and usage.recorded is folded away from the tree', () => {
    const roots = groupByAgent(events);
    assert.equal(roots.length, 1);
    const sub = roots[0]!.children[0]!;
    assert.equal(sub.agent.id, 's');
    assert.equal(sub.children[0]!.agent.role, 'browser');
    assert.deepEqual(
      roots[0]!.events.map((e) => e.type),
      ['agent.started', 'assistant.message'],
    );
  });
});

describe('errors without success', () => {
  it('a relayed body with code and error and no success shows its error text', () => {
    const e = answered(400, {
      code: 'BAD_REQUEST',
      error: 'unknown type: web (expected doc, issue, pull_request, readme)',
    });
    assert.ok(e instanceof ApiError);
    assert.match(e.message, /^unknown type: web \(expected doc, issue, pull_request, readme\) \(HTTP 400\)/);
    assert.equal(e.code, 'BAD_REQUEST');
  });
});

describe('the thread record schema', () => {
  it("reads a body without a thread (the SDK declares it optional) as an answer with the service's error kept", () => {
    const r = ThreadResponseSchema.parse(THREAD_WITHOUT_RECORD);
    assert.equal(r.thread, undefined);
    assert.equal(r.error, 'Thread is being archived.');
  });
});

describe('the AgentError keeps what the ApiError carried', () => {
  it("a busy thread's runId survives the wrap", async () => {
    const { client } = fakeClient(() =>
      answered(409, { success: false, code: 'thread_busy', error: 'busy', runId: JOB }),
    );
    const e = (await new AgentClient(client)
      .submit({ prompt: 'again', threadId: THREAD })
      .catch((x: unknown) => x)) as { runId?: string };
    assert.equal(e.runId, JOB);
  });
});
