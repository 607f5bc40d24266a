// The browser's dependency lookup: a dependency by name from the folder's manifests and lockfiles, read through
// workspace.fs (src/web/dependencies.ts). No node_modules: what only an installed package says (its repository
// field, an installed version no lockfile names) is "not installed here".
import { lookupAll, type FolderLookup } from '../../deps/dependencyScope';
import type { FolderDependencies, ResolveOptions } from '../../deps/resolver';
import { resolveManifests } from '../../web/dependencies';

export type { FolderLookup } from '../../deps/dependencyScope';

export async function resolveDependencies(
  folder: string,
  names: readonly string[],
  opts: ResolveOptions,
): Promise<FolderLookup> {
  return lookupAll(await resolveManifests(folder, opts), names);
}

/** Every dependency of `folder` (the `@devindex` chat participant's pick). */
export function folderDependencies(folder: string, opts: ResolveOptions): Promise<FolderDependencies> {
  return resolveManifests(folder, opts);
}
