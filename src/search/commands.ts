import * as vscode from 'vscode';
import type { SearchParams } from '../api/params';
import { SearchHistory, describeFilters } from './history';
import { scopeFromRemotes } from './repoSlug';
import { selectionToQuery } from './selectionQuery';
import { pickFolder, remotesOf } from './workspaceRepos';

/** What `Search in This Repository…` did (returned to callers such as tests; the user sees messages). */
export type RepoScopeOutcome =
  | { kind: 'searched'; repos: string[] }
  | { kind: 'unsupported-host'; hosts: string[] }
  | { kind: 'no-repository' }
  | { kind: 'no-workspace' }
  | { kind: 'cancelled' };

/** What the commands need from the Search view: fill it and run. */
export interface SearchViewPort {
  show(request: { query: string } & Partial<SearchParams>, opts?: { run?: boolean; notice?: string }): Promise<void>;
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
    validateInput: (v) => (v.trim() ? undefined : 'query must be at least 1 character'),
  });
  return q?.trim() || undefined;
}

/**
 * The palette entry points. Each also takes arguments so tests and other commands can run them without
 * prompts: `search.run(query)`, `search.selection()`, `search.repository({ folder?, query? })`, `search.history(index)`.
 */
export function registerSearchCommands(context: vscode.ExtensionContext, view: SearchViewPort, history: SearchHistory): void {
  const reg = (id: string, fn: (...a: unknown[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, fn));

  // `given`: a query string, or a request `{ query, repos?, sources?, ... }` (other features and tests
  // run scoped searches this way; the view validates the request like one the user typed).
  reg('devIndex.search.run', async (given?: unknown) => {
    if (given && typeof given === 'object' && typeof (given as { query?: unknown }).query === 'string') {
      const request = given as { query: string } & Partial<SearchParams>;
      if (request.query.trim()) {
        await view.show({ ...request, query: request.query.trim() }, { run: true });
        return;
      }
    }
    const query = typeof given === 'string' && given.trim() ? given.trim() : await askQuery(history, 'Developer Index: Search');
    if (!query) return;
    await view.show({ query }, { run: true });
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
      ? `The selection was ${sq.originalLength.toLocaleString('en-US')} characters; the search uses its first ${sq.query.length}.`
      : undefined;
    if (notice) void vscode.window.showInformationMessage(`Developer Index: ${notice}`);
    await view.show({ query: sq.query }, { run: true, ...(notice ? { notice } : {}) });
  });

  reg('devIndex.search.repository', async (arg?: unknown): Promise<RepoScopeOutcome> => {
    const a = (arg ?? {}) as { folder?: vscode.Uri; query?: string };
    if (!a.folder && !vscode.workspace.workspaceFolders?.length) {
      void vscode.window.showWarningMessage('Developer Index: open a folder that is a git repository to search within it.');
      return { kind: 'no-workspace' };
    }
    const folder = await pickFolder(a.folder);
    if (!folder) return { kind: 'cancelled' };
    const scope = scopeFromRemotes(await remotesOf(folder.uri));
    if (scope.slugs.length === 0) {
      if (scope.unsupported.length) {
        const hosts = [...new Set(scope.unsupported.map((r) => r.host))];
        // Not awaited: the command's outcome does not depend on whether the user ever answers.
        void vscode.window.showWarningMessage(
          `Developer Index: "${folder.name}" is hosted on ${hosts.join(', ')}. The developer index covers GitHub repositories only, so it cannot be scoped to this one.`,
          'Search Without Repository Scope',
        ).then((choice) => choice && vscode.commands.executeCommand('devIndex.search.run', a.query));
        return { kind: 'unsupported-host', hosts };
      }
      void vscode.window.showWarningMessage(`Developer Index: "${folder.name}" has no git remote pointing at a repository (no repository to scope to).`);
      return { kind: 'no-repository' };
    }
    const query = a.query?.trim() || await askQuery(history, `Developer Index: Search in ${scope.slugs.join(', ')}`);
    if (!query) return { kind: 'cancelled' };
    await view.show({ query, repos: scope.slugs }, { run: true });
    return { kind: 'searched', repos: scope.slugs };
  });

  reg('devIndex.search.history', async (index?: unknown) => {
    const entries = history.entries();
    if (entries.length === 0) {
      void vscode.window.showInformationMessage('Developer Index: no searches yet.');
      return;
    }
    let entry = typeof index === 'number' ? entries[index] : undefined;
    if (!entry) {
      const pick = await vscode.window.showQuickPick(
        entries.map((e) => ({ label: e.params.query, description: new Date(e.at).toLocaleString(), detail: describeFilters(e.params) || undefined, entry: e })),
        { title: 'Developer Index: Search History', placeHolder: 'Pick a search to run again', matchOnDetail: true },
      );
      entry = pick?.entry;
    }
    if (entry) await view.show(entry.params, { run: true });
  });
}
