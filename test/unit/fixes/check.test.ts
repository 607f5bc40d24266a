// The fixes engine with a fake search, an in-memory cache and a clock the test moves: only fixes you lack,
// affecting ones apart, one search per dependency, the concurrency bound, the cache and refresh, the 429
// stop and its resume, cancel, unknown names, and the file cache's corrupt and concurrent cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiError } from '../../../src/api/errors';
import type { SearchParams } from '../../../src/api/params';
import type { SearchResponse } from '../../../src/api/schemas';
import {
  CACHE_TTL_MS,
  checkFixes,
  FIXES_K,
  UnknownDependencyError,
  type CachedCheck,
  type FixesCache,
} from '../../../src/fixes/check';
import { fileFixesCache } from '../../../src/fixes/fileCache';
import type { FixesProgress, WorkspaceDependency } from '../../../src/fixes/report';

const dep = (name: string, installed: string | undefined, extra: Partial<WorkspaceDependency> = {}) =>
  ({
    ecosystem: 'npm',
    name,
    ...(installed ? { installed } : {}),
    repository: `acme/${name}`,
    manifest: { file: 'package.json', line: 5 },
    direct: true,
    ...extra,
  }) as WorkspaceDependency;

const issue = (slug: string, n: number, text: string, title = `Issue ${n}`) => ({
  id: `issue:${slug}#${n}`,
  type: 'issue',
  url: `https://github.com/${slug}/issues/${n}`,
  title,
  passages: [{ text }],
});

function memoryCache(): FixesCache & { map: Map<string, CachedCheck> } {
  const map = new Map<string, CachedCheck>();
  const k = (key: object) => JSON.stringify(key);
  return {
    map,
    get: async (key) => map.get(k(key)),
    save: async (answers) => answers.forEach(({ key, value }) => map.set(k(key), value)),
  };
}

function fakeClock(start = 1_800_000_000_000) {
  let now = start;
  const sleepers: Array<{ at: number; resolve: () => void }> = [];
  return {
    now: () => now,
    sleep: (ms: number, signal?: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        sleepers.push({ at: now + ms, resolve });
        signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      }),
    advance(ms: number) {
      now += ms;
      for (const s of sleepers.filter((x) => x.at <= now)) s.resolve();
    },
  };
}

/** Answers per repository; records every search and the most in flight at once. */
function fakeSearch(answer: (p: SearchParams) => SearchResponse['results'] | Error) {
  const sent: SearchParams[] = [];
  let inFlight = 0;
  let most = 0;
  const pending: Array<() => void> = [];
  const search = async (p: SearchParams, o: { signal?: AbortSignal }): Promise<SearchResponse> => {
    sent.push(p);
    inFlight++;
    most = Math.max(most, inFlight);
    try {
      // Let every worker start before any answers, so the bound is what limits them.
      await new Promise<void>((r) => setImmediate(r));
      if (o.signal?.aborted) throw new ApiError({ kind: 'aborted', retryable: false, attempts: 1, message: 'aborted' });
      const a = answer(p);
      if (a instanceof Error) throw a;
      return { success: true, results: a } as unknown as SearchResponse;
    } finally {
      inFlight--;
      pending.shift()?.();
    }
  };
  return { search, sent, most: () => most };
}

const statements: Record<string, string> = {
  'acme/old': 'Confirmed. This is fixed in 2.1.0 and released.',
  'acme/have': 'Fixed in 1.2.0 long ago.',
  'acme/release': '',
  'acme/affected': 'Still happens in 3.0.0. This affects 3.0.x.',
};

function corpus(p: SearchParams) {
  const slug = p.repos![0]!;
  const text = statements[slug] ?? 'No version is named here.';
  const results = [issue(slug, 1, text)];
  if (slug === 'acme/release')
    results.push({
      ...issue(slug, 2, 'Release notes.', 'Release 9.0.0'),
      id: `pull_request:${slug}#2`,
      type: 'pull_request',
    });
  return results;
}

