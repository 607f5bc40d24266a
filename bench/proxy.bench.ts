// Proxy overhead per search: DevIndexClient.search against the sandbox directly, through a
// loopback forward proxy (the `proxy` package in its own process; a CONNECT tunnel kept alive, as a
// corporate proxy is used), and through the proxy-aware agent with the host in NO_PROXY (the cost of
// choosing). Ratios to the direct figure measured in the same run.
import { spawn, type ChildProcess } from 'node:child_process';
import { DevIndexClient } from '../src/api/client';
import type { SearchParams } from '../src/api/params';
import { startSandbox } from '../sandbox/server';
import { findRepoRoot } from '../sandbox/serverParts';
import { fmt, stats, time } from './timing';
import { HttpTransport } from '../src/api/http';

const ROUNDS = 5;
const CALLS_PER_ROUND = 200;
const WARMUP = 100;

function startProxyProcess(): Promise<{ url: string; child: ChildProcess }> {
  const src = `
    import { createServer } from 'node:http';
    import { createProxy } from 'proxy';
    const s = createProxy(createServer());
    s.listen(0, '127.0.0.1', () => console.log(s.address().port));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', src], {
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: findRepoRoot(__dirname),
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', (d: Buffer) => resolve({ url: `http://127.0.0.1:${String(d).trim()}`, child }));
  });
}

async function main(): Promise<void> {
  const sb = await startSandbox({ port: 0, quiet: true, keylessRateLimit: 10_000_000 });
  const proxy = await startProxyProcess();
  const params: SearchParams = { query: 'http client retry timeout stream', k: 10 };
  const variants: Array<[string, DevIndexClient]> = [
    ['direct', new DevIndexClient({ baseUrl: sb.url, transport: new HttpTransport({ network: { env: {} } }) })],
    [
      'through the loopback proxy',
      new DevIndexClient({ baseUrl: sb.url, transport: new HttpTransport({ network: { proxy: proxy.url, env: {} } }) }),
    ],
    [
      'proxy agent, host in NO_PROXY',
      new DevIndexClient({
        baseUrl: sb.url,
        transport: new HttpTransport({ network: { proxy: proxy.url, noProxy: ['127.0.0.1'], env: {} } }),
      }),
    ],
  ];
  try {
    console.log(
      `sandbox ${sb.url}, proxy ${proxy.url}; ${ROUNDS} rounds x ${CALLS_PER_ROUND} searches (k=10) per variant, interleaved, after ${WARMUP} warm-up calls`,
    );
    const samples = variants.map(() => [] as number[]);
    for (const [, c] of variants) await time(() => c.search(params), WARMUP, []);
    for (let round = 0; round < ROUNDS; round++) {
      for (let v = 0; v < variants.length; v++)
        await time(() => variants[v]![1].search(params), CALLS_PER_ROUND, samples[v]!);
    }
    const st = samples.map(stats);
    variants.forEach(([name], i) =>
      console.log(`  ${name.padEnd(32)} median ${fmt(st[i]!.median)}   p95 ${fmt(st[i]!.p95)}`),
    );
    const d = st[0]!;
    const p = st[1]!;
    const n = st[2]!;
    console.log(
      `  proxy overhead per search (median) ${fmt(p.median - d.median)}; ratio proxied/direct ${(p.median / d.median).toFixed(3)} (p95 ${(p.p95 / d.p95).toFixed(3)})`,
    );
    console.log(`  ratio NO_PROXY-bypass/direct (median) ${(n.median / d.median).toFixed(3)}`);
  } finally {
    await Promise.all(variants.map(([, c]) => c.close()));
    proxy.child.kill();
    await sb.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
