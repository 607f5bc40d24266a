// In a real extension host, against the sandbox:
// - a problem search (a diagnostic on the fixture's `fetchline` import) shows the chip, the badges and the
//   summary line: read from the messages the extension posted to the Search view's webview;
// - Watch for a Fix on that search, a new issue added to the sandbox's index, Check Now, the notification
//   and its Open Search; the installed version moving past the fix (the fixture's lockfile watcher fires),
//   the watch saying so and its Remove Watch;
// - two windows with one watcher: two WatchService instances (the editor's own class) over one shared
//   storage in this one host, each with its own lease owner id (two real windows cannot be opened by a
//   test in code-server's extension host; docs/TESTING.md says so), searching the sandbox.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DevIndexClient } from '../../src/api/client';
import type { Watch } from '../../src/deps/watch';
import { newWatch } from '../../src/deps/watch';
import { LEASE_KEY } from '../../src/watches/lease';
import { WATCH_KEY_PREFIX, WatchService, type WatchEvent } from '../../src/watches/watcher';
import { api, env, MemoryStorage, sandboxRequests, until, type DevIndexExtensionApi } from './hostSupport';
import { HttpTransport } from '../../src/api/http';

type Api = DevIndexExtensionApi;
interface Posted {
  searchStarted?: {
    type: 'searchStarted';
    params: { query: string; repos?: string[]; passages?: number };
    installed?: Array<{ slug: string; version?: string }>;
  };
  results?: {
    type: 'results';
    outcome: {
      results: Array<{ id: string; versions?: Array<{ label: string; sentence: string; highlight: boolean }> }>;
      installed?: unknown[];
      versionSummary?: string[];
    };
  };
}

const QUERY_MESSAGE = 'Retry-After header ignored when a per-request timeout is set';

