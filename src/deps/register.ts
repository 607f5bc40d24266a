// Activation side (dist/extension.js): the code action and hover providers and the commands, registered
// at activation. Everything they call (resolver, noise removal, pick) is in dist/features.js, loaded on first
// use; until it is, the providers answer at once without a scope (the command still scopes when run).
import * as vscode from 'vscode';
import { DEPS_COMMANDS } from './commandIds';
import { config } from '../config';
import type { DependencySearch } from './editor';
import type { ProblemArgs } from './packageRefs';

export { DEPS_COMMANDS } from './commandIds';

const HOVER_LANGUAGES = ['typescript', 'typescriptreact', 'javascript', 'javascriptreact', 'go', 'python', 'rust'];

/** The facts of a problem the noise removal and the package mapping need (all in memory). */
function problemArgs(document: vscode.TextDocument, d: vscode.Diagnostic): ProblemArgs {
  const line = d.range.start.line < document.lineCount ? document.lineAt(d.range.start.line).text : '';
  return {
    uri: document.uri.toString(),
    message: d.message,
    languageId: document.languageId,
    rangeText: d.range.isSingleLine ? document.getText(d.range) : undefined,
    lineText: line.length <= 2000 ? line : undefined,
    relatedPaths: (d.relatedInformation ?? []).map((r) => r.location.uri.fsPath),
  };
}

export function registerDependencySearch(
  context: vscode.ExtensionContext,
  load: () => DependencySearch,
): { loaded(): DependencySearch | undefined } {
  let svc: DependencySearch | undefined;
  let scheduled = false;
  const get = (): DependencySearch => {
    if (!svc) {
      svc = load();
      context.subscriptions.push(svc);
    }
    return svc;
  };
  /** The loaded service, or undefined after scheduling its load off the provider's call. */
  const peek = (): DependencySearch | undefined => {
    if (!svc && !scheduled) {
      scheduled = true;
      setTimeout(() => {
        try {
          get();
        } catch {
          scheduled = false;
        }
      }, 0);
    }
    return svc;
  };

  const reg = (id: string, fn: (...a: unknown[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, fn));
  reg(DEPS_COMMANDS.searchProblem, (args?: unknown) => {
    const a = args as ProblemArgs | undefined;
    if (!a || typeof a.message !== 'string') return undefined;
    return get().searchProblem(a);
  });
  reg(DEPS_COMMANDS.searchDependency, (arg?: unknown) => get().pickAndSearch(arg));
  reg(DEPS_COMMANDS.searchTerminalSelection, (arg?: unknown) => get().searchTerminalText(arg));
  reg(DEPS_COMMANDS.searchPackage, (arg?: unknown, query?: unknown) =>
    get().searchPackage(arg, typeof query === 'string' ? query : undefined),
  );
  reg(DEPS_COMMANDS.openRepository, (slug?: unknown) => {
    if (typeof slug !== 'string' || !/^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/.test(slug)) return false;
    return vscode.env.openExternal(vscode.Uri.parse(`https://github.com/${slug}`, true));
  });

  context.subscriptions.push(
    vscode.languages.registerCodeActionsProvider(
      '*',
      {
        provideCodeActions(document, _range, ctx) {
          if (!ctx.diagnostics.length || !config.dependencyFeature('codeAction')) return [];
          // Memory only: a folder not resolved yet gets the unscoped action now and starts resolving, so the
          // next menu names the scope (the command itself always resolves the scope before it searches).
          const s = peek();
          return ctx.diagnostics.map((d) => {
            const args = problemArgs(document, d);
            const dep = s?.scopeOf(document.uri, args);
            const action = new vscode.CodeAction(
              dep?.slug
                ? `Search Developer Index for this problem in ${dep.slug} (${dep.version ? `${dep.version} installed` : 'version unknown'})`
                : 'Search Developer Index for this problem',
              vscode.CodeActionKind.QuickFix,
            );
            action.diagnostics = [d];
            action.command = { command: DEPS_COMMANDS.searchProblem, title: action.title, arguments: [args] };
            return action;
          });
        },
      },
      { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
    ),
    vscode.languages.registerHoverProvider(
      HOVER_LANGUAGES.map((language) => ({ language })),
      {
        provideHover(document, position) {
          if (!config.dependencyFeature('hover')) return undefined;
          return peek()?.hover(document, position);
        },
      },
    ),
  );
  return { loaded: () => svc };
}
