// The extension side of the Search view without the editor: message validation and dispatch, the one
// search pipeline (a search typed in the view and one started by a command run here alike, one at a
// time, cancellable), error -> next step, and the handshake. The vscode glue is in
// searchViewProvider.ts; keeping this file free of `vscode` lets unit tests drive it.
import type { ParamIssue, SearchParams } from '../api/params';
import { licenseLabel, passageLink, provenance } from '../api/results';
import type { RetryEvent } from '../api/retry';
import type { SearchResponse } from '../api/schemas';
import { defaultParams } from '../search/scope';
import { dependencyOfResult } from '../deps/dependencyScope';
import { resultBadges, versionSummary, type InstalledDependency } from '../deps/versionCompare';
import { externalUrl } from './linkPolicy';
import { signupLink } from '../api/notices';
import {
  fromWebviewSchema, type FromWebview, type ToWebview, type ViewCommand, type ViewError, type ViewInstalled, type ViewNote, type ViewOutcome, type ViewWatches,
} from './protocol';

/** Issue 23: the search a Watch for a Fix saves (the last one the view showed). */
export interface WatchableSearch { params: SearchParams; installed: InstalledDependency[]; response: SearchResponse }

/** Issue 23: the Watched list behind the view (src/watches/editor.ts). */
export interface WatchViewPort {
  list(current: WatchableSearch | undefined): ViewWatches;
  add(search: WatchableSearch): Promise<void>;
  act(action: 'check' | 'remove' | 'open', id: string): Promise<void>;
}

/** What the Search view needs from the rest of the extension (wired in services.ts). */
export interface SearchViewDeps {
  /**
   * Runs one search through the client, which validates it (ApiError kind 'validation' with issues)
   * before anything is sent; rejects with ApiError (kind 'aborted' once `signal` fires).
   * `keyless`: this one request goes without the API key.
   */
  search(params: SearchParams, opts: { signal: AbortSignal; onRetry(e: RetryEvent): void; keyless?: boolean }): Promise<{ response: SearchResponse; notes: ViewNote[] }>;
  /** The client's own checks, for live feedback while filters are typed: [] when valid. */
  validate(params: SearchParams): ParamIssue[];
  /** owner/repo slugs of the open workspace, offered as one click in the filters. */
  workspaceRepos(): Promise<string[]>;
  /** devIndex.* settings: the filters a fresh view starts with. */
  defaults(): { k: number; passages: number; types: string[] };
  /** Whether an API key is set (read from SecretStorage; never the key itself). */
  hasKey(): Promise<boolean>;
  runCommand(id: 'devIndex.auth.setKey' | 'devIndex.diagnose'): void;
  /** Called only with an absolute http, https or mailto URL (re-checked here). */
  openExternal(url: string): void;
  /** False when no text editor is active. */
  insertAtCursor(text: string): Promise<boolean>;
  copy(text: string): Promise<void>;
  /** A read-only document for one result (content provider), named after it. */
  openMarkdownDocument(id: string, title: string, markdown: string): Promise<void>;
  /** A short confirmation in the status bar (never over the results). */
  status(message: string): void;
  /** Something the user asked for could not be done. */
  warn(message: string): void;
  log(line: string): void;
  /** Issue 23: the Watched list (absent: the view shows none). */
  watches?: WatchViewPort;
}

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
  /** Issue 23: the dependencies (with installed versions) a dependency-scoped search is for: badges and chip. */
  installed?: InstalledDependency[];
}

const FILTER_KEYS = ['k', 'types', 'repos', 'sources', 'skills', 'passages', 'language', 'topic', 'license', 'min_stars', 'max_stars', 'archived', 'fork'] as const;

/** The search a command runs: the request over the view's scope (`keep`) or over the defaults (`exact`). */
export function commandParams(request: ShowRequest, opts: SearchOptions, viewScope: SearchParams | undefined, defaults: { k: number; passages: number; types: string[] }): SearchParams {
  const base: Partial<SearchParams> = opts.scope === 'keep' && viewScope ? { ...viewScope } : { ...defaultParams(defaults) };
  const out: SearchParams = { ...base, query: request.query.trim() } as SearchParams;
  for (const key of FILTER_KEYS) {
    const v = request[key];
    if (v !== undefined) (out as unknown as Record<string, unknown>)[key] = v;
  }
  return out;
}

