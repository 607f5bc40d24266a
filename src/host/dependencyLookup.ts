// The host's dependency lookup (file access): the resolver over node:fs in Node, manifests and lockfiles through
// workspace.fs in the browser. Host-neutral (src/host/transport.ts says how the host is chosen).
export { folderDependencies, resolveDependencies, type FolderLookup } from './node/dependencyLookup';
