// What a search needs and nothing more: loaded lazily through src/host/features.ts (dist/core.js) on the first
// search. The other features' code is in src/features.ts (dist/features.js), which takes every module it
// shares with this one from dist/core.js at run time (scripts/build.mjs, core-shared), so there is one copy
// of each module (one ApiError class, one log, one client) whichever bundle loaded it.
export { Services } from './services';
export { verifyKey } from './auth/verifyKey';
