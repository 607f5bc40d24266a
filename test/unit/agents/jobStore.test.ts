import { jobState as jobStateOf } from '../../../src/agents/jobState';
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { JobStore, type JobStoreOptions } from '../../../src/agents/jobStore';
import type { RecordStorage } from '../../../src/storage/sharedRecords';
import { endActions, editorEndMessage, jobContextValue, jobDescription, jobState } from '../../../src/agents/jobState';
import { ev, FakeBackend, HttpishError, ORCH, SYSTEM, type ScriptedJob } from './fakeBackend';
import { ManualClock, settle } from './manualClock';

class MapStorage implements RecordStorage {
  readonly map = new Map<string, unknown>();
  writes = 0;
  get<T>(key: string): T | undefined {
    // Round-trip through JSON like globalState does, so nothing live leaks between "sessions".
    const v = this.map.get(key);
    return v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.writes++;
    // Like globalState: writing undefined deletes the key.
    if (value === undefined) this.map.delete(key);
    else this.map.set(key, JSON.parse(JSON.stringify(value)));
  }
  keys(): readonly string[] {
    return [...this.map.keys()];
  }
}

function setup(extra: Partial<JobStoreOptions> = {}, storage = new MapStorage(), clock = new ManualClock()) {
  const backend = new FakeBackend(() => clock.now());
  const store = new JobStore({ backend: () => backend, storage, timers: clock, ...extra });
  store.resume();
  return { clock, backend, store, storage };
}

const traceTimes = (b: FakeBackend, id?: string): number[] =>
  b.calls.filter((c) => c.method === 'trace' && (!id || c.jobId === id)).map((c) => c.at);
const gaps = (ts: number[]): number[] => ts.slice(1).map((t, i) => t - ts[i]!);

/** A standard run: some events early, a long quiet tool call, then finalizing and run.finished at 60 s, a late event at 61 s. */
function standardRun(
  b: FakeBackend,
  id: string,
  end = 60_000,
  outcome = 'succeeded',
  error: Record<string, unknown> | null = null,
): ScriptedJob {
  const t0 = b.now();
  const sub = { id: 'sub1', role: 'subagent', name: 'researcher', parentId: 'orch' };
  return b.script({
    id,
    events: [
      { at: 100, event: ev('run.started', SYSTEM, t0 + 100, 1) },
      { at: 500, event: ev('agent.started', ORCH, t0 + 500, 1) },
      { at: 3_000, event: ev('progress.reported', ORCH, t0 + 3_000, 2, { phase: 'planning', message: 'Planning' }) },
      { at: 5_000, event: ev('tool_call.started', sub, t0 + 5_000, 1, { toolCallId: 't1', toolName: 'navigate' }) },
      {
        at: end - 4_000,
        event: ev('progress.reported', ORCH, t0 + end - 4_000, 3, { phase: 'finalizing', message: 'Writing up' }),
      },
      { at: end, event: ev('run.finished', SYSTEM, t0 + end, 2, { outcome, error }) },
      {
        at: end + 1_000,
        event: ev('agent.finished', sub, t0 + end + 1_000, 2, {
          outcome: 'cancelled',
          error: { code: 'parent_finished', source: 'agent', retryable: false, message: 'parent done' },
        }),
      },
    ],
    endAt: end,
    endStatus: outcome === 'succeeded' ? 'completed' : 'failed',
    endError: outcome === 'succeeded' ? undefined : `Run ended: ${outcome}`,
    credits: 170,
  });
}

