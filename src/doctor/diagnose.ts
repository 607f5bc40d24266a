// `diagnose()`: the connection checks in order, each with its own time limit, the whole run bounded
// (15 s at most) and cancellable. A failing check never stops the run: the checks that depend on it
// are skipped with the reason, the others still run. No vscode import: the CLI and the editor share it.
import * as net from 'node:net';
import * as z from 'zod';
import { isLoopbackHost, buildUrl, SEARCH_PATH } from '../api/encode';
import { ApiError, errorFromResponse } from '../api/errors';
import { parseErrorBody } from '../api/errorBody';
import { HttpTransport } from '../api/http';
import { headerValue, type HttpResponse } from '../api/transport';
import { keyHeaderProblem, type Redact } from '../api/redact';
import { describeZodError, SearchFailureSchema, SearchResponseSchema } from '../api/schemas';
import { USER_AGENT } from '../api/version';
import {
  deprecationNotice,
  mayCarryWarnings,
  newRequestId,
  noticeWords,
  REQUEST_ID_HEADER,
  requestIdWords,
  signupLink,
} from '../api/notices';
import {
  CHECK_ORDER,
  CHECK_TITLES,
  fixNaming,
  NAMES,
  type CheckId,
  type DiagnosisReport,
  type Finding,
  type Fix,
} from './findings';
import { askConnect, connectTcp, handshake, lookupAll, seconds, type Probe } from './probes';
import { PROXY_ENV_NAMES, secretsRedactor, withoutCredentials } from './secrets';
import { withoutControls } from '../words/controls';
import {
  type Context,
  type DoctorInput,
  type DoctorOptions,
  humanWait,
  ok,
  printable,
  problem,
  quotaOf,
  type Result,
  skipped,
  type TimedCheck,
} from './context';
import { checkBaseUrl, checkCa, checkProxy } from './localChecks';

export { humanWait, quotaOf, type DoctorInput, type DoctorOptions, type TimedCheck };

export const DEFAULT_TIMEOUTS: Record<TimedCheck, number> = {
  dns: 3000,
  proxyConnect: 4000,
  tls: 4000,
  service: 6000,
  key: 4000,
};
/** Under the issue's 15 s with room for rendering: the checks stop starting at this point. */
export const TOTAL_LIMIT_MS = 14_000;
/** A clock further off than this from the service's `Date` is a problem (expiry times depend on it). */
export const MAX_SKEW_MS = 60_000;
const DOCTOR_QUERY = 'connection check';

/** The keyless quota's 429 body (addendum, "Keyless developer search"); tolerant of extra fields. */
const KeylessLimitSchema = z.looseObject({
  error: z.string().optional(),
  reason: z.enum(['requests', 'credits']).optional().catch(undefined),
  retry_after_seconds: z.number().int().nonnegative().optional().catch(undefined),
});

