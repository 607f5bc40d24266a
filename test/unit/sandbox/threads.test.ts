// The sandbox's threads, chat answers and approvals in process, on a fake clock: an approval run waits
// however long the caller takes, then resumes where it stopped; x-* schema annotations; the keyless reset.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withoutAnnotations, jsonSchemaProblem } from '../../../sandbox/agent/jsonSchema';
import { createAgentService } from '../../../sandbox/agent/service';
import { type AgentReply } from '../../../sandbox/agent/serviceTypes';
import { secondsToUtcMidnight } from '../../../sandbox/serverParts';

function setup() {
  const clock = { t: 1_700_000_000_000 };
  const svc = createAgentService({ speed: 1, now: () => clock.t });
  const call = (method: string, path: string, body?: unknown, query = ''): AgentReply =>
    svc.handle({
      method,
      path,
      query: new URLSearchParams(query),
      body,
      team: 'team-a',
      origin: 'http://127.0.0.1:1',
    })!;
  const b = (r: AgentReply) => r.body as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  return { clock, call, b };
}

describe('sandbox approvals on a fake clock', () => {
  it('a calls approval waits an hour at its pause point; the answer is a new turn that finishes in seconds, and the waiting run ends at once', () => {
    const { clock, call, b } = setup();
    const s = b(call('POST', '/v2/agent', { prompt: 'APPROVAL now', mode: 'chat' }));
    let job = b(call('GET', `/v2/agent/${s.id}`));
    assert.equal('pendingApproval' in job, false, 'not at the pause point yet');
    clock.t += 3_600_000;
    job = b(call('GET', `/v2/agent/${s.id}`));
    assert.equal(job.status, 'processing');
    assert.equal(job.pendingApproval.kind, 'calls');
    assert.equal(job.pendingApproval.resolution, null);
    const eventsBefore = (b(call('GET', `/v2/agent/${s.id}/trace`)).events as unknown[]).length;
    const next = b(
      call('POST', '/v2/agent', {
        prompt: 'go',
        threadId: s.threadId,
        exchange: { approve: { approvalId: job.pendingApproval.id } },
      }),
    );
    assert.notEqual(next.id, s.id);
    assert.equal(next.threadTurn, 2);
    job = b(call('GET', `/v2/agent/${s.id}`));
    assert.equal(job.status, 'completed', 'the waiting run ends when it is answered');
    assert.equal(job.pendingApproval.resolution.byRunId, next.id);
    const events = b(call('GET', `/v2/agent/${s.id}/trace`)).events as Array<{ type: string; occurredAt: string }>;
    assert.ok(events.length > eventsBefore);
    assert.ok(
      events.every((e) => Date.parse(e.occurredAt) <= clock.t),
      'nothing is dated after the answer',
    );
    assert.equal(b(call('GET', `/v2/agent/${next.id}`)).status, 'processing');
    clock.t += 10_000;
    const answer = b(call('GET', `/v2/agent/${next.id}`));
    assert.equal(answer.status, 'completed');
    assert.match(answer.message, /Approved calls made: `github\/issues\/create`, `github\/issues\/add-labels`\./);
    const thread = b(call('GET', `/v2/agent/threads/${s.threadId}`)).thread;
    assert.equal(thread.status, 'idle');
    assert.deepEqual(
      thread.runs.map((r: { status: string }) => r.status),
      ['succeeded', 'succeeded'],
    );
  });

  it('a credit ceiling before the pause point ends the run without asking', () => {
    const { clock, call, b } = setup();
    const s = b(call('POST', '/v2/agent', { prompt: 'APPROVAL cheap', maxCredits: 10 }));
    clock.t += 60_000;
    const job = b(call('GET', `/v2/agent/${s.id}`));
    assert.equal(job.status, 'failed');
    assert.equal('pendingApproval' in job, false);
  });
});

describe('sandbox schema annotations and the keyless reset', () => {
  it('x-* keywords are dropped at every depth, property names are kept; other vendor keywords are refused', () => {
    const schema = {
      type: 'object',
      'x-a': 1,
      properties: { 'x-id': { type: 'string', 'x-b': true } },
      items: [{ 'x-c': 1 }],
    };
    assert.deepEqual(withoutAnnotations(schema), {
      type: 'object',
      properties: { 'x-id': { type: 'string' } },
      items: [{}],
    });
    assert.equal(
      jsonSchemaProblem({ type: 'object', 'x-display': 'A', properties: { a: { type: 'string', 'x-order': 2 } } }),
      undefined,
    );
    assert.match(jsonSchemaProblem({ type: 'object', vendorKeyword: 1 }) ?? '', /vendorKeyword/);
  });

  it('seconds to the next UTC midnight', () => {
    assert.equal(secondsToUtcMidnight(Date.UTC(2026, 10, 25, 23, 59, 59)), 1);
    assert.equal(secondsToUtcMidnight(Date.UTC(2026, 10, 25, 0, 0, 0)), 86_400);
    assert.equal(secondsToUtcMidnight(Date.UTC(2026, 11, 31, 14, 0, 0)), 36_000);
  });
});
