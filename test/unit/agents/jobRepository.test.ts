// Agent job persistence with several windows over one storage (globalState is shared by every window
// of the editor): one record per job, tombstones for removals, merge on write, newer formats left
// untouched, pruning by age and count.
import { DisposableStore, settleAll } from '../../../src/agents/emitter';
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { JobStore } from '../../../src/agents/jobStore';
import { JOB_KEY_PREFIX, JobRepository, storedJobs, TOMBSTONE_KEY_PREFIX } from '../../../src/agents/jobRepository';
import { mergeJobs } from '../../../src/agents/jobEvents';
import { SAVE_RETRY_MAX_MS } from '../../../src/storage/sharedRecords';
import { type AgentJob, STORAGE_KEY } from '../../../src/agents/jobModel';
import type { RecordStorage } from '../../../src/storage/sharedRecords';
import { FakeBackend } from './fakeBackend';
import { ManualClock } from './manualClock';
import { seededRandom } from '../../support/seededRandom';

/** One storage for every window, like globalState: values are copies, undefined deletes. */
class SharedStorage implements RecordStorage {
  readonly map = new Map<string, string>();
  writes = 0;
  get<T>(key: string): T | undefined {
    const v = this.map.get(key);
    return v === undefined ? undefined : (JSON.parse(v) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.writes++;
    // A write lands a little later, as globalState's do, so windows really interleave.
    await Promise.resolve();
    if (value === undefined) this.map.delete(key);
    else this.map.set(key, JSON.stringify(value));
  }
  keys(): readonly string[] {
    return [...this.map.keys()];
  }
}

/**
 * A storage that misbehaves as a full disk or an exceeded quota does: `refuse(key)` true makes that
 * write fail; `gate` holds every write until the test opens it. Records when each write was tried.
 */
class FlakyStorage extends SharedStorage {
  refuse: (key: string) => boolean = () => false;
  gate: Promise<void> | undefined;
  readonly tried: Array<{ key: string; at: number }> = [];
  constructor(private readonly clock: ManualClock) {
    super();
  }
  override async update(key: string, value: unknown): Promise<void> {
    this.tried.push({ key, at: this.clock.now() });
    if (this.gate) await this.gate;
    if (this.refuse(key)) throw new Error('ENOSPC: no space left on device');
    return super.update(key, value);
  }
}

const job = (id: string, extra: Partial<AgentJob> = {}): AgentJob => ({
  id,
  prompt: id,
  createdAt: 1,
  origin: 'user',
  status: 'processing',
  trace: { eventCount: 0, finished: false },
  ...extra,
});

describe('agent job persistence across windows', () => {
  it('two windows, interleaved starts, removes and reloads: no job lost, none resurrected', async () => {
    const storage = new SharedStorage();
    const clock = new ManualClock();
    const backend = new FakeBackend(() => clock.now());
    const open = (): JobStore => {
      const s = new JobStore({ backend: () => backend, storage, timers: clock, hidden: true });
      s.resume();
      return s;
    };
    const windows = [open(), open()];
    const random = seededRandom(7);
    const started = new Set<string>();
    const removed = new Set<string>();
    for (let step = 0; step < 200; step++) {
      const w = Math.floor(random() * 2);
      const r = random();
      if (r < 0.5) {
        started.add((await windows[w]!.start({ prompt: `job ${step}` })).id);
      } else if (r < 0.75) {
        // Remove a job this window knows (it may be one the other window started).
        windows[w]!.sync();
        const known = windows[w]!.jobs().filter((j) => !removed.has(j.id));
        if (known.length) {
          const victim = known[Math.floor(random() * known.length)]!.id;
          windows[w]!.remove(victim);
          removed.add(victim);
        }
      } else if (r < 0.85) {
        // A reload: the window is closed and opened again from storage.
        await windows[w]!.flush();
        windows[w]!.dispose();
        windows[w] = open();
      } else {
        // Refresh: every running job is polled again and writes what it learned (this window's view).
        await windows[w]!.refresh();
      }
      if (step % 10 === 0) await clock.advance(1_000);
    }
    for (const w of windows) await w.flush();
    for (const w of windows) w.sync();
    const expected = [...started].filter((id) => !removed.has(id)).sort();
    const fresh = open();
    const stored = fresh
      .jobs()
      .map((j) => j.id)
      .sort();
    const lost = expected.filter((id) => !stored.includes(id));
    const resurrected = stored.filter((id) => removed.has(id));
    assert.deepEqual({ lost: lost.length, resurrected: resurrected.length }, { lost: 0, resurrected: 0 });
    assert.ok(
      expected.length > 20 && removed.size > 10,
      `a real mix: ${expected.length} kept, ${removed.size} removed`,
    );
    for (const w of windows)
      assert.deepEqual(
        w
          .jobs()
          .map((j) => j.id)
          .sort(),
        expected,
        'each window converges on the same list',
      );
    for (const w of [...windows, fresh]) w.dispose();
  });

  it('a window learns of a job started in another window without a reload, and of its removal', async () => {
    const storage = new SharedStorage();
    const clock = new ManualClock();
    const backend = new FakeBackend(() => clock.now());
    const a = new JobStore({ backend: () => backend, storage, timers: clock, syncEveryMs: 5_000 });
    const b = new JobStore({ backend: () => backend, storage, timers: clock, syncEveryMs: 5_000 });
    a.resume();
    b.resume();
    const structural: number[] = [];
    b.onDidChangeJob((id) => {
      if (id === undefined) structural.push(clock.now());
    });
    const j = await a.start({ prompt: 'from window A' });
    await a.flush();
    assert.equal(b.get(j.id), undefined);
    await clock.advance(5_000);
    assert.equal(b.get(j.id)?.prompt, 'from window A', 'seen within the storage check interval');
    assert.ok(structural.length >= 1, 'the tree is told');
    a.remove(j.id);
    await a.flush();
    await clock.advance(5_000);
    assert.equal(b.get(j.id), undefined, 'the removal reaches the other window too');
    a.dispose();
    b.dispose();
  });

  it('only one window tells the user that a job both were following has ended', async () => {
    const storage = new SharedStorage();
    const repoA = new JobRepository(storage, () => 0);
    repoA.save(job('j1', { status: 'completed', notified: true }));
    await repoA.flush();
    const merged = new JobRepository(storage, () => 0).save(job('j1', { status: 'processing' }))!;
    assert.equal(merged.notified, true);
    assert.equal(merged.status, 'completed', 'a stale view never undoes the end');
  });

  it('merges two views: every fact that only grows keeps its furthest value', () => {
    const a = job('x', {
      status: 'completed',
      notified: true,
      trace: { eventCount: 9, finished: true },
      kept: { result: true, partial: false },
    });
    const b = job('x', {
      status: 'processing',
      pollError: undefined,
      trace: { eventCount: 4, finished: false },
      kept: { result: false, partial: true },
    });
    const m = mergeJobs(a, b);
    assert.equal(m.status, 'completed');
    assert.equal(m.trace.eventCount, 9);
    assert.equal(m.trace.finished, true);
    assert.deepEqual(m.kept, { result: true, partial: true });
    assert.equal(m.notified, true);
  });

  it('keeps a record of a newer format untouched: read as far as understood, never overwritten or deleted', async () => {
    const storage = new SharedStorage();
    const future = { format: 99, job: { ...job('n1'), futureField: { x: 1 } }, updatedAt: 5, newTopLevel: true };
    storage.map.set(JOB_KEY_PREFIX + 'n1', JSON.stringify(future));
    const newerList = { format: 7, jobs: [job('old')], somethingNew: [1] };
    storage.map.set(STORAGE_KEY, JSON.stringify(newerList));
    const clock = new ManualClock();
    const backend = new FakeBackend(() => clock.now());
    const store = new JobStore({ backend: () => backend, storage, timers: clock, hidden: true });
    store.resume();
    assert.equal(store.get('n1')?.prompt, 'n1', 'shown from what this build understands');
    backend.script({ id: 'n1', events: [], endAt: 0, endStatus: 'completed' });
    await clock.advance(10_000);
    store.remove('n1');
    await store.flush();
    assert.deepEqual(
      JSON.parse(storage.map.get(JOB_KEY_PREFIX + 'n1')!),
      future,
      'the newer record is exactly as it was',
    );
    assert.deepEqual(JSON.parse(storage.map.get(STORAGE_KEY)!), newerList, 'a newer list format is left alone');
    store.dispose();
  });

  it('moves a format-1 list into one record per job, tombstones included', async () => {
    const storage = new SharedStorage();
    storage.map.set(STORAGE_KEY, JSON.stringify({ format: 1, jobs: [job('a'), job('gone')], removed: ['gone'] }));
    const repo = new JobRepository(storage, () => 1000);
    assert.deepEqual(
      repo.load().map((j) => j.id),
      ['a'],
    );
    await repo.flush();
    assert.equal(storage.map.has(STORAGE_KEY), false);
    assert.ok(storage.map.has(`${JOB_KEY_PREFIX}a`));
    assert.ok(storage.map.has(`${TOMBSTONE_KEY_PREFIX}gone`));
    assert.equal(storage.map.has(`${JOB_KEY_PREFIX}gone`), false);
  });

  it("prunes tombstones and ended jobs from the service list by age and by count; the user's own jobs stay", async () => {
    const storage = new SharedStorage();
    const day = 24 * 3600_000;
    let now = 100 * day;
    const repo = new JobRepository(storage, () => now, undefined, {
      tombstoneMaxAgeMs: 30 * day,
      tombstoneMaxCount: 3,
      listedMaxAgeMs: 14 * day,
      listedMaxCount: 2,
    });
    for (let i = 0; i < 5; i++) {
      now = 100 * day + i;
      repo.remove(`t${i}`);
    }
    now = 60 * day;
    repo.remove('ancient');
    now = 100 * day;
    for (let i = 0; i < 4; i++)
      repo.save(job(`l${i}`, { origin: 'service', status: 'completed', createdAt: now - i * day }));
    repo.save(job('old-listed', { origin: 'service', status: 'completed', createdAt: now - 20 * day }));
    repo.save(job('running-listed', { origin: 'service', status: 'processing', createdAt: now - 20 * day }));
    repo.save(job('mine', { origin: 'user', status: 'completed', createdAt: now - 90 * day }));
    await repo.flush();
    repo.prune();
    await repo.flush();
    const stones = [...storage.map.keys()]
      .filter((k) => k.startsWith(TOMBSTONE_KEY_PREFIX))
      .map((k) => k.slice(TOMBSTONE_KEY_PREFIX.length))
      .sort();
    assert.deepEqual(stones, ['t2', 't3', 't4'], 'the 3 newest tombstones; the 30-day-old one is gone');
    const jobs = [...storage.map.keys()]
      .filter((k) => k.startsWith(JOB_KEY_PREFIX))
      .map((k) => k.slice(JOB_KEY_PREFIX.length))
      .sort();
    assert.deepEqual(jobs, ['l0', 'l1', 'mine', 'running-listed']);
  });

  it('a job whose first write is refused (full disk) is written by a retry with backoff, says so in the log, and survives a reload', async () => {
    const clock = new ManualClock();
    const storage = new FlakyStorage(clock);
    let refusals = 3;
    storage.refuse = (key) => key.startsWith(JOB_KEY_PREFIX) && refusals-- > 0;
    const logs: string[] = [];
    const backend = new FakeBackend(() => clock.now());
    const store = new JobStore({
      backend: () => backend,
      storage,
      timers: clock,
      hidden: true,
      onLog: (m) => logs.push(m),
    });
    store.resume();
    const t0 = clock.now();
    const j = await store.start({ prompt: 'kept despite a full disk' });
    await clock.advance(30_000);
    const tries = storage.tried.filter((w) => w.key === JOB_KEY_PREFIX + j.id).map((w) => w.at - t0);
    assert.deepEqual(tries.slice(0, 4), [0, 1_000, 3_000, 7_000], `tried again after 1, 2 and 4 s: ${tries}`);
    assert.ok(storage.map.has(JOB_KEY_PREFIX + j.id), 'the record is in storage');
    assert.match(
      logs.join('\n'),
      new RegExp(
        `could not save agent job ${j.id} \\(attempt 1\\): Error: ENOSPC: no space left on device; trying again in 1 s`,
      ),
    );
    assert.match(logs.join('\n'), new RegExp(`saved agent job ${j.id} after 4 attempts`));
    store.dispose();
    const reloaded = new JobStore({ backend: () => backend, storage, timers: clock, hidden: true });
    assert.equal(reloaded.get(j.id)?.prompt, 'kept despite a full disk', 'a reload still has the job');
    reloaded.dispose();
  });

  it('retries of a write that keeps failing back off to at most one a minute, and stop when the window closes', async () => {
    const clock = new ManualClock();
    const storage = new FlakyStorage(clock);
    storage.refuse = () => true;
    const repo = new JobRepository(storage, () => clock.now(), undefined, undefined, clock);
    repo.save(job('stuck'));
    await clock.advance(15 * 60_000);
    const at = storage.tried.map((w) => w.at);
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    assert.deepEqual(gaps.slice(0, 7), [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, SAVE_RETRY_MAX_MS]);
    assert.ok(
      gaps.every((g) => g <= SAVE_RETRY_MAX_MS),
      `bounded: ${gaps}`,
    );
    assert.ok(repo.isUnsaved('stuck'));
    const n = storage.tried.length;
    await repo.dispose();
    assert.equal(storage.tried.length, n + 1, 'tried once more as the window closes');
    await clock.advance(10 * 60_000);
    assert.equal(storage.tried.length, n + 1, 'and no retry after that');
    assert.equal(clock.armed, 0);
  });

  it('a job whose first write was refused is written once more when the window closes within the 1 s retry, and survives the reload', async () => {
    const clock = new ManualClock();
    const storage = new FlakyStorage(clock);
    let refusals = 1;
    storage.refuse = (key) => key.startsWith(JOB_KEY_PREFIX) && refusals-- > 0;
    const backend = new FakeBackend(() => clock.now());
    const store = new JobStore({ backend: () => backend, storage, timers: clock, hidden: true });
    store.resume();
    const j = await store.start({ prompt: 'closed too soon' });
    assert.equal(store.isUnsaved(j.id), true, 'the first write was refused');
    assert.equal(storage.map.has(JOB_KEY_PREFIX + j.id), false);
    await clock.advance(500);
    store.dispose();
    await store.flush();
    assert.equal(
      storage.tried.filter((w) => w.key === JOB_KEY_PREFIX + j.id).length,
      2,
      'tried again on dispose, before the 1 s retry was due',
    );
    const reloaded = new JobStore({ backend: () => backend, storage, timers: clock, hidden: true });
    assert.equal(reloaded.get(j.id)?.prompt, 'closed too soon', 'the job is still there after the reload');
    reloaded.dispose();
  });

  it("a job whose first save was refused is in storage once deactivate's promise settles (the dispose chain hands back the write)", async () => {
    const clock = new ManualClock();
    const storage = new FlakyStorage(clock);
    let refusals = 1;
    storage.refuse = (key) => key.startsWith(JOB_KEY_PREFIX) && refusals-- > 0;
    const backend = new FakeBackend(() => clock.now());
    const store = new JobStore({ backend: () => backend, storage, timers: clock, hidden: true });
    store.resume();
    const j = await store.start({ prompt: 'window closed at once' });
    assert.equal(storage.map.has(JOB_KEY_PREFIX + j.id), false, 'the first write was refused');
    // What deactivate returns (src/wiring.ts settleOnDeactivate): the subscriptions disposed and their promises awaited.
    const owner = new DisposableStore();
    owner.register(store);
    await settleAll([owner]);
    assert.equal(storage.map.has(JOB_KEY_PREFIX + j.id), true, 'written before deactivate settled');
  });

  it("start() resolves only once the job's record is in storage; until then the job is not shown", async () => {
    const clock = new ManualClock();
    const storage = new FlakyStorage(clock);
    let open!: () => void;
    storage.gate = new Promise<void>((r) => {
      open = r;
    });
    const backend = new FakeBackend(() => clock.now());
    const store = new JobStore({ backend: () => backend, storage, timers: clock, hidden: true });
    store.resume();
    const shown: number[] = [];
    store.onDidChangeJob((id) => {
      if (id === undefined) shown.push(store.jobs().length);
    });
    let inStorageWhenResolved: boolean | undefined;
    const started = store.start({ prompt: 'write me first' }).then((j) => {
      inStorageWhenResolved = storage.map.has(JOB_KEY_PREFIX + j.id);
      return j;
    });
    await clock.advance(1_000);
    assert.equal(inStorageWhenResolved, undefined, 'start() has not resolved while the record is being written');
    assert.deepEqual(store.jobs(), [], 'the job is not shown before its record is written');
    assert.deepEqual(shown, []);
    store.sync();
    assert.deepEqual(store.jobs(), [], "not even through this window's own pending write");
    open();
    storage.gate = undefined;
    const j = await started;
    assert.equal(inStorageWhenResolved, true, 'resolved only once the record was in storage');
    assert.equal(store.isUnsaved(j.id), false);
    assert.deepEqual(
      store.jobs().map((x) => x.id),
      [j.id],
    );
    assert.deepEqual(shown, [1]);
    store.dispose();
  });

  it('when storage refuses the record, start() still shows the job, says it is not saved, and keeps retrying until it is', async () => {
    const clock = new ManualClock();
    const storage = new FlakyStorage(clock);
    let full = true;
    storage.refuse = (key) => full && key.startsWith(JOB_KEY_PREFIX);
    const logs: string[] = [];
    const backend = new FakeBackend(() => clock.now());
    const store = new JobStore({
      backend: () => backend,
      storage,
      timers: clock,
      hidden: true,
      onLog: (m) => logs.push(m),
    });
    store.resume();
    const changed: Array<string | undefined> = [];
    store.onDidChangeJob((id) => changed.push(id));
    const j = await store.start({ prompt: 'not saved yet' });
    assert.equal(store.get(j.id)?.prompt, 'not saved yet', 'shown');
    assert.equal(store.isUnsaved(j.id), true);
    assert.match(
      logs.join('\n'),
      new RegExp(`job ${j.id} started but is NOT saved in the editor's storage yet; it is shown and saving is retried`),
    );
    await clock.advance(5 * 60_000);
    assert.equal(store.isUnsaved(j.id), true, 'still refused');
    assert.ok(storage.tried.filter((w) => w.key === JOB_KEY_PREFIX + j.id).length >= 6, 'and still tried');
    full = false;
    await clock.advance(SAVE_RETRY_MAX_MS);
    assert.equal(store.isUnsaved(j.id), false, 'saved by a retry');
    assert.ok(changed.includes(j.id), 'the tree is told');
    await store.flush();
    const reloaded = new JobStore({ backend: () => backend, storage, timers: clock, hidden: true });
    assert.equal(reloaded.get(j.id)?.prompt, 'not saved yet');
    reloaded.dispose();
    store.dispose();
  });

  it('a storage that never answers holds start() for 10 s at most: the job is then shown as not saved', async () => {
    const clock = new ManualClock();
    const storage = new FlakyStorage(clock);
    storage.gate = new Promise<void>(() => undefined);
    const backend = new FakeBackend(() => clock.now());
    const store = new JobStore({ backend: () => backend, storage, timers: clock, hidden: true });
    store.resume();
    let resolved = false;
    const started = store.start({ prompt: 'hung storage' }).then((j) => {
      resolved = true;
      return j;
    });
    await clock.advance(9_000);
    assert.equal(resolved, false);
    await clock.advance(1_000);
    const j = await started;
    assert.equal(store.get(j.id)?.prompt, 'hung storage');
    assert.equal(store.isUnsaved(j.id), true, 'said to be not saved');
    store.dispose();
  });
});

describe('storedJobs: whether activation must build the agent jobs feature at once', () => {
  it('an empty storage, ended jobs and tombstones need nothing; a running job, a format-1 list or any record when asked for all do', async () => {
    const storage = new SharedStorage();
    assert.equal(storedJobs(storage, true), false);
    assert.equal(storedJobs(storage, false), false);
    const repo = new JobRepository(storage, () => 1000);
    repo.save(job('done', { status: 'completed' }));
    repo.save(job('gone', { status: 'processing', notFound: true }));
    await repo.flush();
    assert.equal(storedJobs(storage, true), false, 'no job to follow');
    assert.equal(storedJobs(storage, false), true, 'but jobs are stored (a key change re-reads them)');
    repo.save(job('running', { status: 'processing' }));
    await repo.flush();
    assert.equal(storedJobs(storage, true), true, 'a running job resumes at activation');
    const legacy = new SharedStorage();
    await legacy.update(STORAGE_KEY, { format: 1, jobs: [], removed: [] });
    assert.equal(storedJobs(legacy, true), true, 'a format-1 list is migrated by the store');
    const other = new SharedStorage();
    await other.update(`${TOMBSTONE_KEY_PREFIX}x`, { format: 2, removedAt: 1 });
    await other.update('devIndex.search.history', ['q']);
    assert.equal(storedJobs(other, false), false, 'tombstones and other keys are not jobs');
  });
});
