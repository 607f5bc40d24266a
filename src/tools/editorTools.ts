// The editor's language-model tools. Features side (dist/features.js): the shared tool operations (toolOps.ts) over
// the extension's client, key store and workspace, each answer a LanguageModelToolResult. A job is started through
// devIndex.agent.start, so it appears in the Agent Jobs tree; a wait reports progress where VS Code passes one.
import * as vscode from 'vscode';
import type { ApiKeyStore } from '../auth/apiKeyStore';
import * as agentApi from '../api/agent/agentClient';
import { agentClientOver } from '../api/agent/agentClient';
import { config } from '../config';
import type { Services } from '../services';
import { MANIFEST_NAMES } from '../deps/manifests';
import { checkFolder, type FixesWiring } from '../fixesView/createFixes';
import { scopeFromRemotes } from '../search/repoSlug';
import { remotesOf } from '../search/workspaceRepos';
import type { Host } from '../host/host';
import { clampBudget, MIN_MAX_CHARS } from './modelText';
import { TOOL_SETTINGS, type ToolName } from './names';
import { CHARS_PER_TOKEN } from './toolInputs';
import { runTool } from './toolOps';
import { type ToolDeps, type ToolProgress, type WorkspaceScope } from './toolTypes';
import type { ToolSubmitParams } from '../api/agent/submitSchema';

/** What the activation side hands the tools: the services (loaded on first use) and the key store. */
export interface ToolWiring {
  services: () => Services;
  keys: ApiKeyStore;
  /** devIndex_fixes and `@devindex /fixes`: the fixes check's client, key and cache. */
  fixes: FixesWiring;
}

/** The setting, lowered to what the caller's token budget allows (at the one chars-per-token rule, src/tools/tokens.ts). */
function budgetFor(setting: unknown, tokenBudget: number | undefined): number {
  const chars = clampBudget(setting);
  const cap = capFor(tokenBudget);
  return cap === undefined ? chars : Math.min(chars, cap);
}

/** The most any answer may be in characters for the caller's token budget, if it gave one. */
function capFor(tokenBudget: number | undefined): number | undefined {
  if (tokenBudget === undefined || !Number.isFinite(tokenBudget) || tokenBudget <= 0) return undefined;
  return Math.max(MIN_MAX_CHARS, Math.floor(tokenBudget * CHARS_PER_TOKEN));
}

/**
 * The invocation's progress, where the running VS Code passes one (the toolProgress API: a third
 * argument to invoke with `report({ message })`); feature-detected, undefined elsewhere.
 */
function toolProgressOf(progress: unknown): ToolProgress | undefined {
  const report = (progress as { report?: unknown } | undefined)?.report;
  if (typeof report !== 'function') return undefined;
  return (line) => {
    try {
      (report as (s: { message: string }) => void).call(progress, { message: line });
    } catch {
      /* the chat view went away */
    }
  };
}

/** The workspace's repositories as Search in This Repository reads them (upstream first), every folder. */
async function workspaceScope(host: Host): Promise<WorkspaceScope> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (!folders.length) return { slugs: [], reason: 'no folder is open in the editor' };
  const active = vscode.window.activeTextEditor?.document.uri;
  const first = active ? vscode.workspace.getWorkspaceFolder(active) : undefined;
  const ordered = first ? [first, ...folders.filter((f) => f !== first)] : [...folders];
  const slugs: string[] = [];
  const hosts = new Set<string>();
  for (const f of ordered) {
    const scope = scopeFromRemotes(await remotesOf(f.uri, host));
    for (const s of scope.slugs) if (!slugs.includes(s)) slugs.push(s);
    for (const u of scope.unsupported) hosts.add(u.host);
  }
  if (slugs.length) return { slugs };
  if (hosts.size)
    return {
      slugs: [],
      reason:
        `the workspace's repositories are hosted on ${[...hosts].join(', ')}, ` +
        `and the developer index covers GitHub repositories only`,
    };
  return { slugs: [], reason: 'no workspace folder has a git remote pointing at a GitHub repository' };
}

