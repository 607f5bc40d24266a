// One end-of-run vocabulary (runOutcome.ts END_OF_RUN): the sentence a person reads when a run ends and
// the clause a model reads after waiting for it say the same billing and the same next step.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endClause, endMessage, type JobState } from '../../../src/agentRun/runOutcome';

const run = { prompt: 'Compare the rate limits', status: 'failed', createdAt: 1 } as unknown as Parameters<
  typeof endMessage
>[0];

describe('end of a run', () => {
  it('a model and a person hear the same next step for a refused and a failed run', () => {
    for (const [state, next] of [
      ['refused', 'rephrase the prompt and start it again'],
      ['failed', 'starting it again may succeed'],
    ] as const) {
      assert.ok(endMessage(run, state)!.text.includes(`not billed; ${next}.`), state);
      assert.ok(endClause(state)!.includes(`(not billed; ${next})`), state);
    }
  });
  it('says each end a model can wait for, and nothing for a run still going', () => {
    assert.equal(endClause('completed'), 'it completed');
    assert.equal(endClause('cancelled'), 'it was cancelled');
    assert.match(
      endClause('credit_limit_reached')!,
      /^it stopped at its credit ceiling \(not billed; what it gathered is below as partial data/,
    );
    assert.equal(endClause('running' as JobState), undefined);
  });
});
