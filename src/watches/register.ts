// Activation side (dist/extension.js): the Watch for a Fix commands, and the start of the background checks
// in every window that has watches (the lease in watcher.ts lets one of them run the checks). The feature
// itself is in dist/core.js, loaded only when a watch exists or a command runs.
import * as vscode from 'vscode';
import type { WatchFeature } from './editor';
import type { WatchTiming } from '../testHooks/hooks';

/** Mirrors WATCH_KEY_PREFIX in watcher.ts (the activation bundle does not load it). */
const KEY_PREFIX = 'devIndex.watch/';
/** After activation, the first background beat waits this long (startup is busy enough). */
const FIRST_BEAT_MS = 10_000;
/** A window with no watch looks again this often (another window may add one). */
const LOOK_AGAIN_MS = 5 * 60_000;

/** `timing`: a test build's shorter beats (src/testHooks/hooks.ts). */
export function registerWatches(
  context: vscode.ExtensionContext,
  feature: () => WatchFeature,
  timing: WatchTiming = {},
): void {
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
  const look = setInterval(() => {
    if (!started && hasWatches()) start();
  }, timing.lookAgainMs ?? LOOK_AGAIN_MS);
  const first = setTimeout(() => {
    if (hasWatches()) start();
  }, timing.firstBeatMs ?? FIRST_BEAT_MS);
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
}
