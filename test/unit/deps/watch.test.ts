// Watch for a Fix: the pure rules (new results, a result that now states a newer fix, a vanished
// repository, a fix now included) and `devindex watch` with a fake client over a throw-away config folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SearchResponse } from '../../../src/api/schemas';
import { runWatchCommand } from '../../../src/cli/watchCommand';
import {
  checkWatch,
  isDue,
  MAX_WATCHES,
  newWatch,
  parseWatches,
  WATCH_INTERVAL_MS,
  withInstalled,
} from '../../../src/deps/watch';

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

test('a new result and a seen result that now states a newer fix are news; the rest is not', () => {
  const w = newWatch(
    'w1',
    { query: 'retry after', repos: ['fetchline/fetchline'] },
    [dep],
    response(result(1, 'Broken since 3.1.0.'), result(2, 'Unrelated.')),
    1000,
  );
  assert.deepEqual(w.seen, ['issue:fetchline/fetchline#1', 'issue:fetchline/fetchline#2']);
  const c = checkWatch(
    w,
    response(
      result(1, 'Broken since 3.1.0. Fixed in 3.3.0.'),
      result(2, 'Unrelated.'),
      result(3, 'Fixed in 3.3.0 as well.'),
    ),
    2000,
  );
  assert.deepEqual(
    c.news.map((n) => [n.id, n.reason, n.badge]),
    [
      ['issue:fetchline/fetchline#1', 'fix', 'fixed in 3.3.0 · newer than your 3.2.0'],
      ['issue:fetchline/fetchline#3', 'new', 'fixed in 3.3.0 · newer than your 3.2.0'],
    ],
  );
  assert.equal(c.watch.newCount, 2);
  assert.equal(c.watch.lastCheck, 2000);
  // Checked again: nothing new.
  const again = checkWatch(c.watch, response(result(1, 'Fixed in 3.3.0.'), result(3, 'Fixed in 3.3.0 as well.')), 3000);
  assert.deepEqual(again.news, []);
  // The installed version moved past the fix (a lockfile changed): the watch says the fix is included.
  const upgraded = checkWatch(
    withInstalled(again.watch, [{ ...dep, version: '3.3.0' }]),
    response(result(1, 'Fixed in 3.3.0.')),
    4000,
  );
  assert.equal(upgraded.fixIncluded, 'fixed in 3.3.0 · included in your 3.3.0');
});

test('a repository the index no longer has is reported; due every 6 hours; stored lists parse tolerantly and are capped', () => {
  const w = newWatch('w1', { query: 'x', repos: ['fetchline/fetchline'] }, [dep], response(), 0);
  const gone = checkWatch(
    w,
    { ...response(), repos: [{ repo: 'fetchline/fetchline', indexed: false }] } as unknown as SearchResponse,
    10,
  );
  assert.deepEqual(gone.vanished, ['fetchline/fetchline']);
  assert.equal(isDue(w, 5), true);
  assert.equal(isDue(gone.watch, 10 + WATCH_INTERVAL_MS - 1), false);
  assert.equal(isDue(gone.watch, 10 + WATCH_INTERVAL_MS), true);
  assert.deepEqual(
    parseWatches({ watches: [null, 3, { id: 'x' }, w] }).map((x) => x.id),
    ['w1'],
  );
  assert.equal(
    parseWatches({ watches: Array.from({ length: 60 }, (_, i) => ({ ...w, id: `w${i}` })) }).length,
    MAX_WATCHES,
  );
  assert.deepEqual(parseWatches('garbage'), []);
});

test('devindex watch add / list / check / remove with a fake client and a throw-away config folder', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'devindex-watch-'));
  const folder = path.join(dir, 'project');
  fs.mkdirSync(path.join(folder, 'node_modules', 'fetchline'), { recursive: true });
  fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ dependencies: { fetchline: '^3' } }));
  fs.writeFileSync(
    path.join(folder, 'node_modules', 'fetchline', 'package.json'),
    JSON.stringify({ name: 'fetchline', version: '3.2.0', repository: 'github:fetchline/fetchline' }),
  );
  let answer = response(result(1, 'Broken since 3.1.0.'));
  const sent: unknown[] = [];
  const out: string[] = [];
  const err: string[] = [];
  const io = {
    out: (s: string) => {
      out.push(s);
    },
    err: (s: string) => {
      err.push(s);
    },
    env: { DEVINDEX_CONFIG_DIR: path.join(dir, 'config') },
  };
  const deps = {
    cwd: folder,
    now: () => 1_000_000,
    createClient: () => ({
      search: async (p: unknown) => {
        sent.push(p);
        return answer;
      },
      close: async () => undefined,
    }),
  };
  assert.equal(
    await runWatchCommand(['add', 'retry after ignored', '--dependency', 'fetchline'], io, deps),
    0,
    err.join(''),
  );
  assert.deepEqual((sent[0] as { repos: string[] }).repos, ['fetchline/fetchline']);
  assert.match(
    out.join(''),
    /Watching "retry after ignored" in fetchline\/fetchline · 3\.2\.0 installed · never checked · 0 new\nid (\w{8}): 1 current result counts as seen/,
  );
  const id = /id (\w{8}):/.exec(out.join(''))![1]!;
  out.length = 0;
  answer = response(result(1, 'Broken since 3.1.0. Fixed in 3.3.0.'), result(2, 'A second report.', 'Same here'));
  assert.equal(await runWatchCommand(['check'], io, deps), 0, err.join(''));
  assert.match(
    out.join(''),
    /now fixed: Issue 1\n {4}https:\/\/github\.com\/fetchline\/fetchline\/issues\/1\n {4}fixed in 3\.3\.0 · newer than your 3\.2\.0\n {2}new: Same here\n/,
  );
  out.length = 0;
  assert.equal(await runWatchCommand(['list'], io, deps), 0);
  assert.match(
    out.join(''),
    new RegExp(
      `^${id} {2}"retry after ignored" in fetchline/fetchline · 3\\.2\\.0 installed · checked just now · 2 new\\n$`,
    ),
  );
  assert.equal(await runWatchCommand(['remove', 'nope'], io, deps), 2);
  assert.equal(await runWatchCommand(['remove', id], io, deps), 0);
  out.length = 0;
  assert.equal(await runWatchCommand(['list'], io, deps), 0);
  assert.match(out.join(''), /^No watches\./);
  assert.equal(await runWatchCommand(['add', 'x', '--dependency', 'left-pad'], io, deps), 2);
  assert.match(err.join(''), /left-pad is not a dependency/);
  fs.rmSync(dir, { recursive: true, force: true });
});
