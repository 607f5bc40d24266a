// Pure: "Watch for a Fix" rules, shared by `devindex watch` and the editor's watcher (src/watches).
// A watch is a saved search (query, scope, installed version) with the ids it has seen; a check compares a
// fresh response with it and says what is new. No vscode, no fs, no clock (times are passed in).
import type { SearchParams } from '../api/params';
import type { SearchResponse } from '../api/schemas';
import { dependencyOfResult } from './dependencyScope';
import { resultBadges, type InstalledDependency } from '../versions/versionCompare';
import { checkedWords } from '../words/duration';

export const MAX_WATCHES = 50;
/** The editor re-runs a watch at most this often. */
export const WATCH_INTERVAL_MS = 6 * 60 * 60 * 1000;
/** Ids kept per watch (the oldest are forgotten first). */
const MAX_SEEN = 500;

export interface Watch {
  id: string;
  params: SearchParams;
  /** The dependencies the search is scoped to, with the installed version when the watch was made or last re-read. */
  installed: InstalledDependency[];
  /** The folder the dependencies were read from (to re-read the installed version). */
  folder?: string;
  /**
   * The service the watch was added against (the CLI's --base-url / DEVINDEX_BASE_URL, else production):
   * the ids it has seen are that service's. Absent on watches made before it was kept, and in the editor
   * (which checks against its one configured service).
   */
  baseUrl?: string;
  seen: string[];
  /** Ids already reported with a fix newer than the installed version. */
  fixSeen: string[];
  createdAt: number;
  lastCheck?: number;
  /** New results found by the last check (until the user looks). */
  newCount: number;
  lastError?: string;
  /** The watched repository is no longer in the index (the echo says `indexed: false`). */
  vanished?: string[];
  /**
   * The statements of a fix newer than the installed version seen so far (the sentence kept), so that a new
   * installed version is compared again without a search.
   */
  fixes?: WatchFix[];
  /** The installed version now includes a fix this watch reported: `fixed in 3.3.0 · included in your 3.3.0`. */
  fixIncluded?: string;
}

/** A result that stated a fix newer than the installed version, with the sentence that says so. */
interface WatchFix {
  id: string;
  title?: string;
  sentence: string;
}

/** At most this many fix statements are kept per watch. */
const MAX_FIXES = 20;

export interface WatchNews {
  id: string;
  title: string;
  url: string;
  /** `new`: a result the watch had not seen; `fix`: a result now stating a fix newer than the installed version. */
  reason: 'new' | 'fix';
  badge?: string;
}

interface CheckOutcome {
  watch: Watch;
  news: WatchNews[];
  /** Repositories the index no longer has. */
  vanished: string[];
  /** A fix the watch reported as newer is now included in the installed version: `fixed in 2.1.0 · included in your 2.1.0`. */
  fixIncluded?: string;
}

/** A new watch from a search that just ran (its results count as seen). */
export function newWatch(
  id: string,
  params: SearchParams,
  installed: InstalledDependency[],
  response: SearchResponse,
  now: number,
  folder?: string,
): Watch {
  const fixes = fixIds(response, installed);
  return {
    id,
    params,
    installed,
    ...(folder ? { folder } : {}),
    seen: response.results.map((r) => r.id).slice(0, MAX_SEEN),
    fixSeen: fixes.map((f) => f.id),
    createdAt: now,
    newCount: 0,
    ...(fixes.length ? { fixes: fixes.map((f) => f.fix).slice(0, MAX_FIXES) } : {}),
  };
}

function fixIds(
  response: SearchResponse,
  installed: readonly InstalledDependency[],
): Array<{ id: string; badge: string; fix: WatchFix }> {
  const out: Array<{ id: string; badge: string; fix: WatchFix }> = [];
  for (const r of response.results) {
    const d = dependencyOfResult(installed, r);
    const b = d
      ? resultBadges(
          r.title,
          r.passages.map((p) => p.text),
          d,
        ).find((x) => x.verdict === 'newer-fix')
      : undefined;
    if (b)
      out.push({
        id: r.id,
        badge: b.text,
        fix: {
          id: r.id,
          ...(r.title?.trim() ? { title: r.title.trim().slice(0, 300) } : {}),
          sentence: b.sentence.slice(0, 1000),
        },
      });
  }
  return out;
}

