// Which links may leave the Search view: what the webview's markdown emits as an href and what the extension hands
// to env.openExternal. Both sides parse with the WHATWG URL parser the browser uses, so no obfuscation (case,
// whitespace, tabs in the scheme, decoded entities) can make the check and the browser disagree.

const ALLOWED_SCHEMES: readonly string[] = ['http:', 'https:', 'mailto:'];

/** Longer than any real link; a bound keeps hostile content from making us parse megabytes. */
const MAX_URL_LENGTH = 8192;

/**
 * The serialised URL to use for `raw` (resolved against `base` when relative), or undefined when it
 * must not be a link: unparsable, too long, any scheme but http, https and mailto, or credentials
 * (`user:pass@`) in it.
 */
export function safeHref(raw: string, base?: string): string | undefined {
  if (typeof raw !== 'string' || raw.length > MAX_URL_LENGTH) return undefined;
  let url: URL;
  try {
    url = base === undefined ? new URL(raw) : new URL(raw, base);
  } catch {
    return undefined;
  }
  if (!ALLOWED_SCHEMES.includes(url.protocol)) return undefined;
  if (url.protocol !== 'mailto:' && !url.hostname) return undefined;
  // `https://github.com@evil.example/` shows one host and opens another; real links carry no credentials.
  if (url.username || url.password) return undefined;
  return url.href;
}

/** The extension's re-check before env.openExternal: absolute http, https or mailto only. */
export function externalUrl(raw: unknown): string | undefined {
  return typeof raw === 'string' ? safeHref(raw) : undefined;
}

/** `github.com` for display; empty when the url cannot be parsed. */
export function hostOf(raw: string): string {
  try {
    const u = new URL(raw);
    return u.protocol === 'mailto:' ? u.pathname : u.hostname;
  } catch {
    return '';
  }
}
