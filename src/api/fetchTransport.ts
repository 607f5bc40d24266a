// The browser transport (transport.ts's Transport over `fetch`) of the web extension's client (vscode.dev,
// github.dev). The browser owns proxies and certificate authorities; what it does not allow (User-Agent, a
// redirect's target, why a connection failed) is left out or said in the error.
import { ApiError } from './errors';
import {
  abortedError,
  splitUrl,
  timeoutError,
  tooLargeError,
  unexpectedStatus,
  type HttpRequest,
  type HttpResponse,
  type Transport,
} from './transport';

// A browser drops a script's User-Agent (POST bodies still name the front end in `origin`); it hides where a manual
// redirect pointed (the error says one happened); a refused connection, a DNS failure and a CORS refusal are one
// TypeError to a script (the error says so).
/** Headers a browser refuses to let a script set (the Fetch standard's forbidden request headers this client would send). */
const FORBIDDEN_HEADERS = new Set(['user-agent', 'connection', 'content-length', 'host']);

type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export class FetchTransport implements Transport {
  /** `fetchImpl`: the global fetch by default (read at each call, so a test's or a host's replacement is seen). */
  constructor(private readonly fetchImpl?: FetchLike) {}

  async send(req: HttpRequest): Promise<HttpResponse> {
    if (req.signal?.aborted) throw abortedError();
    const { origin } = splitUrl(req.url);
    const controller = new AbortController();
    let why: ApiError | undefined;
    const stop = (e: ApiError): void => {
      why ??= e;
      controller.abort();
    };
    const timer = setTimeout(() => stop(timeoutError(origin, req.timeoutMs)), req.timeoutMs);
    const onOuterAbort = (): void => stop(abortedError());
    req.signal?.addEventListener('abort', onOuterAbort, { once: true });
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (!FORBIDDEN_HEADERS.has(k.toLowerCase())) headers[k] = v;
    try {
      const f = this.fetchImpl ?? (globalThis.fetch as FetchLike);
      let res: Response;
      try {
        res = await f(req.url, {
          method: req.method,
          headers,
          body: req.body,
          redirect: 'manual',
          signal: controller.signal,
          // No cookies or HTTP auth of the browser's go along: the key is the only credential.
          credentials: 'omit',
          cache: 'no-store',
        });
      } catch (e) {
        throw why ?? fetchError(e, origin);
      }
      if (res.type === 'opaqueredirect') {
        throw new ApiError({
          kind: 'redirect',
          status: res.status || undefined,
          retryable: false,
          message:
            'the service answered with a redirect (the browser does not say where to); ' +
            'redirects are not followed, so the key never goes to another address: ' +
            'if the service moved, set the base URL to its new address',
        });
      }
      const status = res.status;
      const unexpected = unexpectedStatus(status, origin);
      if (unexpected) {
        void res.body?.cancel().catch(() => undefined);
        throw unexpected;
      }
      const out: HttpResponse['headers'] = {};
      res.headers.forEach((v, k) => {
        out[k.toLowerCase()] = v;
      });
      if (status >= 300 && status < 400) {
        void res.body?.cancel().catch(() => undefined);
        return { status, headers: out, bodyText: '' };
      }
      const declared = Number(out['content-length']);
      if (Number.isFinite(declared) && declared > req.maxResponseBytes) {
        void res.body?.cancel().catch(() => undefined);
        throw tooLargeError(req.maxResponseBytes, status);
      }
      const bodyText = await readCapped(res, req.maxResponseBytes, status, () => why, origin);
      return { status, headers: out, bodyText };
    } catch (e) {
      if (why) throw why;
      throw e;
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onOuterAbort);
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** The body as text, failing as soon as it passes `max` bytes (the rest is never read). */
async function readCapped(
  res: Response,
  max: number,
  status: number,
  stopped: () => ApiError | undefined,
  origin: string,
): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder('utf-8');
  let total = 0;
  let text = '';
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (e) {
      throw stopped() ?? fetchError(e, origin, true);
    }
    if (chunk.done) break;
    total += chunk.value.byteLength;
    if (total > max) {
      void reader.cancel().catch(() => undefined);
      throw tooLargeError(max, status);
    }
    text += decoder.decode(chunk.value, { stream: true });
  }
  return text + decoder.decode();
}

const CAUSE_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused; is the service running at this address? check the base URL',
  ENOTFOUND: 'host not found; check the base URL',
  ECONNRESET: 'the connection was reset before a complete answer arrived',
  UND_ERR_SOCKET: 'the connection closed before a complete answer arrived',
};

/**
 * A failed fetch. Node's fetch names a cause (ECONNREFUSED …); a browser's says only "Failed to
 * fetch", which covers a refused connection, an unknown host, a certificate the browser refused and
 * a CORS refusal alike, so it is not retried (most of those stay so) and the message names them.
 * A body cut off midway (`midBody`) is a dropped connection, retried as in Node.
 */
function fetchError(e: unknown, origin: string, midBody = false): ApiError {
  const code = (e as { cause?: { code?: string } } | undefined)?.cause?.code;
  if (code && CAUSE_WORDS[code]) {
    return new ApiError({
      kind: 'network',
      code,
      cause: e,
      retryable: code !== 'ECONNREFUSED' && code !== 'ENOTFOUND',
      message: `could not complete the request to ${origin}: ${CAUSE_WORDS[code]} (${code})`,
    });
  }
  if (midBody) {
    return new ApiError({
      kind: 'network',
      cause: e,
      retryable: true,
      message: `could not complete the request to ${origin}: the connection closed before a complete answer arrived`,
    });
  }
  return new ApiError({
    kind: 'network',
    cause: e,
    retryable: false,
    message:
      `could not complete the request to ${origin}: the browser could not reach it ` +
      `(no service at that address, a host it cannot resolve, a certificate it does not trust, ` +
      `or an answer without CORS headers; the browser does not say which): check the base URL`,
  });
}
