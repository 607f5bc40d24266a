// The host's feature loading: core() (dist/core.js) and features() (dist/features.js), lazily in Node, bundled in
// the browser. Host-neutral (src/host/transport.ts says how the host is chosen).
export { core, coreLoaded, features } from './node/features';
