// The extension side of the Search view, without the editor: fake deps, a recording post.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ParamIssue, SearchParams } from '../../../src/api/params';
import type { RetryEvent } from '../../../src/api/retry';
import type { SearchResponse } from '../../../src/api/schemas';
import type { ToWebview, ViewNote } from '../../../src/webview/protocol';
import { passagesDocument, SearchController, toFill, toViewError, type SearchViewDeps } from '../../../src/webview/searchController';

const RESPONSE: SearchResponse = {
  success: true,
  results: [
    { id: 'doc:a/b', type: 'doc', url: 'https://docs.example.com/b.html', title: undefined, passages: [{ text: '# B' }] },
    { id: 'issue:o/r#1', type: 'issue', url: 'https://github.com/o/r/issues/1', title: 'Bug', passages: [{ text: 'x' }, { text: 'y' }] },
  ],
  coverage: { doc: 'ok', issue: 'ok', pull_request: 'skipped', readme: 'brand-new-state' },
  reranked: true,
  repos: [{ repo: 'o/r', indexed: true, types: { issue: true, pullRequest: false, readme: true } }],
};

interface Pending { params: SearchParams; signal: AbortSignal; onRetry(e: RetryEvent): void; resolve(v: { response: SearchResponse; notes: ViewNote[] }): void; reject(e: unknown): void }

