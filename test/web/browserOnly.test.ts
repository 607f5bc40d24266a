// The web build (dist/web/extension.js from the packaged .vsix) in a browser-only workbench, as
// vscode.dev runs it: VS Code's open-source web build served by @vscode/test-web, no server and no Node
// extension host at all (scripts/vscode/test-web.mjs). The folder is vscode-vfs://github/fetchline/fetchline
// (test/e2e/fixtures/vfs-fixture); the probe fixture (test/web/fixtures/web-probe) runs in the same web worker
// and reports what it sees. Asserted: activation with no `process` and uiKind Web, the commands and tools the web
// build registers, a left-out command saying so; a palette search whose results the Search webview renders
// (served from a *.localhost origin) with the sandbox seeing the browser's cross-origin fetch; Search in This
// Repository scoped to the browsed repository; Watch for a Fix; an agent job's row, its trace, a snapshot,
// its result document; a chat run's answer document and a follow-up making a thread. One browser for all.
// Screenshots in test-results/web/ (light theme, default side bar width).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { type Workbench, e2e } from '../e2e/workbench';
import { openBrowserOnlyWorkbench } from './browserOnlyWorkbench';
import { CHAT_MODE, DATA_MODE, answerStartFlow, rowLabel } from '../support/quickInput';
import { until } from '../support/until';

const VIEW = 'Agent Jobs';
const FOLDER = 'vscode-vfs://github/fetchline/fetchline';

interface Logged {
  method: string;
  path: string;
  query: string;
  body: unknown;
  auth: string;
  origin?: string;
}

interface Probe {
  ok: boolean;
  error?: string;
  activateMs: number;
  typeofProcess: string;
  typeofRequireResolve: string;
  globalScope: string;
  uiKind: string;
  remoteName: string | null;
  isActive: boolean;
  extensionKind: string;
  commands: string[];
  tools: string[];
  folders: string[];
  baseUrl: string;
}

async function sandboxRequests(method: 'GET' | 'DELETE' = 'GET'): Promise<Logged[]> {
  const r = await fetch(`${e2e.sandboxUrl()}/__sandbox/requests`, { method });
  return method === 'GET' ? ((await r.json()) as { requests: Logged[] }).requests : [];
}

const params = (r: Logged): string => `${decodeURIComponent(r.query)} ${JSON.stringify(r.body)}`;

