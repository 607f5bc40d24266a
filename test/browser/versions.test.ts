// In the Search view (chromium, the view's own bundle): a dependency-scoped search's chip says the
// installed version, rows carry version badges whose tooltip quotes the sentence, a summary line sits
// above the results; screenshots at the default side bar width (300 px) in light, dark and high contrast.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { passagesDocument, toOutcome, type OutcomeResult } from '../../src/search/session/outcome';
import type { SearchResponse } from '../../src/api/schemas';
import { DEFAULTS, screenshotDir } from './harness';
import { viewPages } from '../support/browserPages';

const pages = viewPages();

const installed = [{ ecosystem: 'npm' as const, name: 'fetchline', slug: 'fetchline/fetchline', version: '3.2.0' }];
const wire = (n: number, type: string, title: string, text: string) => ({
  id: `${type}:fetchline/fetchline#${n}`,
  type,
  url: `https://github.com/fetchline/fetchline/${type === 'issue' ? 'issues' : 'pull'}/${n}`,
  title,
  passages: [{ text }],
});
const response = {
  success: true,
  results: [
    wire(
      472,
      'issue',
      'Retry-After ignored after a 429 when a per-request timeout is set',
      'Confirmed. Broken since 3.1.0: the per-request timeout path never reads Retry-After. This is fixed in 3.3.0 (#474).',
    ),
    wire(476, 'pull_request', 'chore(release): v3.3.0', 'Release pull request opened by the release workflow.'),
    wire(
      415,
      'pull_request',
      'Close idle sockets before the server does',
      'Fixed in 3.0.2, released with the pool changes.',
    ),
    wire(
      451,
      'issue',
      'Streaming body stalls on slow consumers',
      'We read the body with `for await` and it stalls after 64 KB.',
    ),
  ],
  coverage: { issue: 'ok', pull_request: 'ok' },
} as unknown as SearchResponse;

