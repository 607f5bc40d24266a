import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAgentService } from '../../../sandbox/agent/service';
import { type AgentReply } from '../../../sandbox/agent/serviceTypes';

const JOB_ID_ERROR = 'Invalid job ID format. Job ID must be a valid UUID.';
const LEGACY = '00000000-0000-4000-8000-000000000001';

interface Ev {
  schemaVersion: number;
  eventId: string;
  runId: string;
  occurredAt: string;
  producerSequence: number;
  agent: { id: string; role: string; name: string; parentId?: string };
  type: string;
  outcome?: string;
  error?: { code: string; source: string; retryable: boolean; message: string } | null;
  artifact?: { kind: string; artifactId: string; snapshotId: string; change: string; itemCount?: number };
  [k: string]: unknown;
}

function setup(speed = 1, wire: 'spec' | 'production' = 'spec') {
  const clock = { t: 1_700_000_000_000 };
  const svc = createAgentService({ speed, now: () => clock.t, wire, testMode: true });
  const call = (
    method: string,
    path: string,
    o: { body?: unknown; team?: string; query?: string } = {},
  ): AgentReply => {
    const r = svc.handle({
      method,
      path,
      query: new URLSearchParams(o.query ?? ''),
      body: o.body,
      team: o.team ?? 'team-a',
    });
    assert.ok(r, `${method} ${path} is an agent path`);
    return r;
  };
  const submit = (body: Record<string, unknown>, team = 'team-a'): string => {
    const r = call('POST', '/v2/agent', { body, team });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const id = (r.body as { id: string }).id;
    assert.match(id, /^[0-9a-f-]{36}$/);
    return id;
  };
  const status = (id: string) => call('GET', `/v2/agent/${id}`).body as Record<string, unknown>;
  const trace = (id: string, query?: string) =>
    call('GET', `/v2/agent/${id}/trace`, { query }).body as {
      events: Ev[];
      creditsUsed: number;
      activeBrowserSessions?: unknown[];
    };
  const advance = (ms: number) => {
    clock.t += ms;
  };
  return { svc, clock, call, submit, status, trace, advance };
}

const body = (r: AgentReply) => r.body as Record<string, unknown>;

