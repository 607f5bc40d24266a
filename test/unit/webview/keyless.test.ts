// The keyless quota and keyless refusals in the Search view: the error the extension posts, the
// view's state (a countdown kept across reloads, cleared by a key), and the line's words.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../../src/api/errors';
import { reduce } from '../../../src/webview/app/reduce';
import { freshState, restoreState, savedState, type ViewState } from '../../../src/webview/app/state';
import { countdownWords, keylessQuotaLine } from '../../../src/webview/app/words';
import { toViewError } from '../../../src/search/session/searchSession';

const NOW = Date.UTC(2026, 10, 25, 11, 0, 0);
const RESET = NOW + (12 * 60 + 59) * 60_000;

function pending(): ViewState {
  return { ...freshState(), hasKey: false, pending: { requestId: 'r1', params: { query: 'q' } } };
}

describe('keyless quota in the Search view', () => {
  it('counts down by the minute, in hours and minutes', () => {
    assert.equal(countdownWords(RESET - NOW), '12 h 59 min');
    assert.equal(countdownWords(13 * 3_600_000), '13 h');
    assert.equal(countdownWords(45 * 60_000 - 1), '45 min');
    assert.equal(countdownWords(1_000), '1 min', 'never 0 before the reset');
    assert.equal(keylessQuotaLine(RESET, NOW), 'Keyless searches used up · resets in 12 h 59 min');
    assert.equal(keylessQuotaLine(RESET, NOW, 'credits'), 'Keyless search credits used up · resets in 12 h 59 min');
  });

  it('a keyless-quota error offers a key (no retry countdown) and carries the reset time, never a key', () => {
    const e = new ApiError({
      kind: 'keyless-quota',
      status: 429,
      message:
        'Keyless searches are used up until 00:00 tomorrow (in 13 h); an API key is not limited by the keyless quota',
      resetAt: RESET,
      quota: 'requests',
      retryable: false,
    });
    const v = toViewError(e);
    assert.notEqual(v, 'aborted');
    assert.deepEqual(v !== 'aborted' && { action: v.action, keyless: v.keyless, status: v.status }, {
      action: 'setKey',
      keyless: { kind: 'quota', resetAt: RESET, quota: 'requests' },
      status: 429,
    });
    const r = toViewError(
      new ApiError({
        kind: 'keyless-refused',
        status: 403,
        message: 'refused (HTTP 403): the service refuses keyless searches from this network',
        retryable: false,
      }),
    );
    assert.deepEqual(r !== 'aborted' && { action: r.action, keyless: r.keyless }, {
      action: 'setKey',
      keyless: { kind: 'refused' },
    });
  });

  it('the view keeps the reset time (also across a reload) until a key is set, which clears the line and the keyless error', () => {
    const error = {
      message: 'used up',
      action: 'setKey' as const,
      status: 429,
      keyless: { kind: 'quota' as const, resetAt: RESET },
    };
    const s1 = reduce(pending(), { t: 'ext', m: { type: 'searchError', requestId: 'r1', error }, now: NOW }).state;
    assert.deepEqual(s1.keylessQuota, { resetAt: RESET });
    assert.equal(s1.waitUntil, undefined, 'a day-long wait is not a retry countdown');
    const reloaded = restoreState(JSON.parse(JSON.stringify(savedState(s1))));
    assert.deepEqual(reloaded.keylessQuota, { resetAt: RESET });
    const keyed = reduce(
      { ...reloaded, hasKey: false },
      { t: 'ext', m: { type: 'keyState', hasKey: true }, now: NOW },
    ).state;
    assert.equal(keyed.keylessQuota, undefined);
    assert.equal(keyed.error, undefined);
    assert.match(keyed.status ?? '', /API key set/);
  });
});
