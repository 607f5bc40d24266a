// Activation side of the walkthrough: opens it once on the first activation (the rule is in
// firstRun.ts). The steps themselves are contributions (package.json `contributes.walkthroughs`); each
// button runs a command that already exists.
import * as vscode from 'vscode';
import { config } from '../config';
import { openWalkthroughOnce, SHOWN_KEY, walkthroughRef, type FirstRunOutcome } from './firstRun';

export interface WalkthroughHandle {
  /** What the activation's first-run check did (settles after activation returns). */
  readonly atActivation: Promise<FirstRunOutcome>;
  /** The same check again, through another opener (one that records instead of opening). */
  runFirstRun(open?: (ref: string) => Thenable<unknown>): Promise<FirstRunOutcome>;
  /** Forgets that it was opened (the rule then starts from a first install again). */
  forget(): Thenable<void>;
  /** `<publisher>.<name>#<walkthrough id>`. */
  readonly ref: string;
}

export function registerWalkthrough(context: vscode.ExtensionContext, log: (m: string) => void): WalkthroughHandle {
  const extensionId = context.extension.id;
  const openInWorkbench = (ref: string) => vscode.commands.executeCommand('workbench.action.openWalkthrough', ref);
  const runFirstRun = (open: (ref: string) => Thenable<unknown> = openInWorkbench) =>
    openWalkthroughOnce({
      state: context.globalState,
      extensionId,
      open,
      enabled: () => config.openWalkthroughOnFirstRun(),
    });
  const atActivation = runFirstRun().then((outcome) => {
    if (outcome === 'opened' || outcome === 'failed') log(`walkthrough on first run: ${outcome}`);
    return outcome;
  });
  return {
    atActivation,
    runFirstRun,
    forget: () => context.globalState.update(SHOWN_KEY, undefined),
    ref: walkthroughRef(extensionId),
  };
}
