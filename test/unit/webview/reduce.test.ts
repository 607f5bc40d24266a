// The view's rules without a browser: reduce(state, message) -> state and effects.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultForm } from '../../../src/webview/app/form';
import { reduce, type Msg, type Step } from '../../../src/webview/app/reduce';
import { freshState, type ViewState } from '../../../src/webview/app/state';
import type { SearchOutcome } from '../../../src/search/session/outcome';
import type { ViewError } from '../../../src/words/viewWords';

const D = { k: 10, passages: 1, types: ['doc', 'issue', 'pull_request', 'readme'] };
const OUTCOME: SearchOutcome = {
  params: { query: 'old' },
  results: [{ id: 'a', type: 'doc', url: 'https://e.com', provenance: 'e.com', passages: [{ text: 'p' }] }],
  coverage: {},
  notes: [],
  ms: 1,
};

function run(s: ViewState, ...msgs: Msg[]): Step {
  let step: Step = { state: s, effects: [] };
  for (const m of msgs) step = reduce(step.state, m);
  return step;
}

const ready = (): ViewState =>
  run(freshState(), { t: 'ext', m: { type: 'init', defaults: D, workspaceRepos: [] }, now: 0 }).state;

describe('search view reducer', () => {
  it('an empty query does nothing but focus the box', () => {
    const { state, effects } = run(
      ready(),
      { t: 'edit', form: defaultForm(D, '   ') },
      { t: 'submit', requestId: 's1' },
    );
    assert.deepEqual(effects, [{ focus: 'query' }]);
    assert.equal(state.pending, undefined);
  });

  it('a failed, refused or cancelled search marks the old results stale', () => {
    const base = { ...ready(), outcome: OUTCOME };
    const sent = run(base, { t: 'edit', form: defaultForm(D, 'new') }, { t: 'submit', requestId: 's1' });
    assert.equal(sent.state.stale, false);
    const failed = run(sent.state, {
      t: 'ext',
      m: { type: 'searchError', requestId: 's1', error: { message: 'x', action: 'retry' } },
      now: 0,
    });
    assert.equal(failed.state.stale, true);
    assert.equal(failed.state.outcome, OUTCOME, 'kept, dimmed, not dropped');
    const refused = run(
      base,
      { t: 'edit', form: { ...defaultForm(D, 'new'), k: 'ten' } },
      { t: 'submit', requestId: 's2' },
    );
    assert.equal(refused.state.stale, true);
    assert.deepEqual(
      refused.effects,
      [{ announce: 'Search not sent. Results (k) must be a whole number, not "ten"' }],
      'nothing posted; the refusal is said once',
    );
    const cancelled = run(sent.state, { t: 'escape' });
    assert.equal(cancelled.state.stale, true);
    assert.deepEqual(cancelled.effects, [
      { post: { type: 'cancel', requestId: 's1' } },
      { announce: 'Search cancelled' },
    ]);
    assert.equal(cancelled.state.form.query, 'new', 'Escape keeps the query');
  });

  it('a search the extension started sets the form to exactly its params', () => {
    const { state } = run(ready(), {
      t: 'ext',
      m: {
        type: 'searchStarted',
        requestId: 'x-1',
        params: { query: 'q', k: 10, passages: 1, repos: ['o/r'] },
        notice: 'cut',
      },
      now: 0,
    });
    assert.equal(state.form.query, 'q');
    assert.equal(state.form.repos, 'o/r');
    assert.equal(state.notice, 'cut');
    assert.equal(state.pending?.requestId, 'x-1');
  });

  it('removing a chip re-runs the search without that filter and tells the extension the scope', () => {
    const s = run(ready(), { t: 'edit', form: { ...defaultForm(D, 'q'), repos: 'a/b', language: 'Go' } }).state;
    const { effects } = run(s, { t: 'removeChip', id: 'language', requestId: 's9' });
    assert.deepEqual(effects, [
      { post: { type: 'scope', params: { query: 'q', k: 10, passages: 1, repos: ['a/b'] } } },
      { post: { type: 'search', requestId: 's9', params: { query: 'q', k: 10, passages: 1, repos: ['a/b'] } } },
    ]);
  });

  it('Search Without Key retries the last search without the key', () => {
    const s = run(
      ready(),
      { t: 'edit', form: defaultForm(D, 'q') },
      { t: 'submit', requestId: 's1' },
      {
        t: 'ext',
        m: { type: 'searchError', requestId: 's1', error: { message: '401', action: 'setKey', status: 401 } },
        now: 0,
      },
    );
    const { effects } = run(s.state, { t: 'retry', requestId: 's2', keyless: true });
    assert.deepEqual(effects, [
      { post: { type: 'search', requestId: 's2', params: { query: 'q', k: 10, passages: 1 }, keyless: true } },
    ]);
  });

  it('remembers which sources the service confirmed', () => {
    const s = run(
      ready(),
      { t: 'edit', form: { ...defaultForm(D, 'q'), sources: 'a, b, c' } },
      { t: 'submit', requestId: 's1' },
      {
        t: 'ext',
        m: {
          type: 'results',
          requestId: 's1',
          outcome: {
            ...OUTCOME,
            params: { query: 'q', sources: ['a', 'b', 'c'] },
            sources: [
              { source: 'a', indexed: true },
              { source: 'b', indexed: false },
            ],
          },
        },
        now: 0,
      },
    );
    assert.deepEqual(s.state.sources, { a: true, b: false, c: null });
  });
});

