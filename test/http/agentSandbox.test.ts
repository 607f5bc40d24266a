// The sandbox's agent endpoints over real HTTP, through the server's auth and fault layers, with
// AgentClient on the other side.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox } from '../../sandbox/server';
import { type Sandbox } from '../../sandbox/serverParts';
import { AgentClient } from '../../src/api/agent/agentClient';
import { reasonOf } from '../../src/api/agent/agentReasons';
import { isTerminalStatus } from '../../src/api/agent/agentConstants';
import { JobMayExistError, agentErrorReason } from '../../src/api/agent/agentFailure';
import { type AgentJobRecord } from '../../src/api/agent/agentSchemas';
import { ApiError } from '../../src/api/errors';
import { DevIndexClient } from '../../src/api/client';
import { HttpTransport } from '../../src/api/http';

const KEY_A = 'sandbox-agent-key-a';
const KEY_B = 'sandbox-agent-key-b';
const LEGACY = '00000000-0000-4000-8000-000000000001';
const WIRES = ['production', 'spec'] as const;
let sb: Sandbox;
const clients: DevIndexClient[] = [];
let a: AgentClient;
let b: AgentClient;

function agentFor(key: string): AgentClient {
  const c = new DevIndexClient({
    transport: new HttpTransport(),
    baseUrl: sb.url,
    apiKey: () => key,
    timeoutMs: 2000,
    random: () => 0,
    clock: { now: () => Date.now(), sleep: async () => {} },
  });
  clients.push(c);
  return new AgentClient(c);
}