export async function diagnose(input: DoctorInput, opts: DoctorOptions = {}): Promise<DiagnosisReport> {
  const started = Date.now();
  const env = input.network?.env ?? process.env;
  const redact = secretsRedactor({
    apiKey: input.apiKey,
    proxyUrls: [input.network?.proxy, ...PROXY_ENV_NAMES.map((n) => env[n])],
    proxyAuthorization: input.network?.proxyAuthorization,
  });
  const cx: Context = {
    input,
    opts,
    redact,
    surface: input.surface,
    deadline: started + Math.min(opts.totalMs ?? TOTAL_LIMIT_MS, TOTAL_LIMIT_MS),
    notices: [],
  };
  const findings: Finding[] = [];
  const steps: Record<
    CheckId,
    (cx: Context) => Promise<Omit<Finding, 'check' | 'title'>> | Omit<Finding, 'check' | 'title'>
  > = {
    baseUrl: checkBaseUrl,
    proxy: checkProxy,
    ca: checkCa,
    dns: checkDns,
    proxyConnect: checkProxyConnect,
    tls: checkTls,
    service: checkService,
    key: checkKey,
    clock: checkClock,
  };
  try {
    for (const id of CHECK_ORDER) {
      let f: Omit<Finding, 'check' | 'title'>;
      if (opts.signal?.aborted) f = { status: 'skipped', found: 'cancelled' };
      else if (Date.now() >= cx.deadline)
        f = {
          status: 'skipped',
          found: `not run: the diagnosis is limited to ${seconds(TOTAL_LIMIT_MS + 1000)} and that time is used up`,
        };
      else {
        cx.requestId = undefined;
        cx.notices = [];
        try {
          f = await steps[id](cx);
        } catch (e) {
          // A check's own bug still gives a finding, never a stack trace.
          f = {
            status: 'problem',
            found: `the check failed unexpectedly: ${e instanceof Error ? e.message : String(e)}`,
            fix: {
              text: 'run the diagnosis again; if this stays, report it with Report an Issue (devindex doctor --json output)',
            },
          };
        }
        if (opts.signal?.aborted && f.status !== 'ok') f = { status: 'skipped', found: 'cancelled' };
        f = withRequestFacts(f, cx);
      }
      findings.push(clean({ check: id, title: CHECK_TITLES[id], ...f }, redact));
    }
  } finally {
    cx.tunnel?.destroy();
  }
  const cancelled = opts.signal?.aborted === true;
  return {
    baseUrl: redact(withoutCredentials(input.baseUrl.trim())).slice(0, 300),
    surface: input.surface,
    startedAt: new Date(started).toISOString(),
    ms: Date.now() - started,
    cancelled,
    findings,
    ok: !cancelled && findings.every((f) => f.status !== 'problem'),
  };
}

/**
 * What a check's request said besides its answer: a deprecation or warning is reported with the
 * finding, whatever its status; a problem names the request id the service can look up.
 */
function withRequestFacts(f: Result, cx: Context): Result {
  let out = f;
  if (cx.notices.length && f.status !== 'skipped') {
    const words = cx.notices.map((n) => noticeWords(n, Date.now())).join('; ');
    out = {
      ...out,
      found: `${out.found}; notice: ${words}`,
      notices: cx.notices.map((n) => noticeWords(n, Date.now())),
    };
    if (!out.fix)
      out = {
        ...out,
        fix: {
          text: 'the service has deprecated what this check uses: update Developer Index (the extension and the devindex CLI) when a newer version is out',
        },
      };
  }
  if (cx.requestId && f.status === 'problem')
    out = { ...out, found: `${out.found} (${requestIdWords(cx.requestId)})`, requestId: cx.requestId };
  return out;
}

/** The time a check may take: its own limit, or what is left of the whole run. */
function budget(cx: Context, id: TimedCheck): number {
  return Math.max(1, Math.min(cx.opts.timeouts?.[id] ?? DEFAULT_TIMEOUTS[id], cx.deadline - Date.now()));
}

/** One line of untrusted text, bounded, without secrets. */
function clean(f: Finding, redact: Redact): Finding {
  const line = (s: string) => withoutControls(redact(s), { lines: 'join', bidi: true, max: 1000 });
  return { ...f, found: line(f.found), ...(f.fix ? { fix: { ...f.fix, text: line(f.fix.text) } } : {}) };
}

// ---- name resolution ----

async function checkDns(cx: Context): Promise<Result> {
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
      `check the host name in ${NAMES.baseUrl[cx.surface]} (a typo?), or the network's DNS; behind a proxy, set it in ${cx.surface === 'editor' ? 'http.proxy' : 'HTTPS_PROXY'}`,
    ),
  );
}

function describeProbe(p: Extract<Probe<unknown>, { ok: false }>): string {
  if (p.reason === 'timeout') return p.message;
  if (p.reason === 'aborted') return 'cancelled';
  return p.code ? `${p.code}` : p.message;
}

// ---- the proxy answers, and accepts CONNECT ----

