// Browser UI: the web build (dist/web/extension.js, package.json `browser`) in code-server's real
// web worker extension host. The runner starts a second code-server for this file, with the same .vsix
// installed and the user setting `remote.extensionKind: { "devindex.devindex": ["web"] }`, so the workbench
// runs the extension's `browser` entry in its web worker (its `main` never runs), and with the folder
// vscode-vfs://github/fetchline/fetchline from an in-memory file system (test/e2e/fixtures/vfs-fixture, in
// place of GitHub Repositories, which needs the network). Asserted: the Running Extensions view places the
// extension in the "web worker" (the built-in ones on the server), a left-out command says it is not
// available in the browser, the sandbox receives the searches with the workbench's Origin header (a
// browser's cross-origin fetch; Node's fetch sends none); a palette search, Search in This Repository
// from the vscode-vfs folder, Set API Key, an agent job to its end in the Agent Jobs tree. Screenshots in
// test-results/e2e/web-host-*.png.
import * as assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { Workbench, e2e } from './workbench';
import { DATA_MODE, answerStartFlow, rowLabel } from '../support/quickInput';

const VIEW = 'Agent Jobs';
const EXTENSION = 'Developer Index Search';

interface Logged {
  method: string;
  path: string;
  query: string;
  body: unknown;
  auth: string;
  origin?: string;
}

/** A search's parameters, from its query string (GET) or its body (POST). */
const params = (r: Logged): string => `${decodeURIComponent(r.query)} ${JSON.stringify(r.body)}`;

async function sandboxRequests(method: 'GET' | 'DELETE' = 'GET'): Promise<Logged[]> {
  const r = await fetch(`${e2e.sandboxUrl()}/__sandbox/requests`, { method });
  return method === 'GET' ? ((await r.json()) as { requests: Logged[] }).requests : [];
}

