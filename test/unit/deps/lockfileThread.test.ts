// The editor reads lockfiles in a worker thread (dist/lockfiles.js, entry src/deps/lockfileWorker.ts). The
// worker gives exactly what the in-thread reader gives (every fixture kind, the size cap, half-written and future
// formats), and a worker that is missing, silent or idle answers "unknown" and ends instead of holding the host.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { readLockfileVersions, type LockfileKind, type LockfileRequest } from '../../../src/deps/lockfileRead';
import { LockfileThread } from '../../../src/deps/lockfileThread';
import { resolveFolder } from '../../../src/deps/resolver';
import { findRepoRoot } from '../../../sandbox/serverParts';
import { until } from '../../support/until';

const repo = findRepoRoot(__dirname) ?? '.';
const fixtures = path.join(repo, 'test', 'fixtures', 'lockfiles');
let tmp: string;
let workerFile: string;
let thread: LockfileThread;

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'devindex-lockthread-'));
  workerFile = path.join(tmp, 'lockfiles.js');
  // Built as scripts/build.mjs builds dist/lockfiles.js.
  await build({
    entryPoints: [path.join(repo, 'src', 'deps', 'lockfileWorker.ts')],
    outfile: workerFile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'silent',
  });
  thread = new LockfileThread(workerFile);
});
after(async () => {
  await thread.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const CASES: Array<[string, LockfileKind, string[], Partial<LockfileRequest>?]> = [
  ['package-lock.v1.json', 'package-lock.json', ['@acme/widgets', 'left-pad', 'local-lib', 'absent']],
  ['package-lock.v2.json', 'package-lock.json', ['@acme/widgets', 'fetchline']],
  ['package-lock.v3.json', 'package-lock.json', ['@acme/widgets', 'fetchline', 'typescript', 'my-workspace']],
  ['npm-shrinkwrap.json', 'npm-shrinkwrap.json', ['@acme/widgets', 'fetchline', 'yargs', 'fsevents']],
  ['yarn.classic.lock', 'yarn.lock', ['@acme/widgets', 'fetchline'], { ranges: [['@acme/widgets', '^2.0.0']] }],
  ['yarn.berry.lock', 'yarn.lock', ['@acme/widgets', 'fetchline'], { ranges: [['@acme/widgets', '^2.0.0']] }],
  ['pnpm-lock.v5.yaml', 'pnpm-lock.yaml', ['@acme/widgets', 'fetchline', 'local-lib']],
  ['pnpm-lock.v6.yaml', 'pnpm-lock.yaml', ['@acme/widgets', 'fetchline']],
  ['pnpm-lock.v9.yaml', 'pnpm-lock.yaml', ['@acme/widgets', 'fetchline']],
  ['Cargo.lock', 'Cargo.lock', ['serde', 'syn', 'ratelane', 'absent'], { rootPackage: 'ratelane' }],
];

test('the worker answers as the in-thread reader for every lockfile kind', async () => {
  let seen = 0;
  for (const [fixture, kind, names, extra] of CASES) {
    const req: LockfileRequest = {
      path: path.join(fixtures, fixture),
      kind,
      names,
      maxBytes: 64 * 1024 * 1024,
      ...extra,
    };
    const here = await readLockfileVersions(req);
    const there = await thread.read(req);
    assert.deepEqual(there, here, fixture);
    seen += here?.size ?? 0;
  }
  assert.ok(seen >= 12, `the fixtures state versions (${seen})`);
});

test('the worker keeps the size cap, a missing file, a half-written lockfile and a future format as the in-thread reader', async () => {
  const v3 = fs.readFileSync(path.join(fixtures, 'package-lock.v3.json'), 'utf8');
  const half = path.join(tmp, 'half.json');
  fs.writeFileSync(half, v3.slice(0, Math.floor(v3.length * 0.6)));
  const future = path.join(tmp, 'future.json');
  fs.writeFileSync(future, v3.replace(/"lockfileVersion"\s*:\s*\d+/, '"lockfileVersion": 9'));
  const names = ['@acme/widgets', 'fetchline', 'typescript'];
  const reqs: LockfileRequest[] = [
    { path: path.join(fixtures, 'package-lock.v3.json'), kind: 'package-lock.json', names, maxBytes: 100 },
    { path: path.join(tmp, 'absent.json'), kind: 'package-lock.json', names, maxBytes: 1e9 },
    { path: tmp, kind: 'package-lock.json', names, maxBytes: 1e9 },
    { path: half, kind: 'package-lock.json', names, maxBytes: 1e9 },
    { path: future, kind: 'package-lock.json', names, maxBytes: 1e9 },
  ];
  const answers = [];
  for (const req of reqs) {
    const here = await readLockfileVersions(req);
    assert.deepEqual(await thread.read(req), here, req.path);
    answers.push(here);
  }
  assert.deepEqual(answers.slice(0, 3), [undefined, undefined, undefined], 'over the cap, absent, a folder: not read');
  assert.ok(answers[4]!.size > 0, 'a future lockfileVersion still gives what it can');
});

test('resolveFolder gives the same versions with the worker as in the thread (and nothing over the cap)', async () => {
  const root = fs.mkdtempSync(path.join(tmp, 'folder-'));
  fs.writeFileSync(
    path.join(root, 'package.json'),
    JSON.stringify({ dependencies: { '@acme/widgets': '^2.0.0', fetchline: '^2.0.0' } }),
  );
  fs.copyFileSync(path.join(fixtures, 'package-lock.v3.json'), path.join(root, 'package-lock.json'));
  const opts = { maxDependencies: 10, cargoHome: path.join(root, 'no-cargo') };
  const here = await resolveFolder(root, opts);
  const there = await resolveFolder(root, { ...opts, readLockfile: thread.read });
  assert.deepEqual(there.deps, here.deps);
  assert.deepEqual(
    there.deps.map((d) => [d.name, d.version, d.versionFrom]),
    [
      ['@acme/widgets', '2.1.0', 'package-lock.json'],
      ['fetchline', '2.4.1', 'package-lock.json'],
    ],
  );
  const capped = await resolveFolder(root, { ...opts, readLockfile: thread.read, lockfileMaxBytes: 100 });
  assert.deepEqual(
    capped.deps.map((d) => d.version),
    [undefined, undefined],
  );
});

test('a missing worker bundle, a worker that never answers and an idle worker end with "unknown"', async () => {
  const req: LockfileRequest = {
    path: path.join(fixtures, 'package-lock.v2.json'),
    kind: 'package-lock.json',
    names: ['fetchline'],
    maxBytes: 1e9,
  };
  const missing = new LockfileThread(path.join(tmp, 'nowhere.js'));
  assert.equal(await missing.read(req), undefined);
  assert.equal(missing.running, false);

  const silentFile = path.join(tmp, 'silent.js');
  fs.writeFileSync(silentFile, 'require("node:worker_threads").parentPort.on("message", () => {});\n');
  const silent = new LockfileThread(silentFile, { idleMs: 10_000, timeoutMs: 300 });
  const t0 = Date.now();
  assert.equal(await silent.read(req), undefined);
  assert.ok(Date.now() - t0 < 5_000, 'the time limit ends the wait');
  assert.equal(silent.running, false, 'the silent worker was ended');

  const idle = new LockfileThread(workerFile, { idleMs: 50, timeoutMs: 30_000 });
  assert.deepEqual(await idle.read(req), new Map([['fetchline', '2.4.1']]));
  assert.equal(idle.running, true);
  await until(
    () => idle.running,
    (r) => !r,
    { timeoutMs: 5_000, stepMs: 20, message: () => 'an idle worker ends (idleMs 50)' },
  );
  assert.deepEqual(await idle.read(req), new Map([['fetchline', '2.4.1']]), 'and a new one starts on the next request');
  await idle.close();
});