async function checkProxyConnect(cx: Context): Promise<Result> {
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
  const target = `${cx.url.hostname.includes(':') ? `[${cx.url.hostname.replace(/^\[|\]$/g, '')}]` : cx.url.hostname}:${cx.url.port || (cx.url.protocol === 'https:' ? 443 : 80)}`;
  const left = Math.max(1, Math.min(limit - (Date.now() - t0), cx.deadline - Date.now()));
  const answer = await askConnect(conn.value, target, p.token, left, cx.opts.signal);
  if (!answer.ok) {
    cx.blocked = 'the proxy does not open a tunnel';
    const why =
      answer.reason === 'timeout'
        ? `accepted the connection but did not answer CONNECT ${target} within ${seconds(limit)}`
        : `did not answer CONNECT ${target}: ${answer.message}`;
    return problem(`${p.display} (from ${where}) ${why}`, {
      text: `the proxy may not allow CONNECT tunnels: ask its administrator, or if the service is reachable directly, add ${cx.url.hostname} to ${NAMES.noProxy[cx.surface]}`,
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
      text: `ask the proxy's administrator to allow CONNECT to ${target}, or if the service is reachable directly, add ${cx.url.hostname} to ${NAMES.noProxy[cx.surface]}`,
      ...(cx.surface === 'editor' ? { settings: ['http.noProxy', ...(settings.settings ?? [])] } : {}),
    });
  }
  cx.tunnel = conn.value;
  return ok(
    `${p.display} (from ${where}) answered and opened a tunnel to ${target} (${said}) in ${Date.now() - t0} ms`,
  );
}

// ---- TLS: the chain this client sees ----

async function checkTls(cx: Context): Promise<Result> {
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
            text: `a firewall or a proxy may stop TLS to ${host}; if a proxy is required here, set it in ${cx.surface === 'editor' ? 'http.proxy' : 'HTTPS_PROXY'}`,
            ...(cx.surface === 'editor' ? { settings: ['http.proxy'] } : {}),
          },
    );
  }
  const t = p.value;
  const leaf = t.chain[0];
  const top = t.chain[t.chain.length - 1];
  const chain = t.chain.length
    ? `${leaf?.subject} issued by "${leaf?.issuer}"${t.chain.length > 1 && top?.issuer !== leaf?.issuer ? `, chain of ${t.chain.length} up to "${top?.issuer}"` : ''}`
    : 'no certificate';
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
      `${chain}${expires}${addr}${via}: not trusted (${t.error}); "${untrustedIssuer}" is not a certificate authority this client trusts${cx.caBroken ? ' (an extra certificate file is unusable, above)' : ''}`,
      fixNaming(
        'caFile',
        cx.surface,
        `if "${untrustedIssuer}" is your network's TLS-inspecting gateway, get its CA certificate as a PEM file and point ${caName} at it${other}`,
      ),
    );
  }
  const soon =
    leaf && Number.isFinite(leaf.validToMs) && leaf.validToMs - Date.now() < 14 * 86_400_000
      ? ' (less than 14 days left)'
      : '';
  return ok(`trusted: ${chain}${expires}${soon}${addr}${via}${t.protocol ? `, ${t.protocol}` : ''}`);
}

// ---- the service: one keyless search with k=1 ----

