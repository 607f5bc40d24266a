// The fixes check: per dependency on GitHub, one search scoped to its repository, its results' fix-version
// statements set against the installed version. At most `concurrency` searches in flight, answers cached for
// a day, a 429 stops new searches at once. The client, the cache and the clock are given. No vscode, no fs.
import type { SearchParams } from '../api/params';
import type { SearchResponse } from '../api/schemas';
import type { Clock } from '../api/retry';
import type { SearchCall } from '../search/session/searchRun';
import { failureOf } from '../api/failure';
import { resultVerdicts } from './verdicts';
import { selectDependencies } from './select';
import type {
  AffectingIssue,
  CheckedDependency,
  FixesOutcome,
  FixesProgress,
  FixesStop,
  LackedFix,
  NamedReason,
  WorkspaceDependencies,
  WorkspaceDependency,
} from './report';

/** The one search per dependency (docs/CLI.md, "devindex fixes"): statements of fixes and affected versions. */
export const FIXES_QUERY = 'bug fixed in version; regression affects version; fix released in';
export const FIXES_K = 20;
export const FIXES_PASSAGES = 3;
export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 8;
export const CACHE_TTL_MS = 24 * 60 * 60 * 1000;
/** An answer searched at `at` is still good at `now`: within the day, and not from a clock that ran ahead. */
export const isFresh = (at: number, now: number): boolean => at <= now && now - at < CACHE_TTL_MS;
/** The whole check's time bound (every dependency, retries included); what is left after it is unchecked. */
export const DEFAULT_TIME_LIMIT_MS = 5 * 60 * 1000;

/** What a cache keeps per key: the check's answer and when it was searched (epoch ms). */
export interface CachedCheck {
  at: number;
  fixes: LackedFix[];
  affecting: AffectingIssue[];
}

/** Kept per service address, dependency, repository and installed version (and the search's own terms). */
export interface FixesCacheKey {
  service: string;
  ecosystem: string;
  name: string;
  repository: string;
  installed: string;
}

/** One new answer for the cache. */
export interface CacheAnswer {
  key: FixesCacheKey;
  value: CachedCheck;
}

/** Where answers are kept between runs (src/fixes/fileCache.ts in Node). Neither call may throw for bad contents. */
export interface FixesCache {
  get(key: FixesCacheKey): Promise<CachedCheck | undefined>;
  /** A run's new answers, all at once when it ends (stopped or not): one write, not one a dependency. */
  save(answers: readonly CacheAnswer[]): Promise<void>;
}

interface CheckOptions {
  /** Transitive dependencies too (from the lockfile); default the direct ones. */
  all?: boolean;
  /** Only these (names as the user typed them); an unknown one throws UnknownDependencyError. */
  dependencies?: readonly string[];
  /** Searches in flight at once, 1 to MAX_CONCURRENCY (default DEFAULT_CONCURRENCY). */
  concurrency?: number;
  /** Search again even what the cache has. */
  refresh?: boolean;
  /** Cancels: searches in flight are aborted, what was checked is returned. */
  signal?: AbortSignal;
  onProgress?: (p: FixesProgress) => void;
  /** Default DEFAULT_TIME_LIMIT_MS. */
  timeLimitMs?: number;
}

interface FixesCollaborators {
  search: SearchCall;
  cache: FixesCache;
  clock: Clock;
  /** The service address (answers are cached per address). */
  service: string;
  /** Searches go without a key: a 429 then offers Set API Key. */
  keyless?: boolean;
}

/** `--dependency` names the folder does not have; `known` is what it has. */
export class UnknownDependencyError extends Error {
  constructor(
    readonly unknown: string[],
    readonly known: string[],
    message: string,
  ) {
    super(message);
    this.name = 'UnknownDependencyError';
  }
}

/** The search sent for one dependency. */
export function fixesSearchParams(repository: string): SearchParams {
  return {
    query: FIXES_QUERY,
    k: FIXES_K,
    types: ['issue', 'pull_request'],
    repos: [repository],
    passages: FIXES_PASSAGES,
  };
}

export function checkConcurrency(n: number | undefined): number {
  if (n === undefined) return DEFAULT_CONCURRENCY;
  if (!Number.isInteger(n) || n < 1 || n > MAX_CONCURRENCY)
    throw new RangeError(`concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}; got ${String(n)}`);
  return n;
}

const keyOf = (service: string, d: WorkspaceDependency & { repository: string; installed: string }): FixesCacheKey => ({
  service,
  ecosystem: d.ecosystem,
  name: d.name,
  repository: d.repository,
  installed: d.installed,
});

type Checkable = WorkspaceDependency & { repository: string; installed: string };

function stopWords(stop: FixesStop): string {
  switch (stop.reason) {
    case 'rate-limited':
      return 'not checked: the service is rate limiting searches';
    case 'cancelled':
      return 'not checked: cancelled';
    case 'time-limit':
      return 'not checked: the time limit was reached';
    default:
      return `not checked: ${stop.message}`;
  }
}

