// The desktop's entry: wiring only (the shared part is src/wiring.ts). The heavy code is in dist/core.js (search, over
// Node's host) and dist/features.js (the rest), required here on first use (scripts/build.mjs keeps them external).
import * as vscode from 'vscode';
import { registerDependencySearch } from './deps/register';
import type * as CoreBundle from './core';
import type * as FeaturesBundle from './features';
import { registerMcpSetup } from './mcpSetup/register';
import { createTestHooks } from './testHooks/hooks';
import { testSurface, type DevIndexExtensionApi } from './testHooks/surface';
import { settleOnDeactivate, startOrSay, wireShared } from './wiring';

/** Set by scripts/build.mjs: false in --production builds (the packaged extension), true otherwise. */
declare const __DEVINDEX_TEST_SURFACE__: boolean;

let activeContext: vscode.ExtensionContext | undefined;

let coreCode: typeof CoreBundle.core | undefined;
let featureCode: typeof FeaturesBundle.features | undefined;
/** dist/core.js, required on the first call (a search, the key's check). */
const core = () => (coreCode ??= (require('./core.js') as typeof CoreBundle).core);
/** dist/features.js (and with it dist/core.js), required on the first call. */
const features = () => (featureCode ??= (require('./features.js') as typeof FeaturesBundle).features);

export function activate(context: vscode.ExtensionContext): DevIndexExtensionApi | undefined {
  activeContext = context;
  return startOrSay(() => {
    // The one place the test gate is read (twice: each a constant condition, so a production build drops what it guards).
    const hooks = __DEVINDEX_TEST_SURFACE__ ? createTestHooks(process.env) : undefined;
    // The shared wiring also opens the Get Started walkthrough once, on the first activation.
    const shared = wireShared(context, { core, features }, hooks);
    const { keys, svc } = shared;
    registerDependencySearch(context, () => features().createDependencySearch(() => svc().getClient()));
    const mcp = registerMcpSetup(context, { keys });
    // The connection diagnosis and the issue report (their code is in dist/features.js).
    context.subscriptions.push(
      vscode.commands.registerCommand('devIndex.diagnose', () =>
        features().showDiagnosis({ apiKey: () => keys.get() }),
      ),
      vscode.commands.registerCommand('devIndex.reportIssue', () =>
        features().reportIssue({
          apiKey: () => keys.get(),
          extensionVersion: String(context.extension.packageJSON.version ?? 'unknown'),
          send: (r) => (hooks?.issueReporter ?? features().openIssueReporter)(r),
        }),
      ),
    );

    if (__DEVINDEX_TEST_SURFACE__ && hooks?.driven) return testSurface(hooks, { ...shared, mcp, features });
    return undefined;
  });
}

export function deactivate(): Promise<void> | undefined {
  return settleOnDeactivate(activeContext);
}
