// The checks of the local configuration, before anything is sent: the base URL, which proxy applies
// and where it came from, and the extra certificate authorities. No vscode import.
import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { isLoopbackHost, parseBaseUrl } from '../api/encode';
import { certificateAuthorities, noProxyEntry, proxyOrigin, resolveProxy, type NetworkOptions } from '../api/network';
import { fixNaming, NAMES, type Fix, type Surface } from './findings';
import { safeDecode, withoutCredentials } from './secrets';
import { type Context, ok, problem, type Result, skipped } from './context';

// ---- base URL ----

export function checkBaseUrl(cx: Context): Result {
  const raw = cx.input.baseUrl.trim();
  const where = NAMES.baseUrl[cx.surface];
  let u: URL;
  try {
    u = parseBaseUrl(raw);
  } catch (e) {
    cx.blocked = 'the base URL is not usable';
    const why = e instanceof Error ? e.message.replace(/^base URL /, '') : String(e);
    return problem(
      `${JSON.stringify(withoutCredentials(raw).slice(0, 200))}: ${why}`,
      fixNaming('baseUrl', cx.surface, `set ${where} to the service's address, e.g. https://api.firecrawl.dev`),
    );
  }
  cx.url = u;
  const host = u.hostname;
  const detail =
    `${u.origin}${u.pathname === '/' ? '' : u.pathname} (${u.protocol.slice(0, -1)}, ` +
    `host ${host}${u.port ? `, port ${u.port}` : ''})`;
  if (u.protocol === 'http:' && !isLoopbackHost(host) && cx.input.apiKey) {
    if (cx.input.allowInsecureHttp) {
      return ok(
        `${detail}; plain http to a host that is not loopback: ` +
          `the API key crosses the network readable by anyone on it (allowed ` +
          `by ${NAMES.insecure[cx.surface]})`,
        fixNaming('baseUrl', cx.surface, `use an https:// address in ${where}`),
      );
    }
    return problem(
      `${detail}; plain http to a host that is not loopback: the API key would cross the network in clear text, so it is not sent`,
      fixNaming(
        'baseUrl',
        cx.surface,
        `use an https:// address in ${where} (or, knowing the risk, ${NAMES.insecure[cx.surface]})`,
      ),
    );
  }
  return ok(detail);
}

// ---- proxy: which one applies, and where it came from ----

export function checkProxy(cx: Context): Result {
  if (!cx.url) return skipped('no usable base URL');
  const netOpts = cx.input.network ?? {};
  const env = netOpts.env ?? process.env;
  const plan = resolveProxy(netOpts);
  if (!plan)
    return ok(
      `none: ${cx.surface === 'editor' ? 'http.proxy is empty and ' : ''}HTTPS_PROXY / HTTP_PROXY are not set; connections go direct`,
    );
  const https = cx.url.protocol === 'https:';
  const raw = https ? plan.httpsProxy : plan.httpProxy;
  const source = plan.source === 'setting' ? 'http.proxy' : (envName(env, https) ?? 'HTTPS_PROXY');
  if (!raw) return ok(`none for http:// addresses (${source} applies to https:// only); connections go direct`);
  const port = cx.url.port || (https ? '443' : '80');
  const bypass = noProxyEntry(cx.url.hostname, port, plan.noProxy);
  if (bypass !== undefined) {
    const from = (netOpts.noProxy ?? []).some((h) => h.trim() === bypass) ? 'http.noProxy' : 'NO_PROXY';
    return ok(
      `none for ${cx.url.host}: ${from} entry "${bypass}" sends it direct (the proxy ${proxyOrigin(raw)} from ${source} is not used)`,
    );
  }
  const fixWhere = source === 'http.proxy' ? 'http.proxy' : source;
  const settings = source === 'http.proxy' ? ['http.proxy'] : undefined;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    cx.blocked = 'the proxy is not usable';
    return problem(`${source} is not a URL (${JSON.stringify(withoutCredentials(raw).slice(0, 100))})`, {
      text: `give ${fixWhere} as http://host:port (or remove it if this network has no proxy)`,
      ...(settings ? { settings } : {}),
    });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    cx.blocked = 'the proxy is not usable';
    return problem(
      `${source} uses ${u.protocol.slice(0, -1)}, which this client does not speak (only http:// and https:// proxies)`,
      { text: `set ${fixWhere} to an http:// proxy`, ...(settings ? { settings } : {}) },
    );
  }
  const token =
    netOpts.proxyAuthorization?.trim() ||
    (u.username || u.password
      ? `Basic ${Buffer.from(`${safeDecode(u.username)}:${safeDecode(u.password)}`).toString('base64')}`
      : undefined);
  cx.proxy = {
    url: u,
    display: u.origin,
    source,
    ...(token ? { token } : {}),
    strictSSL: netOpts.proxyStrictSSL !== false,
  };
  const creds = u.username || u.password;
  const credsNote = creds ? ' (with credentials in the URL, not shown)' : '';
  const authNote = netOpts.proxyAuthorization ? ' with http.proxyAuthorization' : '';
  const found = `${u.origin} from ${source}${credsNote}${authNote}`;
  if (creds && source === 'http.proxy') {
    // It works, but the password sits in settings.json in clear text (and travels with Settings Sync).
    return problem(`${found}: the proxy password is stored in clear text in settings.json`, {
      text:
        'remove user:password from http.proxy and put the credentials in http.proxyAuthorization ' +
        '(e.g. "Basic " + base64 of user:password)',
      settings: ['http.proxy', 'http.proxyAuthorization'],
    });
  }
  return ok(found);
}

