// Entry of dist/webview.js (browser IIFE): the Search view inside the webview's iframe.
import { SearchApp, type VsCodeApi } from './app';

declare function acquireVsCodeApi(): VsCodeApi;

const root = document.getElementById('app');
if (root) {
  const api = acquireVsCodeApi();
  try {
    new SearchApp(root, api).start(window);
  } catch (e) {
    // Report a broken view to the extension's log rather than leave a blank panel with no trace.
    api.postMessage({
      type: 'log',
      message: `the view failed to start: ${e instanceof Error ? e.message : String(e)}`.slice(0, 4000),
    });
    throw e;
  }
}
