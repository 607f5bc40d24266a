import * as vscode from 'vscode';
import type { SearchParams } from '../api/params';
import { config } from '../config';
import { mayRunGitIn, restrictedModeWords } from './gitTrust';
import { SearchHistory, describeFilters, relativeTime, type HistoryEntry } from './history';
import { scopeFromRemotes } from './repoSlug';
import { OPEN_DOCUMENT_COMMAND, RESULT_SCHEME, ResultDocuments } from './resultDocuments';
import { describeScope } from './scope';
import { selectionToQuery } from './selectionQuery';
import { DEPENDENCY_PASSAGES } from '../api/params';
import type { InstalledDependency } from '../versions/versionCompare';

/** The `installed` a dependency search passes along its request (plain data from another command: checked). */
function installedOf(v: unknown): InstalledDependency[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const ok = v
    .slice(0, 20)
    .filter(
      (d): d is InstalledDependency =>
        !!d &&
        typeof d === 'object' &&
        ['npm', 'go', 'cargo', 'pypi'].includes((d as InstalledDependency).ecosystem) &&
        typeof (d as InstalledDependency).name === 'string' &&
        typeof (d as InstalledDependency).slug === 'string' &&
        ((d as InstalledDependency).version === undefined || typeof (d as InstalledDependency).version === 'string'),
    );
  return ok.length
    ? ok.map((d) => ({
        ecosystem: d.ecosystem,
        name: d.name,
        slug: d.slug,
        ...(d.version ? { version: d.version } : {}),
      }))
    : undefined;
}
import { pickFolder, remotesOf } from './workspaceRepos';
import type { Host } from '../host/host';
import { grouped } from '../words/duration';

/** What `Search in This Repository…` did (returned to callers such as tests; the user sees messages). */
type RepoScopeOutcome =
  | { kind: 'searched'; repos: string[] }
  | { kind: 'unsupported-host'; hosts: string[] }
  | { kind: 'no-repository'; restricted?: true }
  | { kind: 'no-workspace' }
  | { kind: 'cancelled' };

type ViewCommand = 'clear' | 'refresh' | 'expandAll' | 'collapseAll';

/** What the commands need from the search session (src/search/session/searchSession.ts, from the core bundle). */
interface SearchSessionPort {
  /** `keep`: with the scope the view shows; `exact`: the request is the whole search. Shows the view; resolves when it finished. */
  search(
    request: { query: string } & Partial<SearchParams>,
    opts: { scope: 'keep' | 'exact'; notice?: string; installed?: InstalledDependency[] },
  ): Promise<void>;
  /** The filters the view shows now; undefined before it ever loaded. */
  scope(): SearchParams | undefined;
}

/** What the view's title commands need from the Search view (SearchViewProvider). */
interface SearchViewPort {
  command(command: ViewCommand): void;
}

function selectedText(): string | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const text = editor.selections.map((s) => editor.document.getText(s)).join(' ');
  return text.trim() ? text : undefined;
}

async function askQuery(history: SearchHistory, title: string, prefill?: string): Promise<string | undefined> {
  const sel = selectedText();
  const value = prefill ?? (sel ? selectionToQuery(sel).query : history.lastQuery()) ?? '';
  const q = await vscode.window.showInputBox({
    title,
    prompt: 'A question or search phrase: documentation, issues, pull requests and READMEs are searched.',
    value,
    valueSelection: [0, value.length],
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : 'Type something to search for'),
  });
  return q?.trim() || undefined;
}

/**
 * The palette entry points. Each also takes arguments so tests and other commands can run them without
 * prompts: `search.run(query | request)`, `search.selection()`, `search.repository({ folder?, query? })`,
 * `search.history(index)`. One-off commands and the view's scope: see docs/USAGE.md "Scope of one-off searches".
 */
