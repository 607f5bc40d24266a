// AgentClient without a network: the checks before sending, the `next` rule of the job list, and the
// one reason stamped on every error (each row of spec 7.2, and the failures around it).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AgentClient } from '../../../src/api/agent/agentClient';
import { reasonOf, type AgentErrorReason } from '../../../src/api/agent/agentReasons';
import { validateAgentSubmit } from '../../../src/api/agent/submitSchema';
import { nextPage } from '../../../src/api/agent/listPages';
import { AgentError, JobMayExistError } from '../../../src/api/agent/agentFailure';
import { ApiError } from '../../../src/api/errors';
import { fakeClient } from '../../support/fakeClient';

const JOB = '123e4567-e89b-42d3-a456-426614174000';

const http = (status: number, error: string, extra: Partial<ConstructorParameters<typeof ApiError>[0]> = {}) =>
  new ApiError({ kind: 'http', status, error, message: `${error} (HTTP ${status})`, attempts: 1, ...extra });

describe('submission checks', () => {
  it('offers the known models and refuses others unless a setting allows them', () => {
    for (const model of ['spark-2', 'spark-1-pro', 'spark-1-mini'])
      assert.equal(validateAgentSubmit({ prompt: 'p', model }).ok, true, model);
    const bad = validateAgentSubmit({ prompt: 'p', model: 'spark-9' });
    assert.equal(bad.ok, false);
    assert.match(
      !bad.ok ? bad.issues[0]!.message : '',
      /model "spark-9" is not one the service accepts \(spark-2, spark-1-pro, spark-1-mini\).*devIndex\.agent\.extraModels/,
    );
    assert.equal(validateAgentSubmit({ prompt: 'p', model: 'spark-9' }, { extraModels: ['spark-9'] }).ok, true);
  });

  it('accepts a schema that is an object, true, false or null, and refuses anything else before sending', () => {
    for (const schema of [{ type: 'object' }, {}, true, false, null]) {
      assert.equal(validateAgentSubmit({ prompt: 'p', schema: schema as never }).ok, true, JSON.stringify(schema));
    }
    for (const schema of [5, '', 'object', [1]]) {
      const r = validateAgentSubmit({ prompt: 'p', schema: schema as never });
      assert.equal(r.ok, false, JSON.stringify(schema));
      assert.equal(!r.ok && r.issues[0]!.field, 'schema');
    }
  });

  it('never sends an integration the service would refuse', () => {
    assert.equal(validateAgentSubmit({ prompt: 'p', integration: 'zapier' }).ok, true);
    assert.equal(validateAgentSubmit({ prompt: 'p', integration: '_devindex' }).ok, true);
    const r = validateAgentSubmit({ prompt: 'p', integration: 'devindex' });
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.issues[0]!.message : '', /integration "devindex" is not one of the service's integrations/);
  });

  it("puts the client's origin into the submit body, and sends nothing when a check fails", async () => {
    const { client, seen } = fakeClient(
      () => ({ success: true, id: JOB }),
      'https://api.example.com',
      'devindex-vscode@0.1.0',
    );
    const agent = new AgentClient(client);
    await agent.submit({ prompt: 'p', effort: 'low' });
    assert.deepEqual(seen[0]!.body, { prompt: 'p', effort: 'low', origin: 'devindex-vscode@0.1.0' });
    const e = await agent.submit({ prompt: 'p', model: 'gpt' }).catch((x: unknown) => x);
    assert.equal(reasonOf(e), 'invalid-input');
    assert.equal(seen.length, 1, 'nothing sent for a refused model');
  });
});

describe("the job list's next page", () => {
  const base = 'https://api.example.com';
  it('follows an absolute next on the configured origin, and a relative one', () => {
    assert.deepEqual(nextPage(`${base}/v2/agent?before=123`, base), {
      follow: true,
      query: [['before', '123']],
      before: 123,
    });
    assert.deepEqual(nextPage('/v2/agent?before=9', base), { follow: true, query: [['before', '9']], before: 9 });
    assert.deepEqual(nextPage('https://gw.example.com/fc/v2/agent?before=5', 'https://gw.example.com/fc'), {
      follow: true,
      query: [['before', '5']],
      before: 5,
    });
  });

  it('refuses a next on another origin (scheme, host or port), another path, or nothing at all', () => {
    assert.deepEqual(nextPage('https://evil.example/v2/agent?before=1', base), {
      follow: false,
      reason: 'other-origin',
      origin: 'https://evil.example',
    });
    assert.equal(nextPage('http://api.example.com/v2/agent?before=1', base).follow, false);
    assert.equal(nextPage('https://api.example.com:8443/v2/agent?before=1', base).follow, false);
    assert.equal(nextPage('//evil.example/v2/agent', base).follow, false);
    assert.deepEqual(nextPage(`${base}/v2/search/developer?q=1`, base), { follow: false, reason: 'other-path' });
    assert.deepEqual(nextPage(undefined, base), { follow: false, reason: 'none' });
    assert.deepEqual(nextPage('http://[bad', base), { follow: false, reason: 'malformed' });
  });

  it('listAll reads production and older shapes, never requests another origin, and stops at the page bound', async () => {
    const row = (id: string) => ({ id, status: 'completed' });
    let n = 0;
    const { client, seen } = fakeClient(() => {
      n++;
      return n === 1
        ? { success: true, agents: [row('a')], next: 'https://api.example.com/v2/agent?before=10' }
        : n === 2
          ? { success: true, jobs: [row('b')], next: '/v2/agent?before=5' }
          : { success: true, agents: [row('c')], next: 'https://other.example/v2/agent?before=1' };
    });
    const all = await new AgentClient(client).listAll();
    assert.deepEqual(
      all.agents.map((a) => a.id),
      ['a', 'b', 'c'],
    );
    assert.equal(all.stopped, 'other-origin');
    assert.equal(seen.length, 3, 'the page on the other origin is never requested');
    assert.deepEqual(
      seen.map((s) => s.query),
      [[], [['before', '10']], [['before', '5']]],
    );

    let k = 0;
    const endless = fakeClient(() => ({
      success: true,
      agents: [row(`j${++k}`)],
      next: `https://api.example.com/v2/agent?before=${1000 - k}`,
    }));
    const bounded = await new AgentClient(endless.client).listAll({ maxPages: 3 });
    assert.equal(bounded.stopped, 'bound');
    assert.equal(endless.seen.length, 3);
  });
});

