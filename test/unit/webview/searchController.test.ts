// The extension side of the Search view, without the editor: fake deps, a recording post.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ParamIssue, SearchParams } from '../../../src/api/params';
import type { RetryEvent } from '../../../src/api/retry';
import type { SearchResponse } from '../../../src/api/schemas';
import type { ToWebview } from '../../../src/webview/protocol';
import { explainCoverage } from '../../../src/api/coverage';
import { passagesDocument, toOutcome } from '../../../src/search/session/outcome';
import { commandParams } from '../../../src/search/session/request';
import { toViewError } from '../../../src/search/session/searchSession';
import { SearchController, type SearchViewDeps } from '../../../src/webview/searchController';
import { SearchResponseSchema } from '../../../src/api/schemas';

const RESPONSE: SearchResponse = {
  success: true,
  results: [
    {
      id: 'doc:a/b',
      type: 'doc',
      url: 'https://docs.example.com/b.html',
      title: undefined,
      passages: [{ text: '# B' }],
    },
    {
      id: 'issue:o/r#1',
      type: 'issue',
      url: 'https://github.com/o/r/issues/1',
      title: 'Bug',
      passages: [{ text: 'x' }, { text: 'y' }],
    },
  ],
  coverage: { doc: 'ok', issue: 'ok', pull_request: 'skipped', readme: 'brand-new-state' },
  reranked: true,
  repos: [{ repo: 'o/r', indexed: true, types: { issue: true, pullRequest: false, readme: true } }],
};

interface Pending {
  params: SearchParams;
  signal: AbortSignal;
  onRetry(e: RetryEvent): void;
  resolve(v: SearchResponse): void;
  reject(e: unknown): void;
  keyless?: boolean;
}

