// The web extension's entry (package.json `browser`, dist/web/extension.js, one bundle): wiring only, the shared part
// (src/wiring.ts) over the browser's code (src/web/core.ts). What needs a local file system or a process is
// registered too and says why it is left out (src/web/unavailable.ts).
import * as vscode from 'vscode';
import { DEPS_COMMANDS } from '../deps/commandIds';
import { cleanMessage } from '../deps/messages';
import { type ProblemArgs } from '../deps/packageRefs';
import { settleOnDeactivate, startOrSay, wireShared } from '../wiring';
import { webCode } from './core';
import { searchDependency } from './dependencies';
import { registerLeftOut } from './unavailable';

const SLUG = /^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/;
const PROBLEM_WITHOUT_SCOPE =
  "In the browser this search is not limited to the package's repository: " +
  'finding the package that reported the problem needs its node_modules folder, ' +
  'which a browser cannot read. It works in desktop VS Code.';

let activeContext: vscode.ExtensionContext | undefined;

export function activate(context: vscode.ExtensionContext): void {
  activeContext = context;
  return startOrSay(() => {
    const { svc } = wireShared(context, webCode);

    // Dependencies from manifests and lockfiles (workspace.fs); a problem's search without node_modules' scope.
    const reg = (id: string, fn: (...a: unknown[]) => unknown) =>
      context.subscriptions.push(vscode.commands.registerCommand(id, fn));
    reg(DEPS_COMMANDS.searchDependency, (arg?: unknown) => searchDependency(arg));
    reg(DEPS_COMMANDS.searchProblem, async (args?: unknown) => {
      const a = args as ProblemArgs | undefined;
      if (!a || typeof a.message !== 'string') return undefined;
      const query = cleanMessage(a.message).slice(0, 500);
      // The Search view shows the notice above the results: the scope is missing, and why.
      await svc()
        .searchSession()
        .search(
          { query, types: ['issue', 'pull_request', 'readme'] },
          { scope: 'exact', notice: PROBLEM_WITHOUT_SCOPE },
        );
      return { query, repos: [] };
    });
    reg(DEPS_COMMANDS.searchPackage, async (arg?: unknown, query?: unknown) => {
      const p = arg as { name?: unknown; slug?: unknown } | undefined;
      if (!p || typeof p.slug !== 'string' || !SLUG.test(p.slug)) return undefined;
      const q = typeof query === 'string' && query.trim() ? query.trim() : String(p.name ?? p.slug);
      await vscode.commands.executeCommand('devIndex.search.run', {
        query: q,
        repos: [p.slug],
        types: ['issue', 'pull_request', 'readme'],
      });
      return { query: q, repos: [p.slug] };
    });
    reg(DEPS_COMMANDS.openRepository, (slug?: unknown) => {
      if (typeof slug !== 'string' || !SLUG.test(slug)) return false;
      return vscode.env.openExternal(vscode.Uri.parse(`https://github.com/${slug}`, true));
    });
    const titles: Record<string, string> = {};
    for (const c of (
      context.extension.packageJSON as { contributes?: { commands?: Array<{ command: string; title: string }> } }
    ).contributes?.commands ?? [])
      titles[c.command] = c.title;
    registerLeftOut(context, titles);
  });
}

export function deactivate(): Promise<void> | undefined {
  return settleOnDeactivate(activeContext);
}
