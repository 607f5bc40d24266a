// `devindex search` as a whole process against the service's own CLI (`firecrawl developer`, npm
// `firecrawl-cli`, a pinned dev dependency) on the same queries against the same sandbox:
// wall time from spawn to exit, and peak memory (each process's own maxRSS, read by a preload that
// both CLIs run under, so both are measured the same way). Runs alternate, after warm-up runs, and
// the load average is printed with the figures. Goals: <= 0.8x its wall time, <= its peak memory.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRepoRoot } from '../sandbox/serverParts';
import { spawnServer, stats } from './timing';

const RUNS = 12;
const WARMUP = 2;
const KEY = 'bench-cli-compare-key-0123456789';
const QUERIES = ['retry after header', 'connection pool keep-alive', 'rate limit 429'];

const PRELOAD = `process.on('exit', () => { try { require('node:fs').writeSync(3, String(process.resourceUsage().maxRSS) + '\\n'); } catch {} });\n`;

interface Run {
  ms: number;
  maxRssKb: number;
  ok: boolean;
  out: string;
}

function run(args: string[], env: NodeJS.ProcessEnv, preload: string): Run {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['-r', preload, ...args], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    maxBuffer: 16 << 20,
  });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  const fd3 = (r.output?.[3] ?? '') as string;
  return { ms, maxRssKb: Number(fd3.trim()) || 0, ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

async function main(): Promise<void> {
  const root = findRepoRoot(__dirname);
  if (!root) throw new Error('repository root not found');
  const ours = join(root, 'dist', 'cli.js');
  const theirs = join(root, 'node_modules', 'firecrawl-cli', 'dist', 'index.js');
  if (!existsSync(ours)) throw new Error('dist/cli.js is missing (npm run bench builds it)');
  if (!existsSync(theirs)) {
    console.log('firecrawl-cli is not installed (npm ci installs the pinned dev dependency): comparison NOT MEASURED');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'devindex-cli-bench-'));
  const preload = join(dir, 'maxrss.js');
  writeFileSync(preload, PRELOAD);
  const sb = await spawnServer([
    join(root, 'dist', 'sandbox.js'),
    '--port',
    '0',
    '--key',
    KEY,
    '--rate-limit',
    '100000000',
  ]);
  // Both without a terminal, colour or update checks; both run from an empty folder (no lockfile to read).
  const base = { PATH: process.env.PATH ?? '', HOME: dir, NO_COLOR: '1' };
  const oursEnv = { ...base, DEVINDEX_API_KEY: KEY, DEVINDEX_BASE_URL: sb.url };
  const theirsEnv = { ...base, FIRECRAWL_API_KEY: KEY, FIRECRAWL_API_URL: sb.url, FIRECRAWL_NO_UPDATE_CHECK: '1' };
  const oursArgs = (q: string) => [ours, 'search', q, '-k', '10'];
  const theirsArgs = (q: string) => [theirs, 'developer', q, '--limit', '10', '--api-url', sb.url, '--api-key', KEY];
  try {
    const first = [run(oursArgs(QUERIES[0]!), oursEnv, preload), run(theirsArgs(QUERIES[0]!), theirsEnv, preload)];
    for (const [name, r] of [
      ['devindex search', first[0]!],
      ['firecrawl developer', first[1]!],
    ] as const) {
      if (!r.ok) throw new Error(`${name} failed against the sandbox: ${r.out.slice(0, 400)}`);
    }
    for (let w = 1; w < WARMUP; w++) {
      run(oursArgs(QUERIES[w % 3]!), oursEnv, preload);
      run(theirsArgs(QUERIES[w % 3]!), theirsEnv, preload);
    }
    const o: Run[] = [];
    const t: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      const q = QUERIES[i % QUERIES.length]!;
      // Alternate which goes first, so neither always meets a warmer disk cache.
      if (i % 2) {
        t.push(run(theirsArgs(q), theirsEnv, preload));
        o.push(run(oursArgs(q), oursEnv, preload));
      } else {
        o.push(run(oursArgs(q), oursEnv, preload));
        t.push(run(theirsArgs(q), theirsEnv, preload));
      }
    }
    const bad = [...o, ...t].filter((r) => !r.ok);
    if (bad.length) throw new Error(`${bad.length} runs failed: ${bad[0]!.out.slice(0, 300)}`);
    const om = stats(o.map((r) => r.ms));
    const tm = stats(t.map((r) => r.ms));
    const orss = stats(o.map((r) => r.maxRssKb));
    const trss = stats(t.map((r) => r.maxRssKb));
    const timeRatio = om.median / tm.median;
    const memRatio = orss.median / trss.median;
    console.log(
      `sandbox ${sb.url}; ${RUNS} runs each, alternating, after ${WARMUP} warm-up runs; k 10; Node ${process.version}; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      `  devindex search (dist/cli.js)           median ${om.median.toFixed(0)} ms   p95 ${om.p95.toFixed(0)} ms   peak memory median ${(orss.median / 1024).toFixed(1)} MiB`,
    );
    console.log(
      `  firecrawl developer (firecrawl-cli)     median ${tm.median.toFixed(0)} ms   p95 ${tm.p95.toFixed(0)} ms   peak memory median ${(trss.median / 1024).toFixed(1)} MiB`,
    );
    console.log(
      `  wall time ratio ${timeRatio.toFixed(2)} (goal <= 0.8: ${timeRatio <= 0.8 ? 'met' : 'NOT MET'});  peak memory ratio ${memRatio.toFixed(2)} (goal <= 1.0: ${memRatio <= 1 ? 'met' : 'NOT MET'})`,
    );
  } finally {
    sb.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
