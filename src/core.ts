// Everything that is not needed to activate: loaded lazily through src/lazy.ts (dist/core.js).
export { Services } from './services';
export { invokeLanguageModelTool } from './tools/editorTools';
export { verifyKey } from './auth/verifyKey';