/** A scope's k, passages and types that were at the old defaults take the new ones (as the view's form does). */
export function followScopeDefaults(scope: SearchParams, old: { k: number; passages: number; types: string[] }, next: { k: number; passages: number; types: string[] }): SearchParams {
  const out: SearchParams = { ...scope };
  if (scope.k === old.k) out.k = next.k;
  if (scope.passages === old.passages) out.passages = next.passages;
  const was = defaultParams(old).types;
  const now = defaultParams(next).types;
  const same = (a: string[] | undefined, b: string[] | undefined) => (a ?? []).length === (b ?? []).length && (a ?? []).every((t) => (b ?? []).includes(t));
  if (same(scope.types, was)) {
    if (now) out.types = now;
    else delete out.types;
  }
  return out;
}

/** The wire response as the webview shows it: kind, provenance, license and passage links precomputed. */
export function toOutcome(params: SearchParams, response: SearchResponse, notes: ViewNote[], ms: number): ViewOutcome {
  const coverage: Record<string, string> = {};
  for (const [k, v] of Object.entries(response.coverage ?? {})) if (typeof v === 'string') coverage[k] = v;
  return {
    params,
    results: response.results.map((r) => {
      const license = licenseLabel(r);
      return {
        id: r.id, type: r.type, url: r.url,
        ...(r.title && r.title.trim() ? { title: r.title } : {}),
        provenance: provenance(r).text,
        ...(license ? { license } : {}),
        passages: r.passages.map((p) => {
          const link = passageLink(p, r);
          return link !== r.url ? { text: p.text, link } : { text: p.text };
        }),
      };
    }),
    coverage,
    ...(response.reranked !== undefined ? { reranked: response.reranked } : {}),
    ...(response.repos ? { repos: response.repos.map((e) => ({ repo: e.repo, indexed: e.indexed, ...(e.types ? { types: { issue: e.types.issue, pullRequest: e.types.pullRequest, readme: e.types.readme } } : {}) })) } : {}),
    ...(response.sources ? { sources: response.sources.map((e) => ({ source: e.source, indexed: e.indexed })) } : {}),
    notes: notes.map((n) => ({ level: n.level, text: n.text, ...(n.type ? { type: n.type } : {}), ...(n.fix ? { fix: { kind: n.fix.kind, label: n.fix.label } } : {}) })),
    ms,
  };
}

interface ApiErrorLike { kind?: unknown; status?: unknown; message?: unknown; retryAfterMs?: unknown; issues?: unknown; name?: unknown; resetAt?: unknown; quota?: unknown; signupUrl?: unknown }

