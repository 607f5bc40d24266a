// `devindex mcp` driven by the official SDK's own client: it spawns `node dist/cli.js mcp` against the
// sandbox, lists the tools, calls each one, and checks that errors come back as tool errors
// (isError: true) naming the field and the bound, never as a crashed server; a server killed
// mid-call leaves no process behind. Build with --bundles first (npm run test:http does).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox } from '../../sandbox/server';
import { type Sandbox } from '../../sandbox/serverParts';
import { builtCli, connectMcp, type McpSession } from '../support/mcpSession';
import { until as waitUntil } from '../support/until';

const KEY = 'sandbox-mcp-test-key-0123';
const MARKER = `devindex-mcp-test-${randomUUID()}`;
let sb: Sandbox;
let cli: string;

type Session = McpSession;

function connect(env: Record<string, string> = {}): Promise<Session> {
  return connectMcp({
    cli,
    name: 'devindex-mcp-test',
    env: { DEVINDEX_API_KEY: KEY, DEVINDEX_BASE_URL: sb.url, DEVINDEX_TEST_MARKER: MARKER, ...env },
  });
}

interface CallResult {
  text: string;
  isError: boolean;
}

async function call(s: Session, name: string, args: Record<string, unknown>): Promise<CallResult> {
  const r = await s.client.callTool({ name, arguments: args });
  const content = r.content as Array<{ type: string; text?: string }>;
  assert.equal(content.length, 1, 'one text part');
  assert.equal(content[0]!.type, 'text');
  return { text: content[0]!.text ?? '', isError: r.isError === true };
}

async function sandboxFault(fault: Record<string, unknown>): Promise<void> {
  await fetch(`${sb.url}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ faults: [fault] }),
  });
}

async function sandboxRequests(): Promise<Array<{ method: string; path: string }>> {
  const r = await fetch(`${sb.url}/__sandbox/requests`);
  return ((await r.json()) as { requests: Array<{ method: string; path: string }> }).requests;
}

/** Processes of this user whose environment carries the marker (Linux /proc). */
function markedProcesses(): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${d}/environ`, 'latin1').includes(MARKER)) out.push(Number(d));
    } catch {
      /* gone, or not ours */
    }
  }
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  await waitUntil(ok, Boolean, { timeoutMs: ms, stepMs: 50, message: () => `${what}: not reached in ${ms} ms` });
}

let s: Session;

before(async () => {
  cli = builtCli();
  sb = await startSandbox({ port: 0, keys: [KEY], faults: true, agentSpeed: 50, quiet: true });
  s = await connect();
});

after(async () => {
  await s?.client.close();
  await sb.close();
  assert.deepEqual(markedProcesses(), [], 'no devindex mcp process is left');
});

test("the server's instructions teach the coverage notes, `have` and the cost of agent jobs", async () => {
  const words = s.client.getInstructions() ?? '';
  assert.match(words, /Read the coverage notes/);
  assert.match(words, /list the handles of answers you still hold in `have`/);
  assert.match(words, /Agent jobs spend credits/);
});

