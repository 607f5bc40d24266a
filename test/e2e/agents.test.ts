// Browser UI: agent jobs through the real workbench as a user drives them. Set the key from the
// palette, start a job with Start Agent Job… (one six-step input), watch its row in the Agent Jobs
// tree go from running to completed, see the end-of-run notification, expand it and open a
// snapshot from an artifact event's inline Open Snapshot (a pretty-JSON editor); start a SLOW job,
// cancel it from the row's inline action and see it end as cancelled. The sandbox the runner started
// runs agents at --agent-speed 10 (a standard run about 2.5 s, a SLOW one about 50 s).
import * as assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { Workbench, e2e } from './workbench';
import { stableBox } from './settled';
import { until } from '../support/until';
import { DATA_MODE, answerStartFlow, rowLabel } from '../support/quickInput';
import { ORIGINS } from '../../src/api/version';

const VIEW = 'Agent Jobs';

/** VS Code's side bar width in a fresh profile with this suite's 1400 px window. */
const DEFAULT_SIDE_BAR = 300;

describe('Agent jobs in the workbench', () => {
  let wb: Workbench;
  let firstWidth = 0;
  before(async () => {
    wb = await Workbench.open('agents');
    // The container appears once the extension's contributions are loaded; its commands are in the palette from then on.
    await wb.activityItem('Developer Index').waitFor({ state: 'visible', timeout: 60_000 });
    // The default side bar width at first: a running job's row must show its state there. The pane is
    // opened through its focus command (the Agent Jobs view starts collapsed while there are no jobs).
    await wb.openContainer('Developer Index');
    firstWidth = await wb.sideBarWidth();
    await wb.runCommand('Developer Index: Focus on Agent Jobs View').catch(async () => showJobsView());
    await wb.runCommand('Developer Index: Set API Key');
    await wb.answerInputBox(e2e.testKey(), { prompt: /secret storage/i });
    await wb.waitForNotification(/API key saved/i);
  });
  afterEach(async (t) => {
    await wb.screenshot(`${t.name} end`);
  });
  after(async () => {
    // Leave the workbench as the other browser tests expect it: no key.
    await wb?.runCommand('Developer Index: Clear API Key').catch(() => undefined);
    await wb?.close();
  });

  /** The Developer Index container with the Agent Jobs pane expanded (the Search pane collapsed to make room). */
  async function showJobsView(): Promise<void> {
    await wb.openContainer('Developer Index');
    // A wider side bar, so the rows' descriptions (state, credits) are readable in the screenshots.
    await wb.giveViewTheSideBar(VIEW, ['Search']);
  }

  /** The job row whose label is the (short) prompt. */
  function jobRow(prompt: string): Locator {
    return wb.pane(VIEW).locator('.monaco-list-row').filter({ hasText: prompt }).first();
  }

  /** The codicon the row shows as its ThemeIcon id (`sync~spin` for a spinning sync), from the icon element's classes. */
  async function iconOf(l: Locator): Promise<string> {
    const cls = ((await l.locator('.custom-view-tree-node-item-icon').first().getAttribute('class')) ?? '').split(
      /\s+/,
    );
    const id =
      cls.find((c) => c.startsWith('codicon-') && !c.startsWith('codicon-modifier-'))?.slice('codicon-'.length) ??
      cls.join(' ');
    const modifier = cls.find((c) => c.startsWith('codicon-modifier-'))?.slice('codicon-modifier-'.length);
    return modifier ? `${id}~${modifier}` : id;
  }

  /** The inline actions of a row are shown on hover; returns the titles of those shown. */
  async function inlineActions(l: Locator): Promise<string[]> {
    await l.hover();
    const actions = l.locator('.actions .action-label');
    return (
      await actions.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.getAttribute('title') ?? ''))
    ).filter(Boolean);
  }

  async function startFromPalette(prompt: string, maxCredits: string): Promise<void> {
    // The palette is opened from the workbench, not from an editor that has taken the focus.
    await wb.page.keyboard.press('Escape');
    await wb.runCommand('View: Close All Editors').catch(() => undefined);
    await wb.runCommand('Developer Index: Start Agent Job…');
    // Step 6, what the run gives back: the service's default (mode left out); step 7, paid tool calls: off (the default).
    await answerStartFlow(wb.page, { prompt, credits: maxCredits, mode: DATA_MODE });
    await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  }

  /** The row's state (first in its description) is on screen: at least its first 45 px fit in the row. */
  async function assertStateVisible(job: Locator): Promise<void> {
    const desc = job.locator('.label-description').first();
    const rowBox = await job.boundingBox();
    const descBox = await desc.boundingBox();
    assert.ok(
      rowBox && descBox && descBox.x + 45 <= rowBox.x + rowBox.width,
      `the state is visible: row ${JSON.stringify(rowBox)}, description ${JSON.stringify(descBox)}`,
    );
  }

  /**
   * A screenshot of the notification that matches, as a toast, or in the notification centre when
   * the toast has gone (toasts hide on a timer and when focus moves); the centre is closed again.
   */
  async function shootNotification(match: RegExp, label: string): Promise<void> {
    const toast = wb.page.locator('.notifications-toasts .notification-toast').filter({ hasText: match }).first();
    if (await toast.isVisible()) {
      // A toast slides in and grows to its text: wait until it has stopped moving.
      await stableBox(toast, 'the notification toast');
      await wb.screenshot(label);
      return;
    }
    await wb.runCommand('Notifications: Show Notifications');
    await wb.page
      .locator('.notifications-center .notification-list-item')
      .filter({ hasText: match })
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 });
    await wb.screenshot(`${label} in the notification centre`);
    await wb.runCommand('Notifications: Hide Notifications');
  }

  async function sandboxRequests(): Promise<Array<{ method: string; path: string; body: unknown; auth: string }>> {
    const r = (await (await fetch(`${e2e.sandboxUrl()}/__sandbox/requests`)).json()) as {
      requests: Array<{ method: string; path: string; body: unknown; auth: string }>;
    };
    return r.requests;
  }

  it('starts a job from the palette, shows it running with a Cancel action, then completed with a notification', async () => {
    await fetch(`${e2e.sandboxUrl()}/__sandbox/requests`, { method: 'DELETE' });
    const prompt = 'E2E HTTP findings';
    await startFromPalette(prompt, '900');
    const job = jobRow(prompt);
    await job.waitFor({ state: 'visible', timeout: 15_000 });
    const submits = (await sandboxRequests()).filter((r) => r.method === 'POST' && r.path === '/v2/agent');
    assert.equal(submits.length, 1, 'exactly one submission');
    const body = submits[0]!.body as Record<string, unknown>;
    assert.deepEqual(
      { prompt: body.prompt, maxCredits: body.maxCredits, model: body.model },
      { prompt, maxCredits: 900, model: 'spark-2' },
    );
    assert.equal(body.origin, ORIGINS.vscode, 'the body names the extension as its origin');
    assert.equal(submits[0]!.auth, 'valid');

    // At the default side bar width the state (first in the description) is on screen beside the label.
    assert.ok(
      Math.abs(firstWidth - DEFAULT_SIDE_BAR) <= 10,
      `a fresh workbench's side bar is ${firstWidth} px, not the default ${DEFAULT_SIDE_BAR}`,
    );
    assert.ok(Math.abs((await wb.sideBarWidth()) - DEFAULT_SIDE_BAR) <= 10, 'still at the default width');
    await assertStateVisible(job);
    const done = await rowLabel(job, /^Completed: agent job .*, \d+ s, \d+ \/ 900 credits$/, 30_000);
    assert.match(done, new RegExp(prompt));
    assert.equal(await iconOf(job), 'pass');
    assert.ok(!(await inlineActions(job)).some((a) => /Cancel/.test(a)), 'no Cancel on a completed job');
    assert.ok(
      (await inlineActions(job)).some((a) => /Open Result/.test(a)),
      'Open Result on a completed job',
    );
    const note = await wb.waitForNotification(/Agent job ".*" completed using \d+ credits/, 15_000);
    assert.match(note, /E2E HTTP findings/);
    const buttons = await wb.page
      .locator('.notification-toast')
      .filter({ hasText: /E2E HTTP findings/ })
      .locator('.monaco-button')
      .allInnerTexts();
    assert.deepEqual(buttons.slice(0, 2), ['Open Result', 'Show in Tree'], 'Open Result first');
    await shootNotification(/E2E HTTP findings/, 'job completed with notification (light)');
    await wb.useTheme('dark');
    await shootNotification(/E2E HTTP findings/, 'job completed with notification (dark)');
    await wb.useTheme('hc');
    await shootNotification(/E2E HTTP findings/, 'job completed with notification (high contrast)');
    // Back to light: the workbench's default, as the other browser tests expect to find it.
    await wb.useTheme('light');
    // The rest at a width where whole rows can be read.
    await showJobsView();
  });

  it('expands the completed job and opens a snapshot from an artifact event as pretty JSON', async () => {
    const job = jobRow('E2E HTTP findings');
    await job.click();
    await wb.page.keyboard.press('ArrowRight');
    // The orchestrator is expanded by default; its first `append` artifact event holds the first finding.
    const orchestrator = wb
      .pane(VIEW)
      .locator('.monaco-list-row')
      .filter({ hasText: /orchestrator/ })
      .first();
    await orchestrator.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(
      await orchestrator.innerText(),
      /^orchestrator\s*completed · \d+ events$/,
      'the role is not said twice',
    );
    // One row per tool call, with its duration.
    const tool = wb
      .pane(VIEW)
      .locator('.monaco-list-row')
      .filter({ hasText: /^tool (navigate|extract|spawn_subagent) · \d+(\.\d)? s/ })
      .first();
    await tool.waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(
      await wb
        .pane(VIEW)
        .locator('.monaco-list-row')
        .filter({ hasText: /tool \S+ finished/ })
        .count(),
      0,
      'no separate finish rows',
    );
    await wb.useTheme('dark');
    await wb.screenshot('merged tool-call rows (dark)');
    await wb.useTheme('hc');
    await wb.screenshot('merged tool-call rows (high contrast)');
    await wb.useTheme('light');
    await wb.screenshot('merged tool-call rows (light)');
    const artifact = wb
      .pane(VIEW)
      .locator('.monaco-list-row')
      .filter({ hasText: /artifact result \(json\) append/ })
      .first();
    await artifact.waitFor({ state: 'visible', timeout: 15_000 });
    await wb.screenshot('job expanded');
    const actions = await inlineActions(artifact);
    assert.ok(actions.includes('Open Snapshot'), `inline actions of the artifact event: ${JSON.stringify(actions)}`);
    await artifact.locator('.actions .action-label[aria-label="Open Snapshot"]').click();

    const tab = wb.page.locator('.tabs-container .tab.active');
    await tab.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match((await tab.getAttribute('aria-label')) ?? '', /\.json/);
    const lines = wb.page.locator('.editor-instance .monaco-editor .view-lines .view-line');
    await lines.first().waitFor({ state: 'visible', timeout: 15_000 });
    await wb.page.waitForFunction(
      () => document.querySelectorAll('.editor-instance .monaco-editor .view-lines .view-line').length > 3,
    );
    const text = (await lines.allInnerTexts()).map((l) => l.replace(/\u00a0/g, ' '));
    // Pretty JSON: an opening brace alone on the first line, then indented keys, one per line.
    assert.equal(
      text.map((l) => l.trim()).find((l) => l.length > 0),
      '{',
      `editor text: ${JSON.stringify(text.slice(0, 5))}`,
    );
    assert.ok(
      text.some((l) => /^ {2}"items": \[/.test(l)),
      `an indented "items" key: ${JSON.stringify(text.slice(0, 5))}`,
    );
    assert.ok(
      text.some((l) => /^ {6}"title": "Finding 1/.test(l)),
      `an indented finding: ${JSON.stringify(text.slice(0, 8))}`,
    );
    await wb.screenshot('snapshot open as pretty JSON');
  });

  it('a refused job says so with Start Again…, which opens the start flow filled with its prompt', async () => {
    const prompt = 'E2E REFUSE this task';
    await startFromPalette(prompt, '');
    const note = await wb.waitForNotification(/The agent declined job "E2E REFUSE this task"/, 20_000);
    assert.match(note, /and it is not billed; rephrase the prompt and start it again\.$/);
    const item = wb.page
      .locator('.notification-list-item')
      .filter({ hasText: /declined job "E2E REFUSE/ })
      .first();
    assert.deepEqual((await item.locator('.monaco-button').allInnerTexts()).slice(0, 2), [
      'Start Again…',
      'Show in Tree',
    ]);
    await rowLabel(jobRow(prompt), /^Refused: /, 15_000);
    await shootNotification(/declined job "E2E REFUSE/, 'refused job with notification (light)');
    await wb.useTheme('dark');
    await shootNotification(/declined job "E2E REFUSE/, 'refused job with notification (dark)');
    await wb.useTheme('hc');
    await shootNotification(/declined job "E2E REFUSE/, 'refused job with notification (high contrast)');
    await wb.useTheme('light');
    if (!(await item.isVisible())) await wb.runCommand('Notifications: Show Notifications');
    await item.getByRole('button', { name: 'Start Again…' }).click();
    // Step 1 of the start flow, its prompt filled with the refused job's.
    const widget = wb.page.locator('.quick-input-widget');
    await widget
      .locator('.quick-input-message')
      .filter({ hasText: /What should the agent do/ })
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await widget.locator('input.input').inputValue(), prompt);
    await wb.screenshot('Start Again opens the start flow with the prompt');
    await wb.page.keyboard.press('Escape');
    await widget.waitFor({ state: 'hidden' });
  });

  it('cancels a running SLOW job from the tree and shows it as cancelled with a notification', async () => {
    const prompt = 'E2E SLOW to cancel';
    // A SLOW run (about 50 s) is seen running at the default side bar width, in light and dark.
    await wb.setSideBarWidth(DEFAULT_SIDE_BAR);
    await fetch(`${e2e.sandboxUrl()}/__sandbox/requests`, { method: 'DELETE' });
    await startFromPalette(prompt, '');
    const job = jobRow(prompt);
    await job.waitFor({ state: 'visible', timeout: 15_000 }).catch(async (e: unknown) => {
      await wb.screenshot('no row for the SLOW job');
      throw new Error(
        `no row for the SLOW job; rows ${JSON.stringify(await wb.treeItems(VIEW))}, notifications ${JSON.stringify(await wb.notifications())}: ${String(e)}`,
      );
    });
    await rowLabel(job, /^Running: agent job /, 10_000);
    assert.equal(await iconOf(job), 'sync~spin');
    await assertStateVisible(job);
    await wb.screenshot('job running at the default side bar width (light)');
    await wb.useTheme('dark');
    await rowLabel(job, /^Running: agent job /, 5_000);
    await wb.screenshot('job running at the default side bar width (dark)');
    await wb.useTheme('hc');
    await rowLabel(job, /^Running: agent job /, 5_000);
    await assertStateVisible(job);
    await wb.screenshot('job running at the default side bar width (high contrast)');
    await wb.useTheme('light');
    await showJobsView();
    // Let the run produce events first (the extension's first read of the job's trace has reached the sandbox), so
    // the cancel stops a run that is under way.
    await until(
      sandboxRequests,
      (rs) => rs.some((r) => r.method === 'GET' && /^\/v2\/agent\/[0-9a-f-]{36}\/trace$/.test(r.path)),
      { timeoutMs: 20_000, stepMs: 200, message: () => 'no poll of the SLOW job reached the sandbox' },
    );
    const actions = await inlineActions(job);
    assert.ok(actions.includes('Cancel Agent Job'), `inline actions of a running job: ${JSON.stringify(actions)}`);
    await wb.screenshot('running job with its Cancel action');
    await fetch(`${e2e.sandboxUrl()}/__sandbox/requests`, { method: 'DELETE' });
    await job.locator('.actions .action-label[aria-label="Cancel Agent Job"]').click();
    const ended = await rowLabel(job, /^Cancelled: agent job .*, \d+ s, (\d+ credits spent|0 \/ \d+ credits)$/, 30_000);
    assert.match(ended, new RegExp(prompt));
    assert.equal(await iconOf(job), 'circle-slash');
    const cancels = (await sandboxRequests()).filter((r) => r.method === 'DELETE' && r.path.startsWith('/v2/agent/'));
    assert.equal(cancels.length, 1, 'one cancel request');
    assert.ok(!(await inlineActions(job)).includes('Cancel Agent Job'), 'no Cancel once it has ended');
    const note = await wb.waitForNotification(
      /was cancelled\. (It used \d+ credits before it stopped|Cancelled runs are not billed)/,
      15_000,
    );
    assert.match(note, /E2E SLOW to cancel/);
    await wb.screenshot('job cancelled with notification');
  });
});
