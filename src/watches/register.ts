// Activation side (dist/extension.js): the Watch for a Fix commands, and the start of the background checks
// in every window that has watches (the lease in watcher.ts lets one of them run the checks). The feature
// itself is in dist/core.js, loaded only when a watch exists or a command runs.
import { testModeOn } from '../testGate';
import * as vscode from 'vscode';
import type { WatchFeature } from './editor';
import { testTiming, type TestTiming } from '../testTiming';

/** Set by scripts/build.mjs: false in --production builds (the packaged extension). */
declare const __DEVINDEX_TEST_SURFACE__: boolean;

/** Mirrors WATCH_KEY_PREFIX in watcher.ts (the activation bundle does not load it). */
const KEY_PREFIX = 'devIndex.watch/';
/** After activation, the first background beat waits this long (startup is busy enough). */
const FIRST_BEAT_MS = 10_000;
/** A window with no watch looks again this often (another window may add one). */
const LOOK_AGAIN_MS = 5 * 60_000;

export function registerWatches(context: vscode.ExtensionContext, feature: () => WatchFeature): void {
  let started = false;
  const start = (): WatchFeature => {
    const f = feature();
    if (!started) {
      started = true;
      f.resume();
    }
    return f;
  };
  const hasWatches = () => context.globalState.keys().some((k) => k.startsWith(KEY_PREFIX));
  const id = (v: unknown): string | undefined =>
    typeof v === 'string'
      ? v
      : typeof (v as { id?: unknown } | undefined)?.id === 'string'
        ? (v as { id: string }).id
        : undefined;
  // Test builds only: DEVINDEX_TEST_TIMING shortens both (src/testTiming.ts); its problems are logged by the feature.
  // Written as a constant condition so that a --production build drops the reading and its parser entirely.
  const t: TestTiming = __DEVINDEX_TEST_SURFACE__ ? testTiming().timing : {};
  const look = setInterval(() => {
    if (!started && hasWatches()) start();
  }, t.watchLookAgainMs ?? LOOK_AGAIN_MS);
  const first = setTimeout(() => {
    if (hasWatches()) start();
  }, t.watchFirstBeatMs ?? FIRST_BEAT_MS);
  context.subscriptions.push(
    {
      dispose: () => {
        clearInterval(look);
        clearTimeout(first);
      },
    },
    vscode.commands.registerCommand('devIndex.watch.add', async () => (await start().addCurrent())?.id),
    vscode.commands.registerCommand('devIndex.watch.checkAll', async () => {
      const f = start();
      const out = [];
      for (const w of f.service.list()) out.push({ id: w.id, ...(await f.checkNow(w.id)) });
      if (!out.length)
        void vscode.window.showInformationMessage(
          "Developer Index: no watches yet. Run a search in a dependency's repository, then Watch for a Fix.",
        );
      return out;
    }),
  );
  // Internal, test builds under test only (src/testGate.ts; written inline so that a --production build drops them):
  // the host and browser tiers' handles on a watch, by id or a row `{ id }`.
  if (__DEVINDEX_TEST_SURFACE__ && testModeOn()) {
    context.subscriptions.push(
      vscode.commands.registerCommand('devIndex.watch.checkNow', (v: unknown) => {
        const i = id(v);
        return i ? start().checkNow(i) : undefined;
      }),
      vscode.commands.registerCommand('devIndex.watch.remove', (v: unknown) => {
        const i = id(v);
        return i ? start().service.remove(i) : false;
      }),
      vscode.commands.registerCommand('devIndex.watch.open', (v: unknown) => {
        const i = id(v);
        return i ? start().open(i) : false;
      }),
      vscode.commands.registerCommand('devIndex.watch.list', () => start().service.list()),
      vscode.commands.registerCommand('devIndex.watch.compareInstalled', (folder?: unknown) =>
        start().service.installedChanged(typeof folder === 'string' ? folder : undefined),
      ),
    );
  }
}
