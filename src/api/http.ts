// undici transport: one keep-alive pool per origin (undici's Agent), a per-attempt timeout covering
// headers and body, AbortSignal cancellation, and a cap on the response size.
import { Agent } from 'undici';
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

const TIMEOUT = Symbol('timeout');

export class HttpTransport {
  private readonly agent: Agent;

  constructor(o: { connections?: number; keepAliveTimeoutMs?: number } = {}) {
    this.agent = new Agent({ connections: o.connections ?? 8, keepAliveTimeout: o.keepAliveTimeoutMs ?? 30_000, keepAliveMaxTimeout: 600_000 });
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    if (req.signal?.aborted) throw aborted();
    const url = new URL(req.url);
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(TIMEOUT), req.timeoutMs);
    const onOuterAbort = () => ac.abort(req.signal?.reason);
    req.signal?.addEventListener('abort', onOuterAbort, { once: true });
    try {
      const res = await this.agent.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: ac.signal,
        // The overall timer above is the real limit; undici's own inactivity timers must not fire first.
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      const declared = Number(headerValue(res.headers, 'content-length'));
      if (Number.isFinite(declared) && declared > req.maxResponseBytes) {
        discard(res.body);
        throw tooLarge(req.maxResponseBytes, res.statusCode);
      }
      const chunks: Buffer[] = [];
      let total = 0;
      for await (const chunk of res.body) {
        total += (chunk as Buffer).length;
        if (total > req.maxResponseBytes) {
          discard(res.body);
          throw tooLarge(req.maxResponseBytes, res.statusCode);
        }
        chunks.push(chunk as Buffer);
      }
      const bodyText = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, total).toString('utf8');
      return { status: res.statusCode, headers: res.headers, bodyText };
    } catch (e) {
      if (e instanceof ApiError) throw e;
      if (ac.signal.aborted && ac.signal.reason === TIMEOUT) {
        throw new ApiError({ kind: 'timeout', message: `no complete answer from ${url.origin} within ${Math.round(req.timeoutMs / 100) / 10} s (timeout per attempt)`, retryable: true });
      }
      if (req.signal?.aborted) throw aborted();
      throw networkError(e, url.origin);
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onOuterAbort);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** Drops a body mid-stream; undici reports that as an error event, which nobody else is listening for. */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => undefined);
  body.destroy();
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
