// One error type for every failure of the client, with a message a user can act on.
import type { ParamIssue } from './params';
import { redactDeep } from './redact';
import { parseErrorBody, parseRetryAfter, redirectOrigin, retryAfterMsOf } from './errorBody';

type ApiErrorKind =
  | 'http'
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'invalid-response'
  | 'validation'
  | 'response-too-large'
  | 'retry-after-too-long'
  /** The key cannot be sent (a line break, a character outside Latin-1), or not over this connection (plain http). Nothing was sent. */
  | 'invalid-key'
  | 'insecure-transport'
  /** A 3xx: not followed (the key would go along); `location` names the target's origin. */
  | 'redirect'
  /** Keyless (no key was sent): the daily keyless quota is used up (429); `resetAt` says until when. */
  | 'keyless-quota'
  /** Keyless (no key was sent): the service refuses keyless calls from this network, or has keyless access off (401, 403). */
  | 'keyless-refused';

/** What an ApiError is made of: its kind, message and cause, and any of its other fields (declared on the class). */
export interface ApiErrorInit extends Partial<Omit<ApiError, keyof Error | 'kind'>> {
  kind: ApiErrorKind;
  message: string;
  cause?: unknown;
}

export class ApiError extends Error {
  kind: ApiErrorKind;
  status?: number;
  /** The service's `error` string, as it came. */
  error?: string;
  details?: unknown;
  code?: string;
  retryable: boolean;
  retryAfterMs?: number;
  issues?: ParamIssue[];
  attempts: number;
  /** For a redirect: the origin it pointed to (never the full URL). */
  location?: string;
  /** Epoch ms when a long wait ends (a keyless quota's reset, a rate limit asked for beyond the client's ceiling). */
  resetAt?: number;
  /** For 'keyless-quota': what is used up, keyless requests or keyless credits (the 429's `reason`). */
  quota?: 'requests' | 'credits';
  /** For a 409 `thread_busy`: the run that is still going in the thread. */
  runId?: string;
  /** Keyless errors: the body's `signup_url`, checked (notices.ts `signupLink`): the caller's own link to create a key. */
  signupUrl?: string;
  /** The `External-Request-Id` of the request that failed (the last attempt); the message names it too. */
  requestId?: string;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status;
    this.error = init.error;
    this.details = init.details;
    this.code = init.code;
    this.retryable = init.retryable ?? false;
    this.retryAfterMs = init.retryAfterMs;
    this.issues = init.issues;
    this.attempts = init.attempts ?? 0;
    this.location = init.location;
    this.resetAt = init.resetAt;
    this.quota = init.quota;
    this.runId = init.runId;
    this.signupUrl = init.signupUrl;
    this.requestId = init.requestId;
  }
}

const CONCURRENCY_LIMIT_ERROR = 'Concurrency limit reached';
export const PASSTHROUGH_ERROR = 'Failed to passthrough agent request.';
const PROMPT_INJECTION_ERROR = 'SCRAPE_PROMPT_INJECTION_DETECTED';
/** 503 codes that mean "switched off here", not "busy": never retried. */
const PERMANENT_503_CODES: ReadonlySet<string> = new Set(['threads_disabled']);

/**
 * Spec 7.1, Retryable column. 422 is "Sometimes": an invalid JSON Schema never succeeds on a retry
 * and the model-could-not-conform case costs credits on every try, and the status alone cannot tell
 * the two apart; so the client does not retry 422 by itself and says so in the message.
 */