test('only fixes you lack are listed; affecting ones apart; skipped dependencies never searched', async () => {
  const s = fakeSearch(corpus);
  const out = await checkFixes(
    {
      folder: '/w',
      dependencies: [
        dep('old', '2.0.3'),
        dep('have', '1.4.0'),
        dep('release', '1.0.0'),
        dep('affected', '3.0.0'),
        dep('gitlab', '1.0.0', { repository: undefined, skipReason: 'repository on GitLab' }),
        dep('unknown-version', undefined),
        dep('transitive', '1.0.0', { direct: false }),
      ],
    },
    {},
    { search: s.search, cache: memoryCache(), clock: fakeClock(), service: 'http://svc' },
  );
  const by = Object.fromEntries(out.report.dependencies.map((d) => [d.name, d]));
  assert.deepEqual(Object.keys(by), ['old', 'have', 'release', 'affected']);
  assert.deepEqual(by.old!.fixes, [
    {
      id: 'issue:acme/old#1',
      url: 'https://github.com/acme/old/issues/1',
      title: 'Issue 1',
      kind: 'issue',
      fixedIn: '2.1.0',
    },
  ]);
  assert.deepEqual(by.have!.fixes, []);
  assert.deepEqual(by.release!.fixes, [], 'a release announcement alone is not a fix');
  assert.deepEqual(by.affected!.fixes, []);
  assert.deepEqual(
    by.affected!.affecting.map((a) => a.affects),
    ['3.0.0'],
  );
  assert.deepEqual(out.report.skipped, [
    { name: 'gitlab', reason: 'repository on GitLab' },
    { name: 'unknown-version', reason: 'installed version unknown' },
  ]);
  assert.equal(out.report.searches, 4);
  assert.equal(s.sent.length, 4, 'one search per dependency');
  assert.deepEqual(s.sent[0], {
    query: s.sent[0]!.query,
    k: FIXES_K,
    types: ['issue', 'pull_request'],
    repos: ['acme/old'],
    passages: 3,
  });
  assert.equal(out.stop, undefined);
});

test('at most `concurrency` searches in flight, never two for one dependency; bad bounds refused', async () => {
  const deps = Array.from({ length: 20 }, (_, i) => dep(`d${i}`, '1.0.0'));
  for (const c of [1, 3, 4, 8]) {
    const s = fakeSearch(corpus);
    await checkFixes(
      { folder: '/w', dependencies: deps },
      { concurrency: c },
      {
        search: s.search,
        cache: memoryCache(),
        clock: fakeClock(),
        service: 'x',
      },
    );
    assert.equal(s.most(), c, `concurrency ${c}`);
    assert.equal(new Set(s.sent.map((p) => p.repos![0])).size, 20);
    assert.equal(s.sent.length, 20);
  }
  const s = fakeSearch(corpus);
  const none = { search: s.search, cache: memoryCache(), clock: fakeClock(), service: 'x' };
  await assert.rejects(checkFixes({ folder: '/w', dependencies: deps }, { concurrency: 9 }, none), /1 to 8/);
  await assert.rejects(checkFixes({ folder: '/w', dependencies: deps }, { concurrency: 0 }, none), /1 to 8/);
});

test('cached for 24 hours per service and installed version; refresh searches again', async () => {
  const cache = memoryCache();
  const clock = fakeClock();
  const deps = [dep('old', '2.0.3'), dep('have', '1.4.0')];
  const run = async (o: { refresh?: boolean; service?: string; deps?: WorkspaceDependency[] } = {}) => {
    const s = fakeSearch(corpus);
    const out = await checkFixes(
      { folder: '/w', dependencies: o.deps ?? deps },
      { refresh: o.refresh ?? false },
      {
        search: s.search,
        cache,
        clock,
        service: o.service ?? 'http://a',
      },
    );
    return { out, sent: s.sent.length };
  };
  assert.equal((await run()).sent, 2);
  const second = await run();
  assert.equal(second.sent, 0, 'a second run sends nothing');
  assert.equal(second.out.report.searches, 0);
  assert.equal(second.out.fromCache, 2);
  assert.equal(second.out.report.dependencies[0]!.fixes[0]!.fixedIn, '2.1.0');
  assert.equal((await run({ refresh: true })).sent, 2);
  assert.equal((await run({ service: 'http://b' })).sent, 2, 'another service address is another answer');
  assert.equal((await run({ deps: [dep('old', '2.0.4'), dep('have', '1.4.0')] })).sent, 1, 'another version');
  clock.advance(CACHE_TTL_MS - 1);
  assert.equal((await run()).sent, 0);
  clock.advance(2);
  assert.equal((await run()).sent, 2, 'older than a day: searched again');
});

