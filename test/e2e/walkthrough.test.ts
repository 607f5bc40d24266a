// As a new user meets it: on the first start after install (a fresh browser profile and a
// folder with no settings: the product's defaults) "Get Started with Developer Index" opens by itself
// with its six steps; a step's button runs its command (Search Keyless asks for a query and the Search
// view shows the results, and the step is checked); screenshots of every step in light and dark, one in
// high contrast. With DEVINDEX_UPDATE_README_IMAGE=1 the Search view's picture also goes to
// docs/images/search-view.png, the README's screenshot.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Workbench, e2e } from './workbench';
import { stableBox } from './settled';
import { defined } from '../support/until';

const TITLE = 'Get Started with Developer Index';
const STEPS = [
  'Set a key, or search keyless',
  'Search from a selection',
  'Search in this repository',
  "Search a dependency's issues",
  'Start an agent, follow up',
  'Use it from chat or agents',
];

/** A text each step's SVG draws (media/walkthrough/*.svg): the picture on screen is that step's. */
const MEDIA_TEXT: Record<string, string> = {
  key: 'API key',
  selection: 'Search Developer Index for Selection',
  repository: 'fetchline/fetchline',
  problem: 'for This Problem',
  agent: 'AGENT JOBS',
  agents: 'MCP',
};
/** The buttons of each step (package.json, the `[label](command:…)` lines). */
const BUTTONS: Record<string, string[]> = {
  key: ['Set API Key', 'Search Keyless'],
  selection: ['Search for the Selection'],
  repository: ['Search in This Repository'],
  problem: ['Pick a Dependency'],
  agent: ['Start Agent Job', 'Ask a Follow-up'],
  agents: ['Set Up MCP for Another Agent'],
};

function firstRunUrl(): string {
  const v = process.env.DEVINDEX_E2E_FIRST_RUN_WORKBENCH_URL;
  if (!v) throw new Error('DEVINDEX_E2E_FIRST_RUN_WORKBENCH_URL is not set: run with npm run test:e2e');
  return v;
}

