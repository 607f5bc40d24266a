// The files the editor's MCP setup touches: each client's MCP file, the launcher in global storage (refreshed on
// activation; entries into a removed extension folder repaired), edited through dist/cli-setup.js (`devindex setup`'s
// bundle, with jsonc-parser), loaded when an edit is due so that the activation bundle never carries the parser.
import type * as Os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { log } from '../log';
import { knownFiles } from './clientFiles';
import type * as Entries from './entries';
import type { Launch, SetupClient } from './entries';
import { readUserFile, stalePaths } from './files';
import { LAUNCHER_JS, LAUNCHER_SH, launcherStamp, launchFor, scanFor, type LauncherTargets } from './launcherStamp';
import type * as SetupKit from './setupKit';

const os = (): typeof Os => require('node:os') as typeof Os;

export type Scope = 'workspace' | 'user';

/** What src/cli/setupCommand.ts, the bundle's entry, exports for the editor: this folder's own functions. */
type SetupBundle = Pick<typeof SetupKit, 'installLauncher' | 'repairFile' | 'writeEntry' | 'writeRules'> &
  Pick<typeof Entries, 'entryText' | 'setupEntry'>;

let loaded: SetupBundle | undefined;

export function setupKit(): SetupBundle {
  loaded ??= (require('./cli-setup.js') as { editorSetup: SetupBundle }).editorSetup;
  return loaded;
}

export function cliPath(context: vscode.ExtensionContext): string {
  return path.join(context.extensionUri.fsPath, 'dist', 'cli.js');
}

/** The user's mcp.json: beside settings.json, two folders above this extension's global storage. */
function userMcpJson(context: vscode.ExtensionContext): string {
  return path.join(path.dirname(path.dirname(context.globalStorageUri.fsPath)), 'mcp.json');
}

export function targetFile(context: vscode.ExtensionContext, client: SetupClient, scope: Scope): string | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const home = os().homedir();
  switch (client) {
    case 'vscode':
      return scope === 'workspace' && folder
        ? path.join(folder.uri.fsPath, '.vscode', 'mcp.json')
        : userMcpJson(context);
    case 'cursor':
      return scope === 'workspace' && folder
        ? path.join(folder.uri.fsPath, '.cursor', 'mcp.json')
        : path.join(home, '.cursor', 'mcp.json');
    case 'windsurf':
      return path.join(home, '.codeium', 'windsurf', 'mcp_config.json');
    case 'claude-desktop': {
      const base =
        process.platform === 'win32'
          ? process.env.APPDATA || path.join(home, 'AppData', 'Roaming')
          : process.platform === 'darwin'
            ? path.join(home, 'Library', 'Application Support')
            : process.env.XDG_CONFIG_HOME || path.join(home, '.config');
      return path.join(base, 'Claude', 'claude_desktop_config.json');
    }
    default:
      return undefined;
  }
}

/** Where the launcher lives: the extension's global storage, which outlives its versions. */
function launcherDir(context: vscode.ExtensionContext): string {
  return context.globalStorageUri.fsPath;
}

/** Whether the launcher in `dir` is the one these targets need (its first line, and the sh launcher beside it). */
function launcherCurrent(dir: string, targets: LauncherTargets): boolean {
  const r = readUserFile(path.join(dir, LAUNCHER_JS));
  if (r.kind !== 'text' || r.text.split('\n', 1)[0] !== launcherStamp(targets)) return false;
  return process.platform === 'win32' || readUserFile(path.join(dir, LAUNCHER_SH)).kind === 'text';
}

/** Writes (or refreshes) the launcher when it is not current, and returns how an entry runs it. */
export function ensureLauncher(context: vscode.ExtensionContext, o: { cli?: string; dir?: string } = {}): Launch {
  const cli = o.cli ?? cliPath(context);
  const dir = o.dir ?? launcherDir(context);
  const targets: LauncherTargets = { scan: scanFor(cli, path.sep as '/' | '\\'), fallback: cli };
  if (!launcherCurrent(dir, targets)) setupKit().installLauncher(dir, targets);
  return launchFor(dir, process.platform, path.join);
}

export interface MaintainResult {
  launch: Launch;
  repaired: Array<{ file: string; servers: string[] }>;
  problems: Array<{ file: string; reason: string }>;
  notice?: string;
}

/**
 * On activation: the launcher is refreshed, and entries that an older version wrote (`node <extension
 * folder>/dist/cli.js mcp`, a folder an update removed) are pointed at it, with one notice naming the files.
 * Files are only read here; dist/cli-setup.js is loaded only when one needs repair.
 */
export async function maintainEntries(
  context: vscode.ExtensionContext,
  o: { cli?: string; dir?: string; notify?: (m: string) => void } = {},
): Promise<MaintainResult> {
  const launch = ensureLauncher(context, o);
  const folders = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => f.uri.fsPath);
  const files = [
    userMcpJson(context),
    ...knownFiles(
      { platform: process.platform, home: os().homedir(), env: process.env, cwd: folders[0] ?? '' },
      folders,
    ),
  ];
  const repaired: MaintainResult['repaired'] = [];
  const problems: MaintainResult['problems'] = [];
  for (const file of [...new Set(files)]) {
    const r = readUserFile(file);
    if (r.kind !== 'text' || stalePaths(r.text).length === 0) continue;
    try {
      const done = setupKit().repairFile(file, launch);
      if (done.repaired.length) repaired.push({ file, servers: done.repaired });
      else if (done.reason) problems.push({ file, reason: done.reason });
    } catch (e) {
      problems.push({ file, reason: e instanceof Error ? e.message : String(e) });
    }
  }
  for (const p of problems)
    log().warn(`MCP entry in ${p.file} points into a removed extension folder but was not repaired: ${p.reason}`);
  if (!repaired.length) return { launch, repaired, problems };
  const notice =
    `Developer Index updated the MCP server entry ` +
    `in ${repaired.map((r) => r.file).join(' and ')}: it pointed into an extension folder that ` +
    `an update removed, and now runs a launcher that survives updates.`;
  (
    o.notify ??
    ((m: string) => {
      void vscode.window.showInformationMessage(m);
    })
  )(notice);
  log().info(notice);
  return { launch, repaired, problems, notice };
}