test('a standard run: lifecycle, per-agent sequences, nesting, growing result, late events, duplicate delivery', () => {
  const s = setup(1);
  const id = s.submit({
    prompt: 'Collect HTTP client libraries',
    urls: ['https://a.example/x', 'https://b.example/y'],
  });
  assert.equal(s.status(id).status, 'processing');
  assert.equal(s.status(id).creditsUsed, undefined, 'creditsUsed is missing while processing');
  s.advance(10_000);
  assert.equal(s.status(id).status, 'processing', 'at speed 1 a run lasts more than 10 s');
  s.advance(50_000);
  const st = s.status(id);
  assert.equal(st.status, 'completed');
  assert.equal(st.model, 'spark-2');
  const items = (st.data as { items: Array<{ url: string }> }).items;
  assert.equal(items.length, 5);
  assert.ok(items.every((i) => i.url === 'https://a.example/x' || i.url === 'https://b.example/y'));

  const tr = s.trace(id);
  assert.equal(tr.creditsUsed, st.creditsUsed);
  assert.ok((st.creditsUsed as number) > 0);
  const ev = tr.events;
  for (const e of ev) {
    assert.equal(e.schemaVersion, 1);
    assert.equal(e.runId, id);
    assert.ok(!Number.isNaN(Date.parse(e.occurredAt)));
    assert.ok(['orchestrator', 'subagent', 'system'].includes(e.agent.role));
    assert.equal(typeof e.eventId, 'string');
  }
  const unique = new Map(ev.map((e) => [e.eventId, e]));
  assert.ok(unique.size < ev.length, 'one event is delivered twice');
  const perAgent = new Map<string, number[]>();
  for (const e of unique.values()) perAgent.set(e.agent.id, [...(perAgent.get(e.agent.id) ?? []), e.producerSequence]);
  for (const [agent, seqs] of perAgent)
    assert.deepEqual(
      [...seqs].sort((a, b) => a - b),
      seqs.map((_, i) => i + 1),
      `contiguous sequence for ${agent}`,
    );

  const names = new Map([...unique.values()].map((e) => [e.agent.name, e.agent]));
  const orch = names.get('orchestrator')!;
  assert.equal(orch.role, 'orchestrator');
  assert.equal(names.get('researcher-1')!.parentId, orch.id);
  assert.equal(names.get('reader-1')!.parentId, names.get('researcher-1')!.id, 'a subagent of a subagent');
  const types = new Set(ev.map((e) => e.type));
  for (const t of [
    'run.started',
    'agent.started',
    'agent.finished',
    'progress.reported',
    'reasoning.summary',
    'tool_call.started',
    'tool_call.finished',
    'browser.session.started',
    'browser.session.finished',
    'artifact.updated',
    'run.finished',
  ]) {
    assert.ok(types.has(t), `has ${t}`);
  }
  assert.equal(ev[0]!.type, 'run.started');

  const finished = ev.find((e) => e.type === 'run.finished')!;
  assert.equal(finished.outcome, 'succeeded');
  assert.equal(finished.error, null);
  const late = [...unique.values()].filter((e) => Date.parse(e.occurredAt) > Date.parse(finished.occurredAt));
  assert.ok(late.length >= 1, 'events after run.finished');
  const pf = late.find((e) => e.type === 'agent.finished');
  assert.equal(pf?.error?.code, 'parent_finished');
  assert.equal(pf?.error?.retryable, false);
  assert.equal(pf?.agent.role, 'subagent');

  const result = [...unique.values()].filter(
    (e) => e.type === 'artifact.updated' && e.artifact?.artifactId === 'result',
  );
  assert.deepEqual(
    result.map((e) => e.artifact!.itemCount),
    [0, 1, 2, 3, 4, 5, 5],
  );
  assert.equal(result[0]!.artifact!.change, 'init');
  const sizes = result.map((e) => {
    const r = s.call('GET', `/v2/agent/${id}/snapshots/${e.artifact!.snapshotId}`);
    assert.equal(r.status, 200);
    assert.equal(body(r).snapshotId, e.artifact!.snapshotId);
    return (JSON.parse(body(r).snapshot as string) as { items: unknown[] }).items.length;
  });
  assert.deepEqual(sizes, [0, 1, 2, 3, 4, 5, 5]);
});

test('speed 50 finishes a run in well under two seconds; the first events are visible at once', () => {
  const s = setup(50);
  const id = s.submit({ prompt: 'fast' });
  assert.equal(s.trace(id).events[0]!.type, 'run.started');
  s.advance(1000);
  assert.equal(s.status(id).status, 'completed');
});

test('a SLOW prompt stretches the run twentyfold', () => {
  const s = setup(50);
  const slow = s.submit({ prompt: 'take it SLOW' });
  s.advance(5000);
  assert.equal(s.status(slow).status, 'processing', 'a normal run is done after 1 s at speed 50');
  s.advance(10_000);
  assert.equal(s.status(slow).status, 'completed');
});

test('the schema names the result list', () => {
  const s = setup(50);
  const id = s.submit({ prompt: 'libs', schema: { type: 'object', properties: { libraries: { type: 'array' } } } });
  s.advance(2000);
  const data = s.status(id).data as Record<string, unknown[]>;
  assert.equal(data.libraries?.length, 5);
});

test('effort changes how much the agent collects', () => {
  const s = setup(50);
  const low = s.submit({ prompt: 'x', effort: 'low' });
  const high = s.submit({ prompt: 'x', effort: 'high' });
  s.advance(5000);
  assert.equal((s.status(low).data as { items: unknown[] }).items.length, 3);
  assert.equal((s.status(high).data as { items: unknown[] }).items.length, 8);
});

