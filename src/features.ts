// The desktop's dist/features.js (src/extension.ts requires it when a feature is first used): everything that is not
// needed to activate or to search. The modules it shares with src/core.ts come from dist/core.js (scripts/build.mjs,
// core-shared).
import { createDependencySearch } from './deps/editor';
import { openIssueReporter, reportIssue, showDiagnosis } from './doctor/editor';
import { readWorkspaceDependencies } from './fixes/workspace';
import { sharedFeatures } from './sharedFeatures';

// The engine's own reader over node:fs: direct dependencies with their manifest lines.
const shared = sharedFeatures((folder) => readWorkspaceDependencies(folder, {}));

/** The shared features and the desktop's own: the node_modules dependency search and the diagnosis. */
export const features = { ...shared, createDependencySearch, showDiagnosis, reportIssue, openIssueReporter };
