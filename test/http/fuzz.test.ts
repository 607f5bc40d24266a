// Seeded fuzz of the CLI against a hostile server on loopback: at least 2,000 generated responses
// (statuses, body shapes, transport faults, Retry-After values, hostile strings) through every command.
// Each run must end with exit code 0, 1, 2 or 130, print no stack trace, never the key, and no
// terminal control sequence (stdout and stderr). DEVINDEX_FUZZ_SEED / DEVINDEX_FUZZ_CASES override.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { runCli } from '../../src/cli/main';
import { seededRandom } from '../support/seededRandom';

const KEY = 'fc-fuzz-7c1d0a9e4b2f48d6a3e5';
const SEED = Number(process.env.DEVINDEX_FUZZ_SEED ?? 0x5eed10);
const CASES = Number(process.env.DEVINDEX_FUZZ_CASES ?? 2000);
const JOB = '0b6a3c1e-9f2d-4c1a-8e7b-1d2c3b4a5f60';

const HOSTILE = [
  'plain words',
  '\u001b[2J\u001b[Hcleared',
  '\u001b]0;pwned title\u0007',
  '\u001b]52;c;ZXZpbA==\u0007',
  '\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\',
  '\u009b31mred',
  '\u009d0;t\u009c',
  'rtl\u202eexe.txt',
  'line\r\nforged: line',
  'nul\u0000byte',
  'bell\u0007',
  '\u001bPdcs\u001b\\',
  '\u001bc',
  `Bearer ${KEY}`,
  KEY,
  `key=${encodeURIComponent(KEY)}`,
  JSON.stringify(KEY).slice(1, -1),
  'x'.repeat(5000),
  'Ünïcödé ✓',
  '',
];
const STATUSES = [
  200, 200, 200, 201, 204, 301, 302, 307, 308, 400, 401, 402, 403, 404, 405, 407, 408, 409, 413, 418, 422, 429, 429,
  500, 502, 503, 504, 520,
];
const RETRY_AFTER = [
  undefined,
  undefined,
  '-1',
  '-0',
  '+5',
  '5, 7',
  '0',
  '1',
  'soon',
  'Mon, 23 Nov 2026 12:00:10 GMT',
  '99999999',
  '',
  ' 3 ',
  '1e3',
  '0.5',
  '\u001b[2J',
];
const COMMANDS: string[][] = [
  ['search', 'q'],
  ['search', 'q', '--json'],
  ['search', 'q', '--k', '3', '--types', 'doc,issue'],
  ['agent', 'status', JOB],
  ['agent', 'status', JOB, '--json'],
  ['agent', 'list'],
  ['agent', 'list', '--json'],
  ['agent', 'start', 'find the docs'],
  ['agent', 'start', 'find the docs', '--json'],
  ['agent', 'trace', JOB],
  ['agent', 'cancel', JOB],
  ['agent', 'snapshot', JOB, 'snap-1'],
];

interface Case {
  n: number;
  command: string[];
  status: number;
  retryAfter?: string;
  body: string;
  contentType?: string;
  fault?: 'reset' | 'partial' | 'stall' | 'garbage' | 'huge' | 'abort';
}

