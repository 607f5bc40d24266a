// Pure: a package manifest's repository / homepage / bugs value -> a GitHub `owner/repo` slug, or why not. Not
// repoSlug.ts's parseRemoteUrl: manifest values point *into* a repository (`/tree/main/packages/x`, `#readme`) and
// come in npm's shorthand forms (`github:o/r`, `o/r`), where a git remote keeps a path's last two segments.

/** Why a package has no slug. */
export type UnresolvedReason = 'no-repository-field' | 'not-on-github' | 'invalid' | 'not-installed';

export type SlugResult =
  { ok: true; slug: string; directory?: string } | { ok: false; reason: UnresolvedReason; detail: string };

/**
 * An owner as GitHub serves it: letters, digits and hyphens, at most 39, not starting with a hyphen. Today's
 * sign-up rules also refuse a trailing or doubled hyphen, but legacy accounts have them and GitHub serves them.
 * A name also allows `.` and `_`.
 */
const OWNER = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/;
const NAME = /^[A-Za-z0-9._-]{1,100}$/;

const GITHUB_HOSTS = new Set([
  'github.com',
  'www.github.com',
  'ssh.github.com',
  'raw.githubusercontent.com',
  'codeload.github.com',
]);
const SHORTHAND_HOSTS: Record<string, string> = {
  gitlab: 'gitlab.com',
  bitbucket: 'bitbucket.org',
  gist: 'gist.github.com',
};

function fail(reason: UnresolvedReason, detail: string): SlugResult {
  return { ok: false, reason, detail };
}

/** `owner` and `repo` (with `.git` dropped) checked against GitHub's naming rules. */
export function toSlug(owner: string | undefined, repo: string | undefined): string | undefined {
  if (!owner || !repo) return undefined;
  const name = repo.replace(/\.git$/i, '');
  if (!OWNER.test(owner) || !NAME.test(name) || name === '.' || name === '..') return undefined;
  return `${owner}/${name}`;
}

