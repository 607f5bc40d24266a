// `devindex mcp`: a Model Context Protocol server over stdio (the official SDK) with the editor's tools (src/tools),
// client, checks, retry rules and result text. stdout carries only protocol messages, anything for a person goes to
// stderr; it ends when stdin closes or on SIGINT/SIGTERM, aborting the calls in flight.
import { VERSION } from '../api/version';
import { NoticeBoard } from '../api/notices';
import { listedTool, MCP_TOOLS } from '../tools/definitions';
import { TOOL_NAMES } from '../tools/names';
import { clampBudget, DEFAULT_MAX_CHARS, MAX_MAX_CHARS, MIN_MAX_CHARS } from '../tools/modelText';
import { MoreCache } from '../tools/moreCache';
import { AgentClient, agentModule } from '../api/agent/agentClient';
import { runTool } from '../tools/toolOps';
import { type AgentOps, type ToolDeps } from '../tools/toolTypes';
import { checkFixes } from '../fixes/check';
import { fileFixesCache } from '../fixes/fileCache';
import { readWorkspaceDependencies } from '../fixes/workspace';
import { systemClock } from '../api/retry';
import { join } from 'node:path';
import { cacheDir } from './cliState';
import {
  BASE_URL_ENV,
  createClientFromEnv,
  INSECURE_HTTP_ENV,
  parseCliArgs,
  pollTimingFromEnv,
  printError,
  readApiKey,
  resolveBaseUrl,
  splitList,
} from './common';
import { API_KEY_ENV } from '../words/failureWords';
import { EXIT_OK, UsageError, type CliIo } from './cliBase';
// After the project's own modules: they initialise zod first, and the SDK's bundled zod/v4 entry
// fails to initialise in a minified bundle when it comes first ("t is not a constructor").
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { resolveFolder } from '../deps/resolver';

/** `--tools` names: the tool name or its short form (`search`, `readMore`, `waitForAgentJob`…), any case. */
function parseToolList(v: string | undefined): string[] | undefined {
  const names = splitList(v);
  if (names === undefined) return undefined;
  const all = MCP_TOOLS.map((t) => t.name as string);
  const picked: string[] = [];
  for (const n of names) {
    const full = all.find(
      (t) => t.toLowerCase() === n.toLowerCase() || t.toLowerCase() === `devindex_${n.toLowerCase()}`,
    );
    if (!full)
      throw new UsageError(
        `--tools: unknown tool ${JSON.stringify(n.slice(0, 60))} (known: ${all.map((t) => t.replace(/^devIndex_/, '')).join(', ')})`,
      );
    if (!picked.includes(full)) picked.push(full);
  }
  if (!picked.length) throw new UsageError('--tools needs at least one tool name, e.g. --tools search,readMore');
  return picked;
}

const SHORT_NAMES = Object.values(TOOL_NAMES)
  .map((t) => t.replace(/^devIndex_/, ''))
  .join(', ');

const MAX_CHARS_RANGE = `${MIN_MAX_CHARS} to ${MAX_MAX_CHARS} (default ${DEFAULT_MAX_CHARS})`;

