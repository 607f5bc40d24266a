// Opens the browser-only workbench that `npm run test:web` serves (scripts/vscode/test-web.mjs) in a fresh headless
// chromium profile, as test/e2e/workbench.ts's Workbench.open does for code-server, with one difference in the
// profile: third-party cookies allowed.
//
// Why: test-web serves each webview from its own origin, http://<uuid>.localhost:<port>/, a different site from
// the workbench's http://localhost:<port>/ (a webview's origin is a third party in the page). Chromium 150 (Debian)
// blocks third-party cookies by default, and with them service workers in third-party frames; a webview's
// document registers a service worker before it loads anything, and failed with "Could not register service
// worker. Please make sure third party cookies are enabled: NotSupportedError: … The user denied permission to
// use Service Worker." (the Search view stayed blank). vscode.dev's users allow them for *.vscode-cdn.net; here the
// profile's Preferences allow them before the browser starts. code-server serves webviews from its own origin,
// so the e2e tier never meets this.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import { Workbench, e2e } from '../e2e/workbench';

export const THIRD_PARTY_COOKIES_ALLOWED = { profile: { cookie_controls_mode: 0, block_third_party_cookies: false } };

export async function openBrowserOnlyWorkbench(name: string, url = e2e.workbenchUrl()): Promise<Workbench> {
  const profile = fs.mkdtempSync(path.join(e2e.runDir(), `chromium-${name}-`));
  fs.mkdirSync(path.join(profile, 'Default'), { recursive: true });
  fs.writeFileSync(path.join(profile, 'Default', 'Preferences'), JSON.stringify(THIRD_PARTY_COOKIES_ALLOWED));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: e2e.chromium(),
    headless: true,
    args: e2e.chromiumArgs(),
    viewport: { width: 1400, height: 900 },
    timeout: 30_000,
  });
  context.setDefaultTimeout(20_000);
  const page = context.pages()[0] ?? (await context.newPage());
  const wb = Workbench.onContext(context, page, name);
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  await page.locator('.monaco-workbench .activitybar').waitFor({ state: 'visible', timeout: 60_000 });
  await page.locator('.statusbar').waitFor({ state: 'visible' });
  return wb;
}
