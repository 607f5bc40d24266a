// The browser's feature loading: a web extension is one file (a worker cannot require a second bundle), so the core
// and the features are bundled in and core() / features() return them.
import type * as Core from '../../core';
import type * as Features from '../../features';
import { webCore, webFeatures } from '../../web/core';

export const core = (): typeof Core => webCore;
export const features = (): typeof Features => webFeatures;
export const coreLoaded = (): boolean => true;
