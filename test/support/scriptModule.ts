// The project's own ES module scripts (scripts/*.mjs) loaded from a test or bench bundle. The specifier is computed and
// the import hidden in a Function, so esbuild leaves it alone: it would turn a plain import() into require().
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findRepoRoot } from '../../sandbox/serverParts';

/** The module at `rel` (a path under the repository's root, such as `scripts/lanes.mjs`), typed as the caller says. */
export function scriptModule<T>(rel: string): Promise<T> {
  const root = findRepoRoot(__dirname) ?? '.';
  return (new Function('s', 'return import(s)') as (s: string) => Promise<T>)(pathToFileURL(join(root, rel)).href);
}
