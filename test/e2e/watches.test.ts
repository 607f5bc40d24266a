// Browser UI (issue 23): Watch for a Fix in the workbench, as a user sees it. The dependency fixture is
// open; a search in fetchline's repository, Watch for a Fix above its results, a new issue in the index,
// Check Now and its notification, and the Watched list at the default side bar width (300 px) in dark,
// light and high contrast (test-results/e2e/watches-*.png). The watch is removed at the end (the
// workbench's global storage is shared with the other e2e files).
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Workbench, e2e } from './workbench';

const QUERY = 'Retry-After ignored with a per-request timeout';

describe('Watch for a Fix in the workbench (issue 23)', () => {
  let wb: Workbench;

  before(async () => {
    const url = process.env.DEVINDEX_E2E_DEPS_WORKBENCH_URL;
    assert.ok(url, 'DEVINDEX_E2E_DEPS_WORKBENCH_URL is not set: run with npm run test:e2e');
    wb = await Workbench.open('watches', { url });
    await wb.activityItem('Developer Index').waitFor({ state: 'visible', timeout: 60_000 });
    await wb.useTheme('dark');
  });
  after(async () => {
    await wb?.useTheme('dark').catch(() => undefined);
    await wb?.close();
  });

  it('watches a dependency search, notifies a new issue, and lists the watch at 300 px in three themes', async () => {
    await wb.openContainer('Developer Index');
    await wb.setSideBarWidth(300);
    await wb.setViewExpanded('Agent Jobs', false).catch(() => undefined);
    await wb.runCommand("Developer Index: Search in a Dependency's Repository…");
    const rows = wb.page.locator('.quick-input-list .monaco-list-row');
    await rows.filter({ hasText: 'fetchline/fetchline' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await wb.page.locator('.quick-input-widget input.input').fill('fetchline');
    await rows.filter({ hasText: 'fetchline/fetchline' }).first().click();
    await wb.page.locator('.quick-input-widget', { hasText: '1 Selected' }).waitFor({ state: 'visible' });
    await wb.page.keyboard.press('Enter');
    await wb.answerInputBox(QUERY, { prompt: /fetchline\/fetchline/ });
    const view = wb.webview();
    const watchButton = view.getByRole('button', { name: /^Watch for a Fix: re-run “Retry-After ignored with a per-request timeout” in fetchline\/fetchline · 3\.2\.0 installed/ });
    await watchButton.waitFor({ state: 'visible', timeout: 30_000 });
    await wb.screenshot('watch for a fix above the results dark');
    await watchButton.click();
    const item = view.locator('.watch-item').filter({ hasText: QUERY });
    await item.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await item.innerText(), /fetchline\/fetchline · 3\.2\.0 installed[\s\S]*never checked · 0 new/);
    // The index gains an issue; Check Now finds it and says so.
    const r = await fetch(`${e2e.sandboxUrl()}/__sandbox/corpus`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ add: [{ repo: 'fetchline/fetchline', type: 'issue', number: 482, markdown: '# Retry-After ignored with a per-request timeout on 3.2.x\n\nThe Retry-After header is still ignored with a per-request timeout on 3.2.0. Fixed in 3.3.0.\n' }] }),
    });
    assert.equal(r.status, 200);
    await item.getByRole('button', { name: /^Check Now/ }).click();
    const note = await wb.waitForNotification(/found a new issue/, 30_000);
    assert.match(note, /Retry-After ignored with a per-request timeout on 3\.2\.x · fixed in 3\.3\.0 · newer than your 3\.2\.0/);
    await view.locator('.watch-item .watch-new').filter({ hasText: '1' }).first().waitFor({ state: 'visible' });
    assert.match(await item.locator('.watch-meta').innerText(), /^checked just now · 1 new$/);
    const list = view.locator('.watched');
    await wb.scrollToTop(list);
    await wb.screenshot('watched list and notification dark');
    await wb.page.keyboard.press('Escape');
    await wb.useTheme('light');
    await wb.scrollToTop(view.locator('.watched'));
    await wb.screenshot('watched list light');
    await wb.useTheme('hc');
    await wb.scrollToTop(view.locator('.watched'));
    await wb.screenshot('watched list high contrast');
    await wb.useTheme('dark');
    // Open Search from the notification's list item is the host tier's; here Remove empties the list.
    await view.locator('.watch-item').filter({ hasText: QUERY }).getByRole('button', { name: /^Remove the watch/ }).click();
    await view.locator('.watched').waitFor({ state: 'hidden', timeout: 10_000 });
    await wb.screenshot('watch removed');
  });
});