describe('one reason on every error', () => {
  const cases: Array<
    [string, ApiError, 'submit' | 'status' | 'cancel' | 'trace' | 'snapshot' | 'list', AgentErrorReason]
  > = [
    [
      '400 invalid job id',
      http(400, 'Invalid job ID format. Job ID must be a valid UUID.'),
      'status',
      'invalid-job-id',
    ],
    ['400 invalid snapshot id', http(400, 'Invalid snapshot ID'), 'snapshot', 'invalid-snapshot-id'],
    ['400 trace engine', http(400, 'Trace is only available for Spark 2 extracts'), 'trace', 'no-trace'],
    ['400 snapshot engine', http(400, 'Snapshots are only available for Spark 2 extracts'), 'snapshot', 'no-snapshots'],
    [
      "400 zero data retention (with production's sentence after it)",
      http(
        400,
        'Your team has zero data retention enabled. This is not supported on extract. Contact support@example.com.',
      ),
      'status',
      'zero-data-retention',
    ],
    [
      '400 invalid JSON schema',
      http(400, 'Invalid JSON schema: strict mode: unknown keyword: "x-foo"', { code: 'BAD_REQUEST' }),
      'submit',
      'invalid-schema',
    ],
    ['404 job not found', http(404, 'Agent job not found'), 'status', 'not-found'],
    ['404 snapshot not found', http(404, 'Snapshot not found'), 'snapshot', 'snapshot-not-found'],
    ['409 already finished', http(409, 'Agent already finished'), 'cancel', 'already-finished'],
    ['409 already cancelled', http(409, 'Agent is already cancelled'), 'cancel', 'already-cancelled'],
    [
      '500 passthrough on submit',
      http(500, 'Failed to passthrough agent request.', { attempts: 5 }),
      'submit',
      'not-created',
    ],
    ['502 on submit', http(502, 'Bad Gateway'), 'submit', 'job-may-exist'],
    [
      'timeout on submit',
      new ApiError({ kind: 'timeout', message: 'timed out', attempts: 1 }),
      'submit',
      'job-may-exist',
    ],
    [
      'aborted while the submit was out',
      new ApiError({ kind: 'aborted', message: 'request cancelled' }),
      'submit',
      'job-may-exist',
    ],
    [
      'aborted while waiting to retry a submit',
      new ApiError({
        kind: 'aborted',
        message: 'request cancelled while waiting to retry',
        cause: http(429, 'Rate limit exceeded'),
      }),
      'submit',
      'cancelled',
    ],
    ['401', http(401, 'Unauthorized: Invalid token'), 'status', 'auth'],
    ['402', http(402, 'Payment Required: Insufficient credits'), 'status', 'payment'],
    ['403', http(403, 'Forbidden'), 'trace', 'forbidden'],
    ['429', http(429, 'Rate limit exceeded', { retryable: true }), 'trace', 'rate-limit'],
    ['503 on status', http(503, 'Service Unavailable'), 'status', 'service'],
    ['network on status', new ApiError({ kind: 'network', message: 'ECONNRESET' }), 'status', 'network'],
  ];
  for (const [name, err, op, reason] of cases) {
    it(`${name} → ${reason}`, async () => {
      const { client } = fakeClient((spec) =>
        spec.method === 'GET' && spec.path === '/v2/agent' && op !== 'list' ? { success: true, agents: [] } : err,
      );
      const agent = new AgentClient(client);
      const call =
        op === 'submit'
          ? agent.submit({ prompt: 'p' })
          : op === 'status'
            ? agent.status(JOB)
            : op === 'cancel'
              ? agent.cancel(JOB)
              : op === 'trace'
                ? agent.trace(JOB)
                : op === 'snapshot'
                  ? agent.snapshot(JOB, 'snap_1')
                  : agent.list();
      const e = await call.then(
        () => undefined,
        (x: unknown) => x,
      );
      assert.ok(e instanceof AgentError, `an AgentError, got ${String(e)}`);
      assert.equal(reasonOf(e), reason);
      assert.equal(e instanceof JobMayExistError, reason === 'job-may-exist');
      if (reason === 'invalid-schema')
        assert.match((e as Error).message, /refused the schema \(strict mode: unknown keyword: "x-foo"\)/);
      if (reason === 'job-may-exist') assert.match((e as Error).message, /devindex agent list/);
    });
  }

  it('stamps input checks too: a bad job id never leaves the client', async () => {
    const { client, seen } = fakeClient(() => ({}));
    const e = await new AgentClient(client).status('not-a-uuid').catch((x: unknown) => x);
    assert.equal(reasonOf(e), 'invalid-job-id');
    assert.equal(seen.length, 0);
  });
});
