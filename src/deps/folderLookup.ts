// The dependencies of a folder on this host's file system, looked up by name (CLI --dependency, the
// tools' `dependency`). Node's: the resolver over node:fs. The browser bundle resolves this module to
// src/web/folderLookup.ts (manifests and lockfiles through workspace.fs; scripts/build.mjs, HOST_MODULES).
import { lookupDependency, type DependencyLookup } from './dependencyScope';
import { resolveFolder, type FolderDependencies, type ResolveOptions } from './resolver';
import type { InstalledDependency } from './versionCompare';

export type FolderLookup = { ok: true; deps: Array<InstalledDependency & { versionFrom?: string }> } | Extract<DependencyLookup, { ok: false }>;

/** Resolves `folder` once and looks every name up; the first failure stops (its words say why). */
export async function resolveDependencies(folder: string, names: readonly string[], opts: ResolveOptions): Promise<FolderLookup> {
  const resolved = await resolveFolder(folder, opts);
  const deps: Array<InstalledDependency & { versionFrom?: string }> = [];
  for (const n of names) {
    const r = lookupDependency(resolved, n);
    if (!r.ok) return r;
    if (!deps.some((d) => d.slug === r.dep.slug && d.name === r.dep.name)) deps.push(r.dep);
  }
  return { ok: true, deps };
}

/** Every dependency of `folder` (the `@devindex` chat participant's pick). */
export function folderDependencies(folder: string, opts: ResolveOptions): Promise<FolderDependencies> {
  return resolveFolder(folder, opts);
}
