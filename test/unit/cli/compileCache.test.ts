// Spawn to first answer: which compile cache the CLI turns on and where it keeps the code
// (the runtime injected), and Node 20's own loader of a command bundle with V8's kept code (real files,
// real node:vm). The built CLI's processes are in test/http/compileCache.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import {
  folderTag,
  loadCommandBundle,
  ownFolder,
  startCompileCache,
  type CompileCacheRuntime,
  type KeepTimer,
} from '../../../src/cli/compileCache';
import { cacheDir } from '../../../src/cli/cliState';

interface Calls {
  enabled: Array<string | undefined>;
  made: string[];
  bases: string[];
  used: string[];
}

function runtime(
  node22: boolean,
  o: { makeDir?: (d: string) => void } = {},
): { rt: CompileCacheRuntime; calls: Calls } {
  const calls: Calls = { enabled: [], made: [], bases: [], used: [] };
  const rt: CompileCacheRuntime = {
    ...(node22
      ? {
          enableCompileCache: (dir?: string) => {
            calls.enabled.push(dir);
          },
        }
      : {}),
    makeDir:
      o.makeDir ??
      ((d, b) => {
        calls.made.push(d);
        calls.bases.push(b);
      }),
    useCodeCache: (d) => {
      calls.used.push(d);
    },
    arch: 'x64',
    v8: '11.3.244.8-node.38',
  };
  return { rt, calls };
}

const env = { XDG_CACHE_HOME: '/home/me/.cache' };

test("Node 22.1+: Node's own cache, in the user's cache folder (made for the user alone), not the temp folder", () => {
  assert.equal(cacheDir(env, 'linux'), '/home/me/.cache/devindex');
  const { rt, calls } = runtime(true);
  assert.deepEqual(startCompileCache(env, rt), { by: 'node', dir: join('/home/me/.cache/devindex', 'compile-cache') });
  assert.deepEqual(calls, {
    enabled: [join('/home/me/.cache/devindex', 'compile-cache')],
    made: [join('/home/me/.cache/devindex', 'compile-cache')],
    bases: ['/home/me/.cache/devindex'],
    used: [],
  });
});

test('Node 22.1+: NODE_COMPILE_CACHE chooses the folder (Node reads it itself); NODE_DISABLE_COMPILE_CACHE turns it off', () => {
  let r = runtime(true);
  assert.deepEqual(startCompileCache({ ...env, NODE_COMPILE_CACHE: '/elsewhere' }, r.rt), {
    by: 'node',
    dir: '/elsewhere',
  });
  assert.deepEqual(r.calls, { enabled: [undefined], made: [], bases: [], used: [] });
  r = runtime(true);
  assert.deepEqual(startCompileCache({ ...env, NODE_DISABLE_COMPILE_CACHE: '1' }, r.rt), {
    by: 'none',
    why: 'NODE_DISABLE_COMPILE_CACHE is set',
  });
  assert.deepEqual(r.calls, { enabled: [], made: [], bases: [], used: [] });
});

test("Node 20: the project's code cache, one folder per architecture and V8 (switching Node versions does not churn it); NODE_DISABLE_COMPILE_CACHE turns it off", () => {
  let r = runtime(false);
  const dir = join('/home/me/.cache/devindex', 'compile-cache', 'v8-x64-11.3.244.8-node.38');
  assert.deepEqual(startCompileCache(env, r.rt), { by: 'code-cache', dir });
  assert.deepEqual(r.calls, { enabled: [], made: [dir], bases: ['/home/me/.cache/devindex'], used: [dir] });
  r = runtime(false);
  assert.equal(startCompileCache({ ...env, NODE_DISABLE_COMPILE_CACHE: '1' }, r.rt).by, 'none');
  assert.deepEqual([r.calls.made, r.calls.used], [[], []]);
});

