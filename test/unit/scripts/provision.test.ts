// `npm ci && npm test` on a fresh machine. The browser tier needs Debian's chromium, and runs before
// the host and e2e tiers that used to be the only ones to install it. scripts/vscode/provision.mjs's
// ensureDebianPackages now takes the packages a tier needs (and, for this test, the system calls it makes),
// and the browser tier runs it for chromium first, in `npm test` (scripts/test-all.mjs) and in `npm run
// test:browser`. The system calls are fakes here: nothing is installed, apt-get never runs.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findRepoRoot } from '../../../sandbox/serverParts';
import { scriptModule } from '../../support/scriptModule';

const root = findRepoRoot(__dirname) ?? '.';

interface System {
  installed(p: string): boolean;
  isRoot(): boolean;
  aptGet(args: string[], env: NodeJS.ProcessEnv): number | string | null;
}
interface Provision {
  ensureDebianPackages(log: (s: string) => void, needed?: string[], system?: System): void;
  ensureChromium(log: (s: string) => void, system?: System): void;
  prepareBrowserTier(o?: {
    log?: (s: string) => void;
    ensure?: (log: (s: string) => void) => void;
  }): { code: number; out: string } | undefined;
  ProvisionError: new (message: string, o?: { needsPerson?: boolean }) => Error & { needsPerson: boolean };
  CHROMIUM: string;
  innerNpmEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  denyBuilds(packageJson: string, names?: string[]): void;
  SKIPPED_BUILDS: string[];
  provisionAll(o: {
    log?: (s: string) => void;
    parts?: [string, (o: { log: (s: string) => void }) => Promise<unknown>][];
    root?: string;
    times?: boolean;
  }): Promise<number>;
}
const load = (): Promise<Provision> => scriptModule<Provision>('scripts/vscode/provision.mjs');

/** A fake Debian: which packages are installed, whether we are root, and every apt-get call. */
function fakeSystem(installed: string[], root: boolean, aptStatus: number = 0) {
  const calls: string[][] = [];
  const system: System = {
    installed: (p) => installed.includes(p),
    isRoot: () => root,
    aptGet: (args, env) => {
      calls.push(args);
      assert.equal(env.DEBIAN_FRONTEND, 'noninteractive');
      return aptStatus;
    },
  };
  return { system, calls };
}

const savedCi = process.env.CI;
after(() => {
  if (savedCi === undefined) delete process.env.CI;
  else process.env.CI = savedCi;
});

test("as root, the browser tier installs chromium alone with apt-get (update, then install), waiting for another apt-get's lock", async () => {
  const p = await load();
  const { system, calls } = fakeSystem([], true);
  const lines: string[] = [];
  p.ensureChromium((s) => lines.push(s), system);
  assert.deepEqual(
    calls.map((c) => c[0]),
    ['update', 'install'],
  );
  assert.deepEqual(
    calls[1]!.filter((a) => !a.startsWith('-') && a !== 'install' && !a.includes('::')),
    ['chromium'],
    "chromium only, not libkrb5-dev (that is code-server's)",
  );
  assert.ok(calls.every((c) => c.includes('DPkg::Lock::Timeout=300')));
  assert.match(lines.join('\n'), /installing Debian packages: chromium/);
  assert.equal(p.CHROMIUM, '/usr/bin/chromium');
});

test('chromium already there: nothing runs; the editor tiers still ask for both packages', async () => {
  const p = await load();
  const there = fakeSystem(['chromium'], true);
  p.ensureChromium(() => undefined, there.system);
  assert.deepEqual(there.calls, []);
  const both = fakeSystem([], true);
  p.ensureDebianPackages(() => undefined, undefined, both.system);
  assert.ok(both.calls[1]!.includes('chromium') && both.calls[1]!.includes('libkrb5-dev'));
});

test('not root: it stops with the exact command to run, naming chromium alone', async () => {
  const p = await load();
  const { system, calls } = fakeSystem(['libkrb5-dev'], false);
  assert.throws(
    () => p.ensureChromium(() => undefined, system),
    (e: Error & { needsPerson?: boolean }) => {
      assert.ok(e instanceof p.ProvisionError);
      assert.equal(e.needsPerson, true);
      assert.equal(
        e.message,
        "missing Debian packages: chromium. Run: sudo sh -c 'apt-get update && apt-get install -y --no-install-recommends chromium'",
      );
      return true;
    },
  );
  assert.deepEqual(calls, []);
});

