// The web extension's bundle (dist/web/extension.js) in a real chromium Web Worker with the
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
import { startSandbox } from '../../sandbox/server';
import { type Sandbox } from '../../sandbox/serverParts';
import {
  launchBrowser,
  openView,
  repoRoot,
  screenshotDir,
  startPageServer,
  type BrowserHandle,
  type PageServer,
} from './harness';
import { startWorkerPage } from './webWorkerPage';
import { defined } from '../support/until';
import { EDITOR_TOOL_NAMES } from '../../src/tools/names';

const KEY = 'sk-web-worker-0123456789abcdef';
const FOLDER = 'vscode-vfs://github/fetchline/fetchline';

type Msg = {
  type: string;
  requestId?: string;
  params?: { query: string; repos?: string[]; types?: string[] };
  notice?: string;
  outcome?: { results: Array<{ id: string }> };
  error?: unknown;
};
interface WorkerState {
  messages: Array<{ severity: string; text: string }>;
  toWebview: Msg[];
  external: string[];
  log: string[];
  commands: string[];
  /** The workbench's own commands the extension ran (none of its own), with their plain arguments. */
  workbenchCommands: Array<{ id: string; args: unknown[] }>;
  /** Documents shown: in an editor (showTextDocument) or the Markdown preview (markdown.showPreview). */
  documents: Array<{ how: 'editor' | 'preview'; uri: string; text: string }>;
  quickPicks: Array<{
    title?: string;
    items: Array<{ label: string; description?: string; detail?: string }>;
    picked?: string;
  }>;
}
/** A row of the Agent Jobs tree as the worker's tree provider gives it (webWorkerHost.js, rowOf). */
type Row = {
  id: string;
  label: string;
  description?: string;
  contextValue?: string;
  accessibleName?: string;
  collapsible?: number;
  command?: string;
};

