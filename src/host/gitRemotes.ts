// The host's git remotes of a folder: `git config` in Node, none in the browser. Host-neutral (src/host/transport.ts
// says how the host is chosen).
export { remotesFromGitConfig } from './node/gitRemotes';
