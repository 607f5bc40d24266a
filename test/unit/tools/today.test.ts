// For the language-model tools and MCP: threads and modes on start, answers, suggestions
// and approvals in the status text within its budget, and keyless refusals that tell the agent what helps.
import {
  APPROVAL_ID,
  ENDED_WAITING_STATUS,
  NEXT_RUN_ID,
  PAID_STATUS,
  THREAD_ID,
  WAITING_STATUS,
} from '../../support/sdkShapes';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as agentApi from '../../../src/api/agent/agentClient';
import { AgentJobRecordSchema, TraceResponseSchema } from '../../../src/api/agent/agentSchemas';
import { ApiError } from '../../../src/api/errors';
import { MCP_TOOLS } from '../../../src/tools/definitions';
import { errorText, jobStatusText } from '../../../src/tools/modelText';
import { runTool } from '../../../src/tools/toolOps';
import { type AgentOps, type ToolDeps } from '../../../src/tools/toolTypes';
import type { ToolSubmitParams } from '../../../src/api/agent/submitSchema';
import { resolveFolder } from '../../../src/deps/resolver';

const JOB = '123e4567-e89b-42d3-a456-426614174000';
const THREAD = '9d0c7a52-2f1e-4c8b-9a44-6f1b3c2d1e00';

function deps(status: unknown, over: Partial<ToolDeps> = {}): ToolDeps & { starts: ToolSubmitParams[] } {
  const starts: ToolSubmitParams[] = [];
  const agent: Partial<AgentOps> = {
    status: async () => AgentJobRecordSchema.parse(status),
    trace: async () => TraceResponseSchema.parse({ success: true, events: [] }),
  };
  return {
    starts,
    surface: 'mcp',
    folderDependencies: resolveFolder,
    maxChars: () => 4_000,
    secret: () => undefined,
    search: async () => {
      throw new Error('no search here');
    },
    agentModule: async () => agentApi.agentModule,
    agent: async () => agent as AgentOps,
    start: async (r) => {
      starts.push(r);
      return JOB;
    },
    hasKey: async () => true,
    ...over,
  };
}

/** deps whose agent also answers approvals, recording what it sent. */
function answering(status: unknown) {
  const sent: Array<Record<string, unknown>> = [];
  const d = deps(status);
  const base = d.agent;
  d.agent = async () =>
    ({
      ...(await base()),
      answerApproval: async (a: Record<string, unknown>) => {
        sent.push(a);
        return { id: NEXT_RUN_ID, response: { success: true, id: NEXT_RUN_ID } };
      },
    }) as unknown as AgentOps;
  return { d, sent };
}

