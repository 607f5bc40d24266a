import type * as vscode from 'vscode';
import type { SearchParams } from '../api/params';
import { canonicalParams, describeScope, type ScopeDefaults } from './scope';
import { durationWords } from '../words/duration';

export interface HistoryEntry {
  params: SearchParams;
  at: number;
}

const KEY = 'devIndex.searchHistory';
const MAX = 50;

/**
 * Recent searches, newest first, in global state (queries are the user's own text; no key is ever part
 * of them). A search equal to one already kept (same query and filters, in any order) moves to the top
 * instead of repeating.
 */
export class SearchHistory {
  constructor(private readonly memento: vscode.Memento) {}

  entries(): HistoryEntry[] {
    const raw = this.memento.get<unknown>(KEY);
    if (!Array.isArray(raw)) return [];
    return raw.filter(
      (e): e is HistoryEntry =>
        typeof e === 'object' &&
        e !== null &&
        typeof (e as HistoryEntry).at === 'number' &&
        typeof (e as HistoryEntry).params?.query === 'string',
    );
  }

  /** The most recent query, to prefill the search box. */
  lastQuery(): string | undefined {
    return this.entries()[0]?.params.query;
  }

  async add(params: SearchParams, now = Date.now()): Promise<void> {
    const entry = canonicalParams(params);
    const same = JSON.stringify(entry);
    const rest = this.entries().filter((e) => JSON.stringify(canonicalParams(e.params)) !== same);
    await this.memento.update(KEY, [{ params: entry, at: now }, ...rest].slice(0, MAX));
  }

  /** Removes the entry at `at`, the time that identifies it. */
  async remove(at: number): Promise<void> {
    await this.memento.update(
      KEY,
      this.entries().filter((e) => e.at !== at),
    );
  }

  async clear(): Promise<void> {
    await this.memento.update(KEY, undefined);
  }
}

/** One line describing the filters of a past search that differ from the defaults, for the history picker. */
export function describeFilters(p: SearchParams, d?: ScopeDefaults): string {
  return describeScope(p, d);
}

/** `just now`, `5 min ago`, `3 h ago`, `yesterday`, `4 days ago`, else the date. */
export function relativeTime(at: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 45) return 'just now';
  const hours = Math.round(Math.round(s / 60) / 60);
  if (hours < 24) return `${durationWords(now - at, { smallest: 'min', upTo: 60 })} ago`;
  const days = Math.round(hours / 24);
  if (days === 1) return 'yesterday';
  if (days < 30) return `${days} days ago`;
  return new Date(at).toISOString().slice(0, 10);
}
