// The feature code both entries hand the shared wiring: the desktop's dist/features.js (src/features.ts) and the web
// bundle (src/web/core.ts) build it here, each with its own reader of a workspace's dependencies.
import { createAgentsFeature, notifyEnds, notifyWaiting } from './agents/agentsFeature';
import { agentClientOver } from './api/agent/agentClient';
import { handleChatRequest } from './chat/participant';
import { createFixesFeature } from './fixesView/createFixes';
import { invokeLanguageModelTool } from './tools/editorTools';
import type { FeatureCode } from './wiring';

export function sharedFeatures(fixesDependencies: FeatureCode['fixesDependencies']): FeatureCode {
  return {
    agentClientOver,
    createAgentsFeature,
    notifyEnds,
    notifyWaiting,
    invokeLanguageModelTool,
    handleChatRequest,
    createFixesFeature,
    fixesDependencies,
  };
}
