// The dependency commands' ids, one table for both entries (the desktop's src/deps/register.ts and the web build's
// src/web/extension.ts register them; package.json contributes them).
/** Each dependency command's id, by its key. */
export const DEPS_COMMANDS = {
  searchProblem: 'devIndex.deps.searchProblem',
  searchDependency: 'devIndex.deps.searchDependency',
  searchTerminalSelection: 'devIndex.deps.searchTerminalSelection',
  searchPackage: 'devIndex.deps.searchPackage',
  openRepository: 'devIndex.deps.openRepository',
} as const;
