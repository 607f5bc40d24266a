// Client benchmark (issue 2, section 6): per-call median and p95 for bare undici.request + JSON.parse,
// global fetch + JSON.parse, and DevIndexClient.search, at k=10 x 1 passage and k=100 x 5 passages;
// ratios client/undici and client/fetch; heap growth over 10,000 client calls.
//
// The server is a canned one in a child process: bodies are real sandbox answers (padded to k results
// with the corpus' own passages when the corpus has fewer matches), so every variant parses the same
// bytes and the figures show the client's own cost, not the search engine's.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'undici';
import { DevIndexClient } from '../src/api/client';
import type { SearchParams } from '../src/api/params';
import { startSandbox } from '../sandbox/server';
import { fmt, stats, time } from './timing';

const ROUNDS = 5;
const CALLS_PER_ROUND = 300;
const WARMUP = 300;
const HEAP_CALLS = 10_000;

interface Scenario { name: string; params: SearchParams; body: string }

async function cannedBodies(): Promise<Scenario[]> {
  const sb = await startSandbox({ port: 0, quiet: true, keylessRateLimit: 1_000_000 });
  const client = new DevIndexClient({ baseUrl: sb.url });
  try {
    const out: Scenario[] = [];
    for (const [k, passages] of [[10, 1], [100, 5]] as const) {
      const params: SearchParams = { query: 'http client retry timeout stream', k, passages };
      const res = await client.search(params);
      const results = [...res.results];
      for (let i = 0; results.length < k && res.results.length > 0; i++) {
        const src = res.results[i % res.results.length]!;
        results.push({ ...src, id: `${src.id}~${i}` });
      }
      out.push({ name: `k=${k} x ${passages} passage${passages > 1 ? 's' : ''}`, params, body: JSON.stringify({ ...res, results }) });
    }
    return out;
  } finally {
    await client.close();
    await sb.close();
  }
}

/** A server process answering every request with the body chosen by the `k` parameter. */
function startCannedServer(bodies: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const src = `
    const http = require('node:http');
    let input = '';
    process.stdin.on('data', (c) => { input += c; });
    process.stdin.on('end', () => {
    const bodies = JSON.parse(input);
    const buf = {}; for (const k in bodies) buf[k] = Buffer.from(bodies[k]);
    const s = http.createServer((req, res) => {
      const k = /[?&]k=(\\d+)/.exec(req.url)?.[1] ?? '10';
      const b = buf[k];
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': b.length });
      res.end(b);
    });
    s.keepAliveTimeout = 60000;
    s.listen(0, '127.0.0.1', () => console.log(s.address().port));
    });`;
  const child = spawn(process.execPath, ['-e', src], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin!.end(JSON.stringify(bodies));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', (d: Buffer) => resolve({ url: `http://127.0.0.1:${String(d).trim()}`, child }));
  });
}

type Call = () => Promise<unknown>;

async function main(): Promise<void> {
  const scenarios = await cannedBodies();
  const server = await startCannedServer(Object.fromEntries(scenarios.map((s) => [String(s.params.k), s.body])));
  const client = new DevIndexClient({ baseUrl: server.url });
  let failed = false;
  try {
    console.log(`canned server ${server.url}; ${ROUNDS} rounds x ${CALLS_PER_ROUND} calls per variant, interleaved, after ${WARMUP} warm-up calls`);
    for (const sc of scenarios) {
      const url = `${server.url}/v2/search/developer?query=${encodeURIComponent(sc.params.query)}&k=${sc.params.k}&passages=${sc.params.passages}`;
      const variants: Array<[string, Call]> = [
        ['undici.request + JSON.parse', async () => { const r = await request(url); return JSON.parse(await r.body.text()); }],
        ['fetch + JSON.parse', async () => { const r = await fetch(url); return JSON.parse(await r.text()); }],
        ['DevIndexClient.search', () => client.search(sc.params)],
      ];
      const samples = variants.map(() => [] as number[]);
      for (const [, fn] of variants) await time(fn, WARMUP, []);
      for (let round = 0; round < ROUNDS; round++) {
        for (let v = 0; v < variants.length; v++) await time(variants[v]![1], CALLS_PER_ROUND, samples[v]!);
      }
      console.log(`\n${sc.name} (${(sc.body.length / 1024).toFixed(1)} KiB body)`);
      const st = samples.map(stats);
      variants.forEach(([name], i) => console.log(`  ${name.padEnd(30)} median ${fmt(st[i]!.median)}   p95 ${fmt(st[i]!.p95)}`));
      const [u, f, c] = st as [ReturnType<typeof stats>, ReturnType<typeof stats>, ReturnType<typeof stats>];
      const target = sc.params.k === 10 ? 1.1 : 1.25;
      const ru = c.median / u.median;
      const rf = c.median / f.median;
      console.log(`  ratio client/undici (median) ${ru.toFixed(3)}  target <= ${target}  ${ru <= target ? 'met' : 'NOT MET'}`);
      console.log(`  ratio client/fetch  (median) ${rf.toFixed(3)}  target < 1     ${rf < 1 ? 'met' : 'NOT MET'}`);
      console.log(`  ratio client/undici (p95)    ${(c.p95 / u.p95).toFixed(3)}; client/fetch (p95) ${(c.p95 / f.p95).toFixed(3)}`);
      if (ru > target || rf >= 1) failed = true;
    }

    const gc = (globalThis as { gc?: () => void }).gc;
    const small = scenarios[0]!.params;
    for (let i = 0; i < 500; i++) await client.search(small);
    gc?.(); gc?.();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < HEAP_CALLS; i++) await client.search(small);
    gc?.(); gc?.();
    const growth = (process.memoryUsage().heapUsed - before) / (1024 * 1024);
    console.log(`\nheap growth over ${HEAP_CALLS} client calls (k=10): ${growth.toFixed(2)} MB${gc ? '' : ' (no --expose-gc: figure includes garbage)'}  target < 10 MB  ${growth < 10 ? 'met' : 'NOT MET'}`);
    if (growth >= 10) failed = true;
  } finally {
    await client.close();
    server.child.kill();
  }
  console.log(failed ? '\nclient: some targets not met' : '\nclient: all targets met');
}

main().catch((e: unknown) => { console.error(e); process.exitCode = 1; });
