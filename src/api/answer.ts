// Reading an answer once: a 2xx body's JSON (the key redacted even where escapes spell it), its depth bounded, its
// documented shape checked; a 200 `success: false` as the service's refusal; any failure scrubbed of the key.
import { safeParse, type core } from 'zod/mini';
import { ApiError } from './errors';
import { type HttpResponse } from './transport';
import { MAX_JSON_DEPTH, TOO_DEEP, valueDepthExceeds } from './jsonDepth';
import { noRedaction, redactDeep, type Redact } from './redact';
import { describeZodError, type SearchFailure } from './schemas';

/** Any failure as an ApiError in which no string can hold the key (message, error, code, details, location). */
export function scrub(e: unknown, redact: Redact): ApiError {
  if (e instanceof ApiError) {
    e.message = redact(e.message);
    if (e.error) e.error = redact(e.error);
    if (e.code) e.code = redact(e.code);
    if (e.location) e.location = redact(e.location);
    if (e.details !== undefined) e.details = redactDeep(e.details, redact);
    return e;
  }
  const msg = e instanceof Error ? e.message : String(e);
  return new ApiError({ kind: 'network', message: redact(`request failed: ${msg}`), retryable: false });
}

export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A 200 body with `success: false`: the service's own words (already redacted with the body), shown as its
 * answer rather than as an invalid response. Not retried: nothing says trying again would help.
 */
export function searchFailure(body: SearchFailure): ApiError {
  const said = body.error?.trim()
    ? body.error.trim()
    : 'the service reported a failure (success: false) without a message';
  return new ApiError({
    kind: 'http',
    status: 200,
    error: body.error,
    ...(body.code !== undefined ? { code: body.code } : {}),
    retryable: false,
    message: `${said} (HTTP 200, success: false)`,
  });
}

export function parseOk<T>(
  res: HttpResponse,
  schema: core.$ZodType<T>,
  redact: (s: string) => string,
  onJson?: (json: unknown) => void,
): T {
  let json: unknown;
  const text = res.bodyText;
  if (text.trim() === '') {
    json = undefined;
  } else {
    try {
      // The text was redacted at the door, but JSON can spell the key with escapes (`\u0073k-…`,
      // `\/`) that only decoding reveals: then the decoded value is redacted too (depth is bounded
      // above). Without such an escape every decoded string is a piece of the redacted text. Without a
      // key there is nothing to redact, and the two scans of the body (about 60 µs at k=100 x 5) are skipped.
      const parsedJson: unknown = JSON.parse(text);
      json =
        redact !== noRedaction && (text.includes('\\u') || text.includes('\\/'))
          ? redactDeep(parsedJson, redact, 0, MAX_JSON_DEPTH + 1)
          : parsedJson;
    } catch {
      const what = /^\s*</.test(text)
        ? 'an HTML page'
        : /^\s*[[{]/.test(text)
          ? 'truncated or malformed JSON'
          : 'a body that is not JSON';
      throw new ApiError({
        kind: 'invalid-response',
        status: res.status,
        message: `the service answered HTTP ${res.status} with ${what} instead of the expected JSON`,
        retryable: false,
      });
    }
    // JSON.parse is iterative; what comes after it (printing, structured cloning, storage) is not.
    if (valueDepthExceeds(json)) {
      throw new ApiError({
        kind: 'invalid-response',
        status: res.status,
        retryable: false,
        message: `the service's response (HTTP ${res.status}) is a ${TOO_DEEP} (more than ${MAX_JSON_DEPTH} levels) to be shown safely`,
      });
    }
  }
  onJson?.(json);
  const parsed = safeParse(schema, json);
  if (!parsed.success) {
    const what = json === undefined ? 'an empty body' : redact(describeZodError(parsed.error));
    throw new ApiError({
      kind: 'invalid-response',
      status: res.status,
      message: `the service's response (HTTP ${res.status}) is not in the documented shape: ${what}`,
      retryable: false,
      details: parsed.error.issues,
    });
  }
  return parsed.data;
}
