// Client-side validation of a developer search request (spec 4.1, limits of section 8, rules 3 and 4).
// It runs before any network call so that a request the service would refuse is never sent.

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
/** A search's fields besides the query, in the order they are sent (spec 4.1). */
export const SEARCH_FILTERS = ['k', 'types', 'repos', 'sources', 'skills', 'passages', ...REPOSITORY_FILTERS] as const;

export interface SearchParams {
  query: string;
  k?: number;
  types?: string[];
  repos?: string[];
  sources?: string[];
  skills?: 'only';
  passages?: number;
  language?: string;
  /** One topic, or several (production accepts at most 8; a repository with any of them matches). */
  topic?: string | string[];
  license?: string;
  min_stars?: number;
  max_stars?: number;
  archived?: boolean;
  fork?: boolean;
}

/** `message` names the parameter, the value that was given and the bound it broke. */
export interface ParamIssue {
  field: string;
  message: string;
}

export const LIMITS = {
  k: { min: 1, max: 100 },
  passages: { min: 1, max: 5 },
  sources: { maxItems: 20, minLength: 1, maxLength: 512 },
  stars: { min: 0 },
  topics: { maxItems: 8 },
} as const;

/**
 * Passages asked for in a dependency-scoped search, at least (every surface: the editor, the CLI, the tools): the
 * passage that best matches the question is rarely the comment that says "fixed in" (fetchline#472's third one).
 * Here, not in src/deps, so that the activation bundle's search commands do not pull a resolver module in.
 */
export const DEPENDENCY_PASSAGES = 3;

const RULE_3_MESSAGE = 'repos cannot match any requested type; add issue, pull_request or readme or drop repos';
const RULE_4_MESSAGE = 'sources cannot match any requested type; add doc or drop sources';

const KNOWN_KEYS = new Set<string>([
  'query',
  'k',
  'types',
  'repos',
  'sources',
  'skills',
  'passages',
  ...REPOSITORY_FILTERS,
]);
// GitHub's rules: owner is letters, digits and hyphens; a repository name may also hold `.` and `_`.
// Legacy owners may end in `-` (GitHub serves them), so only a leading hyphen is refused.
const REPO_SLUG = /^[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+$/;

/** Short, bounded rendering of a value for a message (user text can be long). */
export function show(v: unknown): string {
  let s: string;
  if (typeof v === 'string') s = JSON.stringify(v);
  else if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) s = String(v);
  else {
    try {
      s = JSON.stringify(v) ?? String(v);
    } catch {
      s = Object.prototype.toString.call(v);
    }
  }
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

export function hasRepositoryFilter(p: SearchParams): boolean {
  return REPOSITORY_FILTERS.some((f) => p[f] !== undefined);
}

/** The result types a request asks for: `types`, or all four when it is omitted. */
export function requestedTypes(p: SearchParams): string[] {
  return p.types && p.types.length ? p.types : [...RESULT_TYPES];
}

function checkInt(issues: ParamIssue[], field: string, v: unknown, min: number, max?: number): boolean {
  const bound = max === undefined ? `at least ${min}` : `from ${min} to ${max}`;
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    issues.push({ field, message: `${field} must be an integer ${bound}; got ${show(v)}` });
    return false;
  }
  if (v < min || (max !== undefined && v > max)) {
    issues.push({ field, message: `${field} must be ${bound}; got ${v}` });
    return false;
  }
  return true;
}

function checkStringArray(issues: ParamIssue[], field: string, v: unknown): v is string[] {
  if (!Array.isArray(v)) {
    issues.push({ field, message: `${field} must be an array of strings; got ${show(v)}` });
    return false;
  }
  const bad = v.findIndex((x) => typeof x !== 'string');
  if (bad >= 0) {
    issues.push({ field, message: `${field}[${bad}] must be a string; got ${show(v[bad])}` });
    return false;
  }
  return true;
}

/** What validateSearchParams returned (frozen, so unchanged since): the client sends these without checking again. */
const checked = new WeakSet<SearchParams>();

/** Whether `p` is params validateSearchParams passed (a caller that wanted the messages early checked it already). */
export function passedCheck(p: SearchParams): boolean {
  return checked.has(p);
}

/**
 * Checks params for a caller that shows the messages before a client sends anything: as checkSearchParams, and the
 * params returned are frozen and remembered, so that the client sends them without checking again.
 */
export function validateSearchParams(
  input: SearchParams,
): { ok: true; params: SearchParams } | { ok: false; issues: ParamIssue[] } {
  const v = checkSearchParams(input);
  if (!v.ok) return v;
  const params = Object.freeze(v.params);
  checked.add(params);
  return { ok: true, params };
}

/**
 * Checks every parameter against spec 4.1 and section 8, plus scoping rules 3 and 4: the one check a search
 * goes through (the client runs it unless validateSearchParams already did). Returns the params to send: empty
 * `repos` / `sources` lists are dropped (an empty scope is no scope, and on GET it would vanish anyway), everything
 * else is passed through unchanged. Neither frozen nor remembered: freezing makes the encoder's reads slower, and a
 * client that sends them at once needs neither.
 */
