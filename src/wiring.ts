// The wiring both entries share (src/extension.ts for the desktop, src/web/extension.ts for the browser):
// the key, the history, the services, the Search view, Show Log, the settings hooks, the key commands, Agent Jobs,
// the search commands, Watch for a Fix, the language-model tools and the first-run walkthrough. Each entry hands in its
// code (EntryCode: its host and its bundles, loaded or bundled in), so the same lines serve both.
import * as vscode from 'vscode';
import { registerAgents } from './agents/register';
import { ApiKeyStore } from './auth/apiKeyStore';
import { registerAuthCommands } from './auth/commands';
import { config, onConfigChange } from './config';
import { disposeLog, log } from './log';
import { registerSearchCommands } from './search/commands';
import { SearchHistory } from './search/history';
import { registerLanguageModelTools } from './tools/register';
import { registerChatParticipant } from './chat/register';
import { registerWalkthrough, type WalkthroughHandle } from './walkthrough/register';
import { registerWatches } from './watches/register';
import type { Services } from './services';
import type { AgentsCode } from './agents/register';
import type { agentClientOver } from './api/agent/agentClientOver';
import type { verifyKey } from './auth/verifyKey';
import type { handleChatRequest } from './chat/participant';
import type { FolderResolver } from './deps/dependencyScope';
import type { Host } from './host/host';
import type { invokeLanguageModelTool } from './tools/editorTools';
import { testTiming } from './testTiming';

/** Set by scripts/build.mjs (false in --production builds) and webBuild.mjs (false). */
declare const __DEVINDEX_TEST_SURFACE__: boolean;

/**
 * What a search needs, with the entry's host (chosen once, here): the desktop's dist/core.js (src/core.ts), loaded on
 * the first search, or the browser's, bundled in (src/web/core.ts).
 */
export interface CoreCode {
  Services: typeof Services;
  verifyKey: typeof verifyKey;
  host: Host;
  folderDependencies: FolderResolver;
}

/** What the other shared features need: the desktop's dist/features.js (src/features.ts), or bundled in. */
export interface FeatureCode extends AgentsCode {
  agentClientOver: typeof agentClientOver;
  invokeLanguageModelTool: typeof invokeLanguageModelTool;
  handleChatRequest: typeof handleChatRequest;
}

/** How the wiring reaches the entry's code: called on each use (the desktop loads a bundle on the first call). */
export interface EntryCode {
  core(): CoreCode;
  features(): FeatureCode;
}

/** What the entries go on with. */
export interface SharedWiring {
  keys: ApiKeyStore;
  /** The services, built on first use (the desktop loads dist/core.js then). */
  svc(): Services;
  /** The services if something has built them already. */
  services(): Services | undefined;
  /** Issue 24: the Get Started walkthrough, opened once on the first activation (desktop and browser alike). */
  walkthrough: WalkthroughHandle;
}

export function wireShared(context: vscode.ExtensionContext, code: EntryCode): SharedWiring {
  const { core, features } = code;
  const keys = new ApiKeyStore(context.secrets);
  const history = new SearchHistory(context.globalState);
  let services: Services | undefined;
  const svc = (): Services => {
    if (!services) {
      const c = core();
      services = new c.Services(c.host, c.folderDependencies, context.extensionUri, keys, history, context.globalState);
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
  registerAuthCommands(context, keys, {
    // The browser's transport ignores the network options (proxies and CAs are the browser's own).
    verify: (key) =>
      core().verifyKey(key, {
        baseUrl: config.baseUrl(),
        transport: core().host.createTransport({ network: config.network() }),
        allowInsecureHttp: config.allowInsecureHttp(),
        timeoutMs: Math.min(config.requestTimeoutMs(), 15_000),
      }),
  });
  const agents = registerAgents(
    context,
    {
      backend: () => features().agentClientOver(svc().getClient()),
      hasKey: async () => (await keys.get()) !== undefined,
      defaultMaxCredits: () => config.defaultMaxCredits(),
      log: (m) => log().info(m),
      // Test builds only (a constant condition: a production build drops it): DEVINDEX_TEST_TIMING (src/testTiming.ts).
      ...(__DEVINDEX_TEST_SURFACE__ ? { testTiming: testTiming().timing } : {}),
    },
    features,
  );
  for (const [id, handler] of Object.entries(agents.commands)) {
    context.subscriptions.push(vscode.commands.registerCommand(id, handler));
  }
  context.subscriptions.push(keys.onDidChange(() => agents.onKeyChanged()));
  registerSearchCommands(
    context,
    () => svc().searchSession(),
    () => svc().searchView(),
    history,
    () => core().host,
  );
  registerWatches(context, () => svc().watches());
  registerLanguageModelTools(context, { services: svc, keys }, () => features().invokeLanguageModelTool);
  registerChatParticipant(context, { services: svc, keys }, () => features().handleChatRequest);
  const walkthrough = registerWalkthrough(context, (m) => log().info(m));
  return { keys, svc, services: () => services, walkthrough };
}
