// The per-minute limiter with a fake clock: the window, Retry-After, separate clients, no limit.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RateLimiter, WINDOW_MS } from '../../../sandbox/rateLimit';

describe('RateLimiter', () => {
  it('admits `limit` requests a minute, then gives the seconds until the window ends', () => {
    let t = 1_000_000;
    const rl = new RateLimiter(() => t);
    for (let i = 0; i < 3; i++) assert.deepEqual(rl.hit('a', 3), { ok: true });
    assert.deepEqual(rl.hit('a', 3), { ok: false, retryAfterSeconds: 60 });
    t += 59_500;
    assert.deepEqual(rl.hit('a', 3), { ok: false, retryAfterSeconds: 1 });
    t += 499;
    assert.deepEqual(rl.hit('a', 3), { ok: false, retryAfterSeconds: 1 }, 'never 0: the client must wait');
    t += 1;
    assert.deepEqual(rl.hit('a', 3), { ok: true }, 'a new window');
  });

  it('rounds Retry-After up to whole seconds', () => {
    let t = 0;
    const rl = new RateLimiter(() => t);
    rl.hit('a', 1);
    t = WINDOW_MS - 2_500;
    assert.deepEqual(rl.hit('a', 1), { ok: false, retryAfterSeconds: 3 });
  });

  it('counts clients separately and treats 0 as no limit', () => {
    const rl = new RateLimiter(() => 0);
    assert.equal(rl.hit('a', 1).ok, true);
    assert.equal(rl.hit('a', 1).ok, false);
    assert.equal(rl.hit('b', 1).ok, true);
    for (let i = 0; i < 1000; i++) assert.equal(rl.hit('c', 0).ok, true);
  });
});
