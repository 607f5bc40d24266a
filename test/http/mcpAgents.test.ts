// Over stdio with the official MCP SDK client: a cut answer and readMore returning exactly
// what was left out, `have` naming passages an answer the model holds instead of repeating them, an expired handle, --tools, a wait that streams progress and returns the end, a
// wait that times out, a wait on a run waiting for an approval, a cancelled wait (the job goes on), bad input naming its bound, an unknown
// notification and a client that leaves mid-wait, and a planted key that never comes back.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox } from '../../sandbox/server';
import { type Sandbox } from '../../sandbox/serverParts';
import { builtCli, connectMcp, type McpSession } from '../support/mcpSession';
import { until } from '../support/until';

const KEY = 'sandbox-mcp22-planted-key-7f3a9c';
let sb: Sandbox;
let cli: string;

type Session = McpSession;

function connect(env: Record<string, string> = {}, args: string[] = []): Promise<Session> {
  return connectMcp({
    cli,
    args,
    name: 'devindex-mcp22-test',
    env: { DEVINDEX_API_KEY: KEY, DEVINDEX_BASE_URL: sb.url, DEVINDEX_POLL_MS: '150', ...env },
  });
}

async function call(
  s: Session,
  name: string,
  args: Record<string, unknown>,
  onprogress?: (p: { progress: number; message?: string }) => void,
  signal?: AbortSignal,
): Promise<{ text: string; isError: boolean }> {
  const r = await s.client.callTool({ name, arguments: args }, undefined, {
    ...(onprogress ? { onprogress } : {}),
    ...(signal ? { signal } : {}),
    timeout: 60_000,
  });
  const content = r.content as Array<{ type: string; text?: string }>;
  return { text: content[0]?.text ?? '', isError: r.isError === true };
}

let s: Session;

before(async () => {
  cli = builtCli();
  sb = await startSandbox({ port: 0, keys: [KEY], faults: true, agentSpeed: 50, quiet: true, rateLimit: 100_000 });
  s = await connect();
});

after(async () => {
  await s?.client.close();
  await sb.close();
});

const handleOf = (t: string) => /\nmore: (m[0-9a-f]{12})$/.exec(t)?.[1];

interface Raw {
  results: Array<{ id: string; url: string; passages: Array<{ text: string }> }>;
}

test('a cut answer and readMore: exactly the missing results and passages, no new request; then nothing is left', async () => {
  const query = 'retry after header';
  const raw = (await (
    await fetch(`${sb.url}/v2/search/developer?query=${encodeURIComponent(query)}&k=10&passages=3`, {
      headers: { authorization: `Bearer ${KEY}` },
    })
  ).json()) as Raw;
  assert.ok(raw.results.length >= 6);
  const first = await call(s, 'devIndex_search', { query, k: 10, passages: 3, maxTokens: 800 });
  assert.equal(first.isError, false, first.text);
  assert.ok(first.text.length <= 3200, `${first.text.length} characters for 800 tokens`);
  assert.match(
    first.text,
    /^Developer index: \d+ results for "retry after header"; this answer: \d+ results?, \d+ passages?( \(\d+ shortened\))?, ~[\d,]+ tokens\./,
  );
  let handle = handleOf(first.text);
  assert.ok(handle, first.text.slice(-400));
  await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
  const texts = [first.text];
  // Results not shown first, then each result's further passages.
  for (let guard = 0; handle && guard < 40; guard++) {
    const partial = /further passages of \[(\d+)\]/.exec(texts.at(-1)!)?.[1];
    const unshown = /results \[(\d+)\]( to \[\d+\])? not shown/.test(texts.at(-1)!);
    const r = await call(
      s,
      'devIndex_readMore',
      unshown || !partial ? { handle } : { handle, result: Number(partial) },
    );
    assert.equal(r.isError, false, r.text);
    texts.push(r.text);
    handle = handleOf(r.text);
  }
  assert.match(texts.at(-1)!, /That was all of this answer\.$/);
  const reqs = ((await (await fetch(`${sb.url}/__sandbox/requests`)).json()) as { requests: Array<{ path: string }> })
    .requests;
  assert.deepEqual(
    reqs.filter((q) => q.path.startsWith('/v2/')),
    [],
    'readMore sent nothing to the service',
  );
  const all = texts.join('\n');
  for (const r of raw.results) {
    assert.ok(all.includes(`] ${r.id}`), `result ${r.id} shown`);
    assert.ok(all.includes(r.url), `URL ${r.url}`);
    for (const p of r.passages) {
      // Every word of every passage, in order, across the answer and its continuations.
      const words = p.text.split(/\s+/).filter((w) => w.length > 3);
      for (const w of words) assert.ok(all.includes(w), `${r.id}: ${w}`);
    }
  }
  // Each result heading with its URL comes once.
  for (const r of raw.results) assert.equal(all.split(`\n${r.url}\n`).length - 1, 1, `${r.url} once`);
  // The answer stays kept (a model may name it in `have`); reading it again sends nothing.
  const spent = await call(s, 'devIndex_readMore', { handle: handleOf(texts.at(-2)!)! });
  assert.equal(spent.isError, false, spent.text);
  assert.match(spent.text, /^Nothing of this answer is left: every result and passage has been sent\.$/);
});

