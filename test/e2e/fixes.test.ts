// Browser UI: Dependency Fixes on the dependency fixture workspace at the default side bar width: the keyless quota's
// line, the view with fetchline's fixes (light, dark, high contrast), and package.json's diagnostic with its hover
// and Quick Fix (test-results/e2e/fixes-*.png).
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Workbench, sandboxControl } from './workbench';

const DEFAULT_SIDE_BAR = 300;

describe('Dependency Fixes in the workbench', () => {
  let wb: Workbench;

  before(async () => {
    const url = process.env.DEVINDEX_E2E_DEPS_WORKBENCH_URL;
    assert.ok(url, 'DEVINDEX_E2E_DEPS_WORKBENCH_URL is not set: run with npm run test:e2e');
    wb = await Workbench.open('fixes', { url });
    await wb.activityItem('Developer Index').waitFor({ state: 'visible', timeout: 60_000 });
    await wb.openContainer('Developer Index');
    await wb.setSideBarWidth(DEFAULT_SIDE_BAR);
    // The Search view collapsed, as a user gives the fixes room; its notes sit below the dependencies.
    await wb.setViewExpanded('Search', false);
    await wb.setViewExpanded('Dependency Fixes', true);
  });
  after(async () => {
    await sandboxControl('/__sandbox/keyless', { daily: 0, reset: true }).catch(() => undefined);
    await wb?.useTheme('dark').catch(() => undefined);
    await wb?.close();
  });

  const pane = () =>
    wb.page.locator('.pane', { has: wb.page.locator('.pane-header[aria-label="Dependency Fixes Section"]') });

  it('without a key, the keyless quota stops the check: the unchecked ones in one line that offers Set API Key', async () => {
    await wb.runCommand('Developer Index: Clear API Key');
    assert.equal(await sandboxControl('/__sandbox/keyless', { daily: 1, reset: true }), 200);
    await wb.runCommand('Developer Index: Check Dependencies for Fixes');
    const line = pane().locator('.monaco-list-row', { hasText: /^Not checked/ });
    await line.first().waitFor({ state: 'visible', timeout: 60_000 });
    assert.match((await line.first().getAttribute('aria-label')) ?? '', /Set an API key to check them/);
    for (const theme of ['dark', 'light', 'hc'] as const) {
      await wb.useTheme(theme);
      await line.first().hover();
      await wb.screenshot(`quota line ${theme}`);
    }
    await wb.useTheme('dark');
  });

  it("the view with fetchline's fixes, in light, dark and high contrast", async () => {
    assert.equal(await sandboxControl('/__sandbox/keyless', { daily: 0, reset: true }), 200);
    await wb.runCommand('Developer Index: Check Dependencies for Fixes');
    // The quota case left its Not checked line: it goes when this check has searched what the quota left (the rest
    // comes from the cache), and the rows are this check's.
    await pane()
      .locator('.monaco-list-row', { hasText: /^Not checked/ })
      .waitFor({ state: 'detached', timeout: 60_000 });
    const row = pane().locator('.monaco-list-row[aria-label^="fetchline: "]').first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match((await row.getAttribute('aria-label')) ?? '', /^fetchline: 3\.2\.0 installed lacks \d+ fix/);
    await pane()
      .locator('.monaco-list-row', { hasText: /^Skipped/ })
      .waitFor({ state: 'visible', timeout: 30_000 });
    // tollgate was among those the quota left unchecked: its row is this check's.
    await pane()
      .locator('.monaco-list-row[aria-label^="github.com/gridworks/tollgate"]')
      .waitFor({ state: 'visible', timeout: 30_000 });
    for (const theme of ['dark', 'light', 'hc'] as const) {
      await wb.useTheme(theme);
      await wb.page.mouse.move(0, 0);
      await wb.screenshot(`view ${theme}`);
    }
    await wb.useTheme('dark');
  });

  it("package.json's fetchline line: the diagnostic's hover, then its Quick Fix", async () => {
    await wb.page.keyboard.press('Control+P');
    const input = wb.page.locator('.quick-input-widget input.input');
    await input.waitFor({ state: 'visible' });
    await input.fill('package.json');
    await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'package.json' }).first().waitFor();
    await wb.page.keyboard.press('Enter');
    await wb.page.locator('.monaco-editor .view-lines', { hasText: 'fetchline' }).first().waitFor();
    await wb.page.locator('.monaco-editor .squiggly-info').first().waitFor({ state: 'attached', timeout: 30_000 });
    await wb.page.keyboard.press('Control+G');
    await input.waitFor({ state: 'visible' });
    await input.fill(':6:7');
    await wb.page.keyboard.press('Enter');
    await wb.page.keyboard.press('Control+K');
    await wb.page.keyboard.press('Control+I');
    const hover = wb.page.locator('.monaco-hover', { hasText: 'fetchline 3.2.0 lacks' });
    await hover.first().waitFor({ state: 'visible', timeout: 20_000 });
    await wb.screenshot('diagnostic hover dark');
    await wb.page.keyboard.press('Escape');
    await wb.page.keyboard.press('Control+.');
    const item = wb.page.locator('.action-widget .monaco-list-row', { hasText: 'Show the fixes fetchline lacks' });
    await item.first().waitFor({ state: 'visible', timeout: 30_000 });
    await wb.screenshot('quick fix dark');
    await item.first().click();
    await pane()
      .locator('.monaco-list-row.selected', { hasText: 'fetchline' })
      .waitFor({ state: 'visible', timeout: 20_000 });
    await wb.screenshot('revealed dark');
  });
});