test('lists the ten tools with their schemas and annotations', async () => {
  const { tools } = await s.client.listTools();
  const byName = new Map(tools.map((t) => [t.name, t]));
  assert.deepEqual(
    [...byName.keys()].sort(),
    [
      'devIndex_agentJobStatus',
      'devIndex_cancelAgentJob',
      'devIndex_fixes',
      'devIndex_listAgentJobs',
      'devIndex_readMore',
      'devIndex_readSnapshot',
      'devIndex_search',
      'devIndex_answerApproval',
      'devIndex_startAgentJob',
      'devIndex_waitForAgentJob',
    ].sort(),
  );
  const search = byName.get('devIndex_search')!;
  const props = search.inputSchema.properties as Record<
    string,
    { minimum?: number; maximum?: number; description?: string }
  >;
  assert.deepEqual(search.inputSchema.required, ['query']);
  assert.equal(props.k!.minimum, 1);
  assert.equal(props.k!.maximum, 100);
  assert.equal(props.passages!.maximum, 5);
  assert.equal(props.language!.description, undefined);
  assert.match(
    search.description ?? '',
    /Repo filters \(language, topic, license, stars, archived, fork\) without `sources` return NO docs/,
  );
  assert.deepEqual([props.maxTokens!.minimum, props.maxTokens!.maximum], [500, 50_000]);
  assert.ok(!('scope' in props), 'no workspace scope outside the editor');
  assert.equal(search.annotations?.readOnlyHint, true);
  assert.equal(byName.get('devIndex_agentJobStatus')!.annotations?.readOnlyHint, true);
  assert.equal(byName.get('devIndex_readSnapshot')!.annotations?.readOnlyHint, true);
  assert.equal(byName.get('devIndex_readMore')!.annotations?.readOnlyHint, true);
  assert.equal(byName.get('devIndex_waitForAgentJob')!.annotations?.readOnlyHint, true);
  const start = byName.get('devIndex_startAgentJob')!;
  assert.equal(start.annotations?.readOnlyHint, false);
  assert.notEqual(start.annotations?.idempotentHint, true, "not idempotent (the specification's default)");
  assert.match(start.title ?? '', /spends credits/);
  assert.match(start.description ?? '', /SPENDS CREDITS/);
  assert.deepEqual(
    tools.filter((t) => t._meta?.['devindex/spendsCredits'] === true).map((t) => t.name),
    ['devIndex_startAgentJob', 'devIndex_answerApproval'],
  );
  assert.notEqual(
    byName.get('devIndex_cancelAgentJob')!.annotations?.destructiveHint,
    false,
    "destructive (the specification's default)",
  );
});