function fromHostPath(host: string, path: string, raw: string): SlugResult {
  const h = host.toLowerCase();
  const parts = path
    .split(/[?#]/)[0]!
    .split('/')
    .filter((p) => p !== '');
  if (GITHUB_HOSTS.has(h)) {
    const slug = toSlug(parts[0] ? safeDecode(parts[0]) : undefined, parts[1] ? safeDecode(parts[1]) : undefined);
    return slug ? { ok: true, slug } : fail('invalid', `${show(raw)} does not name a GitHub owner/repo`);
  }
  // GitHub Pages: `owner.github.io/repo` is the site of `owner/repo`; the bare `owner.github.io` is its own repository.
  const pages = /^([a-z0-9-]+)\.github\.io$/i.exec(h);
  if (pages) {
    const slug = parts[0] ? toSlug(pages[1], parts[0]) : toSlug(pages[1], h);
    return slug ? { ok: true, slug } : fail('invalid', `${show(raw)} does not name a GitHub owner/repo`);
  }
  return fail('not-on-github', `hosted on ${h}`);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function show(s: string): string {
  return JSON.stringify(s.length > 80 ? `${s.slice(0, 77)}...` : s);
}

/** A URL or URL-like string (`git+https://`, `git+ssh://git@`, `git://`, scp-like `git@host:o/r`, `host/o/r`). */
export function slugFromUrl(raw: string): SlugResult {
  const s = raw.trim();
  if (!s) return fail('no-repository-field', 'empty');
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(s);
  if (scheme) {
    const name = scheme[1]!.toLowerCase().replace(/^git\+/, '');
    if (name === 'file') return fail('invalid', 'a local path, not a repository address');
    if (!['http', 'https', 'git', 'ssh', 'svn', 'hg'].includes(name))
      return fail('invalid', `unsupported scheme ${name}:`);
    // npm writes `git+ssh://git@github.com:owner/repo.git`: scp-like after the scheme (not a port).
    const sshScp = /^(?:git\+)?ssh:\/\/(?:[^@/\s]+@)?([^/:\s]+):(?!\d+(?:\/|$))([^\s]+)$/i.exec(s);
    if (sshScp) return fromHostPath(sshScp[1]!, sshScp[2]!, s);
    let u: URL;
    try {
      u = new URL(s.replace(/^git\+/i, ''));
    } catch {
      return fail('invalid', `${show(s)} is not a valid URL`);
    }
    if (!u.hostname) return fail('invalid', `${show(s)} has no host`);
    return fromHostPath(u.hostname, u.pathname, s);
  }
  // scp-like: [user@]host:owner/repo(.git)
  const scp = /^(?:[^@/\s:]+@)?([A-Za-z0-9.-]+\.[A-Za-z]{2,}):(?!\/\/)([^\s]+)$/.exec(s);
  if (scp) return fromHostPath(scp[1]!, scp[2]!, s);
  // host/owner/repo without a scheme
  const bare = /^((?:[a-z0-9-]+\.)+[a-z]{2,})(\/\S*)$/i.exec(s);
  if (bare) return fromHostPath(bare[1]!, bare[2]!, s);
  return fail('invalid', `${show(s)} is not a repository address`);
}

/**
 * npm's `repository` field: a string (`github:o/r`, `gitlab:o/r`, `bitbucket:o/r`, `gist:id`, shorthand `o/r`,
 * any URL form) or an object `{ type, url, directory }`.
 */
export function slugFromRepositoryField(value: unknown): SlugResult {
  if (value === undefined || value === null) return fail('no-repository-field', 'no repository field');
  if (typeof value === 'object' && !Array.isArray(value)) {
    const url = (value as { url?: unknown }).url;
    const dir = (value as { directory?: unknown }).directory;
    if (url === undefined || url === null) return fail('no-repository-field', 'repository object has no url');
    if (typeof url !== 'string') return fail('invalid', 'repository.url is not a string');
    const r = slugFromRepositoryField(url);
    return r.ok && typeof dir === 'string' && dir.trim() ? { ...r, directory: dir.trim() } : r;
  }
  if (typeof value !== 'string')
    return fail('invalid', `repository is a ${Array.isArray(value) ? 'list' : typeof value}, not a string or object`);
  const s = value.trim();
  if (!s) return fail('no-repository-field', 'repository is empty');
  const short = /^([a-z]+):([^/\s][^\s]*)$/i.exec(s);
  if (short && !s.includes('://')) {
    const kind = short[1]!.toLowerCase();
    const rest = short[2]!.split('#')[0]!;
    if (kind === 'github') {
      const [o, r, ...more] = rest.split('/');
      const slug = more.length === 0 ? toSlug(o, r) : undefined;
      return slug ? { ok: true, slug } : fail('invalid', `${show(s)} is not github:owner/repo`);
    }
    if (SHORTHAND_HOSTS[kind]) return fail('not-on-github', `hosted on ${SHORTHAND_HOSTS[kind]}`);
    if (kind === 'file' || kind === 'link' || kind === 'workspace' || kind === 'npm')
      return fail('invalid', `${kind}: is not a repository address`);
  }
  // npm's shorthand `owner/repo` (GitHub), with an optional `#ref`.
  const sh = /^([^/\s:@]+)\/([^/\s:#]+)(?:#\S*)?$/.exec(s);
  if (sh && !/^\.{1,2}$/.test(sh[1]!) && !sh[1]!.includes('.')) {
    const slug = toSlug(sh[1], sh[2]);
    return slug ? { ok: true, slug } : fail('invalid', `${show(s)} is not owner/repo`);
  }
  if (/^(\.{1,2}\/|\/|~\/|[A-Za-z]:[\\/])/.test(s)) return fail('invalid', 'a local path, not a repository address');
  return slugFromUrl(s);
}

/**
 * The slug of an npm package from its own package.json: `repository`, then `homepage`, then `bugs.url`
 * (or a string `bugs`). The first field that names a GitHub repository wins; otherwise the most telling reason.
 */
export function slugFromPackageJson(
  pkg: Record<string, unknown>,
): SlugResult & { field?: 'repository' | 'homepage' | 'bugs' } {
  const bugs = pkg.bugs;
  const candidates: Array<['repository' | 'homepage' | 'bugs', unknown]> = [
    ['repository', pkg.repository],
    ['homepage', pkg.homepage],
    ['bugs', typeof bugs === 'object' && bugs !== null ? (bugs as { url?: unknown }).url : bugs],
  ];
  let worst: Extract<SlugResult, { ok: false }> | undefined;
  for (const [field, v] of candidates) {
    if (v === undefined || v === null || v === '') continue;
    const r =
      field === 'repository'
        ? slugFromRepositoryField(v)
        : typeof v === 'string'
          ? slugFromUrl(v)
          : fail('invalid', `${field} is not a string`);
    if (r.ok) return { ...r, field };
    // Keep the first real reason (a GitLab repository beats an unparsable homepage).
    if (!worst || (worst.reason !== 'not-on-github' && r.reason === 'not-on-github')) worst = r;
  }
  return worst ?? fail('no-repository-field', 'no repository, homepage or bugs field');
}
