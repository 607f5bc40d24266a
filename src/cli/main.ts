// `devindex`: the command-line companion. Dispatches to the search, agent, watch, mcp, doctor and setup
// subcommands, each loaded only when it runs (in dist/ each is its own file: cli-search.js, cli-agent.js,
// cli-mcp.js, cli-doctor.js, cli-watch.js, cli-fixes.js, cli-setup.js), so starting one command never parses another's code.
import { join } from 'node:path';
import type { ClientOptions } from '../api/client';
import { VERSION } from '../api/version';
import type * as Agent from './agentCommand';
import { loadCommandBundle, startCompileCache } from './compileCache';
import {
  EXIT_FAILURE,
  EXIT_INTERRUPTED,
  EXIT_OK,
  EXIT_USAGE,
  parseTimeoutSeconds,
  sanitizeForTerminal,
  terminalLine,
  UsageError,
  type CliIo,
} from './cliBase';
import type * as Doctor from './doctorCommand';
import type * as Fixes from './fixesCommand';
import type { DoctorOptions } from '../doctor/context';
import type * as Mcp from './mcp';
import type * as Search from './searchCommand';
import type * as Setup from './setupCommand';
import type * as Watch from './watchCommand';

export const USAGE = `Usage: devindex <command> [options]

Commands:
  search "<query>" [options]   search the developer index (devindex search --help)
  agent <subcommand> ...        run and follow agent jobs (devindex agent --help)
  watch <add|list|check|remove> watch for a fix: saved searches, what is new (devindex watch --help)
  fixes [--dir PATH] [--all]    the known bugs your dependencies still have: fixes in versions newer
                                than the installed ones (devindex fixes --help)
  mcp                           serve the same operations to AI agents over MCP (devindex mcp --help)
  doctor [--base-url URL] [--json]
                                check the connection (URL, DNS, proxy, TLS, service, key, clock) and
                                say what to change (devindex doctor --help)
  setup <mcp|rules> ...         add the MCP server to an agent's file, or the rules that make agents
                                use the search (devindex setup --help)

Options:
  --timeout SECONDS  time limit of each attempt, 0.1 to 300 (default 30); a request is tried at
                     most 5 times with backoff waits between, so it may take up to about
                     5 x SECONDS plus 1 minute before the command gives up (any command)
  -h, --help         show this help
  -v, --version      print the version

Environment: DEVINDEX_API_KEY, DEVINDEX_BASE_URL (default https://api.firecrawl.dev),
  HTTPS_PROXY / HTTP_PROXY / NO_PROXY (a forward proxy; credentials as http://user:pass@host:port),
  NODE_EXTRA_CA_CERTS (a PEM file of extra certificate authorities, e.g. a TLS-inspecting gateway's),
  DEVINDEX_INSECURE_HTTP=1 (allow sending the key over plain http to a host that is not loopback).
`;

/**
 * Takes `--timeout S` / `--timeout=S` out of argv wherever it stands before a `--` (it applies to
 * every command). Returns the rest and the per-attempt timeout in ms.
 */
export function extractTimeout(argv: string[]): { argv: string[]; timeoutMs?: number } {
  const rest: string[] = [];
  let timeoutMs: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (a === '--timeout') {
      const v = argv[i + 1];
      if (v === undefined) throw new UsageError('--timeout needs a number of seconds (per attempt), e.g. --timeout 10');
      timeoutMs = parseTimeoutSeconds(v);
      i++;
    } else if (a.startsWith('--timeout=')) {
      timeoutMs = parseTimeoutSeconds(a.slice('--timeout='.length));
    } else {
      rest.push(a);
    }
  }
  return { argv: rest, timeoutMs };
}

/** A failure before any command ran (a bad --timeout) or one no command caught: one line, never a stack. */
function fail(io: CliIo, e: unknown): number {
  io.err(`devindex: ${terminalLine(e instanceof Error ? e.message : String(e))}\n`);
  return e instanceof UsageError ? EXIT_USAGE : EXIT_FAILURE;
}

/**
 * On Node 20, once the entry turned the compile cache on, loads the command's bundle (next to dist/cli.js;
 * the names are those of scripts/build.mjs's CLI_COMMANDS) with V8's code kept from the last run. Nothing
 * otherwise: Node 22.1+ keeps the code itself, and a test's own build has no such files.
 */
const bundle = (name: string): void => {
  loadCommandBundle(join(__dirname, name));
};

/** Tests pass client options (a clock that does not sleep, a short timeout) down to every command. */
interface CliDeps {
  clientOptions?: Partial<ClientOptions>;
  doctor?: Omit<DoctorOptions, 'signal'>;
}

