// undici transport: one keep-alive pool per origin (undici's Agent), a per-attempt timeout covering
// headers and body, AbortSignal cancellation, and a cap on the response size.
import { Agent, type Dispatcher } from 'undici';
import { ApiError } from './errors';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxResponseBytes: number;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bodyText: string;
}

export function headerValue(h: HttpResponse['headers'], name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

export class HttpTransport {
  private readonly agent: Agent;

  constructor(o: { connections?: number; keepAliveTimeoutMs?: number } = {}) {
    this.agent = new Agent({ connections: o.connections ?? 8, keepAliveTimeout: o.keepAliveTimeoutMs ?? 30_000, keepAliveMaxTimeout: 600_000 });
  }

  /**
   * One attempt. Built on dispatch() rather than request() so that the timeout, the caller's signal
   * and the size cap all act through one abort handle: handing undici an AbortSignal per request
   * costs more than the rest of the client's own work at k=10 (see bench/client.bench.ts).
   */
  send(req: HttpRequest): Promise<HttpResponse> {
    if (req.signal?.aborted) return Promise.reject(aborted());
    const { origin, path } = splitUrl(req.url);
    return new Promise<HttpResponse>((resolve, reject) => {
      let controller: Dispatcher.DispatchController | undefined;
      let settled = false;
      let status = 0;
      let headers: HttpResponse['headers'] = {};
      const chunks: Buffer[] = [];
      let total = 0;

      const finish = (err: ApiError | undefined, value?: HttpResponse): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onOuterAbort);
        if (err) {
          // Stop the exchange; when it has not started yet, onRequestStart aborts it on arrival.
          if (controller && !controller.aborted) controller.abort(err);
          reject(err);
        } else {
          resolve(value!);
        }
      };
      const timer = setTimeout(() => finish(new ApiError({
        kind: 'timeout', retryable: true,
        message: `no complete answer from ${origin} within ${Math.round(req.timeoutMs / 100) / 10} s (timeout per attempt)`,
      })), req.timeoutMs);
      const onOuterAbort = (): void => finish(aborted());
      req.signal?.addEventListener('abort', onOuterAbort, { once: true });

      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(c) {
          controller = c;
          if (settled) c.abort(new Error('request no longer wanted'));
        },
        onResponseStart(_c, statusCode, h) {
          status = statusCode;
          headers = h as HttpResponse['headers'];
          const declared = Number(headerValue(headers, 'content-length'));
          if (Number.isFinite(declared) && declared > req.maxResponseBytes) finish(tooLarge(req.maxResponseBytes, status));
        },
        onResponseData(_c, chunk) {
          if (settled) return;
          total += chunk.length;
          if (total > req.maxResponseBytes) { finish(tooLarge(req.maxResponseBytes, status)); return; }
          chunks.push(chunk);
        },
        onResponseEnd() {
          const bodyText = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, total).toString('utf8');
          finish(undefined, { status, headers, bodyText });
        },
        onResponseError(_c, e) {
          finish(networkError(e, origin));
        },
      };
      try {
        this.agent.dispatch({ origin, path, method: req.method, headers: req.headers, body: req.body, headersTimeout: 0, bodyTimeout: 0 }, handler);
      } catch (e) {
        finish(networkError(e, origin));
      }
    });
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** Origin and path+query of an absolute URL the client built itself (so no parsing is needed). */
function splitUrl(url: string): { origin: string; path: string } {
  const i = url.indexOf('/', url.indexOf('//') + 2);
  return i < 0 ? { origin: url, path: '/' } : { origin: url.slice(0, i), path: url.slice(i) };
}

function aborted(): ApiError {
  return new ApiError({ kind: 'aborted', message: 'request cancelled', retryable: false });
}

function tooLarge(max: number, status: number): ApiError {
  return new ApiError({ kind: 'response-too-large', status, message: `the response is larger than the ${Math.round(max / 1024)} KiB this client accepts`, retryable: false });
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused; is the service running at this address? check the base URL',
  ENOTFOUND: 'host not found; check the base URL',
  ECONNRESET: 'the connection was reset before a complete answer arrived',
  UND_ERR_SOCKET: 'the connection closed before a complete answer arrived',
  EPIPE: 'the connection closed while sending the request',
  UND_ERR_CONNECT_TIMEOUT: 'could not connect in time',
  EAI_AGAIN: 'temporary DNS failure',
};

/**
 * Refused connections and unknown hosts are not retried: nothing is listening, and waiting out five
 * backoffs (over half a minute) would only delay the message that says so. Dropped connections are.
 */
function networkError(e: unknown, origin: string): ApiError {
  const code = (e as { code?: string }).code ?? (e as { cause?: { code?: string } }).cause?.code;
  const words = (code && NETWORK_WORDS[code]) ?? (e instanceof Error ? e.message : String(e));
  const retryable = code !== 'ECONNREFUSED' && code !== 'ENOTFOUND';
  return new ApiError({ kind: 'network', code, message: `could not complete the request to ${origin}: ${words}${code && NETWORK_WORDS[code] ? ` (${code})` : ''}`, retryable, cause: e });
}
