// Playwright helpers for the browser UI tests: drive the code-server workbench that
// `npm run test:e2e` started (its URL and the run's folders come in the environment) as a user
// would: the command palette, input boxes, notifications, webview views two iframes deep, tree
// views, and screenshots into test-results/e2e/.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type BrowserContext, type Frame, type FrameLocator, type Locator, type Page } from 'playwright-core';

function env(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the browser UI tests with npm run test:e2e`);
  return v;
}

/** What test-e2e.mjs hands every test file. */
export const e2e = {
  workbenchUrl: () => env('DEVINDEX_E2E_WORKBENCH_URL'),
  sandboxUrl: () => env('DEVINDEX_E2E_SANDBOX_URL'),
  /** A key the sandbox accepts (a test value, never a real key). */
  testKey: () => env('DEVINDEX_E2E_TEST_KEY'),
  results: () => env('DEVINDEX_E2E_RESULTS'),
  runDir: () => env('DEVINDEX_E2E_RUN_DIR'),
  chromium: () => env('DEVINDEX_E2E_CHROMIUM'),
  chromiumArgs: () => JSON.parse(env('DEVINDEX_E2E_CHROMIUM_ARGS')) as string[],
};

/** A POST to the sandbox's control API (`/__sandbox/…`), e.g. its keyless quota; the answer's status. */
export async function sandboxControl(path: string, body: unknown): Promise<number> {
  const r = await fetch(`${e2e.sandboxUrl()}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await r.text();
  return r.status;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function intersect(a: Box, b: Box): Box {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - x),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - y),
  };
}

const fmt = (b: Box) => `${Math.round(b.width)}x${Math.round(b.height)} at (${Math.round(b.x)}, ${Math.round(b.y)})`;

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);

/**
 * The HTTP and script caches of the first profile a suite closed: every window loads the same workbench files, and a
 * profile that starts with them shows the workbench about a second sooner. Caches only: no storage, so every suite
 * still meets the extension as a first install.
 */
const CACHES = ['Cache', 'Code Cache'];
const cacheTemplate = () => path.join(e2e.runDir(), 'chromium-caches');

function keepCaches(profile: string): void {
  const template = cacheTemplate();
  if (fs.existsSync(template)) return;
  const tmp = `${template}.${process.pid}.tmp`;
  for (const d of CACHES) {
    const from = path.join(profile, 'Default', d);
    if (fs.existsSync(from)) fs.cpSync(from, path.join(tmp, d), { recursive: true });
  }
  if (fs.existsSync(tmp)) fs.renameSync(tmp, template);
}

export class Workbench {
  private shots = 0;

