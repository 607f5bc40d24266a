// What a diagnosis, a report or a log excerpt must never hold: the API key and any proxy credential
// (a password in a proxy URL, a Proxy-Authorization value). One redactor over all of them.
import { makeRedactor, type Redact } from '../api/redact';

interface SecretSources {
  apiKey?: string;
  /** Proxy URLs as configured (http.proxy, HTTPS_PROXY, HTTP_PROXY…), with or without credentials. */
  proxyUrls?: Array<string | undefined>;
  /** http.proxyAuthorization, e.g. `Basic dXNlcjpwYXNz`. */
  proxyAuthorization?: string;
}

/** The proxy environment variables whose values may carry credentials. */
export const PROXY_ENV_NAMES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'all_proxy', 'ALL_PROXY'];

/** Every secret string to remove, longest first (so a password inside a longer secret goes with it). */
export function secretStrings(s: SecretSources): string[] {
  const out = new Set<string>();
  const add = (v: string | undefined) => {
    const t = v?.trim();
    if (t) out.add(t);
  };
  add(s.apiKey);
  for (const raw of s.proxyUrls ?? []) {
    if (!raw?.trim()) continue;
    const m = /^[a-z][a-z0-9+.-]*:\/\/([^@/?#]*)@/i.exec(raw.trim());
    if (!m) continue;
    const userinfo = m[1] as string;
    const colon = userinfo.indexOf(':');
    const password = colon >= 0 ? userinfo.slice(colon + 1) : '';
    add(userinfo);
    add(password);
    add(safeDecode(password));
  }
  const auth = s.proxyAuthorization?.trim();
  if (auth) {
    add(auth);
    const token = auth.replace(/^\S+\s+/, '');
    add(token);
    const decoded = Buffer.from(token, 'base64').toString('utf8');
    // Only when the token really is base64 of user:password (re-encoding gives it back).
    if (
      decoded.includes(':') &&
      Buffer.from(decoded, 'utf8').toString('base64').replace(/=+$/, '') === token.replace(/=+$/, '')
    ) {
      add(decoded);
      add(decoded.slice(decoded.indexOf(':') + 1));
    }
  }
  return [...out].sort((a, b) => b.length - a.length);
}

/** One redactor for all of them (each as the api's redactor does it: raw, JSON-escaped, percent-encoded). */
export function secretsRedactor(s: SecretSources): Redact {
  const each = secretStrings(s).map((secret) => makeRedactor(secret));
  return (text) => each.reduce((t, r) => r(t), text);
}

/** A URL as it may be shown: credentials replaced (kept as `***@` so the reader sees some were given). */
export function withoutCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/?#]*@/i, '$1***@');
}

/** A percent-encoded URL part decoded, or as it is when it is not valid. */
export function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
