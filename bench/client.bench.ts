// Client benchmark: per-call median and p95 for bare undici.request + JSON.parse,
// global fetch + JSON.parse, and DevIndexClient.search, at k=10 x 1 passage and k=100 x 5 passages;
// ratios client/undici and client/fetch; heap growth over 10,000 client calls. At k=100 x 5, the
// goals median <= 1.1x and p95 <= 1.5x bare undici and median < 0.9x fetch, each with met / NOT MET; the garbage
// collections that fell inside each variant's calls (the tail is mostly the calls a scavenge lands in); and the
// client's cost stage by stage (read body, JSON.parse, depth check, redaction, zod parse with the mapping of
// each result's kind), each timed alone on the same body.
//
// The server is a canned one in a child process: bodies are real sandbox answers (padded to k results
// with the corpus' own passages when the corpus has fewer matches), so every variant parses the same
// bytes and the figures show the client's own cost, not the search engine's.
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { request } from 'undici';
import { DevIndexClient } from '../src/api/client';
import { HttpTransport } from '../src/api/http';
import { valueDepthExceeds } from '../src/api/jsonDepth';
import type { SearchParams } from '../src/api/params';
import { makeRedactor } from '../src/api/redact';
import { SearchResponseSchema } from '../src/api/schemas';
import { startSandbox } from '../sandbox/server';
import { fmt, stats, time } from './timing';

const ROUNDS = 5;
const CALLS_PER_ROUND = 300;
const WARMUP = 300;
const HEAP_CALLS = 10_000;

interface Scenario {
  name: string;
  params: SearchParams;
  body: string;
}

async function cannedBodies(): Promise<Scenario[]> {
  const sb = await startSandbox({ port: 0, quiet: true, keylessRateLimit: 1_000_000 });
  const client = new DevIndexClient({ transport: new HttpTransport(), baseUrl: sb.url });
  try {
    const out: Scenario[] = [];
    for (const [k, passages] of [
      [10, 1],
      [100, 5],
    ] as const) {
      const params: SearchParams = { query: 'http client retry timeout stream', k, passages };
      const res = await client.search(params);
      const results = [...res.results];
      for (let i = 0; results.length < k && res.results.length > 0; i++) {
        const src = res.results[i % res.results.length]!;
        results.push({ ...src, id: `${src.id}~${i}` });
      }
      out.push({
        name: `k=${k} x ${passages} passage${passages > 1 ? 's' : ''}`,
        params,
        body: JSON.stringify({ ...res, results }),
      });
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

/** Garbage collections, as the perf_hooks observer reports them: start time and duration in ms, and kind. */
const gcs: Array<{ start: number; ms: number; major: boolean }> = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries())
    gcs.push({
      start: e.startTime,
      ms: e.duration,
      major: ((e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0) !== 1,
    });
}).observe({ entryTypes: ['gc'] });

/** Like timing.ts's `time`, and also each call's start and end on the performance clock, to match collections to calls. */
async function timeSpans(fn: Call, n: number, into: number[], spans: Array<[number, number]>): Promise<void> {
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    const e = performance.now();
    into.push(e - t);
    spans.push([t, e]);
  }
}

/** How many calls a collection started in, and the 95th percentile of the calls none started in. */
function gcShare(
  samples: number[],
  spans: Array<[number, number]>,
): { withGc: number; scavenges: number; majors: number; p95Clean: number } {
  const sorted = [...gcs].sort((a, b) => a.start - b.start);
  let withGc = 0;
  let scavenges = 0;
  let majors = 0;
  const clean: number[] = [];
  spans.forEach(([a, b], i) => {
    const inside = sorted.filter((g) => g.start >= a && g.start <= b);
    if (inside.length) withGc++;
    else clean.push(samples[i]!);
    for (const g of inside) {
      if (g.major) majors++;
      else scavenges++;
    }
  });
  return { withGc, scavenges, majors, p95Clean: stats(clean.length ? clean : [0]).p95 };
}

/** One stage of the client's work alone, on the same body, synchronously: median and p95 in ms. */
function stage(fn: () => unknown, n = 400): { median: number; p95: number } {
  for (let i = 0; i < 50; i++) fn();
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn();
    xs.push(performance.now() - t);
  }
  return stats(xs);
}

