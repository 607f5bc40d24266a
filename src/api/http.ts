// The Node transport (transport.ts's Transport over undici): one keep-alive pool per origin (undici's Agent), a per-attempt timeout covering
// headers and body, AbortSignal cancellation, and a cap on the response size. Proxies go through
// undici's own EnvHttpProxyAgent / ProxyAgent (never a hand-written tunnel); extra certificate
// authorities through one TLS secure context (README, "Proxies and certificates").
import { readFileSync } from 'node:fs';
import type * as Tls from 'node:tls';
import { Agent, EnvHttpProxyAgent, type Dispatcher } from './undici';
import { ApiError } from './errors';
import {
  abortedError,
  headerValue,
  splitUrl,
  timeoutError,
  tooLargeError,
  unexpectedStatus,
  type HttpRequest,
  type HttpResponse,
  type Transport,
} from './transport';

/** node:tls on the first request, not when the client loads (about 5 ms in a bare Node; undici too loads it only to connect). */
const nodeTls = (): typeof Tls => require('node:tls') as typeof Tls;

export { headerValue, unexpectedStatus, type HttpRequest, type HttpResponse, type Transport } from './transport';

/** Where requests go and whom they trust. Every field is optional: the default is a direct connection with Node's CAs. */
export interface NetworkOptions {
  /** An explicit proxy URL (VS Code's `http.proxy`); wins over the environment's. */
  proxy?: string;
  /** The `Proxy-Authorization` value (VS Code's `http.proxyAuthorization`), e.g. `Basic dXNlcjpwYXNz`. */
  proxyAuthorization?: string;
  /** Verify certificates behind a proxy (VS Code's `http.proxyStrictSSL`); default true. */
  proxyStrictSSL?: boolean;
  /** Hosts that bypass the proxy, besides NO_PROXY (VS Code's `http.noProxy`). */
  noProxy?: string[];
  /** Where HTTPS_PROXY, HTTP_PROXY, NO_PROXY and NODE_EXTRA_CA_CERTS are read; default process.env. */
  env?: Record<string, string | undefined>;
  /** A PEM file of extra certificate authorities (a TLS-inspecting gateway's). */
  caFile?: string;
  /** Also trust the operating system's store where this Node offers it (tls.getCACertificates('system')); default true. */
  systemCertificates?: boolean;
}

/** The proxy a client uses, or undefined for direct connections. Pure: read from settings first, then the environment. */
export interface ProxyPlan {
  source: 'setting' | 'environment';
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
  token?: string;
}

export function resolveProxy(net: NetworkOptions = {}): ProxyPlan | undefined {
  const env = net.env ?? process.env;
  const read = (name: string): string => (env[name.toLowerCase()] ?? env[name.toUpperCase()] ?? '').trim();
  const noProxy = [...(net.noProxy ?? []), ...read('no_proxy').split(/[,\s]+/)]
    .map((h) => h.trim())
    .filter(Boolean)
    .join(',');
  const token = net.proxyAuthorization?.trim() || undefined;
  const setting = net.proxy?.trim();
  if (setting) return { source: 'setting', httpProxy: setting, httpsProxy: setting, noProxy, token };
  const httpProxy = read('http_proxy');
  const httpsProxy = read('https_proxy') || httpProxy;
  if (!httpProxy && !httpsProxy) return undefined;
  return { source: 'environment', httpProxy, httpsProxy, noProxy, token };
}

/** A proxy URL as it may be shown: its origin, never its credentials. */
export function proxyOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the configured proxy';
  }
}

type CaSource = { getCACertificates?: (type: 'default' | 'system') => string[] };

/**
 * The certificate authorities to trust, or undefined for Node's defaults. An explicit `ca` replaces
 * Node's store, so the list starts from it (bundled plus NODE_EXTRA_CA_CERTS) and adds the system store
 * (feature-detected: Node 22.15+ and 23.5+) and the configured PEM file.
 */