describe('job store: polling', () => {
  it('makes no request and arms no timer while nothing runs and the view is hidden', async () => {
    const { clock, backend, store } = setup({ hidden: true });
    await clock.advance(10 * 60_000);
    assert.equal(backend.calls.length, 0);
    assert.equal(clock.armed, 0);
    assert.equal(store.runs.nextPollAt(), undefined);
  });

  it('starts nothing in its constructor: polling and storage checks begin at resume()', async () => {
    const storage = new MapStorage();
    const clock = new ManualClock();
    const first = setup({}, storage, clock);
    await first.store.start({ prompt: 'running' });
    await first.store.flush();
    first.store.dispose();
    const backend = new FakeBackend(() => clock.now());
    const store = new JobStore({ backend: () => backend, storage, timers: clock });
    assert.equal(clock.armed, 0, 'no timer before resume()');
    await clock.advance(60_000);
    assert.equal(backend.calls.length, 0);
    store.resume();
    assert.ok(clock.armed > 0);
    await clock.advance(2_000);
    assert.equal(backend.countOf('trace'), 1, 'the running job is polled once resumed');
    store.dispose();
  });

  it('polls a new job after about 2 s, backs off while quiet, and goes fast again on events', async () => {
    const { clock, backend, store } = setup();
    const job = await store.start({ prompt: 'find things', maxCredits: 500 });
    standardRun(backend, job.id, 60_000);
    const t0 = clock.now();
    await clock.advance(80_000);
    const ts = traceTimes(backend, job.id).map((t) => t - t0);
    assert.equal(ts[0], 2000, 'first poll two seconds after the submit');
    const quiet = gaps(ts.filter((t) => t <= 56_000));
    assert.deepEqual(
      quiet.slice(-6),
      [3000, 4500, 6750, 10_000, 10_000, 10_000],
      `backs off to 10 s during the quiet stretch: ${quiet}`,
    );
    assert.ok(
      quiet.every((d) => d <= 10_000),
      `never beyond 10 s: ${quiet}`,
    );
    // The first poll that sees the finalizing event (at 56 s) is followed by a fast one.
    const i = ts.findIndex((t) => t >= 56_000);
    assert.equal(ts[i + 1]! - ts[i]!, 2000, `fast after new events: ${ts}`);
  });

  it('reads late events during the grace period after run.finished, then stops for good', async () => {
    const { clock, backend, store } = setup();
    const job = await store.start({ prompt: 'p', maxCredits: 500 });
    standardRun(backend, job.id);
    const ended: string[] = [];
    store.onDidEndJob((j) => ended.push(j.id));
    await clock.advance(75_000);
    const t0 = backend.jobs.get(job.id)!.startedAt;
    const finishPollAt = traceTimes(backend, job.id).find((t) => t - t0 >= 60_000)!;
    const lastTraceAt = traceTimes(backend, job.id).at(-1)!;
    assert.ok(finishPollAt - t0 <= 60_000 + 10_000, 'the end is detected within the backoff ceiling');
    assert.equal(lastTraceAt - finishPollAt, 2000, 'reads the trace once more, a grace period after run.finished');
    assert.equal(store.run(job.id).events.length, 7, 'the late agent.finished was read');
    assert.equal(store.run(job.id).polling, false);
    assert.equal(store.runs.nextPollAt(), undefined);
    assert.equal(clock.armed, 1, "no poll timer: only the visible view's storage check");
    const n = backend.calls.length;
    await clock.advance(10 * 60_000);
    assert.equal(backend.calls.length, n, 'no request after the run and its grace period');
    assert.deepEqual(ended, [job.id], 'ended once');
    const j = store.get(job.id)!;
    assert.equal(j.status, 'completed');
    assert.equal(j.outcome, 'succeeded');
    assert.equal(j.creditsUsed, 170);
    assert.equal(jobState(j), 'completed');
  });

  it('slows down while the view is hidden and speeds up when it is shown again', async () => {
    const { clock, backend, store } = setup({ hidden: true });
    const job = await store.start({ prompt: 'p' });
    backend.script({ id: job.id, events: [] });
    await clock.advance(120_000);
    const hidden = gaps(traceTimes(backend, job.id));
    assert.equal(traceTimes(backend, job.id)[0]! - (clock.now() - 120_000), 5000, 'first hidden poll after 5 s');
    assert.ok(hidden.at(-1)! > 10_000, `hidden backoff goes beyond the visible ceiling: ${hidden}`);
    const before = backend.calls.length;
    store.setHidden(false);
    await clock.advance(10_000);
    assert.ok(backend.calls.length > before, 'shown again: polled within the visible ceiling');
  });

  it('honours Retry-After from a 429', async () => {
    const { clock, backend, store } = setup();
    const job = await store.start({ prompt: 'p' });
    backend.script({ id: job.id, events: [] });
    backend.failures.push({ method: 'trace', error: new HttpishError(429, 'Rate limit exceeded', true, 40_000) });
    await clock.advance(2_000);
    assert.equal(backend.countOf('trace'), 1);
    await clock.advance(39_000);
    assert.equal(backend.countOf('trace'), 1, 'nothing before Retry-After has passed');
    await clock.advance(1_500);
    assert.equal(backend.countOf('trace'), 2);
  });

  it('stops on 404 and shows the job as not found', async () => {
    const { clock, backend, store } = setup();
    const job = await store.start({ prompt: 'p' });
    backend.jobs.clear();
    const ended: string[] = [];
    store.onDidEndJob((j) => ended.push(j.id));
    await clock.advance(2_000);
    assert.equal(backend.calls.filter((c) => c.method !== 'submit').length, 1);
    await clock.advance(5 * 60_000);
    assert.equal(backend.calls.filter((c) => c.method !== 'submit').length, 1, 'no request after the 404');
    assert.equal(jobState(store.get(job.id)!), 'not_found');
    assert.equal(store.runs.nextPollAt(), undefined);
    assert.equal(clock.armed, 1, "no poll timer: only the visible view's storage check");
    assert.deepEqual(ended, [job.id]);
  });

  it('keeps the number of requests in flight bounded', async () => {
    const { clock, backend, store } = setup({ maxInFlight: 2 });
    for (let i = 0; i < 6; i++) {
      const j = await store.start({ prompt: `p${i}` });
      backend.script({ id: j.id, events: [] });
    }
    backend.hold();
    await clock.advance(2_000);
    assert.equal(backend.concurrent, 2);
    assert.equal(store.runs.inFlight, 2);
    backend.release();
    await settle();
    assert.equal(backend.countOf('trace'), 6, 'the others ran once slots were free');
    assert.equal(backend.maxConcurrent, 2);
  });

  it('polls status only for a job without a trace and stops when it ends, without grace', async () => {
    const { clock, backend, store } = setup();
    const job = await store.start({ prompt: 'old engine' });
    backend.script({ id: job.id, events: [], noTrace: true, endAt: 10_000, endStatus: 'completed', credits: 120 });
    await clock.advance(60_000);
    assert.equal(backend.countOf('trace'), 1, 'the trace is asked for once');
    assert.equal(store.run(job.id).trace.state, 'unavailable');
    const statusTimes = backend.calls.filter((c) => c.method === 'status').map((c) => c.at);
    assert.ok(
      statusTimes.at(-1)! - backend.jobs.get(job.id)!.startedAt <= 12_500,
      'stopped at the first terminal status',
    );
    assert.equal(store.get(job.id)!.status, 'completed');
    assert.equal(store.runs.nextPollAt(), undefined);
    assert.equal(clock.armed, 1, "no poll timer: only the visible view's storage check");
  });

  it('changes no job in place: each read, cancel and end replaces the job, and a job read earlier stays as it was', async () => {
    const { clock, backend, store } = setup();
    const job = await store.start({ prompt: 'p', maxCredits: 500 });
    standardRun(backend, job.id);
    const seen = [store.get(job.id)!];
    const copies = [structuredClone(seen[0]!)];
    store.onDidChangeJob((id) => {
      const now = id === undefined ? undefined : store.get(id);
      if (!now || now === seen.at(-1)) return;
      seen.push(now);
      copies.push(structuredClone(now));
    });
    await clock.advance(20_000);
    await store.cancel(job.id);
    await clock.advance(75_000);
    assert.ok(seen.length > 3, `the job was replaced on each change (${seen.length} versions)`);
    assert.equal(store.get(job.id)!.notified, true, 'its end was announced');
    seen.forEach((j, i) => assert.deepEqual(j, copies[i], `version ${i} is as it was when it was current`));
  });

  it('stops on a rejected key and resumes on refresh', async () => {
    const { clock, backend, store } = setup();
    const job = await store.start({ prompt: 'p' });
    backend.script({ id: job.id, events: [] });
    backend.failures.push({ method: 'trace', error: new HttpishError(401, 'Unauthorized: Invalid token') });
    await clock.advance(60_000);
    assert.equal(backend.countOf('trace'), 1);
    assert.match(store.get(job.id)!.pollError ?? '', /API key/);
    await store.refresh();
    await clock.advance(0);
    assert.equal(backend.countOf('trace'), 2, 'refresh polls at once');
    assert.equal(store.get(job.id)!.pollError, undefined);
  });

  it('fires a change event for the one job that changed', async () => {
    const { clock, backend, store } = setup();
    const a = await store.start({ prompt: 'a' });
    const b = await store.start({ prompt: 'b' });
    backend.script({ id: a.id, events: [{ at: 1000, event: ev('run.started', SYSTEM, clock.now() + 1000, 1) }] });
    backend.script({ id: b.id, events: [] });
    const changes: Array<string | undefined> = [];
    store.onDidChangeJob((id) => changes.push(id));
    await clock.advance(2_000);
    assert.deepEqual(changes, [a.id]);
  });
});

