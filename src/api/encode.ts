// GET/POST encoding of a developer search request (spec 4.1).
import { SEARCH_FILTERS, type SearchParams } from './params';

export const SEARCH_PATH = '/v2/search/developer';
/** Past this many characters some proxies and gateways refuse a URL; POST carries the request instead. */
export const MAX_GET_URL_LENGTH = 2000;

const ORDER = ['query', ...SEARCH_FILTERS] as const;
const ARRAY_PARAMS = new Set(['types', 'repos', 'sources']);

interface EncodedSearch {
  method: 'GET' | 'POST';
  /** Query pairs for GET (arrays as repeated parameters); empty for POST. */
  query: Array<[string, string]>;
  /** JSON body for POST (arrays as JSON arrays, numbers and booleans as JSON values). */
  body?: Record<string, unknown>;
  /** The full URL the request goes to. */
  url: string;
}

/** Parses and checks a base URL; throws a TypeError naming what is wrong (never echoing credentials). */
export function parseBaseUrl(baseUrl: string): URL {
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    throw new TypeError(`base URL is not a valid absolute URL: ${JSON.stringify(baseUrl.slice(0, 200))}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new TypeError(`base URL must use http or https; got ${u.protocol}`);
  if (u.username || u.password) throw new TypeError('base URL must not carry credentials; set the API key instead');
  if (u.search || u.hash) throw new TypeError('base URL must not have a query or fragment');
  return u;
}

/** origin + path prefix of a base URL, without trailing slashes: https://gw.example.com/fc */
export function basePrefix(base: string | URL): string {
  const u = typeof base === 'string' ? parseBaseUrl(base) : base;
  return u.origin + u.pathname.replace(/\/+$/, '');
}

/** prefix (from basePrefix) + path + query, with percent-encoding. */
export function joinUrl(prefix: string, path: string, query: ReadonlyArray<readonly [string, string]> = []): string {
  let s = prefix + (path.startsWith('/') ? path : `/${path}`);
  for (let i = 0; i < query.length; i++) {
    const [k, v] = query[i]!;
    s += `${i === 0 ? '?' : '&'}${encodeURIComponent(k)}=${encodeURIComponent(v)}`;
  }
  return s;
}

/** base + path + query, keeping any path prefix of the base (https://gw.example.com/fc -> /fc/v2/...). */
export function buildUrl(
  base: string | URL,
  path: string,
  query: ReadonlyArray<readonly [string, string]> = [],
): string {
  return joinUrl(basePrefix(base), path, query);
}

/**
 * GET with repeated parameters by default. POST with a JSON body when an array item holds a comma
 * (the service also reads `types=a,b` as two items, so the item would be split) or when the GET URL
 * would be longer than 2,000 characters.
 */
export function encodeSearch(params: SearchParams, base: string | URL): EncodedSearch {
  return encodeSearchAt(params, basePrefix(base));
}

/** encodeSearch for a prefix already computed by basePrefix (the client computes it once). */
export function encodeSearchAt(params: SearchParams, prefix: string): EncodedSearch {
  const query: Array<[string, string]> = [];
  const body: Record<string, unknown> = {};
  let comma = false;
  const rec = params as unknown as Record<string, unknown>;
  for (const key of ORDER) {
    const v = rec[key];
    if (v === undefined) continue;
    body[key] = v;
    if (ARRAY_PARAMS.has(key)) {
      for (const item of v as string[]) {
        if (item.includes(',')) comma = true;
        query.push([key, item]);
      }
    } else {
      query.push([key, String(v)]);
    }
  }
  // Several topics (production's array form) travel as a JSON array: a POST body is the form the
  // service documents for it. One topic in an array is sent as the plain string.
  if (Array.isArray(params.topic)) {
    if (params.topic.length === 1) {
      const i = query.findIndex(([k]) => k === 'topic');
      query[i] = ['topic', params.topic[0]!];
      body.topic = params.topic[0];
    } else comma = true;
  }
  if (!comma) {
    const url = joinUrl(prefix, SEARCH_PATH, query);
    if (url.length <= MAX_GET_URL_LENGTH) return { method: 'GET', query, url };
  }
  return { method: 'POST', query: [], body, url: prefix + SEARCH_PATH };
}

/** Loopback hosts, where plain http never crosses a network: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::1';
}
