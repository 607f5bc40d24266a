// Watch for a Fix in the editor, the pure parts and the service without the editor: the lease
// (take, renew, expiry, takeover) on an injected clock, the schedule (never more often than 6 hours; pauses
// for offline, rate limits and the keyless quota), what is new, the compare again with a new installed
// version, and two windows (two services) over one shared storage with one watcher.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SearchParams } from '../../../src/api/params';
import type { SearchResponse } from '../../../src/api/schemas';
import { checkWatch, mergeWatch, newWatch, recompare, WATCH_INTERVAL_MS, type Watch } from '../../../src/deps/watch';
import { checkedWords } from '../../../src/words/duration';
import { holds, LEASE_KEY, LEASE_RENEW_MS, LEASE_TTL_MS, leaseStep } from '../../../src/watches/lease';
import { afterFailure, dueWatches, nextDueAt, OFFLINE_FIRST_MS, OFFLINE_MAX_MS } from '../../../src/watches/schedule';
import { WATCH_KEY_PREFIX, WatchService, type WatchEvent } from '../../../src/watches/watcher';
import { newsText, watchScopeWords } from '../../../src/watches/watchText';
import { ManualClock } from '../agents/manualClock';

const dep = { ecosystem: 'npm' as const, name: 'fetchline', slug: 'fetchline/fetchline', version: '3.2.0' };
const result = (n: number, passage: string, title = `Issue ${n}`) => ({
  id: `issue:fetchline/fetchline#${n}`,
  type: 'issue',
  url: `https://github.com/fetchline/fetchline/issues/${n}`,
  title,
  passages: [{ text: passage }],
});
const response = (...results: ReturnType<typeof result>[]): SearchResponse =>
  ({ success: true, results, coverage: { issue: 'ok' } }) as unknown as SearchResponse;
const params: SearchParams = {
  query: 'retry after ignored',
  repos: ['fetchline/fetchline'],
  types: ['issue', 'pull_request'],
};

