// What "Set Up MCP for Another Agent…" and `devindex setup mcp` write or show, per client: the entry that runs the
// launcher (launcher.ts), the editor's network settings in its environment, and the API key ONLY by reference (the
// client's secret input, or an environment variable it expands). Pure and vscode-free.

export const SETUP_CLIENTS = ['vscode', 'cursor', 'windsurf', 'claude-desktop', 'claude', 'generic'] as const;
export type SetupClient = (typeof SETUP_CLIENTS)[number];

export const SERVER_NAME = 'devindex';
export const KEY_ENV = 'DEVINDEX_API_KEY';
const KEY_INPUT_ID = 'devindex-api-key';

/** The editor's settings that the server should honour too (all optional). */
export interface EditorNetwork {
  baseUrl?: string;
  proxy?: string;
  noProxy?: string[];
  proxyStrictSSL?: boolean;
  caFile?: string;
  extraCaCerts?: string;
  allowInsecureHttp?: boolean;
}

const DEFAULT_BASE = 'https://api.firecrawl.dev';

/** A proxy URL without the user name and password it may carry (those are secrets; the entry says so). */
function proxyWithoutCredentials(proxy: string): { url: string; hadCredentials: boolean } {
  try {
    const u = new URL(proxy);
    const had = u.username !== '' || u.password !== '';
    u.username = '';
    u.password = '';
    return { url: u.toString().replace(/\/$/, ''), hadCredentials: had };
  } catch {
    return { url: proxy, hadCredentials: false };
  }
}

/** The environment for the server from the editor's settings; never the key. Notes say what was left out. */
export function serverEnv(net: EditorNetwork): { env: Record<string, string>; notes: string[] } {
  const env: Record<string, string> = {};
  const notes: string[] = [];
  if (net.baseUrl && net.baseUrl.replace(/\/$/, '') !== DEFAULT_BASE) env.DEVINDEX_BASE_URL = net.baseUrl;
  if (net.proxy) {
    const p = proxyWithoutCredentials(net.proxy);
    env.HTTPS_PROXY = p.url;
    env.HTTP_PROXY = p.url;
    if (p.hadCredentials)
      notes.push(
        "The proxy's user name and password were left out of the entry; add them where the client keeps secrets.",
      );
  }
  if (net.noProxy?.length) env.NO_PROXY = net.noProxy.join(',');
  if (net.proxyStrictSSL === false) env.DEVINDEX_PROXY_STRICT_SSL = '0';
  if (net.caFile) env.DEVINDEX_CA_FILE = net.caFile;
  if (net.extraCaCerts) env.NODE_EXTRA_CA_CERTS = net.extraCaCerts;
  if (net.allowInsecureHttp) env.DEVINDEX_INSECURE_HTTP = '1';
  return { env, notes };
}

/** How the entry starts the server: the launcher (or, for a test, any command) and its arguments before `mcp`. */
export interface Launch {
  command: string;
  args: string[];
}

interface SetupInput {
  client: SetupClient;
  launch: Launch;
  network: EditorNetwork;
}