async function checkService(cx: Context): Promise<Result> {
  if (!cx.url) return skipped('no usable base URL');
  if (cx.blocked) return skipped(`${cx.blocked} (above)`);
  const url = buildUrl(cx.url, SEARCH_PATH, [
    ['query', DOCTOR_QUERY],
    ['k', '1'],
  ]);
  const t0 = Date.now();
  const r = await send(cx, { url, timeoutMs: budget(cx, 'service') });
  if (!r.ok) {
    cx.blocked = 'the service did not answer';
    return problem(`keyless search ${SEARCH_PATH}?k=1: ${r.error.message}`, networkFix(cx, r.error));
  }
  const res = r.res;
  const ms = Date.now() - t0;
  const quota = quotaOf(res.headers);
  if (res.status >= 200 && res.status < 300) {
    let json: unknown;
    try {
      json = JSON.parse(res.bodyText);
    } catch {
      json = undefined;
    }
    const refused = SearchFailureSchema.safeParse(json);
    if (refused.success) {
      const said = refused.data.error ? `"${printable(refused.data.error).slice(0, 200)}"` : 'no message';
      return problem(
        `${url.replace(/\?.*$/, '')} answered HTTP ${res.status} in ${ms} ms with success: false: ${said}`,
        {
          text: 'the service refused the search in its own words (above); if they name the address, check the base URL',
        },
      );
    }
    const parsed = SearchResponseSchema.safeParse(json);
    if (!parsed.success) {
      return problem(
        `${url.replace(/\?.*$/, '')} answered HTTP ${res.status} in ${ms} ms, but not with a developer search response (${json === undefined ? 'not JSON' : describeZodError(parsed.error, 2)})`,
        fixNaming(
          'baseUrl',
          cx.surface,
          `is ${NAMES.baseUrl[cx.surface]} the developer index service? (a gateway's path prefix, e.g. https://gw.example.com/fc, is kept)`,
        ),
      );
    }
    const coverage = Object.entries(parsed.data.coverage ?? {}).map(
      ([k, v]) => `${k} ${typeof v === 'string' ? v : '?'}`,
    );
    return ok(
      `reachable: keyless search (k=1) answered HTTP ${res.status} in ${ms} ms, ${parsed.data.results.length} result${parsed.data.results.length === 1 ? '' : 's'}; coverage: ${coverage.length ? coverage.join(', ') : 'not given'}; keyless quota left: ${quota ?? 'not said by the service'}`,
    );
  }
  const body = parseErrorBody(res.bodyText, headerValue(res.headers, 'content-type'));
  const said = body.error ? `"${printable(body.error).slice(0, 200)}"` : body.shape;
  if (res.status === 429) {
    let json: unknown;
    try {
      json = JSON.parse(res.bodyText);
    } catch {
      json = undefined;
    }
    const k = KeylessLimitSchema.safeParse(json);
    const wait = k.success && k.data.retry_after_seconds !== undefined ? k.data.retry_after_seconds * 1000 : undefined;
    const keyless = k.success && (k.data.reason !== undefined || /keyless/i.test(k.data.error ?? ''));
    if (keyless) {
      const what = k.data?.reason === 'credits' ? 'keyless credits are used up' : 'keyless searches are used up';
      const when =
        wait !== undefined
          ? ` until ${new Date(Date.now() + wait).toISOString().slice(0, 16).replace('T', ' ')} UTC (in ${humanWait(wait)})`
          : '';
      // The service's own link to create a key comes first (checked: it is untrusted input).
      const signup = signupLink((json as { signup_url?: unknown } | undefined)?.signup_url);
      const create = signup ? `create your API key at ${signup}, then ` : '';
      return problem(
        `the service answered HTTP 429 in ${ms} ms: ${what} for today from this address${when}`,
        fixNaming(
          'key',
          cx.surface,
          `${create}${cx.surface === 'editor' ? 'run Developer Index: Set API Key' : 'set DEVINDEX_API_KEY'} (a key has its own limits; waiting is the only other way)`,
        ),
      );
    }
    return problem(
      `the service answered HTTP 429 in ${ms} ms: rate limited (${said})${wait !== undefined ? `; retry in ${humanWait(wait)}` : ''}`,
      fixNaming(
        'key',
        cx.surface,
        `wait a minute, or ${cx.surface === 'editor' ? 'set an API key (Developer Index: Set API Key)' : 'set DEVINDEX_API_KEY'} for higher limits`,
      ),
    );
  }
  if (res.status === 401 || res.status === 403) {
    return problem(
      `the service refused keyless search from this network (HTTP ${res.status}: ${said})`,
      fixNaming(
        'key',
        cx.surface,
        `keyless access is refused here (an IPv6, proxy or VPN address, or keyless search is off); ${cx.surface === 'editor' ? 'set an API key with Developer Index: Set API Key' : 'set DEVINDEX_API_KEY'}`,
      ),
    );
  }
  const e = errorFromResponse({
    status: res.status,
    bodyText: res.bodyText,
    contentType: headerValue(res.headers, 'content-type'),
    nowMs: Date.now(),
    attempts: 1,
    redact: cx.redact,
    location: headerValue(res.headers, 'location'),
    requestUrl: url,
  });
  if (res.status === 404 || (res.status >= 300 && res.status < 400)) {
    return problem(
      `${url.replace(/\?.*$/, '')}: ${e.message}`,
      fixNaming(
        'baseUrl',
        cx.surface,
        `check ${NAMES.baseUrl[cx.surface]}: the developer search is not at this address`,
      ),
    );
  }
  return problem(`the service answered HTTP ${res.status} in ${ms} ms: ${e.message}`, {
    text:
      res.status >= 500
        ? 'the service (or a gateway in front of it) is failing: try again later'
        : 'see the message; it names what the service refused',
  });
}

