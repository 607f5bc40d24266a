// The search session: the one pipeline behind the Search view and the search commands, free of the editor. One
// search at a time (a new one supersedes the one in flight), its outcome built once (outcome.ts) and kept for a
// rebuilt view, Open as Markdown and Watch for a Fix; the surface that shows it is attached.
import type { ParamIssue, SearchParams } from '../../api/params';
import type { RetryEvent } from '../../api/retry';
import type { SearchResponse } from '../../api/schemas';
import type { InstalledDependency } from '../../versions/versionCompare';
import { failureOf } from '../../api/failure';
import { viewError, type ViewError } from '../../words/viewWords';
import { toOutcome, type SearchOutcome } from './outcome';
import { commandParams, followScopeDefaults, type SearchOptions, type ShowRequest } from './request';

/** The search a Watch for a Fix saves (the last one the view showed). */
export interface WatchableSearch {
  params: SearchParams;
  installed: InstalledDependency[];
  response: SearchResponse;
}

export type ScopeDefaults = { k: number; passages: number; types: string[] };

/** What the session needs (wired in services.ts; unit tests pass fakes). */
export interface SessionDeps {
  /**
   * Runs one search (SearchService: the client, which checks it first, then the history); rejects with ApiError
   * (kind 'validation' with issues before anything is sent; 'aborted' once `signal` fires). `keyless`: without the key.
   */
  search(
    params: SearchParams,
    opts: { signal: AbortSignal; onRetry(e: RetryEvent): void; keyless?: boolean },
  ): Promise<SearchResponse>;
  /** The client's own checks, for live feedback while filters are typed: [] when valid. */
  validate?(params: SearchParams): ParamIssue[];
  /** devIndex.search.* settings: the filters a fresh view starts with. */
  defaults(): ScopeDefaults;
  log(line: string): void;
}

/** The messages one search sends to the surface that shows it (the webview protocol's search messages). */
export type SearchMessage =
  /**
   * A search began. `params` is exactly what is sent: for a search the extension started (palette,
   * selection, repository, history, other features) the view shows them in its form and chip row.
   */
  | {
      type: 'searchStarted';
      requestId: string;
      params: SearchParams;
      notice?: string;
      keyless?: boolean;
      installed?: InstalledDependency[];
    }
  | {
      type: 'retrying';
      requestId: string;
      attempt: number;
      maxAttempts: number;
      delayMs: number;
      reason: string;
      status?: number;
    }
  | { type: 'results'; requestId: string; outcome: SearchOutcome }
  | { type: 'searchError'; requestId: string; error: ViewError }
  | { type: 'searchCancelled'; requestId: string };

/** The surface that shows the searches (the Search view's channel). */
interface SearchSurface {
  /** Before a command's search: shows the surface; resolves once it listens (or it stopped waiting). */
  show(): Promise<void>;
  /**
   * `deliver`: the search's start and its outcome (kept for a surface not listening when a command started it);
   * `send`: progress, dropped when nobody listens.
   */
  emit(message: SearchMessage, how: { deliver: boolean; fromCommand: boolean }): void;
  /** What Watch for a Fix would save changed. */
  watchableChanged(): void;
}

export class SearchSession {
  private surface: SearchSurface | undefined;
  private viewScope: SearchParams | undefined;
  private lastDefaults: ScopeDefaults | undefined;
  private current: { requestId: string; abort: AbortController } | undefined;
  /** The final message of the latest search, re-sent to a view that was rebuilt while it ran. */
  private last: { requestId: string; message: SearchMessage } | undefined;
  private latestRequestId: string | undefined;
  private commandCounter = 0;
  /** Installed dependencies by repository, from dependency-scoped searches; a later search of the same repository keeps its badges. */
  private readonly installed = new Map<string, InstalledDependency>();
  private watchable: WatchableSearch | undefined;

  constructor(private readonly deps: SessionDeps) {}

  attach(surface: SearchSurface): void {
    this.surface = surface;
  }

  /** The filters the view shows now (what a `keep` search uses); undefined before the view ever loaded. */
  scope(): SearchParams | undefined {
    return this.viewScope;
  }

  /** The view reported its filters (its form and chip row). */
  setScope(params: SearchParams): void {
    this.viewScope = params;
  }

  /** The defaults the view was sent (at its ready); a later settings change makes fields still at them follow. */
  defaultsSent(): ScopeDefaults {
    this.lastDefaults = this.deps.defaults();
    return this.lastDefaults;
  }

  /** devIndex.search.* settings changed: the kept scope's fields at the old defaults take the new ones; returns the new ones. */
  settingsChanged(): ScopeDefaults {
    const next = this.deps.defaults();
    const old = this.lastDefaults;
    if (old && this.viewScope) this.viewScope = followScopeDefaults(this.viewScope, old, next);
    this.lastDefaults = next;
    return next;
  }

