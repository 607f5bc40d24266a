// The session library shared by test-host, test-e2e and start: build, the sandbox service,
// code-server on 127.0.0.1 with throw-away folders, a workspace fixture, headless chromium.
// Every process it starts is its own process group; `session.close()` kills those groups (and
// only those), waits for them to exit, then removes the per-run folder.
/* global fetch, AbortSignal, setInterval, clearInterval -- Node 20 globals the shared ESLint config does not list */
import { spawn, spawnSync } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
  readdirSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM, provision } from './provision.mjs';
import { writeDepsFixture } from './depsFixture.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const pkg = () => JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
export const extensionId = () => `${pkg().publisher}.${pkg().name}`;
/** A bearer token the sandbox accepts in test sessions; never a real key. */
export const TEST_KEY = 'devindex-test-key-0123456789';
/** Agent engine speed of the sandbox the test tiers start (see sandbox/agent/README.md). */
export const TEST_AGENT_SPEED = 10;
/**
 * The workspace fixture's git remotes: an indexed fork (origin) and its upstream from the sandbox
 * corpus, so repository-scoped searches find real documents in both.
 */
export const FIXTURE_REMOTES = {
  origin: 'git@github.com:quarry-dev/fetchline.git',
  upstream: 'https://github.com/fetchline/fetchline.git',
};
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Rejects with a message naming `what` when `promise` takes longer than `ms`. */
export function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms / 1000} s: ${what}`)), ms);
    }),
  ]);
}

/** `node scripts/build.mjs` with the given extra flags; throws with the build's output on failure. */
export function build(flags = []) {
  // Under `npm test` the whole build ran before any tier (scripts/test-all.mjs): tiers running side by side must not
  // rewrite dist/ and out/ while another reads them.
  if (process.env.DEVINDEX_BUILT === '1') return;
  const r = spawnSync(process.execPath, ['scripts/build.mjs', '--quiet', ...flags], {
    cwd: root,
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (r.status !== 0) throw new Error(`build failed (${flags.join(' ')}):\n${r.stdout}${r.stderr}`);
}

/**
 * Waits for a node:test runner started with session.spawn (stdout collected) to end, or `timeoutMs`; returns the
 * closing counts from its summary: tests cancelled because their suite's hook failed count as failed, and a timeout,
 * a runner that failed with no failing test, or no test at all, each count as one failure.
 */
export async function runnerCounts(runner, { tier, timeoutMs, log }) {
  let output = '';
  runner.child.stdout.on('data', (d) => {
    output += d;
  });
  let timer;
  const result = await Promise.race([
    runner.exited,
    new Promise((r) => {
      timer = setTimeout(() => r({ timeout: true }), timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  const plain = output.replace(/\x1b\[[0-9;]*m/g, ''); // eslint-disable-line no-control-regex
  const last = (name) => [...plain.matchAll(new RegExp(`^\\S*\\s*${name} (\\d+)$`, 'gm'))].at(-1);
  const [pass, fail, cancelled] = ['pass', 'fail', 'cancelled'].map(last);
  const closing = { passed: pass ? +pass[1] : 0, failed: (fail ? +fail[1] : 0) + (cancelled ? +cancelled[1] : 0) };
  if (result.timeout) {
    log(`[${tier}] timed out after ${timeoutMs / 1000} s`);
    closing.failed += 1;
  } else if (result.code !== 0 && closing.failed === 0) {
    log(`[${tier}] the test runner exited ${result.code ?? result.signal} with no failing test`);
    closing.failed += 1;
  }
  if (closing.passed + closing.failed === 0) {
    log(`[${tier}] no test ran`);
    closing.failed = 1;
  }
  return closing;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export class Session {
  constructor({ name = 'session', log = (s) => process.stderr.write(`${s}\n`) } = {}) {
    this.log = log;
    this.dir = mkdtempSync(join(tmpdir(), `devindex-${name}-`));
    this.children = [];
    this.disposers = [];
    this.closed = false;
  }

  path(...p) {
    const q = join(this.dir, ...p);
    mkdirSync(dirname(q), { recursive: true });
    return q;
  }
  folder(...p) {
    const q = join(this.dir, ...p);
    mkdirSync(q, { recursive: true });
    return q;
  }

  /**
   * Spawns `cmd` in its own process group, output to `<dir>/<name>.log` (and to ours with `tee`);
   * tracked for close().
   */
  spawn(name, cmd, args, opts = {}) {
    const logFile = this.path(`${name}.log`);
    const out = createWriteStream(logFile);
    const { tee, ...spawnOpts } = opts;
    const child = spawn(cmd, args, { ...spawnOpts, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    if (tee) {
      child.stdout.pipe(process.stdout, { end: false });
      child.stderr.pipe(process.stderr, { end: false });
    }
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    const entry = { name, child, exited, logFile };
    child.once('error', (e) => {
      this.log(`[${name}] ${e.message}`);
    });
    this.children.push(entry);
    return entry;
  }

  logTail(entry, n = 40) {
    try {
      return readFileSync(entry.logFile, 'utf8').split('\n').slice(-n).join('\n');
    } catch {
      return '';
    }
  }

  /**
   * The sandbox service from the built bundle on a free port, with `--faults` and the test key.
   * Returns its URL (the first line it prints names it). `agentSpeed` defaults to
   * TEST_AGENT_SPEED for test sessions (faults on) so a standard agent run takes about 2.5 s instead
   * of 25 s, and to 1 for the interactive sandbox of `npm start` (faults off), where runs should feel real.
   */
  async startSandbox({
    key = TEST_KEY,
    faults = true,
    agentSpeed = faults ? TEST_AGENT_SPEED : 1,
    extraArgs = [],
  } = {}) {
    const main = join(root, 'dist', 'sandbox.js');
    if (!existsSync(main)) throw new Error(`${main} is missing: build first (the sandbox is sandbox/main.ts)`);
    const args = [
      main,
      '--port',
      '0',
      '--key',
      key,
      ...(faults ? ['--faults'] : []),
      '--agent-speed',
      String(agentSpeed),
      ...extraArgs,
    ];
    const entry = this.spawn('sandbox', process.execPath, args, { cwd: root });
    const url = await withTimeout(
      new Promise((resolve, reject) => {
        let buf = '';
        entry.child.stdout.on('data', (d) => {
          buf += d;
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(buf);
          if (m) resolve(m[1]);
        });
        entry.exited.then(({ code, signal }) =>
          reject(new Error(`sandbox exited (${signal ?? code}):\n${this.logTail(entry)}`)),
        );
      }),
      20_000,
      'sandbox to print its URL',
    );
    this.sandboxUrl = url;
    return url;
  }

  /** A workspace folder that is a git repository with GitHub remotes (repository-scope fixture). */
  makeWorkspace({ remotes = FIXTURE_REMOTES, files = {} } = {}) {
    const ws = this.folder('workspace', 'fetchline');
    const all = {
      'README.md': '# fetchline (fork)\n\nA fork of fetchline used as a workspace fixture.\n',
      'src/client.ts':
        'export async function get(url: string): Promise<Response> {\n  return fetch(url, { keepalive: true });\n}\n',
      ...files,
    };
    for (const [p, text] of Object.entries(all)) {
      mkdirSync(dirname(join(ws, p)), { recursive: true });
      writeFileSync(join(ws, p), text);
    }
    const git = (...a) => {
      const r = spawnSync('git', a, {
        cwd: ws,
        encoding: 'utf8',
        env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: this.folder('home') },
      });
      if (r.status !== 0) throw new Error(`git ${a.join(' ')}: ${r.stderr}`);
    };
    git('init', '-q', '-b', 'main');
    for (const [name, url] of Object.entries(remotes)) git('remote', 'add', name, url);
    this.workspace = ws;
    return ws;
  }

  /** The dependency fixture, beside the repository-scope workspace: package.json, node_modules, go.mod, src/app.ts. */
  makeDepsWorkspace() {
    this.depsWorkspace = writeDepsFixture(this.folder('workspace', 'deps-fixture'));
    return this.depsWorkspace;
  }

  /** Environment for a child that must not touch the user's home folder or the network. */
  isolatedEnv(extra = {}) {
    const home = this.folder('home');
    return {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: this.folder('home', '.config'),
      XDG_DATA_HOME: this.folder('home', '.local', 'share'),
      XDG_CACHE_HOME: this.folder('home', '.cache'),
      TMPDIR: this.folder('tmp'),
      ...extra,
    };
  }

  /**
   * code-server on 127.0.0.1 with throw-away user-data, extensions and config, the gallery pointed
   * at a closed loopback port, and the given user settings. `testDriver` turns on the smoke-test
   * driver, without which a built workbench silently ignores the extension-test payload. `env`: more
   * variables for code-server, which its extension hosts inherit (the e2e tier's test hooks). `vsix` is one
   * .vsix or a list (each installed before the start). `prefix` starts a second, separate code-server
   * in the same session (its folders, config and log named `<prefix>…`); only the first (no prefix) is
   * the session's `codeServerUrl`. Returns the server's URL.
   */
  async startCodeServer({ settings = {}, testDriver = false, vsix, port, env: extraEnv = {}, prefix = '' } = {}) {
    const tools = this.tools ?? (this.tools = await provision({ log: this.log }));
    port ??= await freePort();
    const userData = this.folder(`${prefix}user-data`);
    const extensions = this.folder(`${prefix}extensions`);
    const userSettingsFile = this.path(`${prefix}user-data`, 'User', 'settings.json');
    if (!prefix) this.userSettingsFile = userSettingsFile;
    writeFileSync(
      userSettingsFile,
      JSON.stringify(
        {
          'workbench.startupEditor': 'none',
          'workbench.tips.enabled': false,
          'telemetry.telemetryLevel': 'off',
          'update.mode': 'none',
          'extensions.autoCheckUpdates': false,
          'extensions.autoUpdate': false,
          'security.workspace.trust.enabled': false,
          'git.enabled': false,
          // VS Code 1.139 opens its chat panel by default: it covers the editor and reaches for the network.
          'chat.disableAIFeatures': true,
          'workbench.secondarySideBar.defaultVisibility': 'hidden',
          ...settings,
        },
        null,
        2,
      ),
    );
    const config = this.path(`${prefix}code-server.yaml`);
    writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
    const env = this.isolatedEnv({
      PATH: `${dirname(tools.node)}:${process.env.PATH}`,
      EXTENSIONS_GALLERY: JSON.stringify({ serviceUrl: 'http://127.0.0.1:9/', itemUrl: 'http://127.0.0.1:9/' }),
      ...extraEnv,
    });
    delete env.VSCODE_IPC_HOOK_CLI; // a terminal inside VS Code would redirect the CLI to that window
    const base = [tools.codeServer, '--user-data-dir', userData, '--extensions-dir', extensions, '--config', config];
    const vsixes = [vsix ?? []].flat();
    for (const file of vsixes) {
      const r = spawnSync(tools.node, [...base, '--install-extension', file, '--force'], {
        env,
        encoding: 'utf8',
        timeout: 120_000,
      });
      if (r.status !== 0) throw new Error(`installing ${file} into code-server failed:\n${r.stdout}${r.stderr}`);
    }
    if (vsixes.length && !readdirSync(extensions).some((d) => d.startsWith(extensionId()))) {
      throw new Error(`installing ${vsixes.join(', ')} into code-server left no ${extensionId()} in ${extensions}`);
    }
    const args = [
      ...base,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      ...(testDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    ];
    const entry = this.spawn(`${prefix}code-server`, tools.node, args, { env, cwd: this.dir });
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    let exited;
    entry.exited.then((e) => {
      exited = e;
    });
    for (;;) {
      if (exited) throw new Error(`code-server exited (${exited.signal ?? exited.code}):\n${this.logTail(entry)}`);
      try {
        const r = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
        if (r.ok) break;
      } catch {
        /* not listening yet */
      }
      if (Date.now() > deadline)
        throw new Error(`code-server did not answer /healthz within 60 s:\n${this.logTail(entry)}`);
      await sleep(200);
    }
    if (!prefix) {
      this.codeServerUrl = url;
      this.codeServerPort = port;
    }
    return url;
  }

  /** The workbench URL for a folder, optionally with the extension-test payload. */
  workbenchUrl({ folder = this.workspace, payload } = {}) {
    const u = new URL(this.codeServerUrl);
    if (folder) u.searchParams.set('folder', folder);
    if (payload) u.searchParams.set('payload', JSON.stringify(payload));
    return u.toString();
  }

  /** `vscode-remote://` URI of a server-side path, with the page's own authority (required). */
  remoteUri(absPath) {
    return `vscode-remote://127.0.0.1:${this.codeServerPort}${absPath}`;
  }

  /** Headless Debian chromium through playwright-core, on a fresh profile in the run folder. */
  async launchBrowser({ viewport = { width: 1400, height: 900 } } = {}) {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
    const { chromium } = await import('playwright-core');
    const profile = this.folder('chromium-profile');
    const context = await withTimeout(
      chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: CHROMIUM_ARGS,
        viewport,
        env: this.isolatedEnv(),
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        timeout: 30_000,
      }),
      45_000,
      'chromium to start',
    );
    this.disposers.push(async () => {
      try {
        await withTimeout(context.close(), 10_000, 'chromium to close');
      } catch (e) {
        this.log(`[session] ${e.message}; killing chromium of this profile`);
        killByArgument(profile);
      }
    });
    return context;
  }

  /** Kills the process groups this session started (TERM, then KILL after 5 s) and waits for them. */
  close() {
    this.closing ??= this.doClose();
    return this.closing;
  }

  async doClose() {
    this.closed = true;
    for (const d of this.disposers.reverse()) {
      try {
        await d();
      } catch (e) {
        this.log(`[session] cleanup: ${e.message}`);
      }
    }
    await Promise.all(
      this.children.reverse().map(async ({ child, exited, name }) => {
        if (child.exitCode === null && child.signalCode === null) signalGroup(child.pid, 'SIGTERM');
        const done = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)]);
        if (!done) {
          this.log(`[session] ${name} ignored SIGTERM; killing`);
          signalGroup(child.pid, 'SIGKILL');
          await withTimeout(exited, 5000, `${name} to exit`).catch(() => {});
        }
        // Children of the group (the extension host) may outlive its leader for a moment.
        for (let i = 0; i < 50 && groupAlive(child.pid); i++) {
          if (i === 25) signalGroup(child.pid, 'SIGKILL');
          await sleep(100);
        }
      }),
    );
    // A browser that a test process launched (playwright gives it its own process group) and that
    // outlived a killed test: found by this run's own folder in its arguments.
    killByArgument(this.dir);
    if (!process.env.DEVINDEX_KEEP_SESSION) rmSync(this.dir, { recursive: true, force: true });
    else this.log(`[session] kept ${this.dir}`);
  }

  /**
   * Runs close() on every way a session's process is told to end, then exits with 128 + the signal's
   * number: SIGINT (Ctrl+C), SIGTERM (a process manager), SIGHUP (the terminal was closed), SIGQUIT,
   * and the parent going away without a signal reaching us (`npm start` runs `sh -c`, and dash dies
   * of the SIGTERM npm forwards without passing it on). The children are in their own process
   * groups, so nothing but this stops them.
   */
  closeOnSignals({ parentPollMs = 500 } = {}) {
    const handler = (sig, code) => {
      if (this.stopping) return;
      this.stopping = sig;
      clearInterval(watch);
      this.log(`\n[session] ${sig}: stopping what this session started`);
      this.close().finally(() => process.exit(code));
    };
    for (const [sig, code] of Object.entries(EXIT_CODES)) process.on(sig, () => handler(sig, code));
    // After a hangup the terminal is gone: a write to it fails (EIO, EPIPE), which must not end the
    // process before its children are stopped.
    for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
    const parent = process.ppid;
    const watch = setInterval(() => {
      if (process.ppid !== parent) handler('parent exited', EXIT_CODES.SIGHUP);
    }, parentPollMs);
    watch.unref();
  }
}

/** 128 + the signal's number, as shells report a process ended by it. */
const EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129, SIGQUIT: 131 };

function signalGroup(pid, sig) {
  try {
    process.kill(-pid, sig);
  } catch {
    /* already gone */
  }
}
function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Last resort for a browser that did not close: only processes whose arguments name our own profile folder. */
function killByArgument(uniquePath) {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid)) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(uniquePath)) process.kill(Number(pid), 'SIGKILL');
    } catch {
      /* gone or not ours to read */
    }
  }
}
