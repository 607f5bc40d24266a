// The sandbox's agent endpoints as production serves them from late August 2026:
// threads and follow-ups, chat answers, approvals, the thread errors and record, and the submit and
// list cases the back end adds. Raw HTTP, so the wire itself is what is asserted. The spec wire is
// shown unchanged at the end.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox } from '../../sandbox/server';
import { type Sandbox } from '../../sandbox/serverParts';
import { keyedCall } from './sandboxHelpers';

const KEY = 'sbx-threads-key-a';
const KEY_LIST = 'sbx-threads-key-list';
const KEY_PAGE = 'sbx-threads-key-page';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

function call(
  sb: Sandbox,
  method: string,
  path: string,
  body?: unknown,
  key: string | null = KEY,
): Promise<{ status: number; json: Json; text: string }> {
  return keyedCall(sb.url, method, path, body, key);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(sb: Sandbox, id: string, done: (job: Json) => boolean, key = KEY): Promise<Json> {
  for (let i = 0; i < 200; i++) {
    const r = await call(sb, 'GET', `/v2/agent/${id}`, undefined, key);
    assert.equal(r.status, 200, r.text);
    if (done(r.json)) return r.json;
    await sleep(25);
  }
  assert.fail(`job ${id} did not reach the state within 5 s`);
}
const finished = (j: Json): boolean => j.status !== 'processing' && j.status !== 'cancelling';

describe('sandbox agent threads, chat and approvals (production wire)', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({
      port: 0,
      keys: [KEY, KEY_LIST, KEY_PAGE],
      faults: true,
      agentSpeed: 50,
      quiet: true,
      rateLimit: 0,
    });
  });
  after(async () => {
    await sb.close();
  });

  const start = async (body: Record<string, unknown>, key = KEY): Promise<Json> => {
    const r = await call(sb, 'POST', '/v2/agent', body, key);
    assert.equal(r.status, 200, r.text);
    return r.json;
  };

  it('every start opens a thread: { success, id, threadId, threadTurn: 1 }; the record names them, mode extract; optional fields absent, not null', async () => {
    const s = await start({ prompt: 'Collect HTTP clients' });
    assert.deepEqual(Object.keys(s).sort(), ['id', 'success', 'threadId', 'threadTurn']);
    assert.match(s.id, UUID);
    assert.match(s.threadId, UUID);
    assert.notEqual(s.id, s.threadId);
    assert.equal(s.threadTurn, 1);
    const job = await until(sb, s.id, finished);
    assert.equal(job.status, 'completed');
    assert.equal(job.threadId, s.threadId);
    assert.equal(job.threadTurn, 1);
    assert.equal(job.mode, 'extract');
    // Addendum (late November 2026): "Fields are absent rather than `null` in status bodies (`error`,
    // `message`, `suggestions`, `pendingApproval`, `exchange`); `effort` only when the run specified it".
    for (const k of ['error', 'message', 'suggestions', 'pendingApproval', 'exchange', 'effort', 'id'])
      assert.equal(k in job, false, k);
    assert.ok(Array.isArray(job.data.items));
    const low = await until(sb, (await start({ prompt: 'Collect HTTP clients', effort: 'low' })).id, finished);
    assert.equal(low.effort, 'low', 'effort when the run specified it');
  });

  it('chat mode: data null, a markdown message (heading, paragraph, list, code fence, link) and two suggestions', async () => {
    const s = await start({ prompt: 'How do I retry on 429?', mode: 'chat' });
    const job = await until(sb, s.id, finished);
    assert.equal(job.status, 'completed');
    assert.equal(job.mode, 'chat');
    assert.equal(job.data, null);
    const m = String(job.message);
    assert.match(m, /^## Answer: How do I retry on 429\?\n\n[A-Z][^\n]+\.\n/);
    assert.match(m, /\n- \*\*In chat mode\*\*/);
    assert.match(m, /\n```ts\n[\s\S]+\n```\n/);
    assert.match(m, /\[[^\]]+\]\(https:\/\/[^)]+\)/);
    assert.equal(job.suggestions.length, 2);
    for (const x of job.suggestions) {
      assert.deepEqual(Object.keys(x).sort(), ['label', 'prompt']);
      assert.ok(x.label.length > 0 && x.prompt.length > 0);
    }
  });

  it('chat trace: assistant.message with the answer, usage.recorded events, a browser agent under its subagent', async () => {
    const s = await start({ prompt: 'Explain keep-alive', mode: 'chat' });
    const job = await until(sb, s.id, finished);
    await sleep(100);
    const t = (await call(sb, 'GET', `/v2/agent/${s.id}/trace`)).json;
    const events = t.events as Json[];
    const said = events.filter((e) => e.type === 'assistant.message');
    assert.equal(said.length, 1);
    assert.equal(said[0].text, job.message);
    assert.ok(events.filter((e) => e.type === 'usage.recorded').length >= 2);
    const browser = events.filter((e) => e.agent.role === 'browser');
    assert.ok(browser.some((e) => e.type === 'agent.started') && browser.some((e) => e.type === 'agent.finished'));
    const parentId = browser[0].agent.parentId as string;
    const parent = events.find((e) => e.agent.id === parentId);
    assert.equal(parent?.agent.role, 'subagent');
    assert.ok(events.some((e) => e.type === 'run.finished' && e.outcome === 'succeeded'));
  });

  it('a follow-up appends turn 2 (a new run id); while a turn runs the thread is busy (409 with runId)', async () => {
    const first = await start({ prompt: 'Collect SLOW findings' });
    const busy = await call(sb, 'POST', '/v2/agent', { prompt: 'and then?', threadId: first.threadId });
    assert.equal(busy.status, 409);
    assert.deepEqual(Object.keys(busy.json).sort(), ['code', 'error', 'runId', 'success']);
    assert.equal(busy.json.success, false);
    assert.equal(busy.json.code, 'thread_busy');
    assert.equal(busy.json.runId, first.id);
    const thread0 = (await call(sb, 'GET', `/v2/agent/threads/${first.threadId}`)).json.thread;
    assert.equal(thread0.status, 'running');
    assert.equal(thread0.runs[0].status, 'processing');
    assert.equal(thread0.runs[0].finishedAt, null, 'a running turn has not finished');
    assert.equal((await call(sb, 'DELETE', `/v2/agent/${first.id}`)).status, 200);
    await until(sb, first.id, finished);

    const second = await start({ prompt: 'Now answer in words', threadId: first.threadId, mode: 'chat' });
    assert.equal(second.threadId, first.threadId);
    assert.equal(second.threadTurn, 2);
    assert.notEqual(second.id, first.id);
    const job = await until(sb, second.id, finished);
    assert.equal(job.threadTurn, 2);
    assert.equal(job.threadId, first.threadId);

    const rec = await call(sb, 'GET', `/v2/agent/threads/${first.threadId}`);
    assert.equal(rec.status, 200, rec.text);
    assert.equal(rec.json.success, true);
    const thread = rec.json.thread;
    assert.equal(thread.id, first.threadId);
    assert.equal(thread.status, 'idle');
    assert.ok(!Number.isNaN(Date.parse(thread.createdAt)) && Date.parse(thread.expiresAt) > Date.now());
    assert.deepEqual(
      thread.runs.map((r: Json) => [r.id, r.turn, r.mode, r.status]),
      [
        [first.id, 1, 'extract', 'cancelled'],
        [second.id, 2, 'chat', 'succeeded'],
      ],
    );
    assert.equal(thread.runs[0].prompt, 'Collect SLOW findings');
    assert.ok(
      thread.runs.every(
        (r: Json) => typeof r.creditsUsed === 'number' && !Number.isNaN(Date.parse(r.createdAt)) && !('data' in r),
      ),
    );
    assert.equal(thread.runs[1].message, job.message);
    assert.equal(thread.runs[0].message, null, 'an extract turn: message null (the SDK declares string | null)');
    // Addendum: "thread records carry `updatedAt` and runs `finishedAt`".
    assert.ok(Date.parse(thread.updatedAt) >= Date.parse(thread.createdAt));
    assert.ok(thread.runs.every((r: Json) => Date.parse(r.finishedAt) >= Date.parse(r.createdAt)));

    const withData = (await call(sb, 'GET', `/v2/agent/threads/${first.threadId}?includeData=true`)).json.thread;
    assert.ok(withData.runs.every((r: Json) => 'data' in r));
    assert.equal(withData.runs[1].data, null, 'a chat turn has no data');
  });

  it('thread run statuses: succeeded, refused, credit_limit_reached', async () => {
    const a = await start({ prompt: 'REFUSE this' });
    await until(sb, a.id, finished);
    const b = await start({ prompt: 'a short budget', threadId: a.threadId, maxCredits: 50 });
    await until(sb, b.id, finished);
    const c = await start({ prompt: 'and a full one', threadId: a.threadId });
    await until(sb, c.id, finished);
    const withData = (await call(sb, 'GET', `/v2/agent/threads/${a.threadId}?includeData=true`)).json.thread;
    assert.deepEqual(
      withData.runs.map((r: Json) => r.status),
      ['refused', 'credit_limit_reached', 'succeeded'],
    );
    assert.ok(Array.isArray(withData.runs[2].data.items));
  });

  it('thread errors: 404 thread_not_found, 410 thread_expired, 503 threads_disabled, 400 exchange_not_enabled', async () => {
    const unknown = await call(sb, 'POST', '/v2/agent', {
      prompt: 'p',
      threadId: '123e4567-e89b-42d3-a456-426614174000',
    });
    assert.equal(unknown.status, 404);
    assert.deepEqual(Object.keys(unknown.json).sort(), ['code', 'error', 'success']);
    assert.equal(unknown.json.code, 'thread_not_found');
    assert.equal(
      (await call(sb, 'GET', '/v2/agent/threads/123e4567-e89b-42d3-a456-426614174000')).json.code,
      'thread_not_found',
    );
    const other = await start({ prompt: 'not yours' }, KEY_LIST);
    assert.equal(
      (await call(sb, 'POST', '/v2/agent', { prompt: 'p', threadId: other.threadId })).json.code,
      'thread_not_found',
      "another team's thread",
    );

    const s = await start({ prompt: 'to expire' });
    await until(sb, s.id, finished);
    assert.equal((await call(sb, 'POST', '/__sandbox/agent/expire-thread', { threadId: s.threadId })).status, 200);
    const expired = await call(sb, 'POST', '/v2/agent', { prompt: 'p', threadId: s.threadId });
    assert.equal(expired.status, 410);
    assert.equal(expired.json.code, 'thread_expired');
    assert.equal((await call(sb, 'GET', `/v2/agent/threads/${s.threadId}`)).status, 410);

    const live = await start({ prompt: 'alive' });
    await until(sb, live.id, finished);
    assert.deepEqual((await call(sb, 'POST', '/__sandbox/agent/threads', { enabled: false })).json, {
      success: true,
      enabled: false,
    });
    try {
      const off = await call(sb, 'POST', '/v2/agent', { prompt: 'p', threadId: live.threadId });
      assert.equal(off.status, 503);
      assert.equal(off.json.code, 'threads_disabled');
      assert.equal((await call(sb, 'GET', `/v2/agent/threads/${live.threadId}`)).status, 503);
    } finally {
      await call(sb, 'POST', '/__sandbox/agent/threads', { enabled: true });
    }
    assert.equal((await call(sb, 'POST', '/v2/agent', { prompt: 'p', threadId: live.threadId })).status, 200);

    const x = await start({ prompt: 'no approval here' });
    await until(sb, x.id, finished);
    const notEnabled = await call(sb, 'POST', '/v2/agent', {
      prompt: 'ok',
      threadId: x.threadId,
      exchange: { approve: { approvalId: 'a1' } },
    });
    assert.equal(notEnabled.status, 400);
    assert.equal(notEnabled.json.code, 'exchange_not_enabled');
    // Addendum: "`approve` and `decline` exclude each other and both need `threadId`".
    const noThread = await call(sb, 'POST', '/v2/agent', { prompt: 'ok', exchange: { decline: { approvalId: 'a1' } } });
    assert.equal(noThread.status, 400);
    assert.ok(
      (noThread.json.details as Json[]).some((d) => d.path.join('.') === 'threadId'),
      noThread.text,
    );
  });

  it('submit validation: mode, threadId and exchange are checked and the 400 names the field', async () => {
    for (const [body, field] of [
      [{ prompt: 'p', mode: 'poem' }, 'mode'],
      [{ prompt: 'p', threadId: 'not-a-uuid' }, 'threadId'],
      [{ prompt: 'p', exchange: { maxCalls: 31 } }, 'exchange.maxCalls'],
      [{ prompt: 'p', exchange: { maxCalls: 0 } }, 'exchange.maxCalls'],
      [{ prompt: 'p', exchange: { approve: {} } }, 'exchange.approve.approvalId'],
      [{ prompt: 'p', exchange: { surprise: 1 } }, 'exchange'],
    ] as const) {
      const r = await call(sb, 'POST', '/v2/agent', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.ok(
        (r.json.details as Json[]).some((d) => d.path.join('.') === field),
        `${JSON.stringify(body)}: ${r.text}`,
      );
    }
    assert.equal(
      (
        await call(sb, 'POST', '/v2/agent', {
          prompt: 'p',
          mode: 'chat',
          exchange: { enabled: true, toolkits: ['github'], maxCalls: 30, requireApproval: true },
        })
      ).status,
      200,
    );
    const noPrompt = await call(sb, 'POST', '/v2/agent', { mode: 'chat' });
    assert.equal(noPrompt.status, 400);
    assert.ok(
      (noPrompt.json.details as Json[]).some((d) => d.path[0] === 'prompt'),
      'prompt stays required',
    );
  });

  it("submit: x-* annotations, the official clients' integrations, no maxCredits ceiling; Invalid schema and threat protection refusals", async () => {
    assert.equal(
      (
        await call(sb, 'POST', '/v2/agent', {
          prompt: 'p',
          schema: { type: 'object', 'x-order': 1, properties: { a: { type: 'string', 'x-label': 'A' } } },
        })
      ).status,
      200,
    );
    for (const integration of ['cli', 'mcp', 'js-sdk', 'python-sdk', 'zapier', '_mine']) {
      assert.equal((await call(sb, 'POST', '/v2/agent', { prompt: 'p', integration })).status, 200, integration);
    }
    assert.equal((await call(sb, 'POST', '/v2/agent', { prompt: 'p', integration: 'devindex' })).status, 400);
    assert.equal((await call(sb, 'POST', '/v2/agent', { prompt: 'p', maxCredits: 1e9 })).status, 200);
    const vendor = await call(sb, 'POST', '/v2/agent', { prompt: 'p', schema: { type: 'object', vendorKeyword: 1 } });
    assert.match(vendor.json.error, /^Invalid JSON schema: /, 'other vendor keywords stay refused');

    const invalid = await call(sb, 'POST', '/v2/agent', { prompt: 'INVALID_SCHEMA here', schema: { type: 'object' } });
    assert.equal(invalid.status, 400);
    assert.deepEqual(Object.keys(invalid.json).sort(), ['code', 'error']);
    assert.equal(invalid.json.code, 'BAD_REQUEST');
    assert.match(invalid.json.error, /^Invalid schema: /);

    const blocked = await call(sb, 'POST', '/v2/agent', {
      prompt: 'p',
      urls: ['https://example.com/', 'https://files.malware.test/x'],
    });
    assert.equal(blocked.status, 403);
    assert.equal(blocked.json.success, false);
    assert.equal(typeof blocked.json.code, 'string');
    assert.match(blocked.json.error, /https:\/\/files\.malware\.test\/x/);
    assert.equal(
      (await call(sb, 'POST', '/v2/agent', { prompt: 'p', urls: ['https://blocked.invalid/'] })).status,
      403,
    );
  });

  it('list: options carry mode, threadId, threadTurn; next only when another page exists; a bad before is "Invalid before timestamp."', async () => {
    // A team of its own: 19 jobs and the first-generation fixture of test mode make exactly one full page.
    const first = await start({ prompt: 'list me', mode: 'chat' }, KEY_PAGE);
    for (let i = 0; i < 18; i++) await start({ prompt: `list ${i}` }, KEY_PAGE);
    const page = (await call(sb, 'GET', '/v2/agent', undefined, KEY_PAGE)).json;
    assert.equal(page.agents.length, 20);
    assert.equal('next' in page, false, 'exactly one full page: no next');
    const row = page.agents.find((a: Json) => a.id === first.id);
    assert.deepEqual([row.options.mode, row.options.threadId, row.options.threadTurn], ['chat', first.threadId, 1]);
    // Addendum: "list rows' `targetHint` is a string and `options.urls` an array or absent".
    assert.equal(typeof row.targetHint, 'string');
    for (const k of ['urls', 'schema']) assert.equal(k in row.options, false, `${k}: the run had none`);
    // The service's own API tests: a spark-2 run started without effort is listed at the effort it runs at.
    assert.equal(row.options.effort, 'medium');
    const withUrls = await start({ prompt: 'with urls', urls: ['https://example.com/a'], effort: 'low' }, KEY_LIST);
    const listed = (await call(sb, 'GET', '/v2/agent', undefined, KEY_LIST)).json.agents.find(
      (a: Json) => a.id === withUrls.id,
    );
    assert.deepEqual(
      [listed.targetHint, listed.options.urls, listed.options.effort],
      ['example.com', ['https://example.com/a'], 'low'],
    );
    await start({ prompt: 'one more' }, KEY_PAGE);
    const full = (await call(sb, 'GET', '/v2/agent', undefined, KEY_PAGE)).json;
    assert.match(full.next, /\/v2\/agent\?before=\d+$/);
    const last = (await call(sb, 'GET', `/v2/agent${new URL(full.next).search}`, undefined, KEY_PAGE)).json;
    assert.equal(last.agents.length, 1);
    assert.equal('next' in last, false);
    for (const before of ['-1', 'abc', '1.5']) {
      const r = await call(sb, 'GET', `/v2/agent?before=${before}`);
      assert.equal(r.status, 400, before);
      assert.deepEqual(r.json, { success: false, error: 'Invalid before timestamp.' });
    }
  });
});