describe('the web extension in a chromium Web Worker (fetch, CORS, workspace.fs)', () => {
  let sb: Sandbox;
  let browser: BrowserHandle;
  let host: { origin: string; close(): Promise<void> };
  let page: Page;
  let views: PageServer;
  let activation: { loadMs: number; activateMs: number; required: string[]; isWorker: boolean; hasProcess: boolean };
  const rpc = <T>(op: string, payload?: unknown): Promise<T> =>
    page.evaluate(([o, p]) => (window as unknown as { rpc(o: string, p: unknown): Promise<unknown> }).rpc(o, p), [
      op,
      payload,
    ] as const) as Promise<T>;
  const state = () => rpc<WorkerState>('state');
  const waitFor = <T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> =>
    defined(probe, what, ms);
  const outcomeOf = async (requestId: string): Promise<Msg> =>
    waitFor(`the outcome of ${requestId}`, async () =>
      (await state()).toWebview.find(
        (m) => m.requestId === requestId && (m.type === 'results' || m.type === 'searchError'),
      ),
    );
  const started = async (after: number): Promise<Msg> =>
    waitFor('searchStarted', async () =>
      (await state()).toWebview.slice(after).find((m) => m.type === 'searchStarted'),
    );
  const tree = (parent?: string) => rpc<Row[]>('tree', parent ? { parent } : undefined);
  /** Every row under `id`, depth first (the rows a user sees with everything expanded). */
  const descendants = async (id: string, depth = 0): Promise<Array<Row & { depth: number }>> => {
    const out: Array<Row & { depth: number }> = [];
    for (const r of await tree(id)) {
      out.push({ ...r, depth });
      if (r.collapsible) out.push(...(await descendants(r.id, depth + 1)));
    }
    return out;
  };
  /** The job the agent test ran to its end (the trace, result and tools tests read it). */
  let doneId = '';

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
        [`${FOLDER}/package.json`]: JSON.stringify({
          name: 'fetchline',
          dependencies: { 'keel-schema': '^2.6.0' },
          devDependencies: { typescript: '~5.9.3' },
        }),
        [`${FOLDER}/package-lock.json`]: JSON.stringify({
          lockfileVersion: 3,
          packages: {
            '': { name: 'fetchline' },
            'node_modules/keel-schema': { version: '2.6.0' },
            'node_modules/typescript': { version: '5.9.3' },
          },
        }),
        [`${FOLDER}/go.mod`]:
          'module github.com/fetchline/fetchline\n\ngo 1.22\n\nrequire github.com/keel-dev/keel-schema v2.6.0\n',
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

  it("activates in a worker: requires only vscode, no process object, a search from the palette over the browser's fetch", async () => {
    assert.ok(activation.isWorker, 'runs in a WorkerGlobalScope');
    assert.equal(activation.hasProcess, false);
    assert.deepEqual([...new Set(activation.required)], ['vscode']);
    const before = (await state()).toWebview.length;
    await rpc('exec', {
      command: 'devIndex.search.run',
      args: [{ query: 'retry after rate limit', types: ['issue', 'pull_request'] }],
    });
    const s = await started(before);
    const out = await outcomeOf(s.requestId!);
    assert.equal(out.type, 'results', JSON.stringify(out.error ?? ''));
    assert.ok((out.outcome?.results.length ?? 0) > 0);
    const log = (await state()).log.join('\n');
    assert.match(log, /GET \/v2\/search\/developer 200|POST \/v2\/search\/developer 200/);
    await shoot('search from the palette', s, out);
  });

  it('the Get Started walkthrough opens on the first run in the web build, once, and not when shown before or turned off', async () => {
    const ref = 'devindex.devindex#devIndex.gettingStarted';
    const opens = (s: WorkerState) => s.workbenchCommands.filter((c) => c.id === 'workbench.action.openWalkthrough');
    // This worker is a first run (an empty globalState, the setting at its default).
    const opened = await waitFor('the walkthrough to open', async () => {
      const o = opens(await state());
      return o.length ? o : undefined;
    });
    assert.deepEqual(opened, [{ id: 'workbench.action.openWalkthrough', args: [ref] }]);
    assert.equal(
      await rpc<unknown>('globalState', { key: 'devIndex.walkthrough.shown' }),
      true,
      'remembered, so the next start does not open it',
    );
    assert.ok((await state()).log.some((l) => /walkthrough on first run: opened/.test(l)));
    // Two more activations in workers of their own: one remembers it was shown, one has the setting off.
    const packageJson = JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as unknown;
    for (const [what, init] of [
      [
        'already shown',
        { globalState: { 'devIndex.walkthrough.shown': true }, settings: { 'devIndex.baseUrl': sb.url } },
      ],
      ['turned off', { settings: { 'devIndex.baseUrl': sb.url, 'devIndex.walkthrough.openOnFirstRun': false } }],
    ] as const) {
      const other = await browser.context.newPage();
      try {
        await other.goto(`${host.origin}/`);
        const call = <T>(op: string, payload?: unknown): Promise<T> =>
          other.evaluate(
            ([o, p]) => (window as unknown as { rpc(o: string, p: unknown): Promise<unknown> }).rpc(o, p),
            [op, payload] as const,
          ) as Promise<T>;
        await call('init', { secrets: {}, folders: [], files: {}, packageJson, ...init });
        // The rule decides inside activate() (openWalkthroughOnce runs up to its open call before its first await,
        // and the fake records a workbench command as it is run), so by the time `init` has answered, an open would
        // be recorded; this state read is one more message round trip after it.
        const s = await call<WorkerState>('state');
        assert.deepEqual(opens(s), [], `${what}: opened anyway`);
        assert.ok(!s.messages.some((m) => m.severity === 'error'), `${what}: ${JSON.stringify(s.messages)}`);
        if (what === 'turned off')
          assert.equal(
            await call<unknown>('globalState', { key: 'devIndex.walkthrough.shown' }),
            null,
            'turned off: not marked as shown',
          );
      } finally {
        await other.close();
      }
    }
  });

  it("Search in This Repository scopes to the vscode-vfs folder's repository, with no git", async () => {
    const before = (await state()).toWebview.length;
    const r = await rpc<{ kind: string; repos?: string[] }>('exec', {
      command: 'devIndex.search.repository',
      args: [{ query: 'timeout' }],
    });
    assert.deepEqual(r, { kind: 'searched', repos: ['fetchline/fetchline'] });
    const s = await started(before);
    assert.deepEqual(s.params?.repos, ['fetchline/fetchline']);
    const out = await outcomeOf(s.requestId!);
    assert.equal(out.type, 'results', JSON.stringify(out.error ?? ''));
    const repoResults = out.outcome!.results.filter((x) => /^(issue|pull_request|readme):/.test(x.id));
    assert.ok(
      repoResults.length > 0 && repoResults.every((x) => x.id.includes('fetchline/fetchline')),
      out.outcome!.results.map((x) => x.id).join(', '),
    );
    await shoot('search in this repository (vscode-vfs)', s, out);
  });

  it('a dependency search from manifests read through workspace.fs; npm rows are "not installed here"', async () => {
    const r = await rpc<{
      rows: Array<{ name: string; slug?: string; version?: string; reason?: string }>;
      repos?: string[];
    }>('exec', {
      command: 'devIndex.deps.searchDependency',
      args: [{ pick: ['github.com/keel-dev/keel-schema'], query: 'schema' }],
    });
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

  it("a search from the editor's selection and one the Search view posts; both go into the history, which runs one again", async () => {
    // The editor's selection (Search Developer Index for Selection): whitespace folded, the view's scope kept.
    await rpc('editor', {
      uri: `${FOLDER}/src/client.ts`,
      text: 'try {\n  await fetch(url);\n} catch (e) { // socket hang up\n    ECONNRESET\n}',
      selection: [2, 16, 3, 14],
    });
    // The view reports the scope its form shows (as the webview does whenever it changes): one repository.
    await rpc('toExtension', {
      type: 'scope',
      params: { query: '', types: ['issue', 'pull_request', 'readme'], repos: ['fetchline/fetchline'] },
    });
    let before = (await state()).toWebview.length;
    await rpc('exec', { command: 'devIndex.search.selection' });
    const sel = await started(before);
    assert.equal(sel.params?.query, 'socket hang up ECONNRESET');
    assert.deepEqual(sel.params?.repos, ['fetchline/fetchline'], 'the scope the view shows');
    const selOut = await outcomeOf(sel.requestId!);
    assert.equal(selOut.type, 'results', JSON.stringify(selOut.error ?? ''));
    assert.ok(
      (selOut.outcome?.results.length ?? 0) > 0,
      JSON.stringify(sel).slice(0, 400) + JSON.stringify(selOut).slice(0, 400),
    );
    await shoot('search from the selection', sel, selOut);

    // The Search view's own form: its `search` message (zod-checked on the extension side), answered under its request id.
    before = (await state()).toWebview.length;
    await rpc('toExtension', {
      type: 'search',
      requestId: 'view-7',
      params: { query: 'connection pool keep-alive', types: ['issue', 'pull_request', 'readme'] },
    });
    const viewOut = await outcomeOf('view-7');
    assert.equal(viewOut.type, 'results', JSON.stringify(viewOut.error ?? ''));
    assert.ok((viewOut.outcome?.results.length ?? 0) > 0);
    assert.ok(
      (await state()).toWebview
        .slice(before)
        .some(
          (m) =>
            m.type === 'searchStarted' && m.requestId === 'view-7' && m.params?.query === 'connection pool keep-alive',
        ),
    );
    // A message the view's schema refuses is dropped and logged, never searched.
    const logged = (await state()).log.length;
    await rpc('toExtension', { type: 'search', requestId: 'view-8', params: { query: 'x', mystery: true } });
    const dropped = await waitFor("the dropped message's log line", async () =>
      (await state()).log.slice(logged).find((l) => /dropped an invalid message \("search"\)/.test(l)),
    );
    assert.ok(dropped);
    assert.ok(!(await state()).toWebview.some((m) => m.requestId === 'view-8'), 'the refused message started nothing');

    // Show Search History: the searches so far, newest first; picking one runs exactly its search again.
    await rpc('picks', [{ label: 'socket hang up ECONNRESET' }]);
    before = (await state()).toWebview.length;
    await rpc('exec', { command: 'devIndex.search.history' });
    const pick = (await state()).quickPicks.at(-1)!;
    assert.equal(pick.title, 'Developer Index: Search History');
    const labels = pick.items.map((i) => i.label);
    assert.deepEqual(
      labels.slice(0, 2),
      ['connection pool keep-alive', 'socket hang up ECONNRESET'],
      labels.join(' | '),
    );
    assert.ok(labels.includes('retry after rate limit') && labels.includes('timeout'), labels.join(' | '));
    assert.equal(pick.picked, 'socket hang up ECONNRESET');
    const again = await started(before);
    assert.equal(again.params?.query, 'socket hang up ECONNRESET');
    const againOut = await outcomeOf(again.requestId!);
    assert.equal(againOut.type, 'results', JSON.stringify(againOut.error ?? ''));
    assert.deepEqual(
      againOut.outcome!.results.map((r) => r.id),
      selOut.outcome!.results.map((r) => r.id),
      'the same search, the same results',
    );
  });

  it('an agent job: the key in SecretStorage, started, polled to its end in the Agent Jobs tree; another cancelled', async () => {
    await rpc('exec', { command: 'devIndex.auth.clearKey' });
    const refused = await rpc<unknown>('exec', {
      command: 'devIndex.agent.start',
      args: [{ prompt: 'no key yet' }],
    }).catch((e: Error) => e.message);
    assert.match(String(refused), /key/i);
    // Set API Key with the key as its argument (as a user types it): checked against the service, stored in SecretStorage.
    await rpc('exec', { command: 'devIndex.auth.setKey', args: [KEY] });
    assert.ok(
      (await state()).messages.some((m) => /saved/i.test(m.text)),
      JSON.stringify((await state()).messages.slice(-3)),
    );
    const id = await rpc<string>('exec', {
      command: 'devIndex.agent.start',
      args: [{ prompt: 'Collect TypeScript HTTP clients', urls: ['https://github.com/nodejs/undici'] }],
    });
    assert.match(id, /^[0-9a-f-]{36}$/);
    const rowOf = async (label: RegExp, state: RegExp): Promise<Row | undefined> =>
      (await tree()).find((x) => label.test(x.label) && state.test(x.description ?? ''));
    // Polled by the job store's own timer in the worker until the run ends: a completed row with its result to open.
    const done = await waitFor('the job to end in the tree', () => rowOf(/^Collect TypeScript/, /completed/), 90_000);
    assert.ok(done.contextValue?.includes('result'), JSON.stringify(done));
    doneId = id;
    const slow = await rpc<string>('exec', { command: 'devIndex.agent.start', args: [{ prompt: 'cancel me SLOW' }] });
    await rpc('exec', { command: 'devIndex.agent.cancel', args: [slow] });
    const status = await waitFor(
      'the cancel to land',
      async () => {
        const r = await fetch(`${sb.url}/v2/agent/${slow}`, { headers: { authorization: `Bearer ${KEY}` } });
        const b = (await r.json()) as { status: string; error?: string };
        return b.status === 'processing' || b.status === 'cancelling' ? undefined : b;
      },
      30_000,
    );
    assert.ok(status.status === 'cancelled' || /cancel/i.test(String(status.error)), JSON.stringify(status));
    await waitFor('the cancelled row', () => rowOf(/^cancel me SLOW/, /cancelled/), 30_000);
    await shootTree(
      'web-worker-agent-jobs.png',
      "Agent Jobs, as the web extension's tree gives its rows in a Web Worker",
      (await tree()).map((r) => ({ ...r, depth: 0 })),
    );
  });

  it("the finished job's trace in the tree (rows named state first), a snapshot opened, and Open Result's document", async () => {
    assert.ok(doneId, 'the agent test ran a job to its end');
    const rows = await waitFor(
      'the trace rows',
      async () => {
        const all = await descendants(`job:${doneId}`);
        return all.some((r) => r.id.includes('/event:')) ? all : undefined;
      },
      30_000,
    );
    const agents = rows.filter((r) => r.id.includes('/agent:'));
    const events = rows.filter((r) => r.id.includes('/event:'));
    assert.ok(
      agents.some((a) => /^Completed: agent /.test(a.accessibleName ?? '')),
      agents.map((a) => a.accessibleName).join(' | '),
    );
    assert.ok(events.length >= 3, `${events.length} trace rows`);
    for (const e of events) {
      // `Done: tool navigate · 1.2 s, at 12:00:03`: what the event did first, then the row's own words.
      assert.match(e.accessibleName ?? '', /^[A-Z][a-z]+( [a-z]+)*: /, JSON.stringify(e));
      assert.ok(e.accessibleName!.includes(`: ${e.label}`), `${e.accessibleName} names ${e.label}`);
    }
    // Open Snapshot: the row's own command, with the row (an artifact.updated event that has a snapshot).
    const snap = events.find((e) => /;snapshot(;|$)/.test(e.contextValue ?? '') && /\(json\)/.test(e.label));
    assert.ok(snap, events.map((e) => e.contextValue).join(' | '));
    assert.equal(snap.command, 'devIndex.agent.openSnapshot');
    assert.match(snap.accessibleName!, /^Updated: artifact /);
    let shown = (await state()).documents.length;
    await rpc('clickNode', { node: snap.id });
    const snapDoc = await waitFor('the snapshot document', async () => (await state()).documents[shown]);
    assert.match(snapDoc.uri, /^devindex-agent:/);
    assert.equal(snapDoc.how, 'editor', 'a JSON snapshot opens in an editor (markdown ones in the preview)');
    assert.doesNotThrow(() => JSON.parse(snapDoc.text), snapDoc.text.slice(0, 200));
    assert.doesNotMatch(snapDoc.text, /could not|not found|failed/i, 'the snapshot itself, read from the sandbox');
    // Open Result from the job row's context menu: a read-only JSON document with the run's data.
    shown = (await state()).documents.length;
    await rpc('execOnNode', { command: 'devIndex.agent.openResult', node: `job:${doneId}` });
    const result = await waitFor('the result document', async () => (await state()).documents[shown]);
    assert.equal(result.how, 'editor');
    assert.match(decodeURIComponent(result.uri), /^devindex-agent:.*\/result — Collect TypeScript HTTP clients\.json$/);
    const data = JSON.parse(result.text) as { items?: unknown[] };
    assert.ok(Array.isArray(data.items) && data.items.length > 0, result.text.slice(0, 200));
    await shootTree(
      'web-worker-agent-jobs-trace.png',
      "Agent Jobs with a finished job's trace, as the web extension's tree gives its rows in a Web Worker",
      [
        ...(await tree()).filter((r) => r.id === `job:${doneId}`).map((r) => ({ ...r, depth: 0 })),
        ...rows.map((r) => ({ ...r, depth: r.depth + 1 })),
      ],
    );
  });

  it('Ask a Follow-up… on a finished chat job: the answer opens, the follow-up is turn 2 under one thread row', async () => {
    const id = await rpc<string>('exec', {
      command: 'devIndex.agent.start',
      args: [{ prompt: 'Which HTTP clients retry on 429?', mode: 'chat' }],
    });
    const row = await waitFor(
      'the chat job to end',
      async () => (await tree()).find((r) => r.id === `job:${id}` && /^completed/.test(r.description ?? '')),
      90_000,
    );
    assert.match(row.contextValue ?? '', /;answer(;|$)/);
    assert.match(row.contextValue ?? '', /;followup(;|$)/);
    // Open Answer: the chat answer as markdown, in the Markdown preview.
    let shown = (await state()).documents.length;
    await rpc('execOnNode', { command: 'devIndex.agent.openAnswer', node: `job:${id}` });
    const answer = await waitFor('the answer preview', async () => (await state()).documents[shown]);
    assert.equal(answer.how, 'preview');
    assert.match(answer.text, /^# Which HTTP clients retry on 429\?\n\n## Answer: /);
    // Ask a Follow-up… from the row: the box offers the service's suggestions; the user types their own.
    await rpc('picks', [{ value: 'And which of them honour Retry-After?' }]);
    shown = (await state()).quickPicks.length;
    const turnId = await rpc<string>('execOnNode', { command: 'devIndex.agent.followUp', node: `job:${id}` });
    assert.match(turnId, /^[0-9a-f-]{36}$/);
    assert.notEqual(turnId, id);
    const box = (await state()).quickPicks[shown]!;
    assert.equal(box.title, 'Ask a Follow-up: Which HTTP clients retry on 429?');
    assert.ok(
      box.items.some((i) => /suggested by the service/.test(i.label)),
      JSON.stringify(box.items),
    );
    assert.equal(box.picked, '$(comment-discussion) Ask: And which of them honour Retry-After?');
    const thread = await waitFor(
      'one thread row with two turns',
      async () => (await tree()).find((r) => r.id.startsWith('thread:') && /2 turns/.test(r.description ?? '')),
      30_000,
    );
    assert.match(thread.accessibleName ?? '', /^(Running|Completed): agent thread Which HTTP clients retry on 429\?/);
    assert.ok(
      !(await tree()).some((r) => r.id === `job:${id}` || r.id === `job:${turnId}`),
      'the turns are rows under the thread, not of their own',
    );
    const turns = await tree(thread.id);
    assert.deepEqual(
      turns.map((t) => t.id),
      [`job:${id}`, `job:${turnId}`],
      'turn 1, then turn 2',
    );
    assert.match(turns[1]!.label, /^2\. And which of/);
    assert.match(
      turns[1]!.accessibleName ?? '',
      /^[A-Z][a-z]+( [a-z]+)*: agent job turn 2, And which of them honour Retry-After\?/,
    );
    await waitFor(
      'turn 2 to end',
      async () =>
        (await tree(thread.id)).find((t) => t.id === `job:${turnId}` && /^completed/.test(t.description ?? '')),
      90_000,
    );
    const sent = (await fetch(`${sb.url}/v2/agent/${turnId}`, { headers: { authorization: `Bearer ${KEY}` } }).then(
      (r) => r.json(),
    )) as { threadTurn?: number; threadId?: string };
    assert.equal(sent.threadTurn, 2, 'the service has it as turn 2 of the thread');
    assert.equal(`thread:${sent.threadId}`, thread.id);
  });

  it("the language-model tools: registered in the web build, devIndex_search answers from the sandbox; list jobs sees the tree's jobs", async () => {
    assert.deepEqual((await rpc<string[]>('tools')).sort(), [...EDITOR_TOOL_NAMES].sort());
    const direct = (await fetch(`${sb.url}/v2/search/developer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ query: 'retry after rate limit', k: 5 }),
    }).then((r) => r.json())) as {
      data?: { results?: Array<{ url?: string; title?: string }> };
      results?: Array<{ url?: string; title?: string }>;
    };
    const top = (direct.data?.results ?? direct.results ?? [])[0];
    assert.ok(top?.url, JSON.stringify(direct).slice(0, 300));
    const historyBefore = (await state()).toWebview.length;
    const r = await rpc<{ invocationMessage?: string; isResult: boolean; text: string }>('invokeTool', {
      name: 'devIndex_search',
      input: { query: 'retry after rate limit', k: 5 },
    });
    assert.equal(r.invocationMessage, 'Searching the developer index for "retry after rate limit"');
    assert.ok(r.isResult, 'a LanguageModelToolResult of text parts');
    assert.ok(r.text.includes(top.url), `the sandbox's top result is in the tool's text: ${r.text.slice(0, 400)}`);
    assert.equal((await state()).toWebview.length, historyBefore, "a model's search is not shown in the Search view");
    const scoped = await rpc<{ text: string }>('invokeTool', {
      name: 'devIndex_search',
      input: { query: 'timeout', scope: 'workspace' },
    });
    assert.match(scoped.text, /fetchline\/fetchline/, "the workspace is the vscode-vfs folder's repository");
    const listed = await rpc<{ text: string }>('invokeTool', { name: 'devIndex_listAgentJobs', input: {} });
    assert.ok(listed.text.includes(doneId), listed.text.slice(0, 400));
  });

  it('a host without vscode.lm: the web build activates, registers no tool and shows no error', async () => {
    const other = await browser.context.newPage();
    try {
      await other.goto(`${host.origin}/`);
      const packageJson = JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as unknown;
      const call = <T>(op: string, payload?: unknown): Promise<T> =>
        other.evaluate(([o, p]) => (window as unknown as { rpc(o: string, p: unknown): Promise<unknown> }).rpc(o, p), [
          op,
          payload,
        ] as const) as Promise<T>;
      const a = await call<{ required: string[] }>('init', {
        settings: { 'devIndex.baseUrl': sb.url },
        secrets: {},
        folders: [],
        files: {},
        packageJson,
        noLm: true,
      });
      assert.deepEqual([...new Set(a.required)], ['vscode']);
      assert.deepEqual(await call<string[]>('tools'), []);
      const s = await call<WorkerState>('state');
      assert.ok(!s.messages.some((m) => m.severity === 'error'), JSON.stringify(s.messages));
      // The rest of the extension is there: a search still runs.
      await call('resolveView');
      await call('exec', { command: 'devIndex.search.run', args: [{ query: 'retry after rate limit' }] });
      const out = await waitFor('the search without vscode.lm', async () =>
        (await call<WorkerState>('state')).toWebview.find((m) => m.type === 'results' || m.type === 'searchError'),
      );
      assert.equal(out.type, 'results', JSON.stringify(out.error ?? ''));
    } finally {
      await other.close();
    }
  });

  it('what the browser leaves out says why (terminal, MCP and the command line, the connection diagnosis, node_modules), and the key never shows', async () => {
    const shownBefore = (await state()).messages.length;
    for (const [command, title, why] of [
      [
        'devIndex.deps.searchTerminalSelection',
        'Search Developer Index for Selection',
        /the terminal needs a local process/,
      ],
      ['devIndex.mcp.setup', 'Set Up MCP for Another Agent…', /the devindex command line running as a local process/],
      [
        'devIndex.mcp.setupRules',
        'Add Agent Rules for Developer Index…',
        /project's files, which a browser extension cannot write atomically/,
      ],
      ['devIndex.diagnose', 'Diagnose Connection', /DNS, TCP and TLS/],
      ['devIndex.reportIssue', 'Report an Issue…', /Node's network probes/],
    ] as const) {
      const r = await rpc<{ unavailable: boolean; reason: string }>('exec', { command });
      assert.equal(r.unavailable, true);
      assert.ok(r.reason.startsWith(`${title} is not available in the browser: `), r.reason);
      assert.match(r.reason, why);
      assert.match(r.reason, /It works in desktop VS Code\.$/);
      assert.ok(
        (await state()).messages.slice(shownBefore).some((m) => m.severity === 'info' && m.text === r.reason),
        `shown to the user: ${r.reason}`,
      );
    }
    // The Search view's Diagnose Connection button (its `diagnose` message) says the same.
    let shown = (await state()).messages.length;
    await rpc('toExtension', { type: 'diagnose' });
    await waitFor("the view's diagnose to say why", async () =>
      (await state()).messages
        .slice(shown)
        .find((m) => /^Diagnose Connection is not available in the browser/.test(m.text)),
    );
    // node_modules: an npm dependency that only an installed package would name a repository for; the pick says why, and picking it says so.
    shown = (await state()).messages.length;
    await rpc('picks', [{ label: 'keel-schema' }]);
    const r = await rpc<{ rows: unknown[]; repos?: string[] }>('exec', {
      command: 'devIndex.deps.searchDependency',
      args: [{}],
    });
    assert.equal(r.repos, undefined, 'nothing searched');
    const pick = (await state()).quickPicks.at(-1)!;
    assert.equal(
      pick.items.find((i) => i.label === 'keel-schema')?.detail,
      'not installed here: the browser reads manifests and lockfiles, not installed packages',
    );
    assert.ok(
      (await state()).messages
        .slice(shown)
        .some(
          (m) =>
            m.text ===
            'Those dependencies are not installed here: the browser reads manifests and lockfiles, not installed packages, so their repositories are unknown.',
        ),
      JSON.stringify((await state()).messages.slice(shown)),
    );
    // A problem's search (the light bulb's command) runs, without the package's repository, and the view says why.
    const before = (await state()).toWebview.length;
    const p = await rpc<{ query: string; repos: string[] }>('exec', {
      command: 'devIndex.deps.searchProblem',
      args: [{ message: "Cannot find module 'keel-schema/dist/esm'", uri: `${FOLDER}/src/client.ts` }],
    });
    assert.deepEqual(p.repos, []);
    const s0 = await started(before);
    assert.equal(s0.params?.repos, undefined);
    assert.match(s0.notice ?? '', /not limited to the package's repository.*node_modules/);
    await outcomeOf(s0.requestId!);
    const s = await state();
    const everything = JSON.stringify(s);
    assert.ok(!everything.includes(KEY), 'the key is in no message, log line or posted message');
  });

  it('Watch for a Fix from a repository-scoped search: the watch is kept, the view lists it, a check asks the sandbox again', async () => {
    const before = (await state()).toWebview.length;
    await rpc('exec', {
      command: 'devIndex.search.run',
      args: [{ query: 'timeout', repos: ['fetchline/fetchline'], types: ['issue', 'pull_request'] }],
    });
    const s = await started(before);
    const out = await outcomeOf(s.requestId!);
    assert.equal(out.type, 'results', JSON.stringify(out.error ?? ''));
    const id = await rpc<string>('exec', { command: 'devIndex.watch.add' });
    assert.equal(typeof id, 'string');
    type Listed = { type: string; watches: Array<{ id: string; query: string; scope: string }> };
    const listed = (from: number, ok: (l: Listed) => boolean) =>
      waitFor('the Watched list in the view', async () =>
        ((await state()).toWebview.slice(from) as unknown as Listed[])
          .reverse()
          .find((m) => m.type === 'watches' && ok(m)),
      );
    const posted = await listed(before, (m) => m.watches.some((w) => w.id === id));
    const shown = posted!.watches.find((w) => w.id === id)!;
    assert.deepEqual([shown.query, shown.scope], ['timeout', 'fetchline/fetchline']);
    const searches = (await state()).log.filter((l) => /\/v2\/search\/developer 200/.test(l)).length;
    const checked = await rpc<Array<{ id: string; news: number; vanished: string[]; error?: string }>>('exec', {
      command: 'devIndex.watch.checkAll',
    });
    const mine = checked.find((c) => c.id === id);
    assert.equal(mine?.error, undefined, JSON.stringify(checked));
    assert.equal(mine?.news, 0, 'nothing new since the search a moment ago');
    assert.ok(
      (await state()).log.filter((l) => /\/v2\/search\/developer 200/.test(l)).length > searches,
      'the check searched the sandbox',
    );
    // Removed as the Watched list's button does it: the list the view is sent no longer has it.
    const beforeRemove = (await state()).toWebview.length;
    await rpc('toExtension', { type: 'watchAction', action: 'remove', id });
    await listed(beforeRemove, (m) => !m.watches.some((w) => w.id === id));
  });

  it('every command package.json contributes is registered in the web build (it works, or it says why)', async () => {
    const packageJson = JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as {
      contributes: { commands: Array<{ command: string }> };
    };
    const registered = new Set(await rpc<string[]>('registered'));
    const missing = packageJson.contributes.commands.map((c) => c.command).filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], 'a palette command the browser does not register fails with "command not found"');
  });

  /** The tree's rows as text (label, description; indented by depth), for a screenshot. */
  async function shootTree(file: string, title: string, rows: Array<Row & { depth: number }>): Promise<void> {
    const shot = await browser.context.newPage();
    await shot.setViewportSize({ width: 760, height: Math.min(1400, 80 + rows.length * 17) });
    const text = rows.map((r) => `${'  '.repeat(r.depth)}${r.label}  ${r.description ?? ''}`).join('\n');
    await shot.setContent(
      `<pre style="font: 13px monospace; padding: 12px">${`${title}\n\n${text}`.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</pre>`,
    );
    mkdirSync(screenshotDir(), { recursive: true });
    await shot.screenshot({ path: join(screenshotDir(), file), fullPage: true });
    await shot.close();
  }

  /** The Search view's real app (dist/webview.js) renders what the worker's extension side posted. */
  async function shoot(label: string, startedMsg: Msg, out: Msg): Promise<void> {
    const v = await openView(browser.context, views.origin, 'dark');
    const init = (await state()).toWebview.find((m) => m.type === 'init');
    if (init) await v.send(init as never);
    await v.send(startedMsg as never);
    await v.send(out as never);
    mkdirSync(screenshotDir(), { recursive: true });
    await v.page.screenshot({
      path: join(screenshotDir(), `web-worker-${label.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`),
    });
    await v.page.close();
  }
});