/** What a fresh response brings to a watch: results it had not seen, and results that now state a newer fix. */
export function checkWatch(w: Watch, response: SearchResponse, now: number): CheckOutcome {
  const seen = new Set(w.seen);
  const fixSeen = new Set(w.fixSeen);
  const news: WatchNews[] = [];
  const fixes = new Map(fixIds(response, w.installed).map((f) => [f.id, f.badge]));
  for (const r of response.results) {
    const badge = fixes.get(r.id);
    if (!seen.has(r.id))
      news.push({ id: r.id, title: r.title?.trim() || r.url, url: r.url, reason: 'new', ...(badge ? { badge } : {}) });
    else if (badge && !fixSeen.has(r.id))
      news.push({ id: r.id, title: r.title?.trim() || r.url, url: r.url, reason: 'fix', badge });
  }
  const vanished = (response.repos ?? []).filter((e) => e.indexed === false).map((e) => e.repo);
  let fixIncluded: string | undefined;
  for (const r of response.results) {
    if (!fixSeen.has(r.id) || fixes.has(r.id)) continue;
    const d = dependencyOfResult(w.installed, r);
    const b = d
      ? resultBadges(
          r.title,
          r.passages.map((p) => p.text),
          d,
        ).find((x) => x.verdict === 'included-fix')
      : undefined;
    if (b) {
      fixIncluded = b.text;
      break;
    }
  }
  const nextSeen = [...response.results.map((r) => r.id).filter((id) => !seen.has(id)), ...w.seen].slice(0, MAX_SEEN);
  const newFixes = fixIds(response, w.installed)
    .map((f) => f.fix)
    .filter((f) => !(w.fixes ?? []).some((x) => x.id === f.id));
  const keptFixes = [...newFixes, ...(w.fixes ?? [])].slice(0, MAX_FIXES);
  const watch: Watch = {
    ...w,
    seen: nextSeen,
    fixSeen: [...new Set([...w.fixSeen, ...fixes.keys()])].slice(0, MAX_SEEN),
    lastCheck: now,
    newCount: w.newCount + news.length,
    ...(vanished.length ? { vanished } : {}),
    ...(keptFixes.length ? { fixes: keptFixes } : {}),
    ...(fixIncluded ? { fixIncluded } : {}),
  };
  delete watch.lastError;
  if (!vanished.length) delete watch.vanished;
  return { watch, news, vanished, ...(fixIncluded ? { fixIncluded } : {}) };
}

/** The installed version changed (a lockfile watcher fired, or the CLI re-read the folder). */
export function withInstalled(w: Watch, installed: InstalledDependency[]): Watch {
  return { ...w, installed };
}

/**
 * The installed version changed: the fix statements the watch kept are compared again with it, without a
 * search. `fixIncluded` names the first fix the new version includes (the watch can be removed); a version
 * that goes back below every fix clears it.
 */
export function recompare(
  w: Watch,
  installed: InstalledDependency[],
): { watch: Watch; fixIncluded?: string; changed: boolean } {
  const before = w.installed.map((d) => `${d.slug}@${d.version ?? ''}`).join(',');
  const after = installed.map((d) => `${d.slug}@${d.version ?? ''}`).join(',');
  let fixIncluded: string | undefined;
  for (const f of w.fixes ?? []) {
    const d = dependencyOfResult(installed, { id: f.id, url: '' });
    const badges = d ? resultBadges(f.title, [f.sentence], d) : [];
    if (badges.some((b) => b.verdict === 'newer-fix')) continue;
    const b = badges.find((x) => x.verdict === 'included-fix');
    if (b) {
      fixIncluded = b.text;
      break;
    }
  }
  const watch: Watch = { ...w, installed, ...(fixIncluded ? { fixIncluded } : {}) };
  if (!fixIncluded) delete watch.fixIncluded;
  return { watch, ...(fixIncluded ? { fixIncluded } : {}), changed: before !== after };
}

