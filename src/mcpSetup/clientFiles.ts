// Where each MCP client keeps its servers, per platform: the user's file and, where the client has one, the
// project's. Pure (paths only), so every platform's rules can be tested anywhere.
import { posix, win32 } from 'node:path';
import type { SetupClient } from './entries';

export interface Where {
  platform: NodeJS.Platform;
  home: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

const absoluteXdg = (v: string | undefined): string | undefined => (v && posix.isAbsolute(v) ? v : undefined);

/** The folder of a desktop app's user data (`%APPDATA%`, `~/Library/Application Support`, `$XDG_CONFIG_HOME`). */
function appData(w: Where): string {
  if (w.platform === 'win32') return w.env.APPDATA || win32.join(w.home, 'AppData', 'Roaming');
  if (w.platform === 'darwin') return posix.join(w.home, 'Library', 'Application Support');
  return absoluteXdg(w.env.XDG_CONFIG_HOME) ?? posix.join(w.home, '.config');
}

/** The client's file for `scope`, or why there is none (then the entry is shown, or `--file` names one). */
export function clientFile(
  client: SetupClient,
  scope: 'user' | 'project',
  w: Where,
): { file: string } | { none: string } {
  const j = w.platform === 'win32' ? win32.join : posix.join;
  switch (client) {
    case 'vscode':
      return {
        file: scope === 'project' ? j(w.cwd, '.vscode', 'mcp.json') : j(appData(w), 'Code', 'User', 'mcp.json'),
      };
    case 'cursor':
      return { file: scope === 'project' ? j(w.cwd, '.cursor', 'mcp.json') : j(w.home, '.cursor', 'mcp.json') };
    case 'windsurf':
      return scope === 'project'
        ? { none: 'Windsurf has no project file for MCP servers; leave out --project to write your user file' }
        : { file: j(w.home, '.codeium', 'windsurf', 'mcp_config.json') };
    case 'claude-desktop':
      return scope === 'project'
        ? { none: 'Claude Desktop has no project file; leave out --project to write your user file' }
        : { file: j(appData(w), 'Claude', 'claude_desktop_config.json') };
    case 'claude':
      return { none: 'Claude Code keeps its servers in its own state: run the command below (it writes them itself)' };
    default:
      return {
        none: 'a generic client has no file of its own: enter the command, arguments and environment below, or name its file with --file',
      };
  }
}

/** Files an older version's entries may be in (repaired on activation): every client's user file and this workspace's. */
export function knownFiles(w: Where, workspaceFolders: string[]): string[] {
  const out = new Set<string>();
  for (const c of ['vscode', 'cursor', 'windsurf', 'claude-desktop'] as const) {
    const f = clientFile(c, 'user', w);
    if ('file' in f) out.add(f.file);
  }
  const j = w.platform === 'win32' ? win32.join : posix.join;
  for (const folder of workspaceFolders) {
    out.add(j(folder, '.vscode', 'mcp.json'));
    out.add(j(folder, '.cursor', 'mcp.json'));
    out.add(j(folder, '.mcp.json'));
  }
  return [...out];
}
