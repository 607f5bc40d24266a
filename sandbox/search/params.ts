// Server-side validation of a developer search request (spec 4.1 and section 8), for both the GET
// query string and the POST JSON body. Unknown parameters are rejected, as the real service does,
// except `origin` and `integration` (addendum: the official SDK sends `origin` on every POST).
import * as z from 'zod';

export const RESULT_TYPES = ['doc', 'issue', 'pull_request', 'readme'] as const;
export type ResultType = (typeof RESULT_TYPES)[number];
export const REPOSITORY_TYPES: readonly ResultType[] = ['issue', 'pull_request', 'readme'];
export const REPOSITORY_FILTERS = [
  'language',
  'topic',
  'license',
  'min_stars',
  'max_stars',
  'archived',
  'fork',
] as const;

const show = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
};
const typeMsg =
  (field: string, expected: string) =>
  (iss: { input?: unknown }): string =>
    iss.input === undefined ? `${field} is required` : `${field} must be ${expected} (got ${show(iss.input)})`;

const int = (field: string, min: number, max?: number) => {
  let s = z
    .int({ error: typeMsg(field, 'an integer') })
    .min(min, { error: (iss) => `${field} must be at least ${min} (got ${show(iss.input)})` });
  if (max !== undefined) s = s.max(max, { error: (iss) => `${field} must be at most ${max} (got ${show(iss.input)})` });
  return s;
};
const str = (field: string) => z.string({ error: typeMsg(field, 'a string') });
const bool = (field: string) => z.boolean({ error: typeMsg(field, 'true or false') });

export const SLUG = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

export const searchRequestSchema = z.strictObject(
  {
    query: str('query').min(1, { error: 'query must be at least 1 character long (got "")' }),
    k: int('k', 1, 100).optional(),
    types: z
      .array(
        z.enum(RESULT_TYPES, {
          error: (iss) => `types: each item must be one of doc, issue, pull_request, readme (got ${show(iss.input)})`,
        }),
        { error: typeMsg('types', 'an array of strings') },
      )
      .optional(),
    repos: z
      .array(
        str('repos item').regex(SLUG, {
          error: (iss) => `repos: each item must be a slug <owner>/<repo> (got ${show(iss.input)})`,
        }),
        { error: typeMsg('repos', 'an array of strings') },
      )
      .optional(),
    sources: z
      .array(
        str('sources item')
          .min(1, { error: 'sources: each id must be 1 to 512 characters long (got "")' })
          .max(512, {
            error: (iss) =>
              `sources: each id must be 1 to 512 characters long (got ${String(iss.input).length} characters)`,
          }),
        { error: typeMsg('sources', 'an array of strings') },
      )
      .max(20, {
        error: (iss) => `sources must hold at most 20 ids (got ${Array.isArray(iss.input) ? iss.input.length : '?'})`,
      })
      .optional(),
    skills: z.literal('only', { error: (iss) => `skills must be "only" (got ${show(iss.input)})` }).optional(),
    passages: int('passages', 1, 5).optional(),
    language: str('language').optional(),
    topic: str('topic').optional(),
    license: str('license').optional(),
    min_stars: int('min_stars', 0).optional(),
    max_stars: int('max_stars', 0).optional(),
    archived: bool('archived').optional(),
    fork: bool('fork').optional(),
    origin: str('origin').optional(),
    integration: str('integration').optional(),
  },
  {
    error: (iss) =>
      iss.code === 'unrecognized_keys'
        ? `Unrecognized parameter${iss.keys.length > 1 ? 's' : ''}: ${iss.keys.join(', ')}`
        : 'the request must be a JSON object',
  },
);

/**
 * What production accepts (addendum, "What the production service sends today"): numbers and
 * booleans in a POST body are coerced (`"k": "10"`), and `topic` may be an array of at most 8 strings.
 */
const coercedInt = (field: string, min: number, max?: number) =>
  z.preprocess((v) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v), int(field, min, max));
const coercedBool = (field: string) =>
  z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), bool(field));
