// The sandbox's agent service on the production wire (the default): the shapes the service sends
// today, as the addendum and the service's own API tests describe them. engine.test.ts covers the
// specification wire with the same engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAgentService } from '../../../sandbox/agent/service';
import { type AgentReply } from '../../../sandbox/agent/serviceTypes';

function setup(o: { speed?: number; testMode?: boolean; wire?: 'spec' | 'production' } = {}) {
  const clock = { t: 1_700_000_000_000 };
  const svc = createAgentService({
    speed: o.speed ?? 1,
    now: () => clock.t,
    testMode: o.testMode ?? false,
    ...(o.wire ? { wire: o.wire } : {}),
  });
  const call = (
    method: string,
    path: string,
    x: { body?: unknown; team?: string; query?: string } = {},
  ): AgentReply => {
    const r = svc.handle({
      method,
      path,
      query: new URLSearchParams(x.query ?? ''),
      body: x.body,
      team: x.team ?? 'team-a',
      origin: 'http://127.0.0.1:4000',
    });
    assert.ok(r, `${method} ${path} is an agent path`);
    return r;
  };
  const submit = (body: Record<string, unknown>): string => {
    const r = call('POST', '/v2/agent', { body });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return (r.body as { id: string }).id;
  };
  const status = (id: string) => call('GET', `/v2/agent/${id}`);
  return {
    svc,
    clock,
    call,
    submit,
    status,
    advance: (ms: number) => {
      clock.t += ms;
    },
  };
}

const b = (r: AgentReply) => r.body as Record<string, unknown>;

test('production is the default wire: status without id, with effort (when specified), model and expiresAt', () => {
  const s = setup();
  const id = s.submit({ prompt: 'p', effort: 'low' });
  const running = b(s.status(id));
  assert.equal('id' in running, false, 'no id in the status record');
  assert.equal(running.status, 'processing');
  assert.equal(running.effort, 'low');
  assert.equal(running.model, 'spark-2');
  assert.equal(running.expiresAt, new Date(s.clock.t + 24 * 3600_000).toISOString());
  assert.equal(
    'effort' in b(s.status(s.submit({ prompt: 'q' }))),
    false,
    'effort only when the run specified it (addendum, late November 2026)',
  );
});

test('retired model names run on spark-2 and report it; any other model is a 400', () => {
  const s = setup();
  for (const model of ['spark-1-pro', 'spark-1-mini'])
    assert.equal(b(s.status(s.submit({ prompt: 'p', model }))).model, 'spark-2');
  const bad = s.call('POST', '/v2/agent', { body: { prompt: 'p', model: 'spark-9' } });
  assert.equal(bad.status, 400);
  assert.deepEqual((b(bad).details as Array<{ path: string[] }>)[0]!.path, ['model']);
  assert.equal(s.call('POST', '/v2/agent', { body: { prompt: 'p', effort: 'max' } }).status, 400);
});

test('schema: null, true, false and {} accepted; invalid JSON Schemas answer "Invalid JSON schema: ..."', () => {
  const s = setup();
  for (const schema of [
    null,
    true,
    false,
    {},
    { type: 'object', properties: { items: { type: 'array' }, email: { type: 'string', format: 'email' } } },
  ]) {
    assert.equal(s.call('POST', '/v2/agent', { body: { prompt: 'p', schema } }).status, 200, JSON.stringify(schema));
  }
  for (const schema of [
    5,
    '',
    { type: 'OBJECT' },
    { name: 'x', schema: { type: 'object' } },
    { type: 'string', format: 'not-a-format' },
    { type: 'object', vendorKeyword: 1 },
    { $async: true, type: 'object' },
  ]) {
    const r = s.call('POST', '/v2/agent', { body: { prompt: 'p', schema } });
    assert.equal(r.status, 400, JSON.stringify(schema));
    assert.equal(b(r).code, 'BAD_REQUEST');
    assert.match(String(b(r).error), /^Invalid JSON schema: .+/, JSON.stringify(schema));
  }
});

test('integration: a named one or one starting with "_"; anything else is a 400', () => {
  const s = setup();
  assert.equal(s.call('POST', '/v2/agent', { body: { prompt: 'p', integration: 'zapier' } }).status, 200);
  assert.equal(s.call('POST', '/v2/agent', { body: { prompt: 'p', integration: '_devindex' } }).status, 200);
  assert.equal(s.call('POST', '/v2/agent', { body: { prompt: 'p', integration: 'devindex' } }).status, 400);
});

test('cancel: the run ends as cancelled with the credits it spent', () => {
  const s = setup();
  const id = s.submit({ prompt: 'SLOW task' });
  s.advance(60_000);
  assert.equal(s.call('DELETE', `/v2/agent/${id}`).status, 200);
  s.advance(5_000);
  const r = b(s.status(id));
  assert.equal(r.status, 'cancelled');
  assert.ok((r.creditsUsed as number) > 0, `a cancelled run reports what it spent: ${r.creditsUsed}`);
  assert.equal(s.call('DELETE', `/v2/agent/${id}`).status, 409);
});