export function registerSearchCommands(
  context: vscode.ExtensionContext,
  session: () => SearchSessionPort,
  view: () => SearchViewPort,
  history: SearchHistory,
  /** The entry's host: the remotes of Search in This Repository's folder. */
  host: () => Host,
): void {
  const reg = (id: string, fn: (...a: unknown[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, fn));
  const documents = new ResultDocuments();
  context.subscriptions.push(documents, vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, documents));

  /** The scope a query-only search will use, for the input box title: nothing applies that is not shown. */
  const scopeTitle = (base: string): string => {
    const scope = session().scope();
    const words = scope ? describeScope(scope, config.searchDefaults()) : '';
    return words ? `${base} (with ${words})` : base;
  };

  // `given`: a query string (searched with the view's scope), or a request `{ query, repos?, sources?, ... }`
  // that is the whole search (other features and tests run scoped searches this way).
  reg('devIndex.search.run', async (given?: unknown) => {
    if (given && typeof given === 'object' && typeof (given as { query?: unknown }).query === 'string') {
      const { installed, ...request } = given as { query: string; installed?: unknown } & Partial<SearchParams>;
      if (request.query.trim()) {
        const deps = installedOf(installed);
        // A dependency search asks for DEPENDENCY_PASSAGES passages at least, as the CLI and the tools do: with the
        // default one, the view's summary said "none mentions a newer fix" of a search whose #472 states it in a later comment.
        const passages =
          deps && request.passages === undefined
            ? { passages: Math.max(config.searchDefaults().passages, DEPENDENCY_PASSAGES) }
            : {};
        await session().search(
          { ...request, ...passages, query: request.query.trim() },
          { scope: 'exact', ...(deps ? { installed: deps } : {}) },
        );
        return;
      }
    }
    const query =
      typeof given === 'string' && given.trim()
        ? given.trim()
        : await askQuery(history, scopeTitle('Developer Index: Search'));
    if (!query) return;
    await session().search({ query }, { scope: 'keep' });
  });

  reg('devIndex.search.selection', async () => {
    const text = selectedText();
    if (!text) {
      void vscode.window.showInformationMessage('Developer Index: select some text in the editor to search for it.');
      return;
    }
    const sq = selectionToQuery(text);
    if (!sq.query) return;
    const notice = sq.cut
      ? `The selection was ${grouped(sq.originalLength)} characters; the search uses its first ${sq.query.length}.`
      : undefined;
    await session().search({ query: sq.query }, { scope: 'keep', ...(notice ? { notice } : {}) });
  });

  reg('devIndex.search.repository', async (arg?: unknown): Promise<RepoScopeOutcome> => {
    const a = (arg ?? {}) as { folder?: vscode.Uri; query?: string };
    if (!a.folder && !vscode.workspace.workspaceFolders?.length) {
      void vscode.window.showWarningMessage(
        'Developer Index: open a folder that is a git repository to search within it.',
      );
      return { kind: 'no-workspace' };
    }
    const folder = await pickFolder(a.folder);
    if (!folder) return { kind: 'cancelled' };
    const scope = scopeFromRemotes(await remotesOf(folder.uri, host()));
    if (scope.slugs.length === 0) {
      if (scope.unsupported.length) {
        const hosts = [...new Set(scope.unsupported.map((r) => r.host))];
        // Not awaited: the command's outcome does not depend on whether the user ever answers.
        void vscode.window
          .showWarningMessage(
            `Developer Index: "${folder.name}" is hosted on ${hosts.join(', ')}. ` +
              `The developer index covers GitHub repositories only, so it cannot be scoped to this one.`,
            'Search Without Repository Scope',
          )
          .then((choice) => choice && vscode.commands.executeCommand('devIndex.search.run', a.query));
        return { kind: 'unsupported-host', hosts };
      }
      if (folder.uri.scheme === 'file' && !mayRunGitIn(folder.uri.scheme, vscode.workspace.isTrusted)) {
        void vscode.window.showWarningMessage(restrictedModeWords(folder.name));
        return { kind: 'no-repository', restricted: true };
      }
      void vscode.window.showWarningMessage(
        `Developer Index: "${folder.name}" has no git remote pointing at a repository (no repository to scope to).`,
      );
      return { kind: 'no-repository' };
    }
    const query = a.query?.trim() || (await askQuery(history, `Developer Index: Search in ${scope.slugs.join(', ')}`));
    if (!query) return { kind: 'cancelled' };
    await session().search({ query, repos: scope.slugs }, { scope: 'exact' });
    return { kind: 'searched', repos: scope.slugs };
  });

  reg('devIndex.search.history', async (index?: unknown) => {
    const entries = history.entries();
    if (entries.length === 0) {
      void vscode.window.showInformationMessage('Developer Index: no searches yet.');
      return;
    }
    const entry = typeof index === 'number' ? entries[index] : await pickHistory(history);
    if (entry) await session().search(entry.params, { scope: 'exact' });
  });

  reg('devIndex.search.clearHistory', async () => {
    await history.clear();
    vscode.window.setStatusBarMessage('$(check) Developer Index: search history cleared', 3000);
  });
  reg('devIndex.search.clear', () => view().command('clear'));
  reg('devIndex.search.refresh', () => view().command('refresh'));
  reg('devIndex.search.expandAll', () => view().command('expandAll'));
  reg('devIndex.search.collapseAll', () => view().command('collapseAll'));
  reg(OPEN_DOCUMENT_COMMAND, (arg?: unknown) => {
    const a = (arg ?? {}) as { id?: unknown; title?: unknown; markdown?: unknown };
    if (typeof a.id !== 'string' || typeof a.title !== 'string' || typeof a.markdown !== 'string') return undefined;
    return documents.open(a.id, a.title, a.markdown);
  });
}

/** The history picker: relative times, only non-default filters, a remove button per entry, Clear History. */
function pickHistory(history: SearchHistory): Promise<HistoryEntry | undefined> {
  const remove: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('close'), tooltip: 'Remove from History' };
  const clearAll: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('clear-all'), tooltip: 'Clear History' };
  type Item = vscode.QuickPickItem & { entry: HistoryEntry };
  const defaults = config.searchDefaults();
  const items = (): Item[] =>
    history.entries().map((e) => ({
      label: e.params.query,
      description: relativeTime(e.at),
      detail: describeFilters(e.params, defaults) || undefined,
      entry: e,
      buttons: [remove],
    }));
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = 'Developer Index: Search History';
  qp.placeholder = 'Pick a search to run again';
  qp.matchOnDetail = true;
  qp.buttons = [clearAll];
  qp.items = items();
  return new Promise((resolve) => {
    let picked: HistoryEntry | undefined;
    qp.onDidTriggerItemButton(async (e) => {
      await history.remove(e.item.entry.at);
      qp.items = items();
      if (!qp.items.length) qp.hide();
    });
    qp.onDidTriggerButton(async () => {
      await history.clear();
      qp.hide();
    });
    qp.onDidAccept(() => {
      picked = qp.selectedItems[0]?.entry;
      qp.hide();
    });
    qp.onDidHide(() => {
      qp.dispose();
      resolve(picked);
    });
    qp.show();
  });
}