describe('version badges in the Search view', () => {
  for (const theme of ['light', 'dark', 'hc'] as const) {
    it(`chip, summary line and badges (${theme}, 300 px)`, async () => {
      const v = await pages.open(theme);
      await v.page.setViewportSize({ width: 300, height: 700 });
      await v.send({ type: 'init', defaults: DEFAULTS, workspaceRepos: [] });
      const params = {
        query: 'Retry-After ignored with a per-request timeout',
        repos: ['fetchline/fetchline'],
        k: 10,
        passages: 1,
      };
      const outcome = toOutcome(params, response, installed, 120);
      await v.send({ type: 'searchStarted', requestId: 'x-1', params, installed: outcome.installed! });
      await v.send({ type: 'results', requestId: 'x-1', outcome });
      const chip = v.page.locator('#chips .chip-label');
      assert.equal(await chip.first().innerText(), 'fetchline/fetchline · 3.2.0 installed');
      assert.equal(
        await v.page.locator('.version-summary').innerText(),
        '1 result mentions a fix newer than your fetchline 3.2.0 (3.3.0).',
      );
      const first = v.page.locator('li.row').nth(0).locator('.version-badge');
      assert.deepEqual(await first.allInnerTexts(), [
        'Fixed in 3.3.0 · you have 3.2.0',
        'Affects ≥3.1.0 <3.3.0 · yours',
      ]);
      assert.equal(await first.first().getAttribute('title'), '“This is fixed in 3.3.0 (#474).”');
      assert.match((await first.first().getAttribute('class')) ?? '', /highlight/);
      assert.deepEqual(await v.page.locator('li.row').nth(1).locator('.version-badge').allInnerTexts(), [
        'Released 3.3.0 · newer than your 3.2.0',
      ]);
      assert.deepEqual(await v.page.locator('li.row').nth(2).locator('.version-badge').allInnerTexts(), [
        'Fixed in 3.0.2 · included in your 3.2.0',
      ]);
      assert.doesNotMatch(
        (await v.page.locator('li.row').nth(2).locator('.version-badge').getAttribute('class')) ?? '',
        /highlight/,
      );
      assert.equal(await v.page.locator('li.row').nth(3).locator('.version-badge').count(), 0);
      // Badges and the summary fit the default side bar width: nothing wider than the view.
      const overflow = await v.page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `horizontal overflow ${overflow}px`);
      assert.deepEqual(await v.violations(), []);
      await v.page.screenshot({ path: join(screenshotDir(), `versions-${theme}.png`) });
      await v.page.close();
    });
  }

  it('100 rows: those on the first screen get their badges before it is painted, the rest after', async () => {
    const v = await pages.open('dark');
    await v.send({ type: 'init', defaults: DEFAULTS, workspaceRepos: [] });
    const many = {
      ...response,
      results: Array.from({ length: 100 }, (_, i) =>
        wire(1000 + i, 'issue', `Timeout ${i}`, 'Broken since 3.1.0. This is fixed in 3.3.0 (#474).'),
      ),
    } as unknown as SearchResponse;
    const params = { query: 'timeouts', repos: ['fetchline/fetchline'], k: 100, passages: 1 };
    const outcome = toOutcome(params, many, installed, 120);
    await v.send({ type: 'searchStarted', requestId: 'x-2', params, installed: outcome.installed! });
    // Counted in the task that renders the message: a few rows have their badges, the rest none yet, their names do.
    const atOnce = await v.page.evaluate((o) => {
      window.dispatchEvent(new MessageEvent('message', { data: { type: 'results', requestId: 'x-2', outcome: o } }));
      const rows = [...document.querySelectorAll('li.row')];
      return {
        rows: rows.length,
        badged: rows.flatMap((r, i) => (r.querySelector('.version-badge') ? [i] : [])),
        lastName: rows.at(-1)?.getAttribute('aria-label') ?? '',
      };
    }, outcome as unknown);
    assert.equal(atOnce.rows, 100);
    assert.ok(atOnce.badged.length > 0 && atOnce.badged.length < 30, JSON.stringify(atOnce.badged));
    assert.match(atOnce.lastName, /Fixed in 3\.3\.0 · you have 3\.2\.0/);
    await v.page.waitForFunction(() => document.querySelectorAll('li.row .row-versions').length === 100);
    // Every row on screen once all rows have their badges (the first screen's layout: rows below it move nothing
    // above) was one of those badged at once, so the first paint showed none without its badges.
    const onScreen = await v.page.evaluate(() =>
      [...document.querySelectorAll('li.row')].flatMap((r, i) =>
        r.getBoundingClientRect().top < innerHeight ? [i] : [],
      ),
    );
    assert.ok(onScreen.length >= 4, JSON.stringify(onScreen));
    assert.deepEqual(
      onScreen.filter((i) => !atOnce.badged.includes(i)),
      [],
      `on screen ${JSON.stringify(onScreen)}, badged at once ${JSON.stringify(atOnce.badged)}`,
    );
    const last = v.page.locator('li.row').nth(99);
    // textContent: the row is below the fold, where content-visibility leaves innerText empty.
    assert.deepEqual(await last.locator('.version-badge').allTextContents(), [
      'Fixed in 3.3.0 · you have 3.2.0',
      'Affects ≥3.1.0 <3.3.0 · yours',
    ]);
    // Where the row builds them (after the meta line, before the snippet), with the space between the parts.
    assert.equal(
      await last.evaluate((li) => [...li.children].map((c) => c.className).join(' ')),
      'row-main row-meta row-versions row-snippet',
    );
    assert.match(
      (await last.textContent()) ?? '',
      /\S Fixed in 3\.3\.0 · you have 3\.2\.0 Affects ≥3\.1\.0 <3\.3\.0 · yours \S/,
    );
    await v.page.close();
  });

  it('Open as Markdown keeps the badges as text', async () => {
    const r = toOutcome({ query: 'q', repos: ['fetchline/fetchline'] }, response, installed, 1)
      .results[0] as OutcomeResult;
    const md = passagesDocument(
      r.title!,
      r.url,
      r.passages.map((p) => p.text),
      r.versions,
    );
    assert.match(
      md,
      /^# Retry-After ignored.*\n\n<https:\/\/github\.com\/fetchline\/fetchline\/issues\/472>\n\n- \*\*Fixed in 3\.3\.0 · you have 3\.2\.0\*\* — “This is fixed in 3\.3\.0 \(#474\)\.”\n- \*\*Affects ≥3\.1\.0 <3\.3\.0 · yours\*\*/,
    );
  });
});