  /**
   * `ownsContext`: close() ends the browser profile (a window from openWindow() closes only its page); `profile`: its
   * folder, whose caches close() keeps for the next suite's profile.
   */
  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    private readonly name: string,
    private readonly ownsContext = true,
    private readonly profile?: string,
  ) {}

  /** A workbench on a browser profile launched elsewhere (the web tier's browser-only workbench); close() ends it. */
  static onContext(context: BrowserContext, page: Page, name: string): Workbench {
    return new Workbench(context, page, name);
  }

  /** A fresh headless chromium profile on the workbench; `name` prefixes this file's screenshots. */
  static async open(name: string, opts: { url?: string } = {}): Promise<Workbench> {
    const profile = fs.mkdtempSync(path.join(e2e.runDir(), `chromium-${slug(name)}-`));
    if (fs.existsSync(cacheTemplate())) fs.cpSync(cacheTemplate(), path.join(profile, 'Default'), { recursive: true });
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: e2e.chromium(),
      headless: true,
      args: e2e.chromiumArgs(),
      viewport: { width: 1400, height: 900 },
      timeout: 30_000,
    });
    context.setDefaultTimeout(20_000);
    const page = context.pages()[0] ?? (await context.newPage());
    const wb = new Workbench(context, page, slug(name), true, profile);
    await page.goto(opts.url ?? e2e.workbenchUrl(), { waitUntil: 'domcontentloaded', timeout: 60_000 });
    await page.locator('.monaco-workbench .activitybar').waitFor({ state: 'visible', timeout: 60_000 });
    // The status bar is laid out last; before it, key presses may not reach the workbench.
    await page.locator('.statusbar').waitFor({ state: 'visible' });
    return wb;
  }

  /**
   * A second window on the same browser profile: another tab of the same origin, as a user opens one. It gets
   * its own extension host in code-server and shares the workbench's storage (globalState) with this one.
   * Its close() closes only its tab.
   */
  async openWindow(name: string, opts: { url?: string } = {}): Promise<Workbench> {
    const page = await this.context.newPage();
    const wb = new Workbench(this.context, page, slug(name), false);
    await page.goto(opts.url ?? e2e.workbenchUrl(), { waitUntil: 'domcontentloaded', timeout: 60_000 });
    await page.locator('.monaco-workbench .activitybar').waitFor({ state: 'visible', timeout: 60_000 });
    await page.locator('.statusbar').waitFor({ state: 'visible' });
    return wb;
  }

  /**
   * Saves a full-window screenshot as test-results/e2e/<file>-<nn>-<label>.png and returns its path; with
   * `target`, only that element (e.g. `.part.sidebar`, a close-up at the page's own pixels).
   */
  async screenshot(label: string, target?: Locator): Promise<string> {
    fs.mkdirSync(e2e.results(), { recursive: true });
    const file = path.join(e2e.results(), `${this.name}-${String(++this.shots).padStart(2, '0')}-${slug(label)}.png`);
    if (target) await target.screenshot({ path: file });
    else await this.page.screenshot({ path: file });
    return file;
  }

  /** Runs a command through the palette: F1, `>Category: Title`, Enter on the exact entry. */
  async runCommand(title: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget input.input');
    await this.page.keyboard.press('Escape');
    await this.page
      .locator('.monaco-workbench')
      .click({ position: { x: 700, y: 450 } })
      .catch(() => undefined);
    // A palette that something else closes as it opens, or before its entry is clicked (the new window's first
    // notification or view taking the focus), is opened again: at most three times.
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    let label = '';
    for (let tries = 1; ; tries++) {
      await this.page.keyboard.press('F1');
      await input.waitFor({ state: 'visible' });
      try {
        await input.fill(`>${title}`, { timeout: 5_000 });
        await row.waitFor({ state: 'visible' });
        label = (await row.getAttribute('aria-label')) ?? '';
        if (!label.startsWith(title)) break;
        // Click the entry itself: Enter would run whichever entry the palette put first.
        await row.click({ timeout: 5_000 });
        return;
      } catch (e) {
        if (tries === 3) throw e;
        if (await this.page.locator('.quick-input-widget').isVisible()) await this.page.keyboard.press('Escape');
      }
    }
    throw new Error(`the palette's first match for "${title}" is "${label}"`);
  }

  /** Answers the open input box (optionally checking its prompt) and presses Enter. */
  async answerInputBox(text: string, opts: { prompt?: RegExp } = {}): Promise<void> {
    const widget = this.page.locator('.quick-input-widget');
    const input = widget.locator('input.input');
    await input.waitFor({ state: 'visible' });
    if (opts.prompt) {
      // The box replaces the palette in the same widget: wait for its own prompt or title.
      const shown = widget.locator('.quick-input-message, .quick-input-title').filter({ hasText: opts.prompt }).first();
      await shown.waitFor({ state: 'visible', timeout: 10_000 }).catch(async () => {
        const seen = await widget.locator('.quick-input-message, .quick-input-title').allInnerTexts();
        throw new Error(`no input box with a prompt matching ${opts.prompt} (seen: ${JSON.stringify(seen)})`);
      });
    }
    await input.fill(text);
    await this.page.keyboard.press('Enter');
    await widget.waitFor({ state: 'hidden' });
  }

  /**
   * Search in a Dependency's Repository… from the palette: picks the one dependency whose row names `slug` (typing
   * `filter` into the pick first) and answers the query box, whose prompt names the repository.
   */
  async searchInDependency(slug: string, filter: string, query: string): Promise<void> {
    await this.runCommand("Developer Index: Search in a Dependency's Repository…");
    const rows = this.page.locator('.quick-input-list .monaco-list-row');
    await rows.filter({ hasText: slug }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await this.page.locator('.quick-input-widget input.input').fill(filter);
    await rows.filter({ hasText: slug }).first().click();
    await this.page.locator('.quick-input-widget', { hasText: '1 Selected' }).waitFor({ state: 'visible' });
    await this.page.keyboard.press('Enter');
    await this.answerInputBox(query, { prompt: new RegExp(slug.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')) });
  }

  /** The texts of the notification toasts on screen now. */
  async notifications(): Promise<string[]> {
    return this.page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts();
  }

  /** Waits for a notification toast whose text matches, and returns its text. */
  async waitForNotification(match: RegExp, timeout = 20_000): Promise<string> {
    const toast = this.page
      .locator('.notifications-toasts .notification-list-item-message')
      .filter({ hasText: match })
      .first();
    await toast.waitFor({ state: 'visible', timeout });
    return toast.innerText();
  }

  /** Clicks a button of the notification whose text matches. */
  async clickNotificationButton(match: RegExp, button: string): Promise<void> {
    const item = this.page.locator('.notifications-toasts .notification-list-item').filter({ hasText: match }).first();
    await item.getByRole('button', { name: button }).click();
  }

  /** The activity bar entry of a view container, by its title. */
  activityItem(title: string): Locator {
    return this.page.locator(`.activitybar a.action-label[aria-label^="${title}"]`);
  }

  /** Opens a view container from the activity bar (if not already open). */
  async openContainer(title: string): Promise<void> {
    const item = this.activityItem(title);
    await item.waitFor({ state: 'visible' });
    const li = this.page.locator('.activitybar .action-item', {
      has: this.page.locator(`a.action-label[aria-label^="${title}"]`),
    });
    if (
      (await li.getAttribute('aria-selected')) !== 'true' &&
      !((await li.getAttribute('class')) ?? '').includes('checked')
    )
      await item.click();
    await this.page.locator('.sidebar').waitFor({ state: 'visible' });
  }

  /** The side bar's title (e.g. "DEVELOPER INDEX: SEARCH"). */
  async sideBarTitle(): Promise<string> {
    return (await this.page.locator('.sidebar .composite.title .title-label').innerText()).trim();
  }

  /**
   * The document inside a webview view: the workbench's `iframe.webview.ready`, then the
   * extension's `#active-frame` inside it. `nth` picks among several visible webviews.
   */
  webview(nth = 0): FrameLocator {
    return this.page.locator('iframe.webview.ready').nth(nth).contentFrame().locator('#active-frame').contentFrame();
  }

  /**
   * What a failing test says about the page's webviews: how many there are, and for each its document's
   * opening text and whether its Watched list is shown. Also a screenshot (`… failure`).
   */
  async describeWebviews(): Promise<string> {
    const lines: string[] = [];
    const frames = this.page.locator('iframe.webview');
    const n = await frames.count().catch(() => -1);
    lines.push(
      `${n} webview iframe(s); ${await this.page
        .locator('iframe.webview.ready')
        .count()
        .catch(() => -1)} ready`,
    );
    for (let i = 0; i < n; i++) {
      try {
        const el = await frames.nth(i).contentFrame().locator('#active-frame').elementHandle({ timeout: 2_000 });
        const doc = await el?.contentFrame();
        const text = doc
          ? await doc.evaluate(() => {
              const w = document.querySelector('.watched');
              return `watched ${w ? (w.hasAttribute('hidden') ? 'hidden' : 'shown') : 'absent'}: ${(document.body?.innerText ?? '').replace(/\s+/g, ' ').slice(0, 300)}`;
            })
          : 'no document';
        lines.push(`#${i}: ${text}`);
      } catch (e) {
        lines.push(`#${i}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
      }
    }
    await this.screenshot('failure').catch(() => undefined);
    return lines.join('\n');
  }

  /**
   * The same document as webview(nth), as a playwright Frame: for `evaluate` inside the webview
   * (sentinels, listeners). A webview rebuilt after hide/show is a new frame: ask again.
   */
  async webviewFrame(nth = 0): Promise<Frame> {
    const el = await this.page
      .locator('iframe.webview.ready')
      .nth(nth)
      .contentFrame()
      .locator('#active-frame')
      .elementHandle();
    const frame = await el?.contentFrame();
    if (!frame) throw new Error('the webview has no #active-frame document');
    return frame;
  }

  /**
   * Puts the workbench in a light, dark or high-contrast theme and waits until the workbench wears it
   * (root class `vs`, `vs-dark` or `hc-black`); webviews follow live. Light and dark go through the
   * palette's "Preferences: Toggle between Light/Dark Themes"; high contrast (and the way back from
   * it) through the theme picker, "Preferences: Color Theme", clicking the entries by name.
   */
  async useTheme(kind: 'light' | 'dark' | 'hc'): Promise<void> {
    const cls = kind === 'light' ? 'vs' : kind === 'dark' ? 'vs-dark' : 'hc-black';
    const wears = (k: string) => {
      const el = document.querySelector('.monaco-workbench');
      return (
        !!el &&
        el.classList.contains(k) &&
        !['vs', 'vs-dark', 'hc-black', 'hc-light'].filter((c) => c !== k).some((c) => el.classList.contains(c))
      );
    };
    if (await this.page.evaluate(wears, cls)) return;
    // Always through the Color Theme picker, by the theme's name: the Light/Dark toggle depends on the
    // preferred themes and on what an earlier suite left in the shared user settings. A switch that does
    // not show (a picker that closed on a focus change) is tried again.
    const theme = kind === 'hc' ? 'Dark High Contrast' : kind === 'light' ? 'Light 2026' : 'Dark 2026';
    const input = this.page.locator('.quick-input-widget input.input');
    const rows = this.page.locator('.quick-input-list .monaco-list-row');
    let last: Error | undefined;
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        // Escape only closes an open quick input: with none open it would also hide the notification toasts.
        if (await this.page.locator('.quick-input-widget').isVisible()) await this.page.keyboard.press('Escape');
        await this.page.keyboard.press('F1');
        await input.waitFor({ state: 'visible', timeout: 10_000 });
        await input.fill('>Preferences: Color Theme');
        await rows.and(this.page.locator('[aria-label^="Preferences: Color Theme,"]')).click({ timeout: 10_000 });
        await input.fill(theme);
        await rows.and(this.page.locator(`[aria-label^="${theme},"]`)).click({ timeout: 10_000 });
        await this.page.waitForFunction(wears, cls, { timeout: 10_000 });
        // The picker fades out after the choice; a screenshot taken now would show it over the workbench.
        await this.page
          .locator('.quick-input-widget')
          .waitFor({ state: 'hidden', timeout: 5_000 })
          .catch(() => undefined);
        return;
      } catch (e) {
        last = e as Error;
      }
    }
    const classes = await this.page.evaluate(() => document.querySelector('.monaco-workbench')?.className);
    throw new Error(
      `the workbench did not switch to a ${kind} theme after 3 tries: ${classes}\n${last?.message ?? ''}`,
    );
  }

  /** A view's pane in the side bar, by the view's name. */
  pane(viewName: string): Locator {
    return this.page.locator('.sidebar .pane', {
      has: this.page.locator(`.pane-header[aria-label="${viewName} Section"]`),
    });
  }

  /** A view's header in the side bar (click it to collapse or expand the view). */
  viewHeader(viewName: string): Locator {
    return this.page.locator(`.sidebar .pane-header[aria-label="${viewName} Section"]`);
  }

  /** Collapses or expands a side bar view by clicking its header, if it is not that way already. */
  async setViewExpanded(viewName: string, expanded: boolean): Promise<void> {
    const header = this.viewHeader(viewName);
    await header.waitFor({ state: 'visible' });
    // On the title: the header's middle may be one of the view's action buttons (Search's toolbar is wide).
    if (((await header.getAttribute('aria-expanded')) === 'true') !== expanded)
      await header.locator('.title').first().click();
    await this.page.waitForFunction(
      ([sel, want]) => document.querySelector(sel!)?.getAttribute('aria-expanded') === want,
      [`.sidebar .pane-header[aria-label="${viewName} Section"]`, String(expanded)],
      { timeout: 10_000 },
    );
  }

  /** The side bar's width in px (0 when it is not on screen). */
  async sideBarWidth(): Promise<number> {
    return (await this.page.locator('.part.sidebar').boundingBox())?.width ?? 0;
  }

  /**
   * Sets the side bar to about `width` px by dragging the sash on its right edge, wider or narrower.
   * Throws if it did not end within 10 px of that width.
   */
  async setSideBarWidth(width: number): Promise<void> {
    const part = this.page.locator('.part.sidebar');
    const bar = await part.boundingBox();
    if (!bar) throw new Error('the side bar is not on screen');
    if (Math.abs(bar.width - width) <= 10) return;
    const y = bar.y + bar.height / 2;
    await this.page.mouse.move(bar.x + bar.width + 1, y);
    await this.page.mouse.down();
    await this.page.mouse.move(bar.x + width + 1, y, { steps: 8 });
    await this.page.mouse.up();
    const now = await this.sideBarWidth();
    if (Math.abs(now - width) > 10)
      throw new Error(`the side bar is ${now} px wide after dragging its sash towards ${width} px`);
  }

  /** Widens the side bar to at least about `width` px (the default width, about 300 px, wraps long labels). */
  async widenSideBar(width = 520): Promise<void> {
    if ((await this.sideBarWidth()) >= width - 10) return;
    await this.setSideBarWidth(width);
  }

  /**
   * Gives one view of the open container the side bar: widens it (widenSideBar), collapses the
   * views in `collapse` and expands `viewName`, then waits until its webview (if any) has the room.
   */
  async giveViewTheSideBar(viewName: string, collapse: string[], width = 520): Promise<void> {
    await this.widenSideBar(width);
    for (const other of collapse) await this.setViewExpanded(other, false);
    await this.setViewExpanded(viewName, true);
    const body = this.pane(viewName).locator('.pane-body');
    await body.waitFor({ state: 'visible' });
    // The pane animates to its new height; a webview over it follows a frame later.
    let last = -1;
    for (let i = 0; i < 50; i++) {
      const h = (await body.boundingBox())?.height ?? 0;
      if (h > 0 && Math.abs(h - last) < 1) break;
      last = h;
      await this.page.waitForTimeout(100);
    }
  }

  /**
   * Scrolls `target` (an element in any frame, e.g. inside a webview) to the top of its document's
   * viewport, with a little room above it, and lets lazily rendered content paint.
   */
  async scrollToTop(target: Locator, margin = 8): Promise<void> {
    await target.waitFor({ state: 'attached' });
    await target.evaluate((el, m) => {
      el.scrollIntoView({ block: 'start', inline: 'nearest' });
      (el.ownerDocument.scrollingElement ?? el.ownerDocument.documentElement).scrollBy(0, -m);
    }, margin);
    await target.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }

  /**
   * Throws unless at least `minRatio` of `target` is on screen: inside the window's viewport and
   * inside every iframe that holds it (a webview is two frames deep), by their bounding boxes, and
   * by an IntersectionObserver in the element's own document (which also sees clipping by
   * scrolled containers there). The check a screenshot named after the element relies on.
   */
  async assertInViewport(target: Locator, what: string, minRatio = 1): Promise<void> {
    const handle = await target.elementHandle();
    if (!handle) throw new Error(`${what}: no such element`);
    const box = await handle.boundingBox();
    if (!box || box.width === 0 || box.height === 0)
      throw new Error(`${what}: not rendered (box ${JSON.stringify(box)})`);
    const vp = this.page.viewportSize() ?? { width: 0, height: 0 };
    let clip = { x: 0, y: 0, width: vp.width, height: vp.height };
    const clips: string[] = [`window ${fmt(clip)}`];
    for (let frame = await handle.ownerFrame(); frame && frame.parentFrame(); frame = frame.parentFrame()) {
      const el = await frame.frameElement();
      const fb = await el.boundingBox();
      await el.dispose();
      if (!fb) throw new Error(`${what}: a frame that holds it is not rendered`);
      clips.push(`frame ${fmt(fb)}`);
      clip = intersect(clip, fb);
    }
    const shown = intersect(clip, box);
    const geometric = (shown.width * shown.height) / (box.width * box.height);
    const observed = await handle.evaluate(
      (el) =>
        new Promise<number>((resolve) => {
          const io = new IntersectionObserver(([e]) => {
            io.disconnect();
            resolve(e?.intersectionRatio ?? 0);
          });
          io.observe(el);
        }),
    );
    await handle.dispose();
    const tolerance = 0.01;
    if (geometric < minRatio - tolerance || observed < minRatio - tolerance) {
      throw new Error(
        `${what} is not in the viewport: ${(geometric * 100).toFixed(0)}% inside (observer: ${(observed * 100).toFixed(0)}%), ` +
          `${(minRatio * 100).toFixed(0)}% wanted; element ${fmt(box)}, ${clips.join(', ')}`,
      );
    }
  }

  /** The labels of a tree view's visible rows. */
  async treeItems(viewName: string): Promise<string[]> {
    const rows = this.pane(viewName).locator('.monaco-list-row');
    return (
      await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? (e as HTMLElement).innerText))
    ).map((s) => s.trim());
  }

  /** Clicks the tree row whose label contains `label`. */
  async clickTreeItem(viewName: string, label: string | RegExp): Promise<void> {
    await this.pane(viewName).locator('.monaco-list-row', { hasText: label }).first().click();
  }

  async close(): Promise<void> {
    if (this.ownsContext) {
      await this.context.close();
      if (this.profile) keepCaches(this.profile);
    } else if (!this.page.isClosed()) await this.page.close();
  }
}
