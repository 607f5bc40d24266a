// The form <-> params conversion, palette fills, echo warnings and the stored view state.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  activeFilterCount,
  defaultForm,
  dropRepositoryFilters,
  followDefaults,
  formToParams,
  paramsToForm,
} from '../../../src/webview/app/form';
import { freshState, restoreState, savedState, STATE_VERSION } from '../../../src/webview/app/state';

const D = { k: 10, passages: 2, types: ['doc', 'issue', 'pull_request', 'readme'] };

describe('filter form', () => {
  it('follows new settings defaults where the user left the old ones, and keeps what the user changed', () => {
    const next = { k: 25, passages: 4, types: ['issue'] };
    const untouched = followDefaults(defaultForm(D, 'q'), D, next);
    assert.equal(untouched.k, '25');
    assert.equal(untouched.passages, '4');
    assert.deepEqual(untouched.types, ['issue']);
    assert.equal(untouched.query, 'q');
    const changed = followDefaults({ ...defaultForm(D, 'q'), k: '7', types: ['doc'] }, D, next);
    assert.equal(changed.k, '7', 'a k the user typed stays');
    assert.deepEqual(changed.types, ['doc'], 'types the user picked stay');
    assert.equal(changed.passages, '4', 'passages still at the old default follows');
  });

  it('sends the defaults and omits what is empty or all-selected', () => {
    assert.deepEqual(formToParams(defaultForm(D, '  how to abort  ')), {
      params: { query: 'how to abort', k: 10, passages: 2 },
      issues: [],
    });
  });

  it('maps every field to its spec parameter', () => {
    const f = {
      ...defaultForm(D, 'q'),
      types: ['doc', 'readme'],
      repos: 'a/b, c/d\ne/f',
      sources: ' node-api ,mdn ',
      k: '5',
      passages: '',
      language: ' Go ',
      topic: 'http',
      license: 'MIT',
      minStars: '0',
      maxStars: '100',
      archived: 'no' as const,
      fork: 'yes' as const,
      skillsOnly: true,
    };
    assert.deepEqual(formToParams(f).params, {
      query: 'q',
      k: 5,
      types: ['doc', 'readme'],
      repos: ['a/b', 'c/d', 'e/f'],
      sources: ['node-api', 'mdn'],
      skills: 'only',
      language: 'Go',
      topic: 'http',
      license: 'MIT',
      min_stars: 0,
      max_stars: 100,
      archived: false,
      fork: true,
    });
  });

  it('flags text where a number goes, and leaves bounds to the client', () => {
    const r = formToParams({ ...defaultForm(D, 'q'), k: 'ten', minStars: '1e3', maxStars: '-4', passages: '2.5' });
    assert.deepEqual(r.issues, [{ field: 'k', message: 'Results (k) must be a whole number, not "ten"' }]);
    assert.equal(r.params.min_stars, 1000);
    assert.equal(r.params.max_stars, -4);
    assert.equal(r.params.passages, 2.5);
  });

  it('sends an empty type list so the client can say why it is wrong', () => {
    assert.deepEqual(formToParams({ ...defaultForm(D, 'q'), types: [] }).params.types, []);
  });

  it('sets the whole form from a search started elsewhere, and back to the same params', () => {
    const p = {
      query: 'new',
      k: 5,
      passages: 2,
      repos: ['o/r'],
      archived: true,
      min_stars: 5,
      skills: 'only' as const,
      types: ['issue'],
    };
    const f = paramsToForm(p, D);
    assert.deepEqual(f, {
      ...defaultForm(D, 'new'),
      k: '5',
      passages: '2',
      types: ['issue'],
      repos: 'o/r',
      archived: 'yes',
      minStars: '5',
      skillsOnly: true,
    });
    assert.deepEqual(formToParams(f).params, p);
    assert.deepEqual(paramsToForm({ query: 'q' }, D), defaultForm(D, 'q'), 'unnamed filters are the defaults');
    const topics = paramsToForm({ query: 'q', topic: ['http', 'cli'] }, D);
    assert.equal(topics.topic, 'http, cli');
    assert.deepEqual(formToParams(topics).params.topic, ['http', 'cli'], 'several topics go as a list');
    assert.equal(formToParams({ ...topics, topic: ' http ' }).params.topic, 'http', 'one topic as a string');
  });

  it('rule 6 fix drops the seven repository filters and nothing else', () => {
    const f = {
      ...defaultForm(D, 'q'),
      repos: 'o/r',
      sources: 's',
      language: 'Go',
      topic: 't',
      license: 'MIT',
      minStars: '1',
      maxStars: '2',
      archived: 'yes' as const,
      fork: 'no' as const,
    };
    assert.deepEqual(dropRepositoryFilters(f), { ...defaultForm(D, 'q'), repos: 'o/r', sources: 's' });
  });

  it('counts active filters against the defaults', () => {
    assert.equal(activeFilterCount(defaultForm(D), D), 0);
    assert.equal(activeFilterCount({ ...defaultForm(D), types: ['doc'], language: 'Go', k: '10' }, D), 2);
  });
});

