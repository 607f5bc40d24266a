// The browser's code for the shared wiring (src/wiring.ts), bundled in (a web worker loads one file): the same
// services and features over the browser's host. The connection diagnosis and the node_modules dependency search are
// the desktop's only (src/web/unavailable.ts says why).
import { createAgentsFeature, notifyEnds, notifyWaiting } from '../agents/index';
import { agentClientOver } from '../api/agent/agentClientOver';
import { verifyKey } from '../auth/verifyKey';
import { handleChatRequest } from '../chat/participant';
import { browserHost } from '../host/browser';
import { Services } from '../services';
import { invokeLanguageModelTool } from '../tools/editorTools';
import type { EntryCode } from '../wiring';
import { resolveManifests } from './dependencies';

const core = { Services, verifyKey, host: browserHost, folderDependencies: resolveManifests };
const features = {
  agentClientOver,
  createAgentsFeature,
  notifyEnds,
  notifyWaiting,
  invokeLanguageModelTool,
  handleChatRequest,
};

export const webCode: EntryCode = { core: () => core, features: () => features };