function deep(levels: number, r: () => number): string {
  return r() < 0.5 ? `${'['.repeat(levels)}1${']'.repeat(levels)}` : `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

function makeCase(n: number, r: () => number): Case {
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
  const h = () => pick(HOSTILE);
  const command = pick(COMMANDS);
  const status = pick(STATUSES);
  const c: Case = { n, command, status, retryAfter: pick(RETRY_AFTER), body: '' };
  const f = r();
  if (f < 0.02) c.fault = 'stall';
  else if (f < 0.04) c.fault = 'reset';
  else if (f < 0.06) c.fault = 'partial';
  else if (f < 0.07) c.fault = 'garbage';
  else if (f < 0.08) c.fault = 'huge';
  else if (f < 0.09) c.fault = 'abort';
  const result = () => ({
    id: pick([`doc:${h()}`, `issue:acme/widgets#${n}`, h()]),
    type: pick(['doc', 'issue', undefined, h()]),
    url: pick(['https://x.example/a', h()]),
    title: pick([h(), null, undefined]),
    passages: [{ text: h() }],
    extra: r() < 0.1 ? JSON.parse(deep(300, r)) : h(),
  });
  const shapes: Array<() => [string, string | undefined]> = [
    () => [
      JSON.stringify({
        success: true,
        results: Array.from({ length: 1 + Math.floor(r() * 3) }, result),
        coverage: { doc: pick(['ok', 'degraded', h()]), [h()]: pick([h(), { nested: h() }]) },
        reranked: r() < 0.5,
      }),
      'application/json',
    ],
    () => [
      JSON.stringify({
        success: true,
        status: pick(['processing', 'completed', 'failed', 'cancelled', h()]),
        id: pick([JOB, h()]),
        data: { answer: h(), more: [h(), { x: h() }] },
        error: pick([undefined, h()]),
        creditsUsed: pick([1, -1, 'x', undefined]),
        model: h(),
        expiresAt: h(),
      }),
      'application/json',
    ],
    () => [JSON.stringify({ success: true, id: pick([JOB, h()]) }), 'application/json'],
    () => [
      JSON.stringify({
        success: true,
        agents: [{ id: pick([JOB, h()]), status: h(), createdAt: h(), options: { prompt: h() } }],
        jobs: [],
        next: pick([undefined, h(), 'https://evil.example/v2/agent?before=1']),
      }),
      'application/json',
    ],
    () => [
      JSON.stringify({
        success: true,
        events: [
          {
            id: h(),
            kind: pick(['run.finished', 'artifact.updated', h()]),
            occurredAt: h(),
            agent: { id: h(), name: h() },
            outcome: h(),
            artifact: { snapshotId: h() },
          },
        ],
        creditsUsed: 3,
        activeBrowserSessions: [{ id: h(), liveViewUrl: h() }],
      }),
      'application/json',
    ],
    () => [JSON.stringify({ success: true, snapshot: h() }), 'application/json'],
    () => [
      JSON.stringify({
        success: false,
        error: h(),
        details: pick([
          undefined,
          [{ code: 'too_big', path: [h()], message: h() }],
          h(),
          { deep: JSON.parse(deep(200, r)) },
        ]),
        code: pick([undefined, h()]),
        retry_after_seconds: pick([undefined, 3, -1, 'x', 1e12]),
      }),
      'application/json',
    ],
    () => [
      JSON.stringify({
        success: false,
        error: `Rate limit exceeded. ${h()} please retry after ${Math.floor(r() * 90)}s, resets at ${h()}`,
      }),
      'application/json',
    ],
    () => [`<html><head><title>${h()}</title></head><body>${h()}</body></html>`, 'text/html'],
    () => [`${h()}\n${h()}`, pick(['text/plain', undefined])],
    () => [JSON.stringify({ success: true, results: [] }).slice(0, 15), 'application/json'],
    () => [deep(5000, r), 'application/json'],
    () => [`{"success":true,"results":[],"coverage":{"wiki":${deep(3000, r)}}}`, 'application/json'],
    () => ['', undefined],
    () => [JSON.stringify(pick([null, 42, 'str', [], { results: 'nope' }])), 'application/json'],
  ];
  // Half the cases answer in the shape the command expects (so success paths print hostile strings too).
  const matching: Record<string, number> = {
    search: 0,
    status: 1,
    start: 2,
    cancel: 2,
    list: 3,
    trace: 4,
    snapshot: 5,
  };
  const sub = command[0] === 'search' ? 'search' : command[1]!;
  if (r() < 0.5) {
    c.status = 200;
    [c.body, c.contentType] = shapes[matching[sub]!]!();
  } else {
    [c.body, c.contentType] = pick(shapes)();
  }
  return c;
}

