// The sandbox server's settings, constants and request helpers (sandbox/server.ts runs the server):
// what a test or the CLI may set, the service's fixed texts and limits, and the bodies the control routes take.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { dirname, join } from 'node:path';
import * as z from 'zod';

/**
 * Which response shapes the sandbox speaks: `production` (the addendum's "What the production service sends today")
 * or `spec` (the specification's). See sandbox/README.md, "Wire".
 */
export type Wire = 'production' | 'spec';

export interface SandboxOptions {
  port?: number;
  keys?: string[];
  faults?: boolean;
  corpusDir?: string;
  rateLimit?: number;
  keylessRateLimit?: number;
  agentSpeed?: number;
  quiet?: boolean;
  /** Which response shapes to serve (default `production`): see sandbox/README.md, "Wire". */
  wire?: Wire;
  /** Production wire: keyless developer searches allowed per caller address per UTC day (0 or unset: no daily quota). */
  keylessDaily?: number;
  /** The keyless quota's 429 also sends `Retry-After`, as some deployments do (default false: the body only). */
  keylessRetryAfterHeader?: boolean;
  /**
   * Production wire: whether keyed callers' teams have the license flag, so their results carry `license`
   * (default false: production sends `license` only to teams with the flag, and a new team has none).
   * Keys issued with `withoutLicense` never get it.
   */
  licenseKeyed?: boolean;
  /** Production wire: whether keyless callers get `license` on results too (default false, as production). */
  licenseKeyless?: boolean;
  /** Production wire: at most this many passages in one response; when it cuts, `passage_budget_applied` says so. */
  passageBudget?: number;
  /** Production wire: agent follow-ups and thread records answer 503 `threads_disabled`. */
  threadsDisabled?: boolean;
  /**
   * Production wire: every answer to a path starting with one of these prefixes carries production's
   * deprecation headers and body `warnings` / `replacement` (sandbox/README.md, "Deprecated endpoints").
   */
  deprecated?: string[];
}

/** What a deprecated endpoint answers with (production wire; `POST /__sandbox/deprecations` changes it). */
export interface DeprecationSetting {
  /** Path prefixes (`/v2/search/developer`, `/v2/agent`); empty: nothing is deprecated. */
  paths: string[];
  /** The `Deprecation` value: `@<epoch seconds>` (RFC 9745) or a date. */
  deprecation: string;
  /** The `Sunset` value, an HTTP date. */
  sunset: string;
  /** The `Link: <…>; rel="successor-version"` target. */
  successor: string;
  /** The text of `Warning: 299 - "…"`. */
  warning: string;
  /** Add `warnings: [warning]` and `replacement` to JSON object bodies. */
  body: boolean;
  replacement: string;
}

/** Production retired its older GitHub search this way on 2026-11-03 (addendum): the same shapes, with a sunset at the end of 2026. */
export const DEFAULT_DEPRECATION: Omit<DeprecationSetting, 'paths'> = {
  deprecation: '@1793664000',
  sunset: 'Thu, 31 Dec 2026 23:59:59 GMT',
  successor: 'https://docs.firecrawl.dev/api-reference/endpoint/developer-search',
  warning: 'This endpoint is deprecated and will be removed on 2026-12-31; see the successor-version link.',
  body: true,
  replacement: '/v2/search/developer',
};

/** The keyless quota's own signup link for a caller (production: `https://firecrawl.dev/k/<token>`); stable per address and day, never the address. */
export function signupUrlFor(address: string, day: number): string {
  return `https://firecrawl.dev/k/${createHash('sha256').update(`${address}|${day}`).digest('hex').slice(0, 20)}`;
}

/** How keyless callers are refused (test mode: `POST /__sandbox/keyless`). */
export type KeylessRefusal = 'ipv6' | 'suspicious' | 'off' | null;
export const KEYS_PAGE = 'https://www.firecrawl.dev/app/api-keys';
/** Production's words for keyless callers (addendum, "Keyless developer search"). */
export const KEYLESS_MESSAGES = {
  quota: `You've hit Firecrawl's keyless free tier rate limit for today. Create an API key at ${KEYS_PAGE} to keep searching.`,
  ipv6: `Keyless requests are not available from IPv6 or unrecognized addresses. Create an API key at ${KEYS_PAGE} to keep searching.`,
  off: `Unauthorized: keyless access is not enabled on this server. Create an API key at ${KEYS_PAGE}.`,
  suspicious: `Keyless requests are refused because your IP address looks suspicious (a proxy or VPN). Create an API key at ${KEYS_PAGE} to keep searching.`,
} as const;
/** The `documentation_url` of production's JSON 404 (and 405), exactly as its own route tests expect it. */
export const NOT_FOUND_DOCUMENTATION_URL = 'https://docs.firecrawl.dev/api-reference/introduction';
/** The relayed 400 of the search back end for `types=web` (no `success`, no `details`). */
export const WEB_TYPE_ERROR = {
  code: 'BAD_REQUEST',
  error: 'unknown type: web (expected doc, issue, pull_request, readme)',
} as const;
/** The request log keeps at most this many bytes of each body; a longer one is logged as `{ cut, bytes, prefix }`. */
export const MAX_LOGGED_BODY_BYTES = 4096;

/** Seconds from `t` until the next UTC midnight (at least 1). */
export function secondsToUtcMidnight(t: number): number {
  const d = new Date(t);
  const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - t) / 1000));
}

/** A client that closed the connection before its whole request arrived: an ordinary event, not a fault. */
export class RequestAborted extends Error {}

