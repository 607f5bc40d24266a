import type * as vscode from 'vscode';
import type { SearchParams } from '../api/params';

export interface HistoryEntry { params: SearchParams; at: number }

const KEY = 'devIndex.searchHistory';
const MAX = 50;

/** Recent searches, newest first, in global state (queries are the user's own text; no key is ever part of them). */
export class SearchHistory {
  constructor(private readonly memento: vscode.Memento) {}

  entries(): HistoryEntry[] {
    const raw = this.memento.get<unknown>(KEY);
    if (!Array.isArray(raw)) return [];
    return raw.filter((e): e is HistoryEntry =>
      typeof e === 'object' && e !== null && typeof (e as HistoryEntry).at === 'number'
      && typeof (e as HistoryEntry).params?.query === 'string');
  }

  /** The most recent query, to prefill the search box. */
  lastQuery(): string | undefined {
    return this.entries()[0]?.params.query;
  }

  async add(params: SearchParams, now = Date.now()): Promise<void> {
    const same = JSON.stringify(params);
    const rest = this.entries().filter((e) => JSON.stringify(e.params) !== same);
    await this.memento.update(KEY, [{ params, at: now }, ...rest].slice(0, MAX));
  }

  async clear(): Promise<void> {
    await this.memento.update(KEY, undefined);
  }
}

/** One line describing the filters of a past search, for the history picker. */
export function describeFilters(p: SearchParams): string {
  const parts: string[] = [];
  if (p.types?.length) parts.push(`types: ${p.types.join(', ')}`);
  if (p.repos?.length) parts.push(`repos: ${p.repos.join(', ')}`);
  if (p.sources?.length) parts.push(`sources: ${p.sources.join(', ')}`);
  for (const k of ['language', 'topic', 'license', 'min_stars', 'max_stars', 'archived', 'fork', 'skills', 'k', 'passages'] as const) {
    if (p[k] !== undefined) parts.push(`${k}: ${String(p[k])}`);
  }
  return parts.join(' · ');
}