/** Checks a folder's dependencies for fixes their installed versions lack. Rejects only for unknown names or bad options. */
export async function checkFixes(
  input: WorkspaceDependencies,
  options: CheckOptions,
  deps: FixesCollaborators,
): Promise<FixesOutcome> {
  const concurrency = checkConcurrency(options.concurrency);
  const picked = selectDependencies(input, options);
  if (!picked.ok) throw new UnknownDependencyError(picked.unknown, picked.known, picked.message);
  const skipped: NamedReason[] = [];
  const todo: Checkable[] = [];
  for (const d of picked.dependencies) {
    if (!d.repository) skipped.push({ name: d.name, reason: d.skipReason ?? 'no GitHub repository' });
    else if (!d.installed) skipped.push({ name: d.name, reason: d.skipReason ?? 'installed version unknown' });
    else todo.push(d as Checkable);
  }
  const results = new Array<CheckedDependency | undefined>(todo.length);
  const unchecked = new Map<number, string>();
  const now = deps.clock.now();
  const checkedRow = (d: Checkable, fixes: LackedFix[], affecting: AffectingIssue[]): CheckedDependency => ({
    name: d.name,
    ecosystem: d.ecosystem,
    installed: d.installed,
    repository: d.repository,
    manifest: d.manifest,
    fixes,
    affecting,
  });
  // The cache first, all at once: a cached re-run sends nothing and waits on no search.
  const cached = options.refresh
    ? todo.map(() => undefined)
    : await Promise.all(todo.map((d) => deps.cache.get(keyOf(deps.service, d)).catch(() => undefined)));
  const queue: number[] = [];
  let fromCache = 0;
  cached.forEach((c, i) => {
    if (c && isFresh(c.at, now)) {
      results[i] = checkedRow(todo[i]!, c.fixes, c.affecting);
      fromCache++;
    } else queue.push(i);
  });
  const total = todo.length;
  let done = fromCache;
  const progress = options.onProgress ?? (() => {});
  progress({ kind: 'started', total, cached: fromCache });
  for (const r of results)
    if (r) progress({ kind: 'checked', name: r.name, done, total, cached: true, fixes: r.fixes.length });

  let searches = 0;
  const answers: CacheAnswer[] = [];
  let stop: FixesStop | undefined;
  // One controller for every search: cancelling or the time limit aborts them all. A 429 needs none: the client
  // is asked to reject it at once (rateLimit 'fail'), and the searches already in flight finish and are kept.
  const stopAll = new AbortController();
  const signal = stopAll.signal;
  const halt = (s: FixesStop) => {
    if (stop) return;
    stop = s;
    progress({ kind: 'stopped', stop: s, done, total });
  };
  const onUserAbort = () => {
    halt({ reason: 'cancelled', message: 'cancelled' });
    stopAll.abort();
  };
  if (options.signal?.aborted) onUserAbort();
  else options.signal?.addEventListener('abort', onUserAbort, { once: true });
  const timer = new AbortController();
  const limitMs = options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
  if (queue.length)
    deps.clock.sleep(limitMs, timer.signal).then(
      () => {
        halt({ reason: 'time-limit', message: `the time limit (${Math.round(limitMs / 1000)} s) was reached` });
        stopAll.abort();
      },
      () => {},
    );

  const record = (i: number, response: SearchResponse): void => {
    const d = todo[i]!;
    const { fixes, affecting } = resultVerdicts(response.results, d);
    results[i] = checkedRow(d, fixes, affecting);
    done++;
    progress({ kind: 'checked', name: d.name, done, total, cached: false, fixes: fixes.length });
    answers.push({ key: keyOf(deps.service, d), value: { at: deps.clock.now(), fixes, affecting } });
  };
  /** One dependency's search; its answer, or undefined when it failed (the failure is recorded here). */
  const searchOne = async (i: number): Promise<SearchResponse | undefined> => {
    const d = todo[i]!;
    searches++;
    try {
      return await deps.search(fixesSearchParams(d.repository), { signal, rateLimit: 'fail' });
    } catch (e) {
      const f = failureOf(e, deps.clock.now());
      if (f.status === 429 || f.reason === 'keyless-quota' || f.reason === 'rate-limit')
        halt({
          reason: 'rate-limited',
          message: f.message,
          ...(f.signupUrl ? { signupUrl: f.signupUrl } : {}),
          ...(deps.keyless ? { keyless: true } : {}),
          failure: f,
        });
      else if (f.reason === 'cancelled' || signal.aborted) halt({ reason: 'cancelled', message: 'cancelled' });
      else if (f.next === 'fix-input') {
        unchecked.set(i, `not checked: ${f.message}`);
        return undefined;
      } else halt({ reason: 'failed', message: f.message, failure: f });
      unchecked.set(i, stopWords(stop!));
      return undefined;
    }
  };

  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
      // An answer's verdicts are read once the next search is on its way: the service is never waiting on them.
      let answered: { i: number; response: SearchResponse } | undefined;
      while (!stop && next < queue.length) {
        const i = queue[next++]!;
        const sent = searchOne(i);
        if (answered) record(answered.i, answered.response);
        const response = await sent;
        answered = response && { i, response };
      }
      if (answered) record(answered.i, answered.response);
    }),
  );
  timer.abort();
  options.signal?.removeEventListener('abort', onUserAbort);
  if (answers.length) await deps.cache.save(answers).catch(() => {});
  for (const i of queue.slice(next)) unchecked.set(i, stopWords(stop!));
  return {
    report: {
      dependencies: results.filter((r): r is CheckedDependency => r !== undefined),
      skipped,
      unchecked: [...unchecked.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([i, reason]) => ({ name: todo[i]!.name, reason })),
      searches,
    },
    ...(stop ? { stop } : {}),
    fromCache,
  };
}
