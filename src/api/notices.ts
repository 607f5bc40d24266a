// What the service says about a call besides its answer: deprecation headers and body warnings (one notice), the
// keyless quota's `signup_url` (checked), and each request's `External-Request-Id`. Pure: the clock is passed in;
// each surface only formats what `noticeWords` returns.
import { durationWords } from '../words/duration';

/** The header the service logs and a user quotes (addendum, "Keyless, deprecation, correlation"). */
export const REQUEST_ID_HEADER = 'external-request-id';
/** The service accepts at most this many bytes of it. */
export const MAX_REQUEST_ID_BYTES = 2048;
/** The header an Exchange call reads to make a retry safe: the same value on every attempt of one call. */
export const RETRY_ID_HEADER = 'x-request-id';

/**
 * A fresh random id for one request: 128 random bits, never derived from the key or anything else
 * about the caller (`crypto.randomUUID`, in Node 20+ and in a browser's secure context alike).
 */
export function newRequestId(): string {
  return globalThis.crypto.randomUUID();
}

/** The words an error a user sees ends with: `request id 6f1c…`. */
export function requestIdWords(id: string): string {
  return `request id ${id}`;
}

// ---- the keyless quota's signup link ----

const MAX_LINK_LENGTH = 2048;
/**
 * A DNS name with at least one dot, labels of letters, digits and hyphens: no IP literal, no `localhost`, no punycode
 * tricks beyond DNS.
 */
const DNS_NAME = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/**
 * The body's `signup_url` as a link the product may open, or undefined: untrusted input from the
 * network, so https only, a plain DNS host (no address, no `localhost`, no port, no credentials), at
 * most 2,048 characters, no control or space characters. Production sends `https://firecrawl.dev/k/<token>`.
 */
export function signupLink(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.length > MAX_LINK_LENGTH) return undefined;
  const t = raw.trim();
  // eslint-disable-next-line no-control-regex
  if (!t || /[\u0000-\u0020\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(t)) return undefined;
  let u: URL;
  try {
    u = new URL(t);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'https:' || u.username || u.password || u.port) return undefined;
  if (!DNS_NAME.test(u.hostname)) return undefined;
  return u.href.length <= MAX_LINK_LENGTH ? u.href : undefined;
}

// ---- deprecation and warnings ----

export interface DeprecationNotice {
  /** `GET /v2/search/developer`: the method and the path relative to the base URL (no query). */
  endpoint: string;
  /** A `Deprecation`, `Sunset`, successor link or `replacement` said so (else only warnings came). */
  deprecated: boolean;
  /** Epoch ms from `Deprecation` (`@<epoch seconds>` or a date); absent for `true` or an unreadable value. */
  deprecatedAt?: number;
  /** Epoch ms from `Sunset` (an HTTP date). */
  sunsetAt?: number;
  /** The `Link: <…>; rel="successor-version"` target, checked (http or https, no credentials). */
  successor?: string;
  /** The body's `replacement`, when it is not a link (a path or a name). */
  replacement?: string;
  /** `Warning` texts and the body's `warnings`, each one line of at most 300 characters, at most 5. */
  warnings: string[];
  /** The request that brought it. */
  requestId?: string;
}

const MAX_WARNINGS = 5;
const MAX_WARNING_CHARS = 300;

function line(s: string): string {
  const t = s
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return t.length > MAX_WARNING_CHARS ? `${t.slice(0, MAX_WARNING_CHARS - 1)}…` : t;
}

function header(h: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = h[name] ?? h[name.toLowerCase()];
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v.join(', ') : v;
}

/** `Deprecation`: RFC 9745's `@<epoch seconds>`, or a date (an HTTP date, or ISO 8601 as some gateways send). */
export function parseDeprecation(v: string | undefined): { present: boolean; at?: number } {
  if (v === undefined || !v.trim()) return { present: false };
  const t = v.trim();
  const epoch = /^@(-?\d{1,12})$/.exec(t);
  if (epoch) return { present: true, at: Number(epoch[1]) * 1000 };
  const http = parseHttpDate(t);
  if (http !== undefined) return { present: true, at: http };
  if (/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(t)) {
    const iso = Date.parse(t);
    if (Number.isFinite(iso)) return { present: true, at: iso };
  }
  return { present: true };
}

