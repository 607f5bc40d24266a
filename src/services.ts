// Core side (dist/core.js): the service client and the features that need it, built on first use.
import * as vscode from 'vscode';
import { DevIndexClient, type RequestLogEntry } from './api/client';
import { validateSearchParams } from './api/params';
import type { ApiKeyStore } from './auth/apiKeyStore';
import { config } from './config';
import { log } from './log';
import type { SearchHistory } from './search/history';
import { OPEN_DOCUMENT_COMMAND } from './search/resultDocuments';
import { SearchService } from './search/session/searchService';
import { SearchSession, type SessionDeps } from './search/session/searchSession';
import { scopeFromRemotes } from './search/repoSlug';
import { remotesOf } from './search/workspaceRepos';
import type { FolderResolver } from './deps/dependencyScope';
import type { Host } from './host/host';
import { externalUrl } from './webview/linkPolicy';
import { SearchViewProvider } from './webview/searchViewProvider';
import { WatchFeature } from './watches/editor';
import { ORIGINS } from './api/version';
import type { TestHooks } from './testHooks/hooks';
import { NoticeBoard, noticeParts, noticeWords, requestIdWords, type DeprecationNotice } from './api/notices';

function logLine(e: RequestLogEntry): string {
  const outcome = e.status !== undefined ? String(e.status) : 'no response';
  // Every request's External-Request-Id (one per attempt), so a failure a user reports can be found in the service's log.
  const ids = e.requestIds.length ? ` · id ${e.requestIds.join(', ')}` : '';
  return (
    `${e.method} ${e.path} ${outcome} · ${e.attempts} attempt${e.attempts === 1 ? '' : 's'} ` +
    `· ${Math.round(e.ms)} ms${ids}${e.error ? ` · ${e.error}` : ''}`
  );
}

/** globalState: per endpoint, the UTC day its deprecation notice was last shown (told once per endpoint and day, in every window). */
const NOTICES_SHOWN_KEY = 'devIndex.noticesShown';

export class Services implements vscode.Disposable {
  private client: DevIndexClient | undefined;
  /** The 401 box's Search Without Key: the same settings, never a key. */
  private keyless: DevIndexClient | undefined;
  private view: SearchViewProvider | undefined;
  /** The search pipeline the view, the search commands and other features share (src/search/session/). */
  private session: SearchSession | undefined;
  private watchFeature: WatchFeature | undefined;
  readonly search: SearchService;
  private readonly keySub: vscode.Disposable;
  /** Deprecation notices not yet told to a language model (the tools add them to their next answer). */
  private readonly notices = new NoticeBoard();

  constructor(
    /** The entry's host (src/core.ts, src/web/core.ts): transports and git remotes. */
    readonly host: Host,
    /** The entry's dependency lookup (the resolver over node:fs, or manifests through workspace.fs). */
    readonly folderDependencies: FolderResolver,
    private readonly extensionUri: vscode.Uri,
    private readonly keys: ApiKeyStore,
    history: SearchHistory,
    private readonly globalState?: vscode.Memento,
    /** A test build's (src/testHooks/hooks.ts): shorter durations, and where links and notices go under a host tier. */
    private readonly hooks?: TestHooks,
  ) {
    this.search = new SearchService((o) => (o?.keyless ? this.getKeylessClient() : this.getClient()), history);
    // onDidChange covers this window's commands and other windows' changes to the shared secret storage.
    this.keySub = keys.onDidChange(() => void this.view?.keyChanged());
  }

  /** One client per configuration; the key is read per request, so a key change needs no rebuild. */
  getClient(): DevIndexClient {
    this.client ??= this.buildClient(() => this.keys.get());
    return this.client;
  }

  /** A client that never sends the key (Search Without Key after a 401), behind the same proxy and CAs. */
  getKeylessClient(): DevIndexClient {
    this.keyless ??= this.buildClient(() => undefined);
    return this.keyless;
  }

  /** Every client the editor makes: the same address, network options and plain-http guard; only the key differs. */
  private buildClient(apiKey: () => Promise<string | undefined> | undefined): DevIndexClient {
    return new DevIndexClient({
      baseUrl: config.baseUrl(),
      apiKey,
      timeoutMs: config.requestTimeoutMs(),
      maxRetryAfterMs: config.maxRetryAfterMs(),
      origin: ORIGINS.vscode,
      transport: this.host.createTransport({ network: config.network() }),
      allowInsecureHttp: config.allowInsecureHttp(),
      onLog: (e) => (e.error ? log().warn(logLine(e)) : log().info(logLine(e))),
      onNotice: (n) => this.onNotice(n),
      ...(this.hooks?.backoff ? { backoff: this.hooks.backoff } : {}),
    });
  }

  /** Deprecation notices and service warnings not yet told to a model (editor tools). */
  takeNotices(): DeprecationNotice[] {
    return this.notices.take();
  }

