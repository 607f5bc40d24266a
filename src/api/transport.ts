// The one seam between the client and the host it runs on: one attempt of one request. Node sends it
// with undici (http.ts: pool, proxies, certificate authorities), a browser with `fetch`
// (fetchTransport.ts). The client, the agent client and everything else in src/api see only this.
import { ApiError } from './errors';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Covers the whole attempt: connection, headers and body. */
  timeoutMs: number;
  /** A larger body fails the attempt with kind 'response-too-large' (declared or counted). */
  maxResponseBytes: number;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bodyText: string;
}

/**
 * One attempt, never retried here (retry.ts decides). Rejects only with an ApiError: 'timeout',
 * 'aborted', 'response-too-large', 'network', 'invalid-response' or 'redirect'. A 3xx resolves with
 * its headers and an empty body (redirects are never followed); a 204, 205, 304 or a status outside
 * 200 to 599 rejects (unexpectedStatus).
 */
export interface Transport {
  send(req: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
  /**
   * Optional: does now, while nothing waits, the setup the first request to `origin` would do (for https,
   * gathering the certificate authorities). Never sends anything and never throws: a setup error is kept
   * and reported by the first request, as without it.
   */
  prepare?(origin: string): void;
}

export function headerValue(h: HttpResponse['headers'], name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

const NO_BODY_STATUSES: Record<number, string> = { 204: 'No Content', 205: 'Reset Content', 304: 'Not Modified' };

/**
 * A final status no request of this client can lead to: 204, 205 and 304 carry no body by
 * definition (a search or job answer always has one, and this client never sends a conditional
 * request, to which 304 is the answer), and a status outside 200 to 599 is not HTTP's. Not retried:
 * the same request gets the same answer, most likely from something between the client and the service.
 */
export function unexpectedStatus(status: number, origin: string): ApiError | undefined {
  const name = NO_BODY_STATUSES[status];
  if (!name && status >= 200 && status <= 599) return undefined;
  const what = name
    ? `HTTP ${status} (${name}), an answer without a body that this client never asks for`
    : `HTTP ${status}, which is not an HTTP status`;
  return new ApiError({
    kind: 'invalid-response',
    status,
    retryable: false,
    message:
      `${origin} answered ${what}; nothing to show, and not retried: check the base URL, ` +
      `or a proxy or cache between this client and the service`,
  });
}

export function abortedError(): ApiError {
  return new ApiError({ kind: 'aborted', message: 'request cancelled', retryable: false });
}

export function timeoutError(origin: string, timeoutMs: number): ApiError {
  return new ApiError({
    kind: 'timeout',
    retryable: true,
    message: `no complete answer from ${origin} within ${Math.round(timeoutMs / 100) / 10} s (timeout per attempt)`,
  });
}

export function tooLargeError(max: number, status: number): ApiError {
  return new ApiError({
    kind: 'response-too-large',
    status,
    message: `the response is larger than the ${Math.round(max / 1024)} KiB this client accepts`,
    retryable: false,
  });
}

/** Origin and path+query of an absolute URL the client built itself (so no parsing is needed). */
export function splitUrl(url: string): { origin: string; path: string } {
  const i = url.indexOf('/', url.indexOf('//') + 2);
  return i < 0 ? { origin: url, path: '/' } : { origin: url.slice(0, i), path: url.slice(i) };
}
