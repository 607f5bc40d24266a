import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_SELECTION_QUERY, selectionToQuery } from '../../../src/search/selectionQuery';

test('whitespace of a selection is folded to single spaces', () => {
  const r = selectionToQuery('  const   x =\n\tawait\r\n fetch(url);  ');
  assert.equal(r.query, 'const x = await fetch(url);');
  assert.equal(r.cut, false);
});

test('a selection at the limit is kept whole', () => {
  const text = 'a'.repeat(MAX_SELECTION_QUERY);
  const r = selectionToQuery(text);
  assert.equal(r.query.length, MAX_SELECTION_QUERY);
  assert.equal(r.cut, false);
});

test('a selection past the limit is cut at a word boundary and says so', () => {
  const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
  const r = selectionToQuery(words);
  assert.equal(r.cut, true);
  assert.ok(r.query.length <= MAX_SELECTION_QUERY);
  assert.ok(words.startsWith(r.query));
  assert.match(r.query, /word\d+$/);
  assert.equal(r.originalLength, words.length);
});

test('one long token past the limit is cut at the limit', () => {
  const r = selectionToQuery('x'.repeat(MAX_SELECTION_QUERY + 50));
  assert.equal(r.query.length, MAX_SELECTION_QUERY);
  assert.equal(r.cut, true);
});

test('a whitespace-only selection gives an empty query', () => {
  assert.equal(selectionToQuery(' \n\t ').query, '');
});