export async function runCli(rawArgv: string[], io: CliIo, deps: CliDeps = {}): Promise<number> {
  let argv: string[];
  try {
    const t = extractTimeout(rawArgv);
    argv = t.argv;
    if (t.timeoutMs !== undefined) io = { ...io, timeoutMs: t.timeoutMs };
  } catch (e) {
    return fail(io, e);
  }
  // The last gate: whatever a command prints (a server's job id, an agent's text) reaches the terminal sanitised.
  const raw = io;
  io = { ...io, out: (s) => raw.out(sanitizeForTerminal(s)), err: (s) => raw.err(sanitizeForTerminal(s)) };
  const [cmd, ...rest] = argv;
  const withClient = deps.clientOptions ? { clientOptions: deps.clientOptions } : {};
  switch (cmd) {
    case undefined:
      io.err(USAGE);
      return EXIT_USAGE;
    case '-h':
    case '--help':
    case 'help':
      io.out(USAGE);
      return EXIT_OK;
    case '-v':
    case '--version':
      io.out(`devindex ${VERSION}\n`);
      return EXIT_OK;
    case 'search':
      bundle('cli-search.js');
      return (require('./searchCommand') as typeof Search).runSearchCommand(rest, io, withClient);
    case 'agent':
      bundle('cli-agent.js');
      return (require('./agentCommand') as typeof Agent).runAgentCommand(rest, io, withClient);
    case 'doctor':
      // Loaded only for this command, as the MCP server is (dist/cli-doctor.js).
      bundle('cli-doctor.js');
      return (require('./doctorCommand') as typeof Doctor).runDoctorCommand(
        rest,
        io,
        deps.doctor ? { doctor: deps.doctor } : {},
      );
    case 'watch':
      // dist/cli-watch.js, loaded only for this command.
      bundle('cli-watch.js');
      return (require('./watchCommand') as typeof Watch).runWatchCommand(rest, io, withClient);
    case 'fixes':
      // dist/cli-fixes.js, loaded only for this command.
      bundle('cli-fixes.js');
      return (require('./fixesCommand') as typeof Fixes).runFixesCommand(rest, io, withClient);
    case 'setup':
      // dist/cli-setup.js: files only, no client.
      bundle('cli-setup.js');
      return (require('./setupCommand') as typeof Setup).runSetupCommand(rest, io);
    case 'mcp':
      bundle('cli-mcp.js');
      return (require('./mcp') as typeof Mcp).runMcpCommand(rest, io); // the MCP SDK loads only for this command
    default:
      io.err(`devindex: unknown command ${JSON.stringify(cmd).replace(/[\u007f-\u009f]/g, '')}\n\n${USAGE}`);
      return EXIT_USAGE;
  }
}

/**
 * Runs the process's command line (process.argv) as `devindex` does. dist/cli.js runs it when it is the main
 * module; the MCP launcher (src/mcpSetup/launcher.ts) requires dist/cli.js and calls it, so the newest build
 * runs in the launcher's own process.
 */
export function runAsEntry(): void {
  // V8's compiled code of the command bundles is kept between runs in the user's cache folder (Node 22.1+'s
  // own cache; on Node 20 the bundle is loaded by `bundle` below), so a spawned `devindex mcp` does not
  // compile its bundle again. Before any command loads.
  startCompileCache(process.env);
  // V8's baseline WebAssembly compiler is enough for undici's HTTP parser (llhttp): our answers are tens
  // of KB, parsed in microseconds either way. Without this V8 also compiles the parser with its
  // optimising compiler, which raised a search's peak memory from about 61 to 96 MB and spent CPU that
  // a one-shot command never recovers (npm run bench, cliCompare); an MCP server, which an agent may run
  // several of, keeps the 35 MB too.
  (require('node:v8') as typeof import('node:v8')).setFlagsFromString('--liftoff-only');
  // The first Ctrl+C cancels the request or wait in progress (and says what keeps running); a second one exits at once.
  const interrupt = new AbortController();
  process.on('SIGINT', () => {
    if (interrupt.signal.aborted) process.exit(EXIT_INTERRUPTED);
    interrupt.abort();
  });
  const processIo: CliIo = {
    out: (s) => {
      process.stdout.write(s);
    },
    err: (s) => {
      process.stderr.write(s);
    },
    env: process.env,
    signal: interrupt.signal,
  };
  runCli(process.argv.slice(2), processIo).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      fail(processIo, e);
      process.exitCode = EXIT_FAILURE;
    },
  );
}

// Runs only as the dist/cli.js entry, not when a test bundle imports runCli.
if (require.main === module && /cli\.js$/.test(process.argv[1] ?? '')) runAsEntry();
