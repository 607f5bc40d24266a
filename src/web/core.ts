// What shared code reaches through core() (src/lazy.ts), in the browser: the same services and tools;
// the connection diagnosis and the node_modules dependency search are left out (src/web/unavailable.ts).
import type * as Core from '../core';
import { createAgentsFeature, notifyEnds, notifyWaiting } from '../agents/index';
import { verifyKey } from '../auth/verifyKey';
import { Services } from '../services';
import { invokeLanguageModelTool } from '../tools/editorTools';
import { NOT_IN_BROWSER, notInBrowser } from './unavailable';

export const webCore: typeof Core = {
  Services,
  createAgentsFeature,
  notifyEnds,
  notifyWaiting,
  invokeLanguageModelTool,
  verifyKey,
  createDependencySearch: (() => { throw new Error('the browser build registers its own dependency search (src/web/dependencies.ts)'); }) as typeof Core.createDependencySearch,
  showDiagnosis: (async () => notInBrowser('Diagnose Connection', NOT_IN_BROWSER['devIndex.diagnose'])) as unknown as typeof Core.showDiagnosis,
  reportIssue: (async () => notInBrowser('Report an Issue…', NOT_IN_BROWSER['devIndex.reportIssue'])) as unknown as typeof Core.reportIssue,
  openIssueReporter: (async () => notInBrowser('Report an Issue…', NOT_IN_BROWSER['devIndex.reportIssue'])) as unknown as typeof Core.openIssueReporter,
};
