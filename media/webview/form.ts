// The filter form as typed (strings, so a half-typed or invalid value survives a reload and stays
// visible with its message) and its conversion to search parameters. No DOM here: unit-tested in Node.
import type { FillRequest, ViewDefaults, ViewIssue, ViewParams } from '../../src/webview/protocol';

export const TYPES = ['doc', 'issue', 'pull_request', 'readme'] as const;
export const TYPE_LABELS: Record<string, string> = { doc: 'Documentation', issue: 'Issues', pull_request: 'Pull requests', readme: 'READMEs' };
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

export function defaultForm(d: ViewDefaults | undefined, query = ''): FormState {
  const types = d?.types?.filter((t) => (TYPES as readonly string[]).includes(t)) ?? [];
  return {
    query,
    types: types.length ? types : [...TYPES],
    repos: '', sources: '',
    k: d ? String(d.k) : '', passages: d ? String(d.passages) : '',
    language: '', topic: '', license: '', minStars: '', maxStars: '',
    archived: 'any', fork: 'any', skillsOnly: false,
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
  return s.split(/[\s,]+/).map((x) => x.trim()).filter(Boolean);
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/**
 * The params the form describes, plus the problems only the form can see (text where a number goes).
 * Everything else (bounds, rules 3 and 4) is left to the client's validator in the extension, so the
 * user reads the same messages the client would give.
 */
export function formToParams(f: FormState): { params: ViewParams; issues: ViewIssue[] } {
  const issues: ViewIssue[] = [];
  const params: ViewParams = { query: f.query.trim() };
  const num = (field: string, raw: string): number | undefined => {
    const s = raw.trim();
    if (!s) return undefined;
    if (!NUMBER.test(s)) {
      issues.push({ field, message: `${field} must be a whole number; got ${JSON.stringify(s.length > 40 ? `${s.slice(0, 37)}...` : s)}` });
      return undefined;
    }
    return Number(s);
  };
  const set = <K extends keyof ViewParams>(key: K, v: ViewParams[K] | undefined) => { if (v !== undefined) params[key] = v; };

  set('k', num('k', f.k));
  set('passages', num('passages', f.passages));
  // All four checked is the service default; sending it explicitly would only lengthen the request.
  if (!(TYPES.every((t) => f.types.includes(t)) && f.types.length === TYPES.length)) set('types', [...f.types]);
  const repos = splitList(f.repos);
  if (repos.length) set('repos', repos);
  const sources = splitList(f.sources);
  if (sources.length) set('sources', sources);
  if (f.skillsOnly) set('skills', 'only');
  for (const key of ['language', 'topic', 'license'] as const) {
    const v = f[key].trim();
    if (v) set(key, v);
  }
  set('min_stars', num('min_stars', f.minStars));
  set('max_stars', num('max_stars', f.maxStars));
  if (f.archived !== 'any') set('archived', f.archived === 'yes');
  if (f.fork !== 'any') set('fork', f.fork === 'yes');
  return { params, issues };
}

const tri = (v: boolean | undefined): TriState => (v === undefined ? 'any' : v ? 'yes' : 'no');

/** A palette command's request applied to the form (see FillRequest.replaceFilters). */
export function applyFill(current: FormState, fill: FillRequest, d: ViewDefaults | undefined): FormState {
  const p = fill.params;
  const base = fill.replaceFilters ? defaultForm(d) : current;
  const next: FormState = { ...base, query: p.query };
  if (p.types !== undefined) next.types = p.types.filter((t) => (TYPES as readonly string[]).includes(t));
  if (p.repos !== undefined) next.repos = p.repos.join(', ');
  if (p.sources !== undefined) next.sources = p.sources.join(', ');
  if (p.k !== undefined) next.k = String(p.k);
  if (p.passages !== undefined) next.passages = String(p.passages);
  if (p.language !== undefined) next.language = p.language;
  if (p.topic !== undefined) next.topic = p.topic;
  if (p.license !== undefined) next.license = p.license;
  if (p.min_stars !== undefined) next.minStars = String(p.min_stars);
  if (p.max_stars !== undefined) next.maxStars = String(p.max_stars);
  if (p.archived !== undefined) next.archived = tri(p.archived);
  if (p.fork !== undefined) next.fork = tri(p.fork);
  if (p.skills !== undefined) next.skillsOnly = p.skills === 'only';
  return next;
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
    if (Array.isArray(a) && Array.isArray(b) ? [...a].sort().join() !== [...b].sort().join() : String(a).trim() !== String(b).trim()) n++;
  }
  return n;
}