class Storage {
  readonly map = new Map<string, string>();
  writes = 0;
  get<T>(key: string): T | undefined {
    const v = this.map.get(key);
    return v === undefined ? undefined : (JSON.parse(v) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.writes++;
    if (value === undefined) this.map.delete(key);
    else this.map.set(key, JSON.stringify(value));
  }
  keys(): readonly string[] {
    return [...this.map.keys()];
  }
}

test('lease: a free lease is taken, its holder renews it, another window waits until it expires, then takes it over', () => {
  const t0 = 1_000_000;
  const a = leaseStep(undefined, 'A', t0);
  assert.deepEqual(a, { action: 'take', lease: { owner: 'A', expiresAt: t0 + LEASE_TTL_MS } });
  const stored = (a as { lease: unknown }).lease;
  assert.equal(holds(stored, 'A', t0), true);
  assert.equal(holds(stored, 'B', t0), false);
  assert.deepEqual(leaseStep(stored, 'B', t0 + 1000), { action: 'wait', holder: 'A', until: t0 + LEASE_TTL_MS });
  const renewed = leaseStep(stored, 'A', t0 + LEASE_RENEW_MS);
  assert.deepEqual(renewed, { action: 'renew', lease: { owner: 'A', expiresAt: t0 + LEASE_RENEW_MS + LEASE_TTL_MS } });
  // A holds the lease as long as it renews; once it stops, B takes over at expiry and not a millisecond before.
  const last = (renewed as { lease: { expiresAt: number } }).lease;
  assert.equal(leaseStep(last, 'B', last.expiresAt - 1).action, 'wait');
  assert.deepEqual(leaseStep(last, 'B', last.expiresAt), {
    action: 'take',
    lease: { owner: 'B', expiresAt: last.expiresAt + LEASE_TTL_MS },
  });
  assert.equal(holds(last, 'A', last.expiresAt), false);
  // Malformed or absurd leases do not block anyone.
  assert.equal(leaseStep({ owner: 3 }, 'B', t0).action, 'take');
  assert.equal(leaseStep('garbage', 'B', t0).action, 'take');
  assert.equal(leaseStep({ owner: 'A', expiresAt: t0 + 100 * LEASE_TTL_MS }, 'B', t0).action, 'take');
  assert.ok(LEASE_RENEW_MS * 2 < LEASE_TTL_MS, 'renewed well inside its lifetime');
});

test('schedule: a watch is due at most every 6 hours; the next beat never comes before a pause ends', () => {
  const now = 10 * WATCH_INTERVAL_MS;
  const w = (id: string, lastCheck?: number, createdAt = 0): Watch => ({
    ...newWatch(id, params, [dep], response(), createdAt),
    ...(lastCheck !== undefined ? { lastCheck } : {}),
  });
  const ws = [
    w('fresh', now - 1000),
    w('old', now - WATCH_INTERVAL_MS - 5),
    w('never'),
    w('edge', now - WATCH_INTERVAL_MS),
    w('just made', undefined, now - 1000),
  ];
  assert.deepEqual(
    dueWatches(ws, now).map((x) => x.id),
    ['never', 'old', 'edge'],
  );
  assert.deepEqual(dueWatches([w('fresh', now - 1000)], now), []);
  // A watch just made from a search counts that search as its check: the first background check is 6 hours on.
  assert.equal(nextDueAt([w('just made', undefined, now - 1000)], now), now - 1000 + WATCH_INTERVAL_MS);
  assert.equal(nextDueAt([w('fresh', now - 1000)], now), now - 1000 + WATCH_INTERVAL_MS);
  assert.equal(nextDueAt([w('never')], now, now + 60_000), now + 60_000);
  assert.equal(nextDueAt([], now), undefined);
  // Checked every 6 hours means never sooner: over a simulated day with a beat a minute, 4 checks of one watch.
  let last: number | undefined;
  let checks = 0;
  for (let t = WATCH_INTERVAL_MS; t < WATCH_INTERVAL_MS + 24 * 3600_000; t += 60_000) {
    if (dueWatches([w('x', last)], t).length) {
      checks++;
      last = t;
    }
  }
  assert.equal(checks, 4);
});

test("lease: a test's shorter time to live applies to taking, renewing and the skew check", () => {
  const t0 = 1_000_000;
  assert.deepEqual(leaseStep(undefined, 'A', t0, 8_000), {
    action: 'take',
    lease: { owner: 'A', expiresAt: t0 + 8_000 },
  });
  const stored = { owner: 'A', expiresAt: t0 + 8_000 };
  assert.deepEqual(leaseStep(stored, 'B', t0 + 7_999, 8_000), { action: 'wait', holder: 'A', until: t0 + 8_000 });
  assert.equal(leaseStep(stored, 'B', t0 + 8_000, 8_000).action, 'take');
  assert.deepEqual(leaseStep(stored, 'A', t0 + 2_000, 8_000), {
    action: 'renew',
    lease: { owner: 'A', expiresAt: t0 + 10_000 },
  });
  // A lease more than two short TTLs ahead is a skewed clock's: taken, where the product's 90 s would wait.
  assert.equal(leaseStep({ owner: 'A', expiresAt: t0 + 17_000 }, 'B', t0, 8_000).action, 'take');
  assert.equal(leaseStep({ owner: 'A', expiresAt: t0 + 17_000 }, 'B', t0).action, 'wait');
});

test('schedule: offline waits grow, rate limits and the keyless quota wait until their reset, a refused search waits for its next turn', () => {
  const now = 5_000_000;
  assert.deepEqual(afterFailure({ kind: 'network' }, now, 0), {
    action: 'pause',
    until: now + OFFLINE_FIRST_MS,
    why: 'offline',
  });
  assert.deepEqual(afterFailure({ kind: 'timeout' }, now, 2), {
    action: 'pause',
    until: now + 4 * OFFLINE_FIRST_MS,
    why: 'offline',
  });
  assert.deepEqual(afterFailure({ kind: 'network' }, now, 30), {
    action: 'pause',
    until: now + OFFLINE_MAX_MS,
    why: 'offline',
  });
  assert.deepEqual(afterFailure({ kind: 'keyless-quota', resetAt: now + 3_600_000 }, now, 0), {
    action: 'pause',
    until: now + 3_600_000,
    why: 'keyless-quota',
  });
  assert.deepEqual(afterFailure({ kind: 'keyless-quota' }, now, 0), {
    action: 'pause',
    until: now + WATCH_INTERVAL_MS,
    why: 'keyless-quota',
  });
  assert.deepEqual(afterFailure({ kind: 'retry-after-too-long', resetAt: now + 7_200_000 }, now, 0), {
    action: 'pause',
    until: now + 7_200_000,
    why: 'rate-limit',
  });
  const r429 = afterFailure({ kind: 'http', status: 429, retryAfterMs: 30 * 60_000 }, now, 0);
  assert.deepEqual(r429, { action: 'pause', until: now + 30 * 60_000, why: 'rate-limit' });
  assert.equal(afterFailure({ kind: 'http', status: 401 }, now, 0).action, 'pause');
  assert.deepEqual(afterFailure({ kind: 'http', status: 400 }, now, 0), { action: 'skip' });
  assert.deepEqual(afterFailure(new Error('boom'), now, 0), { action: 'skip' });
});

test('what is new: new results and newer fixes; the fix statements are kept; merging two windows keeps every id seen', () => {
  const w = newWatch('w1', params, [dep], response(result(1, 'Broken since 3.1.0.')), 1000);
  assert.equal(w.fixes, undefined);
  const c = checkWatch(
    w,
    response(result(1, 'Broken since 3.1.0.'), result(5, 'Fixed in 3.3.0; upgrade.', 'Retry-After ignored')),
    2000,
  );
  assert.deepEqual(
    c.news.map((n) => [n.id, n.reason]),
    [['issue:fetchline/fetchline#5', 'new']],
  );
  assert.deepEqual(
    c.watch.fixes?.map((f) => [f.id, f.sentence]),
    [['issue:fetchline/fetchline#5', 'Fixed in 3.3.0; upgrade.']],
  );
  assert.equal(checkWatch(c.watch, response(result(5, 'Fixed in 3.3.0; upgrade.')), 3000).news.length, 0);
  const other = { ...w, seen: [...w.seen, 'issue:fetchline/fetchline#9'], lastCheck: 5000 };
  const merged = mergeWatch(other, c.watch);
  assert.deepEqual(
    new Set(merged.seen),
    new Set(['issue:fetchline/fetchline#1', 'issue:fetchline/fetchline#5', 'issue:fetchline/fetchline#9']),
  );
  assert.equal(merged.lastCheck, 5000);
  assert.equal(merged.newCount, 1);
  assert.equal(checkedWords(undefined, 0), 'never checked');
  assert.equal(checkedWords(0, 30_000), 'checked just now');
  assert.equal(checkedWords(0, 12 * 60_000), 'checked 12 min ago');
  assert.equal(checkedWords(0, 3 * 3600_000), 'checked 3 h ago');
  assert.equal(checkedWords(0, 72 * 3600_000), 'checked 3 days ago');
});

test('the compare again: a new installed version that includes the fix says so without a search; an older one does not', () => {
  const w0 = newWatch('w1', params, [dep], response(result(1, 'Broken since 3.1.0.')), 0);
  const w = checkWatch(w0, response(result(1, 'Broken since 3.1.0.'), result(5, 'Fixed in 3.3.0; upgrade.')), 10).watch;
  const same = recompare(w, [dep]);
  assert.equal(same.changed, false);
  assert.equal(same.fixIncluded, undefined);
  const patch = recompare(w, [{ ...dep, version: '3.2.5' }]);
  assert.equal(patch.changed, true);
  assert.equal(patch.fixIncluded, undefined, '3.2.5 is still older than the fix');
  const up = recompare(w, [{ ...dep, version: '3.3.0' }]);
  assert.equal(up.fixIncluded, 'fixed in 3.3.0 · included in your 3.3.0');
  assert.equal(up.watch.fixIncluded, up.fixIncluded);
  assert.equal(up.watch.installed[0]!.version, '3.3.0');
  const back = recompare(up.watch, [dep]);
  assert.equal(back.fixIncluded, undefined);
  assert.equal(back.watch.fixIncluded, undefined, 'going back below the fix clears it');
  assert.equal(
    recompare(w, [{ ...dep, version: 'not-a-version' }]).fixIncluded,
    undefined,
    'garbage never says included',
  );
});

/** A watch made 6 hours ago and never checked since: due at the first beat. */
async function addDue(storage: Storage, id: string, now: number): Promise<void> {
  await storage.update(
    WATCH_KEY_PREFIX + id,
    newWatch(id, { ...params, query: id }, [dep], response(), now - WATCH_INTERVAL_MS),
  );
}

function service(
  storage: Storage,
  clock: ManualClock,
  owner: string,
  answer: () => Promise<SearchResponse>,
  events: WatchEvent[] = [],
  log: string[] = [],
) {
  let n = 0;
  const searches: SearchParams[] = [];
  const s = new WatchService({
    storage,
    timers: clock,
    owner,
    newId: () => `${owner}${++n}`,
    settleMs: 1000,
    betweenMs: 1000,
    search: async (p) => {
      searches.push(p);
      return answer();
    },
    notify: (e) => events.push(e),
    log: (m) => log.push(m),
  });
  return { s, searches, events, log };
}

test('two windows over one shared storage: one holds the lease and checks, the other waits, then takes over when the first is gone', async () => {
  const clock = new ManualClock();
  const storage = new Storage();
  let answer = response(result(1, 'Broken since 3.1.0.'));
  const a = service(storage, clock, 'A', async () => answer);
  const b = service(storage, clock, 'B', async () => answer);
  await a.s.add(params, [dep], answer);
  await b.s.add({ ...params, query: 'second' }, [dep], answer);
  assert.equal(a.s.list().length, 2, 'both windows see both watches');
  a.s.resume();
  await clock.advance(10);
  b.s.resume();
  // Six hours of beats: exactly one window checks, each watch once per 6 hours.
  answer = response(result(1, 'Broken since 3.1.0.'), result(2, 'Fixed in 3.3.0.', 'New issue'));
  await clock.advance(WATCH_INTERVAL_MS + 5 * 60_000);
  assert.equal(a.s.isHolder() !== b.s.isHolder(), true, 'exactly one holder');
  const holder = a.s.isHolder() ? a : b;
  const other = holder === a ? b : a;
  assert.equal(
    holder.searches.length,
    2,
    'each watch once, 6 hours after it was made (its own search counts as the first check)',
  );
  assert.equal(other.searches.length, 0);
  assert.equal(holder.events.filter((e) => e.kind === 'news').length, 2);
  assert.deepEqual(other.events, []);
  // The holder's window closes: its lease is given back and the other takes over at its next beat.
  await holder.s.dispose();
  await clock.advance(LEASE_RENEW_MS + 2000);
  assert.equal(other.s.isHolder(), true);
  await clock.advance(WATCH_INTERVAL_MS);
  assert.equal(other.searches.length, 2);
  await other.s.dispose();
});

test('a window that hangs (stops renewing) loses the lease only after it expires', async () => {
  const clock = new ManualClock();
  const storage = new Storage();
  const b = service(storage, clock, 'B', async () => response());
  await storage.update(LEASE_KEY, { owner: 'A', expiresAt: clock.now() + LEASE_TTL_MS });
  await addDue(storage, 'old', clock.now());
  b.s.resume();
  await clock.advance(LEASE_TTL_MS - 5000);
  assert.equal(b.s.isHolder(), false);
  assert.equal(b.searches.length, 0);
  await clock.advance(LEASE_RENEW_MS + 5000);
  assert.equal(b.s.isHolder(), true);
  assert.equal(b.searches.length, 1);
  await b.s.dispose();
});

test('two windows taking a free lease in the same beat: the read-back leaves one holder', async () => {
  const clock = new ManualClock();
  const storage = new Storage();
  const a = service(storage, clock, 'A', async () => response());
  const b = service(storage, clock, 'B', async () => response());
  a.s.resume();
  b.s.resume();
  await clock.advance(5000);
  assert.equal([a.s.isHolder(), b.s.isHolder()].filter(Boolean).length, 1);
  await a.s.dispose();
  await b.s.dispose();
});

test('offline: the round pauses (no search per watch), waits, and resumes; the keyless quota waits until its reset; only searches are sent', async () => {
  const clock = new ManualClock();
  const storage = new Storage();
  let fail: unknown = Object.assign(new Error('getaddrinfo ENOTFOUND'), { kind: 'network' });
  const a = service(storage, clock, 'A', async () => {
    if (fail) throw fail;
    return response();
  });
  await addDue(storage, 'one', clock.now());
  await addDue(storage, 'two', clock.now());
  a.s.resume();
  await clock.advance(3000);
  assert.equal(a.searches.length, 1, 'the second watch is not tried while offline');
  await clock.advance(OFFLINE_FIRST_MS - 60_000);
  assert.equal(a.searches.length, 1);
  await clock.advance(2 * 60_000);
  assert.equal(a.searches.length, 2, 'tried again after the wait');
  fail = Object.assign(new Error('keyless quota'), { kind: 'keyless-quota', resetAt: clock.now() + 3 * 3600_000 });
  await clock.advance(2 * OFFLINE_FIRST_MS + 60_000);
  const afterQuota = a.searches.length;
  await clock.advance(3 * 3600_000 - 15 * 60_000);
  assert.equal(a.searches.length, afterQuota, 'nothing is sent before the quota resets');
  fail = undefined;
  await clock.advance(15 * 60_000);
  assert.ok(a.searches.length >= afterQuota + 2, 'both watches checked after the reset');
  assert.ok(a.s.list().every((w) => w.lastCheck !== undefined && !w.lastError));
  assert.ok(a.log.some((l) => /wait until .*offline/.test(l)));
  await a.s.dispose();
});

test('Check Now, remove from another window, a vanished repository, and the cap of 50', async () => {
  const clock = new ManualClock();
  const storage = new Storage();
  let answer = response(result(1, 'x'));
  const a = service(storage, clock, 'A', async () => answer);
  const b = service(storage, clock, 'B', async () => answer);
  const w = await a.s.add(params, [dep], answer);
  assert.ok(storage.keys().includes(WATCH_KEY_PREFIX + w.id));
  answer = {
    ...response(result(1, 'x')),
    repos: [{ repo: 'fetchline/fetchline', indexed: false }],
  } as unknown as SearchResponse;
  const r = await b.s.checkNow(w.id);
  assert.deepEqual(r.vanished, ['fetchline/fetchline']);
  assert.deepEqual(
    b.events.map((e) => e.kind),
    ['vanished'],
  );
  assert.match(newsText(b.events[0]!), /fetchline\/fetchline is no longer in the index/);
  assert.deepEqual(a.s.get(w.id)?.vanished, ['fetchline/fetchline'], 'the other window reads it');
  assert.equal(await a.s.remove(w.id), true);
  await assert.rejects(b.s.checkNow(w.id), /removed/);
  for (let i = 0; i < 50; i++) await a.s.add({ ...params, query: `q${i}` }, [dep], response());
  await assert.rejects(a.s.add(params, [dep], response()), /50 watches/);
  assert.equal(watchScopeWords(params, [dep]), 'fetchline/fetchline · 3.2.0 installed');
});

test('the installed version changes: a watch of that folder says its version includes the fix, once', async () => {
  const clock = new ManualClock();
  const storage = new Storage();
  let version = '3.2.0';
  const events: WatchEvent[] = [];
  const s = new WatchService({
    storage,
    timers: clock,
    owner: 'A',
    newId: () => 'w1',
    settleMs: 0,
    search: async () => response(result(1, 'Broken since 3.1.0.'), result(5, 'Fixed in 3.3.0; upgrade.')),
    readInstalled: async () => [{ ...dep, version }],
    notify: (e) => events.push(e),
    log: () => undefined,
  });
  await s.add(params, [dep], response(result(1, 'Broken since 3.1.0.')), '/work/project');
  await s.checkNow('w1');
  assert.deepEqual(
    events.map((e) => e.kind),
    ['news'],
  );
  assert.deepEqual(await s.installedChanged('/elsewhere'), []);
  version = '3.3.0';
  const now = await s.installedChanged('/work/project');
  assert.deepEqual(
    now.map((w) => w.fixIncluded),
    ['fixed in 3.3.0 · included in your 3.3.0'],
  );
  assert.deepEqual(
    events.map((e) => e.kind),
    ['news', 'fixIncluded'],
  );
  assert.match(
    newsText(events[1]!),
    /your installed version now includes the fix for “retry after ignored” \(fixed in 3\.3\.0 · included in your 3\.3\.0\)/,
  );
  await s.installedChanged('/work/project');
  assert.equal(events.length, 2, 'said once');
  await s.dispose();
});

test('a reload keeps every watch (what it saw, its last check, its new count) and does not check it again before 6 hours', async () => {
  const clock = new ManualClock();
  const storage = new Storage();
  let answer = response(result(1, 'Broken since 3.1.0.'));
  const before = service(storage, clock, 'A', async () => answer);
  const w = await before.s.add(params, [dep], answer);
  answer = response(result(1, 'Broken since 3.1.0.'), result(2, 'Fixed in 3.3.0.', 'New issue'));
  await clock.advance(60_000);
  await before.s.checkNow(w.id);
  const kept = before.s.get(w.id)!;
  assert.equal(kept.newCount, 1);
  await before.s.dispose();
  // The window reloads: a new service over the same storage (globalState outlives the extension host).
  const after = service(storage, clock, 'A2', async () => answer);
  assert.deepEqual(
    after.s.list().map((x) => x.id),
    [w.id],
  );
  const again = after.s.get(w.id)!;
  assert.deepEqual(again.seen.sort(), kept.seen.sort());
  assert.ok(again.seen.includes('issue:fetchline/fetchline#2'));
  assert.equal(again.lastCheck, kept.lastCheck);
  assert.equal(again.newCount, 1);
  assert.deepEqual(again.params, params);
  assert.deepEqual(again.installed, [dep]);
  after.s.resume();
  await clock.advance(WATCH_INTERVAL_MS - 10 * 60_000);
  assert.equal(after.searches.length, 0, 'not checked again within 6 hours of its last check');
  await clock.advance(20 * 60_000);
  assert.equal(after.searches.length, 1, 'checked once its 6 hours have passed');
  await after.s.dispose();
});

test('storage writes go one at a time, and a watch the storage does not give back is written again (the late-watch flake)', async () => {
  const clock = new ManualClock(1_000_000);
  // VS Code's globalState answers each write with the stored object, which replaces this window's copy: two writes
  // in flight at once let the first answer remove what the second set. Counted here: writes in flight.
  class Echoing extends Storage {
    inFlight = 0;
    most = 0;
    override async update(key: string, value: unknown): Promise<void> {
      this.inFlight++;
      this.most = Math.max(this.most, this.inFlight);
      await new Promise((r) => setImmediate(r));
      await super.update(key, value);
      this.inFlight--;
    }
  }
  const storage = new Echoing();
  const a = service(storage, clock, 'A', async () => response());
  a.s.resume(); // the first beat takes the lease while the watch is added
  const [w] = await Promise.all([a.s.add(params, [dep], response()), clock.advance(0)]);
  assert.equal(storage.most, 1, 'never two writes in flight');
  assert.equal(a.s.get(w.id)?.id, w.id);
  // A storage that loses the watch once: it is written again, and the log says so.
  class LosesOnce extends Storage {
    lost = false;
    override async update(key: string, value: unknown): Promise<void> {
      await super.update(key, value);
      if (!this.lost && key.startsWith(WATCH_KEY_PREFIX)) {
        this.lost = true;
        this.map.delete(key);
      }
    }
  }
  const lossy = service(new LosesOnce(), clock, 'B', async () => response());
  const w2 = await lossy.s.add(params, [dep], response());
  assert.equal(lossy.s.get(w2.id)?.id, w2.id, 'written again');
  assert.deepEqual(lossy.log, [
    "watch: B1 was written but is not in this window's storage right after (0 watches there); written again",
  ]);
  await a.s.dispose();
});