test('have: passages of an answer the model holds are named, not repeated; readMore with result repeats them from memory', async () => {
  const query = 'connection pool keep-alive';
  const raw = (await (
    await fetch(`${sb.url}/v2/search/developer?query=${encodeURIComponent(query)}&k=6&passages=1`, {
      headers: { authorization: `Bearer ${KEY}` },
    })
  ).json()) as Raw;
  assert.ok(raw.results.length >= 3);
  const first = await call(s, 'devIndex_search', { query, k: 6, passages: 1, maxTokens: 20_000 });
  const h1 = /\nanswer: (m[0-9a-f]{12})$/.exec(first.text)?.[1];
  assert.ok(h1, first.text.slice(-200));
  const second = await call(s, 'devIndex_search', {
    query,
    k: 6,
    passages: 1,
    maxTokens: 20_000,
    have: [h1, 'm0123456789ab'],
  });
  assert.equal(second.isError, false, second.text);
  const n = raw.results.length;
  assert.match(
    second.text,
    new RegExp(
      `^Developer index: ${n} results for "${query}"; this answer: ${n} results, 0 passages, ${n} named, not repeated, ~[\\d,]+ tokens\\.`,
    ),
  );
  assert.match(
    second.text,
    /\nNot known here \(kept 15 minutes, the 32 most recent, in this process only\): m0123456789ab; passages they sent are sent again in full\./,
  );
  for (const [i, r] of raw.results.entries()) {
    assert.ok(
      second.text.includes(`[${i + 1}] ${r.id}`) && second.text.includes(`\n${r.url}\n`),
      `${r.id} with its URL`,
    );
    assert.ok(second.text.includes(`\n[${i + 1}.1] sent before: [${i + 1}.1] of ${h1}`), `${r.id} named`);
    assert.ok(first.text.includes(r.passages[0]!.text.trim().slice(0, 60)), 'the first answer has the passage');
    assert.ok(!second.text.includes(r.passages[0]!.text.trim().slice(0, 60)), `${r.id}'s passage is not repeated`);
  }
  assert.ok(
    second.text.length < first.text.length / 2,
    `${second.text.length} against ${first.text.length} characters`,
  );
  const h2 = handleOf(second.text);
  assert.ok(h2, second.text.slice(-300));
  await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
  const again = await call(s, 'devIndex_readMore', { handle: h2, result: 2 });
  assert.equal(again.isError, false, again.text);
  assert.ok(again.text.includes(raw.results[1]!.passages[0]!.text.trim().slice(0, 200)), again.text);
  assert.ok(!again.text.includes(raw.results[0]!.passages[0]!.text.trim().slice(0, 60)), 'only result 2');
  const reqs = ((await (await fetch(`${sb.url}/__sandbox/requests`)).json()) as { requests: Array<{ path: string }> })
    .requests;
  assert.deepEqual(
    reqs.filter((q) => q.path.startsWith('/v2/')),
    [],
    'readMore sent nothing to the service',
  );
});

test('an expired handle is a tool error that says to search again', async () => {
  const short = await connect({ DEVINDEX_MORE_TTL_SECONDS: '1' });
  try {
    const first = await call(short, 'devIndex_search', {
      query: 'connection pool keep-alive',
      k: 10,
      passages: 3,
      maxTokens: 500,
    });
    const handle = handleOf(first.text);
    assert.ok(handle, first.text);
    // The server keeps answers for 1 s (DEVINDEX_MORE_TTL_SECONDS): read the handle until it has expired.
    // (MoreCache's own clock is the unit tests'; this is the server's real one, read as a condition.)
    const r = await until(
      () => call(short, 'devIndex_readMore', { handle }),
      (a) => a.isError,
      { timeoutMs: 10_000, message: (a) => `the handle still reads after 10 s: ${a?.text.slice(0, 200)}` },
    );
    assert.match(r.text, new RegExp(`Handle ${handle} is unknown or has expired \\(answers are kept for 1 seconds`));
    assert.match(r.text, /Run devIndex_search again\./);
  } finally {
    await short.client.close();
  }
});

