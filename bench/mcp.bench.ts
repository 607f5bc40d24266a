// MCP server: a search round trip through `devindex mcp` (the SDK's own client over stdio,
// tool call -> server process -> sandbox -> result text) against a direct DevIndexClient.search of the
// same query on the same sandbox, in the same run (ratio), with where the time goes (the server's
// own marks of each call, DEVINDEX_MCP_TIMING=1, an MCP ping, and a bare relay process that does the same
// search and text without MCP, bench/relayProbe.ts); and the server's time from spawn to its
// first answer (initialize + one search) against the time a bare `node -e 0` and `devindex --version`
// take to spawn and exit, and against the same spawns with the compile cache off (src/cli/compileCache.ts).
// The sandbox runs in its own process, rate limits off.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { DevIndexClient } from '../src/api/client';
import type { SearchParams } from '../src/api/params';
import { findRepoRoot } from '../sandbox/serverParts';
import { searchAnswer } from '../src/tools/searchAnswer';
import { MoreCache } from '../src/tools/moreCache';
import { spawnServer, stats, timed } from './timing';
import { HttpTransport } from '../src/api/http';

const ROUNDS = 5;
const CALLS_PER_ROUND = 60;
const WARMUP = 40;
const SPAWNS = 10;
const QUERIES: SearchParams[] = [
  { query: 'retry after header', k: 10, passages: 1 },
  { query: 'connection pool keep-alive', k: 10, passages: 2 },
  { query: 'rate limit 429', k: 5, passages: 1 },
];

const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

