#!/usr/bin/env node
// `npm run test:e2e`: browser UI tests (test/e2e, node:test + playwright-core + Debian chromium)
// against code-server with the packaged .vsix installed and pointed at the sandbox. Screenshots go
// to test-results/e2e/. Closing line `N passed, N failed`; exit 1 on a failure, a timeout or zero tests.
//   --keep   keep the run folder (code-server and sandbox logs, profiles)
//   --only NAME   only the test files whose name contains NAME (repeatable: any of them)
//   --except NAME   every test file but those whose name contains NAME (repeatable)
//   --tier NAME   the name in `npm test`'s time table and the screenshots' folder test-results/NAME/ (default e2e)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CHROMIUM, ProvisionError, skipOrFail } from './provision.mjs';
import { CHROMIUM_ARGS, Session, TEST_KEY, build, extensionId, root, runnerCounts } from './session.mjs';
import { addTimes, timesFile } from '../suite-times-reporter.mjs';

const argv = process.argv.slice(2);
if (argv.includes('--keep')) process.env.DEVINDEX_KEEP_SESSION = '1';
/** Every value given to `name`, in order. */
const values = (name) => argv.flatMap((a, i) => (a === name && i + 1 < argv.length ? [argv[i + 1]] : []));
const only = values('--only');
const except = values('--except');
const tierName = values('--tier')[0] ?? 'e2e';
// Seven suites took 5 to 8 minutes on 2 loaded cores; the eighth (walkthrough) adds about 3 at a load average
// near 20, the two-window watch suite about 6, the web host suite (its own code-server) about 3. On 2026-11-25, at a
// load average of 15 to 19, 1,200 s ended a full run during its seventh suite, and a run without the two-window
// suite took 1,419 s. The limit is a guard against a hang, not a goal.
const TIMEOUT_MS = Number(process.env.DEVINDEX_E2E_TIMEOUT_MS ?? 2_400_000);
const RESULTS = join(root, 'test-results', tierName);
const t0 = Date.now();
const secs = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
const log = (s) => process.stderr.write(`${s}\n`);
/** The web host suite's folder: a browsed GitHub repository, as vscode.dev and github.dev open one. */
const WEB_HOST_FOLDER = 'vscode-vfs://github/fetchline/fetchline';

const session = new Session({ name: 'e2e', log });
session.closeOnSignals();

