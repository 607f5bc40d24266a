// The activation bundle stays small. dist/core.js (the service client, zod, undici and the Search view's
// code) is loaded on the first search; dist/features.js (agent jobs, dependency search, the language
// model tools, the connection diagnosis) when one of them is first used, and it requires dist/core.js for
// the modules both use (see scripts/build.mjs, plugins core-external and core-shared).
import type * as Core from './core';
import type * as Features from './features';

let loaded: typeof Core | undefined;
let loadedFeatures: typeof Features | undefined;

/** Loads dist/core.js once; later calls return the same module. */
export function core(): typeof Core {
  loaded ??= require('./core.js') as typeof Core;
  return loaded;
}

/** Loads dist/features.js (and with it dist/core.js) once; later calls return the same module. */
export function features(): typeof Features {
  loadedFeatures ??= require('./features.js') as typeof Features;
  return loadedFeatures;
}

/** True once the core has been loaded (used by tests and the activation bench). */
export function coreLoaded(): boolean {
  return loaded !== undefined;
}