function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status === 500 || status === 502 || status === 503 || status === 504;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** What the user can do about a status (and, for 403 and 429, the specific `error`). */
function advice(status: number, error: string | undefined): string {
  switch (status) {
    case 400:
      return 'the request was rejected as invalid; check the parameters';
    case 401:
      return 'set or replace the API key; search also works without a key';
    case 402:
      return 'the plan has run out of credits or billing is not configured; add credits or configure billing on the account';
    case 403:
      if (error === PROMPT_INJECTION_ERROR)
        return (
          'the page content looked like a prompt injection and extraction was aborted; ' +
          'if this is a false positive, retry without checkPromptInjection'
        );
      return 'the API key lacks permission for this endpoint or feature; use a key that has it';
    case 404:
      return 'the job, resource or path does not exist; check the id and the base URL';
    case 407:
      return (
        'a proxy between this client and the service asks for credentials; ' +
        'give them in the proxy settings (see "Proxies and certificates" in the README)'
      );
    case 408:
      return 'the service timed out fetching the page; try again (the client retries this with backoff)';
    case 409:
      return 'the resource is in a state that prevents this operation; refresh its status';
    case 413:
      return 'the request body is too large; send fewer or shorter parameters';
    case 422:
      return (
        'the service could not process the request (an invalid extraction schema, ' +
        'or a result that did not conform); fix the schema, or try again if the schema is valid'
      );
    case 429:
      if (error === CONCURRENCY_LIMIT_ERROR)
        return "the plan's concurrent browser limit is reached; wait for running jobs to finish and try again";
      return "the plan's per-minute rate limit is exceeded; wait and try again (a key raises the limit)";
    case 500:
      return 'the service failed internally; try again later';
    case 502:
      return 'an upstream proxy or worker returned an invalid response; try again later';
    case 503:
      return 'the service is temporarily unavailable; try again later';
    case 504:
      return 'the gateway timed out; try again later';
    default:
      return status >= 500 ? 'the service failed; try again later' : 'the service refused the request';
  }
}

/**
 * The words of a keyless refusal (401, 403 on a call that works without a key, sent without one).
 * They never speak of a key the user does not have: they say what the service refuses and that a key
 * fixes it. Each surface adds how to set one.
 */
function keylessRefusalWords(status: number): string {
  return status === 403
    ? 'the service refuses keyless searches from this network ' +
        'because its address looks like a proxy or VPN; searches with an API key work from any network'
    : 'the service refuses keyless searches from this network ' +
        '(an IPv6 or unrecognised address), or has keyless access switched off; searches with an API key work from any network';
}

/** "Keyless searches are used up until 10:00 tomorrow (in 13 h)", or its credits form. */
export function keylessQuotaWords(quota: 'requests' | 'credits' | undefined, until: string): string {
  return quota === 'credits'
    ? `Keyless search credits are used up until ${until}; an API key is not limited by the keyless quota`
    : `Keyless searches are used up until ${until}; an API key is not limited by the keyless quota`;
}

