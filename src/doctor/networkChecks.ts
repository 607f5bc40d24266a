// The network checks of the diagnosis: the base URL's name resolves, the proxy accepts CONNECT, and the TLS chain
// this client sees is trusted. No vscode import.
import * as net from 'node:net';
import { fixNaming, NAMES } from './findings';
import { askConnect, connectTcp, handshake, lookupAll, seconds, type Probe } from './probes';
import { budget, type Context, ok, printable, problem, type Result, skipped } from './context';

export async function checkDns(cx: Context): Promise<Result> {
  if (!cx.url) return skipped('no usable base URL');
  const host = cx.url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) return ok(`${host} is an address: nothing to resolve`);
  const p = await lookupAll(host, budget(cx, 'dns'), cx.opts.signal);
  if (p.ok) {
    const [first, ...rest] = p.value;
    return ok(`${host} → ${first ?? '(no address)'}${rest.length ? ` (and ${rest.length} more)` : ''} in ${p.ms} ms`);
  }
  if (cx.proxy)
    return skipped(
      `${host} does not resolve from this machine (${describeProbe(p)}); the proxy resolves it, which is normal behind a proxy`,
    );
  cx.blocked = `${host} does not resolve`;
  const what = p.code === 'ENOTFOUND' ? 'not found' : describeProbe(p);
  return problem(
    `${host}: ${what}`,
    fixNaming(
      'baseUrl',
      cx.surface,
      `check the host name in ${NAMES.baseUrl[cx.surface]} (a typo?), or the network's DNS; ` +
        `behind a proxy, set it in ${cx.surface === 'editor' ? 'http.proxy' : 'HTTPS_PROXY'}`,
    ),
  );
}

function describeProbe(p: Extract<Probe<unknown>, { ok: false }>): string {
  if (p.reason === 'timeout') return p.message;
  if (p.reason === 'aborted') return 'cancelled';
  return p.code ? `${p.code}` : p.message;
}

// ---- the proxy answers, and accepts CONNECT ----

export async function checkProxyConnect(cx: Context): Promise<Result> {
  if (!cx.url) return skipped('no usable base URL');
  const p = cx.proxy;
  if (!p)
    return skipped(
      cx.blocked === 'the proxy is not usable' ? 'the proxy setting is not usable (above)' : 'no proxy applies',
    );
  const settings = p.source === 'http.proxy' ? { settings: ['http.proxy'] } : {};
  const where = p.source;
  const port = Number(p.url.port || (p.url.protocol === 'https:' ? 443 : 80));
  const host = p.url.hostname.replace(/^\[|\]$/g, '');
  const limit = budget(cx, 'proxyConnect');
  const t0 = Date.now();
  const conn = await connectTcp(
    host,
    port,
    limit,
    cx.opts.signal,
    p.url.protocol === 'https:'
      ? {
          ...(net.isIP(host) ? {} : { servername: host }),
          ...(cx.ca ? { ca: cx.ca } : {}),
          rejectUnauthorized: p.strictSSL,
        }
      : undefined,
  );
  if (!conn.ok) {
    cx.blocked = 'the proxy cannot be reached';
    const why =
      conn.code === 'ECONNREFUSED'
        ? 'refused the connection: nothing listens there'
        : conn.code === 'ENOTFOUND'
          ? `its host ${host} is not found`
          : conn.reason === 'timeout'
            ? `did not answer within ${seconds(limit)}`
            : describeProbe(conn);
    return problem(`${p.display} (from ${where}) ${why}`, {
      text: `check the proxy address in ${where}, or remove it if this network has no proxy`,
      ...settings,
    });
  }
  const bracketedHost = cx.url.hostname.includes(':')
    ? `[${cx.url.hostname.replace(/^\[|\]$/g, '')}]`
    : cx.url.hostname;
  const target = `${bracketedHost}:${cx.url.port || (cx.url.protocol === 'https:' ? 443 : 80)}`;
  const left = Math.max(1, Math.min(limit - (Date.now() - t0), cx.deadline - Date.now()));
  const answer = await askConnect(conn.value, target, p.token, left, cx.opts.signal);
  if (!answer.ok) {
    cx.blocked = 'the proxy does not open a tunnel';
    const why =
      answer.reason === 'timeout'
        ? `accepted the connection but did not answer CONNECT ${target} within ${seconds(limit)}`
        : `did not answer CONNECT ${target}: ${answer.message}`;
    return problem(`${p.display} (from ${where}) ${why}`, {
      text:
        `the proxy may not allow CONNECT tunnels: ask its administrator, ` +
        `or if the service is reachable directly, add ${cx.url.hostname} ` +
        `to ${NAMES.noProxy[cx.surface]}`,
      ...settings,
    });
  }
  const { status, reason } = answer.value;
  const said = `HTTP ${status}${reason ? ` ${printable(reason)}` : ''}`;
  if (status === 407) {
    cx.blocked = 'the proxy asks for credentials';
    conn.value.destroy();
    const fix = p.token ? 'the proxy refused the credentials given: correct them' : 'give the proxy credentials';
    return problem(
      `${p.display} (from ${where}) refused CONNECT ${target}: it needs credentials (${said})`,
      cx.surface === 'editor'
        ? {
            text: `${fix} in http.proxyAuthorization (or user:password in http.proxy)`,
            settings: ['http.proxyAuthorization', 'http.proxy'],
          }
        : { text: `${fix} in the proxy URL: ${NAMES.proxyAuth.cli}` },
    );
  }
  if (status < 200 || status > 299) {
    cx.blocked = 'the proxy refuses CONNECT';
    conn.value.destroy();
    return problem(`${p.display} (from ${where}) refused CONNECT ${target} (${said})`, {
      text:
        `ask the proxy's administrator to allow CONNECT to ${target}, ` +
        `or if the service is reachable directly, add ${cx.url.hostname} ` +
        `to ${NAMES.noProxy[cx.surface]}`,
      ...(cx.surface === 'editor' ? { settings: ['http.noProxy', ...(settings.settings ?? [])] } : {}),
    });
  }
  cx.tunnel = conn.value;
  return ok(
    `${p.display} (from ${where}) answered and opened a tunnel to ${target} (${said}) in ${Date.now() - t0} ms`,
  );
}