/**
 * Two windows' views of one watch, combined (the later write wins for plain fields): the ids seen only grow,
 * the newest check is kept.
 */
export function mergeWatch(stored: Watch, mine: Watch): Watch {
  const newer = (stored.lastCheck ?? 0) > (mine.lastCheck ?? 0) ? stored : mine;
  return {
    ...mine,
    ...(newer.lastCheck !== undefined ? { lastCheck: newer.lastCheck } : {}),
    seen: [...new Set([...mine.seen, ...stored.seen])].slice(0, MAX_SEEN),
    fixSeen: [...new Set([...mine.fixSeen, ...stored.fixSeen])].slice(0, MAX_SEEN),
  };
}

/** Whether a check is due (never more often than the interval). */
export function isDue(w: Watch, now: number, interval = WATCH_INTERVAL_MS): boolean {
  return w.lastCheck === undefined || now - w.lastCheck >= interval;
}

/** One line for a list: the query, the scope with versions, last check and the new count. */
export function describeWatch(w: Watch, now: number): string {
  const scope = w.installed.length
    ? w.installed.map((d) => `${d.slug} · ${d.version ? `${d.version} installed` : 'version unknown'}`).join(', ')
    : (w.params.repos ?? []).join(', ') || 'no repository scope';
  const last = checkedWords(w.lastCheck, now);
  const vanished = w.vanished?.length ? ` · ${w.vanished.join(', ')} no longer in the index` : '';
  const failed = w.lastError ? ` · last check failed: ${w.lastError}` : '';
  return `"${w.params.query}" in ${scope} · ${last} · ${w.newCount} new${vanished}${failed}`;
}

/** One stored watch (the editor keeps one storage record per watch); undefined when malformed. */
export function parseWatch(raw: unknown): Watch | undefined {
  return parseWatches({ watches: [raw] })[0];
}

/** Parses a stored list tolerantly: malformed entries are dropped, never thrown on. */
export function parseWatches(raw: unknown): Watch[] {
  if (!raw || typeof raw !== 'object' || !Array.isArray((raw as { watches?: unknown }).watches)) return [];
  const out: Watch[] = [];
  for (const w of (raw as { watches: unknown[] }).watches) {
    const x = w as Partial<Watch> | null;
    if (
      !x ||
      typeof x.id !== 'string' ||
      !x.params ||
      typeof x.params.query !== 'string' ||
      !Array.isArray(x.seen) ||
      typeof x.createdAt !== 'number'
    )
      continue;
    out.push({
      id: x.id,
      params: x.params,
      installed: Array.isArray(x.installed) ? x.installed : [],
      ...(typeof x.folder === 'string' ? { folder: x.folder } : {}),
      ...(typeof x.baseUrl === 'string' ? { baseUrl: x.baseUrl } : {}),
      seen: x.seen.filter((s): s is string => typeof s === 'string'),
      fixSeen: Array.isArray(x.fixSeen) ? x.fixSeen.filter((s): s is string => typeof s === 'string') : [],
      createdAt: x.createdAt,
      ...(typeof x.lastCheck === 'number' ? { lastCheck: x.lastCheck } : {}),
      newCount: typeof x.newCount === 'number' ? x.newCount : 0,
      ...(typeof x.lastError === 'string' ? { lastError: x.lastError } : {}),
      ...(Array.isArray(x.vanished) ? { vanished: x.vanished } : {}),
      ...(Array.isArray(x.fixes)
        ? {
            fixes: x.fixes.filter(
              (f): f is WatchFix => !!f && typeof f.id === 'string' && typeof f.sentence === 'string',
            ),
          }
        : {}),
      ...(typeof x.fixIncluded === 'string' ? { fixIncluded: x.fixIncluded } : {}),
    });
  }
  return out.slice(0, MAX_WATCHES);
}
