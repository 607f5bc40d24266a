// vscode-free, no file system of its own: a folder's dependencies from its manifests and lockfiles alone, through the
// host's reader (the browser's workspace.fs). What only an installed package says is unknown there: those rows are
// "not installed here" (`not-installed`); Go modules name their repository in the module path, so they resolve.
import { cargoLockVersions, npmLockVersions, pnpmLockVersions, yarnLockVersions, type Versions } from './lockfiles';
import { goModDependencies, npmDeclared, parseCargoToml } from './manifests';
import { slugFromRepositoryField } from './repositoryField';
import type { Dependency, FolderDependencies } from './resolver';

/** A file of the folder by its name at the folder's top; undefined when absent or above `maxBytes`. */
type FolderReader = (name: string, maxBytes: number) => Promise<string | undefined>;

export const NOT_INSTALLED_HERE =
  'not installed here: the browser reads manifests and lockfiles, not installed packages';
const LOCK_MAX = 64 * 1024 * 1024;
// npm-shrinkwrap.json first: when a folder has both, npm installs from it and ignores package-lock.json.
const NPM_LOCKFILES = ['npm-shrinkwrap.json', 'package-lock.json', 'yarn.lock', 'pnpm-lock.yaml'] as const;

function json(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

async function npm(
  read: FolderReader,
  budget: number,
  lockMax: number,
): Promise<{ deps: Dependency[]; total: number }> {
  const pkg = json(await read('package.json', 4 * 1024 * 1024));
  if (!pkg) return { deps: [], total: 0 };
  const specs = npmDeclared(pkg);
  const names = [...specs.keys()].slice(0, budget);
  let versions: Versions = new Map();
  let from: string | undefined;
  for (const file of NPM_LOCKFILES) {
    const text = await read(file, lockMax);
    if (text === undefined) continue;
    from = file;
    versions =
      file === 'yarn.lock'
        ? yarnLockVersions(text, names, specs)
        : file === 'pnpm-lock.yaml'
          ? pnpmLockVersions(text, names)
          : npmLockVersions(text, names);
    break;
  }
  const deps = names.map((name): Dependency => {
    const version = versions.get(name);
    const v = version ? { version, versionFrom: from } : {};
    // A dependency given as a GitHub spec (`github:o/r`, `o/r#ref`, `git+https://github.com/...`) names its repository.
    const spec = specs.get(name) ?? '';
    if (/^(github:|git\+|git:|https?:|[\w.-]+\/[\w.-]+(#.*)?$)/.test(spec)) {
      const r = slugFromRepositoryField(spec.replace(/#.*$/, ''));
      if (r.ok) return { ecosystem: 'npm', name, slug: r.slug, from: 'dependency spec', ...v };
    }
    return { ecosystem: 'npm', name, reason: 'not-installed', detail: NOT_INSTALLED_HERE, ...v };
  });
  return { deps, total: specs.size };
}

async function go(read: FolderReader, budget: number): Promise<{ deps: Dependency[]; total: number }> {
  const text = await read('go.mod', 4 * 1024 * 1024);
  return text === undefined ? { deps: [], total: 0 } : goModDependencies(text, budget);
}

async function cargo(
  read: FolderReader,
  budget: number,
  lockMax: number,
): Promise<{ deps: Dependency[]; total: number }> {
  const text = await read('Cargo.toml', 4 * 1024 * 1024);
  if (text === undefined) return { deps: [], total: 0 };
  const wanted = parseCargoToml(text);
  const lock = await read('Cargo.lock', lockMax);
  const rootName = /^\[package\][^[]*?^name\s*=\s*"([^"]+)"/m.exec(text)?.[1];
  const locked = lock
    ? cargoLockVersions(
        lock,
        wanted.map((d) => d.crate),
        rootName,
      )
    : new Map<string, string>();
  const deps = wanted.slice(0, budget).map((d): Dependency => {
    const version = locked.get(d.crate);
    return {
      ecosystem: 'cargo',
      name: d.name,
      reason: 'not-installed',
      detail: NOT_INSTALLED_HERE,
      ...(version ? { version, versionFrom: 'Cargo.lock' } : {}),
    };
  });
  return { deps, total: wanted.length };
}

/** npm, Go and Cargo from the folder's top-level files; at most `maxDependencies` in all. */
export async function manifestDependencies(
  root: string,
  read: FolderReader,
  opts: { maxDependencies: number; lockfileMaxBytes?: number },
): Promise<FolderDependencies> {
  const t0 = Date.now();
  const lockMax = opts.lockfileMaxBytes ?? LOCK_MAX;
  let budget = Math.max(0, opts.maxDependencies);
  const deps: Dependency[] = [];
  let total = 0;
  for (const next of [
    (b: number) => npm(read, b, lockMax),
    (b: number) => go(read, b),
    (b: number) => cargo(read, b, lockMax),
  ]) {
    const r = await next(budget);
    deps.push(...r.deps);
    total += r.total;
    budget -= r.deps.length;
  }
  return { root, deps, total, truncated: total > deps.length, ms: Date.now() - t0 };
}
