// "Developer Index: Set Up MCP for Another Agent…" (devIndex.mcp.setup) and, where VS Code lets an
// extension define MCP servers (feature-detected), `devindex mcp` offered to VS Code's agent mode
// without any file. Activation bundle: vscode and node:path only; node:fs/promises and node:os are required
// when the command runs, so that activation does not load them. The key never goes into a file: the
// entries name it by reference (src/mcpSetup/entries.ts); the server VS Code starts from the provider
// gets it in memory from the key store when it starts.
import type * as FsPromises from 'node:fs/promises';
import type * as Os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApiKeyStore } from '../auth/apiKeyStore';
import { config } from '../config';
import { KEY_ENV, mergeInto, serverEnv, setupEntry, type EditorNetwork, type SetupClient, type SetupEntry } from './entries';

const fs = (): typeof FsPromises => require('node:fs/promises') as typeof FsPromises;
const os = (): typeof Os => require('node:os') as typeof Os;

export const SETUP_COMMAND = 'devIndex.mcp.setup';
export const PROVIDER_ID = 'devindex.mcp';

/** What the flow asks the user, and where it writes: the real UI and files, or a test's answers. */
export interface SetupUi {
  pickClient(): Promise<SetupClient | undefined>;
  pickScope(): Promise<'workspace' | 'user' | undefined>;
  /** 'write' after the user confirmed; 'show' to see the entry instead. */
  confirm(target: string, entry: SetupEntry): Promise<'write' | 'show' | undefined>;
  show(text: string): Promise<void>;
  info(message: string): void;
}

export interface SetupFiles {
  read(file: string): Promise<string | undefined>;
  write(file: string, text: string): Promise<void>;
}

export interface SetupResult { client: SetupClient; action: 'written' | 'shown' | 'cancelled'; file?: string; text?: string }

/** Command arguments a test (or a walkthrough) passes to skip the pickers; nothing here can name a file. */
export interface SetupArgs { client?: SetupClient; scope?: 'workspace' | 'user'; answer?: 'write' | 'show' }

const CLIENTS: Array<{ id: SetupClient; label: string; detail: string }> = [
  { id: 'vscode', label: 'VS Code (mcp.json)', detail: 'Writes the server to this workspace\'s .vscode/mcp.json or your user mcp.json; VS Code asks for the key as a password.' },
  { id: 'claude', label: 'Claude Code', detail: 'Shows the entry and the `claude mcp add-json` command; the key comes from DEVINDEX_API_KEY.' },
  { id: 'cursor', label: 'Cursor', detail: 'Writes ~/.cursor/mcp.json; the key comes from DEVINDEX_API_KEY.' },
  { id: 'generic', label: 'Another MCP client (stdio)', detail: 'Shows the command, arguments and environment to enter.' },
];

export function editorNetwork(): EditorNetwork {
  const net = config.network();
  return {
    baseUrl: config.baseUrl(), proxy: net.proxy, noProxy: net.noProxy, proxyStrictSSL: net.proxyStrictSSL, caFile: net.caFile,
    extraCaCerts: process.env.NODE_EXTRA_CA_CERTS || undefined, allowInsecureHttp: config.allowInsecureHttp(),
  };
}

function cliPath(context: vscode.ExtensionContext): string {
  return path.join(context.extensionUri.fsPath, 'dist', 'cli.js');
}

/** The user's mcp.json: beside settings.json, two folders above this extension's global storage. */
function userMcpJson(context: vscode.ExtensionContext): string {
  return path.join(path.dirname(path.dirname(context.globalStorageUri.fsPath)), 'mcp.json');
}

function targetFile(context: vscode.ExtensionContext, client: SetupClient, scope: 'workspace' | 'user'): string | undefined {
  if (client === 'cursor') return path.join(os().homedir(), '.cursor', 'mcp.json');
  if (client !== 'vscode') return undefined;
  const folder = vscode.workspace.workspaceFolders?.[0];
  return scope === 'workspace' && folder ? path.join(folder.uri.fsPath, '.vscode', 'mcp.json') : userMcpJson(context);
}

function shownText(entry: SetupEntry, why?: string): string {
  const lines = [
    ...(why ? [`// ${why}`] : []),
    `// Developer Index MCP server for ${CLIENTS.find((c) => c.id === entry.client)?.label ?? entry.client}.`,
    `// The key: ${entry.keyWords}`,
    ...entry.notes.map((n) => `// ${n}`),
    ...(entry.command ? ['// Add it with:', `//   ${entry.command}`, '// or put this in the project\'s .mcp.json:'] : []),
    entry.json,
  ];
  return `${lines.join('\n')}\n`;
}

