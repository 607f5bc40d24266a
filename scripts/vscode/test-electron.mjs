#!/usr/bin/env node
// `npm run test:electron`: the same extension-host suite as `npm run test:host`, under desktop VS
// Code via @vscode/test-electron. Needs internet (it downloads VS Code into .vscode-test/) and a
// display (or xvfb-run). Not part of `npm test` or CI here, where there is no internet.
//   VSCODE_VERSION=1.95.0 npm run test:electron    (default: stable)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Session, TEST_KEY, build, root } from './session.mjs';

const log = (s) => process.stderr.write(`${s}\n`);
const session = new Session({ name: 'electron', log });
session.closeOnSignals();
let code = 1;
try {
  build(['--tests', '--only=test/integration', '--bundles']);
  const sandboxUrl = await session.startSandbox();
  const workspace = session.makeWorkspace();
  const userData = session.folder('user-data');
  const userSettings = session.path('user-data', 'User', 'settings.json');
  writeFileSync(
    userSettings,
    JSON.stringify({ 'devIndex.baseUrl': sandboxUrl, 'workbench.startupEditor': 'none' }, null, 2),
  );
  const { runTests } = await import('@vscode/test-electron');
  code = await runTests({
    version: process.env.VSCODE_VERSION ?? 'stable',
    extensionDevelopmentPath: root,
    extensionTestsPath: join(root, 'out', 'test', 'integration', 'index.js'),
    launchArgs: [
      workspace,
      '--user-data-dir',
      userData,
      '--extensions-dir',
      session.folder('extensions'),
      '--disable-workspace-trust',
    ],
    extensionTestsEnv: {
      DEVINDEX_SANDBOX_URL: sandboxUrl,
      DEVINDEX_TEST_KEY: TEST_KEY,
      DEVINDEX_TEST_USER_SETTINGS: userSettings,
      DEVINDEX_TEST_WORKSPACE: workspace,
    },
  });
} catch (e) {
  log(`[electron] ${e?.message ?? e}`);
  log('[electron] @vscode/test-electron needs internet to download VS Code; offline, use npm run test:host');
  code = 1;
} finally {
  await session.close();
}
process.exit(code);