describe('job store: cancel, list, persistence', () => {
  it('cancels: marks the job cancelling and polls at once; 409 already finished is not an error', async () => {
    const { clock, backend, store } = setup();
    const job = await store.start({ prompt: 'p' });
    backend.script({ id: job.id, events: [] });
    await clock.advance(30_000);
    const before = backend.countOf('trace');
    assert.equal(await store.cancel(job.id), 'requested');
    assert.equal(jobState(store.get(job.id)!), 'cancelling');
    await clock.advance(0);
    assert.equal(backend.countOf('trace'), before + 1, 'polled right after the cancel');
    backend.failures.push({ method: 'cancel', error: new HttpishError(409, 'Agent already finished') });
    assert.equal(await store.cancel(job.id), 'already-finished');
    backend.failures.push({ method: 'cancel', error: new HttpishError(409, 'Agent is already cancelled') });
    assert.equal(await store.cancel(job.id), 'already-cancelled');
    backend.failures.push({ method: 'cancel', error: new HttpishError(403, 'Forbidden') });
    await assert.rejects(store.cancel(job.id), /Forbidden/);
  });

  it('adds jobs from the service list, keeps removed ones out, and polls the running ones', async () => {
    const { clock, backend, store } = setup({ canList: () => true });
    backend.script({ id: 'run-1', events: [] });
    backend.listJobs = {
      stopped: 'end',
      agents: [
        {
          id: 'run-1',
          createdAt: new Date(clock.now() - 1000).toISOString(),
          status: 'processing',
          options: { prompt: 'remote running' },
        },
        {
          id: 'old-1',
          createdAt: new Date(clock.now() - 86_400_000).toISOString(),
          status: 'completed',
          options: { prompt: 'remote done' },
        },
        {
          id: 'gone-1',
          createdAt: new Date(clock.now() - 5000).toISOString(),
          status: 'completed',
          options: { prompt: 'removed' },
        },
      ],
    };
    await store.refresh();
    store.remove('gone-1');
    await store.refresh();
    assert.deepEqual(
      store.jobs().map((j) => j.id),
      ['run-1', 'old-1'],
    );
    assert.equal(store.get('old-1')!.prompt, 'remote done');
    assert.equal(store.get('old-1')!.origin, 'service');
    await clock.advance(2_000);
    assert.deepEqual([...new Set(backend.calls.filter((c) => c.method === 'trace').map((c) => c.jobId))], ['run-1']);
  });

  it('round-trips through storage and resumes polling of running jobs only', async () => {
    const storage = new MapStorage();
    const clock = new ManualClock();
    const first = setup({}, storage, clock);
    const running = await first.store.start({ prompt: 'still running', maxCredits: 300, urls: ['https://a.example/'] });
    first.backend.script({
      id: running.id,
      events: [{ at: 1000, event: ev('run.started', SYSTEM, clock.now() + 1000, 1) }],
    });
    const done = await first.store.start({ prompt: 'will finish', maxCredits: 50 });
    standardRun(first.backend, done.id, 10_000, 'credit_limit_reached', {
      code: 'credit_limit_reached',
      source: 'billing',
      retryable: false,
      message: 'limit',
    });
    await clock.advance(30_000);
    await first.store.flush();
    const before = first.store.jobs();
    first.store.dispose();

    const second = setup({}, storage, clock);
    for (const b of [...first.backend.jobs.values()]) second.backend.jobs.set(b.id, b);
    const after = second.store.jobs();
    const plain = (x: unknown): unknown => JSON.parse(JSON.stringify(x));
    assert.deepEqual(plain(after), plain(before), 'every field survives a reload');
    const d = second.store.get(done.id)!;
    assert.equal(d.outcome, 'credit_limit_reached');
    assert.equal(d.maxCredits, 50);
    assert.equal(d.trace.finished, true);
    assert.equal(d.trace.eventCount, 7);
    assert.equal(jobState(d), 'credit_limit_reached');
    assert.equal(second.store.get(running.id)!.urls?.[0], 'https://a.example/');
    assert.equal(second.store.run(running.id).polling, true);
    assert.equal(second.store.run(done.id).polling, false);
    await clock.advance(2_000);
    assert.deepEqual(
      second.backend.calls.map((c) => c.jobId),
      [running.id],
      'only the running job is polled',
    );
    assert.ok(
      [...storage.map.keys()].some((k) => k.startsWith('devIndex.agent.job/')),
      'one record per job',
    );
  });

  it('does not notify again after a reload for a job that had already ended', async () => {
    const storage = new MapStorage();
    const clock = new ManualClock();
    const first = setup({}, storage, clock);
    const job = await first.store.start({ prompt: 'p' });
    standardRun(first.backend, job.id, 5_000);
    let ends = 0;
    first.store.onDidEndJob(() => ends++);
    await clock.advance(20_000);
    await first.store.flush();
    first.store.dispose();
    const second = setup({}, storage, clock);
    second.store.onDidEndJob(() => ends++);
    second.backend.jobs.set(job.id, first.backend.jobs.get(job.id)!);
    await second.store.runs.loadTrace(job.id);
    assert.equal(ends, 1);
    assert.equal(second.store.run(job.id).events.length, 7, 'the trace is read again on demand');
  });

  it('drops a removed job and stops polling it', async () => {
    const { clock, backend, store } = setup();
    const job = await store.start({ prompt: 'p' });
    backend.script({ id: job.id, events: [] });
    store.remove(job.id);
    await clock.advance(60_000);
    assert.equal(backend.countOf('trace'), 0);
    assert.equal(store.runs.nextPollAt(), undefined);
    assert.equal(clock.armed, 1, "no poll timer: only the visible view's storage check");
  });
});

