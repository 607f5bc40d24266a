// Node's dependency lookup: the dependencies of a folder on disk (node_modules, the cargo registry, a virtual
// environment) through the resolver over node:fs, looked up by name (CLI --dependency, the tools' `dependency`).
import { lookupAll, type FolderLookup } from '../../deps/dependencyScope';
import { resolveFolder, type FolderDependencies, type ResolveOptions } from '../../deps/resolver';

export type { FolderLookup } from '../../deps/dependencyScope';

/** Resolves `folder` once and looks every name up; the first failure stops (its words say why). */
export async function resolveDependencies(
  folder: string,
  names: readonly string[],
  opts: ResolveOptions,
): Promise<FolderLookup> {
  return lookupAll(await resolveFolder(folder, opts), names);
}

/** Every dependency of `folder` (the `@devindex` chat participant's pick). */
export function folderDependencies(folder: string, opts: ResolveOptions): Promise<FolderDependencies> {
  return resolveFolder(folder, opts);
}
