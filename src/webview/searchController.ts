// The extension side of the Search view without the editor: message validation and dispatch, the
// search in flight (one at a time, cancellable), error -> next step, and the handshake. The vscode
// glue is in searchViewProvider.ts; keeping this file free of `vscode` lets unit tests drive it.
import type { ParamIssue, SearchParams } from '../api/params';
import type { RetryEvent } from '../api/retry';
import type { SearchResponse } from '../api/schemas';
import { externalUrl, hostOf } from './linkPolicy';
import {
  FromWebviewSchema, type FillRequest, type FromWebview, type ToWebview, type ViewError, type ViewNote,
  type ViewOutcome, type ViewParams,
} from './protocol';

/** What the Search view needs from the rest of the extension (wired in extension.ts / core.ts). */
export interface SearchViewDeps {
  /** Runs one search; rejects with ApiError (kind 'aborted' once `signal` fires). */
  search(params: SearchParams, opts: { signal: AbortSignal; onRetry(e: RetryEvent): void }): Promise<{ response: SearchResponse; notes: ViewNote[] }>;
  /** The client's own checks (validateSearchParams): [] when the params may be sent. */
  validate(params: SearchParams): ParamIssue[];
  /** owner/repo slugs of the open workspace, offered as one click in the filters. */
  workspaceRepos(): Promise<string[]>;
  /** devIndex.* settings: the filters a fresh view starts with. */
  defaults(): { k: number; passages: number; types: string[] };
  /** Whether an API key is set (read from SecretStorage; never the key itself). */
  hasKey(): Promise<boolean>;
  runCommand(id: 'devIndex.auth.setKey'): void;
  /** Called only with an absolute http, https or mailto URL (re-checked here). */
  openExternal(url: string): void;
  /** False when no text editor is active. */
  insertAtCursor(text: string): Promise<boolean>;
  copy(text: string): Promise<void>;
  openMarkdownDocument(title: string, markdown: string): Promise<void>;
  log(line: string): void;
}

/** What palette commands ask for: a query plus any filters, spec 4.1 names. */
export type ShowRequest = { query: string; repos?: string[] } & Partial<SearchParams>;
export interface ShowOptions { run?: boolean; notice?: string }

const FILTER_KEYS = ['k', 'types', 'repos', 'sources', 'skills', 'passages', 'language', 'topic', 'license', 'min_stars', 'max_stars', 'archived', 'fork'] as const;

/**
 * A bare query keeps whatever filters the user set in the view; a request that names any filter
 * (repository scope, a history entry) describes the whole search, so unnamed filters reset.
 */
export function toFill(request: ShowRequest, opts: ShowOptions = {}): FillRequest {
  const params: FillRequest['params'] = { query: request.query };
  for (const key of FILTER_KEYS) {
    const v = request[key];
    if (v !== undefined) (params as Record<string, unknown>)[key] = v;
  }
  return {
    params,
    replaceFilters: Object.keys(params).length > 1,
    run: opts.run ?? true,
    ...(opts.notice ? { notice: opts.notice } : {}),
  };
}

/** The wire response as the webview shows it: only the fields it uses, hosts precomputed. */
export function toOutcome(params: ViewParams, response: SearchResponse, notes: ViewNote[], ms: number): ViewOutcome {
  const coverage: Record<string, string> = {};
  for (const [k, v] of Object.entries(response.coverage ?? {})) if (typeof v === 'string') coverage[k] = v;
  return {
    params,
    results: response.results.map((r) => ({
      id: r.id, type: r.type, url: r.url,
      ...(r.title && r.title.trim() ? { title: r.title } : {}),
      host: hostOf(r.url),
      passages: r.passages.map((p) => p.text),
    })),
    coverage,
    ...(response.reranked !== undefined ? { reranked: response.reranked } : {}),
    ...(response.repos ? { repos: response.repos.map((e) => ({ repo: e.repo, indexed: e.indexed, ...(e.types ? { types: { issue: e.types.issue, pullRequest: e.types.pullRequest, readme: e.types.readme } } : {}) })) } : {}),
    ...(response.sources ? { sources: response.sources.map((e) => ({ source: e.source, indexed: e.indexed })) } : {}),
    notes: notes.map((n) => ({ level: n.level, text: n.text, ...(n.type ? { type: n.type } : {}), ...(n.fix ? { fix: { kind: n.fix.kind, label: n.fix.label } } : {}) })),
    ms,
  };
}

interface ApiErrorLike { kind?: unknown; status?: unknown; message?: unknown; retryAfterMs?: unknown; issues?: unknown; name?: unknown }

