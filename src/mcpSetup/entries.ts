// What "Set Up MCP for Another Agent…" writes or shows, per client: the server entry that runs the
// bundled CLI (`node <absolute dist/cli.js> mcp`), the editor's proxy, certificate and plain-http
// settings in its environment, and the API key ONLY by reference: the client's own secret input (VS
// Code's mcp.json `inputs` with `password: true`) or an environment variable the client expands.
// The key itself is never an argument here. Pure and vscode-free (unit-tested).

export type SetupClient = 'vscode' | 'claude' | 'cursor' | 'generic';

export const SERVER_NAME = 'devindex';
export const KEY_ENV = 'DEVINDEX_API_KEY';
export const KEY_INPUT_ID = 'devindex-api-key';

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

export const DEFAULT_BASE = 'https://api.firecrawl.dev';

/** A proxy URL without the user name and password it may carry (those are secrets; the entry says so). */
export function proxyWithoutCredentials(proxy: string): { url: string; hadCredentials: boolean } {
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
    if (p.hadCredentials) notes.push('The proxy\'s user name and password were left out of the entry; add them where the client keeps secrets.');
  }
  if (net.noProxy?.length) env.NO_PROXY = net.noProxy.join(',');
  if (net.proxyStrictSSL === false) env.DEVINDEX_PROXY_STRICT_SSL = '0';
  if (net.caFile) env.DEVINDEX_CA_FILE = net.caFile;
  if (net.extraCaCerts) env.NODE_EXTRA_CA_CERTS = net.extraCaCerts;
  if (net.allowInsecureHttp) env.DEVINDEX_INSECURE_HTTP = '1';
  return { env, notes };
}

export interface SetupInput { client: SetupClient; node: string; cli: string; network: EditorNetwork }

export interface SetupEntry {
  client: SetupClient;
  /** What to put in the client's file (or show), as JSON text. */
  json: string;
  /** The object merged into the client's file (`servers` / `mcpServers` and, for VS Code, `inputs`). */
  merge: Record<string, unknown>;
  /** A command line that adds it (Claude Code), when the client has one. */
  command?: string;
  /** How the key gets to the server, in words. */
  keyWords: string;
  notes: string[];
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The entry for one client. */
export function setupEntry(i: SetupInput): SetupEntry {
  const { env, notes } = serverEnv(i.network);
  const args = [i.cli, 'mcp'];
  switch (i.client) {
    case 'vscode': {
      const server = { type: 'stdio', command: i.node, args, env: { [KEY_ENV]: `\${input:${KEY_INPUT_ID}}`, ...env } };
      const inputs = [{ type: 'promptString', id: KEY_INPUT_ID, description: 'Developer Index API key (leave empty to search without one)', password: true }];
      const merge = { servers: { [SERVER_NAME]: server }, inputs };
      return { client: i.client, merge, json: JSON.stringify(merge, null, 2), keyWords: 'VS Code asks for the key once (a password input) and keeps it in its secret storage.', notes };
    }
    case 'cursor': {
      const merge = { mcpServers: { [SERVER_NAME]: { command: i.node, args, env: { [KEY_ENV]: `\${env:${KEY_ENV}}`, ...env } } } };
      return { client: i.client, merge, json: JSON.stringify(merge, null, 2), keyWords: `Cursor reads the key from the ${KEY_ENV} environment variable when it starts the server.`, notes };
    }
    case 'claude': {
      const entry = { type: 'stdio', command: i.node, args, env: { [KEY_ENV]: `\${${KEY_ENV}}`, ...env } };
      const merge = { mcpServers: { [SERVER_NAME]: entry } };
      const command = `claude mcp add-json ${SERVER_NAME} ${shellQuote(JSON.stringify(entry))}`;
      return { client: i.client, merge, json: JSON.stringify(merge, null, 2), command, keyWords: `Claude Code expands \${${KEY_ENV}} from its environment: export ${KEY_ENV} before starting it.`, notes };
    }
    default: {
      const merge = { command: i.node, args, env };
      return { client: 'generic', merge, json: JSON.stringify(merge, null, 2), keyWords: `Set ${KEY_ENV} in the server's environment (search works without it; agent jobs need it).`, notes };
    }
  }
}

/** JSON with comments and trailing commas (as VS Code and Cursor allow in mcp.json) read as plain JSON, or undefined. */
export function parseJsonc(text: string): unknown {
  let out = '';
  let i = 0;
  let inString = false;
  while (i < text.length) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') { out += text[i + 1] ?? ''; i += 2; continue; }
      if (c === '"') inString = false;
      i++;
    } else if (c === '"') { inString = true; out += c; i++; }
    else if (c === '/' && text[i + 1] === '/') { while (i < text.length && text[i] !== '\n') i++; }
    else if (c === '/' && text[i + 1] === '*') { const end = text.indexOf('*/', i + 2); i = end < 0 ? text.length : end + 2; }
    else { out += c; i++; }
  }
  try {
    return out.trim() ? JSON.parse(out.replace(/,(\s*[}\]])/g, '$1')) : {};
  } catch {
    return undefined;
  }
}

/**
 * The client's file with the entry merged in: the devindex server replaced, other servers and inputs
 * kept; undefined when the existing text cannot be read as JSON (then the entry is shown instead).
 */
export function mergeInto(existing: string | undefined, entry: SetupEntry): string | undefined {
  const base = existing === undefined ? {} : parseJsonc(existing);
  if (!base || typeof base !== 'object' || Array.isArray(base)) return undefined;
  const out = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(entry.merge)) {
    if (k === 'inputs' && Array.isArray(v)) {
      const old = Array.isArray(out.inputs) ? (out.inputs as Array<{ id?: unknown }>) : [];
      const ids = new Set(v.map((x: { id?: unknown }) => x.id));
      out.inputs = [...old.filter((x) => !ids.has(x?.id)), ...v];
    } else if (v && typeof v === 'object' && !Array.isArray(v)) {
      const old = out[k] && typeof out[k] === 'object' && !Array.isArray(out[k]) ? (out[k] as Record<string, unknown>) : {};
      out[k] = { ...old, ...(v as Record<string, unknown>) };
    } else {
      out[k] = v;
    }
  }
  return `${JSON.stringify(out, null, 2)}\n`;
}