test('a credit-limited run is failed with creditsUsed 0 and the partial result', () => {
  const s = setup();
  const id = s.submit({ prompt: 'p', maxCredits: 50 });
  s.advance(120_000);
  const r = b(s.status(id));
  assert.equal(r.status, 'failed');
  assert.equal(r.creditsUsed, 0);
  assert.match(String(r.error), /Credit limit reached/);
  assert.equal(r.stopReason, 'credit_limit_reached');
  assert.ok(Array.isArray((r.partial as { items: unknown[] }).items), JSON.stringify(r.partial));
  assert.ok((r.partial as { items: unknown[] }).items.length >= 1);
  assert.equal(r.data, undefined);
});

test('list: under `agents`, an absolute `next` on every full page, effort in the options', () => {
  const s = setup();
  for (let i = 0; i < 21; i++) s.submit({ prompt: `job ${i}`, effort: 'high' });
  const first = b(s.call('GET', '/v2/agent'));
  assert.equal('jobs' in first, false);
  const agents = first.agents as Array<{ id: string; options: { effort: string }; settings: Record<string, unknown> }>;
  assert.equal(agents.length, 20);
  assert.equal(agents[0]!.options.effort, 'high');
  assert.match(String(first.next), /^http:\/\/127\.0\.0\.1:4000\/v2\/agent\?before=\d+$/);
  const before = new URL(String(first.next)).searchParams.get('before')!;
  const second = b(s.call('GET', '/v2/agent', { query: `before=${before}` }));
  assert.equal((second.agents as unknown[]).length, 1);
  assert.equal(second.next, undefined, 'no next on a page that is not full');
});

test('expiry: after expiresAt every agent endpoint answers 404 and the list leaves the job out', () => {
  const s = setup({ testMode: true });
  const id = s.submit({ prompt: 'p' });
  s.advance(60_000);
  assert.equal(b(s.status(id)).status, 'completed');
  const ctl = s.svc.control('POST', '/__sandbox/agent/expire', { jobId: id, inMs: 1000 });
  assert.equal(ctl?.status, 200);
  assert.equal(
    b(s.status(id)).expiresAt,
    new Date(s.clock.t + 1000).toISOString(),
    'the record reports the new expiry',
  );
  s.advance(1000);
  for (const path of [`/v2/agent/${id}`, `/v2/agent/${id}/trace`]) {
    const r = s.call('GET', path);
    assert.equal(r.status, 404, path);
    assert.equal((r.body as { error: string }).error, 'Agent job not found');
  }
  assert.equal(s.call('DELETE', `/v2/agent/${id}`).status, 404);
  assert.equal(
    (b(s.call('GET', '/v2/agent')).agents as Array<{ id: string }>).some((a) => a.id === id),
    false,
  );
});

test('the first-generation fixture job and the control routes exist only in test mode', () => {
  const plain = setup();
  assert.equal((b(plain.call('GET', '/v2/agent')).agents as unknown[]).length, 0, 'a demo starts with an empty list');
  assert.equal(plain.call('GET', '/v2/agent/00000000-0000-4000-8000-000000000001').status, 404);
  assert.equal(plain.svc.control('POST', '/__sandbox/agent/expire', {})?.status, 404);
  const test = setup({ testMode: true });
  const listed = b(test.call('GET', '/v2/agent')).agents as Array<{ id: string }>;
  assert.deepEqual(
    listed.map((a) => a.id),
    ['00000000-0000-4000-8000-000000000001'],
  );
  const trace = test.call('GET', '/v2/agent/00000000-0000-4000-8000-000000000001/trace');
  assert.equal(trace.status, 400);
  assert.equal(
    (trace.body as { error: string }).error,
    'Trace is only available for Spark 2 extracts',
    'named as production names it',
  );
  const snap = test.call('GET', '/v2/agent/00000000-0000-4000-8000-000000000001/snapshots/abc');
  assert.equal((snap.body as { error: string }).error, 'Snapshots are only available for Spark 2 extracts');
  const spec = setup({ testMode: true, wire: 'spec' });
  assert.equal(
    (spec.call('GET', '/v2/agent/00000000-0000-4000-8000-000000000001/trace').body as { error: string }).error,
    'Trace is only available for FORGE-2 extracts',
  );
});

test("unknown agent routes answer production's JSON 404", () => {
  const s = setup();
  const r = s.call('PUT', '/v2/agent/123e4567-e89b-42d3-a456-426614174000');
  assert.equal(r.status, 404);
  assert.deepEqual(r.body, {
    success: false,
    code: 'NOT_FOUND',
    error: 'PUT /v2/agent/123e4567-e89b-42d3-a456-426614174000 is not a Firecrawl API endpoint.',
    documentation_url: 'https://docs.firecrawl.dev',
  });
});
