// A failure as data (src/api/failure.ts): each reason's next step and `until`, for search errors (read by
// kind and status) and agent errors (the reason AgentClient stamped) alike.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AgentError, JobMayExistError } from '../../../src/api/agent/agentFailure';
import { AGENT_ERROR_REASONS, type AgentErrorReason } from '../../../src/api/agent/agentReasons';
import { ApiError, type ApiErrorInit } from '../../../src/api/errors';
import { failureOf, NEXT_STEPS, type NextStep } from '../../../src/api/failure';

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const api = (o: Partial<ApiErrorInit>) => new ApiError({ kind: 'http', message: 'm', ...o });
const agent = (reason: AgentErrorReason, o: Partial<ApiErrorInit> = {}) => new AgentError(api(o), reason);

describe('failureOf: search errors, by kind and status', () => {
  const cases: Array<[string, unknown, string, NextStep]> = [
    ['a cancelled request', api({ kind: 'aborted' }), 'cancelled', 'none'],
    ['an AbortError from elsewhere', Object.assign(new Error('x'), { name: 'AbortError' }), 'cancelled', 'none'],
    ['a network failure', api({ kind: 'network' }), 'network', 'diagnose'],
    ['a timeout', api({ kind: 'timeout' }), 'timeout', 'diagnose'],
    ['an unreadable answer', api({ kind: 'invalid-response' }), 'invalid-response', 'retry'],
    ['an answer too large', api({ kind: 'response-too-large' }), 'invalid-response', 'retry'],
    [
      'bad input found before sending',
      api({ kind: 'validation', issues: [{ field: 'k', message: 'k must be from 1 to 100' }] }),
      'invalid-input',
      'fix-input',
    ],
    ['a 400', api({ status: 400 }), 'invalid-input', 'fix-input'],
    ['a 401', api({ status: 401 }), 'auth', 'set-key'],
    ['a 402', api({ status: 402 }), 'payment', 'none'],
    ['a 403', api({ status: 403 }), 'forbidden', 'none'],
    ['a 404', api({ status: 404 }), 'other', 'none'],
    ['a 408', api({ status: 408 }), 'service', 'retry'],
    ['a 429 without a wait', api({ status: 429 }), 'rate-limit', 'retry'],
    ['a 429 with a wait', api({ status: 429, retryAfterMs: 5000 }), 'rate-limit', 'wait'],
    ['a wait beyond the ceiling', api({ kind: 'retry-after-too-long', status: 429 }), 'rate-limit', 'wait'],
    ['a 503', api({ status: 503 }), 'service', 'retry'],
    ['the keyless quota', api({ kind: 'keyless-quota', status: 429 }), 'keyless-quota', 'set-key'],
    ['a keyless refusal', api({ kind: 'keyless-refused', status: 403 }), 'keyless-refused', 'set-key'],
    ['a key that cannot be sent', api({ kind: 'invalid-key' }), 'invalid-key', 'set-key'],
    ['plain http refused', api({ kind: 'insecure-transport' }), 'insecure-transport', 'diagnose'],
    ['a redirect', api({ kind: 'redirect', status: 301 }), 'redirect', 'diagnose'],
    ['a bug', new TypeError('x is undefined'), 'unexpected', 'retry'],
  ];
  for (const [what, e, reason, next] of cases) {
    it(`${what}: ${reason}, then ${next}`, () => {
      const f = failureOf(e, NOW);
      assert.equal(f.reason, reason);
      assert.equal(f.next, next);
    });
  }

  it('a Retry-After is `until` from now; a reset time is `until` itself, and says so', () => {
    const wait = failureOf(api({ status: 429, retryAfterMs: 17_000 }), NOW);
    assert.deepEqual([wait.until, wait.untilFrom, wait.retryAfterMs], [NOW + 17_000, 'retry-after', 17_000]);
    const reset = failureOf(
      api({ kind: 'keyless-quota', status: 429, resetAt: NOW + 3_600_000, retryAfterMs: 99 }),
      NOW,
    );
    assert.deepEqual([reset.until, reset.untilFrom], [NOW + 3_600_000, 'reset']);
    assert.equal(failureOf(api({ status: 500 }), NOW).until, undefined);
  });

  it('keeps what the surfaces word: the fields, the request id, the checked sign-up link, the busy run', () => {
    const f = failureOf(
      api({
        kind: 'validation',
        issues: [{ field: 'k', message: 'k must be from 1 to 100; got 0' }],
        requestId: 'req-1',
      }),
      NOW,
    );
    assert.deepEqual(f.issues, [{ field: 'k', message: 'k must be from 1 to 100; got 0' }]);
    assert.equal(f.requestId, 'req-1');
    assert.equal(
      failureOf(api({ kind: 'keyless-refused', signupUrl: 'https://example.com/signup' }), NOW).signupUrl,
      'https://example.com/signup',
    );
    assert.equal(
      failureOf(api({ kind: 'keyless-refused', signupUrl: 'javascript:alert(1)' }), NOW).signupUrl,
      undefined,
      'a link from the network is checked again',
    );
    assert.equal(
      failureOf(api({ status: 400, details: [{ path: ['k'], message: 'Too big' }] }), NOW).serviceNamedFields,
      true,
    );
    assert.equal(failureOf(agent('thread-busy', { status: 409, runId: 'run-7' }), NOW).runId, 'run-7');
  });

  it('reads a plain object by shape (the editor never loads the client to classify)', () => {
    assert.equal(failureOf({ kind: 'network', message: 'offline' }, NOW).next, 'diagnose');
    assert.equal(
      failureOf({ kind: 'made-up', status: 401 }, NOW).reason,
      'unexpected',
      "an unknown kind is not the client's",
    );
    assert.equal(failureOf('a string', NOW).message, 'a string');
  });
});