test('a cache folder that cannot be made leaves the cache off and never throws: the command runs as without one', () => {
  for (const node22 of [true, false]) {
    const { rt, calls } = runtime(node22, {
      makeDir: () => {
        throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      },
    });
    assert.deepEqual(startCompileCache(env, rt), { by: 'none', why: 'EACCES' });
    assert.deepEqual([calls.enabled, calls.used], [[], []]);
  }
});

test("code is read only from a folder that is the user's and that no one else may write to", () => {
  assert.equal(ownFolder({ uid: 1000, mode: 0o40700 }, 1000), true);
  assert.equal(ownFolder({ uid: 1000, mode: 0o40755 }, 1000), true, 'others may read');
  assert.equal(ownFolder({ uid: 1000, mode: 0o40775 }, 1000), false, 'the group may write');
  assert.equal(ownFolder({ uid: 1000, mode: 0o41777 }, 1000), false, 'anyone may write (a shared temp folder)');
  assert.equal(ownFolder({ uid: 0, mode: 0o40700 }, 1000), false, "another user's");
  assert.equal(ownFolder({ uid: 0, mode: 0o40777 }, undefined), true, 'no POSIX owners (Windows)');
});

/** A bundle like dist/cli-*.js: CommonJS that requires a builtin and a file next to it, and uses its own folder. */
function writeBundle(dir: string, name: string, value: string): string {
  const file = join(dir, name);
  writeFileSync(join(dir, 'helper.js'), 'module.exports = (s) => s.toUpperCase();\n');
  writeFileSync(
    file,
    `"use strict";\nconst path = require("node:path");\nconst up = require("./helper.js");\n` +
      `function answer() { return up(${JSON.stringify(value)}) + " " + path.basename(__dirname); }\n` +
      `exports.run = () => answer();\nexports.self = module;\n`,
  );
  return file;
}

/** The deferred write's timer, held by the test: `due()` runs what is scheduled (test-controlled time). */
function heldTimer(): { schedule: KeepTimer; waits: number[]; due(): void } {
  const pending: Array<() => void> = [];
  const waits: number[] = [];
  return {
    schedule: (keep, ms) => {
      pending.push(keep);
      waits.push(ms);
    },
    waits,
    due: () => {
      for (const keep of pending.splice(0)) keep();
    },
  };
}

