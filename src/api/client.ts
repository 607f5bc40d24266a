// DevIndexClient: developer search, and the generic request() that the agent client builds on.
import { type core } from 'zod/mini';
import { basePrefix, encodeSearchAt, isLoopbackHost, joinUrl, parseBaseUrl, SEARCH_PATH } from './encode';
import { ApiError, errorFromResponse, keylessQuotaWords, validationError } from './errors';
import { headerValue, type HttpResponse, type Transport } from './transport';
import { keyEntryProblem, keyHeaderProblem, makeRedactor } from './redact';
import { checkSearchParams, passedCheck, type SearchParams } from './params';
import { systemClock, withRetry, type BackoffTiming, type Clock, type RateLimitMode, type RetryEvent } from './retry';
import { SearchAnswerSchema, type SearchResponse } from './schemas';
import { USER_AGENT } from './version';
import { untilWords } from '../words/waitWords';
import {
  deprecationNotice,
  mayCarryWarnings,
  newRequestId,
  REQUEST_ID_HEADER,
  RETRY_ID_HEADER,
  requestIdWords,
  type DeprecationNotice,
} from './notices';
import { jsonOrUndefined, parseOk, scrub, searchFailure } from './answer';

export interface RequestLogEntry {
  method: string;
  path: string;
  status?: number;
  attempts: number;
  ms: number;
  error?: string;
  /** The `External-Request-Id` of every attempt, in order (none when nothing was sent). */
  requestIds: string[];
}

export interface ClientOptions {
  /** May carry a path prefix: https://gw.example.com/fc */
  baseUrl: string;
  apiKey?: () => string | undefined | Promise<string | undefined>;
  /** Per attempt, default 30000. */
  timeoutMs?: number;
  /** Longest Retry-After waited silently, default 60000. */
  maxRetryAfterMs?: number;
  /** Default 16 MiB. */
  maxResponseBytes?: number;
  /** Default devindex/<version>. */
  userAgent?: string;
  clock?: Clock;
  random?: () => number;
  /** The retry backoff's durations; the spec's unless shortened. */
  backoff?: Partial<BackoffTiming>;
  /** Names the calling front end in POST bodies (`origin`), e.g. `devindex-vscode@0.2.0`. */
  origin?: string;
  /** Never receives the key. */
  onLog?: (e: RequestLogEntry) => void;
  /** Deprecation headers or body warnings on any response (notices.ts); the answer is returned as usual. */
  onNotice?: (n: DeprecationNotice) => void;
  /** A fresh id per request (tests pin it); default notices.ts `newRequestId`. */
  requestId?: () => string;
  /**
   * How one attempt is sent (transport.ts): Node's over undici with the proxy and certificate authorities
   * (http.ts, README "Proxies and certificates"), or the browser's fetch; the caller's host chooses.
   */
  transport: Transport;
  /**
   * Send the key over plain `http://` to a host that is not loopback. Off by default: such a request is
   * refused before anything is sent (the key would cross the network in clear text).
   */
  allowInsecureHttp?: boolean;
  /** The zone long waits are said in ("until 10:00 tomorrow"); the system's own by default (tests pin one). */
  timeZone?: string;
}

export interface CallOptions {
  signal?: AbortSignal;
  onRetry?: (e: RetryEvent) => void;
  rateLimit?: RateLimitMode;
}

