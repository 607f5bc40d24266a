// What the browser build leaves out, and why, in one table: each left-out command still runs and says so.
import * as vscode from 'vscode';

const NOT_IN_BROWSER = {
  'devIndex.deps.searchTerminalSelection': 'the terminal needs a local process',
  'devIndex.mcp.setup': 'an MCP server is the devindex command line running as a local process',
  'devIndex.mcp.setupRules':
    "the rules are written into the project's files, which a browser extension cannot write atomically",
  'devIndex.diagnose':
    'the connection diagnosis probes DNS, TCP and TLS from Node, ' +
    "which a browser does not allow (the browser's developer tools, Network tab, " +
    'show why a request failed)',
  'devIndex.reportIssue':
    "the report carries the connection diagnosis, which needs Node's network probes; " +
    'report from desktop VS Code, or describe the problem on the issue tracker',
} as const;

/** What a left-out command resolves with; the user sees the same words. */
export interface Unavailable {
  unavailable: true;
  reason: string;
}

function notInBrowser(title: string, why: string): Unavailable {
  const reason = `${title} is not available in the browser: ${why}. It works in desktop VS Code.`;
  void vscode.window.showInformationMessage(reason);
  return { unavailable: true, reason };
}

/** Registers every left-out command; `titles` are the palette titles from package.json. */
export function registerLeftOut(context: vscode.ExtensionContext, titles: Record<string, string>): void {
  for (const [id, why] of Object.entries(NOT_IN_BROWSER)) {
    context.subscriptions.push(vscode.commands.registerCommand(id, () => notInBrowser(titles[id] ?? id, why)));
  }
}
