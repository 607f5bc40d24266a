// The browser's code for the shared wiring (src/wiring.ts), bundled in (a web worker loads one file): the same
// services and features over the browser's host. The connection diagnosis and the node_modules dependency search are
// the desktop's only (src/web/unavailable.ts says why).
import { verifyKey } from '../auth/verifyKey';
import { FetchTransport } from '../api/fetchTransport';
import type { Host } from '../host/host';
import { Services } from '../services';
import { sharedFeatures } from '../sharedFeatures';
import type { CoreCode, EntryCode } from '../wiring';
import { fixesDependencies, resolveManifests } from './dependencies';

/** Its own fetch (the browser has its own proxies and CAs), and no process, so no `git config` (a browsed
 * repository is named by its vscode-vfs URI instead, src/search/repoSlug.ts). */
const browserHost: Host = {
  createTransport: () => new FetchTransport(),
  remotesFromGitConfig: () => Promise.resolve([]),
};

const core: CoreCode = { Services, verifyKey, host: browserHost, folderDependencies: resolveManifests };
const features = sharedFeatures(fixesDependencies);

export const webCode: EntryCode = { core: () => core, features: () => features };