let closing = { passed: 0, failed: 0 };
try {
  build(['--tests', '--only=test/e2e', '--bundles']);
  const dir = join(root, 'out', 'test', 'e2e');
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter(
          (f) =>
            f.endsWith('.test.js') &&
            (only.length === 0 || only.some((n) => f.includes(n))) &&
            !except.some((n) => f.includes(n)),
        )
        .sort()
        .map((f) => join(dir, f))
    : [];
  if (files.length === 0) throw new Error('no browser UI test was built (test/e2e/*.test.ts)');

  // The users' artifact: the same .vsix `npm run package` makes, installed into code-server.
  const vsix = session.path('devindex.vsix');
  // One difference from `npm run package`: --test-surface keeps the test gate in, so DEVINDEX_TEST_TIMING below
  // applies (src/testHooks/timing.ts); without DEVINDEX_TEST_KEY (never given to code-server) the rest of the surface stays off.
  const pack = spawnSync(process.execPath, ['scripts/package.mjs', '--out', vsix, '--test-surface'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (pack.status !== 0) throw new Error(`packaging failed:\n${pack.stdout}${pack.stderr}`);
  log(`[e2e] built and packaged in ${secs()}`);

  const sandboxUrl = await session.startSandbox();
  // The walkthrough opens on a first install, and every suite's fresh browser profile is one.
  // Only the walkthrough suite's folder keeps the product default; the other folders turn it off in their
  // workspace settings, so that their suites find the workbench as they expect it.
  const quiet = {
    '.vscode/settings.json': `${JSON.stringify({ 'devIndex.walkthrough.openOnFirstRun': false }, null, 2)}\n`,
  };
  session.makeWorkspace({ files: quiet });
  const depsWorkspace = session.makeDepsWorkspace();
  for (const [p, text] of Object.entries(quiet)) {
    mkdirSync(dirname(join(depsWorkspace, p)), { recursive: true });
    writeFileSync(join(depsWorkspace, p), text);
  }
  const firstRunWorkspace = session.folder('workspace', 'first-run');
  writeFileSync(
    join(firstRunWorkspace, 'README.md'),
    '# first-run\n\nAn empty folder: the walkthrough suite sees the extension as a first install does.\n',
  );
  // Time is the tests' (src/testHooks/timing.ts): the watch lease (90 s), its beat (30 s) and the 6-hour interval,
  // shortened so that watchesTwoWindows.test.ts sees two due checks and a lease take-over in about a minute and a
  // half (a second window once took 30 s to open on loaded cores: a 45 s interval leaves it 41 s). Only a window that
  // runs its background loop feels them; the other suites' watches are made and removed well inside the interval.
  // An agent run's poll schedule is shortened too: the agents and threads suites wait on the tree's rows, which change
  // at each poll.
  const testTiming = JSON.stringify({
    leaseTtlMs: 10_000,
    leaseRenewMs: 2_000,
    watchIntervalMs: 45_000,
    watchFirstBeatMs: 1_000,
    watchLookAgainMs: 5_000,
    watchSettleMs: 500,
    watchBetweenMs: 200,
    agentPollFastMs: 500,
    agentPollMaxMs: 1_500,
    agentWaitingMs: 1_500,
    agentStatusEveryMs: 3_000,
  });
  // The chat and web host suites have code-servers of their own (below); a run of only those starts no other.
  const suites = files.map((f) => basename(f, '.test.js'));
  if (suites.some((n) => n !== 'chat' && n !== 'webHost')) {
    await session.startCodeServer({
      vsix,
      settings: { 'devIndex.baseUrl': sandboxUrl },
      env: { DEVINDEX_TEST_TIMING: testTiming },
    });
    log(`[e2e] sandbox ${sandboxUrl}, code-server ${session.codeServerUrl} ready at ${secs()}`);
  }
  // The web build in code-server's web worker extension host (webHost.test.ts): a second code-server whose
  // user settings make the same .vsix a web extension (`remote.extensionKind`: its `browser` entry runs in
  // the browser, its `main` never), with a folder from a vscode-vfs file system (a test fixture extension).
  let webHostUrl = '';
  if (suites.includes('webHost')) {
    const vfsVsix = session.path('vfs-fixture.vsix');
    const vsce = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules', '@vscode', 'vsce', 'vsce'),
        'package',
        '--allow-missing-repository',
        '--skip-license',
        '--no-dependencies',
        '--out',
        vfsVsix,
      ],
      { cwd: join(root, 'test', 'e2e', 'fixtures', 'vfs-fixture'), encoding: 'utf8', timeout: 120_000 },
    );
    if (vsce.status !== 0) throw new Error(`packaging the vscode-vfs fixture failed:\n${vsce.stdout}${vsce.stderr}`);
    const web = await session.startCodeServer({
      prefix: 'web-',
      vsix: [vsix, vfsVsix],
      settings: {
        'devIndex.baseUrl': sandboxUrl,
        'devIndex.walkthrough.openOnFirstRun': false,
        'remote.extensionKind': { [extensionId()]: ['web'] },
      },
    });
    const u = new URL(web);
    u.searchParams.set('folder', WEB_HOST_FOLDER);
    webHostUrl = u.toString();
    log(`[e2e] code-server for the web worker extension host ${web} ready at ${secs()}`);
  }

  // The chat participant (chat.test.ts): VS Code's chat calls no participant without a chat model, and
  // code-server offline has none. A third code-server has AI features on (the others turn them off) and a test
  // fixture extension with one scripted local model (test/e2e/fixtures/chat-model-fixture), on the dependency fixture.
  let chatUrl = '';
  if (suites.includes('chat')) {
    const modelVsix = session.path('chat-model-fixture.vsix');
    const vsce = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules', '@vscode', 'vsce', 'vsce'),
        'package',
        '--allow-missing-repository',
        '--skip-license',
        '--no-dependencies',
        '--out',
        modelVsix,
      ],
      { cwd: join(root, 'test', 'e2e', 'fixtures', 'chat-model-fixture'), encoding: 'utf8', timeout: 120_000 },
    );
    if (vsce.status !== 0) throw new Error(`packaging the chat model fixture failed:\n${vsce.stdout}${vsce.stderr}`);
    const chat = await session.startCodeServer({
      prefix: 'chat-',
      vsix: [vsix, modelVsix],
      settings: {
        'devIndex.baseUrl': sandboxUrl,
        'devIndex.walkthrough.openOnFirstRun': false,
        'chat.disableAIFeatures': false,
      },
    });
    const u = new URL(chat);
    u.searchParams.set('folder', depsWorkspace);
    chatUrl = u.toString();
    log(`[e2e] code-server with a scripted chat model ${chat} ready at ${secs()}`);
  }

  rmSync(RESULTS, { recursive: true, force: true });
  const setupMs = Date.now() - t0;
  rmSync(timesFile(root, tierName), { force: true });
  mkdirSync(dirname(timesFile(root, tierName)), { recursive: true });
  const runner = session.spawn(
    'node-test',
    process.execPath,
    [
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=./scripts/suite-times-reporter.mjs',
      `--test-reporter-destination=${timesFile(root, tierName)}`,
      '--test-concurrency=1',
      ...files,
    ],
    {
      cwd: root,
      tee: true,
      env: {
        ...process.env,
        ...(session.codeServerUrl
          ? {
              DEVINDEX_E2E_WORKBENCH_URL: session.workbenchUrl(),
              DEVINDEX_E2E_DEPS_WORKBENCH_URL: session.workbenchUrl({ folder: depsWorkspace }),
              DEVINDEX_E2E_FIRST_RUN_WORKBENCH_URL: session.workbenchUrl({ folder: firstRunWorkspace }),
            }
          : {}),
        DEVINDEX_E2E_WEB_HOST_WORKBENCH_URL: webHostUrl,
        DEVINDEX_E2E_CHAT_WORKBENCH_URL: chatUrl,
        DEVINDEX_E2E_ROOT: root,
        DEVINDEX_E2E_SANDBOX_URL: sandboxUrl,
        DEVINDEX_E2E_TEST_KEY: TEST_KEY,
        DEVINDEX_E2E_TEST_TIMING: testTiming,
        DEVINDEX_E2E_USER_DATA: session.folder('user-data'),
        DEVINDEX_E2E_RESULTS: RESULTS,
        DEVINDEX_E2E_RUN_DIR: session.folder('browsers'),
        DEVINDEX_E2E_CHROMIUM: CHROMIUM,
        DEVINDEX_E2E_CHROMIUM_ARGS: JSON.stringify(CHROMIUM_ARGS),
      },
    },
  );
  closing = await runnerCounts(runner, { tier: tierName, timeoutMs: TIMEOUT_MS, log });
  addTimes(root, tierName, [{ name: '(setup: build, package, sandbox, code-servers)', ms: setupMs }]);
  log(`[e2e] screenshots in ${RESULTS}`);
} catch (e) {
  if (skipOrFail(tierName, e)) {
    await session.close();
    process.exit(0);
  }
  log(`[e2e] ${e instanceof ProvisionError ? e.message : (e?.stack ?? e)}`);
  for (const c of session.children) log(`--- ${c.name} log (tail) ---\n${session.logTail(c)}`);
  closing.failed += 1;
} finally {
  await session.close();
}
log(`[e2e] finished in ${secs()}`);
console.log(`${closing.passed} passed, ${closing.failed} failed`);
process.exit(closing.failed === 0 ? 0 : 1);
