// Node-only, vscode-free: a folder's dependencies resolved to GitHub slugs from what is on disk
// (node_modules, go.mod, the local Cargo registry sources, a virtual environment). Nothing is fetched.
import { promises as fsp, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Versions } from './lockfiles';
// In dist/core.js this import is lockfileThread.ts (a worker thread, dist/lockfiles.js): see scripts/build.mjs.
import { readLockfileVersions, type LockfileKind, type LockfileReader } from './lockfileRead';
import { plainVersion, pythonMetadataVersion } from './versionText';
import {
  goModDependencies,
  importsFromRecord,
  npmDeclared,
  parseCargoToml,
  parsePythonMetadata,
  slugFromCrateToml,
} from './manifests';
import type { Ecosystem } from '../versions/versionCompare';
import { slugFromPackageJson, slugFromRepositoryField, type UnresolvedReason } from './repositoryField';

export interface Dependency {
  ecosystem: Ecosystem;
  name: string;
  /** The GitHub repository, when one was found. */
  slug?: string;
  /** The manifest field the slug came from (`repository`, `homepage`, `bugs`, `go.mod`, `Project-URL`, ...). */
  from?: string;
  /** A monorepo package's folder inside its repository (npm `repository.directory`). */
  directory?: string;
  reason?: UnresolvedReason;
  detail?: string;
  /** Python: the import names (top_level.txt, else the wheel's RECORD) that map to this distribution. */
  imports?: string[];
  /** The installed version as the disk states it; absent: version unknown (never guessed). */
  version?: string;
  /** Where the version was read: `node_modules`, `package-lock.json`, `yarn.lock`, `go.mod`, `Cargo.lock`, `METADATA`, ... */
  versionFrom?: string;
}

export interface FolderDependencies {
  root: string;
  deps: Dependency[];
  /** How many dependencies the manifests name in all (deps holds at most the bound). */
  total: number;
  truncated: boolean;
  ms: number;
}

export interface ResolveOptions {
  /** Upper bound on dependencies read (large monorepos). */
  maxDependencies: number;
  /** Cargo's home (registry sources under registry/src); default $CARGO_HOME or ~/.cargo. */
  cargoHome?: string;
  /** Lockfiles larger than this are not read (their versions stay unknown); default LOCKFILE_MAX_BYTES. */
  lockfileMaxBytes?: number;
  /** Reads a lockfile (default: this bundle's reader: in this thread, or in dist/core.js a worker thread). */
  readLockfile?: LockfileReader;
}

/** A lockfile above this size is not read: its versions stay unknown. 30 MB lockfiles exist in the wild; this is room above them. */
const LOCKFILE_MAX_BYTES = 64 * 1024 * 1024;
// npm-shrinkwrap.json first: when a folder has both, npm installs from it and ignores package-lock.json.
const NPM_LOCKFILES: readonly LockfileKind[] = [
  'npm-shrinkwrap.json',
  'package-lock.json',
  'yarn.lock',
  'pnpm-lock.yaml',
];

/**
 * Up to this size a file is read synchronously: a folder's manifests are many small files (a package.json per
 * installed package), and an asynchronous read of one costs several times the CPU of reading it (four trips
 * through libuv's thread pool) while a synchronous one holds the thread for microseconds.
 */
const SYNC_READ_MAX_BYTES = 256 * 1024;

