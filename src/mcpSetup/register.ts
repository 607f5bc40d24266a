// The editor's MCP surface: "Set Up MCP for Another Agent…" (devIndex.mcp.setup), "Add Agent Rules for Developer
// Index…" (devIndex.mcp.setupRules), and `devindex mcp` offered to VS Code's agent mode where VS Code lets an
// extension define MCP servers (feature-detected). The key never goes into a file: entries name it (entries.ts).
import * as vscode from 'vscode';
import type { ApiKeyStore } from '../auth/apiKeyStore';
import { config } from '../config';
import { log } from '../log';
import { KEY_ENV, serverEnv, type EditorNetwork, type SetupClient, type SetupEntry } from './entries';
import { RULE_FILES, RULE_LABELS, RULE_TARGETS, type RuleTarget } from './rules';
import {
  cliPath,
  ensureLauncher,
  maintainEntries,
  type MaintainResult,
  type Scope,
  setupKit,
  targetFile,
} from './editorFiles';

const SETUP_COMMAND = 'devIndex.mcp.setup';
const RULES_COMMAND = 'devIndex.mcp.setupRules';
const PROVIDER_ID = 'devindex.mcp';

/** What the flow asks the user: the real UI, or a test's answers. */
interface SetupUi {
  pickClient(): Promise<SetupClient | undefined>;
  pickScope(client: SetupClient): Promise<Scope | undefined>;
  /** 'write' after the user confirmed; 'show' to see the entry instead. */
  confirm(target: string, entry: SetupEntry): Promise<'write' | 'show' | undefined>;
  show(text: string): Promise<void>;
  info(message: string): void;
}

export interface SetupResult {
  client: SetupClient;
  action: 'written' | 'unchanged' | 'shown' | 'cancelled';
  file?: string;
  text?: string;
  reason?: string;
}

/** Command arguments a test (or a walkthrough) passes to skip the pickers; nothing here can name a file. */
interface SetupArgs {
  client?: SetupClient;
  scope?: Scope;
  answer?: 'write' | 'show';
}

const CLIENTS: Array<{ id: SetupClient; label: string; detail: string }> = [
  {
    id: 'vscode',
    label: 'VS Code (mcp.json)',
    detail:
      "Writes the server to this workspace's .vscode/mcp.json or your user mcp.json; VS Code asks for the key as a password.",
  },
  {
    id: 'claude',
    label: 'Claude Code',
    detail: 'Shows the entry and the `claude mcp add-json` command; the key comes from DEVINDEX_API_KEY.',
  },
  {
    id: 'cursor',
    label: 'Cursor',
    detail: "Writes ~/.cursor/mcp.json or this workspace's .cursor/mcp.json; the key comes from DEVINDEX_API_KEY.",
  },
  {
    id: 'windsurf',
    label: 'Windsurf',
    detail: 'Writes ~/.codeium/windsurf/mcp_config.json; the key comes from DEVINDEX_API_KEY.',
  },
  {
    id: 'claude-desktop',
    label: 'Claude Desktop',
    detail: 'Writes claude_desktop_config.json; it cannot take a key by reference, so it searches without one.',
  },
  {
    id: 'generic',
    label: 'Another MCP client (stdio)',
    detail: 'Shows the command, arguments and environment to enter.',
  },
];

function editorNetwork(): EditorNetwork {
  const net = config.network();
  return {
    baseUrl: config.baseUrl(),
    proxy: net.proxy,
    noProxy: net.noProxy,
    proxyStrictSSL: net.proxyStrictSSL,
    caFile: net.caFile,
    extraCaCerts: process.env.NODE_EXTRA_CA_CERTS || undefined,
    allowInsecureHttp: config.allowInsecureHttp(),
  };
}

function shownText(entry: SetupEntry, why?: string): string {
  return setupKit().entryText(entry, { comment: '// ', ...(why ? { why } : {}) });
}