async function raw(
  method: string,
  path: string,
  body?: unknown,
  key: string | null = KEY_A,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const r = await fetch(`${sb.url}${path}`, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
  const text = await r.text();
  return { status: r.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function requests(): Promise<Array<{ method: string; path: string }>> {
  return (await raw('GET', '/__sandbox/requests')).json.requests as Array<{ method: string; path: string }>;
}

async function untilTerminal(client: AgentClient, id: string): Promise<AgentJobRecord> {
  for (let i = 0; i < 100; i++) {
    const job = await client.status(id);
    if (isTerminalStatus(job.status)) return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`job ${id} did not finish within 5 s at speed 50`);
}

for (const wire of WIRES) {
  describe(`agent sandbox over HTTP (${wire} wire)`, () => {
    before(async () => {
      sb = await startSandbox({ port: 0, keys: [KEY_A, KEY_B], faults: true, agentSpeed: 50, quiet: true, wire });
      a = agentFor(KEY_A);
      b = agentFor(KEY_B);
    });

    after(async () => {
      for (const c of clients.splice(0)) await c.close();
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
      const { id } = await a.submit({
        prompt: 'Collect TypeScript HTTP clients',
        urls: ['https://github.com/nodejs/undici'],
      });
      const job = await untilTerminal(a, id);
      assert.equal(job.status, 'completed');
      assert.ok((job.creditsUsed ?? 0) > 0);
      const t = await a.trace(id);
      const finishedAt = Date.parse(t.events.find((e) => e.type === 'run.finished')!.occurredAt!);
      await new Promise((r) => setTimeout(r, 100));
      const later = await a.trace(id);
      assert.ok(
        later.events.some((e) => Date.parse(e.occurredAt!) > finishedAt && e.error?.code === 'parent_finished'),
      );
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
      const e = await b.status(id).then(
        () => assert.fail('other team saw the job'),
        (x: unknown) => x as ApiError,
      );
      assert.equal(e.status, 404);
      assert.equal(agentErrorReason(e), 'not-found');
      assert.ok(!(await b.list()).agents.some((j) => j.id === id));
      assert.ok((await a.list()).agents.some((j) => j.id === id));
    });

    test('credit ceiling: failed, unbilled, credit_limit_reached in the trace', async () => {
      const { id } = await a.submit({ prompt: 'expensive', maxCredits: 30 });
      const job = await untilTerminal(a, id);
      assert.equal(job.status, 'failed');
      assert.equal(job.creditsUsed, 0);
      assert.match(job.error ?? '', /credit limit/i);
      const fin = (await a.trace(id)).events.find((e) => e.type === 'run.finished');
      assert.equal(fin?.outcome, 'credit_limit_reached');
      if (wire === 'production')
        assert.ok(Array.isArray((job.partial as { items?: unknown[] }).items), 'production keeps the partial result');
      else assert.equal(job.partial, undefined);
    });

    test('cancel over HTTP: cancelling, both 409s with their next steps', async () => {
      const { id } = await a.submit({ prompt: 'cancel me SLOW' });
      await a.cancel(id);
      const again = await a.cancel(id).then(
        () => assert.fail('second cancel accepted'),
        (x: unknown) => x as ApiError,
      );
      assert.equal(again.status, 409);
      assert.match(again.message, /keep polling/);
      const job = await untilTerminal(a, id);
      // Production reports `cancelled` (with what the run spent); the specification, `failed`.
      assert.equal(job.status, wire === 'production' ? 'cancelled' : 'failed');
      assert.match(job.error ?? '', /cancel/i);
      const { id: done } = await a.submit({ prompt: 'REFUSE this' });
      await untilTerminal(a, done);
      const fin = await a.cancel(done).then(
        () => assert.fail('cancel of a finished job accepted'),
        (x: unknown) => x as ApiError,
      );
      assert.equal(fin.error, 'Agent already finished');
      assert.match(fin.message, /refresh/);
    });

    test('old-engine job: trace 400 relayed without success; the client says it has no trace', async () => {
      const r = await raw('GET', `/v2/agent/${LEGACY}/trace`);
      assert.equal(r.status, 400);
      assert.equal(r.json.success, undefined);
      assert.match(String(r.json.error), /^Trace is only available for .+ extracts$/);
      const e = await a.trace(LEGACY).then(
        () => assert.fail('trace of a legacy job'),
        (x: unknown) => x as ApiError,
      );
      assert.equal(agentErrorReason(e), 'no-trace');
      assert.match(e.message, /this job has no trace/);
      assert.equal((await a.status(LEGACY)).status, 'completed');
    });

    test('submit after an injected 504: no second POST, and the job may exist', async () => {
      await raw('POST', '/__sandbox/faults', {
        faults: [{ kind: 'status', status: 504, body: 'empty', path: '/v2/agent' }],
      });
      const e = await a.submit({ prompt: 'once only' }).then(
        () => assert.fail('submitted'),
        (x: unknown) => x,
      );
      assert.ok(e instanceof JobMayExistError);
      assert.equal((await requests()).filter((r) => r.method === 'POST' && r.path === '/v2/agent').length, 1);
    });

    test('submit after a dropped connection: no second POST', async () => {
      await raw('POST', '/__sandbox/faults', { faults: [{ kind: 'reset', path: '/v2/agent' }] });
      const e = await a.submit({ prompt: 'once only' }).then(
        () => assert.fail('submitted'),
        (x: unknown) => x,
      );
      assert.ok(e instanceof JobMayExistError);
      assert.equal((await requests()).filter((r) => r.method === 'POST').length, 1);
    });

    test('submit after a 500 passthrough is retried and creates exactly one job', async () => {
      const before = (await a.list()).agents.length;
      await raw('POST', '/__sandbox/faults', {
        faults: [{ kind: 'status', status: 500, error: 'Failed to passthrough agent request.', path: '/v2/agent' }],
      });
      await raw('DELETE', '/__sandbox/requests');
      const { id } = await a.submit({ prompt: 'retried safely' });
      assert.equal((await requests()).filter((r) => r.method === 'POST').length, 2);
      const jobs = (await a.list()).agents;
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
        assert.ok(p.agents.length <= 20);
        seen.push(...p.agents.map((j) => j.id));
        if (p.nextBefore === undefined) break;
        before = p.nextBefore;
      }
      assert.equal(new Set(seen).size, seen.length, 'no job twice');
      for (const id of mine) assert.ok(seen.includes(id));
      assert.equal(seen.at(-1), LEGACY);
    });

    test('status records: production sends no id and reports effort; the client reads both', async () => {
      const { id } = await a.submit({ prompt: 'fields', effort: 'low', model: 'spark-1-mini' });
      const r = await a.status(id);
      if (wire === 'production') {
        assert.equal(r.id, undefined);
        assert.equal(r.effort, 'low');
        assert.equal(r.model, 'spark-2', 'a retired name is reported as the model it runs on');
      } else assert.equal(r.id, id);
      assert.ok(r.expiresAt && Date.parse(r.expiresAt) > Date.now());
    });

    test('the client refuses an unknown model and a non-object schema before sending', async () => {
      await raw('DELETE', '/__sandbox/requests');
      for (const p of [
        { prompt: 'p', model: 'spark-9' },
        { prompt: 'p', schema: 5 as never },
      ]) {
        const e = await a.submit(p).then(
          () => assert.fail('sent'),
          (x: unknown) => x,
        );
        assert.equal(reasonOf(e), 'invalid-input');
      }
      assert.deepEqual(await requests(), []);
    });

    test("the submit body carries the client's origin", async () => {
      const c = new DevIndexClient({
        transport: new HttpTransport(),
        baseUrl: sb.url,
        apiKey: () => KEY_A,
        origin: 'devindex-cli@0.1.0',
      });
      clients.push(c);
      await raw('DELETE', '/__sandbox/requests');
      await new AgentClient(c).submit({ prompt: 'origin' });
      const post = (await raw('GET', '/__sandbox/requests')).json.requests as Array<{
        method: string;
        body: { origin?: string };
      }>;
      assert.equal(post.find((r) => r.method === 'POST')!.body.origin, 'devindex-cli@0.1.0');
    });

    if (wire === 'production') {
      test('production: an invalid JSON Schema is a 400 whose reason the client shows', async () => {
        const e = await a.submit({ prompt: 'p', schema: { type: 'object', vendorKeyword: true } }).then(
          () => assert.fail('accepted'),
          (x: unknown) => x as ApiError,
        );
        assert.equal(e.status, 400);
        assert.equal(reasonOf(e), 'invalid-schema');
        assert.match(
          e.message,
          /^Invalid JSON schema: .*\(HTTP 400\): the service refused the schema \(.*vendorKeyword.*\)/,
        );
        assert.equal((await a.submit({ prompt: 'p', schema: null })).id.length, 36, 'null is a valid schema');
      });

      test('production: listAll follows the absolute next on the same origin across every page', async () => {
        const c = agentFor(KEY_B);
        for (let i = 0; i < 21; i++) await c.submit({ prompt: `page ${i}` });
        const first = await c.list();
        assert.equal(first.nextPage.follow, true);
        assert.match(String(first.next), new RegExp(`^${sb.url.replace(/[.]/g, '\\.')}/v2/agent\\?before=\\d+$`));
        const all = await c.listAll();
        assert.equal(all.stopped, 'end');
        assert.ok(all.agents.length >= 22, `every job (and the fixture): ${all.agents.length}`);
      });

      test('production: after expiry every agent endpoint is a 404 the client calls not-found', async () => {
        const { id } = await a.submit({ prompt: 'expire me' });
        await untilTerminal(a, id);
        const ctl = await raw('POST', '/__sandbox/agent/expire', { jobId: id, inMs: 0 });
        assert.equal(ctl.status, 200);
        for (const call of [() => a.status(id), () => a.trace(id), () => a.cancel(id)]) {
          const e = await call().then(
            () => assert.fail('answered after expiry'),
            (x: unknown) => x as ApiError,
          );
          assert.equal(e.status, 404);
          assert.equal(reasonOf(e), 'not-found');
          assert.match(e.message, /has expired/);
        }
      });
    }
  });
}