/** The `rel="successor-version"` target of a `Link` header, resolved against the request and checked. */
export function successorLink(v: string | undefined, requestUrl?: string): string | undefined {
  if (!v || v.length > 8192) return undefined;
  for (const m of v.matchAll(/<([^>]{1,2048})>((?:\s*;\s*[^;,]+)*)/g)) {
    const rels = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(m[2] ?? '');
    const tokens = (rels?.[1] ?? rels?.[2] ?? '').toLowerCase().split(/\s+/);
    if (!tokens.includes('successor-version')) continue;
    return webLink(m[1]!, requestUrl);
  }
  return undefined;
}

function webLink(raw: string, base?: string): string | undefined {
  let u: URL;
  try {
    u = base ? new URL(raw.trim(), base) : new URL(raw.trim());
  } catch {
    return undefined;
  }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.username || u.password || !u.hostname) return undefined;
  return u.href.length <= MAX_LINK_LENGTH ? u.href : undefined;
}

/** The texts of `Warning: 299 - "…"` (one or several, comma separated); other forms are skipped. */
export function warningTexts(v: string | undefined): string[] {
  if (!v || v.length > 8192) return [];
  const out: string[] = [];
  for (const m of v.matchAll(/(?:^|,)\s*(\d{3})\s+\S+\s+"((?:[^"\\]|\\.)*)"/g)) {
    const text = line(m[2]!.replace(/\\(.)/g, '$1'));
    if (text) out.push(text);
  }
  return out;
}

function bodyWarnings(body: unknown): { warnings: string[]; replacement?: string } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { warnings: [] };
  const b = body as { warnings?: unknown; replacement?: unknown };
  const list = Array.isArray(b.warnings) ? b.warnings : typeof b.warnings === 'string' ? [b.warnings] : [];
  const warnings = list
    .slice(0, MAX_WARNINGS * 2)
    .map((w) =>
      typeof w === 'string'
        ? w
        : w && typeof w === 'object' && typeof (w as { message?: unknown }).message === 'string'
          ? (w as { message: string }).message
          : '',
    )
    .map(line)
    .filter(Boolean);
  const r = b.replacement;
  const rs =
    typeof r === 'string'
      ? r
      : r && typeof r === 'object'
        ? ['url', 'endpoint', 'path']
            .map((k) => (r as Record<string, unknown>)[k])
            .find((x): x is string => typeof x === 'string')
        : undefined;
  const replacement = rs ? line(rs) : undefined;
  return { warnings, ...(replacement ? { replacement } : {}) };
}

/**
 * The one place a deprecation notice is computed: from any response's headers (`Deprecation`,
 * `Sunset`, `Link` rel successor-version, `Warning`) and, when given, its parsed JSON body
 * (`warnings`, `replacement`). Undefined when the response says none of these.
 */
export function deprecationNotice(o: {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
  requestUrl?: string;
  requestId?: string;
}): DeprecationNotice | undefined {
  const dep = parseDeprecation(header(o.headers, 'deprecation'));
  const sunsetRaw = header(o.headers, 'sunset');
  const sunsetAt = sunsetRaw === undefined ? undefined : parseHttpDate(sunsetRaw.trim());
  let successor = successorLink(header(o.headers, 'link'), o.requestUrl);
  const fromBody = bodyWarnings(o.body);
  let replacement = fromBody.replacement;
  if (replacement && !successor && /^https?:\/\//i.test(replacement)) {
    successor = webLink(replacement);
    replacement = undefined;
  }
  const warnings = [...new Set([...warningTexts(header(o.headers, 'warning')), ...fromBody.warnings])].slice(
    0,
    MAX_WARNINGS,
  );
  const deprecated = dep.present || sunsetRaw !== undefined || successor !== undefined || replacement !== undefined;
  if (!deprecated && !warnings.length) return undefined;
  return {
    endpoint: `${o.method} ${o.path.split('?')[0]!.slice(0, 200)}`,
    deprecated,
    ...(dep.at !== undefined ? { deprecatedAt: dep.at } : {}),
    ...(sunsetAt !== undefined ? { sunsetAt } : {}),
    ...(successor ? { successor } : {}),
    ...(replacement ? { replacement } : {}),
    warnings,
    ...(o.requestId ? { requestId: o.requestId } : {}),
  };
}

