import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import {
  DEFAULT_POLL_TIMING as T,
  delayMs,
  dueAt,
  observe,
  startSchedule,
  type PollObservation,
  type ScheduleState,
} from '../../../src/agentRun/pollSchedule';

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

const quiet: PollObservation = { kind: 'progress', signal: 'none', nearEnd: false };
const routine: PollObservation = { kind: 'progress', signal: 'routine', nearEnd: false };
const significant: PollObservation = { kind: 'progress', signal: 'significant', nearEnd: false };
const nearEnd = (signal: 'none' | 'routine' | 'significant'): PollObservation => ({
  kind: 'progress',
  signal,
  nearEnd: true,
});
const unchanged = (n: number): PollObservation[] => Array.from({ length: n }, () => quiet);

describe('poll schedule', () => {
  it('polls first after the fast interval (about 2 s)', () => {
    assert.equal(dueAt(startSchedule(1000), false), 1000 + T.fastMs);
    assert.equal(T.fastMs, 2000);
  });

  it('backs off while nothing changes, up to 10 s', () => {
    const { delays } = run(unchanged(9));
    assert.deepEqual(delays.slice(0, 6), [2000, 3000, 4500, 6750, 10000, 10000]);
    assert.deepEqual(delays.slice(6), [10000, 10000, 10000]);
    assert.equal(T.maxMs, 10_000);
  });

  it('goes back to fast on a significant event', () => {
    const { delays } = run([...unchanged(5), significant, quiet]);
    assert.equal(delays[5], 10000);
    assert.equal(delays[6], 2000);
  });

  it('keeps backing off while only routine events (tool calls, messages within a phase) arrive', () => {
    const { delays } = run(Array.from({ length: 8 }, () => routine));
    assert.deepEqual(delays, run(unchanged(8)).delays);
    assert.equal(delays.at(-1), 10000);
  });

  it('polls at about 0.5 s once the run says its end is near, backing off to 2 s while nothing arrives there', () => {
    const { delays } = run([
      ...unchanged(4),
      nearEnd('significant'),
      nearEnd('routine'),
      nearEnd('none'),
      nearEnd('none'),
      nearEnd('none'),
      nearEnd('none'),
      nearEnd('none'),
      nearEnd('routine'),
    ]);
    assert.equal(T.nearEndMs, 500);
    assert.equal(delays[4], 10000, 'still backed off before the signal was seen');
    assert.deepEqual(delays.slice(5), [500, 500, 750, 1125, 1687.5, 2000, 2000]);
    const after = run([
      ...unchanged(4),
      nearEnd('significant'),
      nearEnd('none'),
      nearEnd('none'),
      nearEnd('none'),
      nearEnd('none'),
      nearEnd('routine'),
      quiet,
    ]).delays;
    assert.equal(after[10], 500, 'anything new in the end window: back to 0.5 s');
  });

  it('goes back to the fast interval, then backs off, when the end window turns out not to be one', () => {
    const { delays } = run([nearEnd('significant'), nearEnd('none'), significant, quiet, quiet]);
    assert.deepEqual(delays.slice(1), [500, 750, 2000, 3000]);
    const left = run([nearEnd('significant'), quiet, quiet]).delays;
    assert.deepEqual(left.slice(1), [500, 2000], 'leaving the window counts as a change even without an event');
  });

  it('is slower while the view is hidden, with its own ceiling', () => {
    const { delays } = run(unchanged(8), true);
    assert.equal(delays[0], 2000 * T.hiddenFactor);
    assert.ok(delays.every((d, i) => i === 0 || d >= delays[i - 1]!));
    assert.equal(delays.at(-1), T.hiddenMaxMs);
    const visible = run(unchanged(8), false).delays;
    assert.ok(
      delays.every((d, i) => d > visible[i]!),
      'every hidden delay is longer than the visible one',
    );
  });

  it('keeps polling fast for the grace period after run.finished, then stops', () => {
    const { delays, state } = run([...unchanged(4), { kind: 'finished' }, { kind: 'finished' }]);
    assert.deepEqual(delays.slice(5), [2000]);
    assert.equal(state.stopped, 'finished');
    assert.equal(dueAt(state, false), undefined);
    assert.equal(dueAt(state, true), undefined);
  });

  it('never polls faster than the fast interval while hidden, not even near the end', () => {
    const s = observe(startSchedule(0), nearEnd('significant'), 0);
    assert.equal(delayMs(s, false), T.nearEndMs);
    assert.equal(delayMs(s, true), T.fastMs);
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
    assert.equal(observe(stopped, significant, 99_999).stopped, 'not-found', 'a stopped schedule stays stopped');
  });

  it('honours Retry-After when it is longer than the schedule', () => {
    const s = observe(startSchedule(0), { kind: 'error', retryAfterMs: 42_000 }, 2000);
    assert.equal(dueAt(s, false), 2000 + 42_000);
    const short = observe(startSchedule(0), { kind: 'error', retryAfterMs: 100 }, 2000);
    assert.equal(dueAt(short, false), 2000 + 4000, 'a short Retry-After does not make polling faster than the backoff');
  });

  it('backs off on transient errors without stopping', () => {
    const { delays, state } = run([{ kind: 'error' }, { kind: 'error' }, { kind: 'error' }, { kind: 'error' }]);
    assert.deepEqual(delays, [2000, 4000, 8000, 10000]);
    assert.equal(state.stopped, undefined);
  });
});