describe('Watch for a Fix and version badges in the editor', function () {
  this.timeout(180_000);
  let a: Api;
  let root: string;
  let doc: vscode.TextDocument;
  let diagnostics: vscode.DiagnosticCollection;
  let fetchlinePkg: string;
  let fetchlinePkgText: string;
  let watchId: string | undefined;
  const pressed: Array<{ text: string; actions: string[] }> = [];
  let press: string | undefined;

  before(async () => {
    a = (await api()) as Api;
    assert.equal(typeof a.watches, 'function', 'the test surface has watches()');
    root = env('DEVINDEX_TEST_DEPS_WORKSPACE');
    fetchlinePkg = path.join(root, 'node_modules', 'fetchline', 'package.json');
    fetchlinePkgText = await fsp.readFile(fetchlinePkg, 'utf8');
    doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(root, 'src', 'app.ts')));
    await vscode.window.showTextDocument(doc, { preview: false });
    diagnostics = vscode.languages.createDiagnosticCollection('watch-test');
    // A runtime problem reported on the fetchline import (as a test runner or linter extension would).
    const line = doc.lineAt(0).text;
    const at = line.indexOf("'fetchline'");
    const d = new vscode.Diagnostic(
      new vscode.Range(0, at, 0, at + "'fetchline'".length),
      QUERY_MESSAGE,
      vscode.DiagnosticSeverity.Error,
    );
    d.source = 'watch-test';
    diagnostics.set(doc.uri, [d]);
    // search.passages stays at its default (one): a dependency search asks for three itself, since the fix
    // sentence of fetchline#472 is in a later comment than the passage that matches the question best.
    const feature = a.watches();
    feature.show = async (_level, text, actions) => {
      pressed.push({ text, actions });
      const p = press;
      press = undefined;
      return p && actions.includes(p) ? p : undefined;
    };
  });

  after(async () => {
    diagnostics?.dispose();
    await fsp.writeFile(fetchlinePkg, fetchlinePkgText);
    if (watchId) await a.watches().service.remove(watchId);
    await vscode.commands.executeCommand('devIndex.search.run', { query: 'reset after the watch suite', repos: [] });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a problem search shows the chip, the badges and the summary line (the messages posted to the webview)', async () => {
    const problem = diagnostics.get(doc.uri)![0]!;
    const ours = await until(
      'the code action scoped to fetchline/fetchline with its installed version',
      async () => {
        const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
          'vscode.executeCodeActionProvider',
          doc.uri,
          problem.range,
        );
        return actions.find(
          (x) => x.title === 'Search Developer Index for this problem in fetchline/fetchline (3.2.0 installed)',
        );
      },
      (x) => x !== undefined,
      30_000,
    );
    const before = a.lastSearch();
    const ran = await vscode.commands.executeCommand<{ query: string; repos?: string[] }>(
      ours!.command!.command,
      ...(ours!.command!.arguments ?? []),
    );
    assert.deepEqual(ran.repos, ['fetchline/fetchline']);
    await until(
      'the search finished',
      () => a.lastSearch(),
      (o) => !!o && o !== before && (!!o.response || o.error !== undefined),
    );
    assert.equal(a.lastSearch()!.error, undefined);
    const posted = await until(
      'the outcome posted to the webview',
      async () => a.view.lastSearch() as Posted,
      (p) => p?.results?.outcome !== undefined && p.searchStarted?.params.query === ran.query,
    );
    // The chip: the webview builds `fetchline/fetchline · 3.2.0 installed` from this (installedChipLabel; the browser tier checks the words).
    assert.deepEqual(posted.searchStarted!.installed, [
      { ecosystem: 'npm', name: 'fetchline', slug: 'fetchline/fetchline', version: '3.2.0' },
    ]);
    assert.equal(vscode.workspace.getConfiguration('devIndex').get('search.passages'), 1, 'the setting at its default');
    assert.equal(posted.searchStarted!.params.passages, 3, 'a dependency search asks for three passages');
    const shown = await until(
      'the view shows the scope',
      async () => a.view.shownScope() as { repos?: string[] },
      (s) => s?.repos?.[0] === 'fetchline/fetchline',
    );
    assert.deepEqual(shown.repos, ['fetchline/fetchline']);
    // The summary line and the badges.
    const o = posted.results!.outcome;
    assert.equal(o.versionSummary?.length, 1);
    assert.match(
      o.versionSummary![0]!,
      /^\d results? mentions? a fix newer than your fetchline 3\.2\.0 \(3\.3\.0\)\.$/,
    );
    const issue = o.results.find((r) => r.id === 'issue:fetchline/fetchline#472');
    assert.ok(issue, `#472 is among ${o.results.map((r) => r.id).join(', ')}`);
    const fix = issue.versions?.find((b) => b.label === 'Fixed in 3.3.0 · you have 3.2.0');
    assert.ok(fix, `#472's badges: ${JSON.stringify(issue.versions)}`);
    assert.equal(fix.highlight, true);
    assert.match(fix.sentence, /3\.3\.0/);
    const doc0 = o.results.find((r) => r.id.startsWith('doc:'));
    if (doc0) assert.equal(doc0.versions, undefined, 'a documentation page belongs to no dependency: no badge');
  });

  it('Watch for a Fix on that search; a new issue appears; Check Now notifies and Open Search opens it', async () => {
    await sandboxRequests('DELETE');
    watchId = await vscode.commands.executeCommand<string | undefined>('devIndex.watch.add');
    assert.ok(watchId, 'a watch was made');
    const list = a.watches().service.list() as Watch[];
    const w = list.find((x) => x.id === watchId)!;
    assert.equal(w.params.query, a.lastSearch()!.params.query);
    assert.deepEqual(w.params.repos, ['fetchline/fetchline']);
    assert.deepEqual(w.installed, [
      { ecosystem: 'npm', name: 'fetchline', slug: 'fetchline/fetchline', version: '3.2.0' },
    ]);
    assert.equal(path.resolve(w.folder ?? ''), path.resolve(root), 'the folder the versions are read from');
    assert.ok(w.seen.includes('issue:fetchline/fetchline#472'), 'the results it had count as seen');
    // Nothing new yet.
    const quiet = await a.watches().checkNow(watchId!);
    assert.deepEqual(quiet, { news: 0, vanished: [] });
    // The index gains an issue between two checks.
    const r = await fetch(`${env('DEVINDEX_SANDBOX_URL')}/__sandbox/corpus`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        add: [
          {
            repo: 'fetchline/fetchline',
            type: 'issue',
            number: 481,
            markdown:
              '# Retry-After header ignored when a per-request timeout is set, again on 3.2.x\n\nThe Retry-After header is ignored when a per-request timeout is set, on 3.2.0 too. Fixed in 3.3.0 as well; upgrade.\n',
          },
        ],
      }),
    });
    assert.equal(r.status, 200, 'the sandbox adds the issue');
    press = 'Open Search';
    const before = a.lastSearch();
    const found = await a.watches().checkNow(watchId!);
    assert.equal(found.news, 1);
    const note = (await until(
      'the notification',
      () => pressed.at(-1),
      (p) => !!p && /found a new issue/.test(p.text),
    ))!;
    assert.match(
      note.text,
      /^Developer Index: watch “Retry-After header ignored when a per-request timeout is set” found a new issue: Retry-After header ignored when a per-request timeout is set, again on 3\.2\.x · fixed in 3\.3\.0 · newer than your 3\.2\.0\.$/,
    );
    assert.deepEqual(note.actions, ['Open Search']);
    // Its action opened the search in the Search view, and the new result counts as looked at.
    const opened = (await until(
      "the watch's search in the view",
      () => a.lastSearch(),
      (o) => !!o && o !== before && !!o.response,
    ))!;
    assert.equal(opened.params.query, w.params.query);
    assert.deepEqual(opened.params.repos, ['fetchline/fetchline']);
    assert.ok(opened.response!.results.some((x) => x.id === 'issue:fetchline/fetchline#481'));
    const after = (a.watches().service.list() as Watch[]).find((x) => x.id === watchId)!;
    assert.equal(after.newCount, 0);
    assert.ok(after.lastCheck !== undefined);
    // No agent run was started by any of this: searches only. (Jobs other suites started may still be polled.)
    const started = (await sandboxRequests()).filter((x) => x.method === 'POST' && x.path === '/v2/agent');
    assert.deepEqual(started, [], 'no agent run started');
  });

  it('the installed version moves past the fix: the lockfile watcher fires, the watch says so and offers to remove it', async () => {
    assert.ok(watchId);
    press = 'Remove Watch';
    await fsp.writeFile(fetchlinePkg, fetchlinePkgText.replace('"version": "3.2.0"', '"version": "3.3.0"'));
    // An install rewrites the lockfile: the manifest watcher of the watched folder fires.
    await fsp.writeFile(
      path.join(root, 'package-lock.json'),
      JSON.stringify({
        name: 'deps-fixture',
        lockfileVersion: 3,
        packages: { 'node_modules/fetchline': { version: '3.3.0' } },
      }),
    );
    try {
      const note = (await until(
        'the "includes the fix" notification',
        () => pressed.at(-1),
        (p) => !!p && /includes the fix/.test(p.text),
        30_000,
      ))!;
      assert.equal(
        note.text,
        'Developer Index: your installed version now includes the fix for “Retry-After header ignored when a per-request timeout is set” (fixed in 3.3.0 · included in your 3.3.0). The watch can be removed.',
      );
      assert.deepEqual(note.actions, ['Remove Watch', 'Open Search']);
      await until(
        'the watch removed by its action',
        async () => a.watches().service.list() as Watch[],
        (l) => !l.some((x) => x.id === watchId),
      );
      watchId = undefined;
    } finally {
      await fsp.rm(path.join(root, 'package-lock.json'), { force: true });
    }
  });

  it('two windows with one watcher: two watch services over one shared storage, one lease, one search per watch', async () => {
    const storage = new MemoryStorage();
    const client = new DevIndexClient({
      transport: new HttpTransport(),
      baseUrl: env('DEVINDEX_SANDBOX_URL'),
      apiKey: () => env('DEVINDEX_TEST_KEY'),
    });
    const made = await client.search({
      query: QUERY_MESSAGE,
      repos: ['fetchline/fetchline'],
      types: ['issue', 'pull_request'],
      passages: 3,
    });
    // Two watches made 6 hours ago (plus a little): both due at the first beat.
    const dep = { ecosystem: 'npm' as const, name: 'fetchline', slug: 'fetchline/fetchline', version: '3.2.0' };
    for (const id of ['one', 'two']) {
      const w = newWatch(
        id,
        {
          query: id === 'one' ? QUERY_MESSAGE : 'Retry-After',
          repos: ['fetchline/fetchline'],
          types: ['issue', 'pull_request'],
          passages: 3,
        },
        [dep],
        { ...made, results: made.results.filter((x) => x.id !== 'issue:fetchline/fetchline#481') },
        Date.now() - 2_000,
      );
      await storage.update(WATCH_KEY_PREFIX + id, w);
    }
    const windows = ['window-A', 'window-B'].map((owner) => {
      const searches: string[] = [];
      const events: WatchEvent[] = [];
      const s = new WatchService({
        storage,
        owner,
        timers: {
          now: () => Date.now(),
          setTimeout: (fn, ms) => setTimeout(fn, ms),
          clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
        },
        search: (p, signal) => {
          searches.push(p.query);
          return client.search(p, { signal });
        },
        notify: (e) => events.push(e),
        log: () => undefined,
        renewMs: 150,
        settleMs: 60,
        betweenMs: 20,
        intervalMs: 5_000,
      });
      return { owner, s, searches, events };
    });
    try {
      for (const w of windows) w.s.resume();
      await until(
        'one window checked both watches',
        () => windows.map((w) => w.searches.length),
        (n) => n.reduce((x, y) => x + y, 0) >= 2,
        20_000,
        50,
      );
      // The round's end: the lease stored for one window, which holds it and has told of the news.
      await until(
        'the round ends with one lease holder and its news',
        () => windows.filter((w) => w.s.isHolder()),
        (hs) =>
          hs.length === 1 &&
          storage.get<{ owner: string }>(LEASE_KEY)?.owner === hs[0]!.owner &&
          hs[0]!.events.some((e) => e.kind === 'news'),
        10_000,
        50,
      );
      const holders = windows.filter((w) => w.s.isHolder());
      assert.equal(
        holders.length,
        1,
        `one lease holder: ${windows.map((w) => `${w.owner}=${w.s.isHolder()}`).join(', ')}`,
      );
      const [holder] = holders;
      const other = windows.find((w) => w !== holder)!;
      assert.equal(other.searches.length, 0, 'the other window sent no search');
      assert.deepEqual([...holder!.searches].sort(), ['Retry-After', QUERY_MESSAGE].sort());
      assert.deepEqual(storage.get<{ owner: string }>(LEASE_KEY)?.owner, holder!.owner);
      // The new issue (#481, added above) is news, once, in the holder's window only.
      assert.ok(
        holder!.events.some((e) => e.kind === 'news' && e.news.some((n) => n.id === 'issue:fetchline/fetchline#481')),
      );
      assert.deepEqual(other.events, []);
      // The holder's window closes: the other takes the lease at its next beat and checks when the watches fall due.
      await holder!.s.dispose();
      await until(
        'the other window takes over',
        () => other.s.isHolder(),
        (h) => h,
        10_000,
        50,
      );
      await until(
        'the other window checks when due',
        () => other.searches.length,
        (n) => n >= 2,
        20_000,
        50,
      );
    } finally {
      for (const w of windows) await w.s.dispose();
      await client.close();
    }
  });
});
