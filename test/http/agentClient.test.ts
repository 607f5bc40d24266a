// AgentClient against a scripted HTTP server on 127.0.0.1: validation before sending, submission
// retry safety (never a second POST once the job may exist), and the 7.2 messages.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentClient } from '../../src/api/agent/agentClient';
import { JobMayExistError, agentErrorReason } from '../../src/api/agent/agentFailure';
import { ApiError } from '../../src/api/errors';
import { DevIndexClient } from '../../src/api/client';
import { HttpTransport } from '../../src/api/http';

type Step = { status: number; body?: unknown } | 'reset' | 'hang';
interface Seen {
  method: string;
  url: string;
  body: string;
  auth?: string;
}

const JOB = '123e4567-e89b-42d3-a456-426614174000';
const KEY = 'fc-test-key-agent-0001';
let server: Server;
let base: string;
let script: Step[] = [];
let seen: Seen[] = [];
let agent: AgentClient;
let client: DevIndexClient;

before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body, auth: req.headers.authorization });
      const step = script.shift() ?? { status: 500, body: { success: false, error: 'script exhausted' } };
      if (step === 'reset') {
        req.socket.destroy();
        return;
      }
      if (step === 'hang') return;
      res.writeHead(step.status, { 'content-type': 'application/json' });
      res.end(step.body === undefined ? '' : JSON.stringify(step.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The timeout per attempt is what the "a timeout" case waits out; it must be long enough that, on a loaded machine,
  // no other answer of the local server takes longer (300 ms did not: a 500 came after it under a load average of 12).
  client = new DevIndexClient({
    transport: new HttpTransport(),
    baseUrl: base,
    apiKey: () => KEY,
    timeoutMs: 1500,
    random: () => 0,
    clock: { now: () => Date.now(), sleep: async () => {} },
  });
  agent = new AgentClient(client);
});

after(async () => {
  await client.close();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

beforeEach(() => {
  script = [];
  seen = [];
});

async function rejects(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ApiError, `an ApiError, got ${String(e)}`);
    assert.ok(!e.message.includes(KEY), 'the key is never in a message');
    return e;
  }
  assert.fail('expected a rejection');
}

const posts = () => seen.filter((s) => s.method === 'POST').length;

test('invalid submissions are refused before anything is sent, naming field and bound', async () => {
  const cases: Array<[Parameters<AgentClient['submit']>[0], RegExp]> = [
    [{ prompt: 'x'.repeat(10_001) }, /prompt is 10001 characters; the maximum is 10,000/],
    [{ prompt: '   ' }, /prompt must not be empty/],
    [
      { prompt: 'ok', urls: ['ftp://files.example/a'] },
      /urls\[0\] "ftp:\/\/files\.example\/a" is not an absolute http\(s\) URL/,
    ],
    [{ prompt: 'ok', urls: ['https://a.example/', 'example.com/page'] }, /urls\[1\]/],
    [
      { prompt: 'ok', schema: [] as unknown as Record<string, unknown> },
      /schema must be a JSON Schema \(a JSON object such as \{"type":"object"\}\), true, false or null; got an array/,
    ],
    [{ prompt: 'ok', maxCredits: 0 }, /maxCredits must be a number greater than 0; got 0/],
    [{ prompt: 'ok', maxCredits: Number.NaN }, /maxCredits/],
    [{ prompt: 'ok', effort: 'max' as 'high' }, /effort must be one of low, medium, high; got "max"/],
  ];
  for (const [params, re] of cases) {
    const e = await rejects(agent.submit(params));
    assert.equal(e.kind, 'validation');
    assert.match(e.message, re);
    assert.equal(e.attempts, 0);
  }
  assert.equal(seen.length, 0);
});

test("job and snapshot ids are checked before sending, with the specification's messages", async () => {
  for (const p of [agent.status('nope'), agent.cancel('123'), agent.trace('../etc'), agent.snapshot('x', 'y')]) {
    const e = await rejects(p);
    assert.equal(e.kind, 'validation');
    assert.match(e.message, /Invalid job ID format\. Job ID must be a valid UUID\./);
    assert.equal(agentErrorReason(e), 'invalid-job-id');
  }
  const e = await rejects(agent.snapshot(JOB, '../../v2/other'));
  assert.match(e.message, /Invalid snapshot ID/);
  assert.equal(agentErrorReason(e), 'invalid-snapshot-id');
  assert.equal(seen.length, 0);
});