test('search returns the sandbox top result with provenance, link and passages', async () => {
  const direct = await fetch(
    `${sb.url}/v2/search/developer?query=retry+after+rate+limit&k=3&passages=2&types=issue,pull_request`,
  );
  const body = (await direct.json()) as {
    results: Array<{ id: string; url: string; passages: Array<{ text: string }> }>;
  };
  const top = body.results[0]!;
  const r = await call(s, 'devIndex_search', {
    query: 'retry after rate limit',
    k: 3,
    passages: 2,
    types: ['issue', 'pull_request'],
  });
  assert.equal(r.isError, false, r.text);
  const m = /^(?:issue|pull_request):([^#]+)#(\d+)$/.exec(top.id);
  assert.ok(m, `top id ${top.id}`);
  const first = r.text.split('\n[2]')[0]!;
  assert.ok(first.includes(`[1] ${top.id} · `), `the id ${top.id} in:\n${first}`);
  assert.ok(first.includes(`\n${top.url}\n`), 'the URL');
  assert.ok(first.includes(top.passages[0]!.text.split('\n')[0]!.slice(0, 40)), 'the first passage');
  assert.match(first, /\n\[1\.2\]/, 'two passages asked, two shown');
});

test('a rule 6 request says documentation was left out and how to keep it', async () => {
  const r = await call(s, 'devIndex_search', { query: 'http client', language: 'TypeScript' });
  assert.equal(r.isError, false, r.text);
  assert.match(r.text, /No documentation results: repository filters \(language\)/);
  assert.match(r.text, /To keep doc results, drop the repository filters, or scope the documentation with sources/);
  assert.doesNotMatch(r.text, /^\[\d+\] doc:/m, 'no doc result listed');
});

test('invalid input comes back as a tool error with the field and the bound; nothing is sent', async () => {
  await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
  const k = await call(s, 'devIndex_search', { query: 'x', k: 500 });
  assert.equal(k.isError, true);
  assert.match(k.text, /- k: k must be from 1 to 100; got 500/);
  const rule3 = await call(s, 'devIndex_search', { query: 'x', repos: ['acme/widgets'], types: ['doc'] });
  assert.equal(rule3.isError, true);
  assert.match(
    rule3.text,
    /- repos: repos cannot match any requested type; add issue, pull_request or readme or drop repos/,
  );
  const rule4 = await call(s, 'devIndex_search', { query: 'x', sources: ['node-api'], types: ['issue'] });
  assert.match(rule4.text, /- sources: sources cannot match any requested type; add doc or drop sources/);
  const empty = await call(s, 'devIndex_search', { query: '' });
  assert.equal(empty.isError, true);
  assert.match(empty.text, /- query: query must be at least 1 character long/);
  const scope = await call(s, 'devIndex_search', { query: 'x', scope: 'workspace' });
  assert.match(scope.text, /- scope: scope is only available in the editor/);
  const job = await call(s, 'devIndex_agentJobStatus', { jobId: 'not-a-uuid' });
  assert.equal(job.isError, true);
  assert.match(job.text, /- jobId: .*Job ID must be a valid UUID/);
  const credits = await call(s, 'devIndex_startAgentJob', { prompt: 'x', maxCredits: 0 });
  assert.match(credits.text, /- maxCredits: maxCredits must be a number greater than 0; got 0/);
  const unknown = await call(s, 'devIndex_nope', { query: 'x' });
  assert.equal(unknown.isError, true);
  assert.deepEqual(
    (await sandboxRequests()).filter((q) => q.path.startsWith('/v2/')),
    [],
    'nothing reached the service',
  );
  // The server is still serving.
  assert.equal((await s.client.listTools()).tools.length, 10);
});

test('a 429 the client will not wait out says how long to wait', async () => {
  await sandboxFault({
    kind: 'status',
    status: 429,
    retryAfter: '600',
    error: 'Rate limit exceeded',
    path: '/v2/search',
  });
  const r = await call(s, 'devIndex_search', { query: 'retry' });
  assert.equal(r.isError, true);
  assert.match(r.text, /rate limited \(HTTP 429/);
  assert.match(r.text, /wait until \d\d:\d\d \(in 10 min\)/);
});

test('a refused key gives the 401 advice and never the key', async () => {
  const bad = 'not-a-valid-key-4242-abcdef';
  const other = await connect({ DEVINDEX_API_KEY: bad });
  try {
    const r = await call(other, 'devIndex_search', { query: 'retry' });
    assert.equal(r.isError, true);
    assert.match(r.text, /HTTP 401 Unauthorized: Invalid token/);
    assert.match(r.text, /Set DEVINDEX_API_KEY/);
    assert.ok(!r.text.includes(bad), 'the key is not in the result');
    const j = await call(other, 'devIndex_startAgentJob', { prompt: 'find things' });
    assert.ok(!j.text.includes(bad));
  } finally {
    await other.client.close();
  }
});

test('a service that echoes the key in every field (raw, \\u-escaped, in errors): no tool answer holds it', async () => {
  const key = 'echoed-mcp-key-0123456789abcdef';
  const JOB = '11111111-1111-4111-8111-111111111111';
  // Every other echo \u-escapes the key's first character, which only JSON decoding turns back into the key.
  let n = 0;
  const echo = () => (n++ % 2 === 0 ? key : `\\u${key.charCodeAt(0).toString(16).padStart(4, '0')}${key.slice(1)}`);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const reply = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    };
    if (path.startsWith('/v2/search')) {
      return reply(
        200,
        `{"success":true,"results":[{"id":"issue:a/b#1","url":"https://github.com/a/b/issues/1","title":"T ${echo()}","license":"${echo()}","passages":[{"text":"P ${echo()}","citation_url":"https://github.com/a/b/issues/1#${echo()}"}]}]}`,
      );
    }
    if (path.endsWith('/trace'))
      return reply(
        200,
        `{"success":true,"events":[{"type":"progress.reported","message":"M ${echo()}","eventId":"e1","agent":{"id":"a"},"occurredAt":"2026-11-23T00:00:00Z"}]}`,
      );
    if (path.includes('/snapshots/')) return reply(200, `{"success":true,"snapshotId":"s1","snapshot":"S ${echo()}"}`);
    if (path === `/v2/agent/${JOB}` && req.method === 'DELETE')
      return reply(
        400,
        `{"success":false,"error":"bad ${echo()}","details":[{"path":["${echo()}"],"message":"got ${echo()}"}]}`,
      );
    if (path === `/v2/agent/${JOB}`)
      return reply(
        200,
        `{"success":true,"status":"failed","error":"E ${echo()}","partial":{"k":"D ${echo()}"},"expiresAt":"${echo()}"}`,
      );
    if (path === '/v2/agent') return reply(401, `{"success":false,"error":"Unauthorized: ${echo()}"}`);
    return reply(404, `{"success":false,"error":"${echo()}"}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const other = await connect({
    DEVINDEX_API_KEY: key,
    DEVINDEX_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  });
  try {
    const answers = [
      await call(other, 'devIndex_search', { query: 'q', passages: 1 }),
      await call(other, 'devIndex_agentJobStatus', { jobId: JOB }),
      await call(other, 'devIndex_readSnapshot', { jobId: JOB, snapshotId: 's1' }),
      await call(other, 'devIndex_cancelAgentJob', { jobId: JOB }),
      await call(other, 'devIndex_startAgentJob', { prompt: 'p' }),
    ];
    assert.ok(n >= 12, `the service echoed the key ${n} times`);
    for (const a of answers) assert.ok(!a.text.includes(key), a.text);
    assert.match(answers[0]!.text, /\[1\] issue:a\/b#1 · T \[redacted\]/);
    // The wait's progress notifications and its end go through the same guard.
    const progress: string[] = [];
    const waited = await other.client.callTool(
      { name: 'devIndex_waitForAgentJob', arguments: { jobId: JOB, timeoutSeconds: 20 } },
      undefined,
      {
        onprogress: (p) => {
          progress.push(p.message ?? '');
        },
      },
    );
    const waitText = (waited.content as Array<{ text: string }>)[0]!.text;
    assert.ok(!waitText.includes(key), waitText);
    assert.ok(progress.length >= 1 && progress.every((l) => !l.includes(key)), JSON.stringify(progress));
    assert.ok(
      progress.some((l) => l.includes('[redacted]')),
      'the echoed key was scrubbed from a progress line',
    );
    assert.ok(!other.stderr().includes(key), 'nor on stderr');
  } finally {
    await other.client.close();
    server.closeAllConnections();
    server.close();
  }
});

test('an unreachable service: what happened and what to do, and the server keeps serving', async () => {
  const other = await connect({ DEVINDEX_BASE_URL: 'http://127.0.0.1:9' });
  try {
    const r = await call(other, 'devIndex_search', { query: 'retry' });
    assert.equal(r.isError, true);
    assert.match(
      r.text,
      /^The search failed: the service could not be reached \(could not complete the request to http:\/\/127\.0\.0\.1:9/,
    );
    assert.match(
      r.text,
      /try again in a moment; if it keeps failing, ask the user to check the network and DEVINDEX_BASE_URL/,
    );
    assert.equal((await other.client.listTools()).tools.length, 10);
  } finally {
    await other.client.close();
  }
});

test('an https service with an unreadable certificate file: the setup done after initialize keeps its error for the first search, and the server keeps serving', async () => {
  // The trust settings are gathered once initialize is done (not in the first answer); their error is not lost.
  const other = await connect({ DEVINDEX_BASE_URL: 'https://127.0.0.1:9', DEVINDEX_CA_FILE: '/nonexistent/ca.pem' });
  try {
    assert.equal((await other.client.listTools()).tools.length, 10);
    const r = await call(other, 'devIndex_search', { query: 'retry' });
    assert.equal(r.isError, true);
    assert.match(r.text, /could not read the certificate authorities in \/nonexistent\/ca\.pem/);
    // The same error again (kept, not a crash nor a silent default store), and the server still answers.
    assert.match(
      (await call(other, 'devIndex_search', { query: 'retry' })).text,
      /could not read the certificate authorities/,
    );
    assert.equal((await other.client.listTools()).tools.length, 10);
  } finally {
    await other.client.close();
  }
});

test('devindex mcp --help and a bad --max-chars: usage on the terminal, exit codes 0 and 2', async () => {
  const run = (args: string[]) =>
    spawnSync(process.execPath, [cli, 'mcp', ...args], { encoding: 'utf8', timeout: 10_000, input: '' });
  const help = run(['--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^Usage: devindex mcp \[options\]/);
  const bad = run(['--max-chars', '50']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--max-chars must be an integer from 2000 to 200000; got "50"/);
  assert.equal(bad.stdout, '', 'nothing on the protocol stream');
});

test('agent tools: start, status with trace summary, snapshot, cancel', async () => {
  const started = await call(s, 'devIndex_startAgentJob', {
    prompt: 'Find HTTP client libraries for Node',
    maxCredits: 400,
    effort: 'low',
  });
  assert.equal(started.isError, false, started.text);
  const id = /Started agent job ([0-9a-f-]{36}) with a ceiling of 400 credits/.exec(started.text)?.[1];
  assert.ok(id, started.text);
  let status = '';
  let snapshotId: string | undefined;
  await until(
    'a snapshot is listed',
    async () => {
      status = (await call(s, 'devIndex_agentJobStatus', { jobId: id })).text;
      snapshotId = /Snapshots \(read one with devIndex_readSnapshot\): ([A-Za-z0-9_-]+)/.exec(status)?.[1];
      return snapshotId !== undefined;
    },
    30_000,
  );
  assert.match(status, new RegExp(`^Agent job ${id}: (processing|completed)\\.`));
  assert.match(status, /Trace: \d+ events?\./);
  const snap = await call(s, 'devIndex_readSnapshot', { jobId: id, snapshotId });
  assert.equal(snap.isError, false, snap.text);
  assert.match(snap.text, new RegExp(`^Snapshot ${snapshotId} of agent job ${id}`));
  const cancelled = await call(s, 'devIndex_cancelAgentJob', { jobId: id });
  assert.equal(cancelled.isError, false, cancelled.text);
  assert.match(cancelled.text, /Cancellation of agent job .* was requested|had already finished/);
  const missing = await call(s, 'devIndex_agentJobStatus', { jobId: '123e4567-e89b-42d3-a456-426614174000' });
  assert.equal(missing.isError, true);
  assert.match(missing.text, /Agent job not found \(HTTP 404\)/);
});

test('a model newer than this build: refused before sending, unless DEVINDEX_AGENT_MODELS names it (then the service answers)', async () => {
  const posts = async () =>
    (await sandboxRequests()).filter((r) => r.method === 'POST' && r.path === '/v2/agent').length;
  const before = await posts();
  const refused = await call(s, 'devIndex_startAgentJob', { prompt: 'p', model: 'spark-9' });
  assert.equal(refused.isError, true);
  assert.match(refused.text, /- model: model "spark-9" is not one the service accepts.*DEVINDEX_AGENT_MODELS/);
  assert.equal(await posts(), before, 'nothing sent');
  const extra = await connect({ DEVINDEX_AGENT_MODELS: 'spark-9' });
  try {
    const sent = await call(extra, 'devIndex_startAgentJob', { prompt: 'p', model: 'spark-9' });
    assert.equal(await posts(), before + 1, 'sent to the service');
    // The sandbox (production wire) knows only spark-2 and its retired names: its 400 names the field.
    assert.equal(sent.isError, true);
    assert.match(sent.text, /model/);
  } finally {
    await extra.client.close();
  }
});

test('cancel on the production wire: the run ends as cancelled, its credits shown as spent, with its expiry', async () => {
  const started = await call(s, 'devIndex_startAgentJob', {
    prompt: 'SLOW: list HTTP retry libraries',
    maxCredits: 400,
  });
  const id = /Started agent job ([0-9a-f-]{36})/.exec(started.text)?.[1];
  assert.ok(id, started.text);
  // Let it spend something first, so that the cancelled run has credits to report.
  await until(
    'credits are spent',
    async () => /Credits used: [1-9]/.test((await call(s, 'devIndex_agentJobStatus', { jobId: id })).text),
    20_000,
  );
  const cancelled = await call(s, 'devIndex_cancelAgentJob', { jobId: id });
  assert.equal(cancelled.isError, false, cancelled.text);
  assert.match(
    cancelled.text,
    /ends as cancelled; the credits it spent before the cancel took effect may still be charged/,
  );
  let status = '';
  await until(
    'the run ends as cancelled',
    async () => /: cancelled\./.test((status = (await call(s, 'devIndex_agentJobStatus', { jobId: id })).text)),
    20_000,
  );
  assert.match(status, /\nCredits used: [1-9]\d* \(spent before the cancel took effect\)\./);
  assert.match(status, /\nExpires: \d{4}-\d\d-\d\dT[^ ]+ \(the service forgets the job then/);
  assert.doesNotMatch(status, /not billed/);
});

test('a call the client cancels is abandoned; the server keeps serving', async () => {
  await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
  await sandboxFault({ kind: 'slow', ms: 20_000, path: '/v2/search' });
  const ctl = new AbortController();
  const pending = s.client
    .callTool({ name: 'devIndex_search', arguments: { query: 'cancel me' } }, undefined, { signal: ctl.signal })
    .then(
      () => 'answered',
      (e: Error) => `failed: ${e.message}`,
    );
  await until('the search reached the sandbox', async () =>
    (await sandboxRequests()).some((q) => q.path === '/v2/search/developer'),
  );
  const t0 = Date.now();
  ctl.abort();
  assert.match(await pending, /^failed: /);
  assert.ok(Date.now() - t0 < 2000);
  const r = await call(s, 'devIndex_search', { query: 'retry', k: 1 });
  assert.equal(r.isError, false, r.text);
});

test('a server killed mid-call leaves no process behind, and the client gets an error', async () => {
  const victim = await connect();
  const pid = victim.transport.pid;
  assert.ok(pid && alive(pid));
  await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
  await sandboxFault({ kind: 'slow', ms: 20_000, path: '/v2/search' });
  const pending = victim.client.callTool({ name: 'devIndex_search', arguments: { query: 'slow one' } }).then(
    () => 'answered',
    (e: Error) => `failed: ${e.message}`,
  );
  await until('the search reached the sandbox', async () =>
    (await sandboxRequests()).some((q) => q.path === '/v2/search/developer'),
  );
  process.kill(pid, 'SIGKILL');
  await until('the server process is gone', () => !alive(pid));
  assert.match(await pending, /^failed: /);
  await victim.client.close();
  assert.deepEqual(
    markedProcesses().filter((p) => p !== s.transport.pid),
    [],
    'nothing left but the shared session',
  );
});

test('a client that closes mid-call ends the server promptly', async () => {
  const victim = await connect();
  const pid = victim.transport.pid!;
  await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
  await sandboxFault({ kind: 'slow', ms: 20_000, path: '/v2/search' });
  void victim.client.callTool({ name: 'devIndex_search', arguments: { query: 'slow two' } }).catch(() => undefined);
  await until('the search reached the sandbox', async () =>
    (await sandboxRequests()).some((q) => q.path === '/v2/search/developer'),
  );
  const t0 = Date.now();
  await victim.client.close();
  await until('the server process is gone', () => !alive(pid), 5000);
  // The SDK's client ends stdin, waits up to 2 s, then sends SIGTERM: well under 2 s means stdin's end alone stopped it.
  assert.ok(Date.now() - t0 < 1500, `${Date.now() - t0} ms`);
  assert.match(victim.stderr(), /serving on stdio/);
});

// The same text from both wires of the sandbox: production (no `type`, licenses, citation links, web
// pages when types is unset) and the specification's shapes. Expectations are read from the raw JSON.

for (const wire of ['production', 'spec'] as const) {
  test(`search text on the ${wire} wire: kind, license and passage links as the service sent them`, async () => {
    // Production sends licenses to keyed callers only: the session and the raw request carry a key.
    const wireKey = 'mcp-wire-key-0123456789';
    const wsb = await startSandbox({
      port: 0,
      wire,
      quiet: true,
      keylessRateLimit: 100_000,
      keys: [wireKey],
      licenseKeyed: true,
    });
    const saved = sb;
    sb = wsb;
    const session = await connect({ DEVINDEX_API_KEY: wireKey });
    sb = saved;
    try {
      const query = 'retry after rate limit';
      const raw = (await (
        await fetch(`${wsb.url}/v2/search/developer?query=${encodeURIComponent(query)}&k=8&passages=2`, {
          headers: { authorization: `Bearer ${wireKey}` },
        })
      ).json()) as {
        results: Array<{
          id: string;
          type?: string;
          url: string;
          license?: string | { spdx_id?: string | null };
          passages: Array<{ text: string; citation_url?: string }>;
        }>;
      };
      assert.ok(raw.results.length >= 3, 'enough results to compare');
      if (wire === 'production')
        assert.ok(
          raw.results.every((r) => r.type === undefined),
          'production sends no type',
        );
      const r = await call(session, 'devIndex_search', { query, k: 8, passages: 2 });
      assert.equal(r.isError, false, r.text);
      const blocks = r.text.split(/\n(?=\[\d+\] )/).slice(1);
      assert.equal(blocks.length, raw.results.length);
      let licenses = 0;
      let cites = 0;
      raw.results.forEach((res, i) => {
        const kind = res.type ?? res.id.slice(0, res.id.indexOf(':'));
        const head = blocks[i]!.split('\n')[0]!;
        assert.ok(head.startsWith(`[${i + 1}] ${res.id}`), `${head} for ${res.id}`);
        assert.ok(res.id.startsWith(`${kind}:`), `the id names the kind ${kind}`);
        const spdx = typeof res.license === 'string' ? res.license : res.license?.spdx_id;
        if (spdx) {
          licenses++;
          assert.ok(head.endsWith(` · license ${spdx}`), head);
        }
        for (const p of res.passages) {
          if (p.citation_url && p.citation_url !== res.url) {
            cites++;
            const anchor = p.citation_url.startsWith(`${res.url}#`)
              ? ` ${p.citation_url.slice(res.url.length)}\n`
              : ` cite ${p.citation_url}\n`;
            assert.ok(blocks[i]!.includes(anchor), p.citation_url);
          }
        }
      });
      if (wire === 'production')
        assert.ok(licenses > 0 && cites > 0, `production carries licenses (${licenses}) and citation links (${cites})`);
      else assert.equal(licenses + cites, 0);
    } finally {
      await session.client.close();
      await wsb.close();
    }
  });
}