let current: Case | undefined;
let base = '';
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  req.resume();
  req.on('end', () => {
    const c = current;
    if (!c) {
      res.writeHead(500);
      res.end();
      return;
    }
    switch (c.fault) {
      case 'stall':
      case 'abort':
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'partial':
        res.writeHead(c.status, { 'content-length': '100000', 'content-type': 'application/json' });
        res.write(c.body.slice(0, 20));
        setTimeout(() => req.socket.destroy(), 2);
        return;
      case 'garbage':
        req.socket.end('HTTP/1.1 2OO OK\r\nX: \u001b[2J\r\n\r\n{}');
        return;
      case 'huge':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"success":true,"results":[],"pad":"${'p'.repeat(300_000)}"}`);
        return;
    }
    const headers: Record<string, string> = {};
    if (c.contentType) headers['content-type'] = c.contentType;
    if (c.retryAfter !== undefined) headers['retry-after'] = c.retryAfter.replace(/[^\t\x20-\x7e]/g, '');
    if (c.status >= 300 && c.status < 400) headers.location = `https://${KEY}.evil.example/steal?k=${KEY}`;
    res.writeHead(c.status, headers);
    res.end(c.status === 204 ? undefined : c.body);
  });
});

before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(
  () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
);

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const STACK = /^\s+at .+(:\d+:\d+\)?|\(native\))$|Maximum call stack|RangeError|TypeError: Cannot/m;

it(`fuzz: ${CASES} generated responses (seed ${SEED})`, { timeout: 120_000 }, async () => {
  const r = seededRandom(SEED);
  const codes = new Map<number, number>();
  const faults = new Map<string, number>();
  for (let n = 0; n < CASES; n++) {
    const c = makeCase(n, r);
    current = c;
    const out = { o: '', e: '' };
    const ac = new AbortController();
    if (c.fault === 'abort') setTimeout(() => ac.abort(), 5);
    let code: number;
    try {
      code = await runCli(
        [...c.command, '--base-url', base],
        {
          out: (s) => {
            out.o += s;
          },
          err: (s) => {
            out.e += s;
          },
          env: { DEVINDEX_API_KEY: KEY },
          signal: ac.signal,
        },
        {
          clientOptions: {
            timeoutMs: 40,
            maxResponseBytes: 128 * 1024,
            random: () => 0,
            clock: {
              now: () => Date.now(),
              sleep: async (_ms, signal) => {
                if (signal?.aborted) throw new Error('aborted');
              },
            },
          },
        },
      );
    } catch (e) {
      assert.fail(
        `case ${n} (seed ${SEED}) ${JSON.stringify({ ...c, body: c.body.slice(0, 200) })}: runCli rejected: ${(e as Error)?.stack ?? String(e)}`,
      );
    }
    const all = out.o + out.e;
    const where = () =>
      `case ${n} (seed ${SEED}, ${c.command.join(' ')}, status ${c.status}, fault ${c.fault ?? '-'}, retry-after ${JSON.stringify(c.retryAfter)}, body ${JSON.stringify(c.body.slice(0, 160))}):\n${JSON.stringify(all.slice(0, 600))}`;
    assert.ok([0, 1, 2, 130].includes(code), `exit ${code} in ${where()}`);
    assert.ok(!all.includes(KEY) && !all.includes(encodeURIComponent(KEY)), `the key leaked in ${where()}`);
    assert.doesNotMatch(all, CONTROL, `a control character in ${where()}`);
    assert.doesNotMatch(all, STACK, `a stack trace in ${where()}`);
    if (code !== 0) assert.ok(out.e.trim().length > 0, `exit ${code} without a word on stderr in ${where()}`);
    if (c.fault === 'abort') assert.equal(code, 130, `Ctrl+C during a request exits 130 in ${where()}`);
    codes.set(code, (codes.get(code) ?? 0) + 1);
    faults.set(c.fault ?? 'none', (faults.get(c.fault ?? 'none') ?? 0) + 1);
  }
  // The cases must really spread: successes, failures and interrupts all happen.
  assert.ok(
    (codes.get(0) ?? 0) > 300 && (codes.get(1) ?? 0) > 500 && (codes.get(130) ?? 0) > 5,
    JSON.stringify([...codes]),
  );
  console.log(
    `fuzz: exit codes ${JSON.stringify(Object.fromEntries(codes))}, faults ${JSON.stringify(Object.fromEntries(faults))}`,
  );
});