describe("the web build in code-server's web worker extension host", () => {
  let wb: Workbench;
  const url = process.env.DEVINDEX_E2E_WEB_HOST_WORKBENCH_URL;
  const origin = () => new URL(url!).origin;

  before(async () => {
    assert.ok(
      url,
      'DEVINDEX_E2E_WEB_HOST_WORKBENCH_URL is set (npm run test:e2e starts the web host code-server for this file)',
    );
    wb = await Workbench.open('web-host', { url });
    // The container appears once the extension's contributions are read; its commands are in the palette from then on.
    await wb.activityItem('Developer Index').waitFor({ state: 'visible', timeout: 60_000 });
  });
  afterEach(async (t) => {
    await wb.screenshot(`${t.name} end`);
  });
  after(async () => {
    await wb?.runCommand('Developer Index: Clear API Key').catch(() => undefined);
    await wb?.close();
  });

  it('runs in the web worker: the Running Extensions view says so, and a command the browser build leaves out says it is not available', async () => {
    await wb.runCommand('Developer: Show Running Extensions');
    const rows = wb.page.locator('.runtime-extensions-editor .monaco-list-row');
    const ours = rows.filter({ hasText: EXTENSION }).first();
    const t0 = Date.now();
    // The view lists the hosts' extensions once every host has answered (on 2 busy cores, up to a minute).
    await ours.waitFor({ state: 'visible', timeout: 120_000 });
    console.log(`the Running Extensions view listed the extension after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const text = (await ours.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /web worker/i, `the extension's row: ${text}`);
    assert.doesNotMatch(text, /127\.0\.0\.1:\d+/, `not on the server's extension host: ${text}`);
    // The same view names the server's host for the built-in extensions that run there (the contrast the row above relies on).
    const all = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
    assert.ok(
      all.some((t) => /127\.0\.0\.1:\d+/.test(t) && !t.includes(EXTENSION)),
      `a built-in extension on the server's host: ${JSON.stringify(all)}`,
    );
    await wb.screenshot('running extensions');
    await wb.runCommand('View: Close All Editors');
    // The desktop build would run the diagnosis; the browser build registers the command to say why it cannot.
    const t1 = Date.now();
    await wb.runCommand('Developer Index: Diagnose Connection');
    const note = await wb.waitForNotification(/is not available in the browser/, 60_000);
    console.log(`the left-out command's notification after ${((Date.now() - t1) / 1000).toFixed(1)} s`);
    assert.match(note, /Diagnose Connection is not available in the browser: .*It works in desktop VS Code\./);
  });

  it("runs a search from the palette: the browser's fetch reaches the sandbox and the Search view shows the results", async () => {
    await sandboxRequests('DELETE');
    await wb.runCommand('Developer Index: Search…');
    await wb.answerInputBox('discriminated unions');
    await wb.openContainer('Developer Index');
    const view = wb.webview();
    const hit = view.getByText('Discriminated unions', { exact: true }).first();
    await hit.waitFor({ state: 'visible', timeout: 60_000 });
    assert.match(await view.locator('#results-region p.summary').innerText(), /results? for “discriminated unions”/);
    await wb.assertInViewport(hit, 'the first result');
    await wb.screenshot('search view with results from the palette');
    const searches = (await sandboxRequests()).filter(
      (r) => r.path.startsWith('/v2/search') && params(r).includes('discriminated unions'),
    );
    assert.ok(searches.length >= 1, `the sandbox saw the search: ${JSON.stringify(await sandboxRequests())}`);
    for (const s of searches)
      assert.equal(s.origin, origin(), `a cross-origin fetch from the workbench's page: ${JSON.stringify(s)}`);
  });

  it('Search in This Repository from the vscode-vfs folder scopes the search to fetchline/fetchline', async () => {
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
    assert.deepEqual(
      await view.locator('#chips .chip-label').allInnerTexts(),
      ['fetchline/fetchline'],
      'only the browsed repository (no git remotes in a browser)',
    );
    await wb.screenshot('search in this repository from vscode-vfs');
    const searches = (await sandboxRequests()).filter((r) => r.path.startsWith('/v2/search'));
    assert.ok(
      searches.some(
        (r) =>
          new URLSearchParams(r.query).getAll('repos').join(',') === 'fetchline/fetchline' &&
          params(r).includes('retry on 429'),
      ),
      `a search scoped to the repository: ${JSON.stringify(searches)}`,
    );
    assert.ok(
      searches.every((r) => r.origin === origin()),
      'from the browser',
    );
  });

  it('sets the API key and runs an agent job to its end in the Agent Jobs tree', async () => {
    await wb.runCommand('Developer Index: Set API Key');
    await wb.answerInputBox(e2e.testKey(), { prompt: /secret storage/i });
    await wb.waitForNotification(/API key saved/i, 30_000);
    await sandboxRequests('DELETE');
    const prompt = 'E2E web host findings';
    await wb.runCommand('Developer Index: Start Agent Job…');
    await answerStartFlow(wb.page, { prompt, credits: '900', mode: DATA_MODE });
    await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await wb.openContainer('Developer Index');
    await wb.giveViewTheSideBar(VIEW, ['Search']);
    const job = wb.pane(VIEW).locator('.monaco-list-row').filter({ hasText: prompt }).first();
    await job.waitFor({ state: 'visible', timeout: 30_000 });
    const done = await rowLabel(job, /^Completed: agent job .*, \d+ s, \d+ \/ 900 credits$/, 60_000);
    assert.match(done, new RegExp(prompt));
    await wb.waitForNotification(/Agent job ".*" completed using \d+ credits/, 30_000);
    await wb.screenshot('agent jobs tree with the completed job');
    const submits = (await sandboxRequests()).filter((r) => r.method === 'POST' && r.path === '/v2/agent');
    assert.equal(submits.length, 1, 'exactly one submission');
    assert.equal(submits[0]!.auth, 'valid');
    assert.equal(submits[0]!.origin, origin(), 'submitted by the browser');
    // The key went to the sandbox as a bearer token, never onto the page.
    const html = [
      await wb.page.content(),
      ...(await Promise.all(wb.page.frames().map((f) => f.content().catch(() => '')))),
    ].join('\n');
    assert.ok(!html.includes(e2e.testKey()), 'the API key appears in the workbench or a webview');
  });
});
