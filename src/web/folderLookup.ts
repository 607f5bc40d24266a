// The browser's src/deps/folderLookup.ts: a dependency by name from the folder's manifests and lockfiles,
// read through workspace.fs (src/web/dependencies.ts). No node_modules: what only an installed package
// says (its repository field, an installed version no lockfile names) is "not installed here".
import type { FolderDependencies, ResolveOptions } from '../deps/resolver';
import type { FolderLookup } from '../deps/folderLookup';
import { lookupDependency } from '../deps/dependencyScope';
import { resolveManifests } from './dependencies';

export async function resolveDependencies(folder: string, names: readonly string[], opts: ResolveOptions): Promise<FolderLookup> {
  const resolved = await resolveManifests(folder, opts);
  const deps: Extract<FolderLookup, { ok: true }>['deps'] = [];
  for (const n of names) {
    const r = lookupDependency(resolved, n);
    if (!r.ok) return r;
    if (!deps.some((d) => d.slug === r.dep.slug && d.name === r.dep.name)) deps.push(r.dep);
  }
  return { ok: true, deps };
}

/** Every dependency of `folder` (the `@devindex` chat participant's pick). */
export function folderDependencies(folder: string, opts: ResolveOptions): Promise<FolderDependencies> {
  return resolveManifests(folder, opts);
}