/** An ApiError (or anything thrown) as a message plus the next step the view offers. */
export function toViewError(e: unknown): ViewError | 'aborted' {
  const err = (e && typeof e === 'object' ? e : {}) as ApiErrorLike;
  const message = typeof err.message === 'string' && err.message ? err.message : String(e);
  const status = typeof err.status === 'number' ? err.status : undefined;
  const retryAfterMs = typeof err.retryAfterMs === 'number' ? err.retryAfterMs : undefined;
  const base = { message, ...(status !== undefined ? { status } : {}) };
  if (err.kind === 'aborted' || err.name === 'AbortError') return 'aborted';
  switch (err.kind) {
    case 'validation': {
      const issues = Array.isArray(err.issues) ? (err.issues as ParamIssue[]).map((i) => ({ field: String(i.field), message: String(i.message) })) : [];
      return { ...base, action: 'fix', issues };
    }
    case 'retry-after-too-long':
      return { ...base, action: 'wait', ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
    case 'network': case 'timeout': case 'invalid-response': case 'response-too-large':
      return { ...base, action: 'retry' };
    case 'http':
      if (status === 401) return { ...base, action: 'setKey' };
      if (status === 429) return retryAfterMs !== undefined ? { ...base, action: 'wait', retryAfterMs } : { ...base, action: 'retry' };
      if (status === 400) return { ...base, action: 'fix' };
      if (status === 408 || (status !== undefined && status >= 500)) return { ...base, action: 'retry' };
      return { ...base, action: 'none' };
    default:
      return { ...base, action: 'retry' };
  }
}

/** The Markdown document "open all passages" shows. */
export function passagesDocument(title: string, url: string, passages: string[]): string {
  const heading = title.replace(/\s+/g, ' ').trim() || 'Passages';
  const link = externalUrl(url);
  const parts = [`# ${heading}`, ...(link ? [`<${link}>`] : [])];
  passages.forEach((p, i) => parts.push(`## Passage ${i + 1}\n\n${p.trim()}`));
  return parts.join('\n\n') + '\n';
}

function describeIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues.slice(0, 3).map((i) => `${i.path.map(String).join('.') || '(message)'}: ${i.message}`).join('; ');
}

export class SearchController {
  private ready = false;
  private repos: string[] = [];
  private pendingFill: FillRequest | undefined;
  private current: { requestId: string; abort: AbortController } | undefined;
  /** The final message of the latest search, re-sent to a webview that was rebuilt while it ran. */
  private last: { requestId: string; message: ToWebview } | undefined;
  private latestRequestId: string | undefined;

  constructor(private readonly deps: SearchViewDeps, private post: (m: ToWebview) => unknown) {}

  /** A new webview (first resolve, or rebuilt after hide/reload): nothing is posted until it says ready. */
  attach(post: (m: ToWebview) => unknown): void {
    this.post = post;
    this.ready = false;
  }

  detach(): void {
    this.ready = false;
  }

  /** Fill the form (and run) now if the webview is listening, else as soon as it is. */
  fill(request: ShowRequest, opts?: ShowOptions): void {
    const fill = toFill(request, opts);
    if (this.ready) this.send({ type: 'fill', fill });
    else this.pendingFill = fill;
  }

  /** The key was set, replaced or cleared (here or in another window): the view's keyless notice follows. */
  async keyChanged(): Promise<void> {
    if (this.ready) await this.sendKeyState();
  }