test('apt-get failing is a failure with the command, not a skip', async () => {
  const p = await load();
  const { system } = fakeSystem([], true, 100);
  assert.throws(
    () => p.ensureChromium(() => undefined, system),
    /apt-get update failed \(exit 100\)\. Run: apt-get update && apt-get install -y --no-install-recommends chromium/,
  );
});

test('the browser tier goes on once chromium is there; without root it is skipped outside CI and fails under CI=true', async () => {
  const p = await load();
  const ensured: string[] = [];
  assert.equal(
    p.prepareBrowserTier({
      ensure: () => {
        ensured.push('chromium');
      },
    }),
    undefined,
  );
  assert.deepEqual(ensured, ['chromium']);
  const notRoot = () => {
    throw new p.ProvisionError("missing Debian packages: chromium. Run: sudo sh -c '…'", { needsPerson: true });
  };
  const logged: string[] = [];
  const origError = console.error,
    origLog = console.log;
  const printed: string[] = [];
  console.error = (s: string) => {
    printed.push(s);
  };
  console.log = (s: string) => {
    printed.push(s);
  };
  try {
    delete process.env.CI;
    assert.deepEqual(p.prepareBrowserTier({ ensure: notRoot, log: (s) => logged.push(s) }), {
      code: 0,
      out: '0 passed, 0 failed\n',
    });
    assert.match(printed.join('\n'), /\[browser\] SKIPPED: missing Debian packages: chromium\. Run: sudo sh -c/);
    process.env.CI = 'true';
    const failed = p.prepareBrowserTier({ ensure: notRoot, log: (s) => logged.push(s) });
    assert.equal(failed?.code, 1);
    assert.match(failed!.out, /^\[browser\] missing Debian packages: chromium/);
    assert.match(logged.join('\n'), /missing Debian packages: chromium/, 'said, not only returned');
  } finally {
    console.error = origError;
    console.log = origLog;
  }
});

test('npm test and npm run test:browser provision chromium before the browser tests run', () => {
  const testAll = fs.readFileSync(path.join(root, 'scripts', 'test-all.mjs'), 'utf8');
  assert.match(testAll, /import \{ prepareBrowserTier \} from '\.\/vscode\/provision\.mjs';/);
  assert.match(
    testAll,
    /name: 'browser',\s+fn: \(\) => prepareBrowserTier\(\) \?\? nodeTest\('test\/browser', 'browser'\)\(\)/,
  );
  // On the lane of every tier but e2e, the browser tier runs before the host tier; the editor tiers (host, and e2e
  // on its own lane) provision the rest (code-server, libkrb5-dev) through provision(), which holds a lock.
  const order = ['browser', 'host'].map((t) => testAll.indexOf(`name: '${t}'`));
  assert.ok(
    order.every((i, n) => i > 0 && (n === 0 || i > order[n - 1]!)),
    String(order),
  );
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  assert.match(pkg.scripts['test:browser']!, /^node scripts\/vscode\/provision\.mjs --chromium && /);
  // provision.mjs --chromium is its own path: it must not start a code-server install.
  const prov = fs.readFileSync(path.join(root, 'scripts', 'vscode', 'provision.mjs'), 'utf8');
  assert.match(prov, /process\.argv\.includes\('--chromium'\)\) \{[\s\S]*?ensureChromium\(\);[\s\S]*?\} else if/);
});

test("the inner npm installs keep the npm cache and registry of the run, not the parent npm's Node 20 settings", async () => {
  const p = await load();
  const env = p.innerNpmEnv({
    PATH: '/usr/bin',
    npm_config_cache: '/tmp/npmcache-1',
    npm_config_registry: 'https://registry.example/',
    npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64',
    npm_config_nodedir: '/usr',
    npm_lifecycle_event: 'test',
  });
  assert.equal(env.PATH, '/usr/bin');
  assert.equal(env.npm_config_cache, '/tmp/npmcache-1', 'an empty npm cache measures a fresh machine');
  assert.equal(env.npm_config_registry, 'https://registry.example/');
  for (const k of ['npm_config_user_agent', 'npm_config_nodedir', 'npm_lifecycle_event'])
    assert.equal(env[k], undefined);
  assert.equal(env.npm_config_audit, 'false');
  assert.equal(env.npm_config_fund, 'false');
});

