// Wiring only (the part shared with the web entry is src/wiring.ts). Heavy code (client, zod, undici, the view's message handling) is in dist/core.js (search) and dist/features.js (the rest), loaded on first use.
import { testModeOn } from './testGate';
import * as vscode from 'vscode';
import { config } from './config';
import { registerDependencySearch } from './deps/register';
import { features } from './host/features';
import { registerMcpSetup, type McpSetupHandle } from './mcpSetup/register';
import type { WalkthroughHandle } from './walkthrough/register';
import type { Services } from './services';
import type { IssueReport, IssueReporter } from './doctor/editor';
import type { WatchFeature } from './watches/editor';
import type { FixesFeature } from './fixesView/fixesFeature';
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
  /** The Dependency Fixes feature once built (its tree's rows, as the view shows them). */
  fixes(): FixesFeature | undefined;
  /** Issue 33: the MCP launcher refresh and old-entry repair (activation's run, and again with a test's folders). */
  mcp: McpSetupHandle;
}

export function activate(context: vscode.ExtensionContext): DevIndexExtensionApi | undefined {
  try {
    // The shared wiring also opens the Get Started walkthrough once, on the first activation (issue 24).
    const { keys, svc, services, walkthrough, fixes } = wireShared(context);
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
      fixes: () => fixes.loaded(),
    };
  } catch (e) {
    void vscode.window.showErrorMessage(
      `Developer Index failed to start: ${e instanceof Error ? e.message : String(e)}`,
    );
    throw e;
  }
}

export function deactivate(): void {}
