// What differs between Node and the browser below the features: one Host value, built once by each entry's bundle
// (src/core.ts for the desktop, src/web/core.ts for the browser) and handed down. Imports nothing above src/api/.
import type { NetworkOptions } from '../api/network';
import type { Transport } from '../api/transport';

export interface NamedRemote {
  name: string;
  url: string;
}

export interface Host {
  /** How a client sends: undici with proxies and certificate authorities in Node, `fetch` in the browser. */
  createTransport(o: { network?: NetworkOptions }): Transport;
  /** A folder's remotes as `git config` names them (Node); none in the browser, which runs no process. */
  remotesFromGitConfig(folder: string): Promise<NamedRemote[]>;
}