test('a 429 stops new searches at once; the rest is unchecked with the way out; the next run checks only those', async () => {
  const cache = memoryCache();
  const deps = Array.from({ length: 6 }, (_, i) => dep(`d${i}`, '1.0.0'));
  let calls = 0;
  const quota = new ApiError({
    kind: 'keyless-quota',
    status: 429,
    retryable: false,
    attempts: 1,
    quota: 'requests',
    signupUrl: 'https://firecrawl.dev/k/abc',
    message: 'Keyless searches are used up until 00:00',
  });
  const s = fakeSearch(() => (++calls === 3 ? quota : corpus({ query: 'q', repos: ['acme/old'] })));
  const progress: FixesProgress[] = [];
  const out = await checkFixes(
    { folder: '/w', dependencies: deps },
    { concurrency: 1, onProgress: (p) => progress.push(p) },
    {
      search: s.search,
      cache,
      clock: fakeClock(),
      service: 'x',
      keyless: true,
    },
  );
  assert.equal(s.sent.length, 3, 'nothing sent after the 429');
  assert.equal(out.report.dependencies.length, 2);
  assert.deepEqual(
    out.report.unchecked.map((u) => u.name),
    ['d2', 'd3', 'd4', 'd5'],
  );
  assert.match(out.report.unchecked[0]!.reason, /rate limiting/);
  assert.equal(out.stop?.reason, 'rate-limited');
  assert.equal(out.stop?.signupUrl, 'https://firecrawl.dev/k/abc');
  assert.equal(out.stop?.keyless, true);
  assert.equal(progress.filter((p) => p.kind === 'stopped').length, 1);

  const again = fakeSearch((p) => corpus(p));
  const next = await checkFixes(
    { folder: '/w', dependencies: deps },
    { concurrency: 4 },
    {
      search: again.search,
      cache,
      clock: fakeClock(),
      service: 'x',
    },
  );
  assert.deepEqual(
    again.sent.map((p) => p.repos![0]),
    ['acme/d2', 'acme/d3', 'acme/d4', 'acme/d5'],
    'the next run checks only what was left unchecked',
  );
  assert.equal(next.report.dependencies.length, 6);
  assert.equal(next.stop, undefined);
});

test('a 429 is not waited out: the client is asked to reject it at once, and the searches in flight are kept', async () => {
  const deps = Array.from({ length: 6 }, (_, i) => dep(`d${i}`, '1.0.0'));
  const asked: Array<string | undefined> = [];
  let sent = 0;
  // The first search meets a rate limit its client would wait out (Retry-After 30 s); the client's own
  // behaviour for rateLimit 'fail' (rejecting with that 429) is tested in test/unit/api/retry.test.ts.
  const search = async (p: SearchParams, o: { rateLimit?: string }): Promise<SearchResponse> => {
    asked.push(o.rateLimit);
    if (++sent === 1) {
      if (o.rateLimit !== 'fail') throw new Error('the check let the client wait out a 429');
      throw new ApiError({
        kind: 'http',
        status: 429,
        retryable: true,
        retryAfterMs: 30_000,
        attempts: 1,
        message: 'rate limited',
      });
    }
    // The other two answer after the 429 has stopped the check.
    await new Promise((r) => setImmediate(r));
    return { success: true, results: corpus(p) } as unknown as SearchResponse;
  };
  const out = await checkFixes(
    { folder: '/w', dependencies: deps },
    { concurrency: 3 },
    {
      search,
      cache: memoryCache(),
      clock: fakeClock(),
      service: 'x',
    },
  );
  assert.equal(out.stop?.reason, 'rate-limited');
  assert.equal(sent, 3, 'the two already in flight, nothing new');
  assert.deepEqual(asked, ['fail', 'fail', 'fail']);
  assert.equal(out.report.dependencies.length, 2, 'the answers in flight are kept');
  assert.equal(out.report.unchecked.length, 4);
});