/**
 * The folder the search tool reads `dependency` from, found as the editor's other dependency surfaces find it
 * (src/deps/editor.ts, `findRoot`): the active editor's workspace folder; for a file outside every workspace folder,
 * the nearest folder above it with a manifest; else the first workspace folder. Through `workspace.fs`, so the
 * browser build runs it too.
 */
export async function dependencyFolderOfEditor(): Promise<string | undefined> {
  const uri = vscode.window.activeTextEditor?.document.uri;
  const ws = uri ? vscode.workspace.getWorkspaceFolder(uri) : undefined;
  if (ws) return ws.uri.fsPath;
  if (uri?.scheme === 'file') {
    for (let dir = vscode.Uri.joinPath(uri, '..'); ;) {
      const found = await Promise.all(
        MANIFEST_NAMES.map((m) =>
          Promise.resolve(vscode.workspace.fs.stat(vscode.Uri.joinPath(dir, m))).then(
            () => true,
            () => false,
          ),
        ),
      );
      if (found.some(Boolean)) return dir.fsPath;
      const up = vscode.Uri.joinPath(dir, '..');
      if (up.path === dir.path) break;
      dir = up;
    }
  }
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

/** An AbortSignal that aborts when the token is cancelled (at once when it already is). */
export function signalOf(token: vscode.CancellationToken): AbortSignal {
  const ctl = new AbortController();
  if (token.isCancellationRequested) ctl.abort();
  else token.onCancellationRequested(() => ctl.abort());
  return ctl.signal;
}

/** The tool operations' ports over the extension's client, key store and workspace (the tools and the `@devindex` chat participant). */
export function editorToolDeps(wiring: ToolWiring, tokenBudget: number | undefined): ToolDeps {
  const services = wiring.services();
  const maxChars = budgetFor(vscode.workspace.getConfiguration().get(TOOL_SETTINGS.maxChars), tokenBudget);
  return {
    surface: 'editor',
    maxChars: () => maxChars,
    secret: () => wiring.keys.get(),
    // The client directly, not the Search view's service: a model's searches do not go into the user's history.
    search: (params, opts) => services.getClient().search(params, opts),
    agentModule: async () => agentApi.agentModule,
    agent: async () => agentClientOver(services.getClient()),
    start: (request: ToolSubmitParams) =>
      Promise.resolve(vscode.commands.executeCommand<string | undefined>('devIndex.agent.start', request)),
    onAnswered: () => Promise.resolve(vscode.commands.executeCommand('devIndex.agent.refresh')),
    defaultMaxCredits: () => config.defaultMaxCredits(),
    extraModels: () => config.agentExtraModels(),
    hasKey: async () => (await wiring.keys.get()) !== undefined,
    workspaceRepos: () => workspaceScope(services.host),
    folderDependencies: services.folderDependencies,
    maxCharsCap: () => capFor(tokenBudget),
    // `dependency` is read from the active editor's project folder, as the hover, the problem search and the dependency pick find it.
    dependencyFolder: () => dependencyFolderOfEditor(),
    fixes: (folder, o) => checkFolder(wiring.fixes, folder, o),
    // Deprecations and service warnings the client met, once per endpoint, for the model to pass on.
    takeNotices: () => services.takeNotices(),
  };
}

export async function invokeLanguageModelTool(
  name: ToolName,
  options: vscode.LanguageModelToolInvocationOptions<Record<string, unknown>>,
  token: vscode.CancellationToken,
  wiring: ToolWiring,
  progress?: unknown,
): Promise<vscode.LanguageModelToolResult> {
  const deps = editorToolDeps(wiring, options.tokenizationOptions?.tokenBudget);
  const out = await runTool(name, options.input, deps, signalOf(token), toolProgressOf(progress));
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(out.text)]);
}
