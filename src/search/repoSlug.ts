// Pure: git remote URL -> repository slug, and the repository a browser workspace's vscode-vfs URI names
// (github.dev, vscode.dev: no git to ask). No vscode import.
import type { NamedRemote } from '../host/host';

interface RemoteRepo {
  host: string;
  owner: string;
  repo: string;
  slug: string;
}

/** Hosts whose `<owner>/<repo>` slugs the developer index knows (its repository half is GitHub's). */
const INDEXED_HOSTS = ['github.com'];

const SCP_LIKE = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/;

/**
 * Parses the remote URL forms git accepts: `https://host/owner/repo(.git)`, `ssh://git@host[:port]/owner/repo`,
 * `git://`, `git+https://`, scp-like `git@host:owner/repo.git`, credentials in the URL, trailing slashes.
 * Returns undefined for anything that is not a host with an `owner/repo` path (local paths, bare names).
 */
export function parseRemoteUrl(raw: string): RemoteRepo | undefined {
  const url = raw.trim();
  if (!url) return undefined;
  let host: string;
  let path: string;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url);
  if (scheme) {
    const s = scheme[1]!.toLowerCase();
    if (s === 'file') return undefined;
    let parsed: URL;
    try {
      parsed = new URL(url.replace(/^git\+/i, ''));
    } catch {
      return undefined;
    }
    host = parsed.hostname;
    path = decodeURIComponent(parsed.pathname);
  } else {
    const m = SCP_LIKE.exec(url);
    if (!m) return undefined;
    host = m[1]!;
    path = m[2]!;
    if (host.length === 1 && /^[a-z]$/i.test(host)) return undefined; // a Windows drive letter, C:\…
  }
  // A host name or address; not what is left of a Windows path (`\\?\C:\…`, `\\server\share`).
  if (!/^(?:[A-Za-z0-9_.-]+|\[[0-9A-Fa-f:.]+\])$/.test(host)) return undefined;
  host = host.toLowerCase().replace(/^www\./, '');
  const parts = path
    .replace(/\\/g, '/')
    .split('/')
    .filter((p) => p !== '');
  if (parts.length < 2 || !host) return undefined;
  // GitHub slugs are exactly two segments; a longer path (GitLab subgroups) keeps its last two as a best effort.
  const owner = parts[parts.length - 2]!;
  const repo = parts[parts.length - 1]!.replace(/\.git$/i, '');
  if (
    !/^[A-Za-z0-9_.-]+$/.test(owner) ||
    !/^[A-Za-z0-9_.-]+$/.test(repo) ||
    repo === '' ||
    repo === '.' ||
    repo === '..'
  )
    return undefined;
  return { host, owner, repo, slug: `${owner}/${repo}` };
}

interface RepoScope {
  slugs: string[];
  unsupported: RemoteRepo[];
  unparsable: NamedRemote[];
}

/**
 * The slugs to scope a search to, from a folder's remotes: `upstream` first (a fork's issues live there),
 * then `origin`, then the rest; duplicates dropped; remotes on hosts the index does not cover reported apart.
 */
export function scopeFromRemotes(remotes: readonly NamedRemote[]): RepoScope {
  const rank = (n: string) => (n === 'upstream' ? 0 : n === 'origin' ? 1 : 2);
  const ordered = [...remotes].sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
  const slugs: string[] = [];
  const unsupported: RemoteRepo[] = [];
  const unparsable: NamedRemote[] = [];
  for (const r of ordered) {
    const parsed = parseRemoteUrl(r.url);
    if (!parsed) unparsable.push(r);
    else if (!INDEXED_HOSTS.includes(parsed.host)) unsupported.push(parsed);
    else if (!slugs.some((s) => s.toLowerCase() === parsed.slug.toLowerCase())) slugs.push(parsed.slug);
  }
  return { slugs, unsupported, unparsable };
}

/**
 * `vscode-vfs://github/<owner>/<repo>/<path…>` is how github.dev and vscode.dev open a GitHub repository (a branch
 * or a pull request is in the authority's `+` suffix, never in the path).
 */
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
