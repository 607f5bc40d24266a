/**
 * The `devIndex.search` webview view (wired from the core bundle: this file pulls in zod through
 * protocol.ts). Searches started by commands run in the search session (src/search/session/), which
 * reveals the view through this provider; the view shows the exact params and the outcome.
 * No retainContextWhenHidden: the webview keeps its state with getState/setState.
 */
import * as vscode from 'vscode';
import { buildSearchHtml } from './html';
import { SearchController, type SearchViewDeps, type WatchableSearch } from './searchController';
import type { ToWebview, ViewCommand } from './protocol';
import type { SearchSession } from '../search/session/searchSession';

export type { SearchViewDeps } from './searchController';

export class SearchViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'devIndex.search';

  private view: vscode.WebviewView | undefined;
  private readonly controller: SearchController;
  private viewDisposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    deps: SearchViewDeps,
    session: SearchSession,
  ) {
    this.controller = new SearchController(deps, () => undefined, session);
    // A command's search (SearchSession.search) reveals the view, then waits for it to say ready.
    this.controller.revealWith(async () => {
      if (this.view) this.view.show(true);
      else await vscode.commands.executeCommand(`${SearchViewProvider.viewId}.focus`);
    });
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
    this.controller.attach(post, () => view.visible);
    this.viewDisposables.push(
      view.webview.onDidReceiveMessage((m: unknown) => this.controller.receive(m)),
      // Hidden, the webview's document is destroyed (no retainContextWhenHidden); shown again it reloads
      // and says ready. Until then posts would be lost, so fills queue and the last outcome is re-sent.
      view.onDidChangeVisibility(() => {
        if (!view.visible) this.controller.detach();
      }),
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

  /** The search Watch for a Fix saves (the last one with a repository scope and results). */
  watchableSearch(): WatchableSearch | undefined {
    return this.controller.watchableSearch();
  }

  /** The Watched list changed. */
  watchesChanged(): void {
    this.controller.watchesChanged();
  }

  /** A view title command: Clear, Refresh, Expand All, Collapse All. */
  command(command: ViewCommand): void {
    this.controller.command(command);
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
