// Serves the Search view's real HTML (src/webview/html.ts: the CSP, the nonce) and bundle from
// 127.0.0.1, and opens it in Debian's chromium with a fake acquireVsCodeApi. Shared by the browser
// tests and bench/render.bench.ts.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { buildSearchHtml } from '../../src/webview/html';
import type { SearchOutcome } from '../../src/search/session/outcome';
import type { FromWebview, ToWebview } from '../../src/webview/protocol';

export const CHROMIUM = '/usr/bin/chromium';

export function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'media'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('repository root not found above ' + __dirname);
    dir = up;
  }
  return dir;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.map': 'application/json',
  '.ttf': 'font/ttf',
};

/** Every path the page may load; anything else is a 404 (so a stray fetch shows up as a failure). */
const ASSETS: Record<string, string> = {
  '/assets/dist/webview.js': 'dist/webview.js',
  '/assets/media/webview.css': 'media/webview.css',
  '/assets/dist/codicon.css': 'dist/codicon.css',
  '/assets/dist/codicon.ttf': 'dist/codicon.ttf',
  '/theme/dark.css': 'test/browser/fixtures/theme-dark.css',
  '/theme/light.css': 'test/browser/fixtures/theme-light.css',
  '/theme/hc.css': 'test/browser/fixtures/theme-hc.css',
};

export interface PageServer {
  origin: string;
  requests: string[];
  close(): Promise<void>;
}

export async function startPageServer(): Promise<PageServer> {
  const root = repoRoot();
  if (!existsSync(join(root, 'dist/webview.js')))
    throw new Error('dist/webview.js is missing: run node scripts/build.mjs --bundles first');
  const requests: string[] = [];
  let origin = '';
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    if (path === '/') {
      const html = buildSearchHtml<string>(
        { cspSource: origin, asWebviewUri: (p) => `${origin}/assets/${p}` },
        { script: 'dist/webview.js', style: 'media/webview.css', codicons: 'dist/codicon.css' },
      );
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html);
      return;
    }
    const file = ASSETS[path];
    if (!file) {
      res.writeHead(404);
      res.end();
      return;
    }
    const type = TYPES[file.slice(file.lastIndexOf('.'))] ?? 'text/plain';
    res.writeHead(200, {
      'content-type': type.startsWith('font/') ? type : `${type}; charset=utf-8`,
      'cache-control': 'no-store',
    });
    res.end(readFileSync(join(root, file)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface BrowserHandle {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<BrowserHandle> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'devindex-webview-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 420, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export type Theme = 'light' | 'dark' | 'hc';

export interface ViewPage {
  page: Page;
  dialogs: string[];
  send(m: ToWebview): Promise<void>;
  posted(): Promise<FromWebview[]>;
  /** Waits for the webview to post a message of `type` (beyond the first `after` messages). */
  waitForPosted<T extends FromWebview['type']>(type: T, after?: number): Promise<Extract<FromWebview, { type: T }>>;
  clearPosted(): Promise<void>;
  violations(): Promise<string[]>;
}

/**
 * The stand-in for VS Code's webview host: acquireVsCodeApi records posted messages, and state survives a
 * reload the way VS Code keeps it across a webview rebuild. setState costs what VS Code's does: the state is
 * serialised (JSON.stringify) and handed over; VS Code posts that string to its host, which keeps it in another
 * process. Here the page keeps the string and puts it in sessionStorage when it goes away (pagehide), so a
 * 500-passage state is not also written to storage on the view's thread at every save, which VS Code never does.
 */
const FAKE_HOST = `
  window.__posted = [];
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
  let kept = sessionStorage.getItem('vscode-state');
  let changed = false;
  window.addEventListener('pagehide', () => { if (changed) sessionStorage.setItem('vscode-state', kept); });
  window.acquireVsCodeApi = () => ({
    postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))),
    getState: () => JSON.parse(kept || 'null'),
    setState: (s) => { kept = JSON.stringify(s); changed = true; },
  });
`;

export async function openView(context: BrowserContext, origin: string, theme: Theme = 'dark'): Promise<ViewPage> {
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  await page.addInitScript({ content: FAKE_HOST });
  await page.goto(`${origin}/`);
  await applyTheme(page, theme);
  await page.waitForFunction(() => (window as unknown as { __posted: unknown[] }).__posted.length > 0);
  const view: ViewPage = {
    page,
    dialogs,
    // Dispatched synchronously (the event VS Code's host delivers), so the view has handled it on return.
    send: (m) =>
      page.evaluate((msg) => {
        window.dispatchEvent(new MessageEvent('message', { data: msg }));
      }, m as unknown),
    posted: () => page.evaluate(() => (window as unknown as { __posted: FromWebview[] }).__posted),
    async waitForPosted(type, after = 0) {
      const handle = await page.waitForFunction(
        ([t, n]) => {
          const all = (window as unknown as { __posted: Array<{ type: string }> }).__posted;
          return all.slice(n as number).find((m) => m.type === t);
        },
        [type, after] as const,
        { timeout: 5000 },
      );
      return (await handle.jsonValue()) as never;
    },
    clearPosted: () =>
      page.evaluate(() => {
        (window as unknown as { __posted: unknown[] }).__posted.length = 0;
      }),
    violations: () => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
  };
  return view;
}

/** VS Code sets the theme's variables and a body class; the test themes come from the fixtures. */
export async function applyTheme(page: Page, theme: Theme): Promise<void> {
  await page.evaluate((t) => {
    document.body.classList.remove('vscode-light', 'vscode-dark', 'vscode-high-contrast');
    document.body.classList.add(t === 'light' ? 'vscode-light' : t === 'dark' ? 'vscode-dark' : 'vscode-high-contrast');
    document.querySelectorAll('link[href*="/theme/"]').forEach((l) => l.remove());
  }, theme);
  await page.addStyleTag({ url: `/theme/${theme}.css` });
}

export const DEFAULTS = { k: 10, passages: 3, types: ['doc', 'issue', 'pull_request', 'readme'] };

/** Init as the extension sends it, then a search typed and run; returns the search message. */
export async function typeAndSearch(v: ViewPage, query: string): Promise<Extract<FromWebview, { type: 'search' }>> {
  const before = (await v.posted()).length;
  await v.page.fill('#q', query);
  await v.page.press('#q', 'Enter');
  return v.waitForPosted('search', before);
}

export function outcome(partial: Partial<SearchOutcome> & Pick<SearchOutcome, 'results'>): SearchOutcome {
  return {
    params: { query: 'q' },
    coverage: { doc: 'ok', issue: 'ok', pull_request: 'ok', readme: 'ok' },
    notes: [],
    ms: 42,
    ...partial,
  };
}

export function screenshotDir(): string {
  return join(repoRoot(), 'test-results', 'webview');
}
