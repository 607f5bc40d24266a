// The browser's git remotes: none (no process, so no `git config`). A browsed repository is named by its vscode-vfs
// URI instead (src/search/vfsRepository.ts, used by remotesOf).
import type { NamedRemote } from '../../search/repoSlug';

export function remotesFromGitConfig(_folder: string): Promise<NamedRemote[]> {
  return Promise.resolve([]);
}
