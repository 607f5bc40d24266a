// Trace details the SDK's event union fixed on the production wire (addendum: "`run.cancel_requested`
// carries `reason: "user"`"; "`agent.finished.outcome` is one of succeeded, failed, cancelled, refused
// (`credit_limit_reached` only on `run.finished`)"), with the spec wire's cancel reason left as it was.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAgentService } from '../../../sandbox/agent/service';
import { type AgentReply } from '../../../sandbox/agent/serviceTypes';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function setup(wire: 'production' | 'spec') {
  const clock = { t: 1_700_000_000_000 };
  const svc = createAgentService({ speed: 1, now: () => clock.t, wire });
  const call = (method: string, path: string, body?: unknown): Body =>
    (svc.handle({ method, path, query: new URLSearchParams(), body, team: 't' }) as AgentReply).body as Body;
  return { clock, call };
}

describe('sandbox trace details per wire', () => {
  for (const [wire, reason] of [
    ['production', 'user'],
    ['spec', 'Cancelled by the user'],
  ] as const) {
    it(`${wire}: run.cancel_requested reason is ${JSON.stringify(reason)}`, () => {
      const { clock, call } = setup(wire);
      const { id } = call('POST', '/v2/agent', { prompt: 'cancel me' });
      clock.t += 2000;
      assert.equal(call('DELETE', `/v2/agent/${id}`).success, true);
      clock.t += 5000;
      const events = call('GET', `/v2/agent/${id}/trace`).events as Body[];
      assert.deepEqual(
        events.filter((e) => e.type === 'run.cancel_requested').map((e) => e.reason),
        [reason],
      );
    });
  }

  it('a credit ceiling: run.finished says credit_limit_reached; the agents stop as failed with that error code', () => {
    const { clock, call } = setup('production');
    const { id } = call('POST', '/v2/agent', { prompt: 'expensive', maxCredits: 50 });
    clock.t += 120_000;
    const events = call('GET', `/v2/agent/${id}/trace`).events as Body[];
    assert.equal(events.find((e) => e.type === 'run.finished')?.outcome, 'credit_limit_reached');
    const stopped = events.filter((e) => e.type === 'agent.finished' && e.error?.code === 'credit_limit_reached');
    assert.ok(stopped.length >= 1);
    assert.ok(
      stopped.every((e) => e.outcome === 'failed'),
      JSON.stringify(stopped.map((e) => e.outcome)),
    );
  });
});