test("VS Code's SQLite build is denied before code-server's postinstall; the other approvals stay", async () => {
  const p = await load();
  assert.deepEqual(p.SKIPPED_BUILDS, ['@vscode/sqlite3']);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deny-builds-'));
  try {
    const pinned = path.join(dir, 'pinned.json');
    fs.writeFileSync(
      pinned,
      JSON.stringify({
        name: 'code-oss',
        dependencies: { '@vscode/sqlite3': '5.1.12-vscode' },
        allowScripts: { '@vscode/spdlog@0.15.8': true, '@vscode/sqlite3@5.1.12-vscode': true, ssh2: false },
      }),
    );
    p.denyBuilds(pinned);
    const after = JSON.parse(fs.readFileSync(pinned, 'utf8'));
    assert.deepEqual(after.allowScripts, {
      '@vscode/spdlog@0.15.8': true,
      '@vscode/sqlite3@5.1.12-vscode': false,
      ssh2: false,
    });
    assert.deepEqual(
      after.dependencies,
      { '@vscode/sqlite3': '5.1.12-vscode' },
      'the package itself is still installed',
    );
    const none = path.join(dir, 'none.json');
    fs.writeFileSync(none, JSON.stringify({ name: 'code-oss' }));
    p.denyBuilds(none);
    assert.deepEqual(JSON.parse(fs.readFileSync(none, 'utf8')).allowScripts, { '@vscode/sqlite3': false });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const prov = fs.readFileSync(path.join(root, 'scripts', 'vscode', 'provision.mjs'), 'utf8');
  const unpack = prov.indexOf("'install', '--ignore-scripts', spec]");
  const deny = prov.indexOf(
    "denyBuilds(join(csProject, 'node_modules', 'code-server', 'lib', 'vscode', 'package.json'))",
  );
  const postinstall = prov.indexOf("'rebuild', 'code-server', 'argon2']");
  assert.ok(unpack > 0 && deny > unpack && postinstall > deny, `${unpack} ${deny} ${postinstall}`);
});

/** A part of provisionAll that ends when the test says so. */
function part(name: string, started: string[]) {
  let end!: (v?: unknown) => void, fail!: (e: unknown) => void;
  const done = new Promise((res, rej) => {
    end = res;
    fail = rej;
  });
  const install = () => {
    started.push(name);
    return done;
  };
  return { entry: [name, install] as [string, () => Promise<unknown>], end, fail };
}

test('provisionAll installs both editors at once and writes each part to the time table', async () => {
  const p = await load();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provision-all-'));
  try {
    const started: string[] = [];
    const a = part('code-server', started);
    const b = part('code-oss', started);
    const code = p.provisionAll({ log: () => undefined, parts: [a.entry, b.entry], root: dir });
    await Promise.resolve();
    assert.deepEqual(started, ['code-server', 'code-oss'], 'the second began before the first ended');
    b.end();
    a.end();
    assert.equal(await code, 0);
    const times = JSON.parse(fs.readFileSync(path.join(dir, 'test-results', 'times', 'provision.json'), 'utf8'));
    assert.deepEqual(
      times.suites.map((s: { name: string }) => s.name),
      ['code-server', 'code-oss'],
    );
    const quiet = fs.mkdtempSync(path.join(os.tmpdir(), 'provision-all-'));
    assert.equal(await p.provisionAll({ log: () => undefined, parts: [], root: quiet, times: false }), 0);
    assert.equal(fs.existsSync(path.join(quiet, 'test-results')), false, '--no-times writes nothing');
    fs.rmSync(quiet, { recursive: true, force: true });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('provisionAll: a failed part fails it; a missing Debian package it may not install is skipped outside CI only', async () => {
  const p = await load();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provision-all-'));
  try {
    const lines: string[] = [];
    const run = async (e: Error) => {
      const started: string[] = [];
      const a = part('code-server', started);
      const b = part('code-oss', started);
      const code = p.provisionAll({ log: (s) => lines.push(s), parts: [a.entry, b.entry], root: dir });
      a.fail(e);
      b.end();
      return code;
    };
    assert.equal(await run(new p.ProvisionError('npm install code-server@4.139.1 failed (exit 1)')), 1);
    assert.match(lines.join('\n'), /\[provision\] code-server failed: npm install code-server@4\.139\.1 failed/);
    const person = () =>
      new p.ProvisionError("missing Debian packages: libkrb5-dev. Run: sudo sh -c '…'", { needsPerson: true });
    delete process.env.CI;
    assert.equal(await run(person()), 0);
    assert.match(lines.join('\n'), /\[provision\] SKIPPED code-server: missing Debian packages: libkrb5-dev/);
    process.env.CI = 'true';
    assert.equal(await run(person()), 1);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