// ---- the key: one cheap authenticated request, never an agent run and never credits ----

async function checkKey(cx: Context): Promise<Result> {
  const key = cx.input.apiKey;
  const keyName = NAMES.key[cx.surface];
  if (!key) return skipped(`no API key is set (${keyName}); search works keyless, agent jobs need one`);
  const unsendable = keyHeaderProblem(key);
  if (unsendable)
    return problem(
      unsendable,
      fixNaming('key', cx.surface, `set the key again, copied without line breaks (${keyName})`),
    );
  if (!cx.url) return skipped('no usable base URL');
  if (cx.url.protocol === 'http:' && !isLoopbackHost(cx.url.hostname) && !cx.input.allowInsecureHttp)
    return skipped('not sent over plain http (base URL, above)');
  if (cx.blocked && cx.blocked !== 'the service did not answer') return skipped(`${cx.blocked} (above)`);
  const t0 = Date.now();
  // The first page of the agent job list: authenticated, no credits, nothing started (as Set API Key checks).
  const r = await send(cx, { url: buildUrl(cx.url, '/v2/agent'), key, timeoutMs: budget(cx, 'key') });
  if (!r.ok) return problem(`GET /v2/agent with the key: ${r.error.message}`, networkFix(cx, r.error));
  const { status } = r.res;
  const ms = Date.now() - t0;
  const body = parseErrorBody(r.res.bodyText, headerValue(r.res.headers, 'content-type'));
  const said = body.error ? `: "${printable(body.error).slice(0, 200)}"` : '';
  if (status >= 200 && status < 300)
    return ok(`accepted (GET /v2/agent, the job list: HTTP ${status} in ${ms} ms; no credits used)`);
  if (status === 401)
    return problem(
      `refused: the service does not accept this key (HTTP 401${said})`,
      fixNaming('key', cx.surface, `set a valid key (${keyName}); create or copy one on your account's API keys page`),
    );
  if (status === 402)
    return problem(`accepted, but the account is out of credits or has no billing (HTTP 402${said})`, {
      text: 'add credits or configure billing on the account; search works meanwhile',
    });
  if (status === 403)
    return problem(
      `accepted, but the key lacks permission for agent jobs (HTTP 403${said})`,
      fixNaming('key', cx.surface, `use a key that has access to agent jobs (${keyName})`),
    );
  if (status === 429) return ok(`accepted (HTTP 429: rate limited right now${said}); the key itself is fine`);
  if (status === 404)
    return problem(
      `the service has no job list at this address (HTTP 404${said}), so the key could not be checked`,
      fixNaming('baseUrl', cx.surface, `check ${NAMES.baseUrl[cx.surface]}`),
    );
  return problem(`the key could not be checked: HTTP ${status}${said}`, {
    text: status >= 500 ? 'the service is failing: try again later' : 'see the message',
  });
}

// ---- the clock ----