  private async sendKeyState(): Promise<void> {
    let hasKey: boolean;
    try {
      hasKey = await this.deps.hasKey();
    } catch (e) {
      this.deps.log(`search view: could not read whether an API key is set: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    this.send({ type: 'keyState', hasKey });
  }

  dispose(): void {
    this.current?.abort.abort();
    this.current = undefined;
  }

  /** Entry point for every message from the webview: validated, or logged and dropped. */
  async receive(raw: unknown): Promise<void> {
    const parsed = FromWebviewSchema.safeParse(raw);
    if (!parsed.success) {
      const type = raw && typeof raw === 'object' && typeof (raw as { type?: unknown }).type === 'string' ? (raw as { type: string }).type.slice(0, 40) : typeof raw;
      this.deps.log(`search view: dropped an invalid message (${JSON.stringify(type)}): ${describeIssues(parsed.error.issues)}`);
      return;
    }
    try {
      await this.handle(parsed.data);
    } catch (e) {
      this.deps.log(`search view: ${parsed.data.type} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private send(m: ToWebview): void {
    if (this.ready) void this.post(m);
  }

  private async handle(m: FromWebview): Promise<void> {
    switch (m.type) {
      case 'ready': return this.onReady(m.pendingRequestId);
      case 'validate':
        this.send({ type: 'validation', requestId: m.requestId, issues: this.deps.validate(m.params) });
        return;
      case 'search': return this.runSearch(m.requestId, m.params);
      case 'cancel':
        if (this.current?.requestId === m.requestId) this.current.abort.abort();
        return;
      case 'openLink': {
        const url = externalUrl(m.url);
        if (url) this.deps.openExternal(url);
        else this.deps.log(`search view: refused to open a link that is not http, https or mailto (${JSON.stringify(m.url.slice(0, 60))})`);
        return;
      }
      case 'copy':
        await this.deps.copy(m.text);
        this.send({ type: 'actionDone', requestId: m.requestId, ok: true, message: 'Copied to the clipboard' });
        return;
      case 'insert': {
        const ok = await this.deps.insertAtCursor(m.text);
        this.send({ type: 'actionDone', requestId: m.requestId, ok, message: ok ? 'Inserted at the cursor' : 'No editor is active: open a file, place the cursor, then insert again' });
        return;
      }
      case 'openPassages':
        await this.deps.openMarkdownDocument(m.title, passagesDocument(m.title, m.url, m.passages));
        this.send({ type: 'actionDone', requestId: m.requestId, ok: true, message: 'Opened the passages as a Markdown document' });
        return;
      case 'setKey':
        this.deps.runCommand('devIndex.auth.setKey');
        return;
      case 'log':
        this.deps.log(`search view: ${m.message}`);
        return;
    }
  }

  /**
   * devIndex.search.* settings changed: a ready view gets the new defaults (fields still at the old ones
   * follow). Sent at once, with the repositories read at ready, so it is ordered before any fill that follows.
   */
  settingsChanged(): void {
    if (this.ready) this.send({ type: 'init', defaults: this.deps.defaults(), workspaceRepos: this.repos });
  }

  private async workspaceRepos(): Promise<string[]> {
    try {
      return await this.deps.workspaceRepos();
    } catch (e) {
      this.deps.log(`search view: could not read the workspace repositories: ${e instanceof Error ? e.message : String(e)}`);
      return [];
    }
  }

  private async onReady(pendingRequestId: string | undefined): Promise<void> {
    const workspaceRepos = await this.workspaceRepos();
    this.repos = workspaceRepos;
    this.ready = true;
    this.send({ type: 'init', defaults: this.deps.defaults(), workspaceRepos });
    await this.sendKeyState();
    if (pendingRequestId) {
      if (this.current?.requestId === pendingRequestId) this.send({ type: 'searchStarted', requestId: pendingRequestId });
      else if (this.last?.requestId === pendingRequestId) this.send(this.last.message);
      else this.send({ type: 'searchError', requestId: pendingRequestId, error: { message: 'The search was interrupted (the window reloaded or the extension restarted). Run it again.', action: 'retry' } });
    }
    if (this.pendingFill) {
      const fill = this.pendingFill;
      this.pendingFill = undefined;
      this.send({ type: 'fill', fill });
    }
  }

  private finish(requestId: string, message: ToWebview): void {
    if (requestId === this.latestRequestId) this.last = { requestId, message };
    this.send(message);
  }

  private async runSearch(requestId: string, params: ViewParams): Promise<void> {
    // A new search supersedes the one in flight: its result would only be thrown away.
    this.current?.abort.abort();
    this.current = undefined;
    this.latestRequestId = requestId;
    const issues = this.deps.validate(params);
    if (issues.length) {
      this.finish(requestId, { type: 'validation', requestId, issues });
      return;
    }
    const abort = new AbortController();
    this.current = { requestId, abort };
    this.send({ type: 'searchStarted', requestId });
    const started = Date.now();
    try {
      const { response, notes } = await this.deps.search(params, {
        signal: abort.signal,
        onRetry: (e) => {
          if (this.current?.requestId !== requestId) return;
          this.send({ type: 'retrying', requestId, attempt: e.attempt, maxAttempts: e.maxAttempts, delayMs: e.delayMs, reason: e.reason, ...(e.status !== undefined ? { status: e.status } : {}) });
        },
      });
      if (abort.signal.aborted) {
        this.finish(requestId, { type: 'searchCancelled', requestId });
        return;
      }
      this.finish(requestId, { type: 'results', requestId, outcome: toOutcome(params, response, notes, Date.now() - started) });
    } catch (e) {
      const error = abort.signal.aborted ? 'aborted' : toViewError(e);
      if (error === 'aborted') this.finish(requestId, { type: 'searchCancelled', requestId });
      else {
        this.deps.log(`search view: search failed: ${error.message}`);
        this.finish(requestId, { type: 'searchError', requestId, error });
      }
    } finally {
      if (this.current?.requestId === requestId) this.current = undefined;
    }
  }
}