/** A cheap test before parsing a body a second time: could it hold `warnings` or `replacement`? */
export function mayCarryWarnings(bodyText: string): boolean {
  return bodyText.includes('"warnings"') || bodyText.includes('"replacement"');
}

/** "31 Dec 2026": the day itself, in UTC (the service's dates are GMT), never a time. */
function dayWords(t: number): string {
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    t,
  );
}

/** "in 34 d", "in 5 h", "3 d ago". */
function distanceWords(t: number, now: number): string {
  return t >= now ? `in ${durationWords(t - now)}` : `${durationWords(now - t)} ago`;
}

/** The parts every surface shows: what is deprecated, the sunset (the day and how far off), the successor, what the service says. */
interface NoticeParts {
  headline: string;
  sunset?: string;
  successor?: string;
  said: string[];
}

export function noticeParts(n: DeprecationNotice, now: number): NoticeParts {
  const since = n.deprecatedAt !== undefined && n.deprecatedAt <= now ? ` since ${dayWords(n.deprecatedAt)}` : '';
  const headline = n.deprecated
    ? n.deprecatedAt !== undefined && n.deprecatedAt > now
      ? `${n.endpoint} will be deprecated on ${dayWords(n.deprecatedAt)}`
      : `${n.endpoint} is deprecated${since}`
    : `the service warns about ${n.endpoint}`;
  const sunset =
    n.sunsetAt === undefined
      ? undefined
      : n.sunsetAt > now
        ? `it stops working on ${dayWords(n.sunsetAt)} (${distanceWords(n.sunsetAt, now)})`
        : `it was due to stop working on ${dayWords(n.sunsetAt)} (${distanceWords(n.sunsetAt, now)})`;
  const successor = n.successor
    ? `successor: ${n.successor}`
    : n.replacement
      ? `replacement: ${n.replacement}`
      : undefined;
  return { headline, ...(sunset ? { sunset } : {}), ...(successor ? { successor } : {}), said: n.warnings };
}

/** The notice as one sentence (the CLI's line, the log, the tools, the doctor); the editor builds its message from the same parts. */
export function noticeWords(n: DeprecationNotice, now: number): string {
  const p = noticeParts(n, now);
  const said = p.said.length ? `; the service says: ${p.said.map((s) => `"${s}"`).join('; ')}` : '';
  return `${[p.headline, p.sunset, p.successor].filter(Boolean).join('; ')}${said}`;
}

/**
 * Which notices to tell: every one goes to `onEvery` (the log); `first` says whether this is the first
 * for its endpoint within `period` (a process: Infinity; the editor: one UTC day). The clock is passed in.
 */
export class NoticeOnce {
  private readonly seen = new Map<string, number>();
  constructor(private readonly period: 'process' | 'day' = 'process') {}

  /** True the first time an endpoint is seen (per process, or per UTC day). */
  first(n: DeprecationNotice, now: number): boolean {
    const day = this.period === 'day' ? Math.floor(now / 86_400_000) : 0;
    if (this.seen.get(n.endpoint) === day) return false;
    if (this.seen.size > 500) this.seen.clear();
    this.seen.set(n.endpoint, day);
    return true;
  }
}

/**
 * Notices waiting to be told to a model (the tools): each endpoint's notice once per process, taken
 * by the next tool answer. Fed by the client's `onNotice`.
 */
export class NoticeBoard {
  private readonly once = new NoticeOnce('process');
  private pending: DeprecationNotice[] = [];

  add(n: DeprecationNotice, now: number): void {
    if (this.once.first(n, now)) this.pending.push(n);
  }

  take(): DeprecationNotice[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }
}

// HTTP dates (RFC 9110 5.6.7), as `Retry-After`, `Sunset` and `Deprecation`'s older date form carry them.
const HTTP_DATE = new RegExp(
  [
    // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
    /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/
      .source,
    // obsolete RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
    /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2} GMT$/
      .source,
    // obsolete asctime: Sun Nov  6 08:49:37 1994
    /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/
      .source,
  ].join('|'),
);

/** Epoch ms of an HTTP date in any of its three forms, or undefined for anything else. */
export function parseHttpDate(v: string): number | undefined {
  if (!HTTP_DATE.test(v)) return undefined;
  const date = Date.parse(v.endsWith('GMT') ? v : `${v} GMT`);
  return Number.isNaN(date) ? undefined : date;
}
