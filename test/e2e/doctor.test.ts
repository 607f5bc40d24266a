// As a user sees it: Developer Index: Diagnose Connection from the palette opens the findings
// as a read-only markdown document; here the sandbox says the keyless quota is used up, so the service
// check is a problem with its fix. Screenshots in light and dark.
import * as assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { Workbench, e2e } from './workbench';

async function faults(method: 'POST' | 'DELETE', body?: unknown): Promise<void> {
  const r = await fetch(`${e2e.sandboxUrl()}/__sandbox/faults`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  assert.equal(r.status, 200);
}

describe('Diagnose Connection', () => {
  let wb: Workbench;
  before(async () => {
    wb = await Workbench.open('doctor');
  });
  afterEach(async (t) => {
    await wb.screenshot(`${t.name} end`);
  });
  after(async () => {
    await faults('DELETE');
    await wb?.close();
  });

  it('opens the diagnosis document from the palette: one section per check, the problem with its fix (light and dark)', async () => {
    await faults('DELETE');
    await faults('POST', {
      faults: [
        {
          kind: 'status',
          status: 429,
          path: '/v2/search/developer',
          retryAfterSeconds: 46_800,
          error:
            "You've hit Firecrawl's keyless free tier rate limit. Create an API key at https://firecrawl.dev/app/api-keys to keep searching.",
        },
      ],
    });
    // The extension's contributions are in once its container is in the activity bar.
    await wb.activityItem('Developer Index').waitFor({ state: 'visible', timeout: 60_000 });
    await wb.runCommand('Developer Index: Diagnose Connection');
    const tab = wb.page.locator('.tabs-container .tab', { hasText: 'Connection diagnosis' }).first();
    await tab.waitFor({ state: 'visible', timeout: 30_000 });
    const editor = wb.page.locator('.editor-instance .monaco-editor .view-lines').first();
    await editor.filter({ hasText: 'Problem: service' }).waitFor({ state: 'visible', timeout: 30_000 });
    const text = (await editor.innerText()).replace(/\u00a0/g, ' ');
    assert.match(text, /Developer Index: connection diagnosis/);
    assert.match(text, /keyless searches are used up/);
    assert.match(text, /Set API Key/);
    assert.ok(!text.includes(e2e.testKey()), 'no key in the document');
    // Out of the way of the document: the progress toast and the palette.
    await wb.page
      .locator('.notifications-toasts .notification-toast')
      .first()
      .waitFor({ state: 'hidden', timeout: 10_000 })
      .catch(() => undefined);
    // The markdown grammar loads after the document shows: wait for coloured tokens before the first picture.
    await wb.page
      .locator('.editor-instance .view-lines span[class*="mtk"]:not(.mtk1)')
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 })
      .catch(() => undefined);
    await wb.useTheme('dark');
    await wb.screenshot('diagnosis document (dark)');
    // Light last: the workbench's default, as the other browser tests expect to find it.
    await wb.useTheme('light');
    await wb.screenshot('diagnosis document (light)');
  });

  it("a fix's link runs what it names: Ctrl+click on the Set API Key link asks for the key", async () => {
    const target = wb.page
      .locator('.editor-instance .monaco-editor .view-line span', { hasText: /devIndex\.auth\.setKey/ })
      .first();
    await target.waitFor({ state: 'visible', timeout: 10_000 });
    // A click sometimes finds the page itself at the link's point for a while (seen once in CI, 20 s long): move
    // the mouse away and try again, the last tries without the hit check. A click that lands nowhere still
    // fails below, where the prompt must appear.
    for (let attempt = 0; ; attempt++) {
      try {
        await target.click({ modifiers: ['Control'], timeout: 5_000, force: attempt >= 2 });
        break;
      } catch (e) {
        if (attempt >= 3) throw e;
        await wb.page.mouse.move(5, 5);
        await wb.page.keyboard.press('Escape');
      }
    }
    const prompt = wb.page
      .locator('.quick-input-widget .quick-input-message, .quick-input-widget .quick-input-title')
      .filter({ hasText: /API key/i })
      .first();
    await prompt.waitFor({ state: 'visible', timeout: 10_000 });
    await wb.screenshot('the fix link opened Set API Key');
    await wb.page.keyboard.press('Escape');
  });
});
