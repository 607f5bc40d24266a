// The words of a failure per surface (src/words/failureWords.ts): every surface says every reason,
// none says the key, and the Search view's error follows the failure's next step.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AgentError } from '../../../src/api/agent/agentFailure';
import { AGENT_ERROR_REASONS } from '../../../src/api/agent/agentReasons';
import { ApiError, type ApiErrorInit } from '../../../src/api/errors';
import { type Failure, failureOf, type FailureReason, NEXT_STEPS } from '../../../src/api/failure';
import {
  cliWords,
  editorWords,
  failureWords,
  mayExistWords,
  modelWords,
  type WordsSurface,
} from '../../../src/words/failureWords';
import { viewError } from '../../../src/words/viewWords';

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const KEY = 'fc-0123456789abcdef';
const api = (o: Partial<ApiErrorInit>) => new ApiError({ kind: 'http', message: 'm', ...o });
const SEARCH_REASONS: FailureReason[] = [
  'keyless-quota',
  'keyless-refused',
  'invalid-key',
  'insecure-transport',
  'redirect',
  'unexpected',
];
const ALL: FailureReason[] = [...AGENT_ERROR_REASONS, ...SEARCH_REASONS];
const SURFACES: WordsSurface[] = ['cli', 'editor', 'model'];

/** A failure of each reason whose quoted texts hold the key (the client never does this; the words must not pass it on). */
function leaking(reason: FailureReason): Failure {
  return {
    reason,
    next: NEXT_STEPS[ALL.indexOf(reason) % NEXT_STEPS.length]!,
    message: `refused ${KEY}`,
    error: `bad key ${KEY}`,
    status: 401,
    issues: [{ field: 'k', message: `k ${KEY}` }],
    kind: 'validation',
  };
}

describe('failure words: every surface, every reason', () => {
  for (const surface of SURFACES) {
    it(`${surface} says something for each of the ${ALL.length} reasons, and never the key`, () => {
      for (const reason of ALL) {
        const words = failureWords(surface, leaking(reason), { secret: KEY });
        assert.ok(words.trim().length > 10, `${surface} / ${reason}: ${words}`);
        assert.ok(!words.includes(KEY), `${surface} / ${reason} said the key: ${words}`);
      }
    });
  }

  it('the editor says each agent reason in its own words where the message would not do', () => {
    const quoting = new Set(['invalid-input', 'invalid-schema', 'blocked-url', 'other']);
    for (const reason of AGENT_ERROR_REASONS.filter((r) => !quoting.has(r))) {
      const words = editorWords(failureOf(new AgentError(api({ status: 500, message: 'RAW' }), reason), NOW));
      assert.notEqual(words, 'RAW', reason);
    }
  });

  it('the key is set the way each surface sets it', () => {
    const f = failureOf(api({ status: 401, message: 'Unauthorized (HTTP 401): set or replace the API key' }), NOW);
    assert.match(cliWords(f).join('\n'), /the key is read from DEVINDEX_API_KEY/);
    assert.match(editorWords(f), /"Developer Index: Set API Key"/);
    assert.match(
      modelWords(f, { host: 'editor', op: 'Search' }),
      /Ask the user to run "Developer Index: Set API Key".*Do not ask the user to paste the key/,
    );
    assert.match(
      modelWords(f, { host: 'mcp', op: 'Search' }),
      /Set DEVINDEX_API_KEY in the MCP server's environment.*Never put the key in a tool call/,
    );
  });

  it('the CLI lists every field of an input error, and gives a keyless refusal its way out', () => {
    const f = failureOf(
      api({
        kind: 'validation',
        issues: [
          { field: 'k', message: 'k must be from 1 to 100' },
          { field: 'q', message: 'query is required' },
        ],
      }),
      NOW,
    );
    assert.deepEqual(cliWords(f), ['k must be from 1 to 100', 'query is required']);
    assert.deepEqual(
      cliWords(
        failureOf(api({ kind: 'keyless-refused', message: 'refused', signupUrl: 'https://example.com/new' }), NOW),
      ),
      ['refused', 'create your API key here: https://example.com/new then set DEVINDEX_API_KEY to it'],
    );
  });

  it('a model hears when it may call again: seconds for a short wait, the clock for a reset', () => {
    const short = modelWords(failureOf(api({ status: 429, retryAfterMs: 17_000, error: 'Rate limit exceeded' }), NOW), {
      host: 'mcp',
      op: 'Search',
      now: NOW,
    });
    assert.match(short, /wait 17 s\. What to do: wait before calling again for at least that long/);
    const long = modelWords(
      failureOf(
        api({ kind: 'retry-after-too-long', status: 429, retryAfterMs: 3_600_000, resetAt: NOW + 3_600_000 }),
        NOW + 0,
      ),
      { host: 'mcp', op: 'Search', now: NOW },
    );
    assert.match(long, /wait until \d\d:\d\d.*\(in 60 min\)/);
  });

  it('a job that may exist tells a model never to start it again at once, whatever failed', () => {
    for (const kind of ['timeout', 'http', 'aborted'] as const) {
      const e = new AgentError(api({ kind, status: kind === 'http' ? 502 : undefined }), 'job-may-exist');
      assert.match(
        modelWords(failureOf(e, NOW), { host: 'editor', op: 'Starting the job' }),
        /\nDo not start it again right away: the job may exist and be billed\.$/,
        kind,
      );
    }
  });

  it('the two editor commands that meet a job that may exist say it from one place', () => {
    assert.match(mayExistWords('job'), /job may exist on the service; it was not sent again\. Refresh the job list/);
    assert.match(
      mayExistWords('follow-up'),
      /turn may exist on the service; it was not sent again\. Refresh the job list/,
    );
  });
});

