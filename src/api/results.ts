// What a search result is and where it comes from, for every surface. Production results have no `type` (the kind
// is the id's prefix), a license in one of two forms and passages that may carry a deep link; the specification's
// carry `type`. Both shapes are read here and nowhere else.

const KIND_PREFIX = /^([A-Za-z][A-Za-z0-9_-]{0,39}):/;

/**
 * The result's kind: `type` when the service sent one, else the id's prefix before the first `:`
 * (`issue:owner/repo#1` -> `issue`). An unknown kind is returned as it came; an id without a prefix
 * and no `type` gives `unknown`.
 */
export function resultKind(r: { type?: unknown; id: string }): string {
  if (typeof r.type === 'string' && r.type.trim()) return r.type.trim();
  const m = KIND_PREFIX.exec(r.id);
  return m ? m[1]! : 'unknown';
}

interface Provenance {
  /** `owner/repo` for repository results. */
  repo?: string;
  /** Issue or pull request number. */
  number?: number;
  /** Host without `www.` for pages (documentation, web, unknown kinds). */
  site?: string;
  /** Path of the page under its site, `/` when none. */
  path?: string;
  /** One short line: `owner/repo #123`, `owner/repo`, or `site/path`. */
  text: string;
}

// An owner is letters, digits and hyphens, not starting with a hyphen. Today's sign-up rules also refuse a
// trailing or doubled hyphen, but legacy owners have them and GitHub serves them (as the resolver's
// OWNER in src/deps/repositoryField.ts and the params' REPO_SLUG).
const ID_REPO_NUMBER = /^[A-Za-z_-]+:([A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+)#(\d{1,10})$/;
const ID_REPO = /^[A-Za-z_-]+:([A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+)$/;
const GITHUB_PATH =
  /^\/([A-Za-z0-9][A-Za-z0-9-]*)\/([A-Za-z0-9._-]+?)(?:\.git)?(?:\/(?:issues|pull)\/(\d{1,10}))?(?:[/?#]|$)/;

function parseUrl(url: string): URL | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : undefined;
  } catch {
    return undefined;
  }
}

function repoFromUrl(u: URL | undefined): { repo: string; number?: number } | undefined {
  if (!u || !/^(www\.)?github\.com$/i.test(u.hostname)) return undefined;
  const m = GITHUB_PATH.exec(u.pathname);
  if (!m) return undefined;
  return { repo: `${m[1]}/${m[2]}`, ...(m[3] ? { number: Number(m[3]) } : {}) };
}

const REPOSITORY_KINDS = new Set(['issue', 'pull_request', 'readme']);

/** Where a result comes from, from its id first and its URL second; never the bare host for a repository. */
export function provenance(r: { id: string; url: string; type?: unknown }): Provenance {
  const kind = resultKind(r);
  const u = parseUrl(r.url);
  if (REPOSITORY_KINDS.has(kind)) {
    const byId = ID_REPO_NUMBER.exec(r.id);
    const fromId = byId
      ? { repo: byId[1]!, number: Number(byId[2]) }
      : ID_REPO.exec(r.id)
        ? { repo: ID_REPO.exec(r.id)![1]! }
        : undefined;
    const found = fromId ?? repoFromUrl(u);
    if (found) {
      const number = kind === 'readme' ? undefined : found.number;
      return {
        repo: found.repo,
        ...(number !== undefined ? { number } : {}),
        text: number !== undefined ? `${found.repo} #${number}` : found.repo,
      };
    }
  }
  if (!u) return { text: r.url.slice(0, 120) };
  const site = u.hostname.replace(/^www\./i, '');
  const path = u.pathname && u.pathname !== '/' ? u.pathname.replace(/\/+$/, '') : '/';
  return { site, path, text: path === '/' ? site : `${site}${path}` };
}

export interface License {
  /** `licensed`, `known_absent`, `unknown` or a new state kept as it came. */
  state: string;
  spdxId?: string;
}

/**
 * The result's license in either production form: `{ state, spdx_id }` or a plain SPDX string.
 * Absent or unreadable gives undefined.
 */
export function licenseOf(r: { license?: unknown }): License | undefined {
  const l = r.license;
  if (typeof l === 'string') {
    const s = l.trim();
    return s ? { state: 'licensed', spdxId: s.slice(0, 64) } : undefined;
  }
  if (l && typeof l === 'object' && !Array.isArray(l)) {
    const o = l as { state?: unknown; spdx_id?: unknown };
    const spdx = typeof o.spdx_id === 'string' && o.spdx_id.trim() ? o.spdx_id.trim().slice(0, 64) : undefined;
    const state =
      typeof o.state === 'string' && o.state.trim() ? o.state.trim().slice(0, 40) : spdx ? 'licensed' : undefined;
    if (!state) return undefined;
    return { state, ...(spdx ? { spdxId: spdx } : {}) };
  }
  return undefined;
}

/** A short label for the license, or undefined when nothing is known (`unknown` says nothing). */
export function licenseLabel(r: { license?: unknown }): string | undefined {
  const l = licenseOf(r);
  if (!l) return undefined;
  if (l.spdxId) return l.spdxId;
  if (l.state === 'known_absent') return 'no license';
  if (l.state === 'licensed' || l.state === 'unknown') return undefined;
  return l.state;
}

/** The passage's own link (`citation_url`) when it is an http(s) URL, else the result's URL. */
export function passageLink(p: { citation_url?: unknown }, r: { url: string }): string {
  const c = p.citation_url;
  if (typeof c === 'string' && c.length <= 2048 && parseUrl(c)) return c;
  return r.url;
}
