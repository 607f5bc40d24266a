// The wiring both entries share (src/extension.ts, src/web/extension.ts): the key, the services, every view, command,
// tool and the chat participant. Each entry hands in its code (EntryCode: its host and its bundles, loaded or bundled
// in), so the same lines serve both.
import * as vscode from 'vscode';
import { registerAgents } from './agents/register';
import { settleAll } from './agents/emitter';
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
import { registerFixes } from './fixesView/register';
import type { FixesWiring, createFixesFeature } from './fixesView/createFixes';
import type { FixesFeature } from './fixesView/fixesFeature';
import type { Services } from './services';
import type { TestHooks } from './testHooks/hooks';
import type { AgentsCode } from './agents/register';
import type { agentClientOver } from './api/agent/agentClient';
import type { verifyKey } from './auth/verifyKey';
import type { handleChatRequest } from './chat/participant';
import type { FolderResolver } from './deps/dependencyScope';
import type { Host } from './host/host';
import type { invokeLanguageModelTool } from './tools/editorTools';

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
  createFixesFeature: typeof createFixesFeature;
  fixesDependencies: FixesWiring['dependencies'];
}

/** How the wiring reaches the entry's code: called on each use (the desktop loads a bundle on the first call). */
export interface EntryCode {
  core(): CoreCode;
  features(): FeatureCode;
}

/** What the entries go on with. */
interface SharedWiring {
  keys: ApiKeyStore;
  /** The services, built on first use (the desktop loads dist/core.js then). */
  svc(): Services;
  /** The services if something has built them already. */
  services(): Services | undefined;
  /** The Dependency Fixes feature, once a command has built it. */
  fixes: { loaded(): FixesFeature | undefined };
  /** What the fixes check runs on (the tools' and the chat's `/fixes` too). */
  fixesWiring: FixesWiring;
  /** The Get Started walkthrough, opened once on the first activation (desktop and browser alike). */
  walkthrough: WalkthroughHandle;
}

/** Runs an entry's activation; a failure is said in a message, then rethrown (so the editor marks the start failed). */
export function startOrSay<T>(activate: () => T): T {
  try {
    return activate();
  } catch (e) {
    void vscode.window.showErrorMessage(
      `Developer Index failed to start: ${e instanceof Error ? e.message : String(e)}`,
    );
    throw e;
  }
}

/**
 * What each entry's deactivate returns: the subscriptions disposed now, newest first, and what they hand back
 * awaited (the job store's and the watches' last writes), so the extension host does not stop before those land.
 */
export function settleOnDeactivate(context: vscode.ExtensionContext | undefined): Promise<void> | undefined {
  return context ? settleAll(context.subscriptions.splice(0).reverse()) : undefined;
}

/** `hooks`: a test build's (src/testHooks/hooks.ts), from the desktop entry; the web entry has none. */
export function wireShared(context: vscode.ExtensionContext, code: EntryCode, hooks?: TestHooks): SharedWiring {
  const { core, features } = code;
  for (const p of hooks?.problems ?? []) log().warn(`test timing: ${p}`);
  const keys = new ApiKeyStore(context.secrets);
  const history = new SearchHistory(context.globalState);
  let services: Services | undefined;
  const svc = (): Services => {
    if (!services) {
      const c = core();
      const { extensionUri, globalState } = context;
      services = new c.Services(c.host, c.folderDependencies, extensionUri, keys, history, globalState, hooks);
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
      ...hooks?.agents,
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
  registerWatches(context, () => svc().watches(), hooks?.watch);
  const fixes: FixesWiring = {
    client: () => svc().getClient(),
    hasKey: async () => (await keys.get()) !== undefined,
    globalState: context.globalState,
    openExternal: (url) => svc().openExternalChecked(url),
    dependencies: (folder) => features().fixesDependencies(folder),
  };
  const fixesFeature = registerFixes(context, (view) => features().createFixesFeature(view, fixes));
  registerLanguageModelTools(context, { services: svc, keys, fixes }, () => features().invokeLanguageModelTool);
  registerChatParticipant(context, { services: svc, keys, fixes }, () => features().handleChatRequest);
  const walkthrough = registerWalkthrough(context, (m) => log().info(m));
  return { keys, svc, services: () => services, walkthrough, fixes: fixesFeature, fixesWiring: fixes };
}