test('maxCredits reached: failed, unbilled, credit-limit message, trace outcome credit_limit_reached', () => {
  const s = setup(1);
  const id = s.submit({ prompt: 'expensive', maxCredits: 50 });
  s.advance(120_000);
  const st = s.status(id);
  assert.equal(st.status, 'failed');
  assert.equal(st.creditsUsed, 0);
  assert.equal(st.data, undefined);
  assert.match(String(st.error), /credit limit/i);
  assert.match(String(st.error), /50/);
  const tr = s.trace(id);
  assert.equal(tr.creditsUsed, 0);
  const fin = tr.events.filter((e) => e.type === 'run.finished');
  assert.equal(fin.length, 1);
  assert.equal(fin[0]!.outcome, 'credit_limit_reached');
  assert.equal(fin[0]!.error?.code, 'credit_limit_reached');
  assert.equal(fin[0]!.error?.retryable, false);
  assert.ok(tr.events.some((e) => e.type === 'error.occurred' && e.error?.code === 'credit_limit_reached'));
  const started = new Set(tr.events.filter((e) => e.type === 'agent.started').map((e) => e.agent.id));
  const ended = new Set(tr.events.filter((e) => e.type === 'agent.finished').map((e) => e.agent.id));
  assert.deepEqual([...started].sort(), [...ended].sort(), 'every agent that started has finished');
  assert.equal(s.call('DELETE', `/v2/agent/${id}`).status, 409);
});

test('a ceiling above the cost of the run lets it complete', () => {
  const s = setup(50);
  const id = s.submit({ prompt: 'cheap enough', maxCredits: 1000 });
  s.advance(5000);
  assert.equal(s.status(id).status, 'completed');
});

test('cancel: cancelling, then failed with a cancellation message; both 409s', () => {
  const s = setup(1);
  const id = s.submit({ prompt: 'long task' });
  s.advance(8000);
  const r = s.call('DELETE', `/v2/agent/${id}`);
  assert.equal(r.status, 200);
  assert.equal(body(r).success, true);
  assert.equal(s.status(id).status, 'cancelling');
  const again = s.call('DELETE', `/v2/agent/${id}`);
  assert.equal(again.status, 409);
  assert.equal(body(again).error, 'Agent is already cancelled');
  s.advance(5000);
  const st = s.status(id);
  assert.equal(st.status, 'failed');
  assert.equal(st.creditsUsed, 0);
  assert.match(String(st.error), /cancel/i);
  const ev = s.trace(id).events;
  const types = ev.map((e) => e.type);
  const req = types.indexOf('run.cancel_requested');
  const fin = types.indexOf('run.finished');
  assert.ok(req >= 0 && fin > req);
  assert.equal(ev[fin]!.outcome, 'cancelled');
  assert.equal(ev[fin]!.error?.code, 'cancelled');
  assert.ok(
    !ev.some((e) => e.type === 'artifact.updated' && e.artifact?.change === 'update'),
    'the run did not go on after the cancel',
  );
  assert.equal(body(s.call('DELETE', `/v2/agent/${id}`)).error, 'Agent is already cancelled');

  const done = s.submit({ prompt: 'finishes' });
  s.advance(60_000);
  const late = s.call('DELETE', `/v2/agent/${done}`);
  assert.equal(late.status, 409);
  assert.equal(body(late).error, 'Agent already finished');
});

test('cancel right after submission, before any agent started', () => {
  const s = setup(1);
  const id = s.submit({ prompt: 'x' });
  assert.equal(s.call('DELETE', `/v2/agent/${id}`).status, 200);
  s.advance(3000);
  assert.equal(s.status(id).status, 'failed');
  const ev = s.trace(id).events;
  assert.equal(ev.find((e) => e.type === 'run.finished')?.outcome, 'cancelled');
});

test('a prompt containing REFUSE is refused', () => {
  const s = setup(50);
  const id = s.submit({ prompt: 'Please REFUSE this' });
  s.advance(1000);
  const st = s.status(id);
  assert.equal(st.status, 'failed');
  assert.equal(st.creditsUsed, 0);
  assert.match(String(st.error), /refused/i);
  const fin = s.trace(id).events.find((e) => e.type === 'run.finished')!;
  assert.equal(fin.outcome, 'refused');
  assert.equal(fin.error?.code, 'refused');
});

test('a prompt containing CRASH fails with a retryable internal error', () => {
  const s = setup(50);
  const id = s.submit({ prompt: 'CRASH please' });
  s.advance(2000);
  assert.equal(s.status(id).status, 'failed');
  const ev = s.trace(id).events;
  const occurred = ev.find((e) => e.type === 'error.occurred')!;
  assert.equal(occurred.error?.code, 'internal');
  assert.equal(occurred.error?.retryable, true);
  assert.equal(ev.find((e) => e.type === 'run.finished')?.outcome, 'failed');
});