/** The setup flow: pick a client, build its entry, and write it (after the user confirms) or show it. */
async function runSetup(
  context: vscode.ExtensionContext,
  ui: SetupUi,
  network: EditorNetwork = editorNetwork(),
): Promise<SetupResult> {
  const client = await ui.pickClient();
  if (!client) return { client: 'generic', action: 'cancelled' };
  const hasFolder = !!vscode.workspace.workspaceFolders?.length;
  const scope = (client === 'vscode' || client === 'cursor') && hasFolder ? await ui.pickScope(client) : 'user';
  if (!scope) return { client, action: 'cancelled' };
  const kit = setupKit();
  const entry = kit.setupEntry(
    { client, launch: ensureLauncher(context), network },
    scope === 'workspace' ? 'project' : 'user',
  );
  const file = targetFile(context, client, scope);
  if (!file) {
    const text = shownText(entry);
    await ui.show(text);
    return { client, action: 'shown', text };
  }
  const answer = await ui.confirm(file, entry);
  if (!answer) return { client, action: 'cancelled' };
  if (answer === 'show') {
    const text = shownText(entry);
    await ui.show(text);
    return { client, action: 'shown', file, text };
  }
  const r = kit.writeEntry(file, entry);
  if (r.action === 'refused') {
    const text = shownText(entry, `${file} was left as it is: ${r.reason}. Add this entry by hand.`);
    await ui.show(text);
    return { client, action: 'shown', file, text, reason: r.reason };
  }
  ui.info(
    r.action === 'written'
      ? `Developer Index MCP server added to ${file}. ${entry.keyWords}`
      : `${file} already has this Developer Index MCP server entry. ${entry.keyWords}`,
  );
  return { client, action: r.action, file, text: r.text };
}

function realUi(args: SetupArgs): SetupUi {
  return {
    pickClient: async () =>
      args.client ??
      (
        await vscode.window.showQuickPick(
          CLIENTS.map((c) => ({ label: c.label, detail: c.detail, id: c.id })),
          {
            title: 'Set Up MCP for Another Agent',
            placeHolder: 'Which client should run the Developer Index MCP server?',
          },
        )
      )?.id,
    pickScope: async (client) =>
      args.scope ??
      (
        await vscode.window.showQuickPick(
          [
            {
              label: 'This workspace',
              detail:
                client === 'cursor'
                  ? '.cursor/mcp.json in the first workspace folder'
                  : '.vscode/mcp.json in the first workspace folder',
              id: 'workspace' as const,
            },
            {
              label: 'All workspaces',
              detail: client === 'cursor' ? '~/.cursor/mcp.json' : 'your user mcp.json',
              id: 'user' as const,
            },
          ],
          { title: 'Where should the client find the server?' },
        )
      )?.id,
    confirm: async (target, entry) => {
      if (args.answer) return args.answer;
      const pick = await vscode.window.showInformationMessage(
        `Add the Developer Index MCP server to ${target}?`,
        {
          modal: true,
          detail:
            `Only the devindex entry changes; the rest of the file (comments, other servers) ` +
            `stays as it is. The entry runs a launcher in this extension's storage that starts the ` +
            `newest installed version. ${entry.keyWords} The key is not written to the file.`,
        },
        'Write',
        'Show Instead',
      );
      return pick === 'Write' ? 'write' : pick === 'Show Instead' ? 'show' : undefined;
    },
    show: async (text) => {
      const doc = await vscode.workspace.openTextDocument({ language: 'jsonc', content: text });
      await vscode.window.showTextDocument(doc, { preview: false });
    },
    info: (m) => {
      void vscode.window.showInformationMessage(m);
    },
  };
}

/** Arguments a test passes to skip the picker; nothing here can name a file. */
interface RulesArgs {
  targets?: RuleTarget[];
}

interface RulesResult {
  action: 'done' | 'cancelled' | 'no-folder';
  results?: Array<{ target: RuleTarget; file: string; action: string; reason?: string }>;
}

/** Add Agent Rules for Developer Index…: the chosen rules, each in its marked block, in the first workspace folder. */
async function runRules(args: RulesArgs = {}): Promise<RulesResult> {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  if (!folder) {
    void vscode.window.showInformationMessage('Open a folder first: the agent rules are written into the project.');
    return { action: 'no-folder' };
  }
  const targets =
    args.targets ??
    (
      await vscode.window.showQuickPick(
        RULE_TARGETS.map((t) => ({ label: RULE_LABELS[t], description: RULE_FILES[t], picked: true, id: t })),
        {
          canPickMany: true,
          title: 'Add Agent Rules for Developer Index',
          placeHolder: 'Which agents should be told when to search the developer index?',
        },
      )
    )?.map((p) => p.id);
  if (!targets?.length) return { action: 'cancelled' };
  const results = setupKit().writeRules(folder.uri.fsPath, targets);
  const refused = results.filter((r) => r.action === 'refused');
  const ok = results.filter((r) => r.action !== 'refused');
  if (ok.length)
    void vscode.window.showInformationMessage(
      `Developer Index rules: ` +
        `${ok.map((r) => `${RULE_FILES[r.target]} ${r.action === 'written' ? 'written' : 'already up to date'}`).join(', ')}. ` +
        `Only the marked devindex block is ours; text around it is left as it is.`,
    );
  for (const r of refused)
    void vscode.window.showWarningMessage(`Developer Index did not change ${r.file}: ${r.reason}.`);
  return { action: 'done', results };
}

