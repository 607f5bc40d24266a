// The Search view's watch messages on the extension side. The view asks to watch the search it
// shows (the controller knows it: nothing is handed back), acts on a watch by id; anything else is dropped.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { SearchResponse } from '../../../src/api/schemas';
import type { ToWebview, ViewWatches } from '../../../src/webview/protocol';
import { SearchController, type SearchViewDeps, type WatchableSearch } from '../../../src/webview/searchController';

const RESPONSE = {
  success: true,
  results: [
    {
      id: 'issue:o/r#1',
      type: 'issue',
      url: 'https://github.com/o/r/issues/1',
      title: 'Bug',
      passages: [{ text: 'Fixed in 2.1.0.' }],
    },
  ],
  coverage: { issue: 'ok' },
} as unknown as SearchResponse;
const tick = () => new Promise((r) => setImmediate(r));

function setup(over: { workspaceRepos?: () => Promise<string[]> } = {}) {
  const posted: ToWebview[] = [];
  const calls: string[] = [];
  const logs: string[] = [];
  const added: WatchableSearch[] = [];
  const list: ViewWatches = {
    watches: [{ id: 'w1', query: 'q', scope: 'o/r · 2.0.0 installed', newCount: 1 }],
    max: 50,
  };
  const deps = {
    search: async () => RESPONSE,
    validate: () => [],
    workspaceRepos: over.workspaceRepos ?? (async () => []),
    defaults: () => ({ k: 10, passages: 1, types: ['issue'] }),
    hasKey: async () => true,
    runCommand: () => undefined,
    openExternal: () => undefined,
    insertAtCursor: async () => true,
    copy: async () => undefined,
    openMarkdownDocument: async () => undefined,
    status: () => undefined,
    warn: (m: string) => {
      calls.push(`warn ${m}`);
    },
    log: (l: string) => {
      logs.push(l);
    },
    watches: {
      list: (current: WatchableSearch | undefined) => ({
        ...list,
        ...(current ? { canWatch: { query: current.params.query, scope: current.params.repos!.join(', ') } } : {}),
      }),
      add: async (s: WatchableSearch) => {
        added.push(s);
      },
      act: async (action: string, id: string) => {
        calls.push(`${action} ${id}`);
      },
    },
  } satisfies SearchViewDeps;
  const c = new SearchController(deps, (m) => {
    posted.push(m);
  });
  return { c, posted, calls, logs, added };
}

it('the Watched list is sent at ready; a scoped search with results can be watched, an unscoped one cannot', async () => {
  const { c, posted, calls, added } = setup();
  await c.receive({ type: 'ready' });
  assert.deepEqual(
    posted.find((m) => m.type === 'watches'),
    { type: 'watches', watches: [{ id: 'w1', query: 'q', scope: 'o/r · 2.0.0 installed', newCount: 1 }], max: 50 },
  );
  await c.receive({ type: 'watch' });
  assert.match(calls.join('\n'), /warn Developer Index: run a search scoped to a dependency or a repository first/);
  await c.receive({ type: 'search', requestId: 'r1', params: { query: 'bug', repos: ['o/r'], types: ['issue'] } });
  await tick();
  const last = posted.filter((m) => m.type === 'watches').at(-1) as Extract<ToWebview, { type: 'watches' }>;
  assert.deepEqual(last.canWatch, { query: 'bug', scope: 'o/r' });
  const started = posted.filter((m) => m.type === 'searchStarted').at(-1) as { params: unknown } | undefined;
  assert.deepEqual(started?.params, {
    query: 'bug',
    repos: ['o/r'],
    types: ['issue'],
  });
  await c.receive({ type: 'watch' });
  assert.equal(added.length, 1);
  assert.deepEqual(added[0]!.params, { query: 'bug', repos: ['o/r'], types: ['issue'] });
  assert.equal(added[0]!.response, RESPONSE);
  await c.receive({ type: 'search', requestId: 'r2', params: { query: 'other', types: ['issue'] } });
  await tick();
  assert.equal(
    (posted.filter((m) => m.type === 'watches').at(-1) as { canWatch?: unknown }).canWatch,
    undefined,
    'no repository scope: nothing to watch',
  );
});