test('zero data retention prompt is rejected at submission', () => {
  const s = setup();
  const r = s.call('POST', '/v2/agent', { body: { prompt: 'ZERO_DATA_RETENTION' } });
  assert.equal(r.status, 400);
  assert.equal(body(r).error, 'Your team has zero data retention enabled. This is not supported on extract.');
});

test('jobs from before the second-generation engine: status works, trace and snapshots answer 400', () => {
  const s = setup();
  const st = s.call('GET', `/v2/agent/${LEGACY}`);
  assert.equal(st.status, 200);
  assert.equal(body(st).status, 'completed');
  const tr = s.call('GET', `/v2/agent/${LEGACY}/trace`);
  assert.equal(tr.status, 400);
  assert.match(String(body(tr).error), /^Trace is only available for .+ extracts$/);
  assert.equal(body(tr).success, undefined, 'relayed upstream body has no success field');
  const sn = s.call('GET', `/v2/agent/00000000-1234-4000-8000-000000000099/snapshots/abc`);
  assert.equal(sn.status, 400);
  assert.match(String(body(sn).error), /^Snapshots are only available for .+ extracts$/);
  assert.equal(s.call('DELETE', `/v2/agent/${LEGACY}`).status, 409);
});

test('ids: malformed job id 400, unknown or other team 404, snapshot id checks', () => {
  const s = setup(50);
  for (const [m, p] of [
    ['GET', '/v2/agent/not-a-uuid'],
    ['DELETE', '/v2/agent/123'],
    ['GET', '/v2/agent/xyz/trace'],
    ['GET', '/v2/agent/xyz/snapshots/a'],
  ] as const) {
    const r = s.call(m, p);
    assert.equal(r.status, 400, p);
    assert.equal(body(r).error, JOB_ID_ERROR);
  }
  const id = s.submit({ prompt: 'mine' });
  const other = s.call('GET', `/v2/agent/${id}`, { team: 'team-b' });
  assert.equal(other.status, 404);
  assert.equal(body(other).error, 'Agent job not found');
  assert.equal(s.call('DELETE', `/v2/agent/${id}`, { team: 'team-b' }).status, 404);
  assert.equal(s.call('GET', `/v2/agent/${id}/trace`, { team: 'team-b' }).status, 404);
  assert.equal(s.call('GET', '/v2/agent/123e4567-e89b-42d3-a456-426614174000').status, 404);
  const badSnap = s.call('GET', `/v2/agent/${id}/snapshots/${encodeURIComponent('a b')}`);
  assert.equal(badSnap.status, 400);
  assert.equal(body(badSnap).error, 'Invalid snapshot ID');
  const noSnap = s.call('GET', `/v2/agent/${id}/snapshots/123e4567-e89b-42d3-a456-426614174000`);
  assert.equal(noSnap.status, 404);
  assert.equal(body(noSnap).error, 'Snapshot not found');
});

test('a snapshot belongs to its job; a fresh run has no artifact yet', () => {
  const s = setup(1);
  const a = s.submit({ prompt: 'x' });
  const b = s.submit({ prompt: 'y' });
  assert.equal(s.trace(b).events.filter((e) => e.type === 'artifact.updated').length, 0);
  s.advance(60_000);
  const snap = s.trace(a).events.find((e) => e.artifact)!.artifact!.snapshotId;
  assert.equal(s.call('GET', `/v2/agent/${a}/snapshots/${snap}`).status, 200);
  const wrong = s.call('GET', `/v2/agent/${b}/snapshots/${snap}`);
  assert.equal(wrong.status, 404);
  assert.equal(body(wrong).error, 'Snapshot not found');
});

test('liveView=true lists the open browser sessions', () => {
  const s = setup(1);
  const id = s.submit({ prompt: 'x' });
  s.advance(5000);
  const live = s.trace(id, 'liveView=true');
  assert.ok(Array.isArray(live.activeBrowserSessions) && live.activeBrowserSessions.length === 2);
  assert.equal(s.trace(id).activeBrowserSessions, undefined);
  assert.equal(s.call('GET', `/v2/agent/${id}/trace`, { query: 'liveView=maybe' }).status, 400);
  s.advance(60_000);
  assert.deepEqual(s.trace(id, 'liveView=true').activeBrowserSessions, []);
});