describe('the web build in a browser-only workbench (no server extension host)', () => {
  let wb: Workbench;
  let probe: Probe;
  const origin = () => new URL(e2e.workbenchUrl()).origin;

  before(async () => {
    wb = await openBrowserOnlyWorkbench('web');
    // The probe's status bar item carries its report once devindex.devindex has activated.
    const item = wb.page.locator('.statusbar-item[aria-label^="devindex-web-probe {"]');
    await item.waitFor({ state: 'attached', timeout: 90_000 });
    probe = JSON.parse(((await item.getAttribute('aria-label')) ?? '').slice('devindex-web-probe '.length)) as Probe;
    await wb.activityItem('Developer Index').waitFor({ state: 'visible', timeout: 30_000 });
    // The probe turns the first-run walkthrough off, but the extension may activate before that setting lands; its
    // Welcome editor (a webview of its own) would then be the page's first webview. Activation is over: close it.
    await wb.runCommand('View: Close All Editors');
  });
  afterEach(async (t) => {
    await wb.screenshot(`${t.name} end`);
  });
  after(async () => {
    await wb?.close();
  });

  function row(text: string | RegExp): Locator {
    return wb.pane(VIEW).locator('.monaco-list-row').filter({ hasText: text }).first();
  }

  /**
   * Collapses or expands a side bar view by clicking its header's title: at the default side bar width the
   * header's middle (where Workbench.setViewExpanded clicks) is one of its actions.
   */
  async function setExpanded(view: string, expanded: boolean): Promise<void> {
    const header = wb.viewHeader(view);
    await header.waitFor({ state: 'visible' });
    const sel = `.sidebar .pane-header[aria-label="${view} Section"]`;
    // A click while the side bar is still laying out (a view just shown, a notification sliding in) can be lost: the
    // state is read again, and the title clicked again, until the header says it (at most five clicks).
    for (let clicks = 0; ((await header.getAttribute('aria-expanded')) === 'true') !== expanded; clicks++) {
      if (clicks === 5)
        assert.fail(
          `the ${view} view is not ${expanded ? 'expanded' : 'collapsed'} after ${clicks} clicks on its title`,
        );
      await header.locator('.title').first().click();
      await wb.page
        .waitForFunction(
          ([q, want]) => document.querySelector(q!)?.getAttribute('aria-expanded') === want,
          [sel, String(expanded)],
          { timeout: 3_000 },
        )
        .catch(() => undefined);
    }
  }

  /** The row's context menu entry, by its title (the entries hidden from the palette live there). */
  async function fromContextMenu(target: Locator, title: string): Promise<void> {
    await target.click({ button: 'right' });
    const item = wb.page.locator('.context-view .monaco-menu .action-item').filter({ hasText: title }).first();
    await item.waitFor({ state: 'visible', timeout: 10_000 });
    // A click right after the menu opened is taken for the end of the right-click and ignored: hover, then Enter.
    await item.hover();
    await wb.page.keyboard.press('Enter');
    await item.waitFor({ state: 'hidden', timeout: 10_000 });
  }

  /** The text of the active editor's visible lines (a text document the extension opened). */
  /**
   * The active editor's visible lines once `shows` holds for them: a document just opened is drawn in steps (the
   * previous editor, then blank lines, then the text), so the text is read until it is the one expected.
   */
  async function editorText(shows: (text: string) => boolean): Promise<string[]> {
    const lines = wb.page.locator('.editor-instance .monaco-editor .view-lines .view-line');
    await lines.first().waitFor({ state: 'visible', timeout: 15_000 });
    return until(
      async () => (await lines.allInnerTexts()).map((l) => l.replace(/\u00a0/g, ' ')),
      (l) => l.length > 2 && shows(l.join('\n')),
      {
        timeoutMs: 15_000,
        message: (l) => `the editor shows the document (it shows: ${JSON.stringify((l ?? []).slice(0, 4))})`,
      },
    );
  }

  async function activeTab(): Promise<string> {
    const tab = wb.page.locator('.tabs-container .tab.active');
    await tab.waitFor({ state: 'visible', timeout: 15_000 });
    return (await tab.getAttribute('aria-label')) ?? '';
  }

  async function startJob(prompt: string, mode: 'data' | 'chat'): Promise<void> {
    if (await wb.page.locator('.quick-input-widget').isVisible()) await wb.page.keyboard.press('Escape');
    await wb.runCommand('View: Close All Editors').catch(() => undefined);
    await wb.runCommand('Developer Index: Start Agent Job…');
    await answerStartFlow(wb.page, { prompt, credits: '900', mode: mode === 'chat' ? CHAT_MODE : DATA_MODE });
    await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  }

  it('activates in the web worker with no `process`, uiKind Web and no remote, and registers its commands and tools', async () => {
    assert.ok(probe.ok, `the probe activated the extension: ${probe.error ?? ''}`);
    assert.equal(probe.isActive, true);
    assert.equal(probe.typeofProcess, 'undefined', 'no Node `process` in the worker');
    assert.equal(probe.globalScope, 'DedicatedWorkerGlobalScope', 'a web worker');
    assert.equal(probe.uiKind, 'Web');
    assert.equal(probe.remoteName, null, 'no remote: the workbench has no server extension host');
    assert.deepEqual(probe.folders, [FOLDER]);
    assert.equal(probe.baseUrl, e2e.sandboxUrl());
    for (const id of [
      'devIndex.search.run',
      'devIndex.search.repository',
      'devIndex.agent.start',
      'devIndex.agent.followUp',
      'devIndex.agent.openTrace',
      'devIndex.agent.openSnapshot',
      'devIndex.agent.openAnswer',
      'devIndex.watch.add',
      'devIndex.auth.setKey',
      'devIndex.diagnose',
    ]) {
      assert.ok(probe.commands.includes(id), `${id} registered (of ${probe.commands.length})`);
    }
    // The language model tools the manifest contributes are registered in the worker (vscode.lm.tools).
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
      contributes: { languageModelTools: Array<{ name: string }> };
    };
    const contributed = manifest.contributes.languageModelTools.map((t) => t.name).sort();
    assert.ok(contributed.length >= 8, `package.json contributes the tools: ${JSON.stringify(contributed)}`);
    assert.deepEqual([...probe.tools].sort(), contributed, 'every contributed tool registered by the web build');
    console.log(
      `the probe: activate() ${probe.activateMs} ms, ${probe.commands.length} commands, ${probe.tools.length} tools`,
    );
    // Only one host: the Running Extensions view lists the extension and names no server.
    await wb.runCommand('Developer: Show Running Extensions');
    const ours = wb.page
      .locator('.runtime-extensions-editor .monaco-list-row')
      .filter({ hasText: /Developer Index Search|devindex\.devindex/ })
      .first();
    await ours.waitFor({ state: 'visible', timeout: 60_000 });
    const rows = (await wb.page.locator('.runtime-extensions-editor .monaco-list-row').allInnerTexts()).map((t) =>
      t.replace(/\s+/g, ' '),
    );
    assert.ok(
      rows.every((t) => !/127\.0\.0\.1:\d+|Remote/i.test(t)),
      `no extension on a server host: ${JSON.stringify(rows)}`,
    );
    await wb.screenshot('running extensions');
    await wb.runCommand('View: Close All Editors');
    await wb.runCommand('Developer Index: Diagnose Connection');
    const note = await wb.waitForNotification(/is not available in the browser/, 30_000);
    assert.match(note, /Diagnose Connection is not available in the browser: .*It works in desktop VS Code\./);
  });

  it("a search from the palette: the browser's fetch reaches the sandbox and the Search webview renders the results", async () => {
    await sandboxRequests('DELETE');
    const t0 = Date.now();
    await wb.runCommand('Developer Index: Search…');
    await wb.answerInputBox('discriminated unions');
    await wb.openContainer('Developer Index');
    const view = wb.webview();
    const first = view.locator('li.row').first();
    await first.waitFor({ state: 'visible', timeout: 60_000 });
    console.log(`palette to the first result row: ${Date.now() - t0} ms (with the webview's first load)`);
    await view.getByText('Discriminated unions', { exact: true }).first().waitFor({ state: 'visible' });
    assert.match(await view.locator('#results-region p.summary').innerText(), /results? for “discriminated unions”/);
    await wb.assertInViewport(first, 'the first result');
    // The webview's documents come from a *.localhost origin that test-web serves.
    const frame = await wb.webviewFrame();
    assert.match(new URL(frame.url()).hostname, /\.localhost$/, `the webview's origin: ${frame.url()}`);
    await wb.screenshot('search view with results from the palette');
    const searches = (await sandboxRequests()).filter(
      (r) => r.path.startsWith('/v2/search') && params(r).includes('discriminated unions'),
    );
    assert.ok(searches.length >= 1, 'the sandbox saw the search');
    for (const s of searches)
      assert.equal(s.origin, origin(), `a cross-origin fetch from the workbench: ${JSON.stringify(s)}`);
  });

  it('Search in This Repository on the vscode-vfs folder scopes the search to fetchline/fetchline', async () => {
    await sandboxRequests('DELETE');
    await wb.runCommand('Developer Index: Search in This Repository…');
    await wb.answerInputBox('retry on 429 with Retry-After', { prompt: /question or search phrase/i });
    const view = wb.webview();
    await view
      .locator('#chips .chip', { hasText: 'fetchline/fetchline' })
      .waitFor({ state: 'visible', timeout: 60_000 });
    // The chip shows when the search begins, beside the rows of the search before: this search's own summary is the
    // sign that its results are listed.
    await view
      .locator('.summary', { hasText: /results? for “retry on 429 with Retry-After” in fetchline\/fetchline/ })
      .waitFor({ state: 'visible', timeout: 60_000 });
    await view.locator('li.row').first().waitFor({ state: 'visible' });
    assert.deepEqual(await view.locator('#chips .chip-label').allInnerTexts(), ['fetchline/fetchline']);
    await wb.screenshot('search in this repository');
    const searches = (await sandboxRequests()).filter((r) => r.path.startsWith('/v2/search'));
    assert.ok(
      searches.some((r) => new URLSearchParams(r.query).getAll('repos').join(',') === 'fetchline/fetchline'),
      `scoped: ${JSON.stringify(searches)}`,
    );
  });

  it("sets the API key; an agent job's row in the Agent Jobs tree, its trace, a snapshot and its result document", async () => {
    await wb.runCommand('Developer Index: Set API Key');
    await wb.answerInputBox(e2e.testKey(), { prompt: /secret storage/i });
    await wb.waitForNotification(/API key saved/i, 30_000);
    await sandboxRequests('DELETE');
    const prompt = 'WEB findings';
    await startJob(prompt, 'data');
    await wb.openContainer('Developer Index');
    await setExpanded('Search', false);
    await setExpanded(VIEW, true);
    const job = row(prompt);
    await job.waitFor({ state: 'visible', timeout: 30_000 });
    await rowLabel(job, /^Completed: agent job .*, \d+ s, \d+ \/ 900 credits$/, 60_000);
    await wb.screenshot('agent jobs tree with the completed job');
    const submits = (await sandboxRequests()).filter((r) => r.method === 'POST' && r.path === '/v2/agent');
    assert.equal(submits.length, 1, 'exactly one submission');
    assert.equal(submits[0]!.auth, 'valid');
    assert.equal(submits[0]!.origin, origin(), 'submitted by the browser');

    // The trace, as JSON, from the row's context menu.
    await fromContextMenu(job, 'Open Trace as JSON');
    const trace = (await editorText((t) => /"events"|"role"|"orchestrator"/.test(t))).join('\n');
    assert.match(trace, /"events"|"role"|"orchestrator"/, `the trace: ${trace.slice(0, 300)}`);
    await wb.screenshot('trace as JSON');

    // A snapshot from an artifact event's inline Open Snapshot (the job expanded; its orchestrator is open by default).
    await job.click();
    await wb.page.keyboard.press('ArrowRight');
    const artifact = wb
      .pane(VIEW)
      .locator('.monaco-list-row')
      .filter({ hasText: /artifact result \(json\) append/ })
      .first();
    await artifact.waitFor({ state: 'visible', timeout: 15_000 });
    await wb.screenshot('job expanded with its agents and events');
    await artifact.hover();
    await artifact.locator('.actions .action-label[aria-label="Open Snapshot"]').click();
    assert.match(await activeTab(), /\.json/);
    const snap = await editorText((t) => t.trim().startsWith('{') && t !== trace);
    assert.equal(
      snap.map((l) => l.trim()).find((l) => l.length > 0),
      '{',
      `pretty JSON: ${JSON.stringify(snap.slice(0, 4))}`,
    );
    await wb.screenshot('snapshot as pretty JSON');

    // The result document.
    await fromContextMenu(job, 'Open Result');
    const result = (await editorText((t) => /Finding 1/.test(t))).join('\n');
    assert.match(result, /Finding 1/, `the result: ${result.slice(0, 300)}`);
    await wb.screenshot('result document');
    // The key went to the sandbox as a bearer token, never onto the page.
    const html = [
      await wb.page.content(),
      ...(await Promise.all(wb.page.frames().map((f) => f.content().catch(() => '')))),
    ].join('\n');
    assert.ok(!html.includes(e2e.testKey()), 'the API key appears in the workbench or a webview');
  });

  it('a chat run: its answer document, then Ask a Follow-up… makes a thread of two turns', async () => {
    const prompt = 'WEB explain retries';
    await startJob(prompt, 'chat');
    await wb.waitForNotification(new RegExp(`Agent job "${prompt}" completed`), 60_000);
    const toast = wb.page.locator('.notification-list-item').filter({ hasText: prompt }).first();
    await toast.getByRole('button', { name: 'Open Answer' }).click();
    assert.match(await activeTab(), new RegExp(`Preview answer — ${prompt}`));
    const heading = wb.page
      .locator('iframe.webview.ready')
      .last()
      .contentFrame()
      .locator('#active-frame')
      .contentFrame()
      .locator('h2')
      .first();
    await heading.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await heading.innerText(), new RegExp(`^Answer: ${prompt}`));
    await wb.screenshot('chat answer document');
    await wb.runCommand('View: Close All Editors');

    const job = row(prompt);
    await job.hover();
    await job.locator('.actions .action-label[aria-label="Ask a Follow-up…"]').click();
    const widget = wb.page.locator('.quick-input-widget');
    await widget.locator('input.input').waitFor({ state: 'visible' });
    await widget.locator('input.input').fill('WEB and the backoff');
    await widget
      .locator('.quick-input-list .monaco-list-row')
      .filter({ hasText: /Ask: WEB and the backoff/ })
      .first()
      .waitFor({ state: 'visible' });
    await wb.page.keyboard.press('Enter');
    await widget.waitFor({ state: 'hidden' });
    await rowLabel(row(prompt), /^Completed: agent thread .*\b2 turns\b/, 60_000);
    await row(/^2\. WEB and the/).waitFor({ state: 'visible', timeout: 15_000 });
    await wb.screenshot('thread with two turns');
  });

  it('Watch for a Fix on the repository-scoped search: the watch is kept in the browser and listed in the Search view', async () => {
    await setExpanded(VIEW, false);
    await setExpanded('Search', true);
    await wb.runCommand('Developer Index: Search in This Repository…');
    await wb.answerInputBox('retry on 429 with Retry-After', { prompt: /question or search phrase/i });
    const view = wb.webview();
    const watch = view.getByRole('button', {
      name: /^Watch for a Fix: re-run “retry on 429 with Retry-After” in fetchline\/fetchline/,
    });
    await watch.waitFor({ state: 'visible', timeout: 60_000 });
    await watch.click();
    const item = view.locator('.watch-item').filter({ hasText: 'retry on 429 with Retry-After' });
    await item.waitFor({ state: 'visible', timeout: 30_000 });
    await wb.scrollToTop(view.locator('.watched'));
    await wb.screenshot('watched list');
    await item.getByRole('button', { name: /^Remove the watch/ }).click();
    await view.locator('.watched').waitFor({ state: 'hidden', timeout: 10_000 });
  });
});