export interface SetupEntry {
  client: SetupClient;
  /** The object that holds the servers in the client's file (`servers` for VS Code, else `mcpServers`); none for generic. */
  container: 'servers' | 'mcpServers';
  /** The server object (what goes under `<container>.devindex`). */
  server: Record<string, unknown>;
  /** VS Code's password input that the server's env names (`inputs`, matched by id). */
  input?: { type: 'promptString'; id: string; description: string; password: true };
  /** What to put in the client's file (or show), as JSON text. */
  json: string;
  /** A command line that adds it (Claude Code), when the client has one. */
  command?: string;
  /** How the key gets to the server, in words. */
  keyWords: string;
  notes: string[];
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The entry for one client. `scope` only changes Claude Code's command (`--scope project` writes the project's .mcp.json). */
export function setupEntry(i: SetupInput, scope: 'user' | 'project' = 'user'): SetupEntry {
  const { env, notes } = serverEnv(i.network);
  const command = i.launch.command;
  const args = [...i.launch.args, 'mcp'];
  const shown = (
    container: SetupEntry['container'],
    server: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ): string => JSON.stringify({ [container]: { [SERVER_NAME]: server }, ...extra }, null, 2);
  switch (i.client) {
    case 'vscode': {
      const server = { type: 'stdio', command, args, env: { [KEY_ENV]: `\${input:${KEY_INPUT_ID}}`, ...env } };
      const input = {
        type: 'promptString' as const,
        id: KEY_INPUT_ID,
        description: 'Developer Index API key (leave empty to search without one)',
        password: true as const,
      };
      return {
        client: i.client,
        container: 'servers',
        server,
        input,
        json: shown('servers', server, { inputs: [input] }),
        keyWords: 'VS Code asks for the key once (a password input) and keeps it in its secret storage.',
        notes,
      };
    }
    case 'cursor':
    case 'windsurf': {
      const server = { command, args, env: { [KEY_ENV]: `\${env:${KEY_ENV}}`, ...env } };
      const name = i.client === 'cursor' ? 'Cursor' : 'Windsurf';
      return {
        client: i.client,
        container: 'mcpServers',
        server,
        json: shown('mcpServers', server),
        keyWords: `${name} reads the key from the ${KEY_ENV} environment variable when it starts the server.`,
        notes,
      };
    }
    case 'claude-desktop': {
      // Claude Desktop expands no variables in its file and starts servers with a few variables only (PATH, HOME):
      // a key could reach the server only written into the file, which this never does.
      const server = { command, args, ...(Object.keys(env).length ? { env } : {}) };
      return {
        client: i.client,
        container: 'mcpServers',
        server,
        json: shown('mcpServers', server),
        keyWords:
          'Claude Desktop cannot take the key by reference (it expands no variables), ' +
          'so the server searches without a key; agent jobs need one: use Claude Code, ' +
          'Cursor or VS Code for those.',
        notes,
      };
    }
    case 'claude': {
      const server = { type: 'stdio', command, args, env: { [KEY_ENV]: `\${${KEY_ENV}}`, ...env } };
      const line = `claude mcp add-json --scope ${scope} ${SERVER_NAME} ${shellQuote(JSON.stringify(server))}`;
      return {
        client: i.client,
        container: 'mcpServers',
        server,
        json: shown('mcpServers', server),
        command: line,
        keyWords: `Claude Code expands \${${KEY_ENV}} from its environment: export ${KEY_ENV} before starting it.`,
        notes,
      };
    }
    default: {
      const server = { command, args, env };
      return {
        client: 'generic',
        container: 'mcpServers',
        server,
        json: JSON.stringify(server, null, 2),
        keyWords: `Set ${KEY_ENV} in the server's environment (search works without it; agent jobs need it).`,
        notes,
      };
    }
  }
}

const CLIENT_LABEL: Record<SetupClient, string> = {
  vscode: 'VS Code',
  cursor: 'Cursor',
  windsurf: 'Windsurf',
  'claude-desktop': 'Claude Desktop',
  claude: 'Claude Code',
  generic: 'an MCP client',
};

/** The entry in words and JSON, as the CLI prints it (and the editor shows it). */
export function entryText(entry: SetupEntry, opts: { target?: string; why?: string; comment?: string } = {}): string {
  const c = opts.comment ?? '';
  const lines = [
    ...(opts.why ? [`${c}${opts.why}`] : []),
    `${c}Developer Index MCP server for ${CLIENT_LABEL[entry.client]}${opts.target ? ` (${opts.target})` : ''}.`,
    `${c}The key: ${entry.keyWords}`,
    ...entry.notes.map((n) => `${c}${n}`),
    ...(entry.command
      ? [`${c}Add it with:`, `${c}  ${entry.command}`, `${c}or put this in the project's .mcp.json:`]
      : []),
    entry.json,
  ];
  return `${lines.join('\n')}\n`;
}