for (const [name, step] of [
  ['504', { status: 504 }],
  ['502 with a body', { status: 502, body: { success: false, error: 'Bad Gateway' } }],
  ['an unhandled 500', { status: 500, body: { success: false, error: 'Internal Server Error' } }],
  ['a dropped connection', 'reset'],
  ['a timeout', 'hang'],
  ['an unreadable success', { status: 200, body: { success: true } }],
] as Array<[string, Step]>) {
  test(`submit after ${name}: one POST only, and an error that says the job may exist`, async () => {
    script = [step, { status: 200, body: { success: true, id: JOB } }];
    const e = await rejects(agent.submit({ prompt: 'find things' }));
    assert.ok(e instanceof JobMayExistError);
    assert.equal(agentErrorReason(e), 'job-may-exist');
    assert.match(e.message, /may have been created/);
    assert.match(e.message, /job list/);
    assert.equal(posts(), 1);
  });
}

for (const [name, first] of [
  ['429', { status: 429, body: { success: false, error: 'Rate limit exceeded' } }],
  ['503', { status: 503, body: { success: false, error: 'Service Unavailable' } }],
  ['500 passthrough', { status: 500, body: { success: false, error: 'Failed to passthrough agent request.' } }],
] as Array<[string, Step]>) {
  test(`submit after ${name} is retried, because no job can exist`, async () => {
    script = [first, { status: 200, body: { success: true, id: JOB } }];
    const r = await agent.submit({
      prompt: 'find things',
      urls: ['https://a.example/'],
      maxCredits: 100,
      effort: 'low',
    });
    assert.equal(r.id, JOB);
    assert.equal(posts(), 2);
    assert.deepEqual(JSON.parse(seen[1]!.body), {
      prompt: 'find things',
      urls: ['https://a.example/'],
      maxCredits: 100,
      effort: 'low',
    });
    assert.equal(seen[1]!.url, '/v2/agent');
    assert.equal(seen[1]!.auth, `Bearer ${KEY}`);
  });
}

test('submit: passthrough failures until the attempts run out say no job was created', async () => {
  script = Array.from({ length: 5 }, () => ({
    status: 500,
    body: { success: false, error: 'Failed to passthrough agent request.' },
  }));
  const e = await rejects(agent.submit({ prompt: 'x' }));
  assert.ok(!(e instanceof JobMayExistError));
  assert.match(
    e.message,
    /^Failed to passthrough agent request\. \(HTTP 500\): .*no job was created \(tried 5 times\)/,
  );
  assert.equal(posts(), 5);
});

test('reads follow 7.4: a status poll is retried after a 502 and a dropped connection', async () => {
  script = [{ status: 502 }, 'reset', { status: 200, body: { success: true, id: JOB, status: 'processing' } }];
  const r = await agent.status(JOB);
  assert.equal(r.status, 'processing');
  assert.equal(seen.length, 3);
  assert.ok(seen.every((s) => s.method === 'GET' && s.url === `/v2/agent/${JOB}`));
});

