// The scope of a search in words: chips, their removal, the summary phrase and the picker line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  canonicalParams,
  describeScope,
  scopeChips,
  scopePhrase,
  withoutChip,
  withoutScope,
} from '../../../src/search/scope';

const D = { k: 10, passages: 1, types: ['doc', 'issue', 'pull_request', 'readme'] };
const ALL = {
  query: 'q',
  k: 10,
  passages: 1,
  repos: ['a/b', 'c/d'],
  sources: ['node-api'],
  types: ['issue'],
  skills: 'only' as const,
  language: 'Go',
  topic: 't',
  license: 'MIT',
  min_stars: 5,
  archived: false,
  fork: true,
};

describe('search scope', () => {
  it('has a chip for every filter that differs from the defaults, none for k and passages', () => {
    assert.deepEqual(
      scopeChips(ALL, D).map((c) => c.label),
      [
        'a/b',
        'c/d',
        'Docs: node-api',
        'Types: Issues',
        'Agent-skill files only',
        'Language: Go',
        'Topic: t',
        'License: MIT',
        'Stars ≥ 5',
        'Not archived',
        'Forks only',
      ],
    );
    assert.deepEqual(scopeChips({ query: 'q', k: 50, passages: 5 }, D), []);
    assert.deepEqual(
      scopeChips({ query: 'q', types: ['issue'] }, { ...D, types: ['issue'] }),
      [],
      'types at the settings default is no chip',
    );
    assert.deepEqual(
      scopeChips({ query: 'q' }, { ...D, types: ['issue'] }).map((c) => c.label),
      ['Types: Documentation, Issues, Pull requests, READMEs'],
    );
    assert.equal(scopeChips({ query: 'q', max_stars: 9 }, D)[0]!.label, 'Stars ≤ 9');
  });

  it('removes one chip and nothing else', () => {
    for (const chip of scopeChips(ALL, D)) {
      const without = withoutChip(ALL, chip.id, D);
      const left = scopeChips(without, D).map((c) => c.id);
      assert.deepEqual(
        left,
        scopeChips(ALL, D)
          .map((c) => c.id)
          .filter((id) => id !== chip.id),
        chip.id,
      );
      assert.equal(without.query, 'q');
      assert.equal(without.k, 10);
    }
    assert.deepEqual(withoutScope(ALL, D), { query: 'q', k: 10, passages: 1 });
  });

  it('names the repository and source scope in the summary, and every filter on one line', () => {
    assert.equal(scopePhrase({ query: 'q', repos: ['fetchline/fetchline'] }), 'in fetchline/fetchline');
    assert.equal(scopePhrase({ query: 'q', repos: ['a/b', 'c/d'], sources: ['s'] }), 'in a/b, c/d and 1 more');
    assert.equal(scopePhrase({ query: 'q', language: 'Go' }), '');
    assert.equal(describeScope({ query: 'q', repos: ['a/b'], language: 'Go', k: 10 }, D), 'a/b · Language: Go');
  });

  it('compares searches whatever the key order, and all four types as none', () => {
    assert.deepEqual(
      JSON.stringify(
        canonicalParams({ k: 10, query: 'q', types: ['readme', 'doc', 'issue', 'pull_request'] } as never),
      ),
      JSON.stringify({ query: 'q', k: 10 }),
    );
    assert.equal(
      JSON.stringify(canonicalParams({ repos: ['a/b'], query: 'q' })),
      JSON.stringify(canonicalParams({ query: 'q', repos: ['a/b'] })),
    );
  });
});