export function checkSearchParams(
  input: SearchParams,
): { ok: true; params: SearchParams } | { ok: false; issues: ParamIssue[] } {
  const issues: ParamIssue[] = [];
  if (input === null || typeof input !== 'object') {
    return {
      ok: false,
      issues: [{ field: 'query', message: `search parameters must be an object; got ${show(input)}` }],
    };
  }
  const raw = input as unknown as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!KNOWN_KEYS.has(key) && raw[key] !== undefined) {
      issues.push({
        field: key,
        message: `${key} is not a developer search parameter (known: ${[...KNOWN_KEYS].join(', ')})`,
      });
    }
  }
  const out: SearchParams = { ...input };

  if (typeof raw.query !== 'string')
    issues.push({ field: 'query', message: `query must be a string of at least 1 character; got ${show(raw.query)}` });
  else if (raw.query.length < 1)
    issues.push({ field: 'query', message: 'query must be at least 1 character long; got an empty string' });

  if (raw.k !== undefined) checkInt(issues, 'k', raw.k, LIMITS.k.min, LIMITS.k.max);
  if (raw.passages !== undefined) checkInt(issues, 'passages', raw.passages, LIMITS.passages.min, LIMITS.passages.max);

  let typesOk = true;
  if (raw.types !== undefined) {
    typesOk = checkStringArray(issues, 'types', raw.types);
    if (typesOk) {
      const types = raw.types as string[];
      if (types.length === 0) {
        issues.push({
          field: 'types',
          message: `types must hold at least one of ${RESULT_TYPES.join(', ')}, or be omitted to search all four; got []`,
        });
        typesOk = false;
      }
      for (const t of types) {
        if (!(RESULT_TYPES as readonly string[]).includes(t)) {
          issues.push({ field: 'types', message: `types may only hold ${RESULT_TYPES.join(', ')}; got ${show(t)}` });
          typesOk = false;
        }
      }
    }
  }

  let reposSent = false;
  if (raw.repos !== undefined) {
    if (checkStringArray(issues, 'repos', raw.repos)) {
      const repos = raw.repos as string[];
      for (const r of repos) {
        if (!REPO_SLUG.test(r))
          issues.push({ field: 'repos', message: `repos items must have the form owner/repo; got ${show(r)}` });
      }
      if (repos.length === 0) delete out.repos;
      else reposSent = true;
    }
  }

  let sourcesSent = false;
  if (raw.sources !== undefined) {
    if (checkStringArray(issues, 'sources', raw.sources)) {
      const sources = raw.sources as string[];
      if (sources.length > LIMITS.sources.maxItems) {
        issues.push({
          field: 'sources',
          message: `sources may hold at most ${LIMITS.sources.maxItems} ids; got ${sources.length}`,
        });
      }
      sources.forEach((s, i) => {
        if (s.length < LIMITS.sources.minLength || s.length > LIMITS.sources.maxLength) {
          issues.push({
            field: 'sources',
            message:
              `sources[${i}] must be ${LIMITS.sources.minLength} to ${LIMITS.sources.maxLength} ` +
              `characters long; got ${s.length} (${show(s)})`,
          });
        }
      });
      if (sources.length === 0) delete out.sources;
      else sourcesSent = true;
    }
  }

  if (raw.skills !== undefined && raw.skills !== 'only') {
    issues.push({ field: 'skills', message: `skills may only be "only"; got ${show(raw.skills)}` });
  }

  if (Array.isArray(raw.topic)) {
    const topics = raw.topic as unknown[];
    if (topics.length === 0 || topics.length > LIMITS.topics.maxItems) {
      issues.push({
        field: 'topic',
        message: `topic must hold 1 to ${LIMITS.topics.maxItems} topics; got ${topics.length}`,
      });
    }
    topics.forEach((t, i) => {
      if (typeof t !== 'string' || t.length === 0)
        issues.push({ field: 'topic', message: `topic[${i}] must be a non-empty string; got ${show(t)}` });
    });
  }
  for (const f of ['language', 'topic', 'license'] as const) {
    const v = raw[f];
    if (v === undefined || (f === 'topic' && Array.isArray(v))) continue;
    // An empty filter would still count as a repository filter (rule 6) while matching nothing useful.
    if (typeof v !== 'string' || v.length === 0)
      issues.push({ field: f, message: `${f} must be a non-empty string; got ${show(v)}` });
  }
  const minOk = raw.min_stars === undefined || checkInt(issues, 'min_stars', raw.min_stars, LIMITS.stars.min);
  const maxOk = raw.max_stars === undefined || checkInt(issues, 'max_stars', raw.max_stars, LIMITS.stars.min);
  if (
    minOk &&
    maxOk &&
    typeof raw.min_stars === 'number' &&
    typeof raw.max_stars === 'number' &&
    raw.min_stars > raw.max_stars
  ) {
    issues.push({
      field: 'min_stars',
      message: `min_stars (${raw.min_stars}) must not be greater than max_stars (${raw.max_stars}); no repository can match`,
    });
  }
  for (const f of ['archived', 'fork'] as const) {
    const v = raw[f];
    if (v !== undefined && typeof v !== 'boolean')
      issues.push({ field: f, message: `${f} must be true or false; got ${show(v)}` });
  }

  if (typesOk && raw.types !== undefined) {
    const types = raw.types as string[];
    if (reposSent && !types.some((t) => (REPOSITORY_TYPES as readonly string[]).includes(t))) {
      issues.push({ field: 'repos', message: `${RULE_3_MESSAGE} (types=${types.join(',')})` });
    }
    if (sourcesSent && !types.includes('doc')) {
      issues.push({ field: 'sources', message: RULE_4_MESSAGE });
    }
  }

  if (issues.length) return { ok: false, issues };
  return { ok: true, params: out };
}
