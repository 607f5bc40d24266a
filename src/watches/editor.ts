// Core side (dist/core.js): Watch for a Fix in the editor. The shell around WatchService: the
// shared storage (globalState), the client's search, the folder's installed versions, notifications with
// their actions, a manifest and lockfile watcher per watched folder, and the Search view's Watched list.
import * as vscode from 'vscode';
import { globalStateRecords } from '../storage/globalStateRecords';
import type { SearchParams } from '../api/params';
import type { SearchResponse } from '../api/schemas';
import { systemTimers } from '../agents/jobPoller';
import { config } from '../config';
import { log } from '../log';
import { resolveDependencies, type FolderResolver } from '../deps/dependencyScope';
import { MANIFEST_GLOB, MANIFEST_NAMES } from '../deps/manifests';
import type { InstalledDependency } from '../versions/versionCompare';
import { MAX_WATCHES, type Watch } from '../deps/watch';
import type { ViewWatch, ViewWatches } from '../webview/protocol';
import type { WatchableSearch, WatchViewPort } from '../webview/searchController';
import { WatchService, type WatchEvent } from './watcher';
import { newsText, quoted, watchScopeWords } from './watchText';

/** How the feature speaks to the user: a message with buttons, resolving with the one pressed. */
type WatchShow = (level: 'info' | 'warning', text: string, actions: string[]) => Thenable<string | undefined>;

interface WatchPorts {
  search(params: SearchParams, signal: AbortSignal): Promise<SearchResponse>;
  /** Runs a search in the Search view (`devIndex.search.run` with the request and its installed versions). */
  openSearch(params: SearchParams, installed: InstalledDependency[]): Promise<void>;
  /** The last search the view showed that can be watched. */
  watchable(): WatchableSearch | undefined;
  /** The Watched list changed: the view is told. */
  changed(): void;
  /** The host's dependency lookup (installed versions of a watched folder). */
  folderDependencies: FolderResolver;
}

const OPEN_ACTION = 'Open Search';
const REMOVE_ACTION = 'Remove Watch';

export class WatchFeature implements vscode.Disposable {
  readonly service: WatchService;
  private readonly folderWatchers = new Map<string, vscode.Disposable>();
  private readonly disposables: vscode.Disposable[] = [];
  private debounce = new Map<string, ReturnType<typeof setTimeout>>();
  /** Texts shown by notifications, newest last. */
  readonly shown: string[] = [];
  show: WatchShow = (level, text, actions) =>
    level === 'warning'
      ? vscode.window.showWarningMessage(text, ...actions)
      : vscode.window.showInformationMessage(text, ...actions);

  constructor(
    storage: vscode.Memento,
    private readonly ports: WatchPorts,
    opts: { leaseTtlMs?: number; renewMs?: number; intervalMs?: number; settleMs?: number; betweenMs?: number } = {},
  ) {
    this.service = new WatchService({
      storage: globalStateRecords(storage),
      search: (params, signal) => ports.search(params, signal),
      readInstalled: async (folder, names) => {
        const r = await resolveDependencies(ports.folderDependencies, folder, names, {
          maxDependencies: config.maxDependencies(),
        });
        return r.ok ? r.deps.map(({ versionFrom: _from, ...d }) => d) : undefined;
      },
      notify: (e) => void this.notify(e),
      log: (m) => log().info(m),
      timers: systemTimers,
      owner: `${vscode.env.sessionId}-${Math.random().toString(36).slice(2, 8)}`,
      ...opts,
    });
    this.disposables.push(
      this.service.onDidChange(() => {
        this.watchFolders();
        ports.changed();
      }),
    );
  }

  /** Starts the background checks (the lease loop) and the folder watchers. */
  resume(): void {
    this.watchFolders();
    this.service.resume();
  }

  private async notify(e: WatchEvent): Promise<void> {
    const text = newsText(e);
    this.shown.push(text);
    if (this.shown.length > 20) this.shown.shift();
    const actions =
      e.kind === 'news' ? [OPEN_ACTION] : e.kind === 'fixIncluded' ? [REMOVE_ACTION, OPEN_ACTION] : [REMOVE_ACTION];
    const picked = await this.show(e.kind === 'vanished' ? 'warning' : 'info', text, actions);
    if (picked === OPEN_ACTION) await this.open(e.watch.id);
    else if (picked === REMOVE_ACTION) await this.service.remove(e.watch.id);
  }

  /** Opens a watch's search in the Search view; its new results count as seen. */
  async open(id: string): Promise<boolean> {
    const w = this.service.get(id);
    if (!w) return false;
    await this.service.markSeen(id);
    await this.ports.openSearch(w.params, w.installed);
    return true;
  }

  /** Watch for a Fix on the Search view's last search (a result's action, the view's button, the command). */
  async addCurrent(): Promise<Watch | undefined> {
    const s = this.ports.watchable();
    if (!s) {
      void this.show(
        'info',
        'Developer Index: run a search scoped to a dependency or a repository first (Search in a ' +
          "Dependency's Repository…), then watch it for a fix.",
        [],
      );
      return undefined;
    }
    try {
      const started = Date.now();
      const folder = s.installed.length ? await this.folderOf(s.installed) : undefined;
      const found = Date.now();
      const w = await this.service.add(s.params, s.installed, s.response, folder);
      // How long the folder lookup and the storage write took: the e2e tier once saw a watch show more than 15 s late.
      log().info(
        `watch: ${w.id} added in ${Date.now() - started} ms (folder lookup ${found - started} ` +
          `ms, ${folder ? 'a folder found' : 'no folder'})`,
      );
      void vscode.window.setStatusBarMessage(
        `$(eye) Watching ${quoted(w.params.query)} in ${watchScopeWords(w.params, w.installed)}: ` +
          `checked every 6 hours while VS Code is open`,
        5000,
      );
      return w;
    } catch (e) {
      void this.show('warning', `Developer Index: ${e instanceof Error ? e.message : String(e)}`, []);
      return undefined;
    }
  }

