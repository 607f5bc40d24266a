// The browser's host (the web extension, src/web/core.ts): its own fetch (no proxies or CAs of ours: the browser has
// its own), and no process, so no `git config` (a browsed repository is named by its vscode-vfs URI instead,
// src/search/vfsRepository.ts).
import { FetchTransport } from '../api/fetchTransport';
import type { Host } from './host';

export const browserHost: Host = {
  createTransport: () => new FetchTransport(),
  remotesFromGitConfig: () => Promise.resolve([]),
};
