// Everything that is not needed to activate or to search: loaded lazily through src/host/features.ts
// (dist/features.js) when a feature is first used. The modules it shares with src/core.ts come from
// dist/core.js (scripts/build.mjs, core-shared).
export { createDependencySearch } from './deps/editor';
export { createFixesFeature } from './fixesView/createFixes';
export { invokeLanguageModelTool } from './tools/editorTools';
export { handleChatRequest } from './chat/participant';
export { showDiagnosis, reportIssue, openIssueReporter } from './doctor/editor';
export { createAgentsFeature, notifyEnds, notifyWaiting } from './agents/agentsFeature';
export { agentClientOver } from './api/agent/agentClientOver';