test("DEVINDEX_MCP_TIMING=1 (the bench's breakdown): one stderr line per tool call with its marks; answers unchanged, no key in them", async () => {
  const timed = await connect({ DEVINDEX_MCP_TIMING: '1' });
  try {
    const a = await call(timed, 'devIndex_search', { query: 'retry after header', k: 2 });
    await timed.client.ping();
    const b = await call(timed, 'devIndex_search', { query: 'x', k: 101 });
    assert.equal(a.isError, false, a.text);
    assert.equal(b.isError, true);
    await until('two timing lines', () => (timed.stderr().match(/^devindex mcp timing: /gm) ?? []).length === 2, 5_000);
    const lines = timed
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('devindex mcp timing: '));
    for (const l of lines)
      assert.match(
        l,
        /^devindex mcp timing: devIndex_search in \d+\.\d{3} tool \d+\.\d{3} service \d+\.\d{3} out \d+\.\d{3}$/,
      );
    const n = (l: string, k: string) => Number(new RegExp(` ${k} ([\\d.]+)`).exec(l)![1]);
    assert.ok(n(lines[0]!, 'service') > 0 && n(lines[0]!, 'service') <= n(lines[0]!, 'tool'), lines[0]);
    assert.equal(n(lines[1]!, 'service'), 0, 'a refused input calls no service');
    assert.ok(!timed.stderr().includes(KEY));
  } finally {
    await timed.client.close();
  }
  // Off by default.
  const plain = await connect();
  try {
    await call(plain, 'devIndex_search', { query: 'retry after header', k: 2 });
    assert.doesNotMatch(plain.stderr(), /timing/);
  } finally {
    await plain.client.close();
  }
});