describe('paid tool calls and approvals through the tools', () => {
  it("start: paid calls in the SDK's exchange shape turn on with enabled: true; bounds are named; approving through start is refused", async () => {
    const d = deps({ status: 'processing' });
    const ok = await runTool(
      'devIndex_startAgentJob',
      { prompt: 'p', mode: 'chat', exchange: { toolkits: ['github'], maxCalls: 3, requireApproval: true } },
      d,
    );
    assert.equal(ok.isError, false, ok.text);
    // The start is handed the checked body, as it is sent.
    assert.deepEqual(d.starts[0]!.exchange, {
      enabled: true,
      toolkits: ['github'],
      maxCalls: 3,
      requireApproval: true,
    });
    const bad = await runTool(
      'devIndex_startAgentJob',
      { prompt: 'p', exchange: { maxCalls: 40, requireApproval: true } },
      d,
    );
    assert.equal(bad.isError, true);
    assert.match(bad.text, /exchange\.maxCalls must be a whole number from 1 to 30; got 40/);
    assert.match(bad.text, /exchange\.requireApproval needs mode "chat"/);
    const sneaky = await runTool(
      'devIndex_startAgentJob',
      { prompt: 'p', threadId: THREAD_ID, exchange: { approve: { approvalId: APPROVAL_ID } } },
      d,
    );
    assert.equal(sneaky.isError, true);
    assert.match(sneaky.text, /exchange\.approve cannot be set when starting a job .* devIndex_answerApproval/);
    assert.equal(d.starts.length, 1, 'only the valid start went out');
  });

  it('answerApproval approves chosen calls of a waiting job in its thread and names the next turn', async () => {
    const { d, sent } = answering(WAITING_STATUS);
    const out = await runTool('devIndex_answerApproval', { jobId: JOB, decision: 'approve', callIds: ['call_1'] }, d);
    assert.equal(out.isError, false, out.text);
    assert.deepEqual(sent, [
      { threadId: THREAD_ID, approvalId: APPROVAL_ID, decision: 'approve', callIds: ['call_1'] },
    ]);
    assert.match(
      out.text,
      new RegExp(`Approved 1 of the calls for agent job ${JOB}\\. The thread goes on as agent job ${NEXT_RUN_ID}`),
    );
    const wrong = await runTool(
      'devIndex_answerApproval',
      { jobId: JOB, decision: 'approve', callIds: ['call_9'] },
      answering(WAITING_STATUS).d,
    );
    assert.equal(wrong.isError, true);
    assert.match(wrong.text, /"call_9" is not a call of this approval \(its calls: call_1, call_2\)/);
  });

  it('answerApproval never accepts terms: a terms approval is refused and nothing is sent; declining it is allowed', async () => {
    const { d, sent } = answering(ENDED_WAITING_STATUS);
    const out = await runTool('devIndex_answerApproval', { jobId: JOB, decision: 'approve' }, d);
    assert.equal(out.isError, true);
    assert.match(out.text, /Only the user can accept them/);
    assert.deepEqual(sent, []);
    const no = await runTool('devIndex_answerApproval', { jobId: JOB, decision: 'decline' }, d);
    assert.equal(no.isError, false, no.text);
    assert.deepEqual(sent, [{ threadId: THREAD_ID, approvalId: APPROVAL_ID, decision: 'decline' }]);
  });

  it('answerApproval on a job that is not waiting sends nothing and says so', async () => {
    const { d, sent } = answering(PAID_STATUS);
    const out = await runTool('devIndex_answerApproval', { jobId: JOB, decision: 'decline' }, d);
    assert.equal(out.isError, true);
    assert.match(out.text, /is not waiting for an approval \(status completed\); nothing was sent/);
    assert.deepEqual(sent, []);
  });
});

