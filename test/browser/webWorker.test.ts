// Issue 24: the web extension's bundle (dist/web/extension.js) in a real chromium Web Worker with the
// browser's own fetch against the sandbox on another origin (so CORS is real), and a small fake `vscode`
// module (test/browser/fixtures/fakeVscode.js) in place of VS Code's web worker extension host (the real one,
// in code-server: test/e2e/webHost.test.ts; docs/TESTING.md, "The web extension"). Covers a search from the palette, a
// repository-scoped search from a vscode-vfs://github/... folder with its manifests read through
// workspace.fs, an agent job started, polled to its end and a second one cancelled, and what the browser
// leaves out. The Search view's real app then renders what the worker posted, for the screenshots.
import assert from 'node:assert/strict';
import { readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { launchBrowser, openView, repoRoot, screenshotDir, startPageServer, type BrowserHandle, type PageServer } from './harness';
import { startWorkerPage } from './webWorkerPage';

const KEY = 'sk-web-worker-0123456789abcdef';
const FOLDER = 'vscode-vfs://github/fetchline/fetchline';

type Msg = { type: string; requestId?: string; params?: { query: string; repos?: string[] }; outcome?: { results: Array<{ id: string }> }; error?: unknown };
interface WorkerState { messages: Array<{ severity: string; text: string }>; toWebview: Msg[]; external: string[]; log: string[] }

describe('the web extension in a chromium Web Worker (fetch, CORS, workspace.fs)', () => {
  let sb: Sandbox;
  let browser: BrowserHandle;
  let host: { origin: string; close(): Promise<void> };
  let page: Page;
  let views: PageServer;
  let activation: { loadMs: number; activateMs: number; required: string[]; isWorker: boolean; hasProcess: boolean };
  const rpc = <T>(op: string, payload?: unknown): Promise<T> => page.evaluate(([o, p]) => (window as unknown as { rpc(o: string, p: unknown): Promise<unknown> }).rpc(o, p), [op, payload] as const) as Promise<T>;
  const state = () => rpc<WorkerState>('state');
  const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const v = await probe();
      if (v !== undefined) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const outcomeOf = async (requestId: string): Promise<Msg> => waitFor(`the outcome of ${requestId}`, async () =>
    (await state()).toWebview.find((m) => m.requestId === requestId && (m.type === 'results' || m.type === 'searchError')));
  const started = async (after: number): Promise<Msg> => waitFor('searchStarted', async () => (await state()).toWebview.slice(after).find((m) => m.type === 'searchStarted'));

  before(async () => {
    sb = await startSandbox({ port: 0, wire: 'production', keys: [KEY], faults: true, quiet: true, agentSpeed: 20 });
    host = await startWorkerPage();
    views = await startPageServer();
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.goto(`${host.origin}/`);
    const packageJson = JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as unknown;
    activation = await rpc('init', {
      settings: { 'devIndex.baseUrl': sb.url, 'devIndex.requestTimeoutSeconds': 20 },
      secrets: {},
      folders: [FOLDER],
      files: {
        [`${FOLDER}/package.json`]: JSON.stringify({ name: 'fetchline', dependencies: { 'keel-schema': '^2.6.0' }, devDependencies: { typescript: '~5.9.3' } }),
        [`${FOLDER}/package-lock.json`]: JSON.stringify({ lockfileVersion: 3, packages: { '': { name: 'fetchline' }, 'node_modules/keel-schema': { version: '2.6.0' }, 'node_modules/typescript': { version: '5.9.3' } } }),
        [`${FOLDER}/go.mod`]: 'module github.com/fetchline/fetchline\n\ngo 1.22\n\nrequire github.com/keel-dev/keel-schema v2.6.0\n',
      },
      packageJson,
    });
    await rpc('resolveView');
  });
  after(async () => {
    await browser?.close();
    await views?.close();
    await host?.close();
    await sb?.close();
  });

  it('activates in a worker: requires only vscode, no process object, a search from the palette over the browser\'s fetch', async () => {
    assert.ok(activation.isWorker, 'runs in a WorkerGlobalScope');
    assert.equal(activation.hasProcess, false);
    assert.deepEqual([...new Set(activation.required)], ['vscode']);
    const before = (await state()).toWebview.length;
    await rpc('exec', { command: 'devIndex.search.run', args: [{ query: 'retry after rate limit', types: ['issue', 'pull_request'] }] });
    const s = await started(before);
    const out = await outcomeOf(s.requestId!);
    assert.equal(out.type, 'results', JSON.stringify(out.error ?? ''));
    assert.ok((out.outcome?.results.length ?? 0) > 0);
    const log = (await state()).log.join('\n');
    assert.match(log, /GET \/v2\/search\/developer 200|POST \/v2\/search\/developer 200/);
    await shoot('search from the palette', s, out);
  });

  it('Search in This Repository scopes to the vscode-vfs folder\'s repository, with no git', async () => {
    const before = (await state()).toWebview.length;
    const r = await rpc<{ kind: string; repos?: string[] }>('exec', { command: 'devIndex.search.repository', args: [{ query: 'timeout' }] });
    assert.deepEqual(r, { kind: 'searched', repos: ['fetchline/fetchline'] });
    const s = await started(before);
    assert.deepEqual(s.params?.repos, ['fetchline/fetchline']);
    const out = await outcomeOf(s.requestId!);
    assert.equal(out.type, 'results', JSON.stringify(out.error ?? ''));
    const repoResults = out.outcome!.results.filter((x) => /^(issue|pull_request|readme):/.test(x.id));
    assert.ok(repoResults.length > 0 && repoResults.every((x) => x.id.includes('fetchline/fetchline')), out.outcome!.results.map((x) => x.id).join(', '));
    await shoot('search in this repository (vscode-vfs)', s, out);
  });

  it('a dependency search from manifests read through workspace.fs; npm rows are "not installed here"', async () => {
    const r = await rpc<{ rows: Array<{ name: string; slug?: string; version?: string; reason?: string }>; repos?: string[] }>('exec', { command: 'devIndex.deps.searchDependency', args: [{ pick: ['github.com/keel-dev/keel-schema'], query: 'schema' }] });
    const npm = r.rows.find((x) => x.name === 'keel-schema');
    assert.equal(npm?.version, '2.6.0');
    assert.equal(npm?.reason, 'not-installed');
    const go = r.rows.find((x) => x.name === 'github.com/keel-dev/keel-schema');
    assert.equal(go?.slug, 'keel-dev/keel-schema');
    assert.deepEqual(r.repos, ['keel-dev/keel-schema']);
    const read = (await state()).messages.filter((m) => m.severity === 'fs').map((m) => m.text);
    assert.ok(read.includes(`${FOLDER}/package.json`) && read.includes(`${FOLDER}/go.mod`), read.join(', '));
    assert.ok(!read.some((f) => f.includes('node_modules')));
  });

  it('an agent job: the key in SecretStorage, started, polled to its end in the Agent Jobs tree; another cancelled', async () => {
    await rpc('exec', { command: 'devIndex.auth.clearKey' });
    const refused = await rpc<unknown>('exec', { command: 'devIndex.agent.start', args: [{ prompt: 'no key yet' }] }).catch((e: Error) => e.message);
    assert.match(String(refused), /key/i);
    // Set API Key with the key as its argument (as a user types it): checked against the service, stored in SecretStorage.
    await rpc('exec', { command: 'devIndex.auth.setKey', args: [KEY] });
    assert.ok((await state()).messages.some((m) => /saved/i.test(m.text)), JSON.stringify((await state()).messages.slice(-3)));
    const id = await rpc<string>('exec', { command: 'devIndex.agent.start', args: [{ prompt: 'Collect TypeScript HTTP clients', urls: ['https://github.com/nodejs/undici'] }] });
    assert.match(id, /^[0-9a-f-]{36}$/);
    type Row = { label: string; description?: string; contextValue?: string };
    const rowOf = async (label: RegExp, state: RegExp): Promise<Row | undefined> =>
      (await rpc<Row[]>('tree')).find((x) => label.test(x.label) && state.test(x.description ?? ''));
    // Polled by the job store's own timer in the worker until the run ends: a completed row with its result to open.
    const done = await waitFor('the job to end in the tree', () => rowOf(/^Collect TypeScript/, /completed/), 90_000);
    assert.ok(done.contextValue?.includes('result'), JSON.stringify(done));
    const slow = await rpc<string>('exec', { command: 'devIndex.agent.start', args: [{ prompt: 'cancel me SLOW' }] });
    await rpc('exec', { command: 'devIndex.agent.cancel', args: [slow] });
    const status = await waitFor('the cancel to land', async () => {
      const r = await fetch(`${sb.url}/v2/agent/${slow}`, { headers: { authorization: `Bearer ${KEY}` } });
      const b = (await r.json()) as { status: string; error?: string };
      return b.status === 'processing' || b.status === 'cancelling' ? undefined : b;
    }, 30_000);
    assert.ok(status.status === 'cancelled' || /cancel/i.test(String(status.error)), JSON.stringify(status));
    await waitFor('the cancelled row', () => rowOf(/^cancel me SLOW/, /cancelled/), 30_000);
    const rows = await rpc<Row[]>('tree');
    const shot = await browser.context.newPage();
    await shot.setViewportSize({ width: 640, height: 240 });
    await shot.setContent(`<pre style="font: 13px monospace; padding: 12px">Agent Jobs, as the web extension's tree gives its rows in a Web Worker\n\n${rows.map((r) => `${r.label}  ${r.description ?? ''}`).join('\n').replace(/</g, '&lt;')}</pre>`);
    mkdirSync(screenshotDir(), { recursive: true });
    await shot.screenshot({ path: join(screenshotDir(), 'web-worker-agent-jobs.png') });
    await shot.close();
  });

  it('what the browser leaves out says why (terminal, MCP, the connection diagnosis), and the key never shows', async () => {
    for (const [command, why] of [['devIndex.deps.searchTerminalSelection', /local process/], ['devIndex.mcp.setup', /local process/], ['devIndex.diagnose', /DNS, TCP and TLS/]] as const) {
      const r = await rpc<{ unavailable: boolean; reason: string }>('exec', { command });
      assert.equal(r.unavailable, true);
      assert.match(r.reason, /not available in the browser/);
      assert.match(r.reason, why);
    }
    const s = await state();
    assert.ok(s.messages.some((m) => /not available in the browser/.test(m.text)), 'shown to the user');
    const everything = JSON.stringify(s);
    assert.ok(!everything.includes(KEY), 'the key is in no message, log line or posted message');
  });

  /** The Search view's real app (dist/webview.js) renders what the worker's extension side posted. */
  async function shoot(label: string, startedMsg: Msg, out: Msg): Promise<void> {
    const v = await openView(browser.context, views.origin, 'dark');
    const init = (await state()).toWebview.find((m) => m.type === 'init');
    if (init) await v.send(init as never);
    await v.send(startedMsg as never);
    await v.send(out as never);
    mkdirSync(screenshotDir(), { recursive: true });
    await v.page.screenshot({ path: join(screenshotDir(), `web-worker-${label.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`) });
    await v.page.close();
  }
});
