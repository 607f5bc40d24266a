// The host's dependency list for the fixes check: src/fixes/workspace.ts over node:fs in Node, the manifests and
// lockfiles through workspace.fs in the browser. Host-neutral (src/host/transport.ts says how the host is chosen).
export { fixesDependencies } from './node/fixesDependencies';
