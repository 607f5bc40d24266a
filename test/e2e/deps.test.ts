// Browser UI: the dependency fixture workspace opened in the workbench; the light bulb menu on
// the TypeScript import problem, the import hover's links and the dependency pick, as a user sees them
// (test-results/e2e/deps-*.png, dark and light).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { Workbench, e2e } from './workbench';
import { showPopupWith } from '../support/editorPopup';
import { defined, until } from '../support/until';

interface SeenRequest {
  method: string;
  path: string;
  query: string;
  body: unknown;
}

async function searches(method: 'GET' | 'DELETE' = 'GET'): Promise<Array<Record<string, unknown>>> {
  const r = await fetch(`${e2e.sandboxUrl()}/__sandbox/requests`, { method });
  if (method === 'DELETE') return [];
  return ((await r.json()) as { requests: SeenRequest[] }).requests
    .filter((x) => x.path.startsWith('/v2/search'))
    .map((x) =>
      x.method === 'POST' && x.body && typeof x.body === 'object'
        ? (x.body as Record<string, unknown>)
        : Object.fromEntries(new URLSearchParams(x.query)),
    );
}

const repos = (p: Record<string, unknown>) =>
  Array.isArray(p.repos) ? p.repos.map(String) : typeof p.repos === 'string' ? p.repos.split(',') : [];

function waitFor<T>(what: string, fn: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  return defined(fn, what, ms, 250);
}