// In one process V8 reuses a source it compiled before whatever code it is given, so whether a later
// process takes the kept code (and refuses damaged code) is tested across processes, with the built CLI,
// in test/http/compileCache.test.ts.
test('Node 20 loader: the bundle runs as an ordinary require would load it, and its code is kept (for the user alone) once it ran', () => {
  const root = mkdtempSync(join(tmpdir(), 'devindex-bundle-'));
  try {
    const cache = join(root, 'cache');
    const file = writeBundle(root, 'cli-x.js', 'ok');
    assert.equal(loadCommandBundle(file), undefined, 'nothing without a cache folder (Node 22+, or a test build)');
    assert.equal(require.cache[file], undefined);

    mkdirSync(cache);
    const later = heldTimer();
    assert.equal(loadCommandBundle(file, { dir: cache, keepAfterMs: 10_000, schedule: later.schedule }), 'compiled');
    assert.deepEqual(later.waits, [10_000], 'the write is deferred by the time asked for');
    const loaded = require(file) as { run(): string; self: NodeJS.Module };
    assert.equal(loaded.run(), `OK ${basename(root)}`, 'require, __dirname and exports work as in an ordinary load');
    assert.equal(loaded.self.filename, file);
    assert.equal(
      (require.cache[file] as NodeJS.Module | undefined)?.exports,
      loaded,
      "the command's own require finds the loaded bundle",
    );
    assert.equal(loadCommandBundle(file, { dir: cache }), undefined, 'a loaded bundle is left alone');
    assert.deepEqual(readdirSync(cache), [], 'not kept before the time comes (or the process exits)');

    later.due();
    const st = statSync(file);
    const expected = `cli-x.js-${folderTag(root)}-${st.size}-${Math.floor(st.mtimeMs)}.code`;
    assert.deepEqual(readdirSync(cache), [expected]);
    assert.ok(statSync(join(cache, expected)).size > 100);
    if (process.platform !== 'win32') assert.equal(statSync(join(cache, expected)).mode & 0o777, 0o600);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('Node 20 loader: a bundle that throws is not left loaded; a folder it cannot write to costs nothing but the cache', () => {
  const root = mkdtempSync(join(tmpdir(), 'devindex-bundle-'));
  try {
    const bad = join(root, 'cli-z.js');
    writeFileSync(bad, 'throw new Error("the bundle failed");\n');
    assert.throws(() => loadCommandBundle(bad, { dir: root }), /the bundle failed/);
    assert.equal(require.cache[bad], undefined);

    const file = writeBundle(root, 'cli-w.js', 'fine');
    const later = heldTimer();
    assert.equal(
      loadCommandBundle(file, { dir: join(root, 'no', 'such', 'folder'), keepAfterMs: 0, schedule: later.schedule }),
      'compiled',
    );
    assert.match((require(file) as { run(): string }).run(), /^FINE /);
    later.due();
    assert.equal(existsSync(join(root, 'no')), false, 'no folder is made for a cache that cannot be written');
    assert.equal(
      loadCommandBundle(join(root, 'missing.js'), { dir: root }),
      undefined,
      'a missing bundle is left to the ordinary require and its error',
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("two installed copies of a bundle keep their own code; a copy's older build's code is removed", () => {
  assert.match(folderTag('/a/dist'), /^[0-9a-f]{8}$/);
  assert.equal(folderTag('/a/dist'), folderTag('/a/dist'));
  assert.notEqual(folderTag('/a/dist'), folderTag('/b/dist'));
  const root = mkdtempSync(join(tmpdir(), 'devindex-bundle-'));
  try {
    const cache = join(root, 'cache');
    mkdirSync(cache);
    mkdirSync(join(root, 'stable'));
    mkdirSync(join(root, 'insiders'));
    const a = writeBundle(join(root, 'stable'), 'cli-v.js', 'a');
    const b = writeBundle(join(root, 'insiders'), 'cli-v.js', 'b');
    const later = heldTimer();
    loadCommandBundle(a, { dir: cache, keepAfterMs: 0, schedule: later.schedule });
    loadCommandBundle(b, { dir: cache, keepAfterMs: 0, schedule: later.schedule });
    later.due();
    assert.deepEqual(
      readdirSync(cache)
        .map((f) => f.split('-')[2])
        .sort(),
      [folderTag(join(root, 'insiders')), folderTag(join(root, 'stable'))].sort(),
    );
    // The stable copy is rebuilt (another size): its old code goes, the other copy's stays.
    delete require.cache[a];
    writeBundle(join(root, 'stable'), 'cli-v.js', 'a, rebuilt');
    loadCommandBundle(a, { dir: cache, keepAfterMs: 0, schedule: later.schedule });
    later.due();
    const kept = readdirSync(cache).sort();
    assert.equal(kept.length, 2, kept.join(', '));
    assert.ok(kept.some((f) => f.startsWith(`cli-v.js-${folderTag(join(root, 'stable'))}-${statSync(a).size}-`)));
    assert.ok(kept.some((f) => f.startsWith(`cli-v.js-${folderTag(join(root, 'insiders'))}-`)));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the bundle names main.ts loads are the ones scripts/build.mjs writes', () => {
  const root = join(__dirname, '..', '..', '..', '..');
  const main = readFileSync(join(root, 'src', 'cli', 'main.ts'), 'utf8');
  const build = readFileSync(join(root, 'scripts', 'build.mjs'), 'utf8');
  const loaded = [...main.matchAll(/bundle\('(cli-[a-z]+\.js)'\)/g)].map((m) => m[1]).sort();
  const built = [...(/const CLI_COMMANDS = \{([^}]*)\}/.exec(build)?.[1] ?? '').matchAll(/'\.\/(cli-[a-z]+\.js)'/g)]
    .map((m) => m[1])
    .sort();
  assert.equal(loaded.length, 7);
  assert.deepEqual(loaded, built);
});