test('bad input names the bound: maxTokens, have, handle, result, timeoutSeconds, jobId, limit', async () => {
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    [
      'devIndex_search',
      { query: 'x', maxTokens: 10 },
      /- maxTokens: maxTokens must be an integer from 500 to 50000; got 10/,
    ],
    ['devIndex_search', { query: 'x', maxTokens: 1e9 }, /from 500 to 50000/],
    [
      'devIndex_readMore',
      { handle: 'nope' },
      /- handle: handle must be the text after "more:".*"m" and 12 hexadecimal digits/,
    ],
    [
      'devIndex_search',
      { query: 'x', have: ['m0123456789ab', 'nope'] },
      /- have: have must be a list of at most 32 handles, each the text after "answer:" or "more:".*got \["m0123456789ab","nope"\]/,
    ],
    [
      'devIndex_search',
      { query: 'x', have: Array.from({ length: 33 }, (_, i) => `m${String(i).padStart(12, '0')}`) },
      /- have: have must be a list of at most 32 handles/,
    ],
    [
      'devIndex_readMore',
      { handle: 'm0123456789ab', result: 0 },
      /- result: result must be an integer from 1 to 100; got 0/,
    ],
    [
      'devIndex_waitForAgentJob',
      { jobId: '123e4567-e89b-42d3-a456-426614174000', timeoutSeconds: 601 },
      /- timeoutSeconds: timeoutSeconds must be an integer from 1 to 600; got 601/,
    ],
    ['devIndex_waitForAgentJob', { jobId: 'x' }, /- jobId: .*valid UUID/],
    ['devIndex_listAgentJobs', { limit: 51 }, /- limit: limit must be an integer from 1 to 50; got 51/],
  ];
  for (const [name, args, re] of cases) {
    const r = await call(s, name, args);
    assert.equal(r.isError, true, `${name} ${JSON.stringify(args)}`);
    assert.match(r.text, re);
  }
});

test('--tools lists only the named tools and refuses the others', async () => {
  const only = await connect({}, ['--tools', 'search,readMore']);
  try {
    const { tools } = await only.client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['devIndex_search', 'devIndex_readMore'],
    );
    const r = await call(only, 'devIndex_startAgentJob', { prompt: 'x' });
    assert.equal(r.isError, true);
    assert.match(r.text, /not offered by this server \(started with --tools devIndex_search,devIndex_readMore\)/);
  } finally {
    await only.client.close();
  }
});

async function startJob(prompt: string, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await call(s, 'devIndex_startAgentJob', { prompt, maxCredits: 400, effort: 'low', ...extra });
  const id = /Started agent job ([0-9a-f-]{36})/.exec(r.text)?.[1];
  assert.ok(id, r.text);
  return id;
}

test('a wait streams progress notifications, one line per step, and returns the end with the data', async () => {
  const id = await startJob('Find HTTP client libraries for Node');
  const lines: string[] = [];
  const r = await call(s, 'devIndex_waitForAgentJob', { jobId: id, timeoutSeconds: 60 }, (p) => {
    lines.push(p.message ?? '');
  });
  assert.equal(r.isError, false, r.text);
  assert.ok(lines.length >= 3, `progress lines: ${JSON.stringify(lines)}`);
  for (const l of lines) {
    assert.ok(l.length > 0 && !l.includes('\n') && !l.startsWith('{'), `one line of words: ${l}`);
    assert.ok(!l.includes(KEY));
  }
  assert.match(r.text, new RegExp(`^Agent job ${id} ended: it completed\\.`));
  assert.match(r.text, /Result data:|Answer:/);
  assert.ok(!r.text.includes(KEY), 'no key in the answer');
});

test('a wait that times out says still running, with the latest progress; the job goes on', async () => {
  const id = await startJob('SLOW survey of HTTP retry libraries');
  const r = await call(s, 'devIndex_waitForAgentJob', { jobId: id, timeoutSeconds: 1 });
  assert.equal(r.isError, false, r.text);
  assert.match(
    r.text,
    new RegExp(`^Agent job ${id} is still running after 1 s; the wait ended and the job goes on\\.`),
  );
  const status = await call(s, 'devIndex_agentJobStatus', { jobId: id });
  assert.match(status.text, /: processing\./);
  await call(s, 'devIndex_cancelAgentJob', { jobId: id });
});