describe('tools and the service as it is today', () => {
  it('the start tool takes threadId and mode, and refuses a mode it does not know', async () => {
    const d = deps({ status: 'processing' });
    const ok = await runTool(
      'devIndex_startAgentJob',
      { prompt: 'and the defaults?', threadId: THREAD, mode: 'chat' },
      d,
    );
    assert.equal(ok.isError, false, ok.text);
    assert.equal(d.starts[0]!.threadId, THREAD);
    assert.equal(d.starts[0]!.mode, 'chat');
    const bad = await runTool('devIndex_startAgentJob', { prompt: 'p', mode: 'talk' }, d);
    assert.equal(bad.isError, true);
    assert.match(bad.text, /mode must be one of chat, extract/);
    const schema = MCP_TOOLS.find((t) => t.name === 'devIndex_startAgentJob')!.inputSchema as {
      properties: Record<string, { enum?: string[] }>;
    };
    assert.deepEqual(schema.properties.mode!.enum, ['chat', 'extract']);
    assert.ok(schema.properties.threadId);
  });

  it('the status text carries the answer, the thread and the suggestions', async () => {
    const out = await runTool(
      'devIndex_agentJobStatus',
      { jobId: JOB },
      deps({
        status: 'completed',
        mode: 'chat',
        data: null,
        threadId: THREAD,
        threadTurn: 2,
        message: '## Retries\n\nUse `retry: 3`.',
        suggestions: [{ label: 'Example', prompt: 'Show an example of retry' }],
      }),
    );
    assert.equal(out.isError, false, out.text);
    assert.match(out.text, new RegExp(`Thread: ${THREAD}, turn 2`));
    assert.match(out.text, /Answer:\n## Retries\n\nUse `retry: 3`\./);
    assert.match(
      out.text,
      /Suggested follow-ups \(start a job with the prompt and this threadId\):\n- Show an example of retry/,
    );
    assert.doesNotMatch(out.text, /Result data/);
  });

  it('a waiting run says so first, what for (each call and its estimate) and that the user answers it; never "still running"', async () => {
    const out = await runTool('devIndex_agentJobStatus', { jobId: JOB }, deps(WAITING_STATUS));
    assert.match(out.text, /^Agent job \S+: waiting for the user's approval \(the service's status: processing\)\./);
    assert.match(
      out.text,
      /Waiting for the user: approval of 2 paid calls \(at least 5 credits\): github search_issues, stackexchange search\. It does not go on until the user answers/,
    );
    assert.match(
      out.text,
      /- call call_1: github search_issues \(about 5 credits\)\n- call call_2: stackexchange search \(no estimate\)/,
    );
    assert.match(
      out.text,
      new RegExp(
        `devindex agent start --thread ${WAITING_STATUS.threadId} --approve ${WAITING_STATUS.pendingApproval.id}`,
      ),
    );
    assert.doesNotMatch(out.text, /Still running/);
  });

  it('a turn that ended waiting for terms: the model shows the terms and leaves the agreement to the user', async () => {
    const out = await runTool('devIndex_agentJobStatus', { jobId: JOB }, deps(ENDED_WAITING_STATUS));
    assert.match(out.text, /^Agent job \S+: waiting for the user's approval \(the service's status: completed\)\./);
    assert.match(out.text, /only the user can accept data terms: show the user the terms below/);
    assert.match(out.text, /- Crunchbase data terms, version 2026-10: https:\/\/firecrawl\.dev\/terms\/crunchbase/);
  });

  it('a finished run says what it paid and which provider it skipped, with its terms', async () => {
    const out = await runTool('devIndex_agentJobStatus', { jobId: JOB }, deps(PAID_STATUS));
    assert.match(out.text, /Paid tool calls: 2 paid calls, 30 credits\./);
    assert.match(
      out.text,
      /Crunchbase was skipped: its data terms \(version 2026-10\) are not accepted \(it would have added: funding rounds\); its terms: https:\/\/firecrawl\.dev\/app\/terms\/crunchbase\. Only the user can accept them/,
    );
  });

  it('a long answer is cut within the size budget and says so', () => {
    const long = 'word '.repeat(5_000);
    const t = jobStatusText(
      JOB,
      AgentJobRecordSchema.parse({
        status: 'completed',
        mode: 'chat',
        message: long,
        suggestions: [{ prompt: 'next?' }],
      }),
      {},
      { surface: 'mcp', maxChars: 3_000 },
    );
    assert.ok(t.length <= 3_200, `length ${t.length}`);
    assert.match(t, /cut at the size budget: 25,000 characters in all/);
    assert.match(t, /- next\?/, 'the suggestions survive the cut');
  });

  it('keyless quota and refusals tell the agent the user can add a key, and how, per surface', () => {
    const quota = new ApiError({
      kind: 'keyless-quota',
      status: 429,
      message:
        'Keyless searches are used up until 10:00 tomorrow (in 13 h); an API key is not limited by the keyless quota',
      resetAt: Date.now() + 13 * 3_600_000,
    });
    const mcp = errorText(quota, { surface: 'mcp', op: 'The search' });
    assert.match(
      mcp,
      /used up until 10:00 tomorrow \(in 13 h\).*do not retry until then\. The user can add an API key.*DEVINDEX_API_KEY/,
    );
    const editor = errorText(quota, { surface: 'editor', op: 'The search' });
    assert.match(editor, /Developer Index: Set API Key/);
    const refused = new ApiError({
      kind: 'keyless-refused',
      status: 403,
      message:
        'Forbidden (HTTP 403): the service refuses keyless searches from this network because its address looks like a proxy or VPN; searches with an API key work from any network',
    });
    const r = errorText(refused, { surface: 'mcp', op: 'The search' });
    assert.match(r, /do not retry; the user can add an API key, which works from any network/);
    assert.doesNotMatch(r, /did not accept the API key/);
  });
});
