// The service's checks of the diagnosis: one keyless search with k=1, one cheap request with the key (never an agent
// run, never credits), and the clock against the service's Date header. No vscode import.
import * as z from 'zod';
import { buildUrl, isLoopbackHost, SEARCH_PATH } from '../api/encode';
import { ApiError, errorFromResponse } from '../api/errors';
import { parseErrorBody } from '../api/errorBody';
import { HttpTransport } from '../api/http';
import { headerValue, type HttpResponse } from '../api/transport';
import { keyHeaderProblem } from '../api/redact';
import { describeZodError, SearchFailureSchema, SearchResponseSchema } from '../api/schemas';
import { USER_AGENT } from '../api/version';
import { deprecationNotice, mayCarryWarnings, newRequestId, REQUEST_ID_HEADER, signupLink } from '../api/notices';
import { fixNaming, NAMES, type Fix } from './findings';
import { budget, type Context, humanWait, ok, printable, problem, quotaOf, type Result, skipped } from './context';

/** A clock further off than this from the service's `Date` is a problem (expiry times depend on it). */
const MAX_SKEW_MS = 60_000;
const DOCTOR_QUERY = 'connection check';

/** The keyless quota's 429 body (addendum, "Keyless developer search"); tolerant of extra fields. */
const KeylessLimitSchema = z.looseObject({
  error: z.string().optional(),
  reason: z.enum(['requests', 'credits']).optional().catch(undefined),
  retry_after_seconds: z.number().int().nonnegative().optional().catch(undefined),
});

export async function checkService(cx: Context): Promise<Result> {
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
        `${url.replace(/\?.*$/, '')} answered HTTP ${res.status} in ${ms} ms, ` +
          `but not with a developer search response ` +
          `(${json === undefined ? 'not JSON' : describeZodError(parsed.error, 2)})`,
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
      `reachable: keyless search (k=1) answered HTTP ${res.status} in ${ms} ` +
        `ms, ${parsed.data.results.length} result${parsed.data.results.length === 1 ? '' : 's'}; ` +
        `coverage: ${coverage.length ? coverage.join(', ') : 'not given'}; ` +
        `keyless quota left: ${quota ?? 'not said by the service'}`,
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
          `${create}${cx.surface === 'editor' ? 'run Developer Index: Set API Key' : 'set DEVINDEX_API_KEY'} ` +
            `(a key has its own limits; waiting is the only other way)`,
        ),
      );
    }
    return problem(
      `the service answered HTTP 429 in ${ms} ms: rate limited (${said})${wait !== undefined ? `; retry in ${humanWait(wait)}` : ''}`,
      fixNaming(
        'key',
        cx.surface,
        `wait a minute, or ${cx.surface === 'editor' ? 'set an API key (Developer Index: Set API Key)' : 'set DEVINDEX_API_KEY'} ` +
          `for higher limits`,
      ),
    );
  }
  if (res.status === 401 || res.status === 403) {
    return problem(
      `the service refused keyless search from this network (HTTP ${res.status}: ${said})`,
      fixNaming(
        'key',
        cx.surface,
        `keyless access is refused here (an IPv6, proxy or VPN address, or keyless search is off); ` +
          (cx.surface === 'editor' ? 'set an API key with Developer Index: Set API Key' : 'set DEVINDEX_API_KEY'),
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

export async function checkKey(cx: Context): Promise<Result> {
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

export function checkClock(cx: Context): Result {
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
