// Where a Node client's requests go and whom they trust: the proxy (settings first, then the environment), NO_PROXY,
// the certificate authorities (README, "Proxies and certificates"), and a network failure in words with a next step.
import { readFileSync } from 'node:fs';
import type * as Tls from 'node:tls';
import { ApiError } from './errors';

/** node:tls on the first request, not when the client loads (about 5 ms in a bare Node; undici too loads it only to connect). */
export const nodeTls = (): typeof Tls => require('node:tls') as typeof Tls;

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
      message:
        `could not read the certificate authorities in ${file} ` +
        `(${what}): ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
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

const CA_HINT =
  'if a proxy or gateway on your network inspects TLS, trust its certificate authority: ' +
  'point NODE_EXTRA_CA_CERTS at its PEM file, or in VS Code set devIndex.network.caFile ' +
  '(see "Proxies and certificates" in the README)';
const PROXY_AUTH_HINT =
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
        message:
          `the proxy${named} refused the connection to ${origin}: ` +
          `it needs credentials (HTTP 407 Proxy Authentication Required); ${PROXY_AUTH_HINT}`,
      });
    }
    return new ApiError({
      kind: 'network',
      code: 'PROXY_REFUSED',
      retryable: status >= 502 && status <= 504,
      cause: e,
      message:
        `the proxy${named} did not open a connection to ${origin} (it answered HTTP ${status}); ` +
        `check the proxy settings or ask its administrator whether this address is allowed`,
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
      message:
        `the answer from ${origin}${via} is not valid HTTP/1.1 (${code ?? raw}); not retried: ` +
        `check the base URL, or a proxy between this client and the service`,
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