  validate(params: SearchParams): ParamIssue[] {
    return this.deps.validate?.(params) ?? [];
  }

  /**
   * A search a command started: the surface is shown, the request resolved over its scope (`keep`) or the
   * defaults (`exact`), then run. Resolves when it has finished.
   */
  async search(request: ShowRequest, opts: SearchOptions): Promise<void> {
    await this.surface?.show();
    const params = commandParams(request, opts, this.viewScope, this.deps.defaults());
    for (const d of opts.installed ?? []) this.installed.set(d.slug.toLowerCase(), d);
    this.commandCounter += 1;
    await this.run(`x-${Date.now().toString(36)}-${this.commandCounter}`, params, {
      fromCommand: true,
      ...(opts.notice ? { notice: opts.notice } : {}),
    });
  }

  /** Cancels the search in flight when it is `requestId`. */
  cancel(requestId: string): void {
    if (this.current?.requestId === requestId) this.current.abort.abort();
  }

  /** Where a search the view was waiting for stands: still running, its final message, or unknown. */
  whereIs(requestId: string): 'running' | SearchMessage | undefined {
    if (this.current?.requestId === requestId) return 'running';
    return this.last?.requestId === requestId ? this.last.message : undefined;
  }

  /** The badges the last outcome showed for a result (Open as Markdown keeps them). */
  versionsOf(id: string): ReadonlyArray<{ label: string; sentence: string }> {
    const m = this.last?.message;
    return (m?.type === 'results' ? m.outcome.results.find((r) => r.id === id)?.versions : undefined) ?? [];
  }

  /** The search Watch for a Fix would save now (the last one with a repository scope and results). */
  watchableSearch(): WatchableSearch | undefined {
    return this.watchable;
  }

  dispose(): void {
    this.current?.abort.abort();
    this.current = undefined;
  }

  /** Runs one search: the view's own (its request id) or a command's. A new one supersedes the one in flight. */
  async run(
    requestId: string,
    params: SearchParams,
    opts: { fromCommand: boolean; notice?: string; keyless?: boolean },
  ): Promise<void> {
    // A new search supersedes the one in flight: its result would only be thrown away.
    this.current?.abort.abort();
    this.latestRequestId = requestId;
    this.viewScope = params;
    const abort = new AbortController();
    this.current = { requestId, abort };
    const installed = (params.repos ?? [])
      .map((r) => this.installed.get(r.toLowerCase()))
      .filter((d): d is InstalledDependency => !!d);
    const deliver = (message: SearchMessage) =>
      this.surface?.emit(message, { deliver: true, fromCommand: opts.fromCommand });
    const finish = (message: SearchMessage) => {
      if (requestId === this.latestRequestId) this.last = { requestId, message };
      deliver(message);
    };
    deliver({
      type: 'searchStarted',
      requestId,
      params,
      ...(opts.notice ? { notice: opts.notice } : {}),
      ...(opts.keyless ? { keyless: true } : {}),
      ...(installed.length ? { installed } : {}),
    });
    const started = Date.now();
    try {
      const response = await this.deps.search(params, {
        signal: abort.signal,
        ...(opts.keyless ? { keyless: true } : {}),
        onRetry: (e) => {
          if (this.current?.requestId !== requestId) return;
          this.surface?.emit(
            {
              type: 'retrying',
              requestId,
              attempt: e.attempt,
              maxAttempts: e.maxAttempts,
              delayMs: e.delayMs,
              reason: e.reason,
              ...(e.status !== undefined ? { status: e.status } : {}),
            },
            { deliver: false, fromCommand: opts.fromCommand },
          );
        },
      });
      if (abort.signal.aborted) {
        finish({ type: 'searchCancelled', requestId });
        return;
      }
      finish({
        type: 'results',
        requestId,
        outcome: toOutcome(params, response, installed, Date.now() - started),
      });
      if (requestId === this.latestRequestId) {
        this.watchable = params.repos?.length && response.results.length ? { params, installed, response } : undefined;
        this.surface?.watchableChanged();
      }
    } catch (e) {
      const error = abort.signal.aborted ? 'aborted' : toViewError(e);
      if (error === 'aborted') finish({ type: 'searchCancelled', requestId });
      else {
        this.deps.log(`search view: search failed: ${error.message}`);
        finish({ type: 'searchError', requestId, error });
      }
    } finally {
      if (this.current?.requestId === requestId) this.current = undefined;
    }
  }
}

/** An ApiError (or anything thrown) as a message plus the next step the view offers; a cancelled search is 'aborted'. */
export function toViewError(e: unknown): ViewError | 'aborted' {
  const f = failureOf(e);
  return f.reason === 'cancelled' ? 'aborted' : viewError(f);
}
