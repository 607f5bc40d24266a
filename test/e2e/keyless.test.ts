// In the workbench, at the default side bar width (300 px) in light, dark and high contrast:
// the keyless quota used up with the service's own signup link, so the keyless line and the error box
// offer Get a Key beside Set API Key, and the error names its request id. Uses the sandbox's daily
// keyless quota (`POST /__sandbox/keyless`), whose 429 carries `signup_url` on the production wire.
import * as assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { Workbench, sandboxControl } from './workbench';
import { noHover, webviewsWear } from './settled';

const DEFAULT_SIDE_BAR = 300;

describe('the keyless quota with Get a Key', () => {
  let wb: Workbench;
  let view: FrameLocator;
  before(async () => {
    wb = await Workbench.open('keyless');
    await wb.activityItem('Developer Index').waitFor({ state: 'visible', timeout: 60_000 });
    await wb.openContainer('Developer Index');
    view = wb.webview();
    await view.getByRole('searchbox').waitFor({ state: 'visible' });
    await wb.giveViewTheSideBar('Search', ['Agent Jobs'], 0);
    await wb.setSideBarWidth(DEFAULT_SIDE_BAR);
  });
  afterEach(async (t) => {
    await wb.screenshot(`${t.name} end`);
  });
  after(async () => {
    await sandboxControl('/__sandbox/keyless', { daily: 0, reset: true }).catch(() => undefined);
    await wb?.useTheme('light').catch(() => undefined);
    await wb?.close();
  });

  async function search(query: string): Promise<void> {
    await view.getByRole('searchbox').fill(query);
    await wb.page.keyboard.press('Enter');
  }

  it('the keyless line and the error box offer Get a Key beside Set API Key; the error names its request id', async () => {
    assert.equal(await sandboxControl('/__sandbox/keyless', { daily: 1, reset: true }), 200);
    await search('keyless first');
    await view.locator('li.row').first().waitFor({ state: 'visible', timeout: 30_000 });
    await search('keyless second');
    const line = view.locator('#keyless');
    await line
      .filter({ hasText: /Keyless searches used up · resets in / })
      .waitFor({ state: 'visible', timeout: 20_000 });
    const buttons = line.getByRole('button');
    assert.deepEqual(
      await buttons.allInnerTexts(),
      ['Get a Key', 'Set API Key'],
      'Get a Key first, beside Set API Key',
    );
    const box = view.locator('#error');
    await box.waitFor({ state: 'visible' });
    assert.deepEqual(await box.getByRole('button').allInnerTexts(), ['Get a Key', 'Set API Key']);
    assert.match(await box.innerText(), /\(request id [0-9a-f-]{36}\)/);
    // The line fits the default width: no button is cut off or wrapped out of the side bar.
    const lineBox = await line.boundingBox();
    const get = await line.getByRole('button', { name: 'Get a Key' }).boundingBox();
    const set = await line.getByRole('button', { name: 'Set API Key' }).boundingBox();
    assert.ok(lineBox && get && set);
    assert.ok(set.x + set.width <= lineBox.x + lineBox.width + 1, 'Set API Key inside the line');
    for (const [kind, name] of [
      ['light', 'light'],
      ['dark', 'dark'],
      ['hc', 'high contrast'],
    ] as const) {
      await wb.useTheme(kind);
      // No hover tooltip from the activity bar over the view.
      await wb.page.mouse.move(900, 500);
      await noHover(wb.page);
      await webviewsWear(wb.page, kind);
      await wb.screenshot(`keyless line with Get a Key at 300 px (${name})`);
      await wb.screenshot(`keyless line with Get a Key, side bar (${name})`, wb.page.locator('.part.sidebar'));
    }
    await wb.useTheme('light');
  });
});
