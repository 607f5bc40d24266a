import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { DEFAULT_POLL_TIMING as T, delayMs, dueAt, observe, startSchedule, type PollObservation, type ScheduleState } from '../../../src/agents/pollSchedule';

/** Applies observations one poll after another, each poll at the time the schedule asked for. */
function run(obs: PollObservation[], hidden = false): { delays: number[]; state: ScheduleState } {
  let now = 0;
  let s = startSchedule(now);
  const delays: number[] = [];
  for (const o of obs) {
    const at = dueAt(s, hidden);
    assert.ok(at !== undefined, 'schedule stopped early');
    delays.push(at - now);
    now = at;
    s = observe(s, o, now);
  }
  return { delays, state: s };
}

const unchanged = (n: number): PollObservation[] => Array.from({ length: n }, () => ({ kind: 'unchanged' }));

describe('poll schedule', () => {
  it('polls first after the fast interval (about 2 s)', () => {
    assert.equal(dueAt(startSchedule(1000), false), 1000 + T.fastMs);
    assert.equal(T.fastMs, 2000);
  });

  it('backs off while nothing changes, up to about 15 s', () => {
    const { delays } = run(unchanged(9));
    assert.deepEqual(delays.slice(0, 6), [2000, 3000, 4500, 6750, 10125, 15000]);
    assert.deepEqual(delays.slice(6), [15000, 15000, 15000]);
  });

  it('goes back to fast on a new event', () => {
    const { delays } = run([...unchanged(5), { kind: 'changed' }, { kind: 'unchanged' }]);
    assert.equal(delays[5], 15000);
    assert.equal(delays[6], 2000);
  });

  it('stays fast once the run says it is finalizing', () => {
    const { delays } = run([{ kind: 'changed', nearEnd: true }, ...unchanged(4)]);
    assert.deepEqual(delays.slice(1), [2000, 2000, 2000, 2000]);
  });

  it('is slower while the view is hidden, with its own ceiling', () => {
    const { delays } = run(unchanged(8), true);
    assert.equal(delays[0], 2000 * T.hiddenFactor);
    assert.ok(delays.every((d, i) => i === 0 || d >= delays[i - 1]!));
    assert.equal(delays.at(-1), T.hiddenMaxMs);
    const visible = run(unchanged(8), false).delays;
    assert.ok(delays.every((d, i) => d > visible[i]!), 'every hidden delay is longer than the visible one');
  });

  it('keeps polling fast for the grace period after run.finished, then stops', () => {
    const { delays, state } = run([...unchanged(4), { kind: 'finished' }, { kind: 'finished' }]);
    assert.deepEqual(delays.slice(5), [2000]);
    assert.equal(state.stopped, 'finished');
    assert.equal(dueAt(state, false), undefined);
    assert.equal(dueAt(state, true), undefined);
  });

  it('does not slow the grace period down while hidden', () => {
    const s = observe(startSchedule(0), { kind: 'finished' }, 0);
    assert.equal(delayMs(s, true), T.fastMs);
  });

  it('stops at once on the finish of a job without trace (grace 0)', () => {
    const s = observe(startSchedule(0), { kind: 'finished' }, 2000, { ...T, graceMs: 0 });
    assert.equal(s.stopped, 'finished');
  });

  it('stops on 404 and on a permanent failure', () => {
    assert.equal(run([{ kind: 'not-found' }]).state.stopped, 'not-found');
    assert.equal(run([{ kind: 'fatal' }]).state.stopped, 'fatal');
    const stopped = run([{ kind: 'not-found' }]).state;
    assert.equal(observe(stopped, { kind: 'changed' }, 99_999).stopped, 'not-found', 'a stopped schedule stays stopped');
  });

  it('honours Retry-After when it is longer than the schedule', () => {
    const s = observe(startSchedule(0), { kind: 'error', retryAfterMs: 42_000 }, 2000);
    assert.equal(dueAt(s, false), 2000 + 42_000);
    const short = observe(startSchedule(0), { kind: 'error', retryAfterMs: 100 }, 2000);
    assert.equal(dueAt(short, false), 2000 + 4000, 'a short Retry-After does not make polling faster than the backoff');
  });

  it('backs off on transient errors without stopping', () => {
    const { delays, state } = run([{ kind: 'error' }, { kind: 'error' }, { kind: 'error' }, { kind: 'error' }]);
    assert.deepEqual(delays, [2000, 4000, 8000, 15000]);
    assert.equal(state.stopped, undefined);
  });
});
