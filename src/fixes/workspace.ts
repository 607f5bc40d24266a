// Node, vscode-free: a workspace folder's dependencies for the fixes check, read by the resolver every surface
// uses (src/deps/resolver.ts), with the line that declares each one; `all` adds the lockfiles' transitive ones.
import { promises as fsp, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { findInstalled, readText, resolveFolder, VENV_NAMES, type Dependency } from '../deps/resolver';
import { normalizePythonName, parseGoMod, slugFromCrateToml } from '../deps/manifests';
import { slugFromPackageJson } from '../deps/repositoryField';
import { plainVersion } from '../deps/versionText';
import {
  cargoLockEntries,
  cargoTomlLine,
  goModLine,
  npmLockEntries,
  packageJsonLines,
  pnpmLockEntries,
  pythonRequirementLine,
  pythonRequirementNames,
  yarnLockEntries,
  type LockEntry,
} from './lines';
import type { ManifestLocation, WorkspaceDependencies, WorkspaceDependency } from './report';

interface ReadOptions {
  /** Transitive dependencies too, from the lockfiles (and a venv's other distributions). */
  all?: boolean;
  /** Cargo's home (registry sources under registry/src); default $CARGO_HOME or ~/.cargo. */
  cargoHome?: string;
}

const MAX_DEPENDENCIES = 5000;
const NPM_LOCKFILES = ['npm-shrinkwrap.json', 'package-lock.json', 'yarn.lock', 'pnpm-lock.yaml'] as const;
const PYTHON_MANIFESTS = ['requirements.txt', 'requirements-dev.txt', 'dev-requirements.txt', 'pyproject.toml'];
const PYTHON_LOCKFILES = ['uv.lock', 'poetry.lock', 'pdm.lock'];
const HOSTS: Record<string, string> = {
  'gitlab.com': 'GitLab',
  'bitbucket.org': 'Bitbucket',
  'codeberg.org': 'Codeberg',
  'git.sr.ht': 'SourceHut',
  'gist.github.com': 'a gist',
};

/** The resolver's reason in the report's words: `repository on GitLab`, `not installed (run npm install)`. */
function skipWords(d: Pick<Dependency, 'reason' | 'detail'>): string {
  const host = /(?:hosted on|module path on) (\S+)/.exec(d.detail ?? '')?.[1]?.toLowerCase();
  switch (d.reason) {
    case 'not-on-github':
      return host ? `repository on ${HOSTS[host] ?? host}` : 'repository not on GitHub';
    case 'no-repository-field':
      return 'its manifest names no repository';
    case 'not-installed':
      return `not installed${d.detail ? ` (${d.detail})` : ''}`;
    default:
      return `repository not understood${d.detail ? ` (${d.detail})` : ''}`;
  }
}

function row(d: Dependency, manifest: ManifestLocation, direct: boolean): WorkspaceDependency {
  return {
    ecosystem: d.ecosystem,
    name: d.name,
    ...(d.version ? { installed: d.version } : {}),
    ...(d.slug ? { repository: d.slug } : { skipReason: skipWords(d) }),
    manifest,
    direct,
  };
}

async function firstText(root: string, names: readonly string[]): Promise<{ file: string; text: string } | undefined> {
  for (const file of names) {
    const text = await readText(join(root, file));
    if (text !== undefined) return { file, text };
  }
  return undefined;
}

/** npm's transitive packages: the lockfile's entries the manifest does not declare, their repository from node_modules. */
async function npmTransitive(root: string, direct: ReadonlySet<string>): Promise<WorkspaceDependency[]> {
  const lock = await firstText(root, NPM_LOCKFILES);
  if (!lock) return [];
  const entries: LockEntry[] =
    lock.file === 'yarn.lock'
      ? yarnLockEntries(lock.text)
      : lock.file === 'pnpm-lock.yaml'
        ? pnpmLockEntries(lock.text)
        : npmLockEntries(lock.text);
  const seen = new Set<string>();
  const wanted = entries.filter((e) => !direct.has(e.name) && !seen.has(e.name) && seen.add(e.name));
  return Promise.all(
    wanted.map(async (e): Promise<WorkspaceDependency> => {
      const manifest = { file: lock.file, line: e.line };
      const version = plainVersion(e.version);
      const base = { ecosystem: 'npm' as const, name: e.name, ...(version ? { installed: version } : {}), manifest };
      const pkg = await findInstalled(root, e.name);
      if (!pkg) return { ...base, skipReason: 'not installed (run npm install)', direct: false };
      const r = slugFromPackageJson(pkg);
      return r.ok
        ? { ...base, repository: r.slug, direct: false }
        : { ...base, skipReason: skipWords(r), direct: false };
    }),
  );
}

/** Cargo's transitive crates: Cargo.lock's registry packages, their repository from the unpacked registry sources. */
async function cargoTransitive(root: string, direct: ReadonlySet<string>, cargoHome: string) {
  const lock = await readText(join(root, 'Cargo.lock'));
  if (lock === undefined) return [];
  const src = join(cargoHome, 'registry', 'src');
  const indexes = await fsp.readdir(src).catch(() => [] as string[]);
  const seen = new Set<string>();
  const wanted = cargoLockEntries(lock).filter(
    (e) => e.registry && !direct.has(e.name.replace(/_/g, '-')) && !seen.has(e.name) && seen.add(e.name),
  );
  return Promise.all(
    wanted.map(async (e): Promise<WorkspaceDependency> => {
      const base = { ecosystem: 'cargo' as const, name: e.name, installed: e.version, direct: false };
      const manifest = { file: 'Cargo.lock', line: e.line };
      for (const idx of indexes) {
        const toml = await readText(join(src, idx, `${e.name}-${e.version}`, 'Cargo.toml'));
        if (toml === undefined) continue;
        const r = slugFromCrateToml(toml);
        return r.ok ? { ...base, manifest, repository: r.slug } : { ...base, manifest, skipReason: skipWords(r) };
      }
      return { ...base, manifest, skipReason: `not installed (no ${e.name} sources under ${src}: run cargo fetch)` };
    }),
  );
}

/** Reads `folder`'s dependencies: direct ones (dev included) from its manifests; with `all`, transitive ones too. */
export async function readWorkspaceDependencies(
  folder: string,
  opts: ReadOptions = {},
): Promise<WorkspaceDependencies> {
  const cargoHome = opts.cargoHome ?? process.env.CARGO_HOME ?? join(homedir(), '.cargo');
  const [resolved, pkg, goMod, cargoToml, pyManifests, pyLock] = await Promise.all([
    resolveFolder(folder, { maxDependencies: MAX_DEPENDENCIES, cargoHome }),
    readText(join(folder, 'package.json')),
    readText(join(folder, 'go.mod')),
    readText(join(folder, 'Cargo.toml')),
    Promise.all(PYTHON_MANIFESTS.map(async (f) => ({ file: f, text: await readText(join(folder, f)) }))),
    firstText(folder, PYTHON_LOCKFILES),
  ]);
  const indirect = new Set(
    parseGoMod(goMod ?? '')
      .filter((r) => r.indirect)
      .map((r) => r.path),
  );
  const pyFiles = pyManifests.filter((m): m is { file: string; text: string } => m.text !== undefined);
  const pyDirect = new Set(pyFiles.flatMap((m) => [...pythonRequirementNames(m.file, m.text)]));
  const npmLines = packageJsonLines(pkg ?? '');
  const out: WorkspaceDependency[] = [];
  for (const d of resolved.deps) {
    if (d.ecosystem === 'npm') out.push(row(d, { file: 'package.json', line: npmLines.get(d.name) ?? 1 }, true));
    else if (d.ecosystem === 'go') {
      const direct = !indirect.has(d.name);
      if (direct || opts.all) out.push(row(d, { file: 'go.mod', line: goModLine(goMod ?? '', d.name) }, direct));
    } else if (d.ecosystem === 'cargo')
      out.push(row(d, { file: 'Cargo.toml', line: cargoTomlLine(cargoToml ?? '', d.name) }, true));
    else {
      const n = normalizePythonName(d.name);
      // Without a requirements file or pyproject.toml nothing says which are direct: every installed one is.
      const direct = pyFiles.length === 0 || pyDirect.has(n);
      if (!direct && !opts.all) continue;
      const declared = pyFiles
        .map((m) => ({ file: m.file, line: pythonRequirementLine(m.text, n) }))
        .find((m) => m.line !== undefined);
      const locked = pyLock && pythonLockLine(pyLock.text, n);
      const manifest = declared
        ? { file: declared.file, line: declared.line! }
        : locked
          ? { file: pyLock.file, line: locked }
          : { file: pyFiles[0]?.file ?? venvName(folder), line: 1 };
      out.push(row(d, manifest, direct));
    }
  }
  if (opts.all) {
    const npmDirect = new Set(out.filter((d) => d.ecosystem === 'npm').map((d) => d.name));
    const crates = new Set(out.filter((d) => d.ecosystem === 'cargo').map((d) => d.name.replace(/_/g, '-')));
    const rootCrate = /^\[package\][^[]*?^name\s*=\s*"([^"]+)"/m.exec(cargoToml ?? '')?.[1];
    if (rootCrate) crates.add(rootCrate.replace(/_/g, '-'));
    const [npmMore, cargoMore] = await Promise.all([
      pkg === undefined ? [] : npmTransitive(folder, npmDirect),
      cargoToml === undefined ? [] : cargoTransitive(folder, crates, cargoHome),
    ]);
    out.push(...npmMore, ...cargoMore);
  }
  return { folder, dependencies: out };
}

/** uv.lock / poetry.lock / pdm.lock: the `name = "…"` line of a package. */
function pythonLockLine(text: string, normalized: string): number | undefined {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const m = /^name\s*=\s*"([^"]+)"/.exec(lines[i]!);
    if (m && normalizePythonName(m[1]!) === normalized) return i + 1;
  }
  return undefined;
}

function venvName(folder: string): string {
  for (const v of VENV_NAMES) {
    try {
      if (statSync(join(folder, v), { throwIfNoEntry: false })?.isDirectory()) return v;
    } catch {
      /* unreadable: not this one */
    }
  }
  return '.venv';
}