describe('view state', () => {
  const outcome = {
    params: { query: 'q' },
    results: [
      {
        id: 'i',
        type: 'doc',
        url: 'https://e.com',
        provenance: 'e.com',
        license: 'MIT',
        passages: [{ text: 'p', link: 'https://e.com#p' }],
      },
    ],
    coverage: { doc: 'ok' },
    notes: [],
    ms: 3,
  };

  it('round-trips what the view saves, and saves nothing the extension sends again', () => {
    const s = {
      ...freshState(),
      form: { ...defaultForm(D, 'q'), language: 'Go' },
      filtersOpen: true,
      defaults: D,
      outcome,
      stale: true,
      selected: 0,
      expanded: [0],
      pending: { requestId: 's-1', params: { query: 'q' } },
      notice: 'n',
      scrollY: 40,
      sources: { 'node-api': true, nope: false, new: null },
    };
    const saved = JSON.parse(
      JSON.stringify(
        savedState({
          ...s,
          hasKey: true,
          workspaceRepos: ['a/b'],
          liveIssues: [{ field: 'k', message: 'm' }],
          status: 'x',
        }),
      ),
    );
    assert.equal('hasKey' in saved || 'workspaceRepos' in saved || 'liveIssues' in saved || 'status' in saved, false);
    assert.deepEqual(restoreState(saved), s);
  });

  it('starts fresh from nothing or a foreign shape', () => {
    for (const raw of [undefined, null, 'x', [], { form: 5 }]) {
      const s = restoreState(raw);
      assert.deepEqual(s, freshState());
    }
  });

  it('keeps the typed query and every valid field when one field is bad or the version changed', () => {
    const s = restoreState({
      v: STATE_VERSION + 7,
      form: { ...defaultForm(D, 'kept'), k: 12, types: 'all', language: 'Go' },
      outcome: { ...outcome, results: [{ id: 1 }] },
      selected: -3,
      error: { message: 'm', action: 'explode' },
      filtersOpen: true,
    });
    assert.equal(s.form.query, 'kept');
    assert.equal(s.form.language, 'Go');
    assert.equal(s.form.k, '', 'the damaged field alone falls back');
    assert.deepEqual(s.form.types, ['doc', 'issue', 'pull_request', 'readme']);
    assert.equal(s.filtersOpen, true);
    assert.equal(s.outcome, undefined);
    assert.equal(s.error, undefined);
    assert.equal(s.selected, 0);
    const t = restoreState({ v: 1, form: { ...defaultForm(D, 'q'), archived: 'sometimes' }, outcome });
    assert.equal(t.form.archived, 'any');
    assert.deepEqual(t.outcome, outcome);
    assert.equal(
      restoreState({ form: { query: 42, language: 'Go' } }).form.language,
      'Go',
      'a bad query does not cost the other fields',
    );
  });
});