describe('what the live region says', () => {
  const announced = (step: Step) => step.effects.flatMap((e) => ('announce' in e ? [e.announce] : []));
  const sent = () => run(ready(), { t: 'edit', form: defaultForm(D, 'q') }, { t: 'submit', requestId: 's1' });
  const results = (n: number): SearchOutcome => ({
    ...OUTCOME,
    results: Array.from({ length: n }, (_, i) => ({ ...OUTCOME.results[0]!, id: `r${i}` })),
  });

  it('a finished search: the count in plain words, once', () => {
    for (const [n, words] of [
      [10, '10 results'],
      [1, '1 result'],
      [0, 'No results'],
    ] as const) {
      assert.deepEqual(
        announced(
          run(sent().state, { t: 'ext', m: { type: 'results', requestId: 's1', outcome: results(n) }, now: 0 }),
        ),
        [words],
      );
    }
    assert.deepEqual(
      announced(
        run(sent().state, { t: 'ext', m: { type: 'results', requestId: 'other', outcome: results(3) }, now: 0 }),
      ),
      [],
      'an answer to another search says nothing',
    );
  });

  it("an error: the box's heading and message; a refusal at the fields: the form's words", () => {
    const e = (error: ViewError) =>
      announced(run(sent().state, { t: 'ext', m: { type: 'searchError', requestId: 's1', error }, now: 0 }));
    assert.deepEqual(e({ message: 'Unauthorized: Invalid token (HTTP 401)', action: 'setKey', status: 401 }), [
      'The service did not accept the API key. Unauthorized: Invalid token (HTTP 401)',
    ]);
    assert.deepEqual(e({ message: 'Could not reach the service', action: 'retry' }), [
      'The search failed. Could not reach the service',
    ]);
    assert.deepEqual(
      e({
        message: 'x',
        action: 'fix',
        issues: [
          { field: 'types', message: 'types must hold at least one of doc, issue, pull_request, readme; got []' },
        ],
      }),
      ['Search not sent. Pick at least one result type'],
    );
  });

  it('a cleared list says so; clearing an empty view says nothing; other steps say nothing', () => {
    const shown = run(sent().state, {
      t: 'ext',
      m: { type: 'results', requestId: 's1', outcome: results(2) },
      now: 0,
    }).state;
    assert.deepEqual(announced(run(shown, { t: 'ext', m: { type: 'command', command: 'clear' }, now: 0 })), [
      'Results cleared',
    ]);
    assert.deepEqual(announced(run(ready(), { t: 'ext', m: { type: 'command', command: 'clear' }, now: 0 })), []);
    for (const m of [
      { t: 'select', index: 1 },
      { t: 'expand', index: 0, open: true },
      { t: 'scroll', y: 10 },
      { t: 'ext', m: { type: 'command', command: 'expandAll' }, now: 0 },
    ] as Msg[]) {
      assert.deepEqual(announced(run(shown, m)), [], JSON.stringify(m));
    }
  });
});
