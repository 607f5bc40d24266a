// The view's words for the client's validation messages: the form's labels, no wire names.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateSearchParams, type SearchParams } from '../../../src/api/params';
import { plainIssue } from '../../../src/webview/app/words';

/** The client's own messages for `p`, in the view's words. */
function words(p: SearchParams): string[] {
  const r = validateSearchParams(p);
  assert.equal(r.ok, false, JSON.stringify(p));
  return r.ok ? [] : r.issues.map((i) => plainIssue(i).message);
}

describe('plain words for validation messages', () => {
  it("says each refusal of the client with the form's labels", () => {
    assert.deepEqual(words({ query: 'q', types: [] }), ['Pick at least one result type']);
    assert.deepEqual(words({ query: 'q', min_stars: 50, max_stars: 5 }), ['Min stars is above Max stars']);
    assert.deepEqual(words({ query: 'q', k: 500 }), ['Results (k) must be a whole number from 1 to 100']);
    assert.deepEqual(words({ query: 'q', passages: 9 }), ['Passages per result must be a whole number from 1 to 5']);
    assert.deepEqual(words({ query: 'q', repos: ['nodejs'] }), [
      'Repositories: "nodejs" is not in the form owner/repo',
    ]);
    assert.deepEqual(words({ query: 'q', repos: ['a/b'], types: ['doc'] }), [
      'Repositories apply only to issues, pull requests and READMEs: tick one of those result types, or clear Repositories',
    ]);
    assert.deepEqual(words({ query: 'q', sources: ['s'], types: ['issue'] }), [
      'Documentation sources apply only to documentation: tick Documentation, or clear Documentation sources',
    ]);
    assert.deepEqual(words({ query: 'q', sources: Array.from({ length: 21 }, (_, i) => `s${i}`) }), [
      'Documentation sources: at most 20 ids',
    ]);
    assert.deepEqual(words({ query: 'q', min_stars: -1 }), ['Min stars must be a whole number, 0 or more']);
    assert.deepEqual(words({ query: '' }), ['Type something to search for']);
    assert.deepEqual(words({ query: 'q', topic: Array.from({ length: 9 }, (_, i) => `t${i}`) }), [
      'Topic: 1 to 8 topics, comma separated',
    ]);
  });

  it('names no wire parameter in any of them', () => {
    const all = [
      ...words({ query: 'q', types: [] }),
      ...words({ query: 'q', min_stars: 50, max_stars: 5 }),
      ...words({ query: 'q', k: 0 }),
      ...words({ query: 'q', repos: ['a/b'], types: ['doc'] }),
      ...words({ query: 'q', max_stars: 1.5 }),
    ];
    for (const m of all)
      assert.doesNotMatch(m, /min_stars|max_stars|pull_request|\brepos\b|\bsources\b|^types\b|^k\b|got \[/, m);
  });

  it("leaves the form's own messages as they are", () => {
    const i = { field: 'k', message: 'Results (k) must be a whole number, not "ten"' };
    assert.deepEqual(plainIssue(i), i);
  });
});
