// Node's feature loading. The activation bundle stays small: dist/core.js (the service client, zod, undici and the
// Search view's code) is loaded on the first search; dist/features.js (agent jobs, dependency search, the language
// model tools, the connection diagnosis) when one of them is first used, and it requires dist/core.js for the modules
// both use (scripts/build.mjs, plugins core-external and core-shared: the two requires below stay runtime requires).
import type * as Core from '../../core';
import type * as Features from '../../features';
import { loadOnce } from '../loadOnce';

const coreModule = loadOnce(() => require('../../core.js') as typeof Core);
const featuresModule = loadOnce(() => require('../../features.js') as typeof Features);

/** dist/core.js, loaded on the first call. */
export const core = (): typeof Core => coreModule.get();
/** dist/features.js (and with it dist/core.js), loaded on the first call. */
export const features = (): typeof Features => featuresModule.get();
/** True once the core has been loaded (used by tests and the activation bench). */
export const coreLoaded = (): boolean => coreModule.loaded();
