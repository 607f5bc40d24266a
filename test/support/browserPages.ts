// The browser tier's page setup, shared by its test files: before the file's tests, the screenshot folder, the
// page server (test/browser/harness.ts) and chromium; after them, both closed.
import { mkdirSync } from 'node:fs';
import { after, before } from 'node:test';
import {
  launchBrowser,
  openView,
  screenshotDir,
  startPageServer,
  type BrowserHandle,
  type PageServer,
  type Theme,
  type ViewPage,
} from '../browser/harness';

export interface ViewPages {
  /** A new Search view page in the theme (dark unless told). */
  open(theme?: Theme): Promise<ViewPage>;
  /** The page server's origin. */
  origin(): string;
  /** Every path the page server was asked for. */
  requests(): string[];
}

/** Registers the file's before and after hooks; call it at the top level of a test file. */
export function viewPages(): ViewPages {
  let server: PageServer | undefined;
  let browser: BrowserHandle | undefined;
  before(async () => {
    mkdirSync(screenshotDir(), { recursive: true });
    server = await startPageServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  return {
    open: (theme) => openView(browser!.context, server!.origin, theme),
    origin: () => server!.origin,
    requests: () => server!.requests,
  };
}
