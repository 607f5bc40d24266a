// Sandbox throughput: developer searches per second over HTTP against dist/sandbox.js (default
// corpus, rate limits off), against a baseline measured the same way in the same run: a trivial
// node:http handler answering canned bytes of the same size, each server in its own process. Also the
// search engine alone, in process, to separate search cost from HTTP. Target: >= 1,000/s over HTTP.
// The machine has 2 cores shared by the load generator, the server and anything else running, so
// the load average is printed with the figures.
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { loadCorpus } from '../sandbox/search/corpus';
import { SearchEngine } from '../sandbox/search/searchEngine';
import { defaultCorpusDir, findRepoRoot } from '../sandbox/serverParts';
import { type Server, spawnServer } from './timing';

const CONNECTIONS = 8;
const PIPELINING = 4;
const CONCURRENCY = CONNECTIONS * PIPELINING;
const WARMUP_MS = 700;
const MEASURE_MS = 3_000;
const QUERIES = [
  'retry after header',
  'timeout abort signal',
  'rate limit 429',
  'schema validation error message',
  'webview content security policy',
  'flaky test retry',
  'connection pool keep-alive',
  'token bucket burst',
];

const BASELINE = `
const http = require('node:http');
const body = Buffer.from(process.env.CANNED_BODY || '{"success":true,"results":[]}');
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }); res.end(body); });
});
server.listen(0, '127.0.0.1', () => console.log('baseline listening on http://127.0.0.1:' + server.address().port));
process.on('SIGTERM', () => { server.close(); server.closeAllConnections(); });
`;

function path(i: number, k: number, passages: number): string {
  return `/v2/search/developer?${new URLSearchParams({ query: QUERIES[i % QUERIES.length] as string, k: String(k), passages: String(passages) })}`;
}

async function measure(url: string, k: number, passages: number): Promise<{ perSecond: number; errors: number }> {
  const pool = new Pool(url, { connections: CONNECTIONS, pipelining: PIPELINING });
  let count = 0;
  let errors = 0;
  let measuring = false;
  let stop = false;
  let i = 0;
  const worker = async (): Promise<void> => {
    while (!stop) {
      const r = await pool.request({ method: 'GET', path: path(i++, k, passages) });
      const text = await r.body.text();
      if (r.statusCode !== 200 || !text.startsWith('{"success":true')) errors++;
      if (measuring) count++;
    }
  };
  const workers = Array.from({ length: CONCURRENCY }, worker);
  await new Promise((r) => setTimeout(r, WARMUP_MS));
  measuring = true;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, MEASURE_MS));
  measuring = false;
  const elapsed = performance.now() - t0;
  stop = true;
  await Promise.all(workers);
  await pool.close();
  return { perSecond: (count * 1000) / elapsed, errors };
}

async function stopServer(s: Server): Promise<void> {
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  const t = setTimeout(() => s.child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(t);
}

function engineOnly(k: number, passages: number): number {
  const engine = new SearchEngine(loadCorpus(defaultCorpusDir()));
  const run = (n: number): void => {
    for (let i = 0; i < n; i++)
      JSON.stringify(engine.search({ query: QUERIES[i % QUERIES.length] as string, k, passages }));
  };
  run(2_000);
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < 1_500) {
    run(100);
    n += 100;
  }
  return (n * 1000) / (performance.now() - t0);
}

async function main(): Promise<void> {
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on 2 cores`,
  );
  const root = findRepoRoot(__dirname);
  const bin = root && join(root, 'dist', 'sandbox.js');
  if (!bin || !existsSync(bin))
    throw new Error('dist/sandbox.js missing: node scripts/build.mjs --tests --only=bench --bundles');
  const sandbox = await spawnServer([bin, '--port', '0', '--rate-limit', '0', '--keyless-rate-limit', '0']);
  try {
    const rows: Array<[string, number, number]> = [
      ['k=10, 1 passage', 10, 1],
      ['k=100, 5 passages', 100, 5],
    ];
    for (const [label, k, passages] of rows) {
      const canned = await (await fetch(`${sandbox.url}${path(0, k, passages)}`)).text();
      const baseline = await spawnServer(['-e', BASELINE], { ...process.env, CANNED_BODY: canned });
      try {
        const b = await measure(baseline.url, k, passages);
        const s = await measure(sandbox.url, k, passages);
        console.log(
          `${label}: sandbox ${s.perSecond.toFixed(0)} searches/s (${s.errors} errors); ` +
            `baseline node:http canned ${(canned.length / 1024).toFixed(1)} KB ${b.perSecond.toFixed(0)} req/s; ` +
            `ratio sandbox/baseline ${(s.perSecond / b.perSecond).toFixed(2)}; target >= 1000/s: ${s.perSecond >= 1000 ? 'met' : 'NOT met'}`,
        );
        console.log(
          `${label}: search engine alone, in process (validated request to JSON text): ${engineOnly(k, passages).toFixed(0)} searches/s`,
        );
      } finally {
        await stopServer(baseline);
      }
    }
  } finally {
    await stopServer(sandbox);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
