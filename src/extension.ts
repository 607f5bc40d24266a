// Wiring only (the part shared with the web entry is src/wiring.ts). Heavy code (client, zod, undici, the view's message handling) is in dist/core.js (search) and dist/features.js (the rest), loaded on first use.
import * as vscode from 'vscode';
import { registerDependencySearch } from './deps/register';
import { features } from './host/features';
import { registerMcpSetup } from './mcpSetup/register';
import { createTestHooks } from './testHooks/hooks';
import { testSurface, type DevIndexExtensionApi } from './testHooks/surface';
import { settleOnDeactivate, wireShared } from './wiring';

/** Set by scripts/build.mjs: false in --production builds (the packaged extension), true otherwise. */
declare const __DEVINDEX_TEST_SURFACE__: boolean;

let activeContext: vscode.ExtensionContext | undefined;

export function activate(context: vscode.ExtensionContext): DevIndexExtensionApi | undefined {
  activeContext = context;
  try {
    // The one place the test gate is read (twice: each a constant condition, so a production build drops what it guards).
    const hooks = __DEVINDEX_TEST_SURFACE__ ? createTestHooks(process.env) : undefined;
    // The shared wiring also opens the Get Started walkthrough once, on the first activation.
    const { keys, svc, services, walkthrough, fixes, fixesWiring } = wireShared(context, hooks);
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

    if (__DEVINDEX_TEST_SURFACE__ && hooks?.driven)
      return testSurface(hooks, { keys, svc, services, walkthrough, mcp, fixes, fixesWiring });
    return undefined;
  } catch (e) {
    void vscode.window.showErrorMessage(
      `Developer Index failed to start: ${e instanceof Error ? e.message : String(e)}`,
    );
    throw e;
  }
}

export function deactivate(): Promise<void> | undefined {
  return settleOnDeactivate(activeContext);
}