function setup(over: Partial<SearchViewDeps> = {}) {
  const key = { set: false };
  const posted: ToWebview[] = [];
  const logs: string[] = [];
  const calls: string[] = [];
  const searches: Pending[] = [];
  const deps: SearchViewDeps = {
    search: (params, opts) => new Promise((resolve, reject) => {
      const p: Pending = { params, signal: opts.signal, onRetry: opts.onRetry, resolve, reject };
      searches.push(p);
      opts.signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { kind: 'aborted' })));
    }),
    validate: (params): ParamIssue[] => (params.k !== undefined && params.k > 100 ? [{ field: 'k', message: `k must be from 1 to 100; got ${params.k}` }] : []),
    workspaceRepos: async () => ['o/r'],
    defaults: () => ({ k: 10, passages: 1, types: ['doc', 'issue'] }),
    hasKey: async () => key.set,
    runCommand: (id) => { calls.push(`command ${id}`); },
    openExternal: (url) => { calls.push(`open ${url}`); },
    insertAtCursor: async (text) => { calls.push(`insert ${text}`); return text !== 'no-editor'; },
    copy: async (text) => { calls.push(`copy ${text}`); },
    openMarkdownDocument: async (title, md) => { calls.push(`doc ${title}\n${md}`); },
    log: (line) => { logs.push(line); },
    ...over,
  };
  const c = new SearchController(deps, (m) => { posted.push(m); });
  return { c, posted, logs, calls, searches, key };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('search view controller', () => {
  it('posts nothing before ready, then init with defaults and workspace repos', async () => {
    const { c, posted } = setup();
    c.fill({ query: 'early' });
    assert.deepEqual(posted, []);
    await c.receive({ type: 'ready' });
    assert.deepEqual(posted[0], { type: 'init', defaults: { k: 10, passages: 1, types: ['doc', 'issue'] }, workspaceRepos: ['o/r'] });
    assert.deepEqual(posted[1], { type: 'keyState', hasKey: false });
    assert.deepEqual(posted[2], { type: 'fill', fill: { params: { query: 'early' }, replaceFilters: false, run: true } });
    assert.equal(posted.length, 3);
  });

  it('sends changed settings defaults to a ready view only', async () => {
    let defaults = { k: 10, passages: 1, types: ['doc', 'issue'] };
    const { c, posted } = setup({ defaults: () => defaults });
    defaults = { k: 25, passages: 3, types: ['issue'] };
    c.settingsChanged();
    assert.deepEqual(posted, [], 'a view that has not said ready gets them with its init');
    await c.receive({ type: 'ready' });
    posted.length = 0;
    defaults = { k: 50, passages: 2, types: ['doc'] };
    c.settingsChanged();
    c.fill({ query: 'after' });
    assert.deepEqual(posted[0], { type: 'init', defaults: { k: 50, passages: 2, types: ['doc'] }, workspaceRepos: ['o/r'] });
    assert.equal((posted as ToWebview[])[1]?.type, 'fill', 'the new defaults are posted before a fill that follows them');
  });

  it('says whether a key is set, and again whenever it changes, but only to a ready view', async () => {
    const { c, posted, key } = setup();
    key.set = true;
    await c.keyChanged();
    assert.equal(posted.length, 0, 'nothing reaches a webview that has not said ready');
    await c.receive({ type: 'ready' });
    assert.deepEqual(posted.filter((m) => m.type === 'keyState'), [{ type: 'keyState', hasKey: true }]);
    posted.length = 0;
    key.set = false;
    await c.keyChanged();
    assert.deepEqual(posted, [{ type: 'keyState', hasKey: false }]);
    c.detach();
    key.set = true;
    await c.keyChanged();
    assert.equal(posted.length, 1, 'a detached (hidden) view is told on its next ready instead');
  });

  it('logs, and sends no key state, when the secret storage cannot be read', async () => {
    const { c, posted, logs } = setup({ hasKey: async () => { throw new Error('keyring locked'); } });
    await c.receive({ type: 'ready' });
    assert.deepEqual(posted.map((m) => m.type), ['init']);
    assert.match(logs.join('\n'), /keyring locked/);
  });

  it('still says init when the workspace repositories cannot be read', async () => {
    const { c, posted, logs } = setup({ workspaceRepos: async () => { throw new Error('git extension missing'); } });
    await c.receive({ type: 'ready' });
    assert.deepEqual(posted[0], { type: 'init', defaults: { k: 10, passages: 1, types: ['doc', 'issue'] }, workspaceRepos: [] });
    assert.match(logs[0]!, /git extension missing/);
  });

  it('logs and drops invalid messages without acting', async () => {
    const { c, posted, logs, calls } = setup();
    await c.receive({ type: 'ready' });
    posted.length = 0;
    await c.receive({ type: 'openLink', url: 42 });
    await c.receive({ type: 'runCommand', id: 'workbench.action.terminal.new' });
    await c.receive('setKey');
    await c.receive({ type: 'search', requestId: 's', params: { query: 'q', apiKey: 'secret' } });
    assert.deepEqual(calls, []);
    assert.deepEqual(posted, []);
    assert.equal(logs.length, 4);
    assert.match(logs[1]!, /dropped an invalid message \("runCommand"\)/);
  });

  it('runs a search: started, then results projected for the view', async () => {
    const { c, posted, searches } = setup();
    await c.receive({ type: 'ready' });
    posted.length = 0;
    const done = c.receive({ type: 'search', requestId: 's1', params: { query: 'q', repos: ['o/r'] } });
    assert.deepEqual(posted, [{ type: 'searchStarted', requestId: 's1' }]);
    assert.deepEqual(searches[0]!.params, { query: 'q', repos: ['o/r'] });
    searches[0]!.resolve({ response: RESPONSE, notes: [{ level: 'warning', type: 'doc', text: 'why', fix: { kind: 'add-sources', label: 'Add sources' } }] });
    await done;
    const r = posted[1]!;
    assert.ok(r.type === 'results');
    assert.equal(r.requestId, 's1');
    assert.deepEqual(r.outcome.results, [
      { id: 'doc:a/b', type: 'doc', url: 'https://docs.example.com/b.html', host: 'docs.example.com', passages: ['# B'] },
      { id: 'issue:o/r#1', type: 'issue', url: 'https://github.com/o/r/issues/1', title: 'Bug', host: 'github.com', passages: ['x', 'y'] },
    ]);
    assert.deepEqual(r.outcome.coverage, { doc: 'ok', issue: 'ok', pull_request: 'skipped', readme: 'brand-new-state' });
    assert.equal(r.outcome.reranked, true);
    assert.deepEqual(r.outcome.repos, [{ repo: 'o/r', indexed: true, types: { issue: true, pullRequest: false, readme: true } }]);
    assert.equal(r.outcome.sources, undefined);
    assert.deepEqual(r.outcome.notes, [{ level: 'warning', type: 'doc', text: 'why', fix: { kind: 'add-sources', label: 'Add sources' } }]);
  });

  it('answers validate, and refuses to search with the client\'s issues', async () => {
    const { c, posted, searches } = setup();
    await c.receive({ type: 'ready' });
    posted.length = 0;
    await c.receive({ type: 'validate', requestId: 'v1', params: { query: '', k: 500 } });
    await c.receive({ type: 'search', requestId: 's1', params: { query: 'q', k: 500 } });
    assert.deepEqual(posted, [
      { type: 'validation', requestId: 'v1', issues: [{ field: 'k', message: 'k must be from 1 to 100; got 500' }] },
      { type: 'validation', requestId: 's1', issues: [{ field: 'k', message: 'k must be from 1 to 100; got 500' }] },
    ]);
    assert.equal(searches.length, 0);
  });

  it('relays retry waits for the current search', async () => {
    const { c, posted, searches } = setup();
    await c.receive({ type: 'ready' });
    posted.length = 0;
    const done = c.receive({ type: 'search', requestId: 's1', params: { query: 'q' } });
    searches[0]!.onRetry({ attempt: 1, maxAttempts: 5, delayMs: 3000, reason: 'Too Many Requests', status: 429 });
    assert.deepEqual(posted[1], { type: 'retrying', requestId: 's1', attempt: 1, maxAttempts: 5, delayMs: 3000, reason: 'Too Many Requests', status: 429 });
    searches[0]!.resolve({ response: RESPONSE, notes: [] });
    await done;
  });

  it('a new search aborts the one in flight; cancel aborts the current one', async () => {
    const { c, posted, searches } = setup();
    await c.receive({ type: 'ready' });
    posted.length = 0;
    const first = c.receive({ type: 'search', requestId: 's1', params: { query: 'one' } });
    const second = c.receive({ type: 'search', requestId: 's2', params: { query: 'two' } });
    assert.equal(searches[0]!.signal.aborted, true);
    assert.equal(searches[1]!.signal.aborted, false);
    await first;
    await c.receive({ type: 'cancel', requestId: 's1' });
    assert.equal(searches[1]!.signal.aborted, false, 'cancelling a superseded id touches nothing');
    await c.receive({ type: 'cancel', requestId: 's2' });
    assert.equal(searches[1]!.signal.aborted, true);
    await second;
    assert.deepEqual(posted.filter((m) => m.type === 'searchCancelled'), [{ type: 'searchCancelled', requestId: 's1' }, { type: 'searchCancelled', requestId: 's2' }]);
  });

  it('maps failures to the next step', async () => {
    const { c, posted, searches } = setup();
    await c.receive({ type: 'ready' });
    posted.length = 0;
    const done = c.receive({ type: 'search', requestId: 's1', params: { query: 'q' } });
    searches[0]!.reject({ kind: 'http', status: 401, message: 'Unauthorized: Invalid token (HTTP 401): set or replace the API key' });
    await done;
    assert.deepEqual(posted[1], { type: 'searchError', requestId: 's1', error: { message: 'Unauthorized: Invalid token (HTTP 401): set or replace the API key', status: 401, action: 'setKey' } });
  });

  it('error -> action table', () => {
    const cases: Array<[unknown, string, number?]> = [
      [{ kind: 'http', status: 401, message: 'm' }, 'setKey'],
      [{ kind: 'http', status: 429, message: 'm', retryAfterMs: 3000 }, 'wait', 3000],
      [{ kind: 'http', status: 429, message: 'm' }, 'retry'],
      [{ kind: 'retry-after-too-long', status: 429, message: 'm', retryAfterMs: 120000 }, 'wait', 120000],
      [{ kind: 'network', message: 'ECONNREFUSED' }, 'retry'],
      [{ kind: 'timeout', message: 't' }, 'retry'],
      [{ kind: 'http', status: 503, message: 'm' }, 'retry'],
      [{ kind: 'http', status: 400, message: 'm' }, 'fix'],
      [{ kind: 'validation', message: 'm', issues: [{ field: 'k', message: 'bad k' }] }, 'fix'],
      [{ kind: 'http', status: 402, message: 'm' }, 'none'],
      [new Error('weird'), 'retry'],
    ];
    for (const [err, action, wait] of cases) {
      const v = toViewError(err);
      assert.ok(v !== 'aborted');
      assert.equal(v.action, action, JSON.stringify(err));
      if (wait !== undefined) assert.equal(v.retryAfterMs, wait);
    }
    assert.equal(toViewError({ kind: 'aborted', message: 'aborted' }), 'aborted');
    const val = toViewError({ kind: 'validation', message: 'm', issues: [{ field: 'k', message: 'bad k' }] });
    assert.ok(val !== 'aborted');
    assert.deepEqual(val.issues, [{ field: 'k', message: 'bad k' }]);
  });

  it('re-checks link schemes before opening', async () => {
    const { c, calls, logs } = setup();
    await c.receive({ type: 'openLink', url: 'https://example.com/a' });
    await c.receive({ type: 'openLink', url: 'mailto:a@example.com' });
    await c.receive({ type: 'openLink', url: 'javascript:alert(1)' });
    await c.receive({ type: 'openLink', url: ' JAVA\tSCRIPT:alert(1)' });
    await c.receive({ type: 'openLink', url: 'command:workbench.action.terminal.new' });
    await c.receive({ type: 'openLink', url: 'file:///etc/passwd' });
    assert.deepEqual(calls, ['open https://example.com/a', 'open mailto:a@example.com']);
    assert.equal(logs.filter((l) => /refused to open/.test(l)).length, 4);
  });

  it('copies, inserts and opens passages, and says how it went', async () => {
    const { c, posted, calls } = setup();
    await c.receive({ type: 'ready' });
    posted.length = 0;
    await c.receive({ type: 'copy', requestId: 'a1', text: 'https://e.com' });
    await c.receive({ type: 'insert', requestId: 'a2', text: 'code' });
    await c.receive({ type: 'insert', requestId: 'a3', text: 'no-editor' });
    await c.receive({ type: 'openPassages', requestId: 'a4', title: 'T\nitle', url: 'https://e.com/x', passages: ['one', 'two'] });
    await c.receive({ type: 'setKey' });
    assert.deepEqual(calls, ['copy https://e.com', 'insert code', 'insert no-editor', `doc T\nitle\n${passagesDocument('T\nitle', 'https://e.com/x', ['one', 'two'])}`, 'command devIndex.auth.setKey']);
    assert.deepEqual(posted.map((m) => m.type === 'actionDone' && [m.requestId, m.ok]), [['a1', true], ['a2', true], ['a3', false], ['a4', true]]);
  });

  it('reports a failing action to the log instead of throwing', async () => {
    const { c, logs } = setup({ copy: async () => { throw new Error('clipboard unavailable'); } });
    await c.receive({ type: 'copy', requestId: 'a1', text: 'x' });
    assert.match(logs[0]!, /copy failed: clipboard unavailable/);
  });

  it('re-delivers the outcome to a webview rebuilt while the search ran', async () => {
    const { c, posted, searches } = setup();
    await c.receive({ type: 'ready' });
    const done = c.receive({ type: 'search', requestId: 's1', params: { query: 'q' } });
    c.detach();
    searches[0]!.resolve({ response: RESPONSE, notes: [] });
    await done;
    const before = posted.length;
    c.attach((m) => { posted.push(m); });
    await c.receive({ type: 'ready', pendingRequestId: 's1' });
    const after = posted.slice(before);
    assert.deepEqual(after.map((m) => m.type), ['init', 'keyState', 'results']);
    // An id this extension host never saw (the window reloaded): the view is told to run it again.
    await c.receive({ type: 'ready', pendingRequestId: 'unknown' });
    const last = posted[posted.length - 1]!;
    assert.ok(last.type === 'searchError' && last.requestId === 'unknown' && last.error.action === 'retry');
    await tick();
  });

  it('tells a rebuilt webview that the search is still running', async () => {
    const { c, posted, searches } = setup();
    await c.receive({ type: 'ready' });
    const done = c.receive({ type: 'search', requestId: 's1', params: { query: 'q' } });
    c.detach();
    c.attach((m) => { posted.push(m); });
    const before = posted.length;
    await c.receive({ type: 'ready', pendingRequestId: 's1' });
    assert.deepEqual(posted.slice(before).map((m) => m.type), ['init', 'keyState', 'searchStarted']);
    searches[0]!.resolve({ response: RESPONSE, notes: [] });
    await done;
    assert.equal(posted[posted.length - 1]!.type, 'results');
  });

  it('dispose aborts the search in flight', async () => {
    const { c, searches } = setup();
    await c.receive({ type: 'ready' });
    const done = c.receive({ type: 'search', requestId: 's1', params: { query: 'q' } });
    c.dispose();
    assert.equal(searches[0]!.signal.aborted, true);
    await done;
  });
});

describe('show requests and the passages document', () => {
  it('a bare query keeps the view\'s filters; a request with filters replaces them', () => {
    assert.deepEqual(toFill({ query: 'q' }), { params: { query: 'q' }, replaceFilters: false, run: true });
    assert.deepEqual(toFill({ query: 'q', repos: ['o/r'] }, { run: false, notice: 'cut' }), { params: { query: 'q', repos: ['o/r'] }, replaceFilters: true, run: false, notice: 'cut' });
    assert.deepEqual(toFill({ query: 'q', archived: false, k: 3 }).params, { query: 'q', k: 3, archived: false });
  });

  it('builds one Markdown document with the title, the link and every passage', () => {
    assert.equal(passagesDocument('HTTP\n | Node', 'https://nodejs.org/api/http.html', ['one ', 'two']),
      '# HTTP | Node\n\n<https://nodejs.org/api/http.html>\n\n## Passage 1\n\none\n\n## Passage 2\n\ntwo\n');
    assert.doesNotMatch(passagesDocument('t', 'javascript:alert(1)', ['p']), /javascript/);
  });
});
