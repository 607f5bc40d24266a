#!/usr/bin/env node
// `npm run test:host`: the mocha suite in test/integration inside a real extension host
// (code-server's, in extension test mode), driven through headless chromium. Prints the suite's
// output and a closing line `N passed, N failed`. Exit 1 on a failure, a timeout or zero tests.
//   --grep TEXT   only tests whose title matches
//   --keep        keep the run folder (logs, profile) for inspection
import { format } from 'node:util';
import { Session, build, root, withTimeout, TEST_KEY } from './session.mjs';
import { ProvisionError, skipOrFail } from './provision.mjs';
import { createWriteStream, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { addTimes, timesFile } from '../suite-times-reporter.mjs';

const argv = process.argv.slice(2);
const grep = argv.includes('--grep') ? argv[argv.indexOf('--grep') + 1] : undefined;
if (argv.includes('--keep')) process.env.DEVINDEX_KEEP_SESSION = '1';
const LOG_TAG = '[devindex-suite] ';
const RESULTS = join(root, 'test-results', 'host');
const SUITE_TIMEOUT_MS = Number(process.env.DEVINDEX_HOST_TIMEOUT_MS ?? 600_000);
const t0 = Date.now();
const secs = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
const log = (s) => process.stderr.write(`${s}\n`);

const session = new Session({ name: 'host', log });
session.closeOnSignals();

let exitCode = 1;
let closing = { passed: 0, failed: 0 };
rmSync(timesFile(root, 'host'), { force: true });
try {
  build(['--tests', '--only=test/integration', '--bundles']);
  const testsMain = join(root, 'out', 'test', 'integration', 'index.js');
  if (!existsSync(testsMain)) throw new Error(`${testsMain} was not built`);
  log(`[host] built in ${secs()}`);

  const sandboxUrl = await session.startSandbox();
  const workspace = session.makeWorkspace();
  const depsWorkspace = session.makeDepsWorkspace();
  await session.startCodeServer({ testDriver: true, settings: { 'devIndex.baseUrl': sandboxUrl } });
  log(`[host] sandbox ${sandboxUrl}, code-server ${session.codeServerUrl} ready at ${secs()}`);

  const context = await session.launchBrowser();
  const page = context.pages()[0] ?? (await context.newPage());
  let output = '';
  let resolveExit;
  const exited = new Promise((r) => {
    resolveExit = r;
  });
  // The workbench forwards every console line (its own and the extension host's) as
  // (level, printfArgs). The suite's lines carry LOG_TAG; the rest goes to the workbench log.
  mkdirSync(RESULTS, { recursive: true });
  const workbenchLog = createWriteStream(join(RESULTS, 'workbench.log'));
  await page.exposeFunction('codeAutomationLog', (level, parts) => {
    const line = format(...(Array.isArray(parts) ? parts : [parts]));
    if (line.startsWith(LOG_TAG)) {
      const text = line.slice(LOG_TAG.length);
      output += `${text}\n`;
      process.stdout.write(`${text}\n`);
    } else {
      workbenchLog.write(`${level} ${line}\n`);
    }
  });
  await page.exposeFunction('codeAutomationExit', (code) => resolveExit(Number(code)));
  page.on('pageerror', (e) => log(`[host] page error: ${e.message}`));

  const env = {
    DEVINDEX_SANDBOX_URL: sandboxUrl,
    DEVINDEX_TEST_KEY: TEST_KEY,
    DEVINDEX_LOG_TAG: LOG_TAG,
    DEVINDEX_TEST_USER_SETTINGS: session.userSettingsFile,
    DEVINDEX_TEST_WORKSPACE: workspace,
    DEVINDEX_TEST_DEPS_WORKSPACE: depsWorkspace,
    ...(grep ? { DEVINDEX_TEST_GREP: grep } : {}),
  };
  const url = session.workbenchUrl({
    payload: [
      ['extensionDevelopmentPath', session.remoteUri(root)],
      ['extensionTestsPath', session.remoteUri(testsMain)],
      ['extensionEnvironment', JSON.stringify(env)],
    ],
  });
  const setupMs = Date.now() - t0;
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  const code = await withTimeout(exited, SUITE_TIMEOUT_MS, 'the extension-host suite to finish (codeAutomationExit)');

  // The files' times (test/integration/index.ts) and the setup before them, for `npm test`'s closing table.
  addTimes(root, 'host', [
    { name: '(setup: build, sandbox, code-server, browser)', ms: setupMs },
    ...[...output.matchAll(/^suite time: (\S+) (\d+) ms$/gm)].map((x) => ({ name: `integration/${x[1]}`, ms: +x[2] })),
  ]);
  const m = [...output.matchAll(/^(\d+) passed, (\d+) failed$/gm)].at(-1);
  closing = m ? { passed: +m[1], failed: +m[2] } : { passed: 0, failed: 0 };
  if (code !== 0) log(`[host] workbench and extension-host log: ${join(RESULTS, 'workbench.log')}`);
  if (code !== 0 && closing.failed === 0) {
    log(
      `[host] the suite's run() rejected (exit ${code}) with no failing test: an error outside the tests, or zero tests`,
    );
    closing.failed += 1;
  }
  if (closing.passed + closing.failed === 0) {
    log('[host] no test ran');
    closing.failed = 1;
  }
  exitCode = closing.failed === 0 ? 0 : 1;
} catch (e) {
  if (skipOrFail('host', e)) {
    await session.close();
    process.exit(0);
  }
  log(`[host] ${e instanceof ProvisionError ? e.message : (e?.stack ?? e)}`);
  for (const c of session.children) log(`--- ${c.name} log (tail) ---\n${session.logTail(c)}`);
  closing.failed += 1;
  exitCode = 1;
} finally {
  await session.close();
}
log(`[host] finished in ${secs()}`);
console.log(`${closing.passed} passed, ${closing.failed} failed`);
process.exit(exitCode);
