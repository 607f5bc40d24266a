// What a failed answer says: its body (the documented JSON or anything else), the wait it asks for, where a redirect
// points. Read once by errorFromResponse (errors.ts) and the agent client.
import { valueDepthExceeds } from './jsonDepth';
import { parseHttpDate, signupLink } from './notices';
import { ErrorBodySchema } from './schemas';

interface ParsedErrorBody {
  error?: string;
  details?: unknown;
  code?: string;
  shape: string;
  retryAfterSeconds?: number;
  /** A keyless 429's `reason`: `requests` or `credits`. */
  reason?: string;
  /** A 409 `thread_busy`'s `runId`. */
  runId?: string;
  /** A keyless 429's `signup_url`, checked; absent when missing or not a link the product may open. */
  signupUrl?: string;
}

function asText(v: unknown): string | undefined {
  if (typeof v === 'string' && v.trim()) return v.trim();
  if (v && typeof v === 'object' && typeof (v as { message?: unknown }).message === 'string')
    return (v as { message: string }).message;
  return undefined;
}

/** Details are kept for callers to read; nested deeper than any real one, they are dropped (nothing can overflow on them later). */
function boundedDetails(d: unknown): unknown {
  return valueDepthExceeds(d, 16) ? undefined : d;
}

/** Makes sense of whatever came back with a non-2xx status: the documented JSON or anything else. */
export function parseErrorBody(text: string, contentType: string | undefined): ParsedErrorBody {
  const trimmed = text.trim();
  if (!trimmed) return { shape: 'an empty body' };
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    if (/^<(!doctype|html|\?xml|head|body)/i.test(trimmed) || /html/i.test(contentType ?? '')) {
      const title = /<title[^>]*>([^<]{1,200})<\/title>/i.exec(trimmed)?.[1]?.trim();
      return { shape: title ? `an HTML page ("${title}")` : 'an HTML page' };
    }
    if (/^[[{]/.test(trimmed)) return { shape: 'truncated or malformed JSON' };
    const firstLine = trimmed.split(/\r?\n/, 1)[0]!.slice(0, 200);
    return { shape: `a non-JSON body ("${firstLine}")` };
  }
  const parsed = ErrorBodySchema.safeParse(json);
  if (!parsed.success) return { shape: 'a JSON body of an unexpected shape' };
  const b = parsed.data;
  const error = asText(b.error) ?? asText(b.detail) ?? asText(b.title) ?? asText(b.message);
  const raw = json as { retry_after_seconds?: unknown; reason?: unknown; runId?: unknown; signup_url?: unknown };
  const signupUrl = signupLink(raw.signup_url);
  const ras = raw.retry_after_seconds;
  const reason = typeof raw.reason === 'string' && /^[a-z_]{1,40}$/.test(raw.reason) ? raw.reason : undefined;
  const runId = typeof raw.runId === 'string' && /^[A-Za-z0-9-]{1,64}$/.test(raw.runId) ? raw.runId : undefined;
  return {
    ...(reason ? { reason } : {}),
    ...(runId ? { runId } : {}),
    ...(signupUrl ? { signupUrl } : {}),
    error,
    details: boundedDetails(b.details ?? (typeof b.detail === 'object' ? b.detail : undefined)),
    code: b.code,
    shape: error ? 'json' : 'a JSON body without an error message',
    retryAfterSeconds: typeof ras === 'number' && Number.isInteger(ras) && ras >= 0 ? ras : undefined,
  };
}

/** Longest wait any Retry-After can ask for (a bound for arithmetic; the client's own ceiling is far lower). */
const MAX_RETRY_AFTER_MS = 2 ** 31 - 1;

/**
 * `Retry-After` (RFC 9110 10.2.3): a non-negative number of seconds or an HTTP date, and nothing else.
 * `-1`, `+5`, `5, 7` or a bare word are treated as absent (so rule 4's backoff applies), never as a
 * date in the past that means "no wait".
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.min(Math.ceil(Number(v) * 1000), MAX_RETRY_AFTER_MS);
  const date = parseHttpDate(v);
  if (date === undefined) return undefined;
  return Math.min(Math.max(0, date - nowMs), MAX_RETRY_AFTER_MS);
}

/** `... please retry after 17s, resets at ...` (older deployments say the wait only in the text). */
export function retryAfterFromText(text: string | undefined): number | undefined {
  const m = text ? /\bretry after (\d{1,9})\s?s\b/i.exec(text) : null;
  return m ? Math.min(Number(m[1]) * 1000, MAX_RETRY_AFTER_MS) : undefined;
}

/**
 * The wait a 429 (or 503) asks for, header first (addendum, "What the production service sends"):
 * `Retry-After`, else the body's integer `retry_after_seconds`, else the error text's "retry after Ns".
 * All three are capped alike by the client's ceiling (retry.ts).
 */
export function retryAfterMsOf(header: string | undefined, body: ParsedErrorBody, nowMs: number): number | undefined {
  const fromHeader = parseRetryAfter(header, nowMs);
  if (fromHeader !== undefined) return fromHeader;
  if (body.retryAfterSeconds !== undefined) return Math.min(body.retryAfterSeconds * 1000, MAX_RETRY_AFTER_MS);
  return retryAfterFromText(body.error);
}

/** The origin a `Location` points to, resolved against the request; undefined when unusable. */
export function redirectOrigin(location: string | undefined, requestUrl: string): string | undefined {
  if (!location) return undefined;
  try {
    const u = new URL(location, requestUrl);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}