describe('the Search view error from a Failure', () => {
  const view = (e: unknown) => viewError(failureOf(e, NOW));
  it('asks for a key, a fix, a wait or a retry as the next step says', () => {
    assert.deepEqual(view(api({ status: 401, message: 'no' })), { message: 'no', status: 401, action: 'setKey' });
    assert.deepEqual(view(api({ kind: 'validation', message: 'bad', issues: [{ field: 'k', message: 'k!' }] })), {
      message: 'bad',
      action: 'fix',
      issues: [{ field: 'k', message: 'k!' }],
    });
    assert.deepEqual(view(api({ status: 400, message: 'bad' })), { message: 'bad', status: 400, action: 'fix' });
    assert.deepEqual(view(api({ status: 429, retryAfterMs: 9000, message: 'slow' })), {
      message: 'slow',
      status: 429,
      action: 'wait',
      retryAfterMs: 9000,
    });
    assert.deepEqual(view(api({ status: 429, message: 'slow' })), { message: 'slow', status: 429, action: 'retry' });
    assert.deepEqual(view(api({ status: 503, message: 'down' })), { message: 'down', status: 503, action: 'retry' });
    assert.deepEqual(view(api({ status: 404, message: 'gone' })), { message: 'gone', status: 404, action: 'none' });
    assert.deepEqual(view(api({ kind: 'network', message: 'offline' })), {
      message: 'offline',
      action: 'retry',
      diagnose: true,
    });
  });

  it('says which keyless refusal, until when, with the checked link', () => {
    assert.deepEqual(
      view(
        api({
          kind: 'keyless-quota',
          status: 429,
          message: 'used up',
          resetAt: NOW + 60_000,
          quota: 'credits',
          signupUrl: 'https://example.com/k',
        }),
      ),
      {
        message: 'used up',
        status: 429,
        action: 'setKey',
        keyless: { kind: 'quota', resetAt: NOW + 60_000, quota: 'credits', signupUrl: 'https://example.com/k' },
      },
    );
    assert.deepEqual(view(api({ kind: 'keyless-refused', status: 403, message: 'vpn' })), {
      message: 'vpn',
      status: 403,
      action: 'setKey',
      keyless: { kind: 'refused' },
    });
  });
});
