// `devindex setup <mcp|rules>`: writes the MCP server entry or the agent rules through src/mcpSetup/setupKit.ts.
// Its own bundle (dist/cli-setup.js), which the editor's setup commands load too (`editorSetup`). Nothing here
// talks to the service, and the API key is never read: entries name it by reference.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { clientFile, type Where } from '../mcpSetup/clientFiles';
import {
  entryText,
  KEY_ENV,
  SETUP_CLIENTS,
  setupEntry,
  type EditorNetwork,
  type Launch,
  type SetupClient,
} from '../mcpSetup/entries';
import { launcherFiles } from '../mcpSetup/launcher';
import { scanFor } from '../mcpSetup/launcherStamp';
import { RULE_FILES, RULE_LABELS, RULE_TARGETS, ruleBlock, type RuleTarget } from '../mcpSetup/rules';
import { installLauncher, repairFile, writeEntry, writeRules } from '../mcpSetup/setupKit';
import { configDir, userHome } from './cliState';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, terminalLine, UsageError, type CliIo } from './cliBase';

/** What the editor's setup commands take from this bundle (src/mcpSetup/editorFiles.ts's setupKit). */
export const editorSetup = { entryText, installLauncher, repairFile, setupEntry, writeEntry, writeRules };

const SETUP_USAGE = `Usage: devindex setup <mcp|rules> [options]

  devindex setup mcp --client CLIENT [--project | --file PATH] [--print] [--base-url URL]
      Adds the devindex MCP server to an agent's file, or shows the entry. CLIENT is one of
      ${SETUP_CLIENTS.join(', ')}.
      --project     the project's file (run it in the project folder): VS Code .vscode/mcp.json,
                    Cursor .cursor/mcp.json, Claude Code: the command with --scope project (.mcp.json)
      (default)     the user's file: VS Code's user mcp.json, ~/.cursor/mcp.json,
                    ~/.codeium/windsurf/mcp_config.json, Claude Desktop's claude_desktop_config.json
      --file PATH   this file instead (the client's format: servers or mcpServers)
      --print       only show the entry and where it would go; nothing is written
      Claude Code and a generic client get the entry (and Claude Code its claude mcp add-json command)
      printed: they keep their servers in their own state.

  devindex setup rules [--client claude,cursor,copilot,agents] [--dir DIR] [--print]
      Writes the rules that tell coding agents when to call the search, each in its client's own place:
      ${RULE_TARGETS.map((t) => RULE_FILES[t]).join(', ')}.
      Our text is inside <!-- devindex:begin --> … <!-- devindex:end -->; text around it is never changed,
      and running it again updates only that block. --dir is the project folder (default: this folder).

The key is never written: an entry names it (VS Code's password input, or ${KEY_ENV} that the client
expands from its environment), even when ${KEY_ENV} is set here. The entry runs a launcher kept in the
CLI's config folder, which starts the newest installed devindex, so it survives updates. A file that
cannot be read or parsed is not changed (exit 1; the entry is shown with the reason). Running it again
leaves one entry.
`;

/** What a test (or the editor) passes instead of this process's surroundings. */
interface SetupDeps {
  home?: string;
  cwd?: string;
  platform?: NodeJS.Platform;
  cliPath?: string;
}

function parse(
  argv: string[],
  options: Record<string, { type: 'string' | 'boolean'; short?: string }>,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const r = parseArgs({ args: argv, options, strict: true, allowPositionals: true });
    return { values: r.values as Record<string, string | boolean | undefined>, positionals: r.positionals };
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
}

/** The network settings of this environment that the server should get too; never the key. */
function networkFromEnv(env: NodeJS.ProcessEnv, baseUrl?: string): EditorNetwork {
  const v = (k: string): string | undefined => env[k]?.trim() || undefined;
  const noProxy = v('NO_PROXY') ?? v('no_proxy');
  return {
    ...((baseUrl ?? v('DEVINDEX_BASE_URL')) ? { baseUrl: baseUrl ?? v('DEVINDEX_BASE_URL') } : {}),
    ...((v('HTTPS_PROXY') ?? v('https_proxy') ?? v('HTTP_PROXY') ?? v('http_proxy'))
      ? { proxy: v('HTTPS_PROXY') ?? v('https_proxy') ?? v('HTTP_PROXY') ?? v('http_proxy') }
      : {}),
    ...(noProxy
      ? {
          noProxy: noProxy
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        }
      : {}),
    ...(v('DEVINDEX_PROXY_STRICT_SSL') === '0' ? { proxyStrictSSL: false } : {}),
    ...(v('DEVINDEX_CA_FILE') ? { caFile: v('DEVINDEX_CA_FILE') } : {}),
    ...(v('NODE_EXTRA_CA_CERTS') ? { extraCaCerts: v('NODE_EXTRA_CA_CERTS') } : {}),
    ...(v('DEVINDEX_INSECURE_HTTP') === '1' ? { allowInsecureHttp: true } : {}),
  };
}

