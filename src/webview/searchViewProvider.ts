/**
 * The `devIndex.search` webview view.
 *
 * Interface (wire it from the core bundle: this file pulls in zod through protocol.ts):
 *
 *   new SearchViewProvider(extensionUri: vscode.Uri, deps: SearchViewDeps)
 *   SearchViewProvider.viewId === 'devIndex.search'
 *   provider.show(request: { query: string; repos?: string[] } & Partial<SearchParams>,
 *                 opts?: { run?: boolean (default true); notice?: string }): Promise<void>
 *     Reveals the view and fills the query. A bare query keeps the filters the user set in the view;
 *     a request naming any filter (repos, a history entry) replaces them all (unnamed ones reset to
 *     the defaults). `notice` is shown above the results (e.g. "the selection was cut").
 *   provider.keyChanged(): re-reads hasKey() and updates the view's keyless notice.
 *   provider.dispose(): cancels the search in flight.
 *
 *   interface SearchViewDeps {
 *     search(params, { signal, onRetry }): Promise<{ response: SearchResponse; notes: CoverageNote[] }>;
 *     validate(params): ParamIssue[];            // validateSearchParams' issues, [] when valid
 *     workspaceRepos(): Promise<string[]>;       // owner/repo slugs of the workspace
 *     defaults(): { k; passages; types };        // devIndex.* settings
 *     hasKey(): Promise<boolean>;                // an API key is set (keyless searches say so)
 *     runCommand(id: 'devIndex.auth.setKey'): void;
 *     openExternal(url): void;                   // only http/https/mailto reach it (checked twice)
 *     insertAtCursor(text): Promise<boolean>;    // false: no active editor
 *     copy(text): Promise<void>;
 *     openMarkdownDocument(title, markdown): Promise<void>;
 *     log(line): void;
 *   }
 *
 * Registration: vscode.window.registerWebviewViewProvider(SearchViewProvider.viewId, provider)
 * (no retainContextWhenHidden: the webview keeps its state with getState/setState).
 */
import * as vscode from 'vscode';
import { buildSearchHtml } from './html';
import { SearchController, type SearchViewDeps, type ShowOptions, type ShowRequest } from './searchController';
import type { ToWebview } from './protocol';

export type { SearchViewDeps, ShowOptions, ShowRequest } from './searchController';

export class SearchViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'devIndex.search';

  private view: vscode.WebviewView | undefined;
  private readonly controller: SearchController;
  private viewDisposables: vscode.Disposable[] = [];

  constructor(private readonly extensionUri: vscode.Uri, deps: SearchViewDeps) {
    this.controller = new SearchController(deps, () => undefined);
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.disposeView();
    this.view = view;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = {
      enableScripts: true,
      enableCommandUris: false,
      // The script, the codicon font and css (dist/), and the stylesheet (media/); .vscodeignore ships exactly these.
      localResourceRoots: [dist, media],
    };
    const post = (m: ToWebview) => view.webview.postMessage(m);
    this.controller.attach(post);
    this.viewDisposables.push(
      view.webview.onDidReceiveMessage((m: unknown) => this.controller.receive(m)),
      // Hidden, the webview's document is destroyed (no retainContextWhenHidden); shown again it reloads
      // and says ready. Until then posts would be lost, so fills queue and the last outcome is re-sent.
      view.onDidChangeVisibility(() => { if (!view.visible) this.controller.detach(); }),
      view.onDidDispose(() => {
        if (this.view === view) {
          this.view = undefined;
          this.controller.detach();
          this.disposeView();
        }
      }),
    );
    view.webview.html = buildSearchHtml(view.webview, {
      script: vscode.Uri.joinPath(dist, 'webview.js'),
      style: vscode.Uri.joinPath(media, 'webview.css'),
      codicons: vscode.Uri.joinPath(dist, 'codicon.css'),
    });
  }

  async show(request: ShowRequest, opts?: ShowOptions): Promise<void> {
    // Queued until the webview says ready, so a fill is never lost to a view that is still loading.
    this.controller.fill(request, opts);
    if (this.view) this.view.show(true);
    else await vscode.commands.executeCommand(`${SearchViewProvider.viewId}.focus`);
  }

  /** Call when the API key changes (ApiKeyStore.onDidChange): the view shows or hides its keyless notice. */
  keyChanged(): Promise<void> {
    return this.controller.keyChanged();
  }

  /** Call when devIndex.search.* settings change: the open view takes the new defaults without a reload. */
  settingsChanged(): void {
    this.controller.settingsChanged();
  }

  dispose(): void {
    this.controller.dispose();
    this.disposeView();
  }

  private disposeView(): void {
    for (const d of this.viewDisposables) d.dispose();
    this.viewDisposables = [];
  }
}
