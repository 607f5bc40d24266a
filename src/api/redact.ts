// The API key never leaves the client: one redaction for every string that does (messages, details,
// quoted body lines and titles, log lines), and the checks a key must pass before it is sent at all.

export const REDACTED = '[redacted]';

/** Shorter keys are refused where a key is entered: they cannot be told apart from ordinary words. */
export const MIN_KEY_LENGTH = 16;
export const MAX_KEY_LENGTH = 512;

export type Redact = (s: string) => string;
export const noRedaction: Redact = (s) => s;

/**
 * Replaces the whole key, never a fragment of it, as it came and in the forms a server echoing a
 * header may use (JSON-escaped, percent-encoded). A key of MIN_KEY_LENGTH or more is replaced wherever
 * it occurs; a shorter one (possible from the CLI's environment) only where it stands as a token of its
 * own, so that a one-letter key does not turn "Unauthorized" into "Un[redacted]uthorized".
 */
export function makeRedactor(key: string | undefined): Redact {
  if (!key) return noRedaction;
  const forms = [...new Set([key, JSON.stringify(key).slice(1, -1), safeEncode(key)])].filter((f) => f.length > 0);
  if (key.length >= MIN_KEY_LENGTH) {
    return (s) => {
      let out = s;
      for (const f of forms) if (out.includes(f)) out = out.split(f).join(REDACTED);
      return out;
    };
  }
  const re = new RegExp(`(?<![A-Za-z0-9])(?:${forms.map(escapeRegExp).join('|')})(?![A-Za-z0-9])`, 'g');
  return (s) => (s.includes(key) || forms.some((f) => s.includes(f)) ? s.replace(re, REDACTED) : s);
}

/**
 * The same redaction through a JSON-like value, bounded in depth (parts deeper than `maxDepth` are
 * dropped). Property names are kept as own properties (a `__proto__` from JSON.parse stays data).
 */
export function redactDeep(v: unknown, redact: Redact, depth = 0, maxDepth = 32): unknown {
  if (redact === noRedaction) return v;
  if (typeof v === 'string') return redact(v);
  if (v === null || typeof v !== 'object') return v;
  if (depth >= maxDepth) return '[…]';
  if (Array.isArray(v)) return v.map((x) => redactDeep(x, redact, depth + 1, maxDepth));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    Object.defineProperty(out, redact(k), {
      value: redactDeep(x, redact, depth + 1, maxDepth),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * Why a key cannot be sent in an `Authorization` header, or undefined when it can. A header value is
 * Latin-1 without control characters; anything else fails in the transport on every attempt, so it is
 * refused before the first one (and never retried).
 */
export function keyHeaderProblem(key: string): string | undefined {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) return 'the API key contains a line break, which cannot be sent in a request header';
    if (c < 0x20 || c === 0x7f)
      return `the API key contains a control character (U+${hex(c)}), which cannot be sent in a request header`;
    if (c > 0xff)
      return `the API key contains a character outside Latin-1 (U+${hex(c)}), which cannot be sent in a request header`;
  }
  return undefined;
}

/** What makes a typed key acceptable before it is stored: sendable, no spaces, a sane length. */
export function keyEntryProblem(value: string): string | undefined {
  const v = value.trim();
  if (!v) return "Enter the API key from your account's key management page.";
  const header = keyHeaderProblem(v);
  if (header) return `${header.charAt(0).toUpperCase()}${header.slice(1)}.`;
  if (/\s/.test(v)) return 'An API key has no spaces or line breaks.';
  if (v.length < MIN_KEY_LENGTH)
    return `An API key has at least ${MIN_KEY_LENGTH} characters (this one has ${v.length}); paste the whole key.`;
  if (v.length > MAX_KEY_LENGTH)
    return `An API key is at most ${MAX_KEY_LENGTH} characters (this one has ${v.length}).`;
  return undefined;
}

function hex(c: number): string {
  return c.toString(16).toUpperCase().padStart(4, '0');
}

function safeEncode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return s;
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