function checkClock(cx: Context): Result {
  const d = cx.serviceDate;
  if (!d) return skipped('no answer from the service carried a Date header');
  const skew = d.localMs - d.dateMs;
  const words = `${humanWait(Math.abs(skew))} ${skew > 0 ? 'ahead of' : 'behind'} the service's`;
  if (Math.abs(skew) > MAX_SKEW_MS) {
    return problem(`this machine's clock is ${words} (its Date header: ${new Date(d.dateMs).toUTCString()})`, {
      text: 'set the system clock right (turn on automatic time / NTP): job expiry times and rate-limit resets are read against it',
    });
  }
  return ok(`within ${Math.max(1, Math.round(Math.abs(skew) / 1000))} s of the service's Date header`);
}

// ---- helpers ----

/** One request through the project's own transport (the same proxy, tunnel and CA rules as every request). */
async function send(
  cx: Context,
  o: { url: string; key?: string; timeoutMs: number },
): Promise<{ ok: true; res: HttpResponse } | { ok: false; error: ApiError }> {
  const transport = new HttpTransport({ connections: 1, network: cx.input.network ?? {} });
  // As every request of the client: a fresh random id the service logs, named by a finding that fails.
  const requestId = newRequestId();
  cx.requestId = requestId;
  const headers: Record<string, string> = {
    'user-agent': USER_AGENT,
    accept: 'application/json',
    [REQUEST_ID_HEADER]: requestId,
  };
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  const local = (cx.opts.now ?? Date.now)();
  try {
    const res = await transport.send({
      method: 'GET',
      url: o.url,
      headers,
      timeoutMs: o.timeoutMs,
      maxResponseBytes: 1024 * 1024,
      ...(cx.opts.signal ? { signal: cx.opts.signal } : {}),
    });
    const date = Date.parse(headerValue(res.headers, 'date') ?? '');
    const after = (cx.opts.now ?? Date.now)();
    if (Number.isFinite(date) && !cx.serviceDate)
      cx.serviceDate = { dateMs: date, localMs: Math.round((local + after) / 2) };
    let body: unknown;
    if (mayCarryWarnings(res.bodyText)) {
      try {
        body = JSON.parse(res.bodyText);
      } catch {
        body = undefined;
      }
    }
    const u = new URL(o.url);
    const notice = deprecationNotice({
      method: 'GET',
      path: u.pathname,
      headers: res.headers,
      body,
      requestUrl: o.url,
      requestId,
    });
    if (notice) cx.notices.push(notice);
    return { ok: true, res: { ...res, bodyText: cx.redact(res.bodyText) } };
  } catch (e) {
    const err =
      e instanceof ApiError
        ? e
        : new ApiError({ kind: 'network', message: e instanceof Error ? e.message : String(e) });
    err.message = cx.redact(err.message);
    return { ok: false, error: err };
  } finally {
    void transport.close().catch(() => undefined);
  }
}

function networkFix(cx: Context, e: ApiError): Fix {
  if (e.code === 'CA_FILE')
    return fixNaming('caFile', cx.surface, `point ${NAMES.caFile[cx.surface]} at a readable PEM file`);
  if (e.code === 'PROXY_AUTH')
    return cx.surface === 'editor'
      ? { text: 'give the proxy credentials in http.proxyAuthorization', settings: ['http.proxyAuthorization'] }
      : { text: `give the proxy credentials: ${NAMES.proxyAuth.cli}` };
  if (e.code === 'PROXY_REFUSED' || e.code === 'PROXY_URL')
    return {
      text: `check the proxy (${cx.proxy?.source ?? 'http.proxy / HTTPS_PROXY'})`,
      ...(cx.surface === 'editor' ? { settings: ['http.proxy'] } : {}),
    };
  if (/certificate is not trusted/.test(e.message))
    return fixNaming(
      'caFile',
      cx.surface,
      `trust the gateway's certificate authority with ${NAMES.caFile[cx.surface]}`,
    );
  if (e.kind === 'timeout')
    return { text: 'the service or the network is slow or silent: try again; behind a proxy, check that it is set' };
  return fixNaming('baseUrl', cx.surface, `check ${NAMES.baseUrl[cx.surface]} and the network`);
}