const rows: Array<[string, () => Promise<unknown>, Step, RegExp, string]> = [
  [
    'cancel of a finished job',
    () => agent.cancel(JOB),
    { status: 409, body: { success: false, error: 'Agent already finished' } },
    /^Agent already finished \(HTTP 409\): .*refresh its status/,
    'already-finished',
  ],
  [
    'cancel of a cancelling job',
    () => agent.cancel(JOB),
    { status: 409, body: { success: false, error: 'Agent is already cancelled' } },
    /^Agent is already cancelled \(HTTP 409\): .*keep polling/,
    'already-cancelled',
  ],
  [
    'trace of an old job',
    () => agent.trace(JOB),
    { status: 400, body: { error: 'Trace is only available for FORGE-2 extracts' } },
    /\(HTTP 400\): this job has no trace: it ran on an engine older than FORGE-2/,
    'no-trace',
  ],
  [
    'snapshot of an old job',
    () => agent.snapshot(JOB, 'abc'),
    { status: 400, body: { error: 'Snapshots are only available for X-9 extracts' } },
    /this job has no snapshots/,
    'no-snapshots',
  ],
  [
    'zero data retention',
    () => agent.submit({ prompt: 'x' }),
    {
      status: 400,
      body: { success: false, error: 'Your team has zero data retention enabled. This is not supported on extract.' },
    },
    /zero data retention forced on; ask the team's administrator/,
    'zero-data-retention',
  ],
  [
    'unknown job',
    () => agent.status(JOB),
    { status: 404, body: { success: false, error: 'Agent job not found' } },
    /^Agent job not found \(HTTP 404\): .*another team/,
    'not-found',
  ],
  [
    'unknown snapshot',
    () => agent.snapshot(JOB, 'abc'),
    { status: 404, body: { error: 'Snapshot not found' } },
    /has no snapshot abc/,
    'snapshot-not-found',
  ],
  [
    'service-side job id check',
    () => agent.status(JOB),
    { status: 400, body: { success: false, error: 'Invalid job ID format. Job ID must be a valid UUID.' } },
    /copy it from the job list/,
    'invalid-job-id',
  ],
];
for (const [name, call, step, re, reason] of rows) {
  test(`7.2: ${name}`, async () => {
    script = [step];
    const e = await rejects(call());
    assert.match(e.message, re);
    assert.equal(agentErrorReason(e), reason);
    assert.equal(seen.length, 1, 'not retried');
  });
}

test('cancel whose answer was lost: the retry\'s "already cancelled" means it worked', async () => {
  script = ['reset', { status: 409, body: { success: false, error: 'Agent is already cancelled' } }];
  assert.deepEqual(await agent.cancel(JOB), { success: true });
  assert.equal(seen.filter((s) => s.method === 'DELETE').length, 2);
});

test('trace sends liveView; list sends before, reads `agents`, and follows a next only on its own origin', async () => {
  script = [
    { status: 200, body: { success: true, id: JOB, events: [{ eventId: 'e', type: 'run.started' }], creditsUsed: 0 } },
    {
      status: 200,
      body: {
        success: true,
        agents: [{ id: JOB, status: 'completed' }],
        next: 'https://api.example/v2/agent?before=1700000000000',
      },
    },
    {
      status: 200,
      body: {
        success: true,
        agents: [{ id: JOB, status: 'cancelled' }],
        next: `${base}/v2/agent?before=1700000000000`,
      },
    },
  ];
  const t = await agent.trace(JOB, { liveView: true });
  assert.equal(t.events[0]!.type, 'run.started');
  assert.equal(seen[0]!.url, `/v2/agent/${JOB}/trace?liveView=true`);
  const l = await agent.list({ before: 1700000000123 });
  assert.equal(seen[1]!.url, '/v2/agent?before=1700000000123');
  assert.equal(l.nextBefore, undefined, 'a next on another origin is not followed');
  assert.deepEqual(l.nextPage, { follow: false, reason: 'other-origin', origin: 'https://api.example' });
  assert.equal(l.agents[0]!.id, JOB);
  const own = await agent.list();
  assert.equal(own.nextBefore, 1700000000000, 'a next on the configured origin is');
  assert.equal(own.agents[0]!.status, 'cancelled');
  const e = await rejects(agent.list({ before: -1 }));
  assert.equal(e.kind, 'validation');
  assert.equal(seen.length, 3);
});

test('listAll sends the key only to the configured origin: a next elsewhere ends the list', async () => {
  script = [
    {
      status: 200,
      body: { success: true, agents: [{ id: JOB, status: 'processing' }], next: `${base}/v2/agent?before=5` },
    },
    {
      status: 200,
      body: {
        success: true,
        jobs: [{ id: '223e4567-e89b-42d3-a456-426614174000', status: 'completed' }],
        next: 'http://127.0.0.2:9/v2/agent?before=1',
      },
    },
  ];
  const all = await agent.listAll();
  assert.equal(all.stopped, 'other-origin');
  assert.equal(all.agents.length, 2);
  assert.equal(seen.length, 2);
  assert.deepEqual(
    seen.map((x) => x.url),
    ['/v2/agent', '/v2/agent?before=5'],
  );
  assert.ok(seen.every((x) => x.auth === `Bearer ${KEY}`));
});
