// The filter form as typed (strings, so a half-typed or invalid value survives a reload and stays
// visible with its message) and its conversion to and from search parameters. No DOM: unit-tested in Node.
import type { ParamIssue, SearchParams } from '../../api/params';
import type { ViewDefaults } from '../protocol';
import { TYPE_LABELS } from '../../search/scope';

export { TYPE_LABELS };
export const TYPES = ['doc', 'issue', 'pull_request', 'readme'] as const;
export type TriState = 'any' | 'yes' | 'no';

export interface FormState {
  query: string;
  types: string[];
  repos: string;
  sources: string;
  k: string;
  passages: string;
  language: string;
  topic: string;
  license: string;
  minStars: string;
  maxStars: string;
  archived: TriState;
  fork: TriState;
  skillsOnly: boolean;
}

/** The form's labels, by spec parameter name: what the view's messages call each field. */
export const FIELD_LABELS: Record<string, string> = {
  query: 'Query',
  types: 'Result types',
  repos: 'Repositories',
  sources: 'Documentation sources',
  k: 'Results (k)',
  passages: 'Passages per result',
  language: 'Language',
  topic: 'Topic',
  license: 'License',
  min_stars: 'Min stars',
  max_stars: 'Max stars',
  archived: 'Archived repositories',
  fork: 'Forks',
  skills: 'Agent-skill files only',
};

export function defaultForm(d: ViewDefaults | undefined, query = ''): FormState {
  const types = d?.types?.filter((t) => (TYPES as readonly string[]).includes(t)) ?? [];
  return {
    query,
    types: types.length ? types : [...TYPES],
    repos: '',
    sources: '',
    k: d ? String(d.k) : '',
    passages: d ? String(d.passages) : '',
    language: '',
    topic: '',
    license: '',
    minStars: '',
    maxStars: '',
    archived: 'any',
    fork: 'any',
    skillsOnly: false,
  };
}

/**
 * New settings defaults for a form already on screen: a field still at the old default follows the
 * setting; a field the user changed keeps the user's value.
 */
export function followDefaults(form: FormState, old: ViewDefaults, next: ViewDefaults): FormState {
  const was = defaultForm(old);
  const now = defaultForm(next);
  const sameTypes = (a: string[], b: string[]) => a.length === b.length && a.every((t) => b.includes(t));
  return {
    ...form,
    k: form.k === was.k ? now.k : form.k,
    passages: form.passages === was.passages ? now.passages : form.passages,
    types: sameTypes(form.types, was.types) ? now.types : form.types,
  };
}

export function splitList(s: string): string[] {
  return s
    .split(/[\s,]+/)
    .map((x) => x.trim())
    .filter(Boolean);
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/**
 * The params the form describes, plus the problems only the form can see (text where a number goes),
 * in the form's words. Bounds and rules 3 and 4 are the client's (see words.ts for how they read).
 */
export function formToParams(f: FormState): { params: SearchParams; issues: ParamIssue[] } {
  const issues: ParamIssue[] = [];
  const params: SearchParams = { query: f.query.trim() };
  const num = (field: string, raw: string): number | undefined => {
    const s = raw.trim();
    if (!s) return undefined;
    if (!NUMBER.test(s)) {
      issues.push({
        field,
        message: `${FIELD_LABELS[field]} must be a whole number, not ${JSON.stringify(s.length > 40 ? `${s.slice(0, 37)}...` : s)}`,
      });
      return undefined;
    }
    return Number(s);
  };
  const set = <K extends keyof SearchParams>(key: K, v: SearchParams[K] | undefined) => {
    if (v !== undefined) params[key] = v;
  };

  set('k', num('k', f.k));
  set('passages', num('passages', f.passages));
  // All four checked is the service default; sending it explicitly would only lengthen the request.
  if (!(TYPES.every((t) => f.types.includes(t)) && f.types.length === TYPES.length))
    set(
      'types',
      TYPES.filter((t) => f.types.includes(t)),
    );
  const repos = splitList(f.repos);
  if (repos.length) set('repos', repos);
  const sources = splitList(f.sources);
  if (sources.length) set('sources', sources);
  if (f.skillsOnly) set('skills', 'only');
  for (const key of ['language', 'license'] as const) {
    const v = f[key].trim();
    if (v) set(key, v);
  }
  // Several topics (comma separated) are sent as a list; a repository with any of them matches.
  const topics = f.topic
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  if (topics.length) set('topic', topics.length === 1 ? topics[0] : topics);
  set('min_stars', num('min_stars', f.minStars));
  set('max_stars', num('max_stars', f.maxStars));
  if (f.archived !== 'any') set('archived', f.archived === 'yes');
  if (f.fork !== 'any') set('fork', f.fork === 'yes');
  return { params, issues };
}

const tri = (v: boolean | undefined): TriState => (v === undefined ? 'any' : v ? 'yes' : 'no');

/** The form that describes exactly `p` (a search started elsewhere, a removed chip): every field replaced. */
export function paramsToForm(p: SearchParams, d: ViewDefaults | undefined): FormState {
  const base = defaultForm(d, p.query);
  return {
    ...base,
    types: p.types ? p.types.filter((t) => (TYPES as readonly string[]).includes(t)) : [...TYPES],
    repos: (p.repos ?? []).join(', '),
    sources: (p.sources ?? []).join(', '),
    k: p.k !== undefined ? String(p.k) : base.k,
    passages: p.passages !== undefined ? String(p.passages) : base.passages,
    language: p.language ?? '',
    topic: Array.isArray(p.topic) ? p.topic.join(', ') : (p.topic ?? ''),
    license: p.license ?? '',
    minStars: p.min_stars !== undefined ? String(p.min_stars) : '',
    maxStars: p.max_stars !== undefined ? String(p.max_stars) : '',
    archived: tri(p.archived),
    fork: tri(p.fork),
    skillsOnly: p.skills === 'only',
  };
}

/** Rule 6's first fix: the seven repository filters cleared, everything else kept. */
export function dropRepositoryFilters(f: FormState): FormState {
  return { ...f, language: '', topic: '', license: '', minStars: '', maxStars: '', archived: 'any', fork: 'any' };
}

/** How many filters differ from a fresh form: the count on the Filters toggle. */
export function activeFilterCount(f: FormState, d: ViewDefaults | undefined): number {
  const fresh = defaultForm(d);
  let n = 0;
  for (const key of Object.keys(fresh) as Array<keyof FormState>) {
    if (key === 'query') continue;
    const a = f[key];
    const b = fresh[key];
    if (
      Array.isArray(a) && Array.isArray(b)
        ? [...a].sort().join() !== [...b].sort().join()
        : String(a).trim() !== String(b).trim()
    )
      n++;
  }
  return n;
}

/** The form's text fields besides the query, in the form's order. */
export const FORM_TEXT_FIELDS = [
  'repos',
  'sources',
  'k',
  'passages',
  'language',
  'topic',
  'license',
  'minStars',
  'maxStars',
] as const;
