// `devindex`: the command-line companion. Dispatches to the search and agent subcommands.
import { VERSION } from '../api/version';
import { runAgentCommand } from './agentCommand';
import type * as Mcp from './mcp';
import { EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, type CliIo } from './common';
import { runSearchCommand } from './searchCommand';

export const USAGE = `Usage: devindex <command> [options]

Commands:
  search "<query>" [options]   search the developer index (devindex search --help)
  agent <subcommand> ...        run and follow agent jobs (devindex agent --help)
  mcp                           serve the same operations to AI agents over MCP (devindex mcp --help)

Options:
  -h, --help      show this help
  -v, --version   print the version

Environment: DEVINDEX_API_KEY, DEVINDEX_BASE_URL (default https://api.firecrawl.dev).
`;

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case undefined:
      io.err(USAGE);
      return EXIT_USAGE;
    case '-h': case '--help': case 'help':
      io.out(USAGE);
      return EXIT_OK;
    case '-v': case '--version':
      io.out(`devindex ${VERSION}\n`);
      return EXIT_OK;
    case 'search':
      return runSearchCommand(rest, io);
    case 'agent':
      return runAgentCommand(rest, io);
    case 'mcp':
      return (require('./mcp') as typeof Mcp).runMcpCommand(rest, io); // the MCP SDK loads only for this command
    default:
      io.err(`devindex: unknown command ${JSON.stringify(cmd)}\n\n${USAGE}`);
      return EXIT_USAGE;
  }
}

// Runs only as the dist/cli.js entry, not when a test bundle imports runCli.
if (require.main === module && /cli\.js$/.test(process.argv[1] ?? '')) {
  // The first Ctrl+C cancels the request or wait in progress (and says what keeps running); a second one exits at once.
  const interrupt = new AbortController();
  process.on('SIGINT', () => {
    if (interrupt.signal.aborted) process.exit(EXIT_INTERRUPTED);
    interrupt.abort();
  });
  const processIo: CliIo = {
    out: (s) => { process.stdout.write(s); },
    err: (s) => { process.stderr.write(s); },
    env: process.env,
    signal: interrupt.signal,
  };
  runCli(process.argv.slice(2), processIo).then(
    (code) => { process.exitCode = code; },
    (e: unknown) => { process.stderr.write(`devindex: ${e instanceof Error ? e.message : String(e)}\n`); process.exitCode = 1; },
  );
}