export interface RequestSpec<T> {
  method: 'GET' | 'POST' | 'DELETE';
  /** Relative to baseUrl, e.g. '/v2/agent'. */
  path: string;
  query?: Array<[string, string]>;
  body?: unknown;
  /** Either zod form: the search schemas are zod/mini, the agent schemas (dist/features.js) classic zod. */
  schema: core.$ZodType<T>;
  /** 'submit': retry only when the service cannot have created the job; 'none': one attempt. */
  retry: 'spec' | 'submit' | 'none';
  /**
   * The endpoint works without a key (developer search). Sent without one, its 401 and 403 are
   * keyless refusals and a long 429 is the keyless daily quota, said as such.
   */
  keyless?: boolean;
  /**
   * Sent as `x-request-id` on every attempt of this call: the service runs a repeated id once, so a retry
   * of a call that is not idempotent (an Exchange call) cannot run or bill it twice.
   */
  retryId?: string;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;
const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export class DevIndexClient {
  private readonly prefix: string;
  private readonly transport: Transport;
  private readonly insecure: boolean;
  private readonly timeoutMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly maxResponseBytes: number;
  private readonly userAgent: string;
  private readonly clock: Clock;
  private readonly random: () => number;

  constructor(private readonly opts: ClientOptions) {
    const base = parseBaseUrl(opts.baseUrl);
    this.prefix = basePrefix(base);
    this.insecure = base.protocol === 'http:' && !isLoopbackHost(base.hostname) && opts.allowInsecureHttp !== true;
    this.transport = opts.transport;
    this.timeoutMs = positive(opts.timeoutMs, DEFAULT_TIMEOUT_MS, 'timeoutMs');
    this.maxRetryAfterMs = positive(opts.maxRetryAfterMs, DEFAULT_MAX_RETRY_AFTER_MS, 'maxRetryAfterMs', true);
    this.maxResponseBytes = positive(opts.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES, 'maxResponseBytes');
    this.userAgent = opts.userAgent ?? USER_AGENT;
    this.clock = opts.clock ?? systemClock;
    this.random = opts.random ?? Math.random;
  }

  /** For AgentClient: the service's base URL (to check a list's `next`) and the `origin` POST bodies carry. */
  get settings(): { baseUrl: string; origin?: string } {
    return { baseUrl: this.opts.baseUrl, origin: this.opts.origin };
  }

  /**
   * Validates before anything is sent (ApiError kind 'validation', attempts 0; params validateSearchParams already
   * passed are not checked twice), then GET or POST.
   */
  async search(params: SearchParams, opts: CallOptions = {}): Promise<SearchResponse> {
    let checked = params;
    if (!passedCheck(params)) {
      const v = checkSearchParams(params);
      if (!v.ok) throw validationError(v.issues);
      checked = v.params;
    }
    const enc = encodeSearchAt(checked, this.prefix);
    // Like the official SDK: `origin` rides in POST bodies only (a GET keeps to the parameters of 4.1).
    if (enc.body && this.opts.origin) enc.body.origin = this.opts.origin;
    const answer = await this.request(
      {
        method: enc.method,
        path: SEARCH_PATH,
        query: enc.query,
        body: enc.body,
        schema: SearchAnswerSchema,
        retry: 'spec',
        keyless: true,
      },
      opts,
    );
    if (answer.success === false) throw searchFailure(answer);
    return answer;
  }

  async request<T>(spec: RequestSpec<T>, opts: CallOptions = {}): Promise<T> {
    const started = this.clock.now();
    const key = this.opts.apiKey ? await this.opts.apiKey() : undefined;
    const redact = makeRedactor(key);
    if (key) {
      const refused = this.refuseKey(key);
      if (refused) {
        this.log({ method: spec.method, path: spec.path, attempts: 0, ms: 0, error: refused.message, requestIds: [] });
        throw refused;
      }
    }
    const headers: Record<string, string> = { 'user-agent': this.userAgent, accept: 'application/json' };
    if (key) headers.authorization = `Bearer ${key}`;
    if (spec.retryId !== undefined) headers[RETRY_ID_HEADER] = spec.retryId;
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers['content-type'] = 'application/json';
    }
    const url = joinUrl(this.prefix, spec.path, spec.query);
    const keylessCall = spec.keyless === true && !key;
    let lastStatus: number | undefined;
    let attempts = 0;
    const requestIds: string[] = [];
    try {
      const result = await withRetry(
        async (n) => {
          attempts = n;
          // Each request its own id, fresh and random (never derived from the key), so a user can quote the one that failed.
          const requestId = (this.opts.requestId ?? newRequestId)().slice(0, 2048);
          requestIds.push(requestId);
          let res: HttpResponse;
          try {
            res = await this.transport.send({
              method: spec.method,
              url,
              headers: { ...headers, [REQUEST_ID_HEADER]: requestId },
              body,
              timeoutMs: this.timeoutMs,
              maxResponseBytes: this.maxResponseBytes,
              signal: opts.signal,
            });
          } catch (e) {
            throw scrub(e, redact);
          }
          lastStatus = res.status;
          // One redaction at the door: nothing the server echoes (a header in an HTML page, a body line) gets past it.
          if (key) res = { ...res, bodyText: redact(res.bodyText) };
          const ok = res.status >= 200 && res.status < 300;
          // On an error the body is read here for its warnings; a success's body is parsed once, below.
          if (!ok)
            this.notice(
              spec,
              res,
              url,
              requestId,
              mayCarryWarnings(res.bodyText) ? jsonOrUndefined(res.bodyText) : undefined,
            );
          if (!ok) {
            throw errorFromResponse({
              status: res.status,
              bodyText: res.bodyText,
              contentType: headerValue(res.headers, 'content-type'),
              retryAfter: headerValue(res.headers, 'retry-after'),
              nowMs: this.clock.now(),
              attempts: n,
              redact,
              location: headerValue(res.headers, 'location'),
              requestUrl: url,
              keyless: keylessCall,
              wwwAuthenticate: headerValue(res.headers, 'www-authenticate'),
            });
          }
          return parseOk(res, spec.schema, redact, (json) => this.notice(spec, res, url, requestId, json));
        },
        {
          mode: spec.retry,
          clock: this.clock,
          random: this.random,
          maxRetryAfterMs: this.maxRetryAfterMs,
          signal: opts.signal,
          onRetry: opts.onRetry,
          rateLimit: opts.rateLimit,
          timeZone: this.opts.timeZone,
          backoff: this.opts.backoff,
        },
      );
      this.log({
        method: spec.method,
        path: spec.path,
        status: lastStatus,
        attempts,
        ms: this.clock.now() - started,
        requestIds,
      });
      return result;
    } catch (e) {
      let err = scrub(e, redact);
      if (err.attempts === 0) err.attempts = attempts;
      if (
        keylessCall &&
        err.kind === 'retry-after-too-long' &&
        err.status === 429 &&
        err.resetAt !== undefined &&
        err.quota !== undefined
      )
        err = this.keylessQuota(err);
      if (err.attempts > 1 && (err.kind === 'timeout' || err.kind === 'network' || err.kind === 'http')) {
        const s = Math.round((this.clock.now() - started) / 1000);
        err.message +=
          ` (gave up after ${err.attempts} attempts over ${s} s; ` +
          `each attempt may take up to ${Math.round(this.timeoutMs / 100) / 10} s)`;
      }
      // Every error a user sees names the request that failed (the last one sent); a cancelled call is not an error shown.
      const lastId = requestIds[requestIds.length - 1];
      if (lastId && err.kind !== 'aborted' && err.requestId === undefined) {
        err.requestId = lastId;
        err.message += ` (${requestIdWords(lastId)})`;
      }
      this.log({
        method: spec.method,
        path: spec.path,
        status: err.status ?? lastStatus,
        attempts: err.attempts,
        ms: this.clock.now() - started,
        error: err.message,
        requestIds,
      });
      throw err;
    }
  }