  /** Check Now; what it found (also shown as a notification). */
  async checkNow(id: string): Promise<{ news: number; vanished: string[]; fixIncluded?: string; error?: string }> {
    try {
      const r = await this.service.checkNow(id);
      if (!r.news.length && !r.vanished.length && !r.fixIncluded)
        vscode.window.setStatusBarMessage('$(check) Developer Index: nothing new for this watch', 4000);
      return { news: r.news.length, vanished: r.vanished, ...(r.fixIncluded ? { fixIncluded: r.fixIncluded } : {}) };
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      void this.show('warning', `Developer Index: the watch could not be checked: ${error}`, []);
      return { news: 0, vanished: [], error };
    }
  }

  /** The Watched list as the Search view shows it. */
  viewList(current: WatchableSearch | undefined): ViewWatches {
    const watches: ViewWatch[] = this.service.list().map((w) => ({
      id: w.id,
      query: w.params.query,
      scope: watchScopeWords(w.params, w.installed),
      newCount: w.newCount,
      ...(w.lastCheck !== undefined ? { lastCheck: w.lastCheck } : {}),
      ...(this.service.checking.has(w.id) ? { checking: true } : {}),
      ...(w.vanished?.length ? { vanished: w.vanished } : {}),
      ...(w.fixIncluded ? { fixIncluded: w.fixIncluded } : {}),
      ...(w.lastError ? { lastError: w.lastError } : {}),
    }));
    return {
      watches,
      max: MAX_WATCHES,
      ...(current
        ? { canWatch: { query: current.params.query, scope: watchScopeWords(current.params, current.installed) } }
        : {}),
    };
  }

  /** The Search view's side of the Watched list. */
  viewPort(): WatchViewPort {
    return {
      list: (current) => this.viewList(current),
      // The same path as the command (src/watches/register.ts): it also starts this window's background checks,
      // which a watch added from the view did not (the first check waited for the next activation).
      add: async () => {
        await vscode.commands.executeCommand('devIndex.watch.add');
      },
      act: async (action, id) => {
        if (action === 'check') await this.checkNow(id);
        else if (action === 'remove') await this.service.remove(id);
        else await this.open(id);
      },
    };
  }

  /**
   * The folder a dependency search read its versions from: a workspace folder or the project folder of an
   * open file whose dependencies resolve to the same repositories.
   */
  private async folderOf(installed: readonly InstalledDependency[]): Promise<string | undefined> {
    const candidates: string[] = [];
    const add = (p: string | undefined) => {
      if (p && !candidates.includes(p)) candidates.push(p);
    };
    const active = vscode.window.activeTextEditor?.document.uri;
    for (const doc of [active, ...vscode.workspace.textDocuments.map((d) => d.uri)]) {
      if (doc?.scheme === 'file') add(await projectRoot(vscode.Uri.joinPath(doc, '..')));
    }
    for (const f of vscode.workspace.workspaceFolders ?? []) if (f.uri.scheme === 'file') add(f.uri.fsPath);
    for (const folder of candidates.slice(0, 8)) {
      const r = await resolveDependencies(
        this.ports.folderDependencies,
        folder,
        installed.map((d) => d.name),
        { maxDependencies: config.maxDependencies() },
      ).catch(() => undefined);
      if (r?.ok && installed.every((d) => r.deps.some((x) => x.slug.toLowerCase() === d.slug.toLowerCase())))
        return folder;
    }
    return undefined;
  }

  /** One manifest and lockfile watcher per watched folder: a change compares the watches again with the installed version. */
  private watchFolders(): void {
    const folders = new Set(
      this.service
        .list()
        .map((w) => w.folder)
        .filter((f): f is string => !!f),
    );
    for (const [f, d] of this.folderWatchers)
      if (!folders.has(f)) {
        d.dispose();
        this.folderWatchers.delete(f);
      }
    for (const f of folders) {
      if (this.folderWatchers.has(f)) continue;
      const watcher = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(vscode.Uri.file(f), MANIFEST_GLOB),
      );
      const changed = () => {
        clearTimeout(this.debounce.get(f));
        // An install writes several files: one compare once they have settled.
        this.debounce.set(
          f,
          setTimeout(() => {
            this.debounce.delete(f);
            void this.service.installedChanged(f);
          }, 700),
        );
      };
      this.folderWatchers.set(
        f,
        vscode.Disposable.from(
          watcher,
          watcher.onDidChange(changed),
          watcher.onDidCreate(changed),
          watcher.onDidDelete(changed),
        ),
      );
    }
  }

  /** Resolves once the watch list's last writes have landed (deactivate waits for it). */
  dispose(): Promise<void> {
    for (const t of this.debounce.values()) clearTimeout(t);
    this.debounce = new Map();
    for (const d of this.folderWatchers.values()) d.dispose();
    this.folderWatchers.clear();
    for (const d of this.disposables) d.dispose();
    return this.service.dispose();
  }
}

/** The nearest folder at or above `dir` with a manifest (at most 8 levels up). */
async function projectRoot(dir: vscode.Uri): Promise<string | undefined> {
  let d = dir;
  for (let i = 0; i < 8; i++) {
    for (const name of MANIFEST_NAMES) {
      try {
        await vscode.workspace.fs.stat(vscode.Uri.joinPath(d, name));
        return d.fsPath;
      } catch {
        /* not here */
      }
    }
    const up = vscode.Uri.joinPath(d, '..');
    if (up.path === d.path) return undefined;
    d = up;
  }
  return undefined;
}
