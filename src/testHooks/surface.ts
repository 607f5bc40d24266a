// What the desktop entry exports under a host tier (docs/ARCHITECTURE.md, "Extension test surface"): key access and
// handles inside the extension, so it is built only by a test build with DEVINDEX_TEST_KEY set; the packaged
// extension exports nothing, and no command or message of it exists.
import * as vscode from 'vscode';
import type { ApiKeyStore } from '../auth/apiKeyStore';
import { provideFollowups } from '../chat/register';
import type { ChatPorts } from '../chat/participant';
import { config } from '../config';
import type { IssueReport } from '../doctor/editor';
import type { McpSetupHandle } from '../mcpSetup/register';
import type { Services } from '../services';
import type { ToolWiring } from '../tools/editorTools';
import type { ToolName } from '../tools/names';
import type { WalkthroughHandle } from '../walkthrough/register';
import type { WatchFeature } from '../watches/editor';
import type { ToWebview } from '../webview/protocol';
import type { TestHooks } from './hooks';
import type { FixesWiring } from '../fixesView/createFixes';
import type { FixesFeature } from '../fixesView/fixesFeature';
import type { FeatureCode } from '../wiring';

export interface DevIndexExtensionApi {
  baseUrl(): string;
  apiKey: { get(): Promise<string | undefined>; set(key: string): Promise<void>; clear(): Promise<void> };
  lastSearch(): ReturnType<Services['search']['lastOutcome']>;
  /** Replaces the issue reporter Report an Issue… opens (undefined: VS Code's own again). */
  setIssueReporter(send: ((report: IssueReport) => unknown) | undefined): void;
  /** The Watch for a Fix feature (its service, and `show`, which a test replaces to press a button). */
  watches(): WatchFeature;
  /** Where checked links (Get a Key, a successor) are opened instead of the browser (undefined: the browser again). */
  setExternalOpener(open: ((url: string) => unknown) | undefined): void;
  /** The deprecation messages shown in this session (once per endpoint and day), newest last. */
  shownNotices(): string[];
  /** The first-run walkthrough: what activation did, and the rule again through a test's opener. */
  walkthrough: Pick<WalkthroughHandle, 'atActivation' | 'runFirstRun' | 'forget' | 'ref'>;
  /** The MCP launcher refresh and old-entry repair (activation's run, and again with a test's folders). */
  mcp: McpSetupHandle;
  /** The Dependency Fixes feature once built (its tree's rows, as the view shows them). */
  fixes(): FixesFeature | undefined;
  view: {
    /** Every message the Search view's webview was sent since activation (the latest 300), oldest first. */
    sent(): ToWebview[];
    /** What the webview was last sent for a search: its start, and the outcome that followed it. */
    lastSearch(): { searchStarted?: ToWebview; results?: ToWebview };
    /** The filters the webview last said its form and chip row show (its `scope`, or the one its `ready` carried). */
    shownScope(): unknown;
    /** A message as if the webview had posted it (a button press); false before the view resolved. */
    receive(message: unknown): boolean;
  };
  chat: {
    /** The participant's handler with a recording stream, and ports a test replaces (a quick pick would wait for a user). */
    handle(
      request: vscode.ChatRequest,
      stream: vscode.ChatResponseStream,
      token?: vscode.CancellationToken,
      ports?: Partial<ChatPorts>,
    ): Promise<vscode.ChatResult>;
    followups(result: vscode.ChatResult): vscode.ChatFollowup[];
  };
  /** A language-model tool's invocation without the confirmation a chat shows, with the progress lines it reported. */
  invokeTool(name: ToolName, input: Record<string, unknown>): Promise<{ text: string; progress: string[] }>;
}

interface SurfaceParts {
  keys: ApiKeyStore;
  svc(): Services;
  services(): Services | undefined;
  walkthrough: WalkthroughHandle;
  mcp: McpSetupHandle;
  fixes: { loaded(): FixesFeature | undefined };
  fixesWiring: FixesWiring;
  features(): FeatureCode;
}

export function testSurface(hooks: TestHooks, parts: SurfaceParts): DevIndexExtensionApi {
  const { keys, svc } = parts;
  const wiring: ToolWiring = { services: svc, keys, fixes: parts.fixesWiring };
  const sent = (): ToWebview[] =>
    hooks.viewMessages.filter((m) => m.to === 'webview').map((m) => m.message as ToWebview);
  return {
    baseUrl: () => config.baseUrl(),
    apiKey: { get: () => keys.get(), set: (k) => keys.set(k), clear: () => keys.clear() },
    lastSearch: () => parts.services()?.search.lastOutcome(),
    setIssueReporter: (send) => {
      hooks.issueReporter = send ? async (r) => send(r) : undefined;
    },
    watches: () => svc().watches(),
    setExternalOpener: (open) => {
      hooks.opener = open;
    },
    shownNotices: () => [...hooks.noticesShown],
    walkthrough: parts.walkthrough,
    mcp: parts.mcp,
    fixes: () => parts.fixes.loaded(),
    view: {
      sent,
      lastSearch: () => {
        const all = sent();
        const at = all.map((m) => m.type).lastIndexOf('searchStarted');
        if (at < 0) return {};
        const results = all
          .slice(at)
          .filter((m) => m.type === 'results')
          .at(-1);
        return { searchStarted: all[at], ...(results ? { results } : {}) };
      },
      shownScope: () => {
        for (const { to, message } of [...hooks.viewMessages].reverse()) {
          const m = message as { type?: unknown; params?: unknown; scope?: unknown };
          if (to === 'extension' && m.type === 'scope') return m.params;
          if (to === 'extension' && m.type === 'ready' && m.scope !== undefined) return m.scope;
        }
        return undefined;
      },
      receive: (message) => {
        if (!hooks.fromWebview) return false;
        hooks.fromWebview(message);
        return true;
      },
    },
    chat: {
      handle: (request, stream, token, ports) =>
        parts
          .features()
          .handleChatRequest(
            request,
            { history: [] },
            stream,
            token ?? new vscode.CancellationTokenSource().token,
            wiring,
            ports,
          ),
      followups: (result) => provideFollowups(result),
    },
    invokeTool: async (name, input) => {
      const progress: string[] = [];
      const result = await parts
        .features()
        .invokeLanguageModelTool(
          name,
          { input, toolInvocationToken: undefined },
          new vscode.CancellationTokenSource().token,
          wiring,
          {
            report: (p: { message?: string }) => {
              if (p.message) progress.push(p.message);
            },
          },
        );
      const text = result.content
        .map((p) => (p as { value?: unknown }).value)
        .filter((v): v is string => typeof v === 'string')
        .join('\n');
      return { text, progress };
    },
  };
}
