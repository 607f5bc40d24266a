// The web extension's entry (package.json `browser`, dist/web/extension.js): wiring only, as
// src/extension.ts is for the desktop. One bundle (a worker loads one file), the same features over the
// same services; the host's differences sit behind the modules scripts/build.mjs swaps (HOST_MODULES:
// fetch for undici, workspace.fs for node:fs, no git process). What needs a local file system or a
// process is registered too and says why it is left out (src/web/unavailable.ts).
import * as vscode from 'vscode';
import { registerAgents } from '../agents/register';
import { agentClientOver } from '../api/agent/agentClientOver';
import { ApiKeyStore } from '../auth/apiKeyStore';
import { registerAuthCommands } from '../auth/commands';
import { verifyKey } from '../auth/verifyKey';
import { config, onConfigChange } from '../config';
import { cleanMessage, type ProblemArgs } from '../deps/messages';
import { disposeLog, log } from '../log';
import { registerSearchCommands } from '../search/commands';
import { SearchHistory } from '../search/history';
import { Services } from '../services';
import { registerLanguageModelTools } from '../tools/register';
import { registerWatches } from '../watches/register';
import { searchDependency } from './dependencies';
import { registerLeftOut } from './unavailable';

const SLUG = /^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/;
const PROBLEM_WITHOUT_SCOPE = 'In the browser this search is not limited to the package\'s repository: finding the package that reported the problem needs its node_modules folder, which a browser cannot read. It works in desktop VS Code.';

export function activate(context: vscode.ExtensionContext): void {
  try {
    const keys = new ApiKeyStore(context.secrets);
    const history = new SearchHistory(context.globalState);
    let services: Services | undefined;
    const svc = (): Services => {
      if (!services) {
        services = new Services(context.extensionUri, keys, history, context.globalState);
        context.subscriptions.push(services);
      }
      return services;
    };
    context.subscriptions.push(
      keys,
      { dispose: disposeLog },
      vscode.window.registerWebviewViewProvider('devIndex.search', {
        resolveWebviewView: (view) => svc().searchView().resolveWebviewView(view),
      }),
      vscode.commands.registerCommand('devIndex.showLog', () => log().show()),
      onConfigChange({
        client: () => { log().info(`service address: ${config.baseUrl()}`); services?.resetClient(); },
        searchDefaults: () => services?.searchSettingsChanged(),
      }),
    );
    registerAuthCommands(context, keys, {
      verify: (key) => verifyKey(key, { baseUrl: config.baseUrl(), allowInsecureHttp: config.allowInsecureHttp(), timeoutMs: Math.min(config.requestTimeoutMs(), 15_000) }),
    });
    const agents = registerAgents(context, {
      backend: () => agentClientOver(svc().getClient()),
      hasKey: async () => (await keys.get()) !== undefined,
      defaultMaxCredits: () => config.defaultMaxCredits(),
      log: (m) => log().info(m),
    });
    for (const [id, handler] of Object.entries(agents.commands)) {
      context.subscriptions.push(vscode.commands.registerCommand(id, handler as (...a: unknown[]) => unknown));
    }
    context.subscriptions.push(keys.onDidChange(() => agents.onKeyChanged()));
    registerSearchCommands(context, () => svc().searchView(), history);
    registerWatches(context, () => svc().watches());
    registerLanguageModelTools(context, { services: svc, keys });

    // Dependencies from manifests and lockfiles (workspace.fs); a problem's search without node_modules' scope.
    const reg = (id: string, fn: (...a: unknown[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, fn));
    reg('devIndex.deps.searchDependency', (arg?: unknown) => searchDependency(arg));
    reg('devIndex.deps.searchProblem', async (args?: unknown) => {
      const a = args as ProblemArgs | undefined;
      if (!a || typeof a.message !== 'string') return undefined;
      const query = cleanMessage(a.message).slice(0, 500);
      // The Search view shows the notice above the results: the scope is missing, and why.
      await svc().searchView().search({ query, types: ['issue', 'pull_request', 'readme'] }, { scope: 'exact', notice: PROBLEM_WITHOUT_SCOPE });
      return { query, repos: [] };
    });
    reg('devIndex.deps.searchPackage', async (arg?: unknown, query?: unknown) => {
      const p = arg as { name?: unknown; slug?: unknown } | undefined;
      if (!p || typeof p.slug !== 'string' || !SLUG.test(p.slug)) return undefined;
      const q = typeof query === 'string' && query.trim() ? query.trim() : String(p.name ?? p.slug);
      await vscode.commands.executeCommand('devIndex.search.run', { query: q, repos: [p.slug], types: ['issue', 'pull_request', 'readme'] });
      return { query: q, repos: [p.slug] };
    });
    reg('devIndex.deps.openRepository', (slug?: unknown) => {
      if (typeof slug !== 'string' || !SLUG.test(slug)) return false;
      return vscode.env.openExternal(vscode.Uri.parse(`https://github.com/${slug}`, true));
    });
    const titles: Record<string, string> = {};
    for (const c of (context.extension.packageJSON as { contributes?: { commands?: Array<{ command: string; title: string }> } }).contributes?.commands ?? []) titles[c.command] = c.title;
    registerLeftOut(context, titles);
  } catch (e) {
    void vscode.window.showErrorMessage(`Developer Index failed to start: ${e instanceof Error ? e.message : String(e)}`);
    throw e;
  }
}

export function deactivate(): void {}