/** An ApiError (or anything thrown) as a message plus the next step the view offers. */
export function toViewError(e: unknown): ViewError | 'aborted' {
  const err = (e && typeof e === 'object' ? e : {}) as ApiErrorLike;
  const message = typeof err.message === 'string' && err.message ? err.message : String(e);
  const status = typeof err.status === 'number' ? err.status : undefined;
  const retryAfterMs = typeof err.retryAfterMs === 'number' ? err.retryAfterMs : undefined;
  const base = { message, ...(status !== undefined ? { status } : {}) };
  if (err.kind === 'aborted' || err.name === 'AbortError') return 'aborted';
  // The service's own link to create a key (checked again: it came from the network).
  const signupUrl = signupLink(err.signupUrl);
  const signup = signupUrl ? { signupUrl } : {};
  switch (err.kind) {
    case 'keyless-quota': {
      // The way out is a key, not waiting: never a retry countdown for a day-long wait.
      const resetAt = typeof err.resetAt === 'number' && Number.isFinite(err.resetAt) ? err.resetAt : undefined;
      const quota = err.quota === 'requests' || err.quota === 'credits' ? err.quota : undefined;
      return { ...base, action: 'setKey', ...(resetAt !== undefined ? { keyless: { kind: 'quota', resetAt, ...(quota ? { quota } : {}), ...signup } } : {}) };
    }
    case 'keyless-refused':
      return { ...base, action: 'setKey', keyless: { kind: 'refused', ...signup } };
    case 'validation': {
      const issues = Array.isArray(err.issues) ? (err.issues as ParamIssue[]).map((i) => ({ field: String(i.field), message: String(i.message) })) : [];
      return { ...base, action: 'fix', issues };
    }
    case 'retry-after-too-long':
      return { ...base, action: 'wait', ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
    case 'network': case 'timeout':
      // Unreachable, proxy, certificate or silence: the diagnosis says which setting is wrong.
      return { ...base, action: 'retry', diagnose: true };
    case 'invalid-response': case 'response-too-large':
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

/** Issue 23: each result's badges against the dependency whose repository it is from, and the summary lines. */
export function withVersions(outcome: ViewOutcome, installed: readonly InstalledDependency[]): ViewOutcome {
  if (!installed.length) return outcome;
  const badges = outcome.results.map((r) => {
    const d = dependencyOfResult(installed, r);
    return d ? resultBadges(r.title, r.passages.map((p) => p.text), d) : [];
  });
  const summaries = installed
    .map((d) => versionSummary(outcome.results.map((r, i) => (dependencyOfResult([d], r) ? badges[i]! : [])), d))
    .filter((x): x is string => !!x);
  return {
    ...outcome,
    results: outcome.results.map((r, i) => (badges[i]!.length
      ? { ...r, versions: badges[i]!.map((b) => ({ label: b.label, sentence: b.sentence, highlight: b.highlight, verdict: b.verdict })) }
      : r)),
    installed: installed.map(viewInstalled),
    ...(summaries.length ? { versionSummary: summaries } : {}),
  };
}

function viewInstalled(d: InstalledDependency): ViewInstalled {
  return { ecosystem: d.ecosystem, name: d.name, slug: d.slug, ...(d.version ? { version: d.version } : {}) };
}

/** The Markdown document Open as Markdown shows; the version badges stay, as text with their sentences. */
export function passagesDocument(title: string, url: string, passages: string[], versions: ReadonlyArray<{ label: string; sentence: string }> = []): string {
  const heading = title.replace(/\s+/g, ' ').trim() || 'Passages';
  const link = externalUrl(url);
  const parts = [`# ${heading}`, ...(link ? [`<${link}>`] : [])];
  if (versions.length) parts.push(versions.map((v) => `- **${v.label}** — “${v.sentence.replace(/\s+/g, ' ')}”`).join('\n'));
  passages.forEach((p, i) => parts.push(`## Passage ${i + 1}\n\n${p.trim()}`));
  return parts.join('\n\n') + '\n';
}

function describeIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues.slice(0, 3).map((i) => `${i.path.map(String).join('.') || '(message)'}: ${i.message}`).join('; ');
}

/**
 * What a starting document may post before its `ready` (its first render reports the keyless line; a failed start
 * logs): these never mean that a view marked not listening is listening.
 */
const BEFORE_READY: ReadonlySet<FromWebview['type']> = new Set(['ready', 'keylessLine', 'log']);

/** How long a command waits for the view to load before it runs the search anyway. */
const READY_TIMEOUT_MS = 15_000;

export class SearchController {
  private ready = false;
  /** Whether the view is on screen (a hidden view has no document to send to). */
  private visible: () => boolean = () => true;
  /** onReady calls between the view's ready and `ready = true` (reading the workspace's repositories). */
  private readying = 0;
  private readyWaiters: Array<() => void> = [];
  private repos: string[] = [];
  private viewScope: SearchParams | undefined;
  /** The scope as the webview last reported it (its form and chip row), for the host tests. */
  private shown: SearchParams | undefined;
  /** The keyless line as the webview last reported it, for the host tests. */
  private keylessLine: { text: string; actions: string[] } | undefined;
  /** The signup link of the last keyless error sent to the view (Get a Key without a view message: the host tests' command). */
  private signupUrl: string | undefined;
  private lastDefaults: { k: number; passages: number; types: string[] } | undefined;
  private current: { requestId: string; abort: AbortController } | undefined;
  /** The final message of the latest search, re-sent to a webview that was rebuilt while it ran. */
  private last: { requestId: string; message: ToWebview } | undefined;
  private latestRequestId: string | undefined;
  /** A command's search posted while the view was not listening: delivered at ready. */
  private backlog: ToWebview[] = [];
  private commandCounter = 0;
  /** Issue 23: installed dependencies by repository, from dependency-scoped searches; a later search of the same repository keeps its badges. */
  private readonly installed = new Map<string, InstalledDependency>();
  /** The last `searchStarted` and `results` messages posted to the webview (the host tests read the chip, badges and summary there). */
  private posted: { searchStarted?: ToWebview; results?: ToWebview } = {};
  /** Issue 23: the last search that went through, for Watch for a Fix. */
  private watchable: WatchableSearch | undefined;

  constructor(private readonly deps: SearchViewDeps, private post: (m: ToWebview) => unknown) {}

  /** A new webview (first resolve, or rebuilt after hide/reload): nothing is posted until it says ready. */
  attach(post: (m: ToWebview) => unknown, visible: () => boolean = () => true): void {
    this.post = post;
    this.visible = visible;
    this.ready = false;
  }

  detach(): void {
    this.ready = false;
  }

  /** The filters the view shows now (what a `keep` search uses); undefined before the view ever loaded. */
  scope(): SearchParams | undefined {
    return this.viewScope;
  }

  /** What the webview says its keyless line shows now ('' when hidden). */
  shownKeylessLine(): { text: string; actions: string[] } | undefined {
    return this.keylessLine;
  }

  /**
   * Get a Key: opens the keyless quota's signup link (`url` from the view's button, else the last one this side sent),
   * only when it passes the signup link check and the link policy. Returns the link opened, or undefined.
   */
  getKey(url: string | undefined = this.signupUrl): string | undefined {
    const link = signupLink(url);
    const safe = link ? externalUrl(link) : undefined;
    if (!safe) {
      this.deps.log(`search view: refused to open a signup link that is not an https link to a plain host (${JSON.stringify((url ?? '(none)').slice(0, 60))})`);
      return undefined;
    }
    this.deps.openExternal(safe);
    return safe;
  }

  /** What the webview says its form and chip row show now (the `scope` it last posted). */
  shownScope(): SearchParams | undefined {
    return this.shown;
  }

  /**
   * Runs a search started by a command on this side (one boundary crossing): the view is told the
   * exact params when it starts, then the outcome. Resolves when the search has finished.
   */
  async search(request: ShowRequest, opts: SearchOptions): Promise<void> {
    await this.whenReady();
    const params = commandParams(request, opts, this.viewScope, this.deps.defaults());
    for (const d of opts.installed ?? []) this.installed.set(d.slug.toLowerCase(), d);
    this.commandCounter += 1;
    this.backlog = [];
    await this.runSearch(`x-${Date.now().toString(36)}-${this.commandCounter}`, params, { fromCommand: true, ...(opts.notice ? { notice: opts.notice } : {}) });
  }

  /** Issue 23: the search Watch for a Fix would save now (the last one with a repository scope and results). */
  watchableSearch(): WatchableSearch | undefined {
    return this.watchable;
  }

  /** Issue 23: the Watched list changed (or what can be watched): a ready view is sent the list. */
  watchesChanged(): void {
    if (!this.deps.watches) return;
    if (!this.ready) {
      // Said in the log: the e2e tier once waited a minute for a watch the extension had added in 24 ms.
      this.deps.log('search view: the Watched list changed while the view was not listening; it is sent when the view says ready');
      return;
    }
    this.postNow({ type: 'watches', ...this.deps.watches.list(this.watchable) });
  }

  /** A view title command (Clear, Refresh, Expand All, Collapse All). */
  command(command: ViewCommand): void {
    this.send({ type: 'command', command });
  }

  /** The key was set, replaced or cleared (here or in another window): the view's keyless notice follows. */
  async keyChanged(): Promise<void> {
    if (this.ready) await this.sendKeyState();
  }

  private whenReady(): Promise<void> {
    if (this.ready) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.readyWaiters = this.readyWaiters.filter((w) => w !== done); resolve(); }, READY_TIMEOUT_MS);
      const done = () => { clearTimeout(timer); resolve(); };
      this.readyWaiters.push(done);
    });
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
    const parsed = fromWebviewSchema().safeParse(raw);
    if (!parsed.success) {
      const type = raw && typeof raw === 'object' && typeof (raw as { type?: unknown }).type === 'string' ? (raw as { type: string }).type.slice(0, 40) : typeof raw;
      this.deps.log(`search view: dropped an invalid message (${JSON.stringify(type)}): ${describeIssues(parsed.error.issues)}`);
      return;
    }
    if (!this.ready && !BEFORE_READY.has(parsed.data.type) && !this.readying && this.visible()) {
      // A document on screen that posts is listening: a view marked not listening (hidden, then shown without a
      // new document) would otherwise never be sent anything again. Take it as ready and send it what ready
      // sends. (A hidden view's last message is not: its document is gone, and what is sent waits for the next.)
      this.deps.log(`search view: ${parsed.data.type} came from a view that had not said ready; it is sent the current state`);
      await this.onReady(undefined, undefined);
    }
    try {
      await this.handle(parsed.data);
    } catch (e) {
      this.deps.log(`search view: ${parsed.data.type} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private send(m: ToWebview): void {
    if (this.ready) this.postNow(m);
  }

  private postNow(m: ToWebview): void {
    if (m.type === 'searchStarted') this.posted = { searchStarted: m };
    else if (m.type === 'results') this.posted = { ...this.posted, results: m };
    void this.post(m);
  }

  /** What the webview was last sent for a search: its start (the chip's `installed`) and its outcome (badges, summary). */
  postedSearch(): { searchStarted?: ToWebview; results?: ToWebview } {
    return this.posted;
  }

  private async handle(m: FromWebview): Promise<void> {
    switch (m.type) {
      case 'ready': return this.onReady(m.pendingRequestId, m.scope);
      case 'scope':
        this.viewScope = m.params;
        this.shown = m.params;
        return;
      case 'validate':
        this.send({ type: 'validation', requestId: m.requestId, issues: this.deps.validate(m.params) });
        return;
      case 'search': return this.runSearch(m.requestId, m.params, { fromCommand: false, ...(m.keyless ? { keyless: true } : {}) });
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
        this.deps.status(m.what === 'link' ? 'Copied the link' : 'Copied the passage');
        return;
      case 'insert': {
        const ok = await this.deps.insertAtCursor(m.text);
        if (ok) this.deps.status('Inserted the passage at the cursor');
        else this.deps.warn('Developer Index: no editor is active. Open a file, place the cursor, then insert again.');
        return;
      }
      case 'openPassages':
        await this.deps.openMarkdownDocument(m.id, m.title, passagesDocument(m.title, m.url, m.passages, this.versionsOf(m.id)));
        return;
      case 'setKey':
        this.deps.runCommand('devIndex.auth.setKey');
        return;
      case 'getKey':
        this.getKey(m.url);
        return;
      case 'diagnose':
        this.deps.runCommand('devIndex.diagnose');
        return;
      case 'keylessLine':
        this.keylessLine = { text: m.text, actions: m.actions };
        return;
      case 'watch':
        if (this.watchable && this.deps.watches) await this.deps.watches.add(this.watchable);
        else this.deps.warn('Developer Index: run a search scoped to a dependency or a repository first, then watch it for a fix.');
        return;
      case 'watchAction':
        await this.deps.watches?.act(m.action, m.id);
        return;
      case 'log':
        // One line per entry: the view cannot forge further Output lines.
        this.deps.log(`search view: ${m.message.replace(/[\r\n\u2028\u2029]+/g, ' ')}`);
        return;
    }
  }

  /**
   * devIndex.search.* settings changed: a ready view gets the new defaults (fields still at the old ones
   * follow). Sent at once, with the repositories read at ready, so it is ordered before any search that follows.
   */
  settingsChanged(): void {
    const next = this.deps.defaults();
    // The view's fields still at the old defaults follow the new ones (followDefaults in the webview);
    // the scope kept here does the same at once, so a search run right after uses them.
    const old = this.lastDefaults;
    if (old && this.viewScope) this.viewScope = followScopeDefaults(this.viewScope, old, next);
    this.lastDefaults = next;
    if (this.ready) this.send({ type: 'init', defaults: next, workspaceRepos: this.repos });
  }

  private async workspaceRepos(): Promise<string[]> {
    try {
      return await this.deps.workspaceRepos();
    } catch (e) {
      this.deps.log(`search view: could not read the workspace repositories: ${e instanceof Error ? e.message : String(e)}`);
      return [];
    }
  }

  private async onReady(pendingRequestId: string | undefined, scope: SearchParams | undefined): Promise<void> {
    if (scope) { this.viewScope = scope; this.shown = scope; }
    this.readying += 1;
    const workspaceRepos = await this.workspaceRepos(); // never throws: a failure is logged and reads as none
    this.readying -= 1;
    this.repos = workspaceRepos;
    this.ready = true;
    this.lastDefaults = this.deps.defaults();
    this.send({ type: 'init', defaults: this.lastDefaults, workspaceRepos });
    await this.sendKeyState();
    this.watchesChanged();
    const backlog = this.backlog;
    this.backlog = [];
    const delivered = new Set(backlog.map((m) => ('requestId' in m ? m.requestId : '')));
    for (const m of backlog) this.send(m);
    if (pendingRequestId && !delivered.has(pendingRequestId)) {
      if (this.current?.requestId === pendingRequestId) this.send({ type: 'searchStarted', requestId: pendingRequestId, params: this.viewScope ?? { query: '' } });
      else if (this.last?.requestId === pendingRequestId) this.send(this.last.message);
      else this.send({ type: 'searchError', requestId: pendingRequestId, error: { message: 'The search was interrupted (the window reloaded or the extension restarted). Run it again.', action: 'retry' } });
    }
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const w of waiters) w();
  }

  private finish(requestId: string, message: ToWebview, fromCommand: boolean): void {
    if (requestId === this.latestRequestId) this.last = { requestId, message };
    this.deliver(message, fromCommand);
  }

  private deliver(message: ToWebview, fromCommand: boolean): void {
    if (this.ready) this.postNow(message);
    else if (fromCommand) this.backlog.push(message);
  }

  /** The installed dependencies whose repositories a search is scoped to. */
  private installedFor(params: SearchParams): InstalledDependency[] {
    return (params.repos ?? []).map((r) => this.installed.get(r.toLowerCase())).filter((d): d is InstalledDependency => !!d);
  }

  /** The badges the last outcome showed for a result (Open as Markdown keeps them). */
  private versionsOf(id: string): ReadonlyArray<{ label: string; sentence: string }> {
    const m = this.last?.message;
    return (m?.type === 'results' ? m.outcome.results.find((r) => r.id === id)?.versions : undefined) ?? [];
  }

  private async runSearch(requestId: string, params: SearchParams, opts: { fromCommand: boolean; notice?: string; keyless?: boolean }): Promise<void> {
    // A new search supersedes the one in flight: its result would only be thrown away.
    this.current?.abort.abort();
    this.current = undefined;
    this.latestRequestId = requestId;
    this.viewScope = params;
    const abort = new AbortController();
    this.current = { requestId, abort };
    const installed = this.installedFor(params);
    this.deliver({ type: 'searchStarted', requestId, params, ...(opts.notice ? { notice: opts.notice } : {}), ...(opts.keyless ? { keyless: true } : {}), ...(installed.length ? { installed: installed.map(viewInstalled) } : {}) }, opts.fromCommand);
    const started = Date.now();
    try {
      const { response, notes } = await this.deps.search(params, {
        signal: abort.signal,
        ...(opts.keyless ? { keyless: true } : {}),
        onRetry: (e) => {
          if (this.current?.requestId !== requestId) return;
          this.send({ type: 'retrying', requestId, attempt: e.attempt, maxAttempts: e.maxAttempts, delayMs: e.delayMs, reason: e.reason, ...(e.status !== undefined ? { status: e.status } : {}) });
        },
      });
      if (abort.signal.aborted) {
        this.finish(requestId, { type: 'searchCancelled', requestId }, opts.fromCommand);
        return;
      }
      this.finish(requestId, { type: 'results', requestId, outcome: withVersions(toOutcome(params, response, notes, Date.now() - started), installed) }, opts.fromCommand);
      if (requestId === this.latestRequestId) {
        // A search that went through ends the keyless quota's line, and its link with it (as the view does).
        this.signupUrl = undefined;
        this.watchable = params.repos?.length && response.results.length ? { params, installed, response } : undefined;
        this.watchesChanged();
      }
    } catch (e) {
      const error = abort.signal.aborted ? 'aborted' : toViewError(e);
      if (error === 'aborted') this.finish(requestId, { type: 'searchCancelled', requestId }, opts.fromCommand);
      else {
        this.deps.log(`search view: search failed: ${error.message}`);
        if (error.keyless) this.signupUrl = error.keyless.signupUrl;
        this.finish(requestId, { type: 'searchError', requestId, error }, opts.fromCommand);
      }
    } finally {
      if (this.current?.requestId === requestId) this.current = undefined;
    }
  }
}
