// Browser UI: the Developer Index container in the activity bar, the Search view, a search run from
// the palette against the sandbox, and a notification. Each test leaves screenshots in test-results/e2e/.
import * as assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { Workbench, e2e } from './workbench';

describe('Developer Index in the workbench', () => {
  let wb: Workbench;
  before(async () => {
    wb = await Workbench.open('search-view');
  });
  afterEach(async (t) => {
    await wb.screenshot(`${t.name} end`);
  });
  after(async () => {
    await wb?.close();
  });

  it('shows the Developer Index container in the activity bar', async () => {
    const item = wb.activityItem('Developer Index');
    await item.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match((await item.getAttribute('aria-label')) ?? '', /^Developer Index/);
  });

  it('opens the Search view with a query box from the activity bar', async () => {
    await wb.openContainer('Developer Index');
    assert.match(await wb.sideBarTitle(), /developer index/i);
    const box = wb.webview().getByRole('searchbox');
    await box.waitFor({ state: 'visible' });
    // The default side bar width; Agent Jobs collapsed (as it starts while there are no jobs; an earlier
    // test file may have expanded it).
    await wb.giveViewTheSideBar('Search', ['Agent Jobs'], 0);
    await wb.assertInViewport(box, 'the query box');
    await wb.screenshot('search view open');
  });

  it('runs a search from the palette and shows at least 8 sandbox results in the first screen (1400 x 900, default side bar width and settings)', async () => {
    await fetch(`${e2e.sandboxUrl()}/__sandbox/requests`, { method: 'DELETE' });
    await wb.runCommand('Developer Index: Search…');
    await wb.answerInputBox('discriminated unions');
    const hit = wb.webview().getByText('Discriminated unions', { exact: true }).first();
    await hit.waitFor({ state: 'visible', timeout: 30_000 });
    const summary = wb.webview().locator('#results-region p.summary');
    await wb.assertInViewport(summary, 'the results summary line');
    await wb.assertInViewport(hit, 'the first result');
    await wb.screenshot('results');
    // A query with k (10, the default) results: how many fit on the first screen.
    await wb.runCommand('Developer Index: Search…');
    await wb.answerInputBox('timeout');
    await wb
      .webview()
      .locator('.summary', { hasText: '10 results for “timeout”' })
      .waitFor({ state: 'visible', timeout: 30_000 });
    const width = (await wb.page.locator('.part.sidebar').boundingBox())?.width ?? 0;
    assert.ok(width < 400, `the side bar is at its default width: ${width} px`);
    const rows = wb.webview().locator('li.row');
    let visible = 0;
    for (let i = 0; i < (await rows.count()); i++) {
      try {
        await wb.assertInViewport(rows.nth(i), `result ${i + 1}`);
        visible++;
      } catch {
        break;
      }
    }
    console.log(`results fully visible in the first screen: ${visible} (side bar ${Math.round(width)} px)`);
    assert.ok(visible >= 8, `at least 8 results on the first screen; got ${visible}`);
    await wb.screenshot('first screen after a palette search');
    const seen = (await (await fetch(`${e2e.sandboxUrl()}/__sandbox/requests`)).json()) as {
      requests: Array<{ path: string }>;
    };
    const searches = seen.requests.filter(
      (r) => r.path.startsWith('/v2/search') && JSON.stringify(r).includes('discriminated'),
    );
    assert.ok(searches.length >= 1, `the sandbox saw no search for the query: ${JSON.stringify(seen.requests)}`);
  });

  it('sets the API key through an input box: a notification confirms, searches carry it, the page never shows it', async () => {
    await wb.runCommand('Developer Index: Set API Key');
    await wb.answerInputBox(e2e.testKey(), { prompt: /secret storage/i });
    assert.match(await wb.waitForNotification(/API key saved/i), /Developer Index/);
    await fetch(`${e2e.sandboxUrl()}/__sandbox/requests`, { method: 'DELETE' });
    await wb.runCommand('Developer Index: Search…');
    await wb.answerInputBox('coercion');
    await wb.webview().locator('[aria-label="Search results"]').waitFor({ state: 'visible', timeout: 30_000 });
    const seen = (await (await fetch(`${e2e.sandboxUrl()}/__sandbox/requests`)).json()) as {
      requests: Array<{ path: string; auth: string }>;
    };
    const search = seen.requests.filter((r) => r.path.startsWith('/v2/search'));
    assert.ok(
      search.length >= 1 && search.every((r) => r.auth === 'valid'),
      `searches after setting the key: ${JSON.stringify(search)}`,
    );
    const html = [
      await wb.page.content(),
      ...(await Promise.all(wb.page.frames().map((f) => f.content().catch(() => '')))),
    ].join('\n');
    assert.ok(!html.includes(e2e.testKey()), 'the API key appears in the workbench or a webview');
  });

  it('clears the API key from the palette with a notification', async () => {
    await wb.runCommand('Developer Index: Clear API Key');
    assert.match(await wb.waitForNotification(/API key removed/i), /Developer Index/);
  });

  it('Show Search History: relative times, only non-default filters, a remove button per entry, Clear Search History', async () => {
    await wb.runCommand('Developer Index: Show Search History');
    const rows = wb.page.locator('.quick-input-list .monaco-list-row');
    // The palette's own row can still be on screen for a moment: wait for the history pick itself.
    await wb.page
      .locator('.quick-input-widget .quick-input-title', { hasText: 'Developer Index: Search History' })
      .waitFor({ state: 'visible' });
    await rows.first().waitFor({ state: 'visible' });
    const first = await rows.first().innerText();
    assert.match(first, /coercion/, `the newest search first: ${first}`);
    assert.match(first, /just now|\d+ min ago/, `with a relative time: ${first}`);
    const all = (await rows.allInnerTexts()).join('\n');
    assert.doesNotMatch(all, /\bk: |passages: /, 'k and passages at their defaults are not shown');
    assert.equal((all.match(/^coercion/gm) ?? []).length, 1, 'a repeated search is one entry');
    await wb.screenshot('search history');
    await rows.first().hover();
    await rows.first().getByRole('button', { name: 'Remove from History' }).click();
    await wb.page.waitForFunction(
      () =>
        !/^coercion/m.test(
          [...document.querySelectorAll('.quick-input-list .monaco-list-row')]
            .map((r) => (r as HTMLElement).innerText)
            .join('\n'),
        ),
      undefined,
      { timeout: 5000 },
    );
    await wb.page.keyboard.press('Escape');
    await wb.runCommand('Developer Index: Clear Search History');
    await wb.runCommand('Developer Index: Show Search History');
    await wb.waitForNotification(/no searches yet/i);
  });
});
