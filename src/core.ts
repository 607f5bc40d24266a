// Everything that is not needed to activate: loaded lazily through src/lazy.ts (dist/core.js).
export { Services } from './services';
export { createDependencySearch } from './deps/editor';
export { invokeLanguageModelTool } from './tools/editorTools';
export { verifyKey } from './auth/verifyKey';
export { showDiagnosis, reportIssue, openIssueReporter } from './doctor/editor';
export { createAgentsFeature, notifyEnds, notifyWaiting } from './agents/index';
