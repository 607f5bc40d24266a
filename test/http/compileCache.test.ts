// Spawn to first answer: the built CLI keeps V8's compiled code of the command bundle it runs
// in the user's cache folder (Node 22.1+'s own compile cache, or the project's code cache on Node 20:
// src/cli/compileCache.ts), uses it on the next run without writing it again, replaces damaged code,
// keeps only the current build's, and runs as before when the folder cannot be made. Real processes of
// dist/cli.js on whatever Node runs the tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  appendFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI_PATH } from './cliProcess';

/** Every file under `dir` with its size and modification time. */
function files(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  let entries: string[] = [];
  try {
    entries = readdirSync(dir, { recursive: true }) as string[];
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = join(dir, e);
    const s = statSync(p);
    if (s.isFile()) out.set(e, `${s.size} ${s.mtimeMs}`);
  }
  return out;
}

/**
 * dist/cli.js (or `cli`) with only PATH and XDG_CACHE_HOME: the outer environment's own cache variables
 * (Node reads NODE_COMPILE_CACHE and NODE_DISABLE_COMPILE_CACHE even when empty) would send the code
 * elsewhere or turn the cache off.
 */
function runCli(
  args: string[],
  xdgCacheHome: string,
  cli = CLI_PATH,
): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [cli, ...args], {
    env: { PATH: process.env.PATH ?? '', XDG_CACHE_HOME: xdgCacheHome },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const nodeCache = typeof (require('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const which = nodeCache ? "Node's own compile cache" : "the project's code cache";

test(`the command bundle's compiled code is kept in $XDG_CACHE_HOME/devindex and used by the next run without being written again (${which}, ${process.version})`, async () => {
  const home = mkdtempSync(join(tmpdir(), 'devindex-cc-'));
  try {
    const cache = join(home, 'devindex', 'compile-cache');
    const first = runCli(['search', '--help'], home);
    assert.equal(first.code, 0, first.err);
    assert.equal(first.err, '');
    const kept = files(cache);
    assert.ok(kept.size > 0, `nothing was kept under ${cache}`);
    const bytes = [...kept.values()].reduce((n, v) => n + Number(v.split(' ')[0]), 0);
    assert.ok(bytes > 20_000, `only ${bytes} bytes kept: not a compiled bundle`);
    assert.equal(statSync(join(home, 'devindex')).mode & 0o077, 0, "the cache folder is the user's alone");

    await new Promise((r) => setTimeout(r, 50)); // a rewrite would show in the modification time
    const second = runCli(['search', '--help'], home);
    assert.equal(second.code, 0, second.err);
    assert.equal(second.out, first.out);
    // Code that V8 refused would be written again at exit.
    assert.deepEqual(files(cache), kept, 'the second run wrote the cache again: its code was not used');
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('a damaged cache is replaced and the command runs as before; a cache folder others may write to, or that cannot be made, only means no cache', async () => {
  const home = mkdtempSync(join(tmpdir(), 'devindex-cc-'));
  try {
    const cache = join(home, 'devindex', 'compile-cache');
    const good = runCli(['search', '--help'], home);
    assert.equal(good.code, 0, good.err);
    const kept = files(cache);
    assert.ok(kept.size > 0);
    // Every cache file keeps its length, with its bytes past the first 16 scrambled.
    for (const f of kept.keys()) {
      const p = join(cache, f);
      const b = readFileSync(p);
      for (let i = 16; i < b.length; i++) b[i] = (b[i]! ^ 0x5a) & 0xff;
      writeFileSync(p, b);
    }
    const damaged = files(cache);
    await new Promise((r) => setTimeout(r, 50));
    const after = runCli(['search', '--help'], home);
    assert.equal(after.code, 0, after.err);
    assert.equal(after.err, '');
    assert.equal(after.out, good.out);
    assert.notDeepEqual(files(cache), damaged, 'the damaged cache was not replaced');

    // A cache folder others may write to (code in it would run as the user): not used, nothing kept in it.
    const shared = join(home, 'shared');
    mkdirSync(join(shared, 'devindex', 'compile-cache'), { recursive: true });
    chmodSync(join(shared, 'devindex', 'compile-cache'), 0o777);
    const open = runCli(['search', '--help'], shared);
    assert.equal(open.code, 0, open.err);
    assert.equal(open.err, '');
    assert.equal(open.out, good.out);
    assert.deepEqual(
      files(join(shared, 'devindex', 'compile-cache')),
      new Map(),
      'code was kept in a folder others may write to',
    );

    // XDG_CACHE_HOME names a file: no folder can be made under it.
    const blocked = join(home, 'not-a-folder');
    writeFileSync(blocked, 'x');
    const run = runCli(['search', '--help'], blocked);
    assert.equal(run.code, 0, run.err);
    assert.equal(run.err, '');
    assert.equal(run.out, good.out);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test(
  "Node 20: a new build of a command bundle gets its own code, and the old build's is removed",
  { skip: nodeCache && 'Node 22.1+ keeps the code itself (its own files)' },
  () => {
    const home = mkdtempSync(join(tmpdir(), 'devindex-cc-'));
    try {
      // A copy of the built CLI, so that its search bundle can be "rebuilt" here.
      const dist = join(home, 'dist');
      mkdirSync(dist);
      for (const f of ['cli.js', 'cli-search.js']) copyFileSync(join(CLI_PATH, '..', f), join(dist, f));
      const run = () => runCli(['search', '--help'], home, join(dist, 'cli.js'));
      const codeFiles = () => {
        const dirs = readdirSync(join(home, 'devindex', 'compile-cache'));
        assert.equal(dirs.length, 1);
        assert.equal(dirs[0], `v8-${process.arch}-${process.versions.v8}`);
        return readdirSync(join(home, 'devindex', 'compile-cache', dirs[0]!)).sort();
      };
      const first = run();
      assert.equal(first.code, 0, first.err);
      const before = codeFiles();
      const size = statSync(join(dist, 'cli-search.js')).size;
      assert.equal(before.length, 1);
      assert.match(before[0]!, new RegExp(`^cli-search\\.js-[0-9a-f]{8}-${size}-\\d+\\.code$`));

      appendFileSync(join(dist, 'cli-search.js'), '\n// rebuilt\n');
      const second = run();
      assert.equal(second.code, 0, second.err);
      assert.equal(second.out, first.out);
      const after = codeFiles();
      assert.equal(after.length, 1, `kept: ${after.join(', ')}`);
      assert.match(after[0]!, new RegExp(`^cli-search\\.js-[0-9a-f]{8}-${size + 12}-\\d+\\.code$`));
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  },
);