// ---- TLS: the chain this client sees ----

export async function checkTls(cx: Context): Promise<Result> {
  if (!cx.url) return skipped('no usable base URL');
  if (cx.url.protocol !== 'https:') return skipped('plain http: no TLS');
  if (cx.blocked) return skipped(`${cx.blocked} (above)`);
  const host = cx.url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(cx.url.port || 443);
  const tunnel = cx.tunnel;
  cx.tunnel = undefined;
  const limit = budget(cx, 'tls');
  const p = await handshake({
    host,
    port,
    ...(tunnel ? { socket: tunnel } : {}),
    ...(cx.ca ? { ca: cx.ca } : {}),
    timeoutMs: limit,
    ...(cx.opts.signal ? { signal: cx.opts.signal } : {}),
  });
  const via = tunnel ? ` through ${cx.proxy?.display}` : '';
  if (!p.ok) {
    cx.blocked = 'the TLS handshake failed';
    const why =
      p.code === 'ECONNREFUSED'
        ? `connection to ${host}:${port} refused: nothing listens there`
        : p.reason === 'timeout'
          ? `no TLS handshake with ${host}:${port}${via} within ${seconds(limit)}`
          : `the TLS handshake with ${host}:${port}${via} failed (${describeProbe(p)})`;
    return problem(
      why,
      p.code === 'ECONNREFUSED'
        ? fixNaming('baseUrl', cx.surface, `check the address and port in ${NAMES.baseUrl[cx.surface]}`)
        : {
            text:
              `a firewall or a proxy may stop TLS to ${host}; if a proxy is required here, ` +
              `set it in ${cx.surface === 'editor' ? 'http.proxy' : 'HTTPS_PROXY'}`,
            ...(cx.surface === 'editor' ? { settings: ['http.proxy'] } : {}),
          },
    );
  }
  const t = p.value;
  const leaf = t.chain[0];
  const top = t.chain[t.chain.length - 1];
  const upTo =
    t.chain.length > 1 && top?.issuer !== leaf?.issuer ? `, chain of ${t.chain.length} up to "${top?.issuer}"` : '';
  const chain = t.chain.length ? `${leaf?.subject} issued by "${leaf?.issuer}"${upTo}` : 'no certificate';
  const expires =
    leaf && Number.isFinite(leaf.validToMs) ? `, expires ${new Date(leaf.validToMs).toISOString().slice(0, 10)}` : '';
  const addr = t.remote ? ` at ${t.remote}` : '';
  if (!t.authorized) {
    const untrustedIssuer = top?.issuer ?? leaf?.issuer ?? 'an unknown issuer';
    if (cx.proxy && !cx.proxy.strictSSL) {
      return ok(
        `${chain}${expires}${addr}${via}: not trusted (${t.error}), accepted because http.proxyStrictSSL is off`,
        {
          text: `trust "${untrustedIssuer}" with devIndex.network.caFile and turn http.proxyStrictSSL back on`,
          settings: ['devIndex.network.caFile', 'http.proxyStrictSSL'],
        },
      );
    }
    cx.blocked = 'the certificate is not trusted';
    if (t.error === 'CERT_HAS_EXPIRED') {
      return problem(`${chain}${expires}${addr}${via}: the certificate has expired`, {
        text: `the service's (or a gateway's) certificate expired on ${leaf?.validTo}: tell its operator; check this machine's clock too`,
      });
    }
    if (t.error === 'ERR_TLS_CERT_ALTNAME_INVALID' || t.error?.includes('altnames')) {
      return problem(
        `${chain}${addr}${via}: the certificate is not for ${host} (${t.error})`,
        fixNaming(
          'baseUrl',
          cx.surface,
          `check the host in ${NAMES.baseUrl[cx.surface]}; a gateway that inspects TLS may be answering for it`,
        ),
      );
    }
    const caName = NAMES.caFile[cx.surface];
    const other =
      cx.surface === 'editor'
        ? ' (or NODE_EXTRA_CA_CERTS before starting the editor)'
        : ' (the editor: devIndex.network.caFile)';
    return problem(
      `${chain}${expires}${addr}${via}: not trusted (${t.error}); ` +
        `"${untrustedIssuer}" is not a certificate authority this client ` +
        `trusts${cx.caBroken ? ' (an extra certificate file is unusable, above)' : ''}`,
      fixNaming(
        'caFile',
        cx.surface,
        `if "${untrustedIssuer}" is your network's TLS-inspecting gateway, ` +
          `get its CA certificate as a PEM file and point ${caName} at it${other}`,
      ),
    );
  }
  const soon =
    leaf && Number.isFinite(leaf.validToMs) && leaf.validToMs - Date.now() < 14 * 86_400_000
      ? ' (less than 14 days left)'
      : '';
  return ok(`trusted: ${chain}${expires}${soon}${addr}${via}${t.protocol ? `, ${t.protocol}` : ''}`);
}