  /**
   * A response said its endpoint is deprecated (or warned): the answer is shown as usual; the log has it every
   * time, the user a message once per endpoint and UTC day (across windows: globalState), a model its next tool answer.
   */
  private onNotice(n: DeprecationNotice): void {
    const now = Date.now();
    log().warn(`service notice: ${noticeWords(n, now)}${n.requestId ? ` (${requestIdWords(n.requestId)})` : ''}`);
    this.notices.add(n, now);
    const day = Math.floor(now / 86_400_000);
    const shown = { ...(this.globalState?.get<Record<string, number>>(NOTICES_SHOWN_KEY) ?? this.shownToday) };
    if (shown[n.endpoint] === day) return;
    // Only today's entries are kept: the record stays as small as the endpoints that are deprecated.
    const next: Record<string, number> = { [n.endpoint]: day };
    for (const [k, v] of Object.entries(shown)) if (v === day && Object.keys(next).length < 50) next[k] = v;
    this.shownToday = next;
    void this.globalState?.update(NOTICES_SHOWN_KEY, next);
    const p = noticeParts(n, now);
    const successorWords = p.successor ? ` Its ${p.successor}.` : '';
    const saidWords = p.said.length ? ` The service says: ${p.said.map((s) => `“${s}”`).join(' ')}` : '';
    const text =
      `Developer Index: ${[p.headline, p.sunset].filter(Boolean).join('; ')}.${successorWords}${saidWords} ` +
      `Its answers are still shown as usual.`;
    const successor = n.successor;
    if (this.hooks) {
      this.hooks.noticesShown.push(text);
      if (this.hooks.noticesShown.length > 20) this.hooks.noticesShown.shift();
    }
    void vscode.window.showWarningMessage(text, ...(successor ? ['Open Successor'] : [])).then((choice) => {
      if (choice === 'Open Successor' && successor) void this.openExternalChecked(successor);
    });
  }

  /** Without globalState (the web tier's tests), this window's own record. */
  private shownToday: Record<string, number> = {};

  /** The second gate before a link leaves the editor: the same policy the webview applies (src/webview/linkPolicy.ts). */
  async openExternalChecked(url: string): Promise<boolean> {
    const safe = externalUrl(url);
    if (!safe) {
      log().warn('refused to open a link that is not an absolute http, https or mailto URL');
      return false;
    }
    const open = this.hooks?.opener ?? ((u: string) => vscode.env.openExternal(vscode.Uri.parse(u, true)));
    return Boolean(await open(safe));
  }

  /** Called when devIndex.search.* settings change; a view not created yet reads them when it is. */
  searchSettingsChanged(): void {
    this.view?.settingsChanged();
  }

  /** Called when a setting the client depends on changes: the next request uses the new values. */
  resetClient(): void {
    const old = [this.client, this.keyless];
    this.client = undefined;
    this.keyless = undefined;
    for (const c of old) void c?.close();
  }

  /** Watch for a Fix (the watches live in globalState, shared by every window). */
  watches(): WatchFeature {
    if (!this.globalState) throw new Error("watches need the extension's global storage");
    this.watchFeature ??= new WatchFeature(
      this.globalState,
      {
        // Searches only (never an agent run), through the same client, key and retry rules as the view's.
        search: (params, signal) => this.getClient().search(params, { signal }),
        openSearch: async (params, installed) => {
          await vscode.commands.executeCommand('devIndex.search.run', {
            ...params,
            ...(installed.length ? { installed } : {}),
          });
        },
        watchable: () => this.session?.watchableSearch(),
        changed: () => this.view?.watchesChanged(),
        folderDependencies: this.folderDependencies,
      },
      this.hooks?.watch,
    );
    return this.watchFeature;
  }

  /** The search session; the Search view (which shows its searches) is created with it. */
  searchSession(): SearchSession {
    this.searchView();
    return this.session!;
  }

  searchView(): SearchViewProvider {
    if (this.view) return this.view;
    const sessionDeps: SessionDeps = {
      search: (params, opts) => this.search.search(params, opts),
      validate: (params) => {
        const r = validateSearchParams(params);
        return r.ok ? [] : r.issues;
      },
      defaults: () => config.searchDefaults(),
      log: (line) => log().info(line),
    };
    const session = (this.session ??= new SearchSession(sessionDeps));
    this.view = new SearchViewProvider(
      this.extensionUri,
      {
        ...sessionDeps,
        ...(this.globalState ? { watches: this.watches().viewPort() } : {}),
        workspaceRepos: () => workspaceSlugs(this.host),
        hasKey: async () => (await this.keys.get()) !== undefined,
        runCommand: (id) => void vscode.commands.executeCommand(id),
        openExternal: (url) => void this.openExternalChecked(url),
        insertAtCursor: (text) => insertAtCursor(text),
        copy: (text) => Promise.resolve(vscode.env.clipboard.writeText(text)),
        // A read-only document on the extension's own scheme (src/search/resultDocuments.ts), registered at activation.
        openMarkdownDocument: async (id, title, markdown) => {
          await vscode.commands.executeCommand(OPEN_DOCUMENT_COMMAND, { id, title, markdown });
        },
        status: (message) => {
          vscode.window.setStatusBarMessage(`$(check) ${message}`, 3000);
        },
        warn: (message) => void vscode.window.showWarningMessage(message),
      },
      session,
    );
    return this.view;
  }

  /** Resolves once the watches' last writes have landed (deactivate waits for it). */
  dispose(): Promise<void> {
    this.keySub.dispose();
    const watches = this.watchFeature?.dispose();
    this.view?.dispose();
    this.resetClient();
    return watches ?? Promise.resolve();
  }
}

async function insertAtCursor(text: string): Promise<boolean> {
  const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
  if (!editor) return false;
  return editor.edit((b) => {
    for (const s of editor.selections) b.replace(s, text);
  });
}

async function workspaceSlugs(host: Host): Promise<string[]> {
  const out: string[] = [];
  for (const f of vscode.workspace.workspaceFolders ?? []) {
    for (const s of scopeFromRemotes(await remotesOf(f.uri, host)).slugs) if (!out.includes(s)) out.push(s);
  }
  return out;
}