async function setupMcp(argv: string[], io: CliIo, deps: SetupDeps): Promise<number> {
  const { values, positionals } = parse(argv, {
    client: { type: 'string' },
    project: { type: 'boolean' },
    file: { type: 'string' },
    print: { type: 'boolean' },
    'base-url': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(SETUP_USAGE);
    return EXIT_OK;
  }
  if (positionals.length)
    throw new UsageError(`setup mcp takes no arguments; got ${JSON.stringify(positionals[0]!.slice(0, 40))}`);
  const client = values.client as string | undefined;
  if (!client) throw new UsageError(`--client is required: one of ${SETUP_CLIENTS.join(', ')}`);
  if (!(SETUP_CLIENTS as readonly string[]).includes(client))
    throw new UsageError(
      `--client must be one of ${SETUP_CLIENTS.join(', ')}; got ${JSON.stringify(client.slice(0, 40))}`,
    );
  if (values.project && values.file) throw new UsageError('--project and --file name two places: give one');
  const baseUrl = values['base-url'] as string | undefined;
  if (baseUrl !== undefined) {
    let ok = false;
    try {
      ok = /^https?:$/.test(new URL(baseUrl).protocol);
    } catch {
      ok = false;
    }
    if (!ok)
      throw new UsageError(`--base-url must be an absolute http(s) URL; got ${JSON.stringify(baseUrl.slice(0, 200))}`);
  }
  const c = client as SetupClient;
  const scope = values.project ? 'project' : 'user';
  const platform = deps.platform ?? process.platform;
  const where: Where = { platform, home: deps.home ?? userHome(), env: io.env, cwd: deps.cwd ?? process.cwd() };

  const named = values.file ? { file: resolve(where.cwd, values.file as string) } : clientFile(c, scope, where);
  if ('none' in named && scope === 'project' && (c === 'windsurf' || c === 'claude-desktop'))
    throw new UsageError(named.none);

  // The launcher lives in the CLI's config folder and starts the newest installed build.
  const cli = deps.cliPath ?? join(__dirname, 'cli.js');
  const dir = configDir(io.env, platform, where.home);
  const targets = { scan: scanFor(cli, platform === 'win32' ? '\\' : '/'), fallback: cli };
  const launch: Launch = values.print
    ? launcherFiles(dir, targets, platform, join).launch
    : installLauncher(dir, targets, platform);
  const entry = setupEntry({ client: c, launch, network: networkFromEnv(io.env, baseUrl) }, scope);

  if ('none' in named) {
    io.out(entryText(entry, { why: `${named.none}.` }));
    return EXIT_OK;
  }
  if (values.print) {
    io.out(
      entryText(entry, {
        target: named.file,
        why: `--print: nothing was written. Without it this goes into ${named.file}.`,
      }),
    );
    return EXIT_OK;
  }
  const r = writeEntry(named.file, entry);
  if (r.action === 'refused') {
    io.err(`devindex: ${terminalLine(named.file)} was not changed: ${r.reason}. Add this entry by hand:\n`);
    io.out(entryText(entry, { target: named.file }));
    return EXIT_FAILURE;
  }
  io.out(
    r.action === 'written'
      ? `Added the devindex MCP server to ${named.file} (the rest of the file is as it was).\n`
      : `${named.file} already has this devindex MCP server entry; nothing changed.\n`,
  );
  io.out(`The key: ${entry.keyWords}\n`);
  io.out(
    `It runs ${launch.command}${launch.args.length ? ` ${launch.args.join(' ')}` : ''} mcp: ` +
      `a launcher that starts the newest installed devindex, so the entry survives updates.\n`,
  );
  for (const n of entry.notes) io.out(`${n}\n`);
  return EXIT_OK;
}

async function setupRules(argv: string[], io: CliIo, deps: SetupDeps): Promise<number> {
  const { values, positionals } = parse(argv, {
    client: { type: 'string' },
    dir: { type: 'string' },
    print: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(SETUP_USAGE);
    return EXIT_OK;
  }
  if (positionals.length)
    throw new UsageError(`setup rules takes no arguments; got ${JSON.stringify(positionals[0]!.slice(0, 40))}`);
  const asked =
    values.client === undefined
      ? [...RULE_TARGETS]
      : String(values.client)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  const bad = asked.find((t) => !(RULE_TARGETS as readonly string[]).includes(t));
  if (bad !== undefined || asked.length === 0)
    throw new UsageError(
      `--client takes a comma-separated list of ${RULE_TARGETS.join(', ')}; ` +
        `got ${JSON.stringify(String(bad ?? values.client).slice(0, 40))}`,
    );
  const targets = [...new Set(asked)] as RuleTarget[];
  const folder = resolve(deps.cwd ?? process.cwd(), (values.dir as string | undefined) ?? '.');
  if (values.print) {
    for (const t of targets)
      io.out(`${RULE_LABELS[t]}: ${join(folder, ...RULE_FILES[t].split('/'))}\n${ruleBlock(t)}\n\n`);
    io.out('--print: nothing was written.\n');
    return EXIT_OK;
  }
  let failed = false;
  for (const r of writeRules(folder, targets)) {
    if (r.action === 'refused') {
      failed = true;
      io.err(`devindex: ${terminalLine(r.file)} was not changed: ${r.reason}\n`);
    } else {
      io.out(`${r.action === 'written' ? 'Wrote' : 'Up to date:'} ${RULE_LABELS[r.target]} in ${r.file}\n`);
    }
  }
  return failed ? EXIT_FAILURE : EXIT_OK;
}

/** `devindex setup <subcommand>`: a small dispatcher, so that setup can grow. */
export async function runSetupCommand(argv: string[], io: CliIo, deps: SetupDeps = {}): Promise<number> {
  const [sub, ...rest] = argv;
  try {
    switch (sub) {
      case 'mcp':
        return await setupMcp(rest, io, deps);
      case 'rules':
        return await setupRules(rest, io, deps);
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        (sub === undefined ? io.err : io.out)(SETUP_USAGE);
        return sub === undefined ? EXIT_USAGE : EXIT_OK;
      default:
        throw new UsageError(`unknown setup subcommand ${JSON.stringify(sub.slice(0, 40))}: mcp or rules`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`devindex setup: ${terminalLine(e.message)}\n`);
      return EXIT_USAGE;
    }
    io.err(`devindex setup: ${terminalLine(e instanceof Error ? e.message : String(e))}\n`);
    return EXIT_FAILURE;
  }
}