describe('walkthrough on first start', () => {
  let wb: Workbench;
  before(async () => {
    wb = await Workbench.open('walkthrough', { url: firstRunUrl() });
  });
  after(async () => {
    // Light last: the workbench's default, as the other browser tests expect to find it.
    await wb?.useTheme('light').catch(() => undefined);
    await wb?.close();
  });

  const page = () => wb.page;
  const category = () => page().locator('.gettingStartedContainer .category-title', { hasText: TITLE }).first();
  const step = (id: string) =>
    page().locator(`.gettingStartedContainer button.getting-started-step[data-step-id$="${id}"]`).first();

  /** Expands a step (its description, buttons and picture) and waits for its picture's webview. */
  async function selectStep(id: string): Promise<void> {
    const s = step(id);
    if ((await s.getAttribute('aria-expanded')) !== 'true') await s.click();
    await page().waitForFunction(
      (sel) => document.querySelector(sel)?.getAttribute('aria-expanded') === 'true',
      `.gettingStartedContainer button.getting-started-step[data-step-id$="${id}"]`,
      { timeout: 10_000 },
    );
    // The SVG is drawn in a webview beside the steps (redrawn on a theme change): wait until it is there.
    await media(id).waitFor({ state: 'visible', timeout: 30_000 });
    await stableBox(media(id), `the picture of step ${id}`);
  }

  /** The step's picture: its SVG (found by its alt-text's subject, the svg's first text) inside the media webview. */
  function media(id: string) {
    return page()
      .locator('.gettingStartedContainer .getting-started-media iframe.webview.ready')
      .first()
      .contentFrame()
      .locator('#active-frame')
      .contentFrame()
      .locator('svg')
      .filter({ hasText: MEDIA_TEXT[id]! });
  }

  /** The Search view's document: the walkthrough's picture is a webview too, so find the one with the query box. */
  async function searchView() {
    const holder = async () => {
      const n = await page().locator('iframe.webview.ready').count();
      for (let i = 0; i < n; i++)
        if (
          (await wb
            .webview(i)
            .getByRole('searchbox')
            .count()
            .catch(() => 0)) > 0
        )
          return i;
      return undefined;
    };
    return wb.webview(await defined(holder, "a webview with the Search view's query box", 30_000, 300));
  }

  it('opens by itself on the first start, with the six steps of the walkthrough', async () => {
    await category().waitFor({ state: 'visible', timeout: 60_000 });
    const tab = page().locator('.tabs-container .tab.active');
    assert.match(await tab.innerText(), /Walkthrough|Welcome|Developer Index/i, 'the walkthrough is the active editor');
    const titles = (
      await page().locator('.gettingStartedContainer button.getting-started-step .step-title').allInnerTexts()
    ).map((t) => t.trim());
    assert.deepEqual(titles, STEPS);
    await media('key').waitFor({ state: 'visible', timeout: 30_000 });
    await wb.screenshot('walkthrough opened on first start');
  });

  it('every step has its button and its themed picture: screenshots in dark, high contrast and light', async () => {
    const ids = ['key', 'selection', 'repository', 'problem', 'agent', 'agents'];
    for (const theme of ['dark', 'light'] as const) {
      await wb.useTheme(theme);
      for (const id of ids) {
        await selectStep(id);
        const shown = (await step(id).locator('.step-description-container .monaco-button').allInnerTexts()).map((t) =>
          t.trim(),
        );
        assert.deepEqual(shown, BUTTONS[id], `${id}: its buttons`);
        await wb.screenshot(`step ${id} (${theme})`);
      }
    }
    await wb.useTheme('hc');
    await selectStep('key');
    await wb.screenshot('step key (high contrast)');
    await wb.useTheme('light');
  });

  it("a step's button runs its command: Search Keyless asks for a query, the Search view shows the results, the step is checked", async () => {
    await fetch(`${e2e.sandboxUrl()}/__sandbox/requests`, { method: 'DELETE' });
    await selectStep('key');
    assert.equal(await step('key').getAttribute('aria-checked'), 'false', 'not done before its button ran');
    await step('key').locator('.step-description-container .monaco-button', { hasText: 'Search Keyless' }).click();
    await wb.answerInputBox('discriminated unions');
    const hit = (await searchView()).getByText('Discriminated unions', { exact: true }).first();
    await hit.waitFor({ state: 'visible', timeout: 30_000 });
    const seen = (await (await fetch(`${e2e.sandboxUrl()}/__sandbox/requests`)).json()) as {
      requests: Array<{ path: string; auth: string }>;
    };
    const searches = seen.requests.filter(
      (r) => r.path.startsWith('/v2/search') && JSON.stringify(r).includes('discriminated'),
    );
    assert.ok(searches.length >= 1, 'the sandbox saw the search');
    assert.ok(
      searches.every((r) => r.auth === 'none'),
      'keyless: no key was sent',
    );
    await page().waitForFunction(
      (sel) => document.querySelector(sel)?.getAttribute('aria-checked') === 'true',
      '.gettingStartedContainer button.getting-started-step[data-step-id$="key"]',
      { timeout: 10_000 },
    );
    await wb.screenshot('search keyless ran: results beside the walkthrough, step checked');

    // The README's picture: the Search view with results, at a small size.
    await wb.widenSideBar(520);
    await hit.waitFor({ state: 'visible' });
    await stableBox(page().locator('.part.sidebar'), 'the widened side bar');
    await stableBox(hit, 'the result in the widened view');
    const shot = path.join(e2e.results(), 'readme-search-view.png');
    const bar = await page().locator('.part.sidebar').boundingBox();
    assert.ok(bar, 'the side bar is on screen');
    // From the top of the side bar (below the title bar) to the last result.
    await page().screenshot({
      path: shot,
      clip: { x: 0, y: Math.round(bar.y), width: Math.round(bar.x + bar.width) + 1, height: 420 },
    });
    assert.ok(fs.statSync(shot).size < 100_000, `the README picture is ${fs.statSync(shot).size} bytes`);
    if (process.env.DEVINDEX_UPDATE_README_IMAGE === '1') {
      const root = process.env.DEVINDEX_E2E_ROOT;
      assert.ok(root, 'DEVINDEX_E2E_ROOT is not set');
      fs.copyFileSync(shot, path.join(root, 'docs', 'images', 'search-view.png'));
    }
  });
});