describe('job store: what counts as news for the schedule', () => {
  /** A busy run: a tool call starting or finishing every second, progress messages within `working`. */
  function chattyRun(b: FakeBackend, id: string, end: number, finalizingAt: number): void {
    const t0 = b.now();
    const events: ScriptedJob['events'] = [
      { at: 100, event: ev('run.started', SYSTEM, t0 + 100, 1) },
      { at: 500, event: ev('progress.reported', ORCH, t0 + 500, 1, { phase: 'working', message: 'Starting' }) },
    ];
    let seq = 1;
    for (let t = 1000; t < finalizingAt; t += 1000) {
      const type = (t / 1000) % 2 ? 'tool_call.started' : 'tool_call.finished';
      events.push({ at: t, event: ev(type, ORCH, t0 + t, ++seq, { toolCallId: `t${t}`, toolName: 'navigate' }) });
      if (t % 5000 === 0)
        events.push({
          at: t + 1,
          event: ev('progress.reported', ORCH, t0 + t + 1, ++seq, { phase: 'working', message: `step ${t}` }),
        });
    }
    events.push({
      at: finalizingAt,
      event: ev('progress.reported', ORCH, t0 + finalizingAt, ++seq, { phase: 'finalizing', message: 'Writing up' }),
    });
    events.push({ at: end, event: ev('run.finished', SYSTEM, t0 + end, 2, { outcome: 'succeeded', error: null }) });
    b.script({ id, events, endAt: end, endStatus: 'completed', credits: 50 });
  }

  it('backs off to 10 s while a run only reports tool calls and messages within one phase', async () => {
    const { clock, backend, store } = setup();
    const job = await store.start({ prompt: 'p', maxCredits: 500 });
    chattyRun(backend, job.id, 120_000, 110_000);
    const t0 = clock.now();
    await clock.advance(100_000);
    const gapsSeen = gaps(traceTimes(backend, job.id).map((t) => t - t0));
    assert.equal(gapsSeen.at(-1), 10_000, `backed off despite an event every second: ${gapsSeen}`);
    assert.ok(store.run(job.id).events.length > 50, 'the events were read all the same');
  });

  it('polls at about 0.5 s from the finalizing phase on and detects the end within that', async () => {
    const { clock, backend, store } = setup();
    const job = await store.start({ prompt: 'p', maxCredits: 500 });
    chattyRun(backend, job.id, 120_000, 105_000);
    let endedAt: number | undefined;
    store.onDidEndJob(() => {
      endedAt = clock.now();
    });
    const t0 = clock.now();
    await clock.advance(140_000);
    const ts = traceTimes(backend, job.id).map((t) => t - t0);
    const seen = ts.find((t) => t >= 105_000)!;
    assert.ok(seen - 105_000 <= 10_000, 'the finalizing phase is seen within the backoff ceiling');
    const window = ts.filter((t) => t > seen && t <= 120_000);
    assert.ok(
      gaps([seen, ...window]).every((g) => g <= 2000),
      `at most 2 s apart in the end window: ${window}`,
    );
    assert.equal(window[0]! - seen, 500, 'the first poll after the signal comes 0.5 s later');
    assert.ok(
      endedAt !== undefined && endedAt - (t0 + 120_000) <= 2000,
      `end detected ${endedAt! - t0 - 120_000} ms after run.finished`,
    );
  });

  it('reads the status record only once, in the poll that sees run.finished (the result to keep)', async () => {
    // A safety net longer than the run's quiet spells: only the end's read is left.
    const { clock, backend, store } = setup({ statusEveryMs: 300_000 });
    const job = await store.start({ prompt: 'p', maxCredits: 500 });
    standardRun(backend, job.id, 200_000);
    const t0 = clock.now();
    await clock.advance(220_000);
    assert.equal(store.run(job.id).polling, false);
    assert.equal(store.get(job.id)!.status, 'completed');
    const reads = backend.calls.filter((c) => c.method === 'status').map((c) => c.at - t0);
    assert.equal(reads.length, 1, `one status request over a 200 s run: ${reads}`);
    assert.ok(reads[0]! >= 200_000, 'and not before the run finished');
    assert.equal(store.get(job.id)!.finalRead, true);
  });

  it('reads the status once as a safety net when the trace has brought nothing new for statusEveryMs', async () => {
    const { clock, backend, store } = setup({ statusEveryMs: 300_000 });
    const job = await store.start({ prompt: 'p', maxCredits: 500 });
    backend.script({ id: job.id, events: [], endAt: 400_000, endStatus: 'completed', credits: 10 });
    await clock.advance(299_000);
    assert.equal(backend.countOf('status'), 0);
    await clock.advance(16_000);
    assert.equal(backend.countOf('status'), 1, 'one status read after 5 minutes without news');
  });

  it('by default a quiet trace is followed by a status read within about 15 s: how a run waiting for the caller is noticed', async () => {
    const { clock, backend, store } = setup();
    const job = await store.start({ prompt: 'p', maxCredits: 500 });
    backend.script({
      id: job.id,
      events: [],
      endAt: 400_000,
      endStatus: 'completed',
      credits: 10,
      record: { pendingApproval: { id: 'a1', kind: 'calls', calls: [], resolution: null } },
    });
    await clock.advance(14_000);
    assert.equal(backend.countOf('status'), 0, 'not while the run may still be starting');
    await clock.advance(12_000);
    assert.equal(backend.countOf('status'), 1);
    assert.equal(jobStateOf(store.get(job.id)!), 'waiting', 'the record said it waits: no trace event was needed');
  });

  it('treats a cancel request, an orchestrator that finished and credits near the ceiling as the end being near', async () => {
    for (const [name, extra] of [
      ['cancel requested', { at: 10_000, event: ev('run.cancel_requested', SYSTEM, 0, 5, { reason: 'user' }) }],
      ['orchestrator finished', { at: 10_000, event: ev('agent.finished', ORCH, 0, 5, { outcome: 'succeeded' }) }],
      [
        'non-retryable error',
        {
          at: 10_000,
          event: ev('error.occurred', SYSTEM, 0, 5, {
            error: { code: 'credit_limit_reached', source: 'billing', retryable: false, message: 'x' },
          }),
        },
      ],
    ] as const) {
      const { clock, backend, store } = setup();
      const job = await store.start({ prompt: 'p', maxCredits: 500 });
      backend.script({
        id: job.id,
        events: [
          { at: extra.at, event: { ...extra.event, occurredAt: new Date(clock.now() + extra.at).toISOString() } },
        ],
        credits: 10,
      });
      const t0 = clock.now();
      await clock.advance(60_000);
      const after = traceTimes(backend, job.id)
        .map((t) => t - t0)
        .filter((t) => t >= 10_000);
      assert.ok(
        after.length >= 3 && after[1]! - after[0]! === 500,
        `${name}: 0.5 s after the signal (${after.slice(0, 4)})`,
      );
    }
    const { clock, backend, store } = setup();
    const job = await store.start({ prompt: 'p', maxCredits: 100 });
    backend.script({ id: job.id, events: [], credits: 95 });
    const t0 = clock.now();
    await clock.advance(5_000);
    assert.deepEqual(
      traceTimes(backend, job.id)
        .map((t) => t - t0)
        .slice(0, 3),
      [2000, 2500, 3250],
      '95 of 100 credits used: near the end (0.5 s, then backing off inside the window)',
    );
  });

  it('treats the credit ceiling as near once one more step as costly as the costliest so far would reach it', async () => {
    const { clock, backend, store } = setup();
    const job = await store.start({ prompt: 'p', maxCredits: 100 });
    const scripted = backend.script({ id: job.id, events: [], credits: 10 });
    const t0 = clock.now();
    await clock.advance(2_000);
    scripted.credits = 40;
    await clock.advance(3_000);
    assert.deepEqual(
      traceTimes(backend, job.id).map((t) => t - t0),
      [2000, 5000],
      '40 + a step of 30 < 100: still backing off',
    );
    scripted.credits = 70;
    await clock.advance(5_000);
    const ts = traceTimes(backend, job.id).map((t) => t - t0);
    assert.equal(ts[2], 9500);
    assert.equal(ts[3], 10_000, '70 + a step of 30 reaches 100: 0.5 s');
  });
});