const MCP_USAGE = `Usage: devindex mcp [options]

Runs a Model Context Protocol server on stdin/stdout for AI agents (Claude Code, Cursor, VS Code,
any MCP client). Tools: devIndex_search and devIndex_readMore (read-only), devIndex_startAgentJob
(spends credits), devIndex_agentJobStatus, devIndex_waitForAgentJob (progress notifications),
devIndex_listAgentJobs (read-only), devIndex_cancelAgentJob, devIndex_readSnapshot (read-only).

Options:
  --tools LIST      list only these tools, e.g. --tools search,readMore (names: ${SHORT_NAMES})
  --max-chars N     default size budget of one tool answer in characters, ${MAX_CHARS_RANGE};
                    a call's maxTokens replaces it (about 4 characters a token)
  --base-url URL    service address (else ${BASE_URL_ENV}, else https://api.firecrawl.dev)
  --proxy URL       forward proxy (else HTTPS_PROXY / HTTP_PROXY, with NO_PROXY)
  --ca-file PATH    PEM file of extra certificate authorities (else DEVINDEX_CA_FILE; NODE_EXTRA_CA_CERTS is read too)
  --no-proxy-strict-ssl   do not verify certificates behind the proxy (else DEVINDEX_PROXY_STRICT_SSL=0)
  --insecure-http   allow sending the key over plain http to a host that is not loopback (else ${INSECURE_HTTP_ENV}=1)
  -h, --help        show this help

Environment: ${API_KEY_ENV} (optional for search, needed for agent jobs), ${BASE_URL_ENV},
DEVINDEX_AGENT_MODELS (comma-separated agent model names newer than this build), and the network
settings above. "Developer Index: Set Up MCP for Another Agent…" in VS Code writes these for you.
`;

const INSTRUCTIONS =
  'Developer index: one ranked search over documentation, GitHub issues, ' +
  'pull requests and READMEs, with quotable passages and citation links. ' +
  'Read the coverage notes at the end of a search answer before concluding that nothing ' +
  'exists: repository filters without sources leave documentation out by design. ' +
  'Each answer ends with its handle: list the handles of answers you still hold in `have`, ' +
  'and their passages are named, not sent again. Agent jobs spend credits: ' +
  'start one only when a search cannot answer.';

/**
 * The SDK checks a client's answers to elicitation (the server asking the user for input) against a JSON Schema,
 * with ajv by default. This server never elicits, so it needs no validator, and dist/cli-mcp.js is built without
 * ajv (scripts/build.mjs, mcp-without-ajv): about 10 ms of every spawn.
 */
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator() {
    throw new Error('devindex mcp never asks the client for input');
  },
};

interface McpStreams {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
}