function envName(env: Record<string, string | undefined>, https: boolean): string | undefined {
  const names = https ? ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] : ['http_proxy', 'HTTP_PROXY'];
  return names.find((n) => env[n]?.trim());
}

// ---- certificate authorities: the extra files are readable PEM ----

export function checkCa(cx: Context): Result {
  const netOpts = cx.input.network ?? {};
  const env = netOpts.env ?? process.env;
  const files: Array<{ file: string; what: 'caFile' | 'env' }> = [];
  const extra = env.NODE_EXTRA_CA_CERTS?.trim();
  if (extra) files.push({ file: extra, what: 'env' });
  if (netOpts.caFile?.trim()) files.push({ file: netOpts.caFile.trim(), what: 'caFile' });
  const problems: string[] = [];
  const good: string[] = [];
  const usableFiles = new Set<'caFile' | 'env'>();
  let broken: Fix | undefined;
  for (const { file, what } of files) {
    const name = what === 'env' ? 'NODE_EXTRA_CA_CERTS' : 'devIndex.network.caFile';
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      problems.push(
        `${name} names ${file}, which ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? 'error'})`}`,
      );
      broken ??= caFix(
        cx.surface,
        what,
        `point ${name} at the PEM file of the certificate authority you need, or clear it`,
      );
      continue;
    }
    const pems = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
    const names = pems.flatMap((p) => {
      try {
        return [certName(new X509Certificate(p).subject)];
      } catch {
        return [];
      }
    });
    if (!names.length) {
      problems.push(`${name} names ${file}, which holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
      broken ??= caFix(
        cx.surface,
        what,
        `export the certificate authority as PEM (Base-64 text, not DER) and point ${name} at that file`,
      );
      continue;
    }
    usableFiles.add(what);
    good.push(
      `${name}: ${file} (${names.length <= 3 ? names.map((n) => `"${n}"`).join(', ') : `${names.length} certificates`})`,
    );
  }
  // The list the transport would use, from the files that are usable.
  const usable: NetworkOptions = {
    ...netOpts,
    caFile: usableFiles.has('caFile') ? netOpts.caFile : undefined,
    env: { ...env, NODE_EXTRA_CA_CERTS: usableFiles.has('env') ? extra : undefined },
  };
  try {
    cx.ca = certificateAuthorities(usable);
  } catch {
    cx.ca = undefined;
  }
  if (broken) {
    cx.caBroken = true;
    return problem(problems.join('; '), broken);
  }
  if (!good.length)
    return ok(
      `Node's bundled authorities and the system store; no extra file ` +
        `(${cx.surface === 'editor' ? 'devIndex.network.caFile, NODE_EXTRA_CA_CERTS' : 'NODE_EXTRA_CA_CERTS'}) is set`,
    );
  return ok(good.join('; '));
}

/** The CN of an X.509 subject (one `key=value` a line), else its O. */
function certName(subject: string): string {
  const lines = subject.split('\n');
  return (
    lines.find((l) => l.startsWith('CN='))?.slice(3) ?? lines.find((l) => l.startsWith('O='))?.slice(2) ?? 'unnamed'
  );
}

function caFix(surface: Surface, what: 'caFile' | 'env', text: string): Fix {
  return what === 'caFile' ? fixNaming('caFile', surface, text) : { text };
}
