// The form <-> params conversion, palette fills, echo warnings and the stored view state.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { activeFilterCount, applyFill, defaultForm, dropRepositoryFilters, followDefaults, formToParams } from '../../../media/webview/form';
import { restoreState, STATE_VERSION } from '../../../media/webview/state';

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
    assert.deepEqual(formToParams(defaultForm(D, '  how to abort  ')), { params: { query: 'how to abort', k: 10, passages: 2 }, issues: [] });
  });

  it('maps every field to its spec parameter', () => {
    const f = { ...defaultForm(D, 'q'), types: ['doc', 'readme'], repos: 'a/b, c/d\ne/f', sources: ' node-api ,mdn ', k: '5', passages: '', language: ' Go ', topic: 'http',
      license: 'MIT', minStars: '0', maxStars: '100', archived: 'no' as const, fork: 'yes' as const, skillsOnly: true };
    assert.deepEqual(formToParams(f).params, {
      query: 'q', k: 5, types: ['doc', 'readme'], repos: ['a/b', 'c/d', 'e/f'], sources: ['node-api', 'mdn'], skills: 'only',
      language: 'Go', topic: 'http', license: 'MIT', min_stars: 0, max_stars: 100, archived: false, fork: true,
    });
  });

  it('flags text where a number goes, and leaves bounds to the client', () => {
    const r = formToParams({ ...defaultForm(D, 'q'), k: 'ten', minStars: '1e3', maxStars: '-4', passages: '2.5' });
    assert.deepEqual(r.issues, [{ field: 'k', message: 'k must be a whole number; got "ten"' }]);
    assert.equal(r.params.min_stars, 1000);
    assert.equal(r.params.max_stars, -4);
    assert.equal(r.params.passages, 2.5);
  });

  it('sends an empty type list so the client can say why it is wrong', () => {
    assert.deepEqual(formToParams({ ...defaultForm(D, 'q'), types: [] }).params.types, []);
  });

  it('applies palette fills: keep or replace the filters', () => {
    const current = { ...defaultForm(D, 'old'), language: 'Go', repos: 'x/y' };
    const kept = applyFill(current, { params: { query: 'new' }, replaceFilters: false, run: true }, D);
    assert.equal(kept.query, 'new');
    assert.equal(kept.language, 'Go');
    const replaced = applyFill(current, { params: { query: 'new', repos: ['o/r'], archived: true, min_stars: 5, skills: 'only' }, replaceFilters: true, run: true }, D);
    assert.deepEqual(replaced, { ...defaultForm(D, 'new'), repos: 'o/r', archived: 'yes', minStars: '5', skillsOnly: true });
  });

  it('rule 6 fix drops the seven repository filters and nothing else', () => {
    const f = { ...defaultForm(D, 'q'), repos: 'o/r', sources: 's', language: 'Go', topic: 't', license: 'MIT', minStars: '1', maxStars: '2', archived: 'yes' as const, fork: 'no' as const };
    assert.deepEqual(dropRepositoryFilters(f), { ...defaultForm(D, 'q'), repos: 'o/r', sources: 's' });
  });

  it('counts active filters against the defaults', () => {
    assert.equal(activeFilterCount(defaultForm(D), D), 0);
    assert.equal(activeFilterCount({ ...defaultForm(D), types: ['doc'], language: 'Go', k: '10' }, D), 2);
  });
});

describe('view state', () => {
  const outcome = { params: { query: 'q' }, results: [{ id: 'i', type: 'doc', url: 'https://e.com', host: 'e.com', passages: ['p'] }], coverage: { doc: 'ok' }, notes: [], ms: 3 };

  it('round-trips what the view stores', () => {
    const s = { v: STATE_VERSION, form: { ...defaultForm(D, 'q'), language: 'Go' }, filtersOpen: true, defaults: D, outcome, selected: 0, pendingRequestId: 's-1', notice: 'n', scrollY: 40 };
    assert.deepEqual(restoreState(JSON.parse(JSON.stringify(s))), s);
  });

  it('starts fresh from nothing, a foreign shape or another version', () => {
    for (const raw of [undefined, null, 'x', [], { v: 2, form: defaultForm(D, 'q') }]) {
      const s = restoreState(raw);
      assert.equal(s.form.query, '');
      assert.equal(s.outcome, undefined);
    }
  });

  it('drops only the damaged part', () => {
    const s = restoreState({ v: STATE_VERSION, form: { ...defaultForm(D, 'kept') }, outcome: { ...outcome, results: [{ id: 1 }] }, selected: -3, error: { message: 'm', action: 'explode' } });
    assert.equal(s.form.query, 'kept');
    assert.equal(s.outcome, undefined);
    assert.equal(s.error, undefined);
    assert.equal(s.selected, 0);
    const t = restoreState({ v: STATE_VERSION, form: { ...defaultForm(D, 'q'), archived: 'sometimes' }, outcome });
    assert.equal(t.form.archived, 'any');
    assert.deepEqual(t.outcome, outcome);
  });
});