function setup(over: Partial<SearchViewDeps> = {}) {
  const key = { set: false };
  const posted: ToWebview[] = [];
  const logs: string[] = [];
  const calls: string[] = [];
  const searches: Pending[] = [];
  const deps: SearchViewDeps = {
    search: (params, opts) =>
      new Promise((resolve, reject) => {
        const p: Pending = {
          params,
          signal: opts.signal,
          onRetry: opts.onRetry,
          resolve,
          reject,
          ...(opts.keyless ? { keyless: true } : {}),
        };
        searches.push(p);
        opts.signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { kind: 'aborted' })));
      }),
    validate: (params): ParamIssue[] =>
      params.k !== undefined && params.k > 100
        ? [{ field: 'k', message: `k must be from 1 to 100; got ${params.k}` }]
        : [],
    workspaceRepos: async () => ['o/r'],
    defaults: () => ({ k: 10, passages: 1, types: ['doc', 'issue'] }),
    hasKey: async () => key.set,
    runCommand: (id) => {
      calls.push(`command ${id}`);
    },
    openExternal: (url) => {
      calls.push(`open ${url}`);
    },
    insertAtCursor: async (text) => {
      calls.push(`insert ${text}`);
      return text !== 'no-editor';
    },
    copy: async (text) => {
      calls.push(`copy ${text}`);
    },
    openMarkdownDocument: async (id, title, md) => {
      calls.push(`doc ${id} ${title}\n${md}`);
    },
    status: (m) => {
      calls.push(`status ${m}`);
    },
    warn: (m) => {
      calls.push(`warn ${m}`);
    },
    log: (line) => {
      logs.push(line);
    },
    ...over,
  };
  const c = new SearchController(deps, (m) => {
    posted.push(m);
  });
  return { c, posted, logs, calls, searches, key };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('search view controller', () => {
  it("a command's search waits for the view: nothing before ready, then init, key state and the search with its params", async () => {
    const { c, posted, searches } = setup();
    const done = c.search({ query: 'early' }, { scope: 'keep' });
    await tick();
    assert.deepEqual(posted, []);
    assert.equal(searches.length, 0, 'not sent before the view can show it');
    await c.receive({ type: 'ready', scope: { query: '', k: 10, passages: 1, language: 'Go' } });
    assert.deepEqual(posted[0], {
      type: 'init',
      defaults: { k: 10, passages: 1, types: ['doc', 'issue'] },
      workspaceRepos: ['o/r'],
    });
    assert.deepEqual(posted[1], { type: 'keyState', hasKey: false });
    await tick();
    const started = (posted as ToWebview[])[2]!;
    assert.ok(started.type === 'searchStarted');
    assert.deepEqual(
      started.params,
      { query: 'early', k: 10, passages: 1, language: 'Go' },
      'keep: the scope the view reported',
    );
    assert.deepEqual(searches[0]!.params, started.params, 'one pipeline: exactly what the view was told');
    searches[0]!.resolve(RESPONSE);
    await done;
    assert.equal((posted as ToWebview[])[3]!.type, 'results');
  });

  it('command searches: keep uses the scope on screen, exact resets what the request does not name', () => {
    const d = { k: 10, passages: 1, types: ['doc', 'issue'] };
    const scope = { query: 'old', k: 5, passages: 2, repos: ['a/b'], language: 'Go' };
    assert.deepEqual(commandParams({ query: ' q ' }, { scope: 'keep' }, scope, d), {
      query: 'q',
      k: 5,
      passages: 2,
      repos: ['a/b'],
      language: 'Go',
    });
    assert.deepEqual(
      commandParams({ query: 'q' }, { scope: 'keep' }, undefined, d),
      { query: 'q', k: 10, passages: 1, types: ['doc', 'issue'] },
      'a view never loaded: the defaults',
    );
    assert.deepEqual(commandParams({ query: 'q', repos: ['o/r'] }, { scope: 'exact' }, scope, d), {
      query: 'q',
      k: 10,
      passages: 1,
      types: ['doc', 'issue'],
      repos: ['o/r'],
    });
    assert.deepEqual(commandParams({ query: 'q', sources: ['s'], k: 3 }, { scope: 'keep' }, scope, d), {
      query: 'q',
      k: 3,
      passages: 2,
      repos: ['a/b'],
      language: 'Go',
      sources: ['s'],
    });
  });

  it("a command's search that finishes while the view is hidden reaches it when it is shown", async () => {
    const { c, posted, searches } = setup();
    await c.receive({ type: 'ready' });
    const done = c.search({ query: 'q', repos: ['o/r'] }, { scope: 'exact' });
    await tick();
    c.detach();
    posted.length = 0;
    searches[0]!.resolve(RESPONSE);
    await done;
    assert.deepEqual(posted, [], 'nothing is posted to a hidden view');
    await c.receive({ type: 'ready' });
    assert.deepEqual(
      (posted as ToWebview[]).map((m) => m.type),
      ['init', 'keyState', 'results'],
    );
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
    const done = c.search({ query: 'after' }, { scope: 'exact' });
    await tick();
    assert.deepEqual(posted[0], {
      type: 'init',
      defaults: { k: 50, passages: 2, types: ['doc'] },
      workspaceRepos: ['o/r'],
    });
    const started = (posted as ToWebview[])[1];
    assert.ok(started?.type === 'searchStarted', 'the new defaults are posted before a search that follows them');
    assert.deepEqual(started.params, { query: 'after', k: 50, passages: 2, types: ['doc'] });
    c.dispose();
    await done;
  });

  it('says whether a key is set, and again whenever it changes, but only to a ready view', async () => {
    const { c, posted, key } = setup();
    key.set = true;
    await c.keyChanged();
    assert.equal(posted.length, 0, 'nothing reaches a webview that has not said ready');
    await c.receive({ type: 'ready' });
    assert.deepEqual(
      posted.filter((m) => m.type === 'keyState'),
      [{ type: 'keyState', hasKey: true }],
    );
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
    const { c, posted, logs } = setup({
      hasKey: async () => {
        throw new Error('keyring locked');
      },
    });
    await c.receive({ type: 'ready' });
    assert.deepEqual(
      posted.map((m) => m.type),
      ['init'],
    );
    assert.match(logs.join('\n'), /keyring locked/);
  });

  it('still says init when the workspace repositories cannot be read', async () => {
    const { c, posted, logs } = setup({
      workspaceRepos: async () => {
        throw new Error('git extension missing');
      },
    });
    await c.receive({ type: 'ready' });
    assert.deepEqual(posted[0], {
      type: 'init',
      defaults: { k: 10, passages: 1, types: ['doc', 'issue'] },
      workspaceRepos: [],
    });
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
    assert.deepEqual(posted, [{ type: 'searchStarted', requestId: 's1', params: { query: 'q', repos: ['o/r'] } }]);
    assert.deepEqual(searches[0]!.params, { query: 'q', repos: ['o/r'] });
    searches[0]!.resolve(RESPONSE);
    await done;
    const r = posted[1]!;
    assert.ok(r.type === 'results');
    assert.equal(r.requestId, 's1');
    assert.deepEqual(r.outcome.results, [
      {
        id: 'doc:a/b',
        type: 'doc',
        url: 'https://docs.example.com/b.html',
        provenance: 'docs.example.com/b.html',
        passages: [{ text: '# B' }],
      },
      {
        id: 'issue:o/r#1',
        type: 'issue',
        url: 'https://github.com/o/r/issues/1',
        title: 'Bug',
        provenance: 'o/r #1',
        passages: [{ text: 'x' }, { text: 'y' }],
      },
    ]);
    assert.deepEqual(r.outcome.coverage, {
      doc: 'ok',
      issue: 'ok',
      pull_request: 'skipped',
      readme: 'brand-new-state',
    });
    assert.equal(r.outcome.reranked, true);
    assert.deepEqual(r.outcome.repos, [
      { repo: 'o/r', indexed: true, types: { issue: true, pullRequest: false, readme: true } },
    ]);
    assert.equal(r.outcome.sources, undefined);
    // The coverage notes are the session's own, explained once from the response.
    assert.ok(r.outcome.notes.length > 0);
    assert.deepEqual(r.outcome.notes, explainCoverage({ query: 'q', repos: ['o/r'] }, RESPONSE));
  });

  it('answers live validation; a search is validated once, by the client, and its refusal reaches the view', async () => {
    const { c, posted, searches } = setup();
    await c.receive({ type: 'ready' });
    posted.length = 0;
    await c.receive({ type: 'validate', requestId: 'v1', params: { query: '', k: 500 } });
    assert.deepEqual(posted, [
      { type: 'validation', requestId: 'v1', issues: [{ field: 'k', message: 'k must be from 1 to 100; got 500' }] },
    ]);
    const done = c.receive({ type: 'search', requestId: 's1', params: { query: 'q', k: 500 } });
    assert.equal(searches.length, 1, 'handed to the client as it is: the client validates');
    searches[0]!.reject({
      kind: 'validation',
      message: 'k must be from 1 to 100; got 500',
      issues: [{ field: 'k', message: 'k must be from 1 to 100; got 500' }],
    });
    await done;
    const last = posted[posted.length - 1]!;
    assert.ok(last.type === 'searchError' && last.error.action === 'fix');
    assert.deepEqual(last.error.issues, [{ field: 'k', message: 'k must be from 1 to 100; got 500' }]);
  });

  it('passes Search Without Key through to the search', async () => {
    const { c, searches } = setup();
    await c.receive({ type: 'ready' });
    const done = c.receive({ type: 'search', requestId: 's1', params: { query: 'q' }, keyless: true });
    assert.equal(searches[0]!.keyless, true);
    searches[0]!.resolve(RESPONSE);
    await done;
  });

  it('relays retry waits for the current search', async () => {
    const { c, posted, searches } = setup();
    await c.receive({ type: 'ready' });
    posted.length = 0;
    const done = c.receive({ type: 'search', requestId: 's1', params: { query: 'q' } });
    searches[0]!.onRetry({ attempt: 1, maxAttempts: 5, delayMs: 3000, reason: 'Too Many Requests', status: 429 });
    assert.deepEqual(posted[1], {
      type: 'retrying',
      requestId: 's1',
      attempt: 1,
      maxAttempts: 5,
      delayMs: 3000,
      reason: 'Too Many Requests',
      status: 429,
    });
    searches[0]!.resolve(RESPONSE);
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
    assert.deepEqual(
      posted.filter((m) => m.type === 'searchCancelled'),
      [
        { type: 'searchCancelled', requestId: 's1' },
        { type: 'searchCancelled', requestId: 's2' },
      ],
    );
  });

  it('maps failures to the next step', async () => {
    const { c, posted, searches } = setup();
    await c.receive({ type: 'ready' });
    posted.length = 0;
    const done = c.receive({ type: 'search', requestId: 's1', params: { query: 'q' } });
    searches[0]!.reject({
      kind: 'http',
      status: 401,
      message: 'Unauthorized: Invalid token (HTTP 401): set or replace the API key',
    });
    await done;
    assert.deepEqual(posted[1], {
      type: 'searchError',
      requestId: 's1',
      error: {
        message: 'Unauthorized: Invalid token (HTTP 401): set or replace the API key',
        status: 401,
        action: 'setKey',
      },
    });
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
    // Network and timeout failures offer Diagnose Connection; a service's own refusal does not.
    for (const kind of ['network', 'timeout'])
      assert.equal((toViewError({ kind, message: 'm' }) as { diagnose?: boolean }).diagnose, true, kind);
    for (const err of [
      { kind: 'http', status: 503, message: 'm' },
      { kind: 'invalid-response', message: 'm' },
      { kind: 'http', status: 401, message: 'm' },
    ]) {
      assert.equal((toViewError(err) as { diagnose?: boolean }).diagnose, undefined, JSON.stringify(err));
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

  it('copies, inserts and opens passages; confirmations go to the status bar, nothing to the view', async () => {
    const { c, posted, calls } = setup();
    await c.receive({ type: 'ready' });
    posted.length = 0;
    await c.receive({ type: 'copy', what: 'link', text: 'https://e.com' });
    await c.receive({ type: 'insert', text: 'code' });
    await c.receive({ type: 'insert', text: 'no-editor' });
    await c.receive({
      type: 'openPassages',
      id: 'doc:x',
      title: 'T\nitle',
      url: 'https://e.com/x',
      passages: ['one', 'two'],
    });
    await c.receive({ type: 'setKey' });
    await c.receive({ type: 'diagnose' });
    assert.deepEqual(calls, [
      'copy https://e.com',
      'status Copied the link',
      'insert code',
      'status Inserted the passage at the cursor',
      'insert no-editor',
      'warn Developer Index: no editor is active. Open a file, place the cursor, then insert again.',
      `doc doc:x T\nitle\n${passagesDocument('T\nitle', 'https://e.com/x', ['one', 'two'])}`,
      'command devIndex.auth.setKey',
      'command devIndex.diagnose',
    ]);
    assert.deepEqual(posted, []);
  });

  it("logs a view's log message on one line", async () => {
    const { c, logs } = setup();
    await c.receive({ type: 'ready' });
    await c.receive({ type: 'log', message: 'a\n2026-01-01 [error] forged\r\nline' });
    assert.deepEqual(logs, ['search view: a 2026-01-01 [error] forged line']);
  });

  it('reports a failing action to the log instead of throwing', async () => {
    const { c, logs } = setup({
      copy: async () => {
        throw new Error('clipboard unavailable');
      },
    });
    await c.receive({ type: 'ready' });
    await c.receive({ type: 'copy', what: 'link', text: 'x' });
    assert.match(logs[0]!, /copy failed: clipboard unavailable/);
  });

  it('re-delivers the outcome to a webview rebuilt while the search ran', async () => {
    const { c, posted, searches } = setup();
    await c.receive({ type: 'ready' });
    const done = c.receive({ type: 'search', requestId: 's1', params: { query: 'q' } });
    c.detach();
    searches[0]!.resolve(RESPONSE);
    await done;
    const before = posted.length;
    c.attach((m) => {
      posted.push(m);
    });
    await c.receive({ type: 'ready', pendingRequestId: 's1' });
    const after = posted.slice(before);
    assert.deepEqual(
      after.map((m) => m.type),
      ['init', 'keyState', 'results'],
    );
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
    c.attach((m) => {
      posted.push(m);
    });
    const before = posted.length;
    await c.receive({ type: 'ready', pendingRequestId: 's1' });
    assert.deepEqual(
      posted.slice(before).map((m) => m.type),
      ['init', 'keyState', 'searchStarted'],
    );
    searches[0]!.resolve(RESPONSE);
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

describe('the outcome and the passages document', () => {
  it('projects the production wire: kind from the id, provenance, both license forms, citation links', () => {
    const response = SearchResponseSchema.parse({
      success: true,
      results: [
        {
          id: 'issue:o/r#7',
          url: 'https://github.com/o/r/issues/7',
          title: 'T',
          license: { state: 'licensed', spdx_id: 'MIT' },
          passages: [{ text: 'p', citation_url: 'https://github.com/o/r/issues/7#c1' }, { text: 'q' }],
        },
        {
          id: 'web:example.com/a',
          url: 'https://www.example.com/a/b/',
          license: 'BSD-3-Clause',
          passages: [{ text: 'w', citation_url: 'javascript:alert(1)' }],
        },
        { id: 'readme:o/r', url: 'https://github.com/o/r#readme', license: { state: 'known_absent' }, passages: [] },
      ],
    });
    assert.deepEqual(toOutcome({ query: 'q' }, response, [], 5).results, [
      {
        id: 'issue:o/r#7',
        type: 'issue',
        url: 'https://github.com/o/r/issues/7',
        title: 'T',
        provenance: 'o/r #7',
        license: 'MIT',
        passages: [{ text: 'p', link: 'https://github.com/o/r/issues/7#c1' }, { text: 'q' }],
      },
      {
        id: 'web:example.com/a',
        type: 'web',
        url: 'https://www.example.com/a/b/',
        provenance: 'example.com/a/b',
        license: 'BSD-3-Clause',
        passages: [{ text: 'w' }],
      },
      {
        id: 'readme:o/r',
        type: 'readme',
        url: 'https://github.com/o/r#readme',
        provenance: 'o/r',
        license: 'no license',
        passages: [],
      },
    ]);
  });

  it('builds one Markdown document with the title, the link and every passage', () => {
    assert.equal(
      passagesDocument('HTTP\n | Node', 'https://nodejs.org/api/http.html', ['one ', 'two']),
      '# HTTP | Node\n\n<https://nodejs.org/api/http.html>\n\n## Passage 1\n\none\n\n## Passage 2\n\ntwo\n',
    );
    assert.doesNotMatch(passagesDocument('t', 'javascript:alert(1)', ['p']), /javascript/);
  });
});