  /**
   * Does now the transport's setup for the service (over https: the certificate authorities, 45 ms on Node 24), so
   * that the first search, later, does not wait for it. Sends nothing; a setup error is reported by the first request.
   */
  prepare(): void {
    this.transport.prepare?.(new URL(this.opts.baseUrl).origin);
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  /**
   * A keyless 429 that says it is the quota (its `reason`, a WWW-Authenticate header, or "keyless" in its
   * text) and whose wait is beyond what the client waits by itself: the daily keyless quota, never waited.
   */
  private keylessQuota(e: ApiError): ApiError {
    const until = untilWords(e.resetAt!, this.clock.now(), { timeZone: this.opts.timeZone });
    return new ApiError({
      kind: 'keyless-quota',
      status: 429,
      error: e.error,
      code: e.code,
      retryable: false,
      retryAfterMs: e.retryAfterMs,
      resetAt: e.resetAt,
      quota: e.quota,
      attempts: e.attempts,
      cause: e,
      signupUrl: e.signupUrl,
      message: keylessQuotaWords(e.quota, until),
    });
  }

  /** A key that can never be sent, or not over this connection: refused before the first attempt, never retried. */
  private refuseKey(key: string): ApiError | undefined {
    const problem = keyHeaderProblem(key);
    if (problem)
      return new ApiError({
        kind: 'invalid-key',
        retryable: false,
        attempts: 0,
        message: `${problem}; set the key again (copy it without line breaks)`,
      });
    // Set API Key's own rule (length, no spaces), for keys that did not come through it (the CLI's
    // and the MCP server's environment): a one-letter key is nobody's key, and its redaction would
    // garble every message it appears in as a word.
    const entry = keyEntryProblem(key);
    if (entry)
      return new ApiError({
        kind: 'invalid-key',
        retryable: false,
        attempts: 0,
        message: `the API key was not sent: ${entry.charAt(0).toLowerCase()}${entry.slice(1).replace(/\.$/, '')}`,
      });
    if (this.insecure) {
      return new ApiError({
        kind: 'insecure-transport',
        retryable: false,
        attempts: 0,
        message: `refused to send the API key over plain http to ${new URL(this.opts.baseUrl).host}, where anyone on the network can read it: use an https:// base URL (or, knowing the risk, turn on devIndex.insecure.allowHttpWithKey / DEVINDEX_INSECURE_HTTP=1)`,
      });
    }
    return undefined;
  }

  /** A response that says its endpoint is deprecated, or carries warnings: told to `onNotice`; never fails the call. */
  private notice(
    spec: { method: string; path: string },
    res: HttpResponse,
    url: string,
    requestId: string,
    body: unknown,
  ): void {
    if (!this.opts.onNotice) return;
    try {
      const n = deprecationNotice({
        method: spec.method,
        path: spec.path,
        headers: res.headers,
        body,
        requestUrl: url,
        requestId,
      });
      if (n) this.opts.onNotice(n);
    } catch {
      /* a failing listener must not fail the request */
    }
  }

  private log(e: RequestLogEntry): void {
    if (!this.opts.onLog) return;
    try {
      this.opts.onLog(e);
    } catch {
      /* a failing logger must not fail the request */
    }
  }
}

function positive(v: number | undefined, dflt: number, name: string, allowZero = false): number {
  if (v === undefined) return dflt;
  if (!Number.isFinite(v) || v < 0 || (!allowZero && v === 0))
    throw new TypeError(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} number; got ${v}`);
  return v;
}