async function main(): Promise<void> {
  const scenarios = await cannedBodies();
  const server = await startCannedServer(Object.fromEntries(scenarios.map((s) => [String(s.params.k), s.body])));
  const client = new DevIndexClient({ transport: new HttpTransport(), baseUrl: server.url });
  let failed = false;
  try {
    console.log(
      `canned server ${server.url}; ${ROUNDS} rounds x ${CALLS_PER_ROUND} calls per variant, interleaved, after ${WARMUP} warm-up calls`,
    );
    for (const sc of scenarios) {
      const url = `${server.url}/v2/search/developer?query=${encodeURIComponent(sc.params.query)}&k=${sc.params.k}&passages=${sc.params.passages}`;
      const variants: Array<[string, Call]> = [
        [
          'undici.request + JSON.parse',
          async () => {
            const r = await request(url);
            return JSON.parse(await r.body.text());
          },
        ],
        [
          'fetch + JSON.parse',
          async () => {
            const r = await fetch(url);
            return JSON.parse(await r.text());
          },
        ],
        ['DevIndexClient.search', () => client.search(sc.params)],
      ];
      const samples = variants.map(() => [] as number[]);
      const spans = variants.map(() => [] as Array<[number, number]>);
      for (const [, fn] of variants) await time(fn, WARMUP, []);
      for (let round = 0; round < ROUNDS; round++) {
        for (let v = 0; v < variants.length; v++)
          await timeSpans(variants[v]![1], CALLS_PER_ROUND, samples[v]!, spans[v]!);
      }
      console.log(
        `\n${sc.name} (${(sc.body.length / 1024).toFixed(1)} KiB body); load average ${loadavg()
          .map((x) => x.toFixed(1))
          .join(', ')}`,
      );
      const st = samples.map(stats);
      variants.forEach(([name], i) => {
        const g = gcShare(samples[i]!, spans[i]!);
        const n = samples[i]!.length;
        console.log(
          `  ${name.padEnd(30)} median ${fmt(st[i]!.median)}   p95 ${fmt(st[i]!.p95)}   a collection started in ${((100 * g.withGc) / n).toFixed(1)}% of calls` +
            ` (${g.scavenges} scavenges, ${g.majors} other); p95 of the others ${fmt(g.p95Clean)}`,
        );
      });
      const [u, f, c] = st as [ReturnType<typeof stats>, ReturnType<typeof stats>, ReturnType<typeof stats>];
      const target = sc.params.k === 10 ? 1.1 : 1.25;
      const ru = c.median / u.median;
      const rf = c.median / f.median;
      console.log(
        `  ratio client/undici (median) ${ru.toFixed(3)}  target <= ${target}  ${ru <= target ? 'met' : 'NOT MET'}`,
      );
      console.log(`  ratio client/fetch  (median) ${rf.toFixed(3)}  target < 1     ${rf < 1 ? 'met' : 'NOT MET'}`);
      console.log(
        `  ratio client/undici (p95)    ${(c.p95 / u.p95).toFixed(3)}; client/fetch (p95) ${(c.p95 / f.p95).toFixed(3)}`,
      );
      if (ru > target || rf >= 1) failed = true;
      if (sc.params.k === 100) {
        // The goals for the large answer, and where the client's time goes, stage by stage.
        const rp = c.p95 / u.p95;
        console.log(
          `  the large answer: client/undici median ${ru.toFixed(3)} (goal <= 1.1: ${ru <= 1.1 ? 'met' : 'NOT MET'}), p95 ${rp.toFixed(3)} (goal <= 1.5: ${rp <= 1.5 ? 'met' : 'NOT MET'}),` +
            ` client/fetch median ${rf.toFixed(3)} (goal < 0.9: ${rf < 0.9 ? 'met' : 'NOT MET'})`,
        );
        const transport = new HttpTransport();
        const key = 'sk-bench-0123456789abcdefghijklmn';
        const redact = makeRedactor(key);
        const json: unknown = JSON.parse(sc.body);
        const readBody: number[] = [];
        await time(
          () =>
            transport.send({
              method: 'GET',
              url,
              headers: { accept: 'application/json' },
              timeoutMs: 30_000,
              maxResponseBytes: 16 * 1024 * 1024,
            }),
          50,
          [],
        );
        await time(
          () =>
            transport.send({
              method: 'GET',
              url,
              headers: { accept: 'application/json' },
              timeoutMs: 30_000,
              maxResponseBytes: 16 * 1024 * 1024,
            }),
          400,
          readBody,
        );
        await transport.close();
        const rows: Array<[string, { median: number; p95: number }]> = [
          ['read body (transport: request, headers, body as text)', stats(readBody)],
          ['JSON.parse', stage(() => JSON.parse(sc.body))],
          ['depth check (valueDepthExceeds)', stage(() => valueDepthExceeds(json))],
          ['zod parse, with the mapping of each kind', stage(() => SearchResponseSchema.safeParse(json))],
          ['redaction at the door (with a key only)', stage(() => redact(sc.body))],
          [
            'escape scan for redaction (with a key only)',
            stage(() => sc.body.includes('\\u') || sc.body.includes('\\/')),
          ],
        ];
        console.log(
          "  where the client's time goes (each stage alone on this body; no key: the last two are not run):",
        );
        for (const [name, x] of rows) console.log(`    ${name.padEnd(52)} median ${fmt(x.median)}   p95 ${fmt(x.p95)}`);
        const sum = rows.slice(0, 4).reduce((a, [, x]) => a + x.median, 0);
        console.log(
          `    ${'the rest (retry loop, URL, log), by difference'.padEnd(52)} median ${fmt(Math.max(0, c.median - sum))}`,
        );
      }
    }

    const gc = (globalThis as { gc?: () => void }).gc;
    const small = scenarios[0]!.params;
    for (let i = 0; i < 500; i++) await client.search(small);
    gc?.();
    gc?.();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < HEAP_CALLS; i++) await client.search(small);
    gc?.();
    gc?.();
    const growth = (process.memoryUsage().heapUsed - before) / (1024 * 1024);
    console.log(
      `\nheap growth over ${HEAP_CALLS} client calls (k=10): ${growth.toFixed(2)} MB${gc ? '' : ' (no --expose-gc: figure includes garbage)'}  target < 10 MB  ${growth < 10 ? 'met' : 'NOT MET'}`,
    );
    if (growth >= 10) failed = true;
  } finally {
    await client.close();
    server.child.kill();
  }
  console.log(failed ? '\nclient: some targets not met' : '\nclient: all targets met');
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