test('list: newest first, 20 a page, next cursor, per team, legacy job last', () => {
  const s = setup(50);
  const mine: string[] = [];
  for (let i = 0; i < 45; i++) mine.push(s.submit({ prompt: `job ${i}` }));
  s.submit({ prompt: 'other team' }, 'team-b');
  const seen: string[] = [];
  let query = '';
  for (let page = 0; page < 5; page++) {
    const r = s.call('GET', '/v2/agent', { query });
    assert.equal(r.status, 200);
    const b = body(r) as { jobs: Array<{ id: string; status: string; options: { prompt: string } }>; next?: string };
    assert.ok(b.jobs.length <= 20);
    seen.push(...b.jobs.map((j) => j.id));
    if (!b.next) break;
    assert.equal(b.jobs.length, 20);
    query = new URL(b.next, 'http://x').search;
  }
  assert.deepEqual(seen, [...[...mine].reverse(), LEGACY]);
  const bad = s.call('GET', '/v2/agent', { query: 'before=yesterday' });
  assert.equal(bad.status, 400);
});

test('submit validation names the field', () => {
  const s = setup();
  const cases: Array<[unknown, string]> = [
    [{}, 'prompt'],
    [{ prompt: '' }, 'prompt'],
    [{ prompt: 'x'.repeat(10_001) }, 'prompt'],
    [{ prompt: 'x', urls: ['ftp://a.example/'] }, 'urls'],
    [{ prompt: 'x', urls: ['/relative'] }, 'urls'],
    [{ prompt: 'x', urls: 'https://a.example/' }, 'urls'],
    [{ prompt: 'x', schema: [] }, 'schema'],
    [{ prompt: 'x', maxCredits: 0 }, 'maxCredits'],
    [{ prompt: 'x', maxCredits: '10' }, 'maxCredits'],
    [{ prompt: 'x', effort: 'extreme' }, 'effort'],
    [{ prompt: 'x', strictConstrainToURLs: 'yes' }, 'strictConstrainToURLs'],
    [{ prompt: 'x', model: 3 }, 'model'],
    [{ prompt: 'x', surprise: 1 }, ''],
  ];
  for (const [b, field] of cases) {
    const r = s.call('POST', '/v2/agent', { body: b });
    assert.equal(r.status, 400, JSON.stringify(b).slice(0, 80));
    const details = body(r).details as Array<{ path: unknown[]; message: string }>;
    assert.ok(
      details.some((d) => String(d.path[0] ?? '') === field),
      `${field}: ${JSON.stringify(details)}`,
    );
  }
  assert.equal(
    s.call('POST', '/v2/agent', {
      body: {
        prompt: 'x'.repeat(10_000),
        origin: 'js-sdk@1.0.0',
        integration: 'vscode',
        strictConstrainToURLs: true,
        urls: ['http://a.example/'],
        effort: 'low',
        model: 'spark-2',
        maxCredits: 0.5,
      },
    }).status,
    200,
  );
});

test('non-agent paths are not handled; unknown agent sub-paths are 404', () => {
  const s = setup();
  assert.equal(
    s.svc.handle({ method: 'GET', path: '/v2/agents', query: new URLSearchParams(), body: undefined, team: 't' }),
    undefined,
  );
  assert.equal(
    s.svc.handle({
      method: 'GET',
      path: '/v2/search/developer',
      query: new URLSearchParams(),
      body: undefined,
      team: 't',
    }),
    undefined,
  );
  assert.equal(s.call('PUT', '/v2/agent').status, 404);
  assert.equal(s.call('GET', '/v2/agent/123e4567-e89b-42d3-a456-426614174000/other').status, 404);
});

test('close() forgets every job', () => {
  const s = setup();
  const id = s.submit({ prompt: 'x' });
  s.svc.close();
  assert.equal(s.call('GET', `/v2/agent/${id}`).status, 404);
});