export async function runMcpCommand(
  argv: string[],
  io: CliIo,
  streams: McpStreams = { stdin: process.stdin, stdout: process.stdout },
): Promise<number> {
  let maxChars: number;
  let baseUrl: string | undefined;
  let tools: string[] | undefined;
  let network: { proxy?: string; caFile?: string; proxyStrictSSL?: boolean; insecure: boolean };
  try {
    const { values, positionals } = parseCliArgs(argv, {
      'max-chars': { type: 'string' },
      'base-url': { type: 'string' },
      tools: { type: 'string' },
      proxy: { type: 'string' },
      'ca-file': { type: 'string' },
      'no-proxy-strict-ssl': { type: 'boolean' },
      'insecure-http': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.out(MCP_USAGE);
      return EXIT_OK;
    }
    if (positionals.length)
      throw new UsageError(`mcp takes no arguments; got ${JSON.stringify(positionals[0])} (see devindex mcp --help)`);
    const raw = values['max-chars'] as string | undefined;
    maxChars = raw === undefined ? DEFAULT_MAX_CHARS : Number(raw);
    if (raw !== undefined && (!/^\d+$/.test(raw.trim()) || clampBudget(maxChars) !== maxChars)) {
      throw new UsageError(
        `--max-chars must be an integer from ${MIN_MAX_CHARS} to ${MAX_MAX_CHARS}; got ${JSON.stringify(raw)}`,
      );
    }
    baseUrl = values['base-url'] as string | undefined;
    tools = parseToolList(values.tools as string | undefined);
    network = networkFrom(values, io.env);
  } catch (e) {
    return printError(io, e, 'devindex mcp');
  }

  const notices = new NoticeBoard();
  let client: ReturnType<typeof createClientFromEnv>;
  try {
    client = createClientFromEnv(io, baseUrl, {
      // Deprecations and service warnings: stderr once (createClientFromEnv), and the next tool answer tells the model.
      onNotice: (n) => notices.add(n, Date.now()),
      network: {
        env: io.env,
        ...(network.proxy ? { proxy: network.proxy } : {}),
        ...(network.caFile ? { caFile: network.caFile } : {}),
        ...(network.proxyStrictSSL === false ? { proxyStrictSSL: false } : {}),
      },
      allowInsecureHttp: network.insecure,
    });
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
    folderDependencies: resolveFolder,
    maxChars: () => maxChars,
    secret: () => key,
    search: (params, opts) => client.search(params, opts),
    takeNotices: () => notices.take(),
    // Built on the first agent call: a search-only session never makes the agent client.
    agentModule: async () => agentModule,
    agent: () => (agent ??= Promise.resolve(new AgentClient(client, { extraModels }))),
    extraModels: () => extraModels,
    hasKey: async () => key !== undefined,
    moreCache: new MoreCache(moreTtl(io.env)),
    pollTiming: pollTimingFromEnv(io.env),
    // devIndex_fixes: the same engine, reader and day's cache as `devindex fixes`.
    fixes: async (folder, o) =>
      checkFixes(await readWorkspaceDependencies(folder, {}), o, {
        search: (params, opts) => client.search(params, opts),
        cache: fileFixesCache(join(cacheDir(io.env), 'fixes'), systemClock.now),
        clock: systemClock,
        service: resolveBaseUrl(baseUrl, io.env),
        ...(key === undefined ? { keyless: true } : {}),
      }),
  };
  const listed = tools ? MCP_TOOLS.filter((t) => tools.includes(t.name)) : MCP_TOOLS;
  const timing = io.env.DEVINDEX_MCP_TIMING === '1' ? new CallTiming() : undefined;
  if (timing) {
    const search = deps.search;
    deps.search = (params, opts) => timing.service(() => search(params, opts));
  }

  const server = new Server(
    { name: 'devindex', version: VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: NO_ELICITATION },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    // MCP's annotations have no word for cost: the title and description say it, and so does _meta.
    tools: listed.map((t) => ({ ...listedTool(t), inputSchema: t.inputSchema as { type: 'object' } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    timing?.handlerStarts(req.params.name);
    const signal = AbortSignal.any([extra.signal, stop.signal]);
    const name = req.params.name;
    if (tools && !tools.includes(name)) {
      return {
        content: [
          {
            type: 'text' as const,
            text: `Tool ${JSON.stringify(name)} is not offered by this server (started with --tools ${tools.join(',')}).`,
          },
        ],
        isError: true,
      };
    }
    // One notification per progress line, only when the client asked for progress.
    const token = req.params._meta?.progressToken;
    let n = 0;
    const progress =
      token === undefined
        ? undefined
        : (line: string): void => {
            n++;
            void extra
              .sendNotification({
                method: 'notifications/progress',
                params: { progressToken: token, progress: n, message: line },
              })
              .catch(() => {});
          };
    const out = await runTool(name, req.params.arguments ?? {}, deps, signal, progress);
    timing?.handlerEnds();
    return { content: [{ type: 'text' as const, text: out.text }], isError: out.isError };
  });

  const transport = new StdioServerTransport(streams.stdin as NodeJS.ReadStream, streams.stdout as NodeJS.WriteStream);
  if (timing) {
    streams.stdin.on('data', () => timing.received());
    const send = transport.send.bind(transport);
    transport.send = (message) => {
      const line = timing.sending();
      const sent = send(message); // writes to stdout at once; the timing line follows it, off the answer's path
      if (line) io.err(line);
      return sent;
    };
  }
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
  // Between initialize and the first tool call a model is usually still thinking: the client's setup for the
  // service (over https, the certificate authorities: 45 ms on Node 24) is done then, not in the first answer.
  server.oninitialized = () => {
    setImmediate(() => client.prepare());
  };
  await server.connect(transport);
  io.err(
    `devindex mcp ${VERSION}: serving on stdio (service ${baseUrlShown(io, baseUrl)}${key ? ', with a key' : ', no key: search only'})\n`,
  );
  await ended;
  stop.abort();
  await server.close().catch(() => {});
  await client.close().catch(() => {});
  // Nothing should be left to keep the process alive; if something is, it must not outlive the session.
  if (streams.stdin === process.stdin) setTimeout(() => process.exit(EXIT_OK), 1000).unref();
  return EXIT_OK;
}

/**
 * DEVINDEX_MCP_TIMING=1 (npm run bench, mcp): one stderr line per tool call, in ms, saying where its time in this
 * process went: `in` from the request's bytes arriving to the tool handler (the SDK reads, parses and checks it),
 * `tool` the handler (of which `service` the service call), `out` from the handler's end to the answer's write
 * (the SDK checks and serialises it). Calls are taken one at a time; overlapping calls mix their marks.
 */
class CallTiming {
  private arrived = 0;
  private started = 0;
  private ended = 0;
  private serviceMs = 0;
  private tool = '';

  received(): void {
    this.arrived = performance.now();
  }

  handlerStarts(tool: string): void {
    this.started = performance.now();
    this.tool = tool;
    this.serviceMs = 0;
  }

  async service<T>(call: () => Promise<T>): Promise<T> {
    const t = performance.now();
    try {
      return await call();
    } finally {
      this.serviceMs += performance.now() - t;
    }
  }

  handlerEnds(): void {
    this.ended = performance.now();
  }

  /** The line for the answer about to be written, or undefined for any other message. */
  sending(): string | undefined {
    if (!this.ended) return undefined; // a notification or another request's answer
    const now = performance.now();
    const f = (n: number) => n.toFixed(3);
    const line =
      `devindex mcp timing: ${this.tool} in ${f(this.started - this.arrived)} ` +
      `tool ${f(this.ended - this.started)} service ${f(this.serviceMs)} ` +
      `out ${f(now - this.ended)}\n`;
    this.ended = 0;
    return line;
  }
}

function baseUrlShown(io: CliIo, flag: string | undefined): string {
  return flag ?? (io.env[BASE_URL_ENV]?.trim() || 'https://api.firecrawl.dev');
}

type Flags = Record<string, string | boolean | string[] | boolean[] | undefined>;

/**
 * Proxy, certificate authorities and plain-http permission: the flags, else the environment (as the editor's settings
 * written by the setup command).
 */
function networkFrom(
  values: Flags,
  env: NodeJS.ProcessEnv,
): { proxy?: string; caFile?: string; proxyStrictSSL?: boolean; insecure: boolean } {
  const proxy = (values.proxy as string | undefined)?.trim() || undefined;
  if (proxy) {
    try {
      const u = new URL(proxy);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
    } catch {
      throw new UsageError(
        `--proxy must be an http(s) URL such as http://proxy.example:3128; got ${JSON.stringify(proxy.slice(0, 100))}`,
      );
    }
  }
  const caFile = (values['ca-file'] as string | undefined)?.trim() || env.DEVINDEX_CA_FILE?.trim() || undefined;
  const strictOff = values['no-proxy-strict-ssl'] === true || env.DEVINDEX_PROXY_STRICT_SSL?.trim() === '0';
  const insecure = values['insecure-http'] === true || env[INSECURE_HTTP_ENV]?.trim() === '1';
  return {
    ...(proxy ? { proxy } : {}),
    ...(caFile ? { caFile } : {}),
    ...(strictOff ? { proxyStrictSSL: false } : {}),
    insecure,
  };
}

/** DEVINDEX_MORE_TTL_SECONDS: how long cut answers are kept (tests shorten it); 1 to 3600. */
function moreTtl(env: NodeJS.ProcessEnv): { ttlMs?: number } {
  const n = Number(env.DEVINDEX_MORE_TTL_SECONDS);
  return Number.isFinite(n) && n >= 1 && n <= 3600 ? { ttlMs: n * 1000 } : {};
}