describe('sandbox agent threads on the spec wire: unchanged', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({
      port: 0,
      wire: 'spec',
      keys: [KEY],
      faults: true,
      agentSpeed: 50,
      quiet: true,
      rateLimit: 0,
    });
  });
  after(async () => {
    await sb.close();
  });

  it('a start answers { success, id } only; threadId, mode and exchange are unknown keys; no thread route', async () => {
    const r = await call(sb, 'POST', '/v2/agent', { prompt: 'p' });
    assert.deepEqual(Object.keys(r.json).sort(), ['id', 'success']);
    const job = (await call(sb, 'GET', `/v2/agent/${r.json.id}`)).json;
    for (const k of ['threadId', 'threadTurn', 'mode', 'message', 'suggestions', 'pendingApproval', 'exchange'])
      assert.equal(k in job, false, k);
    for (const extra of [
      { threadId: '123e4567-e89b-42d3-a456-426614174000' },
      { mode: 'chat' },
      { exchange: { enabled: true } },
    ]) {
      const x = await call(sb, 'POST', '/v2/agent', { prompt: 'p', ...extra });
      assert.equal(x.status, 400);
      assert.equal(x.json.details[0].code, 'unrecognized_keys');
    }
    assert.deepEqual(
      await call(sb, 'GET', '/v2/agent/threads/123e4567-e89b-42d3-a456-426614174000').then((x) => [x.status, x.json]),
      [404, { success: false, error: 'Not Found' }],
    );
    const bad = await call(sb, 'GET', '/v2/agent?before=abc');
    assert.equal(bad.json.error, 'Bad Request');
    assert.equal(
      (await call(sb, 'POST', '/v2/agent', { prompt: 'APPROVAL INVALID_SCHEMA', urls: ['https://blocked.invalid/'] }))
        .status,
      200,
      'no production triggers',
    );
  });
});
