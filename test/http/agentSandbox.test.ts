// The sandbox's agent endpoints over real HTTP, through the server's auth and fault layers, with
// AgentClient on the other side.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { AgentClient, JobMayExistError, agentErrorReason, isTerminalStatus, type AgentJob } from '../../src/api/agent';
import { ApiError } from '../../src/api/errors';
import { DevIndexClient } from '../../src/api/client';

const KEY_A = 'sandbox-agent-key-a';
const KEY_B = 'sandbox-agent-key-b';
const LEGACY = '00000000-0000-4000-8000-000000000001';
let sb: Sandbox;
const clients: DevIndexClient[] = [];
let a: AgentClient;
let b: AgentClient;

function agentFor(key: string): AgentClient {
  const c = new DevIndexClient({ baseUrl: sb.url, apiKey: () => key, timeoutMs: 2000, random: () => 0, clock: { now: () => Date.now(), sleep: async () => {} } });
  clients.push(c);
  return new AgentClient(c);
}

async function raw(method: string, path: string, body?: unknown, key: string | null = KEY_A): Promise<{ status: number; json: Record<string, unknown> }> {
  const r = await fetch(`${sb.url}${path}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
  const text = await r.text();
  return { status: r.status, json: text ? JSON.parse(text) as Record<string, unknown> : {} };
}

async function requests(): Promise<Array<{ method: string; path: string }>> {
  return (await raw('GET', '/__sandbox/requests')).json.requests as Array<{ method: string; path: string }>;
}

async function untilTerminal(client: AgentClient, id: string): Promise<AgentJob> {
  for (let i = 0; i < 100; i++) {
    const job = await client.status(id);
    if (isTerminalStatus(job.status)) return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`job ${id} did not finish within 5 s at speed 50`);
}

before(async () => {
  sb = await startSandbox({ port: 0, keys: [KEY_A, KEY_B], faults: true, agentSpeed: 50, quiet: true });
  a = agentFor(KEY_A);
  b = agentFor(KEY_B);
});

after(async () => {
  for (const c of clients) await c.close();
  await sb.close();
});

beforeEach(async () => {
  await raw('DELETE', '/__sandbox/faults');
  await raw('DELETE', '/__sandbox/requests');
});

test('agent paths need a valid key', async () => {
  for (const key of [null, 'not-a-key']) {
    const r = await raw('GET', '/v2/agent', undefined, key);
    assert.equal(r.status, 401);
    assert.equal(r.json.error, 'Unauthorized: Invalid token');
  }
});

test('a run to completion: growing result snapshots, late events, final data', async () => {
  const { id } = await a.submit({ prompt: 'Collect TypeScript HTTP clients', urls: ['https://github.com/nodejs/undici'] });
  const job = await untilTerminal(a, id);
  assert.equal(job.status, 'completed');
  assert.ok((job.creditsUsed ?? 0) > 0);
  const t = await a.trace(id);
  const finishedAt = Date.parse(t.events.find((e) => e.type === 'run.finished')!.occurredAt!);
  await new Promise((r) => setTimeout(r, 100));
  const later = await a.trace(id);
  assert.ok(later.events.some((e) => Date.parse(e.occurredAt!) > finishedAt && e.error?.code === 'parent_finished'));
  const result = later.events.filter((e) => e.artifact?.artifactId === 'result');
  let prev = -1;
  for (const e of result) {
    const s = await a.snapshot(id, e.artifact!.snapshotId!);
    const n = (JSON.parse(s.snapshot) as { items: unknown[] }).items.length;
    assert.ok(n >= prev, 'the result only grows');
    prev = n;
  }
  assert.equal(prev, (job.data as { items: unknown[] }).items.length);
});

test('jobs are private to the team of the key', async () => {
  const { id } = await a.submit({ prompt: 'mine' });
  const e = await b.status(id).then(() => assert.fail('other team saw the job'), (x: unknown) => x as ApiError);
  assert.equal(e.status, 404);
  assert.equal(agentErrorReason(e), 'not-found');
  assert.ok(!(await b.list()).jobs.some((j) => j.id === id));
  assert.ok((await a.list()).jobs.some((j) => j.id === id));
});

test('credit ceiling: failed, unbilled, credit_limit_reached in the trace', async () => {
  const { id } = await a.submit({ prompt: 'expensive', maxCredits: 30 });
  const job = await untilTerminal(a, id);
  assert.equal(job.status, 'failed');
  assert.equal(job.creditsUsed, 0);
  assert.match(job.error ?? '', /credit limit/i);
  const fin = (await a.trace(id)).events.find((e) => e.type === 'run.finished');
  assert.equal(fin?.outcome, 'credit_limit_reached');
});

test('cancel over HTTP: cancelling, both 409s with their next steps', async () => {
  const { id } = await a.submit({ prompt: 'cancel me SLOW' });
  await a.cancel(id);
  const again = await a.cancel(id).then(() => assert.fail('second cancel accepted'), (x: unknown) => x as ApiError);
  assert.equal(again.status, 409);
  assert.match(again.message, /keep polling/);
  const job = await untilTerminal(a, id);
  assert.equal(job.status, 'failed');
  assert.match(job.error ?? '', /cancel/i);
  const { id: done } = await a.submit({ prompt: 'REFUSE this' });
  await untilTerminal(a, done);
  const fin = await a.cancel(done).then(() => assert.fail('cancel of a finished job accepted'), (x: unknown) => x as ApiError);
  assert.equal(fin.error, 'Agent already finished');
  assert.match(fin.message, /refresh/);
});

test('old-engine job: trace 400 relayed without success; the client says it has no trace', async () => {
  const r = await raw('GET', `/v2/agent/${LEGACY}/trace`);
  assert.equal(r.status, 400);
  assert.equal(r.json.success, undefined);
  assert.match(String(r.json.error), /^Trace is only available for .+ extracts$/);
  const e = await a.trace(LEGACY).then(() => assert.fail('trace of a legacy job'), (x: unknown) => x as ApiError);
  assert.equal(agentErrorReason(e), 'no-trace');
  assert.match(e.message, /this job has no trace/);
  assert.equal((await a.status(LEGACY)).status, 'completed');
});

test('submit after an injected 504: no second POST, and the job may exist', async () => {
  await raw('POST', '/__sandbox/faults', { faults: [{ kind: 'status', status: 504, body: 'empty', path: '/v2/agent' }] });
  const e = await a.submit({ prompt: 'once only' }).then(() => assert.fail('submitted'), (x: unknown) => x);
  assert.ok(e instanceof JobMayExistError);
  assert.equal((await requests()).filter((r) => r.method === 'POST' && r.path === '/v2/agent').length, 1);
});

test('submit after a dropped connection: no second POST', async () => {
  await raw('POST', '/__sandbox/faults', { faults: [{ kind: 'reset', path: '/v2/agent' }] });
  const e = await a.submit({ prompt: 'once only' }).then(() => assert.fail('submitted'), (x: unknown) => x);
  assert.ok(e instanceof JobMayExistError);
  assert.equal((await requests()).filter((r) => r.method === 'POST').length, 1);
});

test('submit after a 500 passthrough is retried and creates exactly one job', async () => {
  const before = (await a.list()).jobs.length;
  await raw('POST', '/__sandbox/faults', { faults: [{ kind: 'status', status: 500, error: 'Failed to passthrough agent request.', path: '/v2/agent' }] });
  await raw('DELETE', '/__sandbox/requests');
  const { id } = await a.submit({ prompt: 'retried safely' });
  assert.equal((await requests()).filter((r) => r.method === 'POST').length, 2);
  const jobs = (await a.list()).jobs;
  assert.equal(jobs.length, Math.min(before + 1, 20));
  assert.equal(jobs[0]!.id, id);
});

test('list pages through every job with next', async () => {
  const c = agentFor('sandbox-agent-key-a');
  const mine = new Set<string>();
  for (let i = 0; i < 23; i++) mine.add((await c.submit({ prompt: `paged ${i}` })).id);
  const seen: string[] = [];
  let before: number | undefined;
  for (let page = 0; page < 10; page++) {
    const p = await c.list(before === undefined ? {} : { before });
    assert.ok(p.jobs.length <= 20);
    seen.push(...p.jobs.map((j) => j.id));
    if (p.nextBefore === undefined) break;
    before = p.nextBefore;
  }
  assert.equal(new Set(seen).size, seen.length, 'no job twice');
  for (const id of mine) assert.ok(seen.includes(id));
  assert.equal(seen.at(-1), LEGACY);
});