/** Builds the ApiError for a non-2xx response. `redact` removes the API key from anything echoed back. */
export function errorFromResponse(o: {
  status: number;
  bodyText: string;
  contentType?: string;
  retryAfter?: string;
  nowMs: number;
  attempts: number;
  redact?: (s: string) => string;
  /** The call works without a key and was sent without one: 401 and 403 are keyless refusals. */
  keyless?: boolean;
  /** The `WWW-Authenticate` header: the keyless quota's 429 carries one (`Bearer resource_metadata=…`). */
  wwwAuthenticate?: string;
  /** For a 3xx: the `Location` header and the URL that was asked for (to resolve a relative one). */
  location?: string;
  requestUrl?: string;
}): ApiError {
  const redact = o.redact ?? ((s: string) => s);
  if (o.status >= 300 && o.status < 400) {
    const target = redirectOrigin(o.location, o.requestUrl ?? 'http://invalid.invalid/');
    const where = target ? ` to ${redact(target)}` : ' without a usable Location';
    return new ApiError({
      kind: 'redirect',
      status: o.status,
      location: target ? redact(target) : undefined,
      retryable: false,
      attempts: o.attempts,
      message:
        `the service answered with a redirect (HTTP ${o.status})${where}; ` +
        `redirects are not followed, so the key never goes to another address: ` +
        `if the service moved, set the base URL to its new address`,
    });
  }
  const body = parseErrorBody(o.bodyText, o.contentType);
  const error = body.error === undefined ? undefined : redact(body.error);
  const retryAfterMs =
    o.status === 429 || o.status === 503
      ? retryAfterMsOf(o.retryAfter, body, o.nowMs)
      : parseRetryAfter(o.retryAfter, o.nowMs);
  const reason = REASONS[o.status] ?? (o.status >= 500 ? 'Server Error' : 'Error');
  const said = error ?? redact(`${reason}: the service sent ${body.shape}`);
  // The keyless daily quota's 429 says `reason` and carries WWW-Authenticate; a per-minute limit does neither.
  const looksLikeQuota =
    o.keyless === true &&
    o.status === 429 &&
    (body.reason !== undefined || !!o.wwwAuthenticate?.trim() || /keyless/i.test(error ?? ''));
  const quota =
    body.reason === 'requests' || body.reason === 'credits' ? body.reason : looksLikeQuota ? 'requests' : undefined;
  // The signup link matters only where no key was sent: a keyed caller has a key already.
  const signup = o.keyless && body.signupUrl ? { signupUrl: body.signupUrl } : {};
  const extra: Pick<ApiErrorInit, 'runId' | 'quota' | 'signupUrl'> = {
    ...(body.runId ? { runId: body.runId } : {}),
    ...(quota ? { quota } : {}),
    ...signup,
  };
  if (o.keyless && (o.status === 401 || o.status === 403)) {
    return new ApiError({
      kind: 'keyless-refused',
      status: o.status,
      message: `${said} (HTTP ${o.status}): ${keylessRefusalWords(o.status)}`,
      error,
      ...signup,
      code: body.code === undefined ? undefined : redact(body.code),
      retryable: false,
      attempts: o.attempts,
    });
  }
  let message = `${said} (HTTP ${o.status}): ${advice(o.status, error)}`;
  if (o.status === 400 && body.details !== undefined) {
    const fields = describeDetails(body.details);
    if (fields) message += ` [${redact(fields)}]`;
  }
  return new ApiError({
    kind: 'http',
    status: o.status,
    message,
    error,
    details: redactDeep(body.details, redact),
    code: body.code === undefined ? undefined : redact(body.code),
    // A service that has switched a feature off (threads) answers 503 with a code: trying again cannot help.
    retryable:
      isRetryableStatus(o.status) &&
      !(o.status === 503 && body.code !== undefined && PERMANENT_503_CODES.has(body.code)),
    retryAfterMs,
    attempts: o.attempts,
    ...extra,
  });
}

const MAX_DETAILS = 20;

/**
 * zod-style `details` (array of { code, path, message }, production's "Invalid query parameters") as
 * one clause per field: `k: Too big: expected number to be <=100; types.0: Invalid option`. A field
 * named only in `keys` (unrecognized_keys) is named from there.
 */
export function describeDetails(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined;
  const parts = details
    .slice(0, MAX_DETAILS)
    .map((d) => {
      if (!d || typeof d !== 'object') return undefined;
      const rec = d as { path?: unknown; message?: unknown; field?: unknown; keys?: unknown };
      let path = Array.isArray(rec.path)
        ? rec.path.filter((p) => typeof p === 'string' || typeof p === 'number').join('.')
        : typeof rec.field === 'string'
          ? rec.field
          : '';
      if (!path && Array.isArray(rec.keys)) path = rec.keys.filter((k) => typeof k === 'string').join(', ');
      const msg = typeof rec.message === 'string' ? rec.message : '';
      return path || msg ? `${path.slice(0, 100)}${path && msg ? ': ' : ''}${msg.slice(0, 300)}` : undefined;
    })
    .filter((s): s is string => !!s);
  if (details.length > MAX_DETAILS) parts.push(`and ${details.length - MAX_DETAILS} more`);
  return parts.length ? parts.join('; ') : undefined;
}

/** The message for a validation failure: every issue, one per clause. */
export function validationError(issues: ParamIssue[]): ApiError {
  return new ApiError({
    kind: 'validation',
    message: `invalid search parameters: ${issues.map((i) => i.message).join('; ')}`,
    issues,
    retryable: false,
    attempts: 0,
  });
}
