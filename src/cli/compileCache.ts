// V8's compiled code of the command bundles, kept between runs in the user's own cache folder, so that a spawned
// `devindex mcp` does not compile its half-megabyte bundle again (spawn to first answer about 0.7x, npm run bench,
// mcp). NODE_COMPILE_CACHE still wins; NODE_DISABLE_COMPILE_CACHE=1 turns it off; an unwritable folder only costs time.
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { cacheDir } from './cliState';

// Node 22.1+ has module.enableCompileCache. Node 20 has only V8's code cache through node:vm: the bundle is compiled
// with last run's code and put in require.cache. Not v8-compile-cache: it hooks every require, keeps only code compiled
// before the bundle runs, and rewrites its whole cache at every exit. Here the code is kept once, after the command ran
// (so it holds the functions the command used), and again only when V8 refused it. Never a shared temporary folder
// (another user could write there).
type CompileCache = { by: 'node'; dir: string } | { by: 'code-cache'; dir: string } | { by: 'none'; why: string };

/** What the running Node offers; injected by tests. */
export interface CompileCacheRuntime {
  /** Node 22.1+'s module.enableCompileCache, absent before. */
  enableCompileCache?: (dir?: string) => unknown;
  /**
   * Makes the folder `dir` (under `base`, the user's cache folder), for the user alone; throws when it, or
   * a folder between it and `base`, is not the user's alone (ownFolder).
   */
  makeDir: (dir: string, base: string) => void;
  /** Node 20: has loadCommandBundle keep code in `dir`. */
  useCodeCache: (dir: string) => void;
  arch: string;
  v8: string;
}

/**
 * Whether code may be read from a folder: the user's own, and no one else may write to it (code in it
 * runs as the user). Where there are no POSIX owners (Windows: no `uid`), the user's profile decides.
 */
export function ownFolder(st: { uid: number; mode: number }, uid: number | undefined): boolean {
  return uid === undefined || (st.uid === uid && (st.mode & 0o022) === 0);
}

/** Node 20: the folder loadCommandBundle keeps code in, once startCompileCache chose it. */
let codeCacheDir: string | undefined;

const realRuntime = (): CompileCacheRuntime => ({
  enableCompileCache: (Module as unknown as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache,
  makeDir: (dir, base) => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (let d = dir; ; d = dirname(d)) {
      if (!ownFolder(statSync(d), process.getuid?.()))
        throw Object.assign(new Error(`${d} is not the user's alone`), { code: 'NOT_OWN_FOLDER' });
      if (d === base || dirname(d) === d) break;
    }
  },
  useCodeCache: (dir) => {
    codeCacheDir = dir;
  },
  arch: process.arch,
  v8: process.versions.v8,
});

/** Turns the cache on for the command bundles this process loads from now on, and says which one and where. Never throws. */
export function startCompileCache(env: NodeJS.ProcessEnv, rt: CompileCacheRuntime = realRuntime()): CompileCache {
  try {
    if (env.NODE_DISABLE_COMPILE_CACHE) return { by: 'none', why: 'NODE_DISABLE_COMPILE_CACHE is set' };
    const base = cacheDir(env);
    const root = join(base, 'compile-cache');
    if (rt.enableCompileCache) {
      if (env.NODE_COMPILE_CACHE) {
        rt.enableCompileCache(); // Node reads the variable itself
        return { by: 'node', dir: env.NODE_COMPILE_CACHE };
      }
      rt.makeDir(root, base);
      rt.enableCompileCache(root);
      return { by: 'node', dir: root };
    }
    // V8 refuses code from another V8 or architecture: one folder each, so that switching Node versions
    // does not make each run throw the other's code away and write its own.
    const dir = join(root, `v8-${rt.arch}-${rt.v8}`);
    rt.makeDir(dir, base);
    rt.useCodeCache(dir);
    return { by: 'code-cache', dir };
  } catch (e) {
    return { by: 'none', why: (e as NodeJS.ErrnoException).code ?? String(e) };
  }
}

/** A short tag of a folder's path (FNV-1a, 32 bits): not a secret, only a name that differs between folders. */
export function folderTag(folder: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < folder.length; i++) h = Math.imul(h ^ folder.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** When the code is kept if the process has not exited by then (an MCP server runs for hours, and is often killed, not ended). */
const KEEP_AFTER_MS = 3_000;

/** Runs the deferred write after `ms` (tests pass their own, and run it when they choose). */
export type KeepTimer = (keep: () => void, ms: number) => void;
const keepLater: KeepTimer = (keep, ms) => {
  setTimeout(keep, ms).unref();
};

/**
 * Node 20, after startCompileCache: loads the bundle `file` (absolute) with the code kept from an earlier
 * run, and leaves it in require.cache for the command's own `require`. Says whether V8 took the kept
 * code (`from-cache`) or compiled the bundle (`compiled`: the code is kept for the next run). Does
 * nothing otherwise (undefined), or when the bundle is already loaded. A failure before the bundle runs
 * leaves it to the ordinary require; one while it runs is the bundle's own and is thrown.
 */
export function loadCommandBundle(
  file: string,
  o: { dir?: string; keepAfterMs?: number; schedule?: KeepTimer } = {},
): 'from-cache' | 'compiled' | undefined {
  const dir = o.dir ?? codeCacheDir;
  if (!dir || require.cache[file]) return undefined;
  let script: Script;
  let cached: Buffer | undefined;
  let cacheFile: string;
  let prefix: string;
  try {
    const st = statSync(file);
    // The bundle's name and folder (two installed copies do not take each other's place), then its size
    // and time: V8 itself checks only the source's length.
    prefix = `${basename(file)}-${folderTag(dirname(file))}-`;
    cacheFile = join(dir, `${prefix}${st.size}-${Math.floor(st.mtimeMs)}.code`);
    try {
      cached = readFileSync(cacheFile);
    } catch {
      cached = undefined;
    }
    script = new Script(Module.wrap(readFileSync(file, 'utf8')), {
      filename: file,
      ...(cached ? { cachedData: cached } : {}),
    });
  } catch {
    return undefined;
  }
  const mod = new Module(file, require.main ?? undefined);
  mod.filename = file;
  require.cache[file] = mod;
  try {
    (script.runInThisContext() as (...a: unknown[]) => void).call(
      mod.exports,
      mod.exports,
      createRequire(file),
      mod,
      file,
      dirname(file),
    );
    mod.loaded = true;
  } catch (e) {
    delete require.cache[file];
    throw e;
  }
  if (cached && !script.cachedDataRejected) return 'from-cache';
  // The code is taken after the command has run, so that it holds what the command compiled on the way.
  let kept = false;
  const keep = () => {
    if (kept) return;
    kept = true;
    try {
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
      renameSync(tmp, cacheFile);
      // An earlier build's code for the same bundle is no use any more (nor a write a killed run left).
      for (const f of readdirSync(dir))
        if (f.startsWith(prefix) && join(dir, f) !== cacheFile) unlinkSync(join(dir, f));
    } catch {
      // A cache that cannot be written: the next run compiles, as without one.
    }
  };
  process.once('exit', keep);
  (o.schedule ?? keepLater)(keep, o.keepAfterMs ?? KEEP_AFTER_MS);
  return 'compiled';
}