describe('job store: cancelled, partial and expired runs (production wire)', () => {
  it('a cancelled run ends as cancelled, with the credits it spent shown as spent', async () => {
    const { clock, backend, store } = setup();
    const job = await store.start({ prompt: 'cancel me', maxCredits: 500 });
    const t0 = clock.now();
    backend.script({
      id: job.id,
      credits: 37,
      endAt: 8_000,
      endStatus: 'cancelled',
      endError: 'The agent run was cancelled by the user.',
      events: [
        { at: 1_000, event: ev('run.started', SYSTEM, t0 + 1_000, 1) },
        {
          at: 8_000,
          event: ev('run.finished', SYSTEM, t0 + 8_000, 2, {
            outcome: 'cancelled',
            error: { code: 'cancelled', source: 'system', retryable: false, message: 'cancelled' },
          }),
        },
      ],
    });
    const ended: string[] = [];
    store.onDidEndJob((j) => ended.push(j.id));
    await clock.advance(20_000);
    const j = store.get(job.id)!;
    assert.equal(j.status, 'cancelled');
    assert.equal(jobState(j), 'cancelled');
    assert.equal(j.creditsUsed, 37);
    assert.match(jobDescription(j), /^cancelled · 37 credits spent$/);
    assert.match(editorEndMessage(j)!.text, /used 37 credits before it stopped/);
    assert.doesNotMatch(editorEndMessage(j)!.text, /not billed/);
    assert.deepEqual(ended, [job.id]);
    assert.doesNotMatch(jobContextValue(j), /cancellable/);
  });

  it('a run stopped at its credit ceiling keeps its partial result, openable from the row', async () => {
    const { clock, backend, store, storage } = setup();
    const job = await store.start({ prompt: 'too big', maxCredits: 50 });
    standardRun(backend, job.id, 10_000, 'credit_limit_reached', {
      code: 'credit_limit_reached',
      source: 'billing',
      retryable: false,
      message: 'limit',
    });
    backend.jobs.get(job.id)!.partial = { items: [{ title: 'first' }] };
    await clock.advance(30_000);
    const j = store.get(job.id)!;
    assert.equal(jobState(j), 'credit_limit_reached');
    assert.equal(j.hasPartial, true);
    assert.deepEqual(j.kept, { result: false, partial: true });
    assert.match(jobContextValue(j), /;partial(;|$)/);
    assert.doesNotMatch(jobContextValue(j), /;result(;|$)/);
    assert.match(jobDescription(j), /partial result/);
    assert.deepEqual(endActions(j), ['Open Partial Result', 'Start Again…']);
    const view = await store.runs.result(job.id, 'partial');
    assert.deepEqual(view.data, { items: [{ title: 'first' }] });
    assert.ok(storage.map.has(`devIndex.agent.result/${job.id}`), 'kept in its own key');
  });

  it('keeps a finished result before expiry; after it, a 404 reads "expired" and the kept copy still opens after a reload', async () => {
    const storage = new MapStorage();
    const clock = new ManualClock();
    const first = setup({}, storage, clock);
    const job = await first.store.start({ prompt: 'expiring', maxCredits: 500 });
    const expiresAt = new Date(clock.now() + 60_000).toISOString();
    standardRun(first.backend, job.id, 10_000);
    Object.assign(first.backend.jobs.get(job.id)!, { data: { answer: 42 }, expiresAt, expireAt: 60_000 });
    await clock.advance(30_000);
    assert.deepEqual(first.store.get(job.id)!.kept, { result: true, partial: false });
    assert.equal(first.store.get(job.id)!.expiresAt, expiresAt);
    await first.store.flush();
    first.store.dispose();

    await clock.advance(60_000);
    const second = setup({}, storage, clock);
    second.backend.jobs.set(job.id, first.backend.jobs.get(job.id)!);
    const view = await second.store.runs.result(job.id);
    assert.equal(view.source, 'kept');
    assert.deepEqual(view.data, { answer: 42 });
    assert.equal(view.expiredOn, expiresAt);
    const j = second.store.get(job.id)!;
    assert.equal(j.expired, true);
    assert.equal(j.notFound, undefined, 'expired, not "not found"');
    assert.equal(jobState(j), 'expired');
    assert.match(jobDescription(j), /^expired on .+ · result kept$/);
    assert.match(jobContextValue(j), /^job;expired;result$/, 'Open Result stays; no trace, no cancel');
  });

  it('a 404 before the expiry is "not found", not "expired"', async () => {
    const { clock, backend, store } = setup();
    const job = await store.start({ prompt: 'p', maxCredits: 500 });
    backend.script({
      id: job.id,
      events: [],
      expiresAt: new Date(clock.now() + 86_400_000).toISOString(),
      expireAt: 0,
    });
    await clock.advance(3_000);
    const j = store.get(job.id)!;
    assert.equal(j.notFound, true);
    assert.equal(jobState(j), 'not_found');
  });

  it('forgets the kept copy when the job is removed', async () => {
    const { clock, backend, store, storage } = setup();
    const job = await store.start({ prompt: 'p', maxCredits: 500 });
    standardRun(backend, job.id, 5_000);
    backend.jobs.get(job.id)!.data = { x: 1 };
    await clock.advance(20_000);
    assert.ok(storage.map.has(`devIndex.agent.result/${job.id}`));
    store.remove(job.id);
    await store.flush();
    assert.equal(storage.map.has(`devIndex.agent.result/${job.id}`), false);
  });
});
