// In the Search view (chromium, the view's own bundle): the Watched list (each watch with its last
// check in relative time, its new count, Check Now and Remove with accessible names, reachable by keyboard),
// the Watch for a Fix button above a repository-scoped search's results and on each result's actions; only
// ids go back to the extension. Screenshots at the default side bar width (300 px), light, dark and high contrast.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { ToWebview, ViewWatch } from '../../src/webview/protocol';
import { toOutcome } from '../../src/search/session/outcome';
import type { SearchResponse } from '../../src/api/schemas';
import { DEFAULTS, screenshotDir } from './harness';
import { viewPages } from '../support/browserPages';

const pages = viewPages();

const installed = [{ ecosystem: 'npm' as const, name: 'fetchline', slug: 'fetchline/fetchline', version: '3.2.0' }];
const response = {
  success: true,
  results: [
    {
      id: 'issue:fetchline/fetchline#472',
      type: 'issue',
      url: 'https://github.com/fetchline/fetchline/issues/472',
      title: 'Retry-After ignored after a 429 when a per-request timeout is set',
      passages: [{ text: 'Broken since 3.1.0. This is fixed in 3.3.0 (#474).' }],
    },
  ],
  coverage: { issue: 'ok', pull_request: 'ok' },
} as unknown as SearchResponse;
const now = Date.now();
const watches: ViewWatch[] = [
  {
    id: 'w1',
    query: 'Retry-After ignored with a per-request timeout',
    scope: 'fetchline/fetchline · 3.2.0 installed',
    lastCheck: now - 3 * 3600_000,
    newCount: 2,
  },
  {
    id: 'w2',
    query: 'schema default values dropped',
    scope: 'keelhq/keel-schema · 2.6.0 installed',
    lastCheck: now - 12 * 60_000,
    newCount: 0,
    fixIncluded: 'fixed in 2.5.1 · included in your 2.6.0',
  },
  {
    id: 'w3',
    query: 'socket hang up on idle pool',
    scope: 'harborlight/shapeshift',
    newCount: 0,
    vanished: ['harborlight/shapeshift'],
  },
];
const watchesMessage = (canWatch = true): ToWebview => ({
  type: 'watches',
  watches,
  max: 50,
  ...(canWatch
    ? { canWatch: { query: 'Retry-After ignored after a 429', scope: 'fetchline/fetchline · 3.2.0 installed' } }
    : {}),
});

