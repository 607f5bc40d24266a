// The first-run rule of the walkthrough: VS Code opens an extension's walkthrough by itself
// only in some cases, so the extension opens it once, on the first activation after install, unless
// the user turned that off. Plain data in, one effect out: no `vscode` import, so the unit tier runs it.

/** `contributes.walkthroughs[].id` in package.json. */
export const WALKTHROUGH_ID = 'devIndex.gettingStarted';
/** The globalState key that remembers the walkthrough was opened once. */
export const SHOWN_KEY = 'devIndex.walkthrough.shown';

/** The slice of `vscode.Memento` the rule needs. */
export interface FlagStore {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

interface FirstRunDeps {
  state: FlagStore;
  /** `devIndex.walkthrough.openOnFirstRun` (default true). */
  enabled(): boolean;
  /** `<publisher>.<name>`, e.g. devindex.devindex. */
  extensionId: string;
  /** Runs `workbench.action.openWalkthrough` with the full walkthrough id. */
  open(fullId: string): Thenable<unknown>;
}

export type FirstRunOutcome = 'opened' | 'already-shown' | 'disabled' | 'failed';

/** The id `workbench.action.openWalkthrough` takes: `<publisher>.<name>#<walkthrough id>`. */
export function walkthroughRef(extensionId: string): string {
  return `${extensionId}#${WALKTHROUGH_ID}`;
}

/**
 * Opens the walkthrough if it was never opened and the setting allows it, then remembers it. The flag
 * is written only after the command succeeded: a workbench that could not open it tries again next
 * time. A turned-off setting leaves the flag alone (turning it back on before the first open still
 * opens it once).
 */
export async function openWalkthroughOnce(d: FirstRunDeps): Promise<FirstRunOutcome> {
  if (d.state.get(SHOWN_KEY) === true) return 'already-shown';
  if (!d.enabled()) return 'disabled';
  try {
    await d.open(walkthroughRef(d.extensionId));
  } catch {
    return 'failed';
  }
  await d.state.update(SHOWN_KEY, true);
  return 'opened';
}
