// What shared code reaches through core() and features() (src/host/features.ts), in the browser: the same services
// and tools; the connection diagnosis and the node_modules dependency search are left out (src/web/unavailable.ts).
import type * as Core from '../core';
import type * as Features from '../features';
import { createAgentsFeature, notifyEnds, notifyWaiting } from '../agents/agentsFeature';
import { agentClientOver } from '../api/agent/agentClientOver';
import { verifyKey } from '../auth/verifyKey';
import { Services } from '../services';
import { invokeLanguageModelTool } from '../tools/editorTools';
import { handleChatRequest } from '../chat/participant';
import { createFixesFeature } from '../fixesView/createFixes';
import { NOT_IN_BROWSER, notInBrowser } from './unavailable';

export const webCore: typeof Core = { Services, verifyKey };

export const webFeatures: typeof Features = {
  agentClientOver,
  createAgentsFeature,
  notifyEnds,
  notifyWaiting,
  invokeLanguageModelTool,
  handleChatRequest,
  createFixesFeature,
  createDependencySearch: (() => {
    throw new Error('the browser build registers its own dependency search (src/web/dependencies.ts)');
  }) as typeof Features.createDependencySearch,
  showDiagnosis: (async () =>
    notInBrowser(
      'Diagnose Connection',
      NOT_IN_BROWSER['devIndex.diagnose'],
    )) as unknown as typeof Features.showDiagnosis,
  reportIssue: (async () =>
    notInBrowser('Report an Issue…', NOT_IN_BROWSER['devIndex.reportIssue'])) as unknown as typeof Features.reportIssue,
  openIssueReporter: (async () =>
    notInBrowser(
      'Report an Issue…',
      NOT_IN_BROWSER['devIndex.reportIssue'],
    )) as unknown as typeof Features.openIssueReporter,
};
