// Wiring only. Heavy code (client, zod, undici, the view's message handling) is in dist/core.js, loaded on first use.
import * as vscode from 'vscode';
import { registerAgents } from './agents';
import { ApiKeyStore } from './auth/apiKeyStore';
import { registerAuthCommands } from './auth/commands';
import { config, onConfigChange } from './config';
import { registerDependencySearch } from './deps/register';
import { core } from './lazy';
import { disposeLog, log } from './log';
import { registerSearchCommands } from './search/commands';
import { SearchHistory } from './search/history';
import type { Services } from './services';

/** The surface the extension-host tests use (docs/ARCHITECTURE.md, "Extension test surface"). */
export interface DevIndexExtensionApi {
  baseUrl(): string;
  apiKey: { get(): Promise<string | undefined>; set(key: string): Promise<void>; clear(): Promise<void> };
  lastSearch(): ReturnType<Services['search']['lastOutcome']>;
}

export function activate(context: vscode.ExtensionContext): DevIndexExtensionApi {
  try {
    const keys = new ApiKeyStore(context.secrets);
    const history = new SearchHistory(context.globalState);
    let services: Services | undefined;
    const svc = (): Services => {
      if (!services) {
        services = new (core().Services)(context.extensionUri, keys, history);
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
        client: () => {
          log().info(`service address: ${config.baseUrl()}`);
          services?.resetClient();
        },
        searchDefaults: () => services?.searchSettingsChanged(),
      }),
    );
    registerAuthCommands(context, keys);
    const agents = registerAgents(context, {
      backend: () => svc().agentClient(),
      hasKey: async () => (await keys.get()) !== undefined,
      defaultMaxCredits: () => config.defaultMaxCredits(),
      log: (m) => log().info(m),
    });
    for (const [id, handler] of Object.entries(agents.commands)) {
      context.subscriptions.push(vscode.commands.registerCommand(id, handler as (...a: unknown[]) => unknown));
    }
    context.subscriptions.push(keys.onDidChange(() => agents.onKeyChanged()));
    registerSearchCommands(context, { show: (request, opts) => svc().searchView().show(request, opts) }, history);
    registerDependencySearch(context, () => core().createDependencySearch(() => svc().getClient()));

    return {
      baseUrl: () => config.baseUrl(),
      apiKey: { get: () => keys.get(), set: (k) => keys.set(k), clear: () => keys.clear() },
      lastSearch: () => services?.search.lastOutcome(),
    };
  } catch (e) {
    void vscode.window.showErrorMessage(`Developer Index failed to start: ${e instanceof Error ? e.message : String(e)}`);
    throw e;
  }
}

export function deactivate(): void {}
