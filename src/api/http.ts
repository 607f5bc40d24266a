// The Node transport (transport.ts's Transport over undici): a keep-alive pool per origin, a per-attempt timeout over
// headers and body, AbortSignal cancellation, a cap on the response size. Proxies through undici's EnvHttpProxyAgent.
import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import { ApiError } from './errors';
import {
  certificateAuthorities,
  networkError,
  nodeTls,
  noProxyEntry,
  proxyOrigin,
  resolveProxy,
  type NetworkOptions,
  type ProxyPlan,
} from './network';
import * as t from './transport';

// undici's pieces loaded from their own modules: the package's root pulls in fetch, WebSocket, the cache and the mock
// agents (about 290 KB the client never runs), which esbuild cannot drop from a CommonJS package.
const Agent: typeof Undici.Agent = require('undici/lib/dispatcher/agent.js');
const EnvHttpProxyAgent: typeof Undici.EnvHttpProxyAgent = require('undici/lib/dispatcher/env-http-proxy-agent.js');

// As undici's own lib/api/index.js does, for the two methods we use: the request API lives on
// Dispatcher.prototype; the client calls `request`, and the proxy agents tunnel with `connect`
// (`stream`, `pipeline` and `upgrade`, about 7 KB, are never called). Assigning them twice (when
// something else loads the root too) puts the same functions back.
const DispatcherClass: { prototype: object } = require('undici/lib/dispatcher/dispatcher.js');
Object.assign(DispatcherClass.prototype, {
  request: require('undici/lib/api/api-request.js') as unknown,
  connect: require('undici/lib/api/api-connect.js') as unknown,
});

export class HttpTransport implements t.Transport {
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
  send(req: t.HttpRequest): Promise<t.HttpResponse> {
    if (req.signal?.aborted) return Promise.reject(t.abortedError());
    const { origin, path } = t.splitUrl(req.url);
    const proxy = this.proxy ? this.proxyFor(origin) : undefined;
    return new Promise<t.HttpResponse>((resolve, reject) => {
      let controller: Dispatcher.DispatchController | undefined;
      let settled = false;
      let status = 0;
      let headers: t.HttpResponse['headers'] = {};
      const chunks: Buffer[] = [];
      let total = 0;

      const finish = (err: ApiError | undefined, value?: t.HttpResponse): void => {
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
      const timer = setTimeout(() => finish(t.timeoutError(origin, req.timeoutMs)), req.timeoutMs);
      const onOuterAbort = (): void => finish(t.abortedError());
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
          headers = h as t.HttpResponse['headers'];
          // A status the client never asks for and cannot use ends the exchange now: its body (if any)
          // is neither awaited nor read, so a wrong Content-Length cannot make it wait or look like a
          // dropped connection that is worth retrying.
          const unexpected = t.unexpectedStatus(status, origin);
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
          const declared = Number(t.headerValue(headers, 'content-length'));
          if (Number.isFinite(declared) && declared > req.maxResponseBytes)
            finish(t.tooLargeError(req.maxResponseBytes, status));
        },
        onResponseData(_c, chunk) {
          if (settled) return;
          total += chunk.length;
          if (total > req.maxResponseBytes) {
            finish(t.tooLargeError(req.maxResponseBytes, status));
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