export async function readText(path: string): Promise<string | undefined> {
  try {
    const size = statSync(path, { throwIfNoEntry: false })?.size;
    if (size === undefined) return undefined;
    return size <= SYNC_READ_MAX_BYTES ? readFileSync(path, 'utf8') : await fsp.readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The versions an npm lockfile states for `names`, from the folder's own lockfile, else the nearest parent's
 * (a workspace's lockfile sits at its root). Read only when asked (some dependency has no node_modules copy),
 * by `read` (lockfileRead.ts: in this thread a few names at a time; lockfileThread.ts: in a worker).
 */
async function npmLockfileVersions(
  root: string,
  names: readonly string[],
  ranges: ReadonlyMap<string, string>,
  maxBytes = LOCKFILE_MAX_BYTES,
  read: LockfileReader = readLockfileVersions,
): Promise<{ versions: Versions; file?: string }> {
  if (!names.length) return { versions: new Map() };
  for (let dir = root; ; dir = dirname(dir)) {
    for (const file of NPM_LOCKFILES) {
      const path = join(dir, file);
      let exists = false;
      try {
        exists = (await fsp.stat(path)).isFile();
      } catch {
        /* absent */
      }
      if (!exists) continue;
      const versions = await read({
        path,
        kind: file,
        names: [...names],
        ...(file === 'yarn.lock' ? { ranges: [...ranges] } : {}),
        maxBytes,
      });
      return { versions: versions ?? new Map(), file };
    }
    if (dirname(dir) === dir) return { versions: new Map() };
  }
}

export async function readJson(path: string): Promise<Record<string, unknown> | undefined> {
  const t = await readText(path);
  if (t === undefined) return undefined;
  try {
    const v = JSON.parse(t) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Runs `fn` over `items` with at most `limit` at a time, keeping order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

function unresolved(ecosystem: Ecosystem, name: string, reason: UnresolvedReason, detail: string): Dependency {
  return { ecosystem, name, reason, detail };
}

// ---------------------------------------------------------------- npm

async function npmDeps(
  root: string,
  budget: number,
  lockMax: number,
  read: LockfileReader,
): Promise<{ deps: Dependency[]; total: number }> {
  const pkg = await readJson(join(root, 'package.json'));
  if (!pkg) return { deps: [], total: 0 };
  const specs = npmDeclared(pkg);
  const names = [...specs.keys()].slice(0, budget);
  const deps = await mapLimit(names, 32, async (name) => {
    const installed = await findInstalled(root, name);
    if (installed) {
      const r = slugFromPackageJson(installed);
      const version = plainVersion(installed.version);
      const v = version ? { version, versionFrom: 'node_modules' } : {};
      return r.ok
        ? {
            ecosystem: 'npm' as const,
            name,
            slug: r.slug,
            from: r.field,
            ...(r.directory ? { directory: r.directory } : {}),
            ...v,
          }
        : { ...unresolved('npm', name, r.reason, r.detail), ...v };
    }
    // Not installed: a dependency given as a GitHub spec (`github:o/r`, `o/r#ref`, `git+https://github.com/...`) still names its repository.
    const spec = specs.get(name) ?? '';
    if (/^(github:|git\+|git:|https?:|[\w.-]+\/[\w.-]+(#.*)?$)/.test(spec)) {
      const r = slugFromRepositoryField(spec.replace(/#.*$/, ''));
      if (r.ok) return { ecosystem: 'npm' as const, name, slug: r.slug, from: 'dependency spec' };
    }
    return unresolved('npm', name, 'not-installed', 'run npm install');
  });
  // The lockfile only for what node_modules did not answer (lazily: most installs never read it).
  const missing = deps.filter((d) => !d.version).map((d) => d.name);
  if (missing.length) {
    const { versions, file } = await npmLockfileVersions(root, missing, specs, lockMax, read);
    for (const d of deps) {
      const v = d.version ? undefined : versions.get(d.name);
      if (v) {
        d.version = v;
        d.versionFrom = file;
      }
    }
  }
  return { deps, total: specs.size };
}

/** The installed package's package.json: node_modules of the folder, then of its parents (hoisted installs). */
export async function findInstalled(root: string, name: string): Promise<Record<string, unknown> | undefined> {
  for (let dir = root; ; dir = dirname(dir)) {
    const pkg = await readJson(join(dir, 'node_modules', ...name.split('/'), 'package.json'));
    if (pkg) return pkg;
    if (dirname(dir) === dir) return undefined;
  }
}

// ---------------------------------------------------------------- Go

async function goDeps(root: string, budget: number): Promise<{ deps: Dependency[]; total: number }> {
  const text = await readText(join(root, 'go.mod'));
  return text === undefined ? { deps: [], total: 0 } : goModDependencies(text, budget);
}

// ---------------------------------------------------------------- Rust

async function cargoDeps(
  root: string,
  budget: number,
  cargoHome: string,
  lockMax: number,
  read: LockfileReader,
): Promise<{ deps: Dependency[]; total: number }> {
  const text = await readText(join(root, 'Cargo.toml'));
  if (text === undefined) return { deps: [], total: 0 };
  const wanted = parseCargoToml(text);
  const rootName = /^\[package\][^[]*?^name\s*=\s*"([^"]+)"/m.exec(text)?.[1];
  const locked = wanted.length
    ? ((await read({
        path: join(root, 'Cargo.lock'),
        kind: 'Cargo.lock',
        names: wanted.map((d) => d.crate),
        ...(rootName !== undefined ? { rootPackage: rootName } : {}),
        maxBytes: lockMax,
      })) ?? new Map<string, string>())
    : new Map<string, string>();
  // One listing of the registry sources: crate name -> its unpacked `<crate>-<version>` folders.
  const dirs = new Map<string, string[]>();
  const srcRoot = join(cargoHome, 'registry', 'src');
  let indexes: string[] = [];
  try {
    indexes = await fsp.readdir(srcRoot);
  } catch {
    /* no registry sources */
  }
  for (const idx of indexes) {
    let entries: string[] = [];
    try {
      entries = await fsp.readdir(join(srcRoot, idx));
    } catch {
      continue;
    }
    for (const e of entries) {
      const m = /^(.+?)-(\d+\.\d+\.\d+.*)$/.exec(e);
      if (m) (dirs.get(m[1]!) ?? dirs.set(m[1]!, []).get(m[1]!)!).push(join(srcRoot, idx, e));
    }
  }
  const deps = await mapLimit(wanted.slice(0, budget), 16, async (d): Promise<Dependency> => {
    const version = locked.get(d.crate);
    const v = version ? { version, versionFrom: 'Cargo.lock' } : {};
    const dep = await cargoDep(d, version, dirs, srcRoot);
    return { ...dep, ...v };
  });
  return { deps, total: wanted.length };
}

async function cargoDep(
  d: { name: string; crate: string },
  version: string | undefined,
  dirs: Map<string, string[]>,
  srcRoot: string,
): Promise<Dependency> {
  {
    const candidates = dirs.get(d.crate) ?? [];
    if (!candidates.length)
      return unresolved('cargo', d.name, 'not-installed', `no ${d.crate} sources under ${srcRoot} (run cargo fetch)`);
    const dir =
      candidates.find((c) => version && c.endsWith(`-${version}`)) ?? candidates.sort(compareVersionDirs).at(-1)!;
    const toml = await readText(join(dir, 'Cargo.toml'));
    if (toml === undefined) return unresolved('cargo', d.name, 'not-installed', `no Cargo.toml in ${dir}`);
    const r = slugFromCrateToml(toml);
    return r.ok
      ? { ecosystem: 'cargo', name: d.name, slug: r.slug, from: 'Cargo.toml repository' }
      : unresolved('cargo', d.name, r.reason, r.detail);
  }
}

function compareVersionDirs(a: string, b: string): number {
  const v = (s: string) => (/-(\d+)\.(\d+)\.(\d+)/.exec(s) ?? []).slice(1).map(Number);
  const [x, y] = [v(a), v(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return a.localeCompare(b);
}

// ---------------------------------------------------------------- Python

export const VENV_NAMES = ['.venv', 'venv', 'env', '.env'];

/**
 * The folder's virtual environment's site-packages. Probed synchronously: most folders have none, and the
 * eight misses (four names, two layouts) each cost a trip through libuv's thread pool when asynchronous.
 */
function sitePackages(root: string): string | undefined {
  for (const v of VENV_NAMES) {
    const base = join(root, v);
    const win = join(base, 'Lib', 'site-packages');
    let libs: string[];
    try {
      if (statSync(win, { throwIfNoEntry: false })?.isDirectory()) return win;
      libs = readdirSync(join(base, 'lib'));
    } catch {
      continue;
    }
    const py = libs
      .filter((l) => /^python\d/.test(l))
      .sort()
      .at(-1);
    if (py) return join(base, 'lib', py, 'site-packages');
  }
  return undefined;
}

/** A distribution's import names: top_level.txt, else (wheels built without it) the top-level packages and modules its RECORD installs. */
export async function importNames(distInfo: string): Promise<string[]> {
  const top = (await readText(join(distInfo, 'top_level.txt')))
    ?.split(/\r?\n/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (top?.length) return top;
  const record = await readText(join(distInfo, 'RECORD'));
  return record === undefined ? [] : importsFromRecord(record);
}

async function pythonDeps(root: string, budget: number): Promise<{ deps: Dependency[]; total: number }> {
  const site = sitePackages(root);
  if (!site) return { deps: [], total: 0 };
  let infos: string[] = [];
  try {
    infos = (await fsp.readdir(site)).filter((e) => e.endsWith('.dist-info'));
  } catch {
    return { deps: [], total: 0 };
  }
  const deps = await mapLimit(infos.slice(0, budget), 16, async (info): Promise<Dependency> => {
    const meta = await readText(join(site, info, 'METADATA'));
    const fallbackName = info.replace(/-[^-]+\.dist-info$/, '');
    const top = await importNames(join(site, info));
    const imports = top.length ? { imports: top } : {};
    if (meta === undefined)
      return { ...unresolved('pypi', fallbackName, 'no-repository-field', 'no METADATA'), ...imports };
    const { name, result } = parsePythonMetadata(meta);
    const n = name ?? fallbackName;
    const version = pythonMetadataVersion(meta);
    const v = version ? { version, versionFrom: 'METADATA' } : {};
    return result.ok
      ? { ecosystem: 'pypi', name: n, slug: result.slug, from: 'METADATA', ...imports, ...v }
      : { ...unresolved('pypi', n, result.reason, result.detail), ...imports, ...v };
  });
  return { deps, total: infos.length };
}

// ---------------------------------------------------------------- the folder

/** Reads every manifest of `root` (npm, Go, Cargo, Python venv), at most `maxDependencies` dependencies in all. */
export async function resolveFolder(root: string, opts: ResolveOptions): Promise<FolderDependencies> {
  const t0 = performance.now();
  const cargoHome = opts.cargoHome ?? process.env.CARGO_HOME ?? join(homedir(), '.cargo');
  const lockMax = opts.lockfileMaxBytes ?? LOCKFILE_MAX_BYTES;
  const readLock = opts.readLockfile ?? readLockfileVersions;
  let budget = Math.max(0, opts.maxDependencies);
  const deps: Dependency[] = [];
  let total = 0;
  for (const read of [
    (b: number) => npmDeps(root, b, lockMax, readLock),
    (b: number) => goDeps(root, b),
    (b: number) => cargoDeps(root, b, cargoHome, lockMax, readLock),
    (b: number) => pythonDeps(root, b),
  ]) {
    const r = await read(budget);
    deps.push(...r.deps);
    total += r.total;
    budget -= r.deps.length;
  }
  return { root, deps, total, truncated: total > deps.length, ms: performance.now() - t0 };
}
