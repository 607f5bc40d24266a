// The desktop's dist/features.js (src/extension.ts requires it when a feature is first used): everything that is not
// needed to activate or to search. The modules it shares with src/core.ts come from dist/core.js (scripts/build.mjs,
// core-shared).
import { createAgentsFeature, notifyEnds, notifyWaiting } from './agents/agentsFeature';
import { agentClientOver } from './api/agent/agentClient';
import { handleChatRequest } from './chat/participant';
import { createDependencySearch } from './deps/editor';
import { openIssueReporter, reportIssue, showDiagnosis } from './doctor/editor';
import { readWorkspaceDependencies } from './fixes/workspace';
import { createFixesFeature } from './fixesView/createFixes';
import { invokeLanguageModelTool } from './tools/editorTools';
import type { FeatureCode } from './wiring';

const shared: FeatureCode = {
  agentClientOver,
  createAgentsFeature,
  notifyEnds,
  notifyWaiting,
  invokeLanguageModelTool,
  handleChatRequest,
  createFixesFeature,
  // The engine's own reader over node:fs: direct dependencies with their manifest lines.
  fixesDependencies: (folder) => readWorkspaceDependencies(folder, {}),
};

/** The shared features and the desktop's own: the node_modules dependency search and the diagnosis. */
export const features = { ...shared, createDependencySearch, showDiagnosis, reportIssue, openIssueReporter };
