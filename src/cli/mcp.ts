// `devindex mcp`: a Model Context Protocol server over stdio (official TypeScript SDK), exposing the
// same tools as the editor (src/tools): search, start / status / cancel an agent job, read a snapshot,
// with the same client, validation, retry rules and result text. stdout carries only protocol
// messages; anything for a person goes to stderr. It ends when stdin closes or on SIGINT/SIGTERM,
// aborting calls in flight, so a killed or abandoned session leaves nothing running.
import { VERSION } from '../api/version';
import { MCP_TOOLS } from '../tools/definitions';
import { clampBudget, DEFAULT_MAX_CHARS, MAX_MAX_CHARS, MIN_MAX_CHARS } from '../tools/modelText';
import { runTool, type AgentModule, type AgentOps, type ToolDeps } from '../tools/toolOps';
import {
  API_KEY_ENV, BASE_URL_ENV, createClientFromEnv, EXIT_OK, parseCliArgs, printError, readApiKey, splitList, UsageError, type CliIo,
} from './common';
// After the project's own modules: they initialise zod first, and the SDK's bundled zod/v4 entry
// fails to initialise in a minified bundle when it comes first ("t is not a constructor").
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export const MCP_USAGE = `Usage: devindex mcp [options]

Runs a Model Context Protocol server on stdin/stdout for AI agents (Claude Code, Cursor, VS Code,
any MCP client). Tools: devIndex_search (read-only), devIndex_startAgentJob (spends credits),
devIndex_agentJobStatus (read-only), devIndex_cancelAgentJob, devIndex_readSnapshot (read-only).

Options:
  --max-chars N     size budget of one tool answer in characters, ${MIN_MAX_CHARS} to ${MAX_MAX_CHARS} (default ${DEFAULT_MAX_CHARS});
                    passages are shortened before results are dropped, and the answer says what was cut
  --base-url URL    service address (else ${BASE_URL_ENV}, else https://api.firecrawl.dev)
  -h, --help        show this help

Environment: ${API_KEY_ENV} (optional for search, needed for agent jobs), ${BASE_URL_ENV},
DEVINDEX_AGENT_MODELS (comma-separated agent model names newer than this build).
`;

const INSTRUCTIONS = 'Developer index: one ranked search over documentation, GitHub issues, pull requests and READMEs, with quotable passages and citation links. Read the coverage notes at the end of a search answer before concluding that nothing exists: repository filters without sources leave documentation out by design. Agent jobs spend credits: start one only when a search cannot answer.';

export interface McpStreams { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream }

export async function runMcpCommand(argv: string[], io: CliIo, streams: McpStreams = { stdin: process.stdin, stdout: process.stdout }): Promise<number> {
  let maxChars: number;
  let baseUrl: string | undefined;
  try {
    const { values, positionals } = parseCliArgs(argv, { 'max-chars': { type: 'string' }, 'base-url': { type: 'string' }, help: { type: 'boolean', short: 'h' } });
    if (values.help) {
      io.out(MCP_USAGE);
      return EXIT_OK;
    }
    if (positionals.length) throw new UsageError(`mcp takes no arguments; got ${JSON.stringify(positionals[0])} (see devindex mcp --help)`);
    const raw = values['max-chars'] as string | undefined;
    maxChars = raw === undefined ? DEFAULT_MAX_CHARS : Number(raw);
    if (raw !== undefined && (!/^\d+$/.test(raw.trim()) || clampBudget(maxChars) !== maxChars)) {
      throw new UsageError(`--max-chars must be an integer from ${MIN_MAX_CHARS} to ${MAX_MAX_CHARS}; got ${JSON.stringify(raw)}`);
    }
    baseUrl = values['base-url'] as string | undefined;
  } catch (e) {
    return printError(io, e, 'devindex mcp');
  }

  let client: ReturnType<typeof createClientFromEnv>;
  try {
    client = createClientFromEnv(io, baseUrl);
  } catch (e) {
    return printError(io, e, 'devindex mcp');
  }
  const key = readApiKey(io.env);
  // As for `devindex agent start`: model names newer than this build.
  const extraModels = splitList(io.env.DEVINDEX_AGENT_MODELS) ?? [];
  const stop = new AbortController();
  let agent: Promise<AgentOps> | undefined;
  const deps: ToolDeps = {
    surface: 'mcp',
    maxChars: () => maxChars,
    secret: () => key,
    search: (params, opts) => client.search(params, opts),
    // Loaded on the first agent call: a search-only session never builds the agent client.
    agentModule: async () => require('../api/agent') as AgentModule,
    agent: () => (agent ??= Promise.resolve(new (require('../api/agent') as AgentModule).AgentClient(client, { extraModels }))),
    extraModels: () => extraModels,
    hasKey: async () => key !== undefined,
  };

  const server = new Server({ name: 'devindex', version: VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    // MCP's annotations have no word for cost: the title and description say it, and so does _meta.
    tools: MCP_TOOLS.map((t) => ({
      name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema as { type: 'object' }, annotations: t.annotations,
      _meta: { 'devindex/spendsCredits': t.spendsCredits },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const signal = AbortSignal.any([extra.signal, stop.signal]);
    const out = await runTool(req.params.name, req.params.arguments ?? {}, deps, signal);
    return { content: [{ type: 'text' as const, text: out.text }], isError: out.isError };
  });

  const transport = new StdioServerTransport(streams.stdin as NodeJS.ReadStream, streams.stdout as NodeJS.WriteStream);
  const ended = new Promise<void>((resolve) => {
    const end = () => resolve();
    streams.stdin.once('end', end);
    streams.stdin.once('close', end);
    streams.stdout.once('error', end); // the client went away (EPIPE)
    transport.onclose = end;
    io.signal?.addEventListener('abort', end, { once: true });
    process.once('SIGTERM', end);
  });
  server.onerror = (e) => io.err(`devindex mcp: ${e instanceof Error ? e.message : String(e)}\n`);
  await server.connect(transport);
  io.err(`devindex mcp ${VERSION}: serving on stdio (service ${baseUrlShown(io, baseUrl)}${key ? ', with a key' : ', no key: search only'})\n`);
  await ended;
  stop.abort();
  await server.close().catch(() => {});
  await client.close().catch(() => {});
  // Nothing should be left to keep the process alive; if something is, it must not outlive the session.
  if (streams.stdin === process.stdin) setTimeout(() => process.exit(EXIT_OK), 1000).unref();
  return EXIT_OK;
}

function baseUrlShown(io: CliIo, flag: string | undefined): string {
  return flag ?? (io.env[BASE_URL_ENV]?.trim() || 'https://api.firecrawl.dev');
}

