// The scope of a search in words: which filters differ from the defaults, as chips, a summary phrase
// and one line for a picker. Pure (no vscode, no DOM): the webview's chip row, its summary, the
// palette's input box title and the history picker all say the same thing from here.
import { REPOSITORY_FILTERS, RESULT_TYPES, type SearchParams } from '../api/params';

/** The devIndex.search.* settings: what a fresh search sends. */
export interface ScopeDefaults {
  k: number;
  passages: number;
  types: string[];
}

export const TYPE_LABELS: Record<string, string> = {
  doc: 'Documentation',
  issue: 'Issues',
  pull_request: 'Pull requests',
  readme: 'READMEs',
  web: 'Web pages',
};

/** One removable filter. `remove` is the params without it (query and every other filter kept). */
interface ScopeChip {
  /** Stable within one params value: `repos:owner/repo`, `sources:id`, `language`, `stars`, … */
  id: string;
  label: string;
  /** Codicon name. */
  icon: string;
}

function defaultTypes(d: ScopeDefaults | undefined): string[] {
  const t = d?.types?.filter((x) => (RESULT_TYPES as readonly string[]).includes(x)) ?? [];
  return t.length ? t : [...RESULT_TYPES];
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** The types a request asks for: `types`, or all four when omitted. */
function typesOf(p: SearchParams): string[] {
  return p.types ?? [...RESULT_TYPES];
}

/** Every filter that differs from the defaults, in the order the form shows them. k and passages are not scope. */
export function scopeChips(p: SearchParams, d?: ScopeDefaults): ScopeChip[] {
  const chips: ScopeChip[] = [];
  for (const r of p.repos ?? []) chips.push({ id: `repos:${r}`, label: r, icon: 'repo' });
  for (const s of p.sources ?? []) chips.push({ id: `sources:${s}`, label: `Docs: ${s}`, icon: 'book' });
  if (!sameSet(typesOf(p), defaultTypes(d))) {
    const t = typesOf(p);
    chips.push({
      id: 'types',
      label: t.length ? `Types: ${t.map((x) => TYPE_LABELS[x] ?? x).join(', ')}` : 'Types: none',
      icon: 'list-filter',
    });
  }
  if (p.skills === 'only') chips.push({ id: 'skills', label: 'Agent-skill files only', icon: 'sparkle' });
  if (p.language !== undefined) chips.push({ id: 'language', label: `Language: ${p.language}`, icon: 'code' });
  if (p.topic !== undefined)
    chips.push({ id: 'topic', label: `Topic: ${Array.isArray(p.topic) ? p.topic.join(', ') : p.topic}`, icon: 'tag' });
  if (p.license !== undefined) chips.push({ id: 'license', label: `License: ${p.license}`, icon: 'law' });
  if (p.min_stars !== undefined || p.max_stars !== undefined) {
    const label =
      p.min_stars !== undefined && p.max_stars !== undefined
        ? `Stars ${p.min_stars}–${p.max_stars}`
        : p.min_stars !== undefined
          ? `Stars ≥ ${p.min_stars}`
          : `Stars ≤ ${p.max_stars}`;
    chips.push({ id: 'stars', label, icon: 'star-empty' });
  }
  if (p.archived !== undefined)
    chips.push({ id: 'archived', label: p.archived ? 'Archived only' : 'Not archived', icon: 'archive' });
  if (p.fork !== undefined) chips.push({ id: 'fork', label: p.fork ? 'Forks only' : 'No forks', icon: 'repo-forked' });
  return chips;
}

/** The params without one chip's filter (types go back to the defaults). */
export function withoutChip(p: SearchParams, chipId: string, d?: ScopeDefaults): SearchParams {
  const out: SearchParams = { ...p };
  const [field, ...rest] = chipId.split(':');
  const value = rest.join(':');
  if (field === 'repos' || field === 'sources') {
    const list = (p[field] ?? []).filter((x) => x !== value);
    if (list.length) out[field] = list;
    else delete out[field];
  } else if (field === 'types') {
    const t = defaultTypes(d);
    if (t.length === RESULT_TYPES.length) delete out.types;
    else out.types = [...t];
  } else if (field === 'stars') {
    delete out.min_stars;
    delete out.max_stars;
  } else if (
    field === 'skills' ||
    field === 'language' ||
    field === 'topic' ||
    field === 'license' ||
    field === 'archived' ||
    field === 'fork'
  ) {
    delete out[field];
  }
  return out;
}

/** The params with every scope filter back at the defaults (query, k and passages kept). */
export function withoutScope(p: SearchParams, d?: ScopeDefaults): SearchParams {
  let out = { ...p };
  for (const c of scopeChips(p, d)) out = withoutChip(out, c.id, d);
  return out;
}

/** `in fetchline/fetchline`, `in node-api`, or `` when no repository or source scope is set. */
export function scopePhrase(p: SearchParams): string {
  const names = [...(p.repos ?? []), ...(p.sources ?? [])];
  if (!names.length) return '';
  return names.length <= 2
    ? `in ${names.join(', ')}`
    : `in ${names.slice(0, 2).join(', ')} and ${names.length - 2} more`;
}

/** One line for a picker or a title: the chips' labels, `·` separated; `` when nothing differs. */
export function describeScope(p: SearchParams, d?: ScopeDefaults): string {
  return scopeChips(p, d)
    .map((c) => c.label)
    .join(' · ');
}

/** What a search with no filter set sends: the settings' k, passages and types. */
export function defaultParams(d: ScopeDefaults): Omit<SearchParams, 'query'> {
  const t = defaultTypes(d);
  return { k: d.k, passages: d.passages, ...(t.length === RESULT_TYPES.length ? {} : { types: t }) };
}

/** The params in one canonical order with their filters (k and passages included) only where set, for comparing searches. */
export function canonicalParams(p: SearchParams): SearchParams {
  const keys = ['query', 'k', 'passages', 'types', 'repos', 'sources', 'skills', ...REPOSITORY_FILTERS] as const;
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const v = p[k];
    if (v === undefined) continue;
    out[k] = Array.isArray(v) ? (k === 'types' ? [...v].sort() : [...v]) : v;
  }
  if (Array.isArray(out.types) && sameSet(out.types as string[], RESULT_TYPES)) delete out.types;
  return out as unknown as SearchParams;
}