export function certificateAuthorities(
  net: NetworkOptions = {},
  tlsModule: CaSource & { rootCertificates: readonly string[] } = nodeTls(),
): string[] | undefined {
  const env = net.env ?? process.env;
  const extra: string[] = [];
  const extraFile = env.NODE_EXTRA_CA_CERTS?.trim();
  // Node read process.env's NODE_EXTRA_CA_CERTS at startup; another environment (the CLI's tests) is read here.
  if (extraFile && extraFile !== process.env.NODE_EXTRA_CA_CERTS) extra.push(readPem(extraFile, 'NODE_EXTRA_CA_CERTS'));
  if (net.caFile?.trim()) extra.push(readPem(net.caFile.trim(), 'the certificate file setting'));
  let system: string[] = [];
  if (net.systemCertificates !== false && typeof tlsModule.getCACertificates === 'function') {
    try {
      system = tlsModule.getCACertificates('system');
    } catch {
      system = [];
    }
  }
  if (!extra.length && !system.length) return undefined;
  const base =
    typeof tlsModule.getCACertificates === 'function'
      ? tlsModule.getCACertificates('default')
      : [...tlsModule.rootCertificates];
  return [...base, ...system, ...extra];
}

function readPem(file: string, what: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ApiError({
      kind: 'network',
      retryable: false,
      code: 'CA_FILE',
      message: `could not read the certificate authorities in ${file} (${what}): ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    });
  }
  if (!/-----BEGIN CERTIFICATE-----/.test(text)) {
    throw new ApiError({
      kind: 'network',
      retryable: false,
      code: 'CA_FILE',
      message: `${file} (${what}) holds no PEM certificate (-----BEGIN CERTIFICATE-----)`,
    });
  }
  return text;
}

export class HttpTransport implements Transport {
  /** For https origins, or any origin through a proxy: built with the trust settings. */
  private dispatcher: Dispatcher | undefined;
  /**
   * For plain http origins with no proxy (a sandbox, a service on localhost): no TLS, so no certificate
   * authorities to gather. Gathering them (the system store, a secure context holding a few hundred
   * certificates) took 45 ms of a first search on Node 24, where the system store is read.
   */
  private plain: Dispatcher | undefined;
  private setupError: ApiError | undefined;
  private readonly proxy: ProxyPlan | undefined;

  constructor(
    private readonly o: { connections?: number; keepAliveTimeoutMs?: number; network?: NetworkOptions } = {},
  ) {
    this.proxy = resolveProxy(o.network);
  }

  private pool(): { connections: number; keepAliveTimeout: number; keepAliveMaxTimeout: number } {
    return {
      connections: this.o.connections ?? 8,
      keepAliveTimeout: this.o.keepAliveTimeoutMs ?? 30_000,
      keepAliveMaxTimeout: 600_000,
    };
  }

  /** The dispatcher for an origin: plain http without a proxy needs no trust settings. */
  private agentFor(origin: string): Dispatcher {
    if (!this.proxy && /^http:/i.test(origin)) return (this.plain ??= new Agent(this.pool()));
    return this.agent();
  }

  /** Built on first use, so that reading a CA file fails a request (with a message), not a constructor. */
  private agent(): Dispatcher {
    if (this.dispatcher) return this.dispatcher;
    if (this.setupError) throw this.setupError;
    const net = this.o.network ?? {};
    const pool = this.pool();
    let ca: string[] | undefined;
    try {
      ca = certificateAuthorities(net);
    } catch (e) {
      this.setupError = e as ApiError;
      throw e;
    }
    const secure = ca ? { secureContext: nodeTls().createSecureContext({ ca }) } : undefined;
    if (!this.proxy) {
      this.dispatcher = new Agent({ ...pool, ...(secure ? { connect: secure } : {}) });
    } else {
      const p = this.proxy;
      // http.proxyStrictSSL off relaxes verification of the proxy and of what is reached through it,
      // never of a host that NO_PROXY sends direct.
      const strict = net.proxyStrictSSL !== false;
      const requestTls = strict ? secure : { ...secure, rejectUnauthorized: false };
      try {
        this.dispatcher = new EnvHttpProxyAgent({
          ...pool,
          httpProxy: p.httpProxy,
          httpsProxy: p.httpsProxy,
          noProxy: p.noProxy,
          ...(p.token ? { token: p.token } : {}),
          ...(secure ? { connect: secure } : {}),
          ...(requestTls ? { requestTls } : {}),
          ...(strict ? {} : { proxyTls: { rejectUnauthorized: false } }),
        });
      } catch (e) {
        const where = p.source === 'setting' ? 'the http.proxy setting' : 'HTTPS_PROXY / HTTP_PROXY';
        this.setupError = new ApiError({
          kind: 'network',
          code: 'PROXY_URL',
          retryable: false,
          cause: e,
          message: `the proxy in ${where} is not a usable URL (${(e as Error).message}); give it as http://host:port`,
        });
        throw this.setupError;
      }
    }
    return this.dispatcher;
  }

  /** Where this transport's requests go first: the proxy's origin, or undefined for direct. */
  proxyFor(url: string): string | undefined {
    if (!this.proxy) return undefined;
    const u = new URL(url);
    if (noProxyEntry(u.hostname, u.port || (u.protocol === 'https:' ? '443' : '80'), this.proxy.noProxy) !== undefined)
      return undefined;
    return proxyOrigin(u.protocol === 'https:' ? this.proxy.httpsProxy : this.proxy.httpProxy);
  }

  /**
   * One attempt. Built on dispatch() rather than request() so that the timeout, the caller's signal
   * and the size cap all act through one abort handle: handing undici an AbortSignal per request
   * costs more than the rest of the client's own work at k=10 (see bench/client.bench.ts).
   */
  send(req: HttpRequest): Promise<HttpResponse> {
    if (req.signal?.aborted) return Promise.reject(abortedError());
    const { origin, path } = splitUrl(req.url);
    const proxy = this.proxy ? this.proxyFor(origin) : undefined;
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
      const timer = setTimeout(() => finish(timeoutError(origin, req.timeoutMs)), req.timeoutMs);
      const onOuterAbort = (): void => finish(abortedError());
      req.signal?.addEventListener('abort', onOuterAbort, { once: true });

      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(c) {
          controller = c;
          if (settled) c.abort(new Error('request no longer wanted'));
        },
        onResponseStart(c, statusCode, h) {
          // An interim answer (102 Processing, 103 Early Hints) is followed by the real one.
          if (statusCode < 200) return;
          status = statusCode;
          headers = h as HttpResponse['headers'];
          // A status the client never asks for and cannot use ends the exchange now: its body (if any)
          // is neither awaited nor read, so a wrong Content-Length cannot make it wait or look like a
          // dropped connection that is worth retrying.
          const unexpected = unexpectedStatus(status, origin);
          if (unexpected) {
            finish(unexpected);
            return;
          }
          // A redirect is reported from its headers alone (it is never followed).
          if (status >= 300 && status < 400) {
            finish(undefined, { status, headers, bodyText: '' });
            if (!c.aborted) c.abort(new Error('redirect: the body is not read'));
            return;
          }
          const declared = Number(headerValue(headers, 'content-length'));
          if (Number.isFinite(declared) && declared > req.maxResponseBytes)
            finish(tooLargeError(req.maxResponseBytes, status));
        },
        onResponseData(_c, chunk) {
          if (settled) return;
          total += chunk.length;
          if (total > req.maxResponseBytes) {
            finish(tooLargeError(req.maxResponseBytes, status));
            return;
          }
          chunks.push(chunk);
        },
        onResponseEnd() {
          const bodyText =
            chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, total).toString('utf8');
          finish(undefined, { status, headers, bodyText });
        },
        onResponseError(_c, e) {
          finish(networkError(e, origin, proxy));
        },
      };
      try {
        this.agentFor(origin).dispatch(
          { origin, path, method: req.method, headers: req.headers, body: req.body, headersTimeout: 0, bodyTimeout: 0 },
          handler,
        );
      } catch (e) {
        finish(e instanceof ApiError ? e : networkError(e, origin, proxy));
      }
    });
  }

  prepare(origin: string): void {
    try {
      this.agentFor(origin);
    } catch {
      /* kept in setupError: the first request reports it */
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.dispatcher?.close(), this.plain?.close()]);
  }
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

