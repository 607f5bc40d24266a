// The editor's setup commands edit files through dist/cli-setup.js (`devindex setup`'s bundle, with
// jsonc-parser), loaded on first use: the activation bundle never carries the parser. scripts/build.mjs
// (core-external) keeps `./cli-setup.js` a run-time require next to dist/extension.js.
import type * as Entries from './entries';
import type * as SetupKit from './setupKit';

/** What src/cli/setupCommand.ts, the bundle's entry, exports for the editor: this folder's own functions. */
type SetupBundle = Pick<typeof SetupKit, 'installLauncher' | 'repairFile' | 'writeEntry' | 'writeRules'> &
  Pick<typeof Entries, 'entryText' | 'setupEntry'>;

let loaded: SetupBundle | undefined;

export function setupKit(): SetupBundle {
  loaded ??= require('./cli-setup.js') as SetupBundle;
  return loaded;
}
