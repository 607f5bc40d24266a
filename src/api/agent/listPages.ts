// The job list's pages: where a page's `next` leads, followed only on the configured service.
/** The agent endpoint's path (the client's requests and the pages it follows). */
export const AGENT_PATH = '/v2/agent';

/** Where a list page's `next` leads: a request on the configured service, or why it is not followed. */
export type NextPage =
  | { follow: true; query: Array<[string, string]>; before?: number }
  | { follow: false; reason: 'none' | 'other-origin' | 'other-path' | 'malformed'; origin?: string };

/**
 * `next` is absolute in production. It is followed only on the configured base URL's origin (and
 * under its path prefix), so the key is never sent anywhere else; a relative `next` (older shape) is
 * read against the base URL.
 */
export function nextPage(next: string | null | undefined, baseUrl: string): NextPage {
  if (!next) return { follow: false, reason: 'none' };
  let base: URL;
  let u: URL;
  try {
    base = new URL(baseUrl);
    const relative = next.startsWith('/') && !next.startsWith('//');
    u = relative ? new URL(next, 'http://relative.invalid') : new URL(next);
    if (!relative && u.origin !== base.origin) return { follow: false, reason: 'other-origin', origin: u.origin };
  } catch {
    return { follow: false, reason: 'malformed' };
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  let path = u.pathname;
  if (prefix && path.startsWith(`${prefix}/`) && path.slice(prefix.length) === AGENT_PATH) path = AGENT_PATH;
  if (path !== AGENT_PATH) return { follow: false, reason: 'other-path' };
  const query = [...u.searchParams.entries()];
  return { follow: true, query, before: beforeOf(next) };
}

/** `before` from a `next` URL, absolute or relative. */
function beforeOf(next: string | null | undefined): number | undefined {
  if (!next) return undefined;
  let u: URL;
  try {
    u = new URL(next, 'http://placeholder.invalid');
  } catch {
    return undefined;
  }
  const b = u.searchParams.get('before');
  return b !== null && /^\d{1,16}$/.test(b) ? Number(b) : undefined;
}
