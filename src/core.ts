// The desktop's dist/core.js (src/extension.ts requires it on the first search): what a search needs, over Node's
// host. src/features.ts (dist/features.js) takes every module it shares with this one from dist/core.js at run time
// (scripts/build.mjs, core-shared), so there is one copy of each (one ApiError class, one log, one client).
import { verifyKey } from './auth/verifyKey';
import { resolveFolder } from './deps/resolver';
import { nodeHost } from './host/node';
import { Services } from './services';
import type { CoreCode } from './wiring';

export const core: CoreCode = { Services, verifyKey, host: nodeHost, folderDependencies: resolveFolder };
