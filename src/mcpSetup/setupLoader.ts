// The editor's setup commands edit files through dist/cli-setup.js (`devindex setup`'s bundle, with
// jsonc-parser), loaded on first use: the activation bundle never carries the parser. scripts/build.mjs
// (core-external) keeps `./cli-setup.js` a run-time require next to dist/extension.js.
import type * as SetupBundle from '../cli/setupCommand';

let loaded: typeof SetupBundle | undefined;

export function setupKit(): typeof SetupBundle {
  loaded ??= require('./cli-setup.js') as typeof SetupBundle;
  return loaded;
}
