// The answers a model may read the rest of (devIndex_readMore) or name as held (devIndex_search's `have`), kept in
// this process for a bounded time and size (oldest out first), so reading the rest sends no request. No vscode import.
import type { SearchParams } from '../api/params';
import { licenseLabel, passageLink } from '../api/results';
import { displayTitle, type SearchResponse } from '../api/schemas';
import { clean } from './modelText';

/**
 * One result as the continuation needs it: the cleaned passage texts and how much of each was sent. A
 * passage with `known` (where it was sent before: `[2.1] of m…`) and nothing of it sent was named in the
 * answer, not repeated; readMore with `result` repeats it.
 */
export interface KeptResult {
  id: string;
  url: string;
  title: string;
  license?: string;
  passages: Array<{ text: string; cite?: string; known?: string }>;
  /** Characters of each passage already sent (a passage is sent when this equals its length). */
  sent: number[];
  /** Whether its heading (id, title, URL) has been sent. */
  headed: boolean;
}

export interface KeptAnswer {
  query: string;
  params: SearchParams;
  results: KeptResult[];
  /** The budget of the answer that made the handle, in characters (readMore keeps to it). */
  maxChars: number;
}

export const MORE_TTL_MS = 15 * 60_000;
export const MORE_MAX_ENTRIES = 32;
const MORE_MAX_CHARS = 4_000_000;
export const HANDLE_PATTERN = /^m[0-9a-f]{12}$/;

function sizeOf(a: KeptAnswer): number {
  return a.results.reduce(
    (n, r) => n + r.passages.reduce((m, p) => m + p.text.length, 0) + r.title.length + r.url.length,
    0,
  );
}

function newHandle(): string {
  const bytes = new Uint8Array(6);
  globalThis.crypto.getRandomValues(bytes);
  return `m${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

interface MoreCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  maxChars?: number;
  now?: () => number;
}

export class MoreCache {
  private readonly entries = new Map<string, { answer: KeptAnswer; at: number; size: number }>();
  private total = 0;
  readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly maxChars: number;
  private readonly now: () => number;

  constructor(o: MoreCacheOptions = {}) {
    this.ttlMs = o.ttlMs ?? MORE_TTL_MS;
    this.maxEntries = o.maxEntries ?? MORE_MAX_ENTRIES;
    this.maxChars = o.maxChars ?? MORE_MAX_CHARS;
    this.now = o.now ?? Date.now;
  }

  /** Keeps an answer and returns its handle; older answers go when the bounds are reached. */
  put(answer: KeptAnswer): string {
    this.prune();
    let handle = newHandle();
    while (this.entries.has(handle)) handle = newHandle();
    const size = sizeOf(answer);
    this.entries.set(handle, { answer, at: this.now(), size });
    this.total += size;
    for (const [h, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.total <= this.maxChars) break;
      if (h === handle) continue;
      this.drop(h, e.size);
    }
    return handle;
  }

  /** The answer behind a handle, unless it is unknown or expired. Reading does not extend its time. */
  get(handle: string): KeptAnswer | undefined {
    this.prune();
    return this.entries.get(handle)?.answer;
  }

  get size(): number {
    return this.entries.size;
  }

  private drop(handle: string, size: number): void {
    this.entries.delete(handle);
    this.total -= size;
  }

  private prune(): void {
    const now = this.now();
    for (const [h, e] of this.entries) if (now - e.at >= this.ttlMs) this.drop(h, e.size);
  }
}

/** The one cache of this process (the editor's tools and the MCP server each run one process). */
export const sharedMoreCache = new MoreCache();

/** One line of untrusted text: cleaned, whitespace folded. */
export function oneLine(s: string): string {
  return clean(s).replace(/\s+/g, ' ').trim();
}

/**
 * The response as the answer and its continuation read it: cleaned text, nothing sent yet; `known` says where a
 * passage was sent before.
 */
export function keptResults(response: SearchResponse, known?: ReadonlyMap<string, string>): KeptResult[] {
  return response.results.map((r) => {
    const url = oneLine(r.url);
    const title = oneLine(displayTitle(r));
    const license = licenseLabel(r);
    return {
      id: oneLine(r.id),
      url,
      title: title === url ? '' : title,
      ...(license ? { license: oneLine(license) } : {}),
      passages: (r.passages ?? []).map((p) => {
        const link = passageLink(p, r);
        const text = clean(p.text).trim();
        const before = text ? known?.get(text) : undefined;
        return { text, ...(link !== r.url ? { cite: oneLine(link) } : {}), ...(before ? { known: before } : {}) };
      }),
      sent: (r.passages ?? []).map(() => 0),
      headed: false,
    };
  });
}

/**
 * Where each passage that the held answers (`have`) sent in full was sent: text -> `[2.1] of m…`; and the
 * handles this process does not know (expired, evicted, or from another process).
 */
export function heldPassages(
  handles: readonly string[],
  cache: MoreCache,
): { known: Map<string, string>; unknown: string[] } {
  const known = new Map<string, string>();
  const unknown: string[] = [];
  for (const h of handles) {
    const a = cache.get(h);
    if (!a) {
      unknown.push(h);
      continue;
    }
    a.results.forEach((r, i) =>
      r.passages.forEach((p, j) => {
        if (r.sent[j]! >= p.text.length && p.text && !known.has(p.text))
          known.set(p.text, `[${i + 1}.${j + 1}] of ${h}`);
      }),
    );
  }
  return { known, unknown };
}