test('cancel: searches in flight end, what was checked is returned; the time limit likewise', async () => {
  const deps = Array.from({ length: 5 }, (_, i) => dep(`d${i}`, '1.0.0'));
  const ctl = new AbortController();
  let n = 0;
  const s = fakeSearch((p) => {
    if (++n === 2) ctl.abort();
    return corpus(p);
  });
  const out = await checkFixes(
    { folder: '/w', dependencies: deps },
    { concurrency: 1, signal: ctl.signal },
    {
      search: s.search,
      cache: memoryCache(),
      clock: fakeClock(),
      service: 'x',
    },
  );
  assert.equal(out.stop?.reason, 'cancelled');
  assert.equal(out.report.dependencies.length, 2);
  assert.equal(out.report.unchecked.length, 3);

  const clock = fakeClock();
  const slow = async (_p: SearchParams, o: { signal?: AbortSignal }): Promise<SearchResponse> =>
    new Promise((_, reject) => {
      o.signal?.addEventListener('abort', () =>
        reject(new ApiError({ kind: 'aborted', retryable: false, attempts: 1, message: 'aborted' })),
      );
      setImmediate(() => clock.advance(10_000));
    });
  const timed = await checkFixes(
    { folder: '/w', dependencies: deps },
    { timeLimitMs: 5_000 },
    {
      search: slow,
      cache: memoryCache(),
      clock,
      service: 'x',
    },
  );
  assert.equal(timed.stop?.reason, 'time-limit');
  assert.equal(timed.report.unchecked.length, 5);
  assert.match(timed.report.unchecked[0]!.reason, /time limit/);
});

test('unknown --dependency names are refused naming what the folder has; named ones are all that is checked', async () => {
  const s = fakeSearch(corpus);
  const collab = { search: s.search, cache: memoryCache(), clock: fakeClock(), service: 'x' };
  const input = {
    folder: '/w',
    dependencies: [dep('old', '2.0.3'), dep('have', '1.4.0'), dep('deep', '1.0.0', { direct: false })],
  };
  await assert.rejects(checkFixes(input, { dependencies: ['nope'] }, collab), (e: unknown) => {
    assert.ok(e instanceof UnknownDependencyError);
    assert.deepEqual(e.unknown, ['nope']);
    assert.match(e.message, /nope is not a dependency of \/w \(it has old, have\)/);
    return true;
  });
  assert.equal(s.sent.length, 0);
  const out = await checkFixes(input, { dependencies: ['OLD', 'deep'] }, collab);
  assert.deepEqual(
    out.report.dependencies.map((d) => d.name),
    ['old', 'deep'],
  );
  const all = await checkFixes(input, { all: true, refresh: true }, collab);
  assert.equal(all.report.dependencies.length, 3);
});

/** The file cache tests' key: dependency `name` of service `s`, installed at 1.0.0. */
const cacheKey = (name: string) => ({
  service: 's',
  ecosystem: 'npm',
  name,
  repository: `acme/${name}`,
  installed: '1.0.0',
});