describe('failureOf: agent errors, by their stamped reason', () => {
  const expected: Record<AgentErrorReason, NextStep> = {
    'job-may-exist': 'refresh',
    'not-created': 'retry',
    'invalid-input': 'fix-input',
    'invalid-job-id': 'fix-input',
    'invalid-snapshot-id': 'fix-input',
    'invalid-schema': 'fix-input',
    'no-trace': 'none',
    'no-snapshots': 'none',
    'zero-data-retention': 'none',
    'not-found': 'none',
    'snapshot-not-found': 'fix-input',
    'already-finished': 'refresh',
    'already-cancelled': 'refresh',
    auth: 'set-key',
    payment: 'none',
    forbidden: 'none',
    'rate-limit': 'retry',
    cancelled: 'none',
    timeout: 'diagnose',
    network: 'diagnose',
    service: 'retry',
    'invalid-response': 'retry',
    other: 'none',
    'thread-not-found': 'start-again',
    'thread-busy': 'wait',
    'thread-expired': 'start-again',
    'threads-disabled': 'start-again',
    'exchange-not-enabled': 'refresh',
    'blocked-url': 'fix-input',
    'no-job-list': 'none',
    'terms-not-accepted': 'refresh',
    'key-unverified': 'none',
    'key-required': 'set-key',
  };
  for (const reason of AGENT_ERROR_REASONS) {
    it(`${reason}: ${expected[reason]}`, () => {
      const f = failureOf(agent(reason, { status: 418 }), NOW);
      assert.equal(f.reason, reason, 'the stamp wins over the status');
      assert.equal(f.next, expected[reason]);
      assert.ok(NEXT_STEPS.includes(f.next));
    });
  }

  it('a rate limit (or a job not created under one) with a Retry-After says wait, until then', () => {
    for (const reason of ['rate-limit', 'not-created'] as const) {
      const f = failureOf(agent(reason, { status: 429, retryAfterMs: 30_000 }), NOW);
      assert.deepEqual([f.next, f.until], ['wait', NOW + 30_000], reason);
    }
  });

  it('a job that may exist says refresh (look in the list), never retry', () => {
    const f = failureOf(new JobMayExistError(api({ kind: 'timeout' }), 'the submission timed out'), NOW);
    assert.deepEqual([f.reason, f.next, f.kind], ['job-may-exist', 'refresh', 'timeout']);
  });

  it('a stamped `other` defers to a kind the client knows (a key that cannot be sent)', () => {
    assert.equal(failureOf(agent('other', { kind: 'invalid-key' }), NOW).next, 'set-key');
    assert.equal(failureOf(agent('other', { status: 409 }), NOW).reason, 'other');
  });
});
