// Browser UI for threads, chat answers, approvals and the keyless quota, at the default side bar width (300 px) in light, dark and high contrast:
// a chat run's answer opened from its end notification (a rendered markdown document), Ask a
// Follow-up… from the job's row (a thread with two turns under one row), a run waiting for an
// approval (never spinning) approved from its row, and the Search view's keyless line counting down
// to the reset of the keyless quota. The keyless line uses fault injection.
import * as assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { Workbench, e2e } from './workbench';
import { noHover, webviewsWear } from './settled';
import { CHAT_MODE, answerStartFlow, rowLabel } from '../support/quickInput';

const VIEW = 'Agent Jobs';
const DEFAULT_SIDE_BAR = 300;

describe('threads, chat answers, approvals and the keyless quota in the workbench', () => {
  let wb: Workbench;
  before(async () => {
    wb = await Workbench.open('threads');
    await wb.activityItem('Developer Index').waitFor({ state: 'visible', timeout: 60_000 });
    await wb.openContainer('Developer Index');
    await wb.runCommand('Developer Index: Focus on Agent Jobs View').catch(() => undefined);
    await wb.runCommand('Developer Index: Set API Key');
    await wb.answerInputBox(e2e.testKey(), { prompt: /secret storage/i });
    await wb.waitForNotification(/API key saved/i);
    await wb.setSideBarWidth(DEFAULT_SIDE_BAR);
  });
  afterEach(async (t) => {
    await wb.screenshot(`${t.name} end`);
  });
  after(async () => {
    await wb?.useTheme('light').catch(() => undefined);
    await wb?.runCommand('Developer Index: Clear API Key').catch(() => undefined);
    await wb?.close();
  });

  function row(text: string | RegExp): Locator {
    return wb.pane(VIEW).locator('.monaco-list-row').filter({ hasText: text }).first();
  }

  async function iconOf(l: Locator): Promise<string> {
    const cls = ((await l.locator('.custom-view-tree-node-item-icon').first().getAttribute('class')) ?? '').split(
      /\s+/,
    );
    return (
      cls.find((c) => c.startsWith('codicon-') && !c.startsWith('codicon-modifier-'))?.slice('codicon-'.length) ?? ''
    );
  }

  /** Light, dark and high contrast, each with a screenshot; back to light. */
  async function threeThemes(what: string, before?: () => Promise<void>): Promise<void> {
    for (const [kind, name] of [
      ['light', 'light'],
      ['dark', 'dark'],
      ['hc', 'high contrast'],
    ] as const) {
      await wb.useTheme(kind);
      // A hover the shot asks for, or none: the mouse off whatever it last pointed at (a tooltip stays while it rests there).
      if (before) await before();
      else {
        await wb.page.mouse.move(900, 500);
        await noHover(wb.page);
      }
      await webviewsWear(wb.page, kind);
      await wb.screenshot(`${what} (${name})`);
    }
    await wb.useTheme('light');
  }

  async function start(prompt: string, mode: 'chat' | 'default'): Promise<void> {
    await wb.page.keyboard.press('Escape');
    await wb.runCommand('Developer Index: Start Agent Job…');
    await answerStartFlow(wb.page, {
      prompt,
      credits: '',
      mode: mode === 'chat' ? CHAT_MODE : { item: CHAT_MODE.item },
    });
    await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  }

  it('a chat run: Open Answer first in its notification opens the answer rendered', async () => {
    await start('E2E explain retries', 'chat');
    const note = await wb.waitForNotification(/Agent job "E2E explain retries" completed/, 60_000);
    const toast = wb.page
      .locator('.notification-list-item')
      .filter({ hasText: /E2E explain retries/ })
      .first();
    const buttons = await toast.locator('.monaco-button').allInnerTexts();
    assert.match(note, /completed/);
    assert.deepEqual(buttons.slice(0, 3), ['Open Answer', 'Ask a Follow-up…', 'Show in Tree']);
    await wb.screenshot('chat run ended with Open Answer first');
    await toast.getByRole('button', { name: 'Open Answer' }).click();
    const tab = wb.page.locator('.tabs-container .tab.active');
    await tab.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match((await tab.getAttribute('aria-label')) ?? '', /Preview answer — E2E explain retries/);
    const heading = wb.page
      .locator('iframe.webview.ready')
      .last()
      .contentFrame()
      .locator('#active-frame')
      .contentFrame()
      .locator('h2')
      .first();
    await heading.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await heading.innerText(), /^Answer: E2E explain retries/);
    await threeThemes('chat answer document');
    await wb.runCommand('View: Close All Editors').catch(() => undefined);
  });

  it('Ask a Follow-up… from the row: a thread with two turns under one row', async () => {
    // The Agent Jobs pane gets the side bar's height (it is expanded now, so Search may collapse).
    await wb.setViewExpanded('Search', false).catch(() => undefined);
    const job = row('E2E explain retries');
    await job.hover();
    await job.locator('.actions .action-label[aria-label="Ask a Follow-up…"]').click();
    const widget = wb.page.locator('.quick-input-widget');
    await widget
      .locator('.quick-input-list .monaco-list-row')
      .filter({ hasText: /Go deeper/ })
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 });
    await wb.screenshot('follow-up input with the suggestions');
    await widget.locator('input.input').fill('E2E and the backoff');
    await widget
      .locator('.quick-input-list .monaco-list-row')
      .filter({ hasText: /Ask: E2E and the backoff/ })
      .first()
      .waitFor({ state: 'visible' });
    await wb.page.keyboard.press('Enter');
    await widget.waitFor({ state: 'hidden' });
    const thread = row(/E2E explain retries/);
    await rowLabel(thread, /\b2 turns\b/, 20_000);
    const turn2 = row(/^2\. E2E and the/);
    await turn2.waitFor({ state: 'visible', timeout: 15_000 });
    await rowLabel(thread, /^Completed: agent thread .*\b2 turns\b/, 60_000);
    await rowLabel(turn2, /^Completed: agent job turn 2\b/, 10_000);
    assert.ok(Math.abs((await wb.sideBarWidth()) - DEFAULT_SIDE_BAR) <= 10, 'at the default side bar width');
    await wb.page.keyboard.press('Escape');
    await threeThemes('thread with two turns at 300 px');
  });

  it('a run waiting for an approval: never spinning, each paid call with its estimate; Approve from the row; the next turn says what it paid', async () => {
    await start('E2E APPROVAL two calls', 'default');
    const job = row('E2E APPROVAL two');
    await job.waitFor({ state: 'visible', timeout: 15_000 });
    // The editor reads the status after 15 s of a quiet trace: that is when the wait shows.
    await rowLabel(
      job,
      /^Waiting for approval of 2 paid calls \(at least 10 credits\): github issues\/create, github issues\/add-labels: agent job /,
      75_000,
    );
    assert.equal(await iconOf(job), 'bell-dot');
    // Expanded: the approval row, then one row per call with its estimate.
    await job.click();
    await wb.page.keyboard.press('ArrowRight');
    const call = row(/^github issues\/create/);
    await call.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await call.innerText(), /about 10 credits/);
    assert.match(await row(/^github issues\/add-labels/).innerText(), /no estimate/);
    await threeThemes('run waiting for approval with its calls at 300 px', async () => {
      await job.hover();
    });
    await job.hover();
    await job.locator('.actions .action-label[aria-label="Approve"]').click();
    // Two calls: which ones (all picked), then the confirmation with each call and its estimate.
    await wb.page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row')
      .filter({ hasText: /github issues\/create/ })
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 });
    await wb.screenshot('approve: which paid calls');
    await wb.page.keyboard.press('Enter');
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await dialog.innerText(), /github issues\/create \(about 10 credits\)/);
    await wb.screenshot('approve confirmation with the calls');
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    // The answer is the thread's next turn: it runs the calls and ends saying what it paid.
    const turn = row(/^2\. Approved\./);
    await turn.waitFor({ state: 'visible', timeout: 30_000 });
    await rowLabel(turn, /^Completed: agent job turn 2, Approved\..*2 paid calls, 30 credits/, 60_000);
    await turn.click();
    await wb.page.keyboard.press('ArrowRight');
    const paid = row(/^Paid calls: 2 paid calls, 30 credits$/);
    await paid.waitFor({ state: 'visible', timeout: 15_000 });
    await threeThemes('finished turn with its paid-call line at 300 px', async () => {
      await paid.hover();
    });
  });

  it('a failed acceptance: the approval flow says the terms were not accepted and offers them again; the run still waits', async () => {
    // The row's label is the prompt cut at a word: the trigger that names the case comes first.
    await start('E2E TERMS-CHANGED APPROVAL-TERMS compare', 'default');
    const job = row('E2E TERMS-CHANGED');
    await job.waitFor({ state: 'visible', timeout: 15_000 });
    await rowLabel(job, /^Waiting for /, 75_000);
    await job.hover();
    await job.locator('.actions .action-label[aria-label="Approve"]').click();
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await dialog.innerText(), /Initech Maps/);
    await dialog.getByRole('button', { name: 'I Agree to These Terms', exact: true }).click();
    const said = await wb.waitForNotification(/The data terms were not accepted/, 20_000);
    assert.match(said, /nothing was approved/);
    assert.match(said, /initech-maps: Terms changed \(terms_changed, HTTP 409\)/);
    assert.doesNotMatch(said, /\bAgreed to the terms\b/);
    const toast = wb.page
      .locator('.notifications-toasts .notification-list-item')
      .filter({ hasText: /The data terms were not accepted/ })
      .first();
    for (const name of ['Show the Terms Again', 'Open the Terms'])
      assert.ok(await toast.getByRole('button', { name }).isVisible(), `${name} beside the words`);
    await threeThemes('terms not accepted after I Agree at 300 px');
    await rowLabel(job, /^Waiting for /, 5_000);
    // Show the Terms Again reads the run afresh and asks again.
    await wb.clickNotificationButton(/The data terms were not accepted/, 'Show the Terms Again');
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await dialog.innerText(), /Initech Maps/);
    await wb.page.keyboard.press('Escape');
  });

  it('the keyless line counts down to the reset of the keyless quota, with Set API Key', async () => {
    await wb.runCommand('Developer Index: Clear API Key');
    await fetch(`${e2e.sandboxUrl()}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        faults: [
          {
            kind: 'status',
            status: 429,
            retryAfter: '46740',
            path: '/v2/search',
            error: "You've hit the keyless free tier rate limit for today.",
          },
        ],
      }),
    });
    await wb.runCommand('Developer Index: Focus on Search View').catch(() => undefined);
    await wb.setViewExpanded(VIEW, false).catch(() => undefined);
    await wb.setSideBarWidth(DEFAULT_SIDE_BAR);
    const view = wb.webview();
    await view.getByRole('searchbox').fill('keyless quota');
    await wb.page.keyboard.press('Enter');
    const line = view.locator('#keyless');
    await line
      .filter({ hasText: /Keyless searches used up · resets in 12 h 5\d min/ })
      .waitFor({ state: 'visible', timeout: 20_000 });
    assert.ok(await line.getByRole('button', { name: 'Set API Key' }).isVisible(), 'Set API Key beside the countdown');
    const box = view.locator('#error');
    assert.match(await box.innerText(), /Keyless searches used up/);
    assert.equal(
      await box.getByRole('button', { name: 'Search Without Key' }).count(),
      0,
      'never "Search Without Key" when keyless already',
    );
    await threeThemes('keyless quota line at 300 px');
  });
});