export const productionSearchRequestSchema = searchRequestSchema.extend({
  k: coercedInt('k', 1, 100).optional(),
  passages: coercedInt('passages', 1, 5).optional(),
  min_stars: coercedInt('min_stars', 0).optional(),
  max_stars: coercedInt('max_stars', 0).optional(),
  archived: coercedBool('archived').optional(),
  fork: coercedBool('fork').optional(),
  topic: z
    .union([
      str('topic'),
      z
        .array(str('topic item'), { error: typeMsg('topic', 'a string or an array of strings') })
        .min(1, { error: 'topic must hold at least 1 item' })
        .max(8, {
          error: (iss) => `topic may hold at most 8 items (got ${Array.isArray(iss.input) ? iss.input.length : '?'})`,
        }),
    ])
    .optional(),
});

export type SearchRequest = Omit<z.infer<typeof searchRequestSchema>, 'topic'> & { topic?: string | string[] };

const ARRAY_KEYS = new Set(['types', 'repos', 'sources']);
/** Production reads a repeated `topic` as an array (never split on commas: a topic may not hold one anyway). */
const REPEATABLE_KEYS = new Set(['topic']);
const INT_KEYS = new Set(['k', 'passages', 'min_stars', 'max_stars']);
const BOOL_KEYS = new Set(['archived', 'fork']);

/**
 * Turns a GET query string into the shape of the POST body. Arrays take both forms (repeated and
 * comma-separated, mixed too); numbers and booleans are converted only when they are well formed, so
 * that anything else reaches zod as a string and gets the same message as in a POST body. A scalar
 * parameter given twice stays an array, which zod rejects.
 */
export function queryToInput(params: URLSearchParams, wire: 'production' | 'spec' = 'spec'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const seen = new Map<string, string[]>();
  for (const [key, value] of params) {
    const list = seen.get(key);
    if (list) list.push(value);
    else seen.set(key, [value]);
  }
  for (const [key, values] of seen) {
    if (ARRAY_KEYS.has(key)) {
      out[key] = values.flatMap((v) => v.split(','));
      continue;
    }
    const conv = values.map((v) => {
      if (INT_KEYS.has(key) && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(v.trim())) return Number(v);
      if (BOOL_KEYS.has(key) && (v === 'true' || v === 'false')) return v === 'true';
      return v;
    });
    out[key] =
      conv.length === 1 && !(wire === 'production' && REPEATABLE_KEYS.has(key) && values.length > 1) ? conv[0] : conv;
  }
  return out;
}

export interface ValidationFailure {
  error: string;
  details?: unknown;
}

export const RULE3_MESSAGE = 'repos cannot match any requested type; add issue, pull_request or readme or drop repos';
export const RULE4_MESSAGE = 'sources cannot match any requested type; add doc or drop sources';

/** The 400 `error` for a request that fails the schema: production's words, or the specification's. */
export const INVALID_PARAMS_ERROR = { production: 'Invalid query parameters', spec: 'Bad Request' } as const;

/**
 * zod first (the issues in `details`, like the real service: `Bad Request` on the spec wire,
 * `Invalid query parameters` on the production wire), then rules 3 and 4.
 */
export function validateSearchRequest(
  input: unknown,
  wire: 'production' | 'spec' = 'spec',
): { ok: true; request: SearchRequest } | { ok: false; failure: ValidationFailure } {
  const parsed = (wire === 'production' ? productionSearchRequestSchema : searchRequestSchema).safeParse(input);
  if (!parsed.success) {
    return { ok: false, failure: { error: INVALID_PARAMS_ERROR[wire], details: parsed.error.issues.map(cleanIssue) } };
  }
  const r = parsed.data as SearchRequest;
  const types = r.types ?? RESULT_TYPES;
  if (r.repos !== undefined && !types.some((t) => REPOSITORY_TYPES.includes(t))) {
    return {
      ok: false,
      failure: { error: RULE3_MESSAGE, details: [{ code: 'custom', path: ['repos'], message: RULE3_MESSAGE }] },
    };
  }
  if (r.sources !== undefined && !types.includes('doc')) {
    return {
      ok: false,
      failure: { error: RULE4_MESSAGE, details: [{ code: 'custom', path: ['sources'], message: RULE4_MESSAGE }] },
    };
  }
  return { ok: true, request: r };
}

/** zod issues as plain JSON (the `input` of an issue may echo user data; keep the documented fields). */
function cleanIssue(i: z.core.$ZodIssue): Record<string, unknown> {
  const { input: _input, ...rest } = i as z.core.$ZodIssue & { input?: unknown };
  return { ...rest, path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)) };
}