interface McpApi {
  registerMcpServerDefinitionProvider(
    id: string,
    provider: {
      onDidChangeMcpServerDefinitions?: vscode.Event<void>;
      provideMcpServerDefinitions(token: vscode.CancellationToken): unknown[];
      resolveMcpServerDefinition?(server: unknown, token: vscode.CancellationToken): Promise<unknown>;
    },
  ): vscode.Disposable;
}
type StdioDefinitionClass = new (
  label: string,
  command: string,
  args: string[],
  env?: Record<string, string | number | null>,
  version?: string,
) => { env: Record<string, string | number | null> };

/** VS Code's API for extension-defined MCP servers, when this editor has it. */
function mcpServerApi(ns: object): { lm: McpApi; Stdio: StdioDefinitionClass } | undefined {
  const lm = (ns as { lm?: Partial<McpApi> }).lm;
  const Stdio = (ns as { McpStdioServerDefinition?: unknown }).McpStdioServerDefinition;
  return lm && typeof lm.registerMcpServerDefinitionProvider === 'function' && typeof Stdio === 'function'
    ? { lm: lm as McpApi, Stdio: Stdio as StdioDefinitionClass }
    : undefined;
}

export interface McpSetupHandle {
  /** The activation's launcher refresh and repair (started, not awaited, by activation). */
  maintained: Promise<MaintainResult | undefined>;
  /** Runs it again (tests: with another build folder or launcher folder). */
  maintain(o?: { cli?: string; dir?: string; notify?: (m: string) => void }): Promise<MaintainResult>;
}

export function registerMcpSetup(context: vscode.ExtensionContext, o: { keys: ApiKeyStore }): McpSetupHandle {
  context.subscriptions.push(
    vscode.commands.registerCommand(SETUP_COMMAND, (args?: SetupArgs) => runSetup(context, realUi(args ?? {}))),
    vscode.commands.registerCommand(RULES_COMMAND, (args?: RulesArgs) => runRules(args ?? {})),
  );
  // After activation, off its path: a failure here is logged, never in the way.
  const maintained = new Promise<void>((res) => setTimeout(res, 0))
    .then(() => maintainEntries(context))
    .catch((e: unknown) => {
      log().warn(`MCP launcher refresh failed: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    });
  const handle: McpSetupHandle = { maintained, maintain: (m) => maintainEntries(context, m) };
  const api = mcpServerApi(vscode);
  if (!api) return handle;
  const changed = new vscode.EventEmitter<void>();
  context.subscriptions.push(
    changed,
    o.keys.onDidChange(() => changed.fire()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('devIndex') || e.affectsConfiguration('http')) changed.fire();
    }),
  );
  context.subscriptions.push(
    api.lm.registerMcpServerDefinitionProvider(PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      // The editor's own Node runs the CLI (ELECTRON_RUN_AS_NODE), so no separate node is needed.
      provideMcpServerDefinitions: () => [
        new api.Stdio(
          'Developer Index',
          process.execPath,
          [cliPath(context), 'mcp'],
          { ...serverEnv(editorNetwork()).env, ELECTRON_RUN_AS_NODE: '1' },
          (context.extension.packageJSON as { version?: string }).version,
        ),
      ],
      // The key goes to the process VS Code starts, in memory, only when it starts.
      resolveMcpServerDefinition: async (server) => {
        const key = await o.keys.get();
        if (key)
          (server as { env: Record<string, string | number | null> }).env = {
            ...(server as { env: Record<string, string | number | null> }).env,
            [KEY_ENV]: key,
          };
        return server;
      },
    }),
  );
  return handle;
}
