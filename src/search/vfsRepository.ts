// Pure: the repository a browser workspace names. github.dev and vscode.dev open a GitHub repository as
// `vscode-vfs://github/<owner>/<repo>/<path…>` (the Remote Repositories file system; a branch or a
// pull request is in the authority's `+` suffix, never in the path), with no git to ask.
import type { NamedRemote } from '../host/host';

const SLUG_PART = /^[A-Za-z0-9_.-]+$/;

/** `{ owner, repo }` of a `vscode-vfs://github/owner/repo/…` URI's parts; undefined for any other URI. */
export function repositoryOfVfsUri(uri: {
  scheme: string;
  authority: string;
  path: string;
}): { owner: string; repo: string } | undefined {
  if (uri.scheme !== 'vscode-vfs') return undefined;
  // `github`, or `github+<encoded ref>` for a branch, tag or pull request.
  if (uri.authority.split('+')[0]!.toLowerCase() !== 'github') return undefined;
  const [owner, rawRepo] = uri.path.split('/').filter(Boolean);
  const repo = rawRepo?.replace(/\.git$/i, '');
  if (!owner || !repo || !SLUG_PART.test(owner) || !SLUG_PART.test(repo) || repo === '.' || repo === '..')
    return undefined;
  return { owner, repo };
}

/** The browsed repository as the one remote repository scope reads (`origin`), or none. */
export function remotesOfVfsUri(uri: { scheme: string; authority: string; path: string }): NamedRemote[] {
  const r = repositoryOfVfsUri(uri);
  return r ? [{ name: 'origin', url: `https://github.com/${r.owner}/${r.repo}.git` }] : [];
}
