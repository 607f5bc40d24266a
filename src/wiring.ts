// The wiring both entries share (src/extension.ts for the desktop, src/web/extension.ts for the browser):
// the key, the history, the services, the Search view, Show Log, the settings hooks, the key commands,
// Agent Jobs, the search commands, Watch for a Fix, Dependency Fixes, the language-model tools and the first-run walkthrough. What differs between
// the hosts is behind core() and features() (src/host/features.ts: src/host/node/ or, in the web bundle, src/host/browser/),
// so the same lines serve both; each entry adds its own features after this.
import * as vscode from 'vscode';
import { registerAgents } from './agents/register';
import { settleAll } from './agents/emitter';
import { ApiKeyStore } from './auth/apiKeyStore';
import { registerAuthCommands } from './auth/commands';
import { config, onConfigChange } from './config';
import { core, features } from './host/features';
import { disposeLog, log } from './log';
import { registerSearchCommands } from './search/commands';
import { SearchHistory } from './search/history';
import { registerLanguageModelTools } from './tools/register';
import { registerChatParticipant } from './chat/register';
import { registerWalkthrough, type WalkthroughHandle } from './walkthrough/register';
import { registerWatches } from './watches/register';
import { registerFixes } from './fixesView/register';
import type { FixesWiring } from './fixesView/createFixes';
import type { FixesFeature } from './fixesView/fixesFeature';
import type { Services } from './services';
import type { TestHooks } from './testHooks/hooks';

/** What the entries go on with. */
export interface SharedWiring {
  keys: ApiKeyStore;
  /** The services, built on first use (the desktop loads dist/core.js then). */
  svc(): Services;
  /** The services if something has built them already. */
  services(): Services | undefined;
  /** The Dependency Fixes feature, once a command has built it (the host tests read its rows). */
  fixes: { loaded(): FixesFeature | undefined };
  /** What the fixes check runs on (the tools' and the chat's `/fixes` too). */
  fixesWiring: FixesWiring;
  /** The Get Started walkthrough, opened once on the first activation (desktop and browser alike). */
  walkthrough: WalkthroughHandle;
}

/**
 * What each entry's deactivate returns: the subscriptions disposed now, newest first, and what they hand back
 * awaited (the job store's and the watches' last writes), so the extension host does not stop before those land.
 */
export function settleOnDeactivate(context: vscode.ExtensionContext | undefined): Promise<void> | undefined {
  return context ? settleAll(context.subscriptions.splice(0).reverse()) : undefined;
}

/** `hooks`: a test build's (src/testHooks/hooks.ts), from the desktop entry; the web entry has none. */
export function wireShared(context: vscode.ExtensionContext, hooks?: TestHooks): SharedWiring {
  for (const p of hooks?.problems ?? []) log().warn(`test timing: ${p}`);
  const keys = new ApiKeyStore(context.secrets);
  const history = new SearchHistory(context.globalState);
  let services: Services | undefined;
  const svc = (): Services => {
    if (!services) {
      services = new (core().Services)(context.extensionUri, keys, history, context.globalState, hooks);
      context.subscriptions.push(services);
    }
    return services;
  };

  context.subscriptions.push(
    keys,
    { dispose: disposeLog },
    vscode.window.registerWebviewViewProvider('devIndex.search', {
      resolveWebviewView: (view) =>
        svc()
          .searchView()
          .resolveWebviewView(hooks?.observeView(view) ?? view),
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
  registerAuthCommands(context, keys, {
    // The browser's transport ignores the network options (proxies and CAs are the browser's own).
    verify: (key) =>
      core().verifyKey(key, {
        baseUrl: config.baseUrl(),
        network: config.network(),
        allowInsecureHttp: config.allowInsecureHttp(),
        timeoutMs: Math.min(config.requestTimeoutMs(), 15_000),
      }),
  });
  const agents = registerAgents(context, {
    backend: () => features().agentClientOver(svc().getClient()),
    hasKey: async () => (await keys.get()) !== undefined,
    defaultMaxCredits: () => config.defaultMaxCredits(),
    log: (m) => log().info(m),
    ...hooks?.agents,
  });
  for (const [id, handler] of Object.entries(agents.commands)) {
    context.subscriptions.push(vscode.commands.registerCommand(id, handler));
  }
  context.subscriptions.push(keys.onDidChange(() => agents.onKeyChanged()));
  registerSearchCommands(
    context,
    () => svc().searchSession(),
    () => svc().searchView(),
    history,
  );
  registerWatches(context, () => svc().watches(), hooks?.watch);
  const fixes: FixesWiring = {
    client: () => svc().getClient(),
    hasKey: async () => (await keys.get()) !== undefined,
    globalState: context.globalState,
    openExternal: (url) => svc().openExternalChecked(url),
  };
  const fixesFeature = registerFixes(context, (view) => features().createFixesFeature(view, fixes));
  registerLanguageModelTools(context, { services: svc, keys, fixes });
  registerChatParticipant(context, { services: svc, keys, fixes });
  const walkthrough = registerWalkthrough(context, (m) => log().info(m));
  return { keys, svc, services: () => services, walkthrough, fixes: fixesFeature, fixesWiring: fixes };
}
