// vscode-free: a dependency named by the user (CLI `--dependency`, the tools' `dependency`) resolved in a
// folder as the editor resolves it, with its installed version; and the words every surface shows for it.
import { normalizePythonName } from './manifests';
import type { Dependency, FolderDependencies, ResolveOptions } from './resolver';
import type { InstalledDependency } from '../versions/versionCompare';

type DependencyLookup =
  | { ok: true; dep: InstalledDependency & { versionFrom?: string } }
  | { ok: false; reason: 'unknown'; message: string; known: string[] }
  | { ok: false; reason: 'no-repository'; message: string };

const REASONS: Record<string, string> = {
  'no-repository-field': 'its manifest names no repository',
  'not-on-github': 'its repository is not on GitHub',
  invalid: 'its repository field is not understood',
  'not-installed': 'it is not installed',
};

function sameName(d: Dependency, wanted: string): boolean {
  const w = wanted.trim();
  if (d.name === w) return true;
  if (d.ecosystem === 'pypi')
    return normalizePythonName(d.name) === normalizePythonName(w) || (d.imports ?? []).includes(w);
  if (d.ecosystem === 'cargo') return d.name.replace(/_/g, '-') === w.replace(/_/g, '-');
  return d.name.toLowerCase() === w.toLowerCase();
}

/** One dependency of a resolved folder by the name a user typed; the reason in words when it cannot scope a search. */
export function lookupDependency(folder: FolderDependencies, wanted: string): DependencyLookup {
  const d = folder.deps.find((x) => sameName(x, wanted));
  if (!d) {
    const known = folder.deps.map((x) => x.name);
    const some = known.slice(0, 8);
    const listed = some.length
      ? `its manifests list ${some.join(', ')}${known.length > some.length ? ` and ${known.length - some.length} more` : ''}`
      : 'no package.json, go.mod, Cargo.toml or Python virtual environment lists any dependency there';
    return {
      ok: false,
      reason: 'unknown',
      known,
      message: `${wanted} is not a dependency of ${folder.root} (${listed})`,
    };
  }
  if (!d.slug) {
    const why = REASONS[d.reason ?? 'invalid'] ?? 'no repository';
    return {
      ok: false,
      reason: 'no-repository',
      message: `${d.name} has no GitHub repository to search in: ${why}${d.detail ? ` (${d.detail})` : ''}`,
    };
  }
  return {
    ok: true,
    dep: {
      ecosystem: d.ecosystem,
      name: d.name,
      slug: d.slug,
      ...(d.version ? { version: d.version } : {}),
      ...(d.versionFrom ? { versionFrom: d.versionFrom } : {}),
    },
  };
}

/** `@acme/widgets 2.0.3 installed (acme/widgets)`, or `… version unknown …`: the scope line's words. */
export function installedWords(d: InstalledDependency & { versionFrom?: string }): string {
  return `${d.name} ${d.version ? `${d.version} installed` : 'version unknown'} (${d.slug})`;
}

/** The dependency a result belongs to: the one whose repository the result's id or url names (a doc page belongs to none). */
export function dependencyOfResult<T extends { slug: string }>(
  deps: readonly T[],
  result: { id: string; url: string },
): T | undefined {
  const slug =
    /^(?:issue|pull_request|readme):([^#\s]+)/.exec(result.id)?.[1]?.toLowerCase() ??
    /^https:\/\/github\.com\/([^/]+\/[^/#?]+)/.exec(result.url)?.[1]?.toLowerCase();
  return slug ? deps.find((d) => d.slug.toLowerCase() === slug) : undefined;
}

type FolderLookup =
  { ok: true; deps: Array<InstalledDependency & { versionFrom?: string }> } | Extract<DependencyLookup, { ok: false }>;

/** Every name looked up in one resolved folder, each dependency once; the first failure stops (its words say why). */
export function lookupAll(folder: FolderDependencies, names: readonly string[]): FolderLookup {
  const deps: Array<InstalledDependency & { versionFrom?: string }> = [];
  for (const n of names) {
    const r = lookupDependency(folder, n);
    if (!r.ok) return r;
    if (!deps.some((d) => d.slug === r.dep.slug && d.name === r.dep.name)) deps.push(r.dep);
  }
  return { ok: true, deps };
}

/**
 * A folder's dependencies as its host reads them: the resolver over node:fs in Node (resolver.ts: node_modules,
 * the cargo registry, a virtual environment), the manifests and lockfiles through workspace.fs in the browser
 * (src/web/dependencies.ts). Each entry chooses one and hands it down.
 */
export type FolderResolver = (folder: string, opts: ResolveOptions) => Promise<FolderDependencies>;

/** Resolves `folder` once and looks every name up; the first failure stops (its words say why). */
export async function resolveDependencies(
  resolve: FolderResolver,
  folder: string,
  names: readonly string[],
  opts: ResolveOptions,
): Promise<FolderLookup> {
  return lookupAll(await resolve(folder, opts), names);
}
