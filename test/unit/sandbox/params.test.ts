// GET query string to request input: both array forms, number and boolean conversion, duplicates.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { queryToInput, validateSearchRequest, RULE3_MESSAGE, RULE4_MESSAGE } from '../../../sandbox/search/params';

const input = (q: string): Record<string, unknown> => queryToInput(new URLSearchParams(q));

describe('queryToInput', () => {
  it('reads repeated, comma-separated and mixed arrays the same way', () => {
    assert.deepEqual(input('types=doc&types=issue').types, ['doc', 'issue']);
    assert.deepEqual(input('types=doc,issue').types, ['doc', 'issue']);
    assert.deepEqual(input('repos=a/b,c/d&repos=e/f').repos, ['a/b', 'c/d', 'e/f']);
    assert.deepEqual(input('sources=').sources, ['']);
  });

  it('converts well-formed numbers and booleans and leaves the rest for validation', () => {
    assert.deepEqual(input('query=q&k=10&passages=2.5&archived=true&fork=false&min_stars=x'), {
      query: 'q',
      k: 10,
      passages: 2.5,
      archived: true,
      fork: false,
      min_stars: 'x',
    });
    assert.equal(input('archived=TRUE').archived, 'TRUE');
    assert.equal(input('query=10').query, '10', 'query stays a string');
  });

  it('keeps a repeated scalar as a list so that validation rejects it', () => {
    assert.deepEqual(input('k=1&k=2').k, [1, 2]);
    assert.equal(validateSearchRequest(input('query=q&k=1&k=2')).ok, false);
  });
});

describe('validateSearchRequest', () => {
  it('accepts the defaults and every parameter at once', () => {
    const r = validateSearchRequest({
      query: 'q',
      k: 5,
      types: ['doc', 'issue'],
      repos: ['a/b'],
      sources: ['s'],
      skills: 'only',
      passages: 2,
      language: 'Go',
      topic: 't',
      license: 'MIT',
      min_stars: 0,
      max_stars: 10,
      archived: false,
      fork: true,
      origin: 'o',
      integration: 'i',
    });
    assert.equal(r.ok, true);
  });

  it('checks rules 3 and 4 after the bounds', () => {
    const r3 = validateSearchRequest({ query: 'q', repos: ['a/b'], types: ['doc'] });
    assert.deepEqual(r3, {
      ok: false,
      failure: { error: RULE3_MESSAGE, details: [{ code: 'custom', path: ['repos'], message: RULE3_MESSAGE }] },
    });
    const r4 = validateSearchRequest({ query: 'q', sources: ['s'], types: ['issue'] });
    assert.equal(r4.ok ? '' : r4.failure.error, 'sources cannot match any requested type; add doc or drop sources');
    assert.equal(RULE4_MESSAGE, 'sources cannot match any requested type; add doc or drop sources');
    const bounds = validateSearchRequest({ query: 'q', sources: ['s'], types: ['issue'], k: 0 });
    assert.equal(bounds.ok ? '' : bounds.failure.error, 'Bad Request');
  });
});