export interface Sandbox {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * One entry of `GET /__sandbox/requests`. `query` is the raw query string without `?` ('' when none).
 * `origin`: the request's Origin header, only when it has one (a browser's cross-origin fetch does; Node's does not).
 */
export interface LoggedRequest {
  method: string;
  path: string;
  query: string;
  body: unknown;
  auth: 'none' | 'valid' | 'invalid';
  origin?: string;
  /** Production wire: the request's `External-Request-Id` as it came (at most 2,048 bytes; a longer one is noted, not kept). */
  requestId?: string;
  /** The `x-request-id` an Exchange call carries (the same on every retry of one call), at most 128 characters. */
  retryId?: string;
}

/** The service accepts an `External-Request-Id` of at most this many bytes. */
export const MAX_REQUEST_ID_BYTES = 2048;

export const DEFAULT_RATE_LIMIT = 600;
export const DEFAULT_KEYLESS_RATE_LIMIT = 60;
/** Largest request body read; above it the answer is 413 `Payload Too Large`. */
export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_LOG = 10_000;
/** The request log (test mode) keeps the newest entries within this many bytes of bodies, paths and queries. */
export const MAX_LOG_BYTES = 16 * 1024 * 1024;
/** A JSON body nested deeper than this is refused with 400 before anything walks it. */
export const MAX_BODY_DEPTH = 100;

/** Whether JSON text nests deeper than `max` (a linear scan that skips strings; no recursion). */
export function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
    } else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}
export const SEARCH_PATH = '/v2/search/developer';
/** Production's second mount of the same search: keyless callers get 401 (addendum). */
export const KEYED_SEARCH_PATH = '/v2/developer/search';
export const DEFAULT_WIRE: Wire = 'production';

/** The repository root: the nearest folder above `from` whose package.json is this project's. */
export function findRepoRoot(from: string = __dirname): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'devindex') return dir;
      } catch {
        /* not ours */
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

export function defaultCorpusDir(): string {
  const root = findRepoRoot() ?? findRepoRoot(process.cwd());
  if (!root)
    throw new Error(
      'sandbox: cannot find the repository root (package.json named devindex); pass corpusDir / --corpus',
    );
  return join(root, 'sandbox', 'corpus');
}

/** Opaque, stable id for a key: the agent engine's `team`, and the rate-limit bucket. Never the key. */
export const teamOf = (key: string): string => `team_${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;

export const keylessBodySchema = z.strictObject({
  refuse: z.enum(['ipv6', 'suspicious', 'off']).nullable().optional(),
  daily: z.int().min(0).optional(),
  retryAfterHeader: z.boolean().optional(),
  reason: z.enum(['requests', 'credits']).optional(),
  reset: z.boolean().optional(),
});

export const deprecationsBodySchema = z.strictObject({
  paths: z.array(z.string().startsWith('/').max(200)).max(20),
  deprecation: z.string().min(1).max(100).optional(),
  sunset: z.string().min(1).max(100).optional(),
  successor: z.string().url().max(2048).optional(),
  warning: z
    .string()
    .max(500)
    .refine((s) => !/["\\\r\n]/.test(s), 'no quotes, backslashes or line breaks')
    .optional(),
  body: z.boolean().optional(),
  replacement: z.string().max(500).optional(),
});

export const corpusBodySchema = z.strictObject({
  add: z
    .array(
      z.strictObject({
        repo: z.string().max(200),
        type: z.enum(['issue', 'pull_request']),
        number: z.int().min(1).max(10_000_000),
        markdown: z.string().min(1).max(200_000),
      }),
    )
    .max(50),
});

/** Whether a search request asks for `web` among its types (production relays the back end's 400 for it). */
export function asksForWeb(input: unknown): boolean {
  const types = input !== null && typeof input === 'object' ? (input as { types?: unknown }).types : undefined;
  const list = Array.isArray(types) ? types : typeof types === 'string' ? types.split(',') : [];
  return list.some((t) => t === 'web');
}

/** The Host header when it is a plain host[:port]; undefined otherwise (never echoed raw into a header). */
export function safeHost(h: string | undefined): string | undefined {
  return h && /^[A-Za-z0-9.:[\]-]{1,100}$/.test(h) ? h : undefined;
}

export const keysBodySchema = z.strictObject({
  add: z.array(z.string().min(1).max(512)).optional(),
  revoke: z.array(z.string().min(1).max(512)).optional(),
  /** Keys whose team lacks the license flag: keyed, yet answered without `license` (production wire). */
  withoutLicense: z.array(z.string().min(1).max(512)).optional(),
});

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.error));
  }
}

/**
 * On every answer: any origin may read it, and the headers the client reads are exposed (a browser
 * shows a script only the CORS-safelisted ones otherwise: Retry-After and WWW-Authenticate are not).
 */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'Retry-After, WWW-Authenticate, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Location, Date, Deprecation, Sunset, Link, Warning',
};

/** A preflight's answer: the methods and request headers the client sends (Authorization is never covered by a `*`). */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type, Accept, External-Request-Id',
  'access-control-max-age': '600',
  'content-length': '0',
};

/** The body as text, or `tooLarge` past MAX_BODY_BYTES (the rest is drained, not kept). */
export function readBody(req: IncomingMessage): Promise<{ raw: string; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) parts.push(c);
    });
    let ended = false;
    req.on('end', () => {
      ended = true;
      resolve(
        size > MAX_BODY_BYTES
          ? { raw: '', tooLarge: true }
          : { raw: Buffer.concat(parts).toString('utf8'), tooLarge: false },
      );
    });
    // A client that hangs up mid-body: node reports `aborted` (ECONNRESET) or just closes the request.
    req.on('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'ECONNRESET' || e.message === 'aborted' ? new RequestAborted(e.message) : e),
    );
    req.on('close', () => {
      if (!ended) reject(new RequestAborted('closed'));
    });
  });
}