test('a cancelled wait stops waiting; the job goes on and the server keeps serving', async () => {
  const id = await startJob('SLOW comparison of fetch wrappers');
  const ctl = new AbortController();
  const lines: string[] = [];
  const pending = call(
    s,
    'devIndex_waitForAgentJob',
    { jobId: id, timeoutSeconds: 120 },
    (p) => {
      lines.push(p.message ?? '');
    },
    ctl.signal,
  ).then(
    () => 'answered',
    (e: Error) => `failed: ${e.message}`,
  );
  // Abort once the wait is under way on the server: its first progress line.
  await until(
    () => lines.length,
    (n) => n > 0,
    { timeoutMs: 20_000, stepMs: 20, message: () => 'a progress line from the wait' },
  );
  ctl.abort();
  assert.match(await pending, /^failed: /);
  const status = await call(s, 'devIndex_agentJobStatus', { jobId: id });
  assert.match(status.text, /: processing\./, 'the job goes on');
  // An unknown notification is ignored; the server still answers.
  await s.client.notification({ method: 'notifications/devindex-unknown', params: { x: 1 } } as never);
  const list = await call(s, 'devIndex_listAgentJobs', { limit: 3 });
  assert.equal(list.isError, false, list.text);
  assert.match(list.text, /most recent agent jobs?, newest first:/);
  assert.ok(list.text.indexOf(id) > 0 && list.text.split('\n').length <= 4, list.text);
  await call(s, 'devIndex_cancelAgentJob', { jobId: id });
});

test('a wait on a run that waits for an approval ends there, says what for, and never reports it as running', async () => {
  const id = await startJob('APPROVAL open an issue about retry headers');
  const t0 = Date.now();
  const r = await call(s, 'devIndex_waitForAgentJob', { jobId: id, timeoutSeconds: 60 });
  const took = Date.now() - t0;
  assert.equal(r.isError, false, r.text);
  assert.match(r.text, new RegExp(`^Agent job ${id} is waiting for the user's approval \\(`), r.text);
  assert.match(r.text, /github issues\/create/, 'names the calls it waits on');
  assert.ok(!/still running/.test(r.text), r.text);
  assert.ok(took < 45_000, `the wait ended at the approval (${took} ms), not at its 60 s timeout`);
  const status = await call(s, 'devIndex_agentJobStatus', { jobId: id });
  assert.match(status.text, /waiting for the user's approval/, status.text);
  const callId = /- call (\S+): github issues\/create \(about 10 credits\)/.exec(status.text)?.[1];
  assert.ok(callId, status.text);
  const answered = await call(s, 'devIndex_answerApproval', { jobId: id, decision: 'approve', callIds: [callId] });
  assert.equal(answered.isError, false, answered.text);
  const next = /The thread goes on as agent job ([0-9a-f-]{36})/.exec(answered.text)?.[1];
  assert.ok(next && next !== id, answered.text);
  const done = await call(s, 'devIndex_waitForAgentJob', { jobId: next, timeoutSeconds: 60 });
  assert.match(done.text, /ended: it completed/, done.text);
  assert.ok(![r.text, status.text, answered.text, done.text].some((t) => t.includes(KEY)));
});

test('the tools never accept data terms: approving a terms approval is refused and nothing is sent', async () => {
  const id = await startJob('APPROVAL-TERMS compare providers', { mode: 'chat' });
  const r = await call(s, 'devIndex_waitForAgentJob', { jobId: id, timeoutSeconds: 60 });
  assert.match(r.text, /waiting for the user's approval/, r.text);
  const refused = await call(s, 'devIndex_answerApproval', { jobId: id, decision: 'approve' });
  assert.equal(refused.isError, true);
  assert.match(refused.text, /Only the user can accept them/);
  const status = await call(s, 'devIndex_agentJobStatus', { jobId: id });
  assert.match(status.text, /waiting for the user's approval/, 'still waiting: nothing was accepted or approved');
});

test('a client that leaves mid-wait: the server ends promptly, and nothing it printed holds the key', async () => {
  const victim = await connect();
  const r = await call(victim, 'devIndex_startAgentJob', { prompt: 'SLOW list of proxies', maxCredits: 400 });
  const id = /Started agent job ([0-9a-f-]{36})/.exec(r.text)![1]!;
  let progressed = 0;
  void victim.client
    .callTool({ name: 'devIndex_waitForAgentJob', arguments: { jobId: id, timeoutSeconds: 120 } }, undefined, {
      onprogress: () => {
        progressed++;
      },
      timeout: 60_000,
    })
    .catch(() => undefined);
  // Leave while the wait is under way on the server: its first progress line.
  await until(
    () => progressed,
    (n) => n > 0,
    { timeoutMs: 20_000, stepMs: 20, message: () => 'a progress line from the wait' },
  );
  const pid = victim.transport.pid!;
  await victim.client.close();
  const alive = (): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  await until(alive, (a) => !a, {
    timeoutMs: 5_000,
    stepMs: 50,
    message: () => 'the server process is gone within 5 s of the client leaving',
  });
  assert.ok(!victim.stderr().includes(KEY), 'no key in the log');
  const again = await call(s, 'devIndex_agentJobStatus', { jobId: id });
  assert.equal(again.isError, false, 'the shared server still serves');
  await call(s, 'devIndex_cancelAgentJob', { jobId: id });
});
