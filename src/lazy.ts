// The activation bundle stays small: the service client, zod, undici and every feature's heavy code
// live in dist/core.js, loaded on first use (see scripts/build.mjs, plugin core-external).
import type * as Core from './core';

let loaded: typeof Core | undefined;

/** Loads dist/core.js once; later calls return the same module. */
export function core(): typeof Core {
  loaded ??= require('./core.js') as typeof Core;
  return loaded;
}

/** True once the core has been loaded (used by tests and the activation bench). */
export function coreLoaded(): boolean {
  return loaded !== undefined;
}
