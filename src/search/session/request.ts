// Resolving a request a command makes: its scope (the view's, or the defaults) and, when the settings change,
// the defaults a kept scope follows. Editor-free.
import { SEARCH_FILTERS, type SearchParams } from '../../api/params';
import type { InstalledDependency } from '../../versions/versionCompare';
import { defaultParams } from '../scope';

/** What commands ask for: a query plus any filters, spec 4.1 names. */
export type ShowRequest = { query: string } & Partial<SearchParams>;
/**
 * `keep`: the query runs with the scope the view's chip row shows (palette Search…, Search Selection).
 * `exact`: the request is the whole search; filters it does not name are the defaults (Search in This
 * Repository, history, requests from other features).
 */
export interface SearchOptions {
  scope: 'keep' | 'exact';
  notice?: string;
  /** The dependencies (with installed versions) a dependency-scoped search is for: badges and chip. */
  installed?: InstalledDependency[];
}

/** The search a command runs: the request over the view's scope (`keep`) or over the defaults (`exact`). */
export function commandParams(
  request: ShowRequest,
  opts: SearchOptions,
  viewScope: SearchParams | undefined,
  defaults: { k: number; passages: number; types: string[] },
): SearchParams {
  const base: Partial<SearchParams> =
    opts.scope === 'keep' && viewScope ? { ...viewScope } : { ...defaultParams(defaults) };
  const out: SearchParams = { ...base, query: request.query.trim() } as SearchParams;
  for (const key of SEARCH_FILTERS) {
    const v = request[key];
    if (v !== undefined) (out as unknown as Record<string, unknown>)[key] = v;
  }
  return out;
}

/** A scope's k, passages and types that were at the old defaults take the new ones (as the view's form does). */
export function followScopeDefaults(
  scope: SearchParams,
  old: { k: number; passages: number; types: string[] },
  next: { k: number; passages: number; types: string[] },
): SearchParams {
  const out: SearchParams = { ...scope };
  if (scope.k === old.k) out.k = next.k;
  if (scope.passages === old.passages) out.passages = next.passages;
  const was = defaultParams(old).types;
  const now = defaultParams(next).types;
  const same = (a: string[] | undefined, b: string[] | undefined) =>
    (a ?? []).length === (b ?? []).length && (a ?? []).every((t) => (b ?? []).includes(t));
  if (same(scope.types, was)) {
    if (now) out.types = now;
    else delete out.types;
  }
  return out;
}
