// `@devindex` in VS Code's chat as a user meets it. code-server offline has no Copilot and no chat
// model, and VS Code's chat calls no participant without a model: it answers "Language model unavailable" itself.
// So this suite runs on a third code-server (scripts/vscode/test-e2e.mjs) with AI features on and a test fixture
// extension that registers one scripted local model (test/e2e/fixtures/chat-model-fixture), on the dependency
// fixture folder (fetchline 3.2.0 installed). The model is picked in the chat's model picker, `@devindex /fixed …`
// is typed in the chat input, and the answer is read and captured: the results with their version badges, the
// model's short answer citing a result, and the "Used N references" list opened. Dark, light and high contrast.
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { Workbench } from './workbench';

function chatUrl(): string {
  const v = process.env.DEVINDEX_E2E_CHAT_WORKBENCH_URL;
  if (!v) throw new Error('DEVINDEX_E2E_CHAT_WORKBENCH_URL is not set: run with npm run test:e2e');
  return v;
}

describe('@devindex in the chat view', () => {
  let wb: Workbench;
  before(async () => {
    wb = await Workbench.open('chat', { url: chatUrl() });
  });
  after(async () => {
    await wb?.useTheme('light').catch(() => undefined);
    await wb?.close();
  });

  const chatPart = (): Locator => wb.page.locator('.part.auxiliarybar');

  it("the answer with its results, the model's cited answer and the references list", async () => {
    await wb.activityItem('Developer Index').waitFor({ state: 'visible', timeout: 60_000 });
    await wb.useTheme('dark');
    // The chat's model picker offers only "Sign in to use Copilot" offline; the fixture's command opens the chat
    // with the question and its model selected (workbench.action.chat.open with a modelSelector).
    await wb.runCommand('Devindex Test: Ask @devindex in Chat (scripted model)');
    const response = chatPart().locator('.interactive-item-container.interactive-response').last();
    await response
      .getByText(/Scripted Test Model, from the results below/)
      .waitFor({ state: 'visible', timeout: 60_000 })
      .catch(async () => {
        await wb.screenshot('no answer');
        throw new Error(`the chat shows no answer from @devindex: ${(await chatPart().innerText()).slice(0, 1500)}`);
      });
    const text = await response.innerText();
    assert.match(
      text,
      /results? for “Retry-After ignored per-request timeout 429”\. Scoped to fetchline 3\.2\.0 installed \(fetchline\/fetchline\): its issues and pull requests\./,
    );
    assert.match(text, /mentions? a fix newer than your fetchline 3\.2\.0 \(3\.3\.0\)\./);
    assert.match(text, /Fixed in 3\.3\.0 · you have 3\.2\.0/);
    assert.match(text, /Yes\. Result \[\d+\] states a fix in 3\.3\.0, which is newer than your installed 3\.2\.0/);
    // "Used N references": every result, the passage's citation link where there is one.
    const listed = await response.locator('.chat-markdown-part ol > li').count();
    // VS Code 1.139 folds the progress and the references into one "Completed N steps" line: open it first.
    const steps = response.locator('summary', { hasText: /Completed/ }).first();
    // The chat's list scrolls itself (the response's top is out of view): the element is brought into view first.
    if (await steps.count())
      await steps.evaluate((e) => {
        e.scrollIntoView({ block: 'start' });
        (e as HTMLElement).click();
      });
    const used = response.getByRole('button', { name: /^Used \d+ references?$/ });
    await used.waitFor({ state: 'attached', timeout: 10_000 });
    const n = Number(/Used (\d+) references?/.exec((await used.getAttribute('aria-label')) ?? '')?.[1]);
    assert.ok(n > 0 && n === listed, `"Used ${n} references" for ${listed} results listed`);
    await used.evaluate((e) => {
      e.scrollIntoView({ block: 'start' });
      (e as HTMLElement).click();
    });
    const refs = response.locator('.chat-used-context .monaco-list-row');
    await refs.first().waitFor({ state: 'visible' });
    const refText = (await refs.allInnerTexts()).join('\n');
    // The list is virtual (only the rows in view are in the page): each row says the list's size.
    assert.equal(Number(await refs.first().getAttribute('aria-setsize')), n, refText);
    assert.match(
      refText,
      /^https:\/\/github\.com\/fetchline\/fetchline\/issues\/472#issuecomment-\d+$/m,
      "a result's passage citation link is its reference",
    );
    // The opened list: the chat maximized (the response fits with less scrolling), scrolled to the list.
    const maximize = wb.page
      .locator(
        '.part.auxiliarybar .title-actions .action-label[aria-label*="Maximize"], .part.auxiliarybar .global-actions .action-label[aria-label*="Maximize"]',
      )
      .first();
    if (await maximize.count()) {
      await maximize.click();
      for (let i = 0; i < 60; i++) {
        const [r, part] = await Promise.all([refs.first().boundingBox(), chatPart().boundingBox()]);
        if (r && part && r.y >= part.y + 170 && r.y + r.height <= part.y + part.height) break;
        await chatPart().locator('.interactive-list').first().hover();
        await wb.page.mouse.wheel(0, r && part && r.y > part.y + part.height ? 200 : -200);
      }
      await wb.screenshot('used references list maximized dark');
      await maximize.click().catch(() => undefined);
    }
    // Back to the answer as a user scrolls (the chat keeps its own scroll position), then the pictures.
    await chatPart().locator('.interactive-list').first().hover();
    const answer = response.locator('.chat-markdown-part strong', { hasText: /^Answer$/ }).first();
    for (let i = 0; i < 40; i++) {
      const [a, part] = await Promise.all([answer.boundingBox(), chatPart().boundingBox()]);
      if (a && part && a.y >= part.y + 120 && a.y + a.height <= part.y + part.height) break;
      await wb.page.mouse.wheel(0, a && part && a.y > part.y + part.height ? 200 : -200);
    }
    try {
      await wb.assertInViewport(answer, "the model's answer");
    } catch (e) {
      await wb.screenshot('not in view');
      throw e;
    }
    await wb.screenshot('answer with references dark');
    await wb.screenshot('answer with references dark close-up', chatPart());
    await wb.useTheme('light');
    await wb.screenshot('answer with references light', chatPart());
    await wb.useTheme('hc');
    await wb.screenshot('answer with references high contrast', chatPart());
  });
});
