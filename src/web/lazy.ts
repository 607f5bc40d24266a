// The browser's src/lazy.ts: a web extension is one file (a worker cannot require a second bundle), so the
// "core" is bundled in and core() returns it. Same signature as src/lazy.ts (scripts/build.mjs, HOST_MODULES).
import type * as Core from '../core';
import { webCore } from './core';

export function core(): typeof Core {
  return webCore;
}

export function coreLoaded(): boolean {
  return true;
}