/** The setup flow: pick a client, build its entry, and write it (after the user confirms) or show it. */
export async function runSetup(context: vscode.ExtensionContext, ui: SetupUi, files: SetupFiles, network: EditorNetwork = editorNetwork()): Promise<SetupResult> {
  const client = await ui.pickClient();
  if (!client) return { client: 'generic', action: 'cancelled' };
  const entry = setupEntry({ client, node: 'node', cli: cliPath(context), network });
  const canWrite = client === 'vscode' || client === 'cursor';
  const scope = client === 'vscode' && vscode.workspace.workspaceFolders?.length ? await ui.pickScope() : 'user';
  if (!scope) return { client, action: 'cancelled' };
  const file = canWrite ? targetFile(context, client, scope) : undefined;
  if (!file) {
    const text = shownText(entry);
    await ui.show(text);
    return { client, action: 'shown', text };
  }
  const answer = await ui.confirm(file, entry);
  if (!answer) return { client, action: 'cancelled' };
  const merged = mergeInto(await files.read(file), entry);
  if (answer === 'show' || merged === undefined) {
    const text = shownText(entry, merged === undefined ? `${file} is not plain JSON, so it was left as it is: add this entry by hand.` : undefined);
    await ui.show(text);
    return { client, action: 'shown', file, text };
  }
  await files.write(file, merged);
  ui.info(`Developer Index MCP server added to ${file}. ${entry.keyWords}`);
  return { client, action: 'written', file, text: merged };
}

function realUi(args: SetupArgs): SetupUi {
  return {
    pickClient: async () => args.client ?? (await vscode.window.showQuickPick(CLIENTS.map((c) => ({ label: c.label, detail: c.detail, id: c.id })), {
      title: 'Set Up MCP for Another Agent', placeHolder: 'Which client should run the Developer Index MCP server?',
    }))?.id,
    pickScope: async () => args.scope ?? (await vscode.window.showQuickPick([
      { label: 'This workspace', detail: '.vscode/mcp.json in the first workspace folder', id: 'workspace' as const },
      { label: 'All workspaces', detail: 'your user mcp.json', id: 'user' as const },
    ], { title: 'Where should VS Code find the server?' }))?.id,
    confirm: async (target, entry) => {
      if (args.answer) return args.answer;
      const pick = await vscode.window.showInformationMessage(`Add the Developer Index MCP server to ${target}?`,
        { modal: true, detail: `The entry runs the bundled CLI with node. ${entry.keyWords} The key is not written to the file.` },
        'Write', 'Show Instead');
      return pick === 'Write' ? 'write' : pick === 'Show Instead' ? 'show' : undefined;
    },
    show: async (text) => {
      const doc = await vscode.workspace.openTextDocument({ language: 'jsonc', content: text });
      await vscode.window.showTextDocument(doc, { preview: false });
    },
    info: (m) => { void vscode.window.showInformationMessage(m); },
  };
}

const realFiles: SetupFiles = {
  read: async (file) => { try { return await fs().readFile(file, 'utf8'); } catch { return undefined; } },
  write: async (file, text) => {
    await fs().mkdir(path.dirname(file), { recursive: true });
    await fs().writeFile(file, text, 'utf8');
  },
};

interface McpApi {
  registerMcpServerDefinitionProvider(id: string, provider: {
    onDidChangeMcpServerDefinitions?: vscode.Event<void>;
    provideMcpServerDefinitions(token: vscode.CancellationToken): unknown[];
    resolveMcpServerDefinition?(server: unknown, token: vscode.CancellationToken): Promise<unknown>;
  }): vscode.Disposable;
}
type StdioDefinitionClass = new (label: string, command: string, args: string[], env?: Record<string, string | number | null>, version?: string) => { env: Record<string, string | number | null> };

/** VS Code's API for extension-defined MCP servers, when this editor has it. */
export function mcpServerApi(ns: object): { lm: McpApi; Stdio: StdioDefinitionClass } | undefined {
  const lm = (ns as { lm?: Partial<McpApi> }).lm;
  const Stdio = (ns as { McpStdioServerDefinition?: unknown }).McpStdioServerDefinition;
  return lm && typeof lm.registerMcpServerDefinitionProvider === 'function' && typeof Stdio === 'function'
    ? { lm: lm as McpApi, Stdio: Stdio as StdioDefinitionClass } : undefined;
}

export function registerMcpSetup(context: vscode.ExtensionContext, o: { keys: ApiKeyStore }): void {
  context.subscriptions.push(vscode.commands.registerCommand(SETUP_COMMAND, (args?: SetupArgs) => runSetup(context, realUi(args ?? {}), realFiles)));
  const api = mcpServerApi(vscode);
  if (!api) return;
  const changed = new vscode.EventEmitter<void>();
  context.subscriptions.push(changed, o.keys.onDidChange(() => changed.fire()), vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('devIndex') || e.affectsConfiguration('http')) changed.fire();
  }));
  context.subscriptions.push(api.lm.registerMcpServerDefinitionProvider(PROVIDER_ID, {
    onDidChangeMcpServerDefinitions: changed.event,
    // The editor's own Node runs the CLI (ELECTRON_RUN_AS_NODE), so no separate node is needed.
    provideMcpServerDefinitions: () => [new api.Stdio('Developer Index', process.execPath, [cliPath(context), 'mcp'],
      { ...serverEnv(editorNetwork()).env, ELECTRON_RUN_AS_NODE: '1' }, (context.extension.packageJSON as { version?: string }).version)],
    // The key goes to the process VS Code starts, in memory, only when it starts.
    resolveMcpServerDefinition: async (server) => {
      const key = await o.keys.get();
      if (key) (server as { env: Record<string, string | number | null> }).env = { ...(server as { env: Record<string, string | number | null> }).env, [KEY_ENV]: key };
      return server;
    },
  }));
}