describe('search from problems, imports and dependencies in the workbench', () => {
  let wb: Workbench;

  before(async () => {
    const url = process.env.DEVINDEX_E2E_DEPS_WORKBENCH_URL;
    assert.ok(url, 'DEVINDEX_E2E_DEPS_WORKBENCH_URL is not set: run with npm run test:e2e');
    wb = await Workbench.open('deps', { url });
    await wb.activityItem('Developer Index').waitFor({ state: 'visible', timeout: 60_000 });
    await wb.useTheme('dark');
    // Open src/app.ts through Quick Open, as a user would.
    await wb.page.keyboard.press('Control+P');
    const input = wb.page.locator('.quick-input-widget input.input');
    await input.waitFor({ state: 'visible' });
    await input.fill('app.ts');
    await wb.page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'app.ts' })
      .first()
      .waitFor({ state: 'visible' });
    await wb.page.keyboard.press('Enter');
    await wb.page
      .locator('.monaco-editor .view-lines', { hasText: 'keel-schema' })
      .first()
      .waitFor({ state: 'visible' });
    // The TypeScript server marks the keel-schema import (TS7016 under strict).
    await wb.page.locator('.monaco-editor .squiggly-error').first().waitFor({ state: 'attached', timeout: 90_000 });
  });
  after(async () => {
    await wb?.useTheme('dark').catch(() => undefined);
    await wb?.close();
  });

  /** Puts the cursor on line:column of the open editor. */
  /**
   * Opens the Quick Fix menu at the cursor until it lists `item` (test/support/editorPopup.ts). The first request may
   * find the folder's dependencies not resolved yet (the action is offered without a scope), and on a loaded machine
   * the TypeScript server's own quick fixes can take many seconds, or a Ctrl+. right after Quick Open closed can be
   * lost (a CI run once waited 20 s for the light theme's menu in vain): ask again until it does. A menu still being
   * computed is waited for (up to a minute), never cancelled by a new request. (The workbench may hold more than one
   * .action-widget element, so the checks count the visible ones.)
   */
  async function openQuickFixWith(item: Locator, theme: string): Promise<void> {
    await showPopupWith(wb.page, {
      target: item,
      what: 'the scoped action in the Quick Fix menu',
      state: menuState,
      openPopups: wb.page.locator('.action-widget:visible'),
      shownWithinMs: 60_000,
      timeoutMs: 150_000,
      open: async () => {
        await wb.page.keyboard.press('Control+1'); // the editor has the focus (its cursor stays where it is)
        await wb.page.keyboard.press('Control+.');
      },
    }).catch(async (e: Error) => {
      // What each try found, and the workbench as it is now (test-results/e2e/deps-*-not-found.png).
      await wb.screenshot(`light bulb menu not found ${theme}`);
      throw new Error(`${e.message} (${theme})`);
    });
  }

  /** The open menus, the rows they list, where the focus and the cursor are: for a failure's message. */
  async function menuState(): Promise<string> {
    return wb.page.evaluate(() => {
      const shown = [...document.querySelectorAll<HTMLElement>('.action-widget')].filter(
        (e) => e.offsetParent !== null || e.getClientRects().length > 0,
      );
      const rows = shown.flatMap((e) =>
        [...e.querySelectorAll<HTMLElement>('.monaco-list-row')].map((r) => r.innerText.trim()),
      );
      const a = document.activeElement as HTMLElement | null;
      const cursor =
        [...document.querySelectorAll<HTMLElement>('.statusbar-item')]
          .map((x) => x.innerText)
          .find((t) => /^Ln \d+, Col \d+/.test(t)) ?? 'no cursor';
      // The fixture's import lines as the editor shows them (a refactoring applied by mistake would change them).
      const lines = [...document.querySelectorAll<HTMLElement>('.monaco-editor .view-lines .view-line')]
        .map((l) => l.innerText.replace(/\s+/g, ' ').trim())
        .filter((t) => t.startsWith('import'));
      return `${shown.length} menu(s) [${rows.join('; ')}], focus ${a?.tagName ?? '-'}.${(a?.className ?? '').toString().split(' ').slice(0, 2).join('.')}, ${cursor}, lines ${JSON.stringify(lines)}`;
    });
  }

  /** Shows the hover at the cursor until it is ours (the provider reads node_modules; slow on a loaded machine). */
  async function showHoverOf(hover: Locator, theme: string): Promise<void> {
    await showPopupWith(wb.page, {
      target: hover,
      what: 'our hover',
      open: showHover,
      shownWithinMs: 5000,
      timeoutMs: 60_000,
    }).catch(async (e: Error) => {
      await wb.screenshot(`import hover not found ${theme}`);
      const hovers = await wb.page
        .locator('.monaco-hover:visible')
        .allInnerTexts()
        .catch(() => []);
      throw new Error(
        `${e.message} (${theme}); hovers shown: ${hovers.map((t) => t.replace(/\s+/g, ' ').slice(0, 120)).join(' | ') || 'none'}; now: ${await menuState()}`,
      );
    });
  }

  async function cursorAt(line: number, column: number): Promise<void> {
    await wb.page.keyboard.press('Escape');
    // Quick Open with `:line:column` (Ctrl+G is the browser's in code-server).
    await wb.page.keyboard.press('Control+P');
    const input = wb.page.locator('.quick-input-widget input.input');
    await input.waitFor({ state: 'visible' });
    await input.fill(`:${line}:${column}`);
    await wb.page
      .locator('.quick-input-list .monaco-list-row', { hasText: `${line}` })
      .first()
      .waitFor({ state: 'visible' })
      .catch(() => undefined);
    await wb.page.keyboard.press('Enter');
    await input.waitFor({ state: 'hidden' });
    await wb.page
      .locator('.statusbar', { hasText: `Ln ${line}, Col ${column}` })
      .waitFor({ state: 'visible', timeout: 10_000 });
  }

  /** Show or Focus Hover by its keys (the palette would click into the editor and move the cursor). */
  async function showHover(): Promise<void> {
    await wb.page.keyboard.press('Control+K');
    await wb.page.keyboard.press('Control+I');
  }

  it("the light bulb menu offers the search scoped to the package's repository, and it runs", async () => {
    await cursorAt(2, 28);
    const item = wb.page.locator('.action-widget .monaco-list-row', {
      hasText: 'Search Developer Index for this problem in keelhq/keel-schema',
    });
    await openQuickFixWith(item, 'dark');
    await wb.screenshot('light bulb menu dark');
    await wb.useTheme('light');
    await cursorAt(2, 28); // the palette's click moved the cursor
    await openQuickFixWith(item, 'light');
    await wb.screenshot('light bulb menu light');
    await wb.page.keyboard.press('Escape');
    await wb.useTheme('hc');
    await cursorAt(2, 28);
    await openQuickFixWith(item, 'high contrast');
    await wb.screenshot('light bulb menu high contrast');
    await searches('DELETE');
    await item.click();
    const sent = await waitFor('the scoped search at the sandbox', async () =>
      (await searches()).find((p) => repos(p).includes('keelhq/keel-schema')),
    );
    assert.deepEqual(repos(sent), ['keelhq/keel-schema']);
    assert.match(String(sent.query), /declaration file for module 'keel-schema'/);
    assert.ok(!String(sent.query).includes('node_modules'), `no path in the query: ${String(sent.query)}`);
    await wb.page.locator('.sidebar').waitFor({ state: 'visible' });
    // The scope is visible in the Search view's chip row, removable with one click.
    const chip = wb.webview().locator('#chips .chip', { hasText: 'keelhq/keel-schema' });
    await chip.waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(
      await chip.locator('button.chip-remove').getAttribute('aria-label'),
      'Remove filter keelhq/keel-schema · 2.6.0 installed',
    );
    await wb.screenshot('problem search in the view');
    await wb.useTheme('dark');
  });

  it('the import hover shows "Search issues of" and "Open <owner/repo>" links', async () => {
    await cursorAt(2, 28);
    const hover = wb.page.locator('.monaco-hover', { hasText: 'Search issues of keel-schema' });
    await showHoverOf(hover, 'dark');
    const links = await hover.first().locator('a').allInnerTexts();
    assert.ok(
      links.some((t) => t.includes('Search issues of keel-schema')),
      `links: ${links.join(' | ')}`,
    );
    assert.ok(
      links.some((t) => t.includes('Open keelhq/keel-schema')),
      `links: ${links.join(' | ')}`,
    );
    await wb.screenshot('import hover dark');
    await wb.useTheme('light');
    await cursorAt(2, 28);
    await showHoverOf(hover, 'light');
    await wb.screenshot('import hover light');
    await wb.useTheme('hc');
    await cursorAt(2, 28);
    await showHoverOf(hover, 'high contrast');
    await wb.screenshot('import hover high contrast');
    await wb.useTheme('dark');
  });

  it("the dependency pick lists the slugs with the index's flags and scopes the search to the picked one", async () => {
    await wb.page.keyboard.press('Escape');
    await wb.runCommand("Developer Index: Search in a Dependency's Repository…");
    const rows = wb.page.locator('.quick-input-list .monaco-list-row');
    await rows
      .filter({ hasText: 'keelhq/keel-schema · indexed' })
      .first()
      .waitFor({ state: 'visible', timeout: 20_000 });
    await rows.filter({ hasText: 'harborlight/shapeshift · not indexed' }).first().waitFor({ state: 'visible' });
    const labels = await rows.evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText.replace(/\s+/g, ' ')));
    assert.ok(
      labels.some((l) => /trialrun.*trialrun\/trialrun · indexed/.test(l)),
      labels.join('\n'),
    );
    await wb.screenshot('dependency pick dark');
    await wb.useTheme('light');
    await wb.runCommand("Developer Index: Search in a Dependency's Repository…");
    await rows.filter({ hasText: 'keelhq/keel-schema · indexed' }).first().waitFor({ state: 'visible' });
    await wb.screenshot('dependency pick light');
    await wb.page.keyboard.press('Escape');
    await wb.useTheme('hc');
    await wb.runCommand("Developer Index: Search in a Dependency's Repository…");
    await rows.filter({ hasText: 'keelhq/keel-schema · indexed' }).first().waitFor({ state: 'visible' });
    await wb.screenshot('dependency pick high contrast');
    await wb.useTheme('light');
    await wb.runCommand("Developer Index: Search in a Dependency's Repository…");
    await rows.filter({ hasText: 'keelhq/keel-schema · indexed' }).first().waitFor({ state: 'visible' });
    // Pick trialrun: filter, toggle its checkbox, accept, answer the question.
    await wb.page.locator('.quick-input-widget input.input').fill('trialrun');
    await rows.filter({ hasText: 'trialrun/trialrun' }).first().click(); // a row's click toggles its check
    await wb.page.locator('.quick-input-widget', { hasText: '1 Selected' }).waitFor({ state: 'visible' });
    await searches('DELETE');
    await wb.page.keyboard.press('Enter');
    await wb.answerInputBox('flaky test retries', { prompt: /trialrun\/trialrun/ });
    const sent = await waitFor('the search scoped to trialrun', async () =>
      (await searches()).find((p) => p.query === 'flaky test retries'),
    );
    assert.deepEqual(repos(sent), ['trialrun/trialrun']);
    await wb.screenshot('dependency search in the view');
    await wb.useTheme('dark');
  });

  it('the terminal context menu offers "Search Developer Index for Selection" on a selection', async () => {
    await wb.page.keyboard.press('Escape');
    await wb.runCommand('Terminal: Create New Terminal');
    const term = wb.page.locator('.terminal-wrapper.active, .integrated-terminal .terminal-wrapper').first();
    await term.waitFor({ state: 'visible', timeout: 30_000 });
    await wb.page.locator('.integrated-terminal .xterm-screen').first().waitFor({ state: 'visible' });
    // Typed at once: the terminal holds input until its shell runs. The terminal draws on a canvas (no text to
    // read), so the shell says it has printed by making a file after the printf.
    const printed = path.join(os.tmpdir(), `devindex-e2e-printed-${process.pid}-${Date.now()}`);
    await wb.page.keyboard.type(
      `printf 'TypeError: budget is undefined\\n    at run (/srv/app/node_modules/trialrun/index.js:12:7)\\n'; touch ${printed}`,
    );
    await wb.page.keyboard.press('Enter');
    await until(
      () => fs.existsSync(printed),
      (done) => done,
      { timeoutMs: 30_000, message: () => 'the shell ran the printf (no marker file)' },
    );
    fs.rmSync(printed, { force: true });
    // Select the output with the mouse, as a user would, and right-click inside the selection.
    const screen = wb.page.locator('.integrated-terminal .xterm-screen').first();
    const entry = wb.page
      .locator('.context-view .action-label, .monaco-menu .action-label', {
        hasText: 'Search Developer Index for Selection',
      })
      .first();
    await waitFor(
      'the entry in the terminal context menu',
      async () => {
        await wb.page.keyboard.press('Escape');
        const box = (await screen.boundingBox())!;
        await wb.page.mouse.move(box.x + 3, box.y + 3);
        await wb.page.mouse.down();
        await wb.page.mouse.move(box.x + box.width - 5, box.y + Math.min(box.height - 5, 140), { steps: 10 });
        await wb.page.mouse.up();
        await wb.page.mouse.click(box.x + 40, box.y + 30, { button: 'right' });
        await entry.waitFor({ state: 'visible', timeout: 5_000 }).catch(() => undefined);
        return (await entry.isVisible()) ? true : undefined;
      },
      30_000,
    ).catch(async (e: Error) => {
      await wb.screenshot('terminal context menu not found');
      throw e;
    });
    await wb.screenshot('terminal context menu');
    // A browser gives the page its clipboard only with these permissions (a desktop editor has them).
    await wb.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(wb.page.url()).origin });
    await searches('DELETE');
    await entry.click();
    // The selection reaches the command through the clipboard (VS Code 1.95 has no terminal selection API).
    const sent = await waitFor(
      'the terminal search at the sandbox',
      async () => (await searches()).find((p) => String(p.query).includes('TypeError: budget is undefined')),
      15_000,
    );
    assert.deepEqual(repos(sent), ['trialrun/trialrun']);
    assert.ok(!String(sent.query).includes('/srv/app'), `no path in the query: ${String(sent.query)}`);
    await wb.screenshot('terminal search in the view');
  });
});
