// The browser's src/lazy.ts: a web extension is one file (a worker cannot require a second bundle), so the
// core and the features are bundled in and core() / features() return them. Same signatures as src/lazy.ts
// (scripts/webBuild.mjs, HOST_MODULES).
import type * as Core from '../core';
import type * as Features from '../features';
import { webCore, webFeatures } from './core';

export function core(): typeof Core {
  return webCore;
}

export function features(): typeof Features {
  return webFeatures;
}

export function coreLoaded(): boolean {
  return true;
}
