// The one interface both hosts provide (src/host/node/ and src/host/browser/, one file each per part). Type-only:
// nothing imports this at run time; the compiler checks that each host's files have the same exports.
import type * as BrowserDeps from './browser/dependencyLookup';
import type * as BrowserFeatures from './browser/features';
import type * as BrowserFixes from './browser/fixesDependencies';
import type * as BrowserGit from './browser/gitRemotes';
import type * as BrowserTransport from './browser/transport';
import type * as NodeDeps from './node/dependencyLookup';
import type * as NodeFeatures from './node/features';
import type * as NodeFixes from './node/fixesDependencies';
import type * as NodeGit from './node/gitRemotes';
import type * as NodeTransport from './node/transport';

/** What a host provides: the transport, feature loading, git remotes, the dependency lookup and the fixes check's list (file access). */
export interface Host {
  createTransport: typeof NodeTransport.createTransport;
  core: typeof NodeFeatures.core;
  features: typeof NodeFeatures.features;
  coreLoaded: typeof NodeFeatures.coreLoaded;
  remotesFromGitConfig: typeof NodeGit.remotesFromGitConfig;
  resolveDependencies: typeof NodeDeps.resolveDependencies;
  folderDependencies: typeof NodeDeps.folderDependencies;
  fixesDependencies: typeof NodeFixes.fixesDependencies;
}

type Provides<T extends Host> = T;
/** Fails to compile when the browser host lacks a part, or gives one another signature. */
export type BrowserHost = Provides<
  typeof BrowserTransport & typeof BrowserFeatures & typeof BrowserGit & typeof BrowserDeps & typeof BrowserFixes
>;
export type NodeHost = Provides<
  typeof NodeTransport & typeof NodeFeatures & typeof NodeGit & typeof NodeDeps & typeof NodeFixes
>;