/** With `timingLines`, the server writes its per-call marks (DEVINDEX_MCP_TIMING=1) and they are collected. */
async function connect(
  cli: string,
  url: string,
  timingLines?: string[],
  env: Record<string, string> = {},
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp'],
    stderr: timingLines ? 'pipe' : 'ignore',
    env: {
      PATH: process.env.PATH ?? '',
      DEVINDEX_BASE_URL: url,
      ...(timingLines ? { DEVINDEX_MCP_TIMING: '1' } : {}),
      ...env,
    },
  });
  if (timingLines && transport.stderr instanceof Readable) {
    createInterface({ input: transport.stderr }).on('line', (l) => {
      if (l.startsWith('devindex mcp timing: ')) timingLines.push(l);
    });
  }
  const client = new Client({ name: 'devindex-bench', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** The medians of the server's marks: `in`, `tool`, `service`, `out` (ms). */
function marks(lines: string[]): Record<'in' | 'tool' | 'service' | 'out', number> {
  const cols: Record<string, number[]> = { in: [], tool: [], service: [], out: [] };
  for (const l of lines)
    for (const k of Object.keys(cols)) cols[k]!.push(Number(new RegExp(` ${k} ([\\d.]+)`).exec(l)?.[1]));
  return {
    in: stats(cols.in!).median,
    tool: stats(cols.tool!).median,
    service: stats(cols.service!).median,
    out: stats(cols.out!).median,
  };
}

async function mcpSearch(client: Client, p: SearchParams): Promise<string> {
  const r = await client.callTool({ name: 'devIndex_search', arguments: { ...p } });
  if (r.isError) throw new Error(`tool error: ${JSON.stringify(r.content)}`);
  return (r.content as Array<{ text: string }>)[0]!.text;
}

/** The floor's process (bench/relayProbe.ts): one search per line, answered in order. */
function relay(url: string): { search(p: SearchParams): Promise<string>; close(): void } {
  const child = spawn(process.execPath, [join(__dirname, 'relayProbe.js'), url], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting: Array<(text: string) => void> = [];
  createInterface({ input: child.stdout }).on('line', (l) =>
    waiting.shift()?.((JSON.parse(l) as { text: string }).text),
  );
  return {
    search: (p) =>
      new Promise((resolve) => {
        waiting.push(resolve);
        child.stdin.write(`${JSON.stringify(p)}\n`);
      }),
    close: () => {
      child.stdin.end();
    },
  };
}

function spawnExit(args: string[]): number {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

async function main(): Promise<void> {
  const root = findRepoRoot(__dirname);
  if (!root) throw new Error('repository root not found');
  const cli = join(root, 'dist', 'cli.js');
  if (!existsSync(cli)) throw new Error('dist/cli.js is missing (npm run bench builds it)');
  const sb = await spawnServer([
    join(root, 'dist', 'sandbox.js'),
    '--port',
    '0',
    '--rate-limit',
    '100000000',
    '--keyless-rate-limit',
    '100000000',
  ]);
  const direct = new DevIndexClient({ transport: new HttpTransport(), baseUrl: sb.url });
  const timingLines: string[] = [];
  const mcp = await connect(cli, sb.url, timingLines);
  const bare = relay(sb.url);
  try {
    console.log(
      `sandbox ${sb.url}; ${ROUNDS} rounds x ${CALLS_PER_ROUND} calls per variant, interleaved, after ${WARMUP} warm-up calls; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    let i = 0;
    const next = () => QUERIES[i++ % QUERIES.length]!;
    for (let w = 0; w < WARMUP; w++) {
      const p = next();
      await direct.search(p);
      await mcpSearch(mcp, p);
      await bare.search(p);
    }
    const directMs: number[] = [];
    const mcpMs: number[] = [];
    const relayMs: number[] = [];
    await new Promise((r) => setTimeout(r, 100)); // the warm-up's last marks
    timingLines.length = 0;
    for (let r = 0; r < ROUNDS; r++) {
      for (let c = 0; c < CALLS_PER_ROUND; c++) directMs.push(await timed(() => direct.search(next())));
      for (let c = 0; c < CALLS_PER_ROUND; c++) mcpMs.push(await timed(() => mcpSearch(mcp, next())));
      for (let c = 0; c < CALLS_PER_ROUND; c++) relayMs.push(await timed(() => bare.search(next())));
    }
    await new Promise((r) => setTimeout(r, 100)); // the last marks' stderr
    const server = marks(timingLines);
    // The breakdown: the server's own marks of each timed call (DEVINDEX_MCP_TIMING=1), the stdio JSON-RPC
    // hop alone (an MCP ping), and the text for the model (in-process, on the same responses).
    const pingMs: number[] = [];
    for (let c = 0; c < CALLS_PER_ROUND * 2; c++) pingMs.push(await timed(() => mcp.ping()));
    const renderMs: number[] = [];
    const responses = await Promise.all(QUERIES.map((p) => direct.search(p)));
    const cache = new MoreCache();
    for (let c = 0; c < CALLS_PER_ROUND * 4; c++) {
      const k = c % QUERIES.length;
      renderMs.push(await timed(async () => searchAnswer(QUERIES[k]!, responses[k]!, { maxChars: 12_000, cache })));
    }
    const d = stats(directMs);
    const m = stats(mcpMs);
    const ping = stats(pingMs);
    const render = stats(renderMs);
    const floor = stats(relayMs);
    console.log('\nsearch round trip (same queries, same sandbox)');
    console.log(`  DevIndexClient.search (direct)      median ${fmt(d.median)}   p95 ${fmt(d.p95)}`);
    console.log(`  devIndex_search via devindex mcp    median ${fmt(m.median)}   p95 ${fmt(m.p95)}`);
    console.log(
      `  ratio mcp/direct (median) ${(m.median / d.median).toFixed(2)}   (p95) ${(m.p95 / d.p95).toFixed(2)}   overhead per call (median) ${fmt(m.median - d.median)}   (goal <= 1.2)`,
    );
    const inServer = server.in + server.tool + server.out;
    console.log(
      `  breakdown of an MCP call (medians of ${timingLines.length} calls; the server's own marks, DEVINDEX_MCP_TIMING=1):`,
    );
    console.log(`    in the server: the SDK reads, parses and checks the request      ${fmt(server.in)}`);
    console.log(
      `    in the server: the service call                                   ${fmt(server.service)}   (the same searches from this process: ${fmt(d.median)})`,
    );
    console.log(
      `    in the server: the rest of the tool (checks, the text, the cache) ${fmt(server.tool - server.service)}   (the text alone, in this process: ${fmt(render.median)})`,
    );
    console.log(`    in the server: the SDK checks, serialises and writes the answer   ${fmt(server.out)}`);
    console.log(
      `    outside the server: both pipes and the client's SDK              ${fmt(Math.max(0, m.median - inServer))}   (an MCP ping's round trip: ${fmt(ping.median)})`,
    );
    console.log(
      `  the SDK's part on the server (in + out): ${fmt(server.in + server.out)}; the service call in the server is ${(server.service / d.median).toFixed(2)}x the same call from this process`,
    );
    // An MCP call is the direct call plus at least one stdio round trip between two processes. On this
    // project's machines (2 virtual cores) that hop alone is a quarter of a sandbox search, so no MCP
    // server, however little it does, gets under this ratio here.
    console.log(
      `  floor: the direct call plus one stdio round trip that does nothing (ping): ${((d.median + ping.median) / d.median).toFixed(2)}x the direct call`,
    );
    console.log(
      `  floor: a bare relay process, the same search and answer text with no MCP and no SDK (a JSON line in, a JSON line out): median ${fmt(floor.median)}, ${(floor.median / d.median).toFixed(2)}x the direct call;`,
    );
    console.log(
      `         devindex mcp is ${(m.median / floor.median).toFixed(2)}x the bare relay (the protocol and the SDK on both sides: ${fmt(m.median - floor.median)})`,
    );
  } finally {
    bare.close();
    await mcp.close();
  }

  // The servers keep V8's compiled code in a cache folder of this run's own (src/cli/compileCache.ts), so
  // the first spawn starts from an empty one; the baseline, interleaved, runs with the cache off.
  const cacheHome = mkdtempSync(join(tmpdir(), 'devindex-bench-cache-'));
  const nodeOnly: number[] = [];
  const version: number[] = [];
  const firstAnswer: number[] = [];
  const ready: number[] = [];
  const uncached: number[] = [];
  let coldFirst = 0;
  const spawnToAnswer = async (s: number, env: Record<string, string>): Promise<{ ready: number; answer: number }> => {
    const t0 = process.hrtime.bigint();
    const client = await connect(cli, sb.url, undefined, env);
    const t1 = process.hrtime.bigint();
    await mcpSearch(client, QUERIES[s % QUERIES.length]!);
    const t2 = process.hrtime.bigint();
    await client.close();
    return { ready: Number(t1 - t0) / 1e6, answer: Number(t2 - t0) / 1e6 };
  };
  try {
    for (let s = 0; s <= SPAWNS; s++) {
      const cached = await spawnToAnswer(s, { XDG_CACHE_HOME: cacheHome });
      // Spawn 0 fills the cache (its code is kept as it exits): reported alone, not in the medians.
      if (s === 0) {
        coldFirst = cached.answer;
        continue;
      }
      nodeOnly.push(spawnExit(['-e', '0']));
      version.push(spawnExit([cli, '--version']));
      ready.push(cached.ready);
      firstAnswer.push(cached.answer);
      uncached.push((await spawnToAnswer(s, { XDG_CACHE_HOME: cacheHome, NODE_DISABLE_COMPILE_CACHE: '1' })).answer);
    }
  } finally {
    rmSync(cacheHome, { recursive: true, force: true });
  }
  const n = stats(nodeOnly);
  const v = stats(version);
  const r = stats(ready);
  const f = stats(firstAnswer);
  const u = stats(uncached);
  const nodeCache =
    typeof (require('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function';
  console.log(
    `\nspawn to first answer (${SPAWNS} spawns each way, interleaved; Node ${process.version}: ${nodeCache ? "Node's own compile cache" : "the project's code cache for Node 20"}, in a cache folder of this run's own)`,
  );
  console.log(`  node -e 0 (spawn and exit)                    median ${fmt(n.median)}`);
  console.log(`  devindex --version (spawn and exit)           median ${fmt(v.median)}`);
  console.log(`  devindex mcp: spawn to initialized            median ${fmt(r.median)}   p95 ${fmt(r.p95)}`);
  console.log(
    `  devindex mcp: spawn to first search answer    median ${fmt(f.median)}   p95 ${fmt(f.p95)}   (goal <= 150 ms)`,
  );
  console.log(
    `    the same with the compile cache off         median ${fmt(u.median)}   p95 ${fmt(u.p95)}   (NODE_DISABLE_COMPILE_CACHE=1): cached / off ${(f.median / u.median).toFixed(2)}`,
  );
  console.log(`    the very first spawn, its cache empty       ${fmt(coldFirst)}`);
  console.log(
    `  ratio first answer / node -e 0 (median) ${(f.median / n.median).toFixed(2)};  / devindex --version ${(f.median / v.median).toFixed(2)}`,
  );

  await direct.close();
  sb.child.kill();
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