test('file cache: corrupt, half-written or foreign files read as empty and are replaced; two runs at once lose nothing', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fixes-cache-'));
  const value = (at: number) => ({ at, fixes: [], affecting: [] });
  const now = () => 10;
  const files = () => fs.readdirSync(dir).sort();
  const first = fileFixesCache(dir, now);
  assert.equal(await first.get(cacheKey('a')), undefined);
  await first.save([{ key: cacheKey('a'), value: value(5) }]);
  assert.deepEqual(await fileFixesCache(dir, now).get(cacheKey('a')), value(5));
  assert.equal(files().length, 1);

  // Next to the good file: bad ones, a half-written one and one for another format. None breaks a read.
  const bad = ['', '{"format":2,"entries":', '[]', '{"format":99,"entries":[]}', '{"format":1,"entries":[{"key":1}]}'];
  bad.forEach((text, i) => fs.writeFileSync(path.join(dir, `fixes-bad${i}.json`), text));
  fs.writeFileSync(path.join(dir, 'fixes-half.json.tmp'), '{"format":1,"entr');
  const reader = fileFixesCache(dir, now);
  assert.deepEqual(await reader.get(cacheKey('a')), value(5));
  assert.equal(await reader.get(cacheKey('b')), undefined);
  await reader.save([{ key: cacheKey('b'), value: value(6) }]);
  // One file now holds both answers; the bad files it read are gone (the .tmp is not its to remove).
  assert.deepEqual(files().filter((f) => f.endsWith('.json')).length, 1);
  const after = fileFixesCache(dir, now);
  assert.deepEqual(await after.get(cacheKey('a')), value(5));
  assert.deepEqual(await after.get(cacheKey('b')), value(6));

  // Two runs at once over one folder, both having read it before either writes: every answer is kept.
  const one = fileFixesCache(dir, now);
  const two = fileFixesCache(dir, now);
  await Promise.all([one.get(cacheKey('x')), two.get(cacheKey('x'))]);
  await Promise.all([
    one.save(['c', 'd'].map((n) => ({ key: cacheKey(n), value: value(7) }))),
    two.save(['c2', 'd2'].map((n) => ({ key: cacheKey(n), value: value(7) }))),
  ]);
  const all = fileFixesCache(dir, now);
  for (const n of ['a', 'b', 'c', 'd', 'c2', 'd2']) assert.ok(await all.get(cacheKey(n)), n);
  assert.ok(files().filter((f) => f.endsWith('.json')).length <= 2, files().join());

  // A day after an answer, the next write drops it.
  await all.save([{ key: cacheKey('e'), value: value(5 + CACHE_TTL_MS) }]);
  const later = fileFixesCache(dir, () => 5 + CACHE_TTL_MS);
  assert.equal(await later.get(cacheKey('a')), undefined);
  assert.deepEqual(await later.get(cacheKey('e')), value(5 + CACHE_TTL_MS));
  assert.deepEqual(files().filter((f) => f.endsWith('.json')).length, 1);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('file cache: only fresh answers of the same search are read; a bad entry costs only itself', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fixes-cache-'));
  const fix = {
    id: 'i1',
    url: 'https://github.com/acme/a/issues/1',
    title: 'Crash',
    kind: 'issue' as const,
    fixedIn: '1.0.1',
  };
  await fileFixesCache(dir, () => 1000).save([
    { key: cacheKey('a'), value: { at: 1000, fixes: [fix], affecting: [] } },
    { key: cacheKey('b'), value: { at: 900, fixes: [], affecting: [] } },
    { key: cacheKey('c'), value: { at: 1000, fixes: [], affecting: [] } },
  ]);
  const [written] = fs.readdirSync(dir);
  const json = JSON.parse(fs.readFileSync(path.join(dir, written!), 'utf8')) as {
    search: { query: string };
    entries: { key: string; fixes: unknown }[];
  };
  // In place: c's fixes are not a list. Beside it: the same answers from another query.
  const c = json.entries.find((e) => e.key.includes('\nc\n'))!;
  c.fixes = 'none';
  fs.writeFileSync(path.join(dir, written!), JSON.stringify(json));
  fs.writeFileSync(
    path.join(dir, 'fixes-other-query.json'),
    JSON.stringify({ ...json, search: { ...json.search, query: 'another query' }, entries: [{ ...c, fixes: [] }] }),
  );
  const at = (t: number) => fileFixesCache(dir, () => t);
  assert.deepEqual(await at(1500).get(cacheKey('a')), { at: 1000, fixes: [fix], affecting: [] });
  assert.deepEqual(await at(1500).get(cacheKey('b')), { at: 900, fixes: [], affecting: [] });
  assert.equal(
    await at(1500).get(cacheKey('c')),
    undefined,
    "its bad entry, and the other query's answer, are not read",
  );
  // A day after b was searched, it is no longer read; a time before an answer's is not trusted either.
  assert.equal(await at(900 + CACHE_TTL_MS).get(cacheKey('b')), undefined);
  assert.ok(await at(900 + CACHE_TTL_MS).get(cacheKey('a')));
  assert.equal(await at(950).get(cacheKey('a')), undefined);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('file cache: a large run (a file over 256 KB, written off the thread) reads back whole, in one file', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fixes-cache-'));
  const key = (i: number) => ({
    service: 's',
    ecosystem: 'npm',
    name: `p${i}`,
    repository: `acme/p${i}`,
    installed: '1.0.0',
  });
  const fix = (i: number) => ({
    id: `issue-${i}`,
    url: `https://github.com/acme/p${i}/issues/${i}`,
    title: `A long title ${'x'.repeat(200)}`,
    kind: 'issue' as const,
    fixedIn: '1.0.1',
  });
  const answers = Array.from({ length: 1500 }, (_, i) => ({
    key: key(i),
    value: { at: 5, fixes: [fix(i)], affecting: [] },
  }));
  await fileFixesCache(dir).save(answers);
  const names = fs.readdirSync(dir);
  assert.equal(names.length, 1, names.join());
  assert.ok(fs.statSync(path.join(dir, names[0]!)).size > 256 * 1024, 'the file is past the synchronous write');
  const back = fileFixesCache(dir, () => 5);
  for (const i of [0, 749, 1499]) assert.deepEqual(await back.get(key(i)), answers[i]!.value);
  fs.rmSync(dir, { recursive: true, force: true });
});