it('actions by id go to the watch port; a bad action, a missing id or extra fields are dropped and logged', async () => {
  const { c, calls, logs } = setup();
  await c.receive({ type: 'ready' });
  await c.receive({ type: 'watchAction', action: 'check', id: 'w1' });
  await c.receive({ type: 'watchAction', action: 'remove', id: 'w1' });
  await c.receive({ type: 'watchAction', action: 'open', id: 'w1' });
  await c.receive({ type: 'watchAction', action: 'delete-everything', id: 'w1' });
  await c.receive({ type: 'watchAction', action: 'check' });
  await c.receive({ type: 'watchAction', action: 'check', id: 'x'.repeat(65) });
  await c.receive({ type: 'watch', params: { query: 'handed back' } });
  assert.deepEqual(calls, ['check w1', 'remove w1', 'open w1']);
  assert.equal(logs.filter((l) => /dropped an invalid message \("watch(Action)?"\)/.test(l)).length, 4);
});

it('a view marked not listening that still posts is taken as listening: it is sent the state ready sends, then the new list', async () => {
  const { c, posted, logs } = setup();
  await c.receive({ type: 'ready' });
  await c.receive({ type: 'search', requestId: 'r1', params: { query: 'bug', repos: ['o/r'], types: ['issue'] } });
  await tick();
  // Hidden (the visibility event) but the same document goes on posting: without a new ready it heard nothing again.
  c.detach();
  c.watchesChanged();
  assert.match(logs.join('\n'), /the Watched list changed while the view was not listening/);
  const before = posted.length;
  await c.receive({ type: 'watch' });
  const after = posted.slice(before).map((m) => m.type);
  assert.deepEqual(
    after.slice(0, 3),
    ['init', 'keyState', 'watches'],
    `the state ready sends, first: ${after.join(', ')}`,
  );
  assert.match(logs.join('\n'), /search view: watch came from a view that had not said ready/);
  // Listening again: the next change reaches it at once.
  const n = posted.length;
  c.watchesChanged();
  assert.equal(posted.length, n + 1);
  assert.equal(posted.at(-1)!.type, 'watches');
});

it("a message that comes while the view's ready is being answered waits for that answer: init is sent once", async () => {
  let release!: (r: string[]) => void;
  const { c, posted } = setup({
    workspaceRepos: () =>
      new Promise<string[]>((r) => {
        release = r;
      }),
  });
  const ready = c.receive({ type: 'ready' });
  await tick();
  const action = c.receive({ type: 'watchAction', action: 'check', id: 'w1' });
  await tick();
  release(['o/r']);
  await Promise.all([ready, action]);
  assert.equal(posted.filter((m) => m.type === 'init').length, 1);
});

it('a message from a hidden view is not taken as listening: its document is gone, what is sent waits for the next ready', async () => {
  const { c, posted } = setup();
  let visible = true;
  c.attach(
    (m) => {
      posted.push(m);
    },
    () => visible,
  );
  await c.receive({ type: 'ready' });
  visible = false;
  c.detach();
  const before = posted.length;
  await c.receive({ type: 'watchAction', action: 'check', id: 'w1' });
  c.watchesChanged();
  assert.deepEqual(posted.slice(before), []);
  visible = true;
  await c.receive({ type: 'ready' });
  assert.deepEqual(
    posted.slice(before).map((m) => m.type),
    ['init', 'keyState', 'watches'],
  );
});

it('what a starting document posts before its ready (a log line) is not taken as listening', async () => {
  const { c, posted, logs } = setup();
  await c.receive({ type: 'log', message: 'the view failed to start' });
  assert.equal(posted.length, 0, 'nothing before ready');
  assert.equal(logs.filter((l) => /dropped an invalid message/.test(l)).length, 0, 'the message was valid');
  await c.receive({ type: 'ready' });
  assert.deepEqual(
    posted.map((m) => m.type),
    ['init', 'keyState', 'watches'],
  );
});
