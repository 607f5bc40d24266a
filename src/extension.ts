// The desktop's entry: wiring only (the part shared with the web entry is src/wiring.ts). Heavy code (client, zod,
// undici, the view's message handling) is in dist/core.js (search, over Node's host) and dist/features.js (the rest),
// required here on first use: scripts/build.mjs (core-external) keeps the two requires run-time requires.
import { testModeOn } from './testGate';
import * as vscode from 'vscode';
import { config } from './config';
import { registerDependencySearch } from './deps/register';
import type * as CoreBundle from './core';
import type * as FeaturesBundle from './features';
import { registerMcpSetup, type McpSetupHandle } from './mcpSetup/register';
import type { WalkthroughHandle } from './walkthrough/register';
import type { Services } from './services';
import type { IssueReport, IssueReporter } from './doctor/editor';
import type { WatchFeature } from './watches/editor';
import { wireShared } from './wiring';

/** Set by scripts/build.mjs: false in --production builds (the packaged extension), true otherwise. */
declare const __DEVINDEX_TEST_SURFACE__: boolean;

/**
 * The surface the extension-host tests use (docs/ARCHITECTURE.md, "Extension test surface"). It gives
 * key access, so it exists only in a development build running under the host tests (which set
 * DEVINDEX_TEST_KEY); the packaged extension exports nothing: another extension cannot read or replace
 * the key through it.
 */
export interface DevIndexExtensionApi {
  baseUrl(): string;
  apiKey: { get(): Promise<string | undefined>; set(key: string): Promise<void>; clear(): Promise<void> };
  lastSearch(): ReturnType<Services['search']['lastOutcome']>;
  /** Replaces the issue reporter Report an Issue… opens (undefined: VS Code's own again), so a test sees what it would send. */
  setIssueReporter(send: ((report: IssueReport) => unknown) | undefined): void;
  /** Issue 23: the Watch for a Fix feature (its service, and `show`, which a test replaces to press a button). */
  watches(): WatchFeature;
  /** Issue 30: where checked links (Get a Key, a successor) are opened instead of the browser (undefined: the browser again). */
  setExternalOpener(open: ((url: string) => unknown) | undefined): void;
  /** Issue 30: the deprecation messages shown in this session (once per endpoint and day), newest last. */
  shownNotices(): string[];
  /** The first-run walkthrough: what activation did, and the rule again through a test's opener. */
  walkthrough: Pick<WalkthroughHandle, 'atActivation' | 'runFirstRun' | 'forget' | 'ref'>;
  /** Issue 33: the MCP launcher refresh and old-entry repair (activation's run, and again with a test's folders). */
  mcp: McpSetupHandle;
}

let coreCode: typeof CoreBundle.core | undefined;
let featureCode: typeof FeaturesBundle.features | undefined;
/** dist/core.js, required on the first call (a search, the key's check). */
const core = () => (coreCode ??= (require('./core.js') as typeof CoreBundle).core);
/** dist/features.js (and with it dist/core.js), required on the first call. */
const features = () => (featureCode ??= (require('./features.js') as typeof FeaturesBundle).features);

export function activate(context: vscode.ExtensionContext): DevIndexExtensionApi | undefined {
  try {
    // The shared wiring also opens the Get Started walkthrough once, on the first activation (issue 24).
    const { keys, svc, services, walkthrough } = wireShared(context, { core, features });
    registerDependencySearch(context, () => features().createDependencySearch(() => svc().getClient()));
    const mcp = registerMcpSetup(context, { keys });
    // Issue 21: the connection diagnosis and the issue report (their code is in dist/features.js).
    let issueReporter: IssueReporter | undefined;
    context.subscriptions.push(
      vscode.commands.registerCommand('devIndex.diagnose', () =>
        features().showDiagnosis({ apiKey: () => keys.get() }),
      ),
      vscode.commands.registerCommand('devIndex.reportIssue', () =>
        features().reportIssue({
          apiKey: () => keys.get(),
          extensionVersion: String(context.extension.packageJSON.version ?? 'unknown'),
          send: (r) => (issueReporter ?? features().openIssueReporter)(r),
        }),
      ),
    );

    // Written inline so that a --production build (flag false) drops the surface's code entirely.
    if (!__DEVINDEX_TEST_SURFACE__ || !testModeOn()) return undefined;
    return {
      baseUrl: () => config.baseUrl(),
      apiKey: { get: () => keys.get(), set: (k) => keys.set(k), clear: () => keys.clear() },
      lastSearch: () => services()?.search.lastOutcome(),
      setIssueReporter: (send) => {
        issueReporter = send ? async (r) => send(r) : undefined;
      },
      watches: () => svc().watches(),
      setExternalOpener: (open) => svc().setExternalOpener(open),
      shownNotices: () => [...svc().shownNotices],
      walkthrough,
      mcp,
    };
  } catch (e) {
    void vscode.window.showErrorMessage(
      `Developer Index failed to start: ${e instanceof Error ? e.message : String(e)}`,
    );
    throw e;
  }
}

export function deactivate(): void {}