describe('the Watched list in the Search view', () => {
  for (const theme of ['light', 'dark', 'hc'] as const) {
    it(`rows, words and buttons (${theme}, 300 px)`, async () => {
      const v = await pages.open(theme);
      await v.page.setViewportSize({ width: 300, height: 760 });
      await v.send({ type: 'init', defaults: DEFAULTS, workspaceRepos: [] });
      const params = { query: 'Retry-After ignored after a 429', repos: ['fetchline/fetchline'], k: 10, passages: 1 };
      const outcome = toOutcome(params, response, installed, 120);
      await v.send({ type: 'searchStarted', requestId: 'x-1', params, installed: outcome.installed! });
      await v.send({ type: 'results', requestId: 'x-1', outcome });
      await v.send(watchesMessage());
      assert.equal(await v.page.getByRole('heading', { name: 'Watched (3)' }).count(), 1);
      const rows = v.page.locator('.watch-item');
      assert.equal(await rows.count(), 3);
      assert.equal(await rows.nth(0).locator('.watch-meta').innerText(), 'checked 3 h ago · 2 new');
      assert.equal(await rows.nth(0).locator('.watch-new').innerText(), '2');
      assert.equal(
        await rows.nth(1).locator('.watch-meta').innerText(),
        'checked 12 min ago · 0 new · your version includes the fix (fixed in 2.5.1 · included in your 2.6.0)',
      );
      assert.equal(
        await rows.nth(2).locator('.watch-meta').innerText(),
        'never checked · 0 new · harborlight/shapeshift is no longer in the index',
      );
      assert.equal(
        await v.page
          .getByRole('button', { name: 'Check Now: “Retry-After ignored with a per-request timeout”' })
          .count(),
        1,
      );
      assert.equal(
        await v.page.getByRole('button', { name: 'Remove the watch “schema default values dropped”' }).count(),
        1,
      );
      assert.equal(
        await v.page
          .getByRole('button', {
            name: /^Watch for a Fix: re-run “Retry-After ignored after a 429” in fetchline\/fetchline · 3\.2\.0 installed/,
          })
          .count(),
        1,
      );
      const overflow = await v.page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `horizontal overflow ${overflow}px`);
      assert.deepEqual(await v.violations(), []);
      await v.page.locator('.watched').scrollIntoViewIfNeeded();
      await v.page.screenshot({ path: join(screenshotDir(), `watched-${theme}.png`), fullPage: true });
      await v.page.close();
    });
  }

  it('buttons post ids only; keyboard reaches Check Now and Remove; the bar and a result action watch the search shown', async () => {
    const v = await pages.open('dark');
    await v.send({ type: 'init', defaults: DEFAULTS, workspaceRepos: [] });
    const params = { query: 'Retry-After ignored after a 429', repos: ['fetchline/fetchline'], k: 10, passages: 1 };
    await v.send({ type: 'searchStarted', requestId: 'x-1', params });
    await v.send({
      type: 'results',
      requestId: 'x-1',
      outcome: toOutcome(params, response, installed, 1),
    });
    await v.send(watchesMessage());
    await v.clearPosted();
    await v.page.getByRole('button', { name: /^Check Now: “Retry-After/ }).click();
    assert.deepEqual(await v.waitForPosted('watchAction'), { type: 'watchAction', action: 'check', id: 'w1' });
    await v.clearPosted();
    // Keyboard: from Check Now, Tab reaches Remove, and Enter presses it.
    await v.page.getByRole('button', { name: /^Check Now: “schema/ }).focus();
    await v.page.keyboard.press('Tab');
    assert.equal(
      await v.page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
      'Remove the watch “schema default values dropped”',
    );
    await v.page.keyboard.press('Enter');
    assert.deepEqual(await v.waitForPosted('watchAction'), { type: 'watchAction', action: 'remove', id: 'w2' });
    await v.clearPosted();
    await v.page.getByRole('button', { name: /^socket hang up.*open this search$/ }).click();
    assert.deepEqual(await v.waitForPosted('watchAction'), { type: 'watchAction', action: 'open', id: 'w3' });
    await v.clearPosted();
    await v.page.getByRole('button', { name: /^Watch for a Fix: re-run “Retry-After ignored after a 429”/ }).click();
    assert.deepEqual(await v.waitForPosted('watch'), { type: 'watch' });
    await v.clearPosted();
    // A result's own action (built on hover or focus).
    await v.page.locator('li.row').first().hover();
    await v.page.getByRole('button', { name: /^Watch for a Fix: re-run the search that found/ }).click();
    assert.deepEqual(await v.waitForPosted('watch'), { type: 'watch' });
    // The same search already watched: the bar says so instead of offering it twice; nothing to watch hides it.
    await v.send({
      type: 'watches',
      watches: [
        ...watches,
        {
          id: 'w4',
          query: 'Retry-After ignored after a 429',
          scope: 'fetchline/fetchline · 3.2.0 installed',
          newCount: 0,
        },
      ],
      max: 50,
      canWatch: { query: 'Retry-After ignored after a 429', scope: 'fetchline/fetchline · 3.2.0 installed' },
    });
    assert.match(await v.page.locator('.watch-bar').innerText(), /Watched: new results are checked for every 6 hours/);
    await v.send(watchesMessage(false));
    assert.equal(await v.page.locator('.watch-bar').isHidden(), true);
    await v.send({ type: 'watches', watches: [], max: 50 });
    assert.equal(await v.page.locator('.watched').isHidden(), true);
    assert.deepEqual(await v.violations(), []);
    await v.page.close();
  });
});