/** TLS verification failures: the certificate chain is not one this client trusts. */
const CERT_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_SIGNATURE_FAILURE',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'INVALID_CA',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
]);

export const CA_HINT =
  'if a proxy or gateway on your network inspects TLS, trust its certificate authority: point NODE_EXTRA_CA_CERTS at its PEM file, or in VS Code set devIndex.network.caFile (see "Proxies and certificates" in the README)';
export const PROXY_AUTH_HINT =
  'give the proxy credentials: in VS Code set http.proxyAuthorization (or user:password in http.proxy); in a terminal put them in the proxy URL, HTTPS_PROXY=http://user:password@host:port';

/**
 * Refused connections and unknown hosts are not retried: nothing is listening, and waiting out five
 * backoffs (over half a minute) would only delay the message that says so. Dropped connections are.
 * Neither are certificate failures, a proxy's refusal, or a request undici refuses to send.
 */
export function networkError(e: unknown, origin: string, proxy?: string): ApiError {
  const code = (e as { code?: string }).code ?? (e as { cause?: { code?: string } }).cause?.code;
  const raw = e instanceof Error ? e.message : String(e);
  const via = proxy ? ` (through the proxy ${proxy})` : '';
  const proxyStatus = /Proxy response \((\d{3})\)|Proxy Authentication Required \((407)\)/.exec(raw);
  if (proxyStatus) {
    const named = proxy ? ` ${proxy}` : '';
    const status = Number(proxyStatus[1] ?? proxyStatus[2]);
    if (status === 407) {
      return new ApiError({
        kind: 'network',
        code: 'PROXY_AUTH',
        status: 407,
        retryable: false,
        cause: e,
        message: `the proxy${named} refused the connection to ${origin}: it needs credentials (HTTP 407 Proxy Authentication Required); ${PROXY_AUTH_HINT}`,
      });
    }
    return new ApiError({
      kind: 'network',
      code: 'PROXY_REFUSED',
      retryable: status >= 502 && status <= 504,
      cause: e,
      message: `the proxy${named} did not open a connection to ${origin} (it answered HTTP ${status}); check the proxy settings or ask its administrator whether this address is allowed`,
    });
  }
  // An answer that is not HTTP (llhttp's HPE_* codes, undici's "bad response") stays so on every attempt.
  if (
    (e as Error | undefined)?.name === 'HTTPParserError' ||
    code?.startsWith('HPE_') ||
    (code === 'UND_ERR_SOCKET' && raw === 'bad response')
  ) {
    return new ApiError({
      kind: 'invalid-response',
      code,
      retryable: false,
      cause: e,
      message: `the answer from ${origin}${via} is not valid HTTP/1.1 (${code ?? raw}); not retried: check the base URL, or a proxy between this client and the service`,
    });
  }
  if (code && CERT_CODES.has(code)) {
    return new ApiError({
      kind: 'network',
      code,
      retryable: false,
      cause: e,
      message: `could not complete the request to ${origin}${via}: its certificate is not trusted (${code}); ${CA_HINT}`,
    });
  }
  const words = (code && NETWORK_WORDS[code]) ?? raw;
  const retryable =
    code !== 'ECONNREFUSED' &&
    code !== 'ENOTFOUND' &&
    code !== 'UND_ERR_INVALID_ARG' &&
    code !== 'ERR_INVALID_CHAR' &&
    code !== 'ERR_INVALID_ARG_TYPE' &&
    code !== 'ERR_INVALID_ARG_VALUE' &&
    code !== 'ERR_INVALID_URL';
  const where =
    proxy && code === 'ECONNREFUSED'
      ? `connection to the proxy ${proxy} refused; check the proxy settings (http.proxy, HTTPS_PROXY)`
      : words;
  return new ApiError({
    kind: 'network',
    code,
    message: `could not complete the request to ${origin}${via}: ${where}${code && NETWORK_WORDS[code] ? ` (${code})` : ''}`,
    retryable,
    cause: e,
  });
}

/**
 * NO_PROXY matching as undici's EnvHttpProxyAgent does it (exact host, `.suffix`, `*`, optional port):
 * the entry that sends `host:port` direct, or undefined when the proxy applies.
 */
export function noProxyEntry(host: string, port: string, noProxy: string): string | undefined {
  const h = host.toLowerCase();
  for (const raw of noProxy.split(/[,\s]/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return raw.trim();
    const m = /^(.+?)(?::(\d+))?$/.exec(entry);
    const eh = (m?.[1] ?? entry).replace(/^\*?\./, '.');
    const ep = m?.[2];
    if (ep && ep !== port) continue;
    if (eh.startsWith('.') ? h.endsWith(eh) || h === eh.slice(1) : h === eh) return raw.trim();
  }
  return undefined;
}
