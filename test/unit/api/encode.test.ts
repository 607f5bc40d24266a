import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildUrl, encodeSearch, MAX_GET_URL_LENGTH, parseBaseUrl } from '../../../src/api/encode';

describe('encodeSearch', () => {
  it('GET with repeated parameters for arrays, scalars as strings', () => {
    const e = encodeSearch(
      { query: 'stream a body', k: 5, types: ['doc', 'issue'], repos: ['a/b', 'c/d'], archived: false, min_stars: 0 },
      'https://api.example.com',
    );
    assert.equal(e.method, 'GET');
    assert.equal(e.body, undefined);
    assert.equal(
      e.url,
      'https://api.example.com/v2/search/developer?query=stream%20a%20body&k=5&types=doc&types=issue&repos=a%2Fb&repos=c%2Fd&min_stars=0&archived=false',
    );
    const u = new URL(e.url);
    assert.deepEqual(u.searchParams.getAll('types'), ['doc', 'issue']);
    assert.equal(u.searchParams.get('query'), 'stream a body');
  });

  it('POST with a JSON body when an array item holds a comma', () => {
    const e = encodeSearch(
      { query: 'q', sources: ['weird,id', 'plain'], passages: 2, fork: true },
      'https://api.example.com/',
    );
    assert.equal(e.method, 'POST');
    assert.equal(e.url, 'https://api.example.com/v2/search/developer');
    assert.deepEqual(e.body, { query: 'q', sources: ['weird,id', 'plain'], passages: 2, fork: true });
    assert.deepEqual(e.query, []);
  });

  it('a comma in the query itself stays on GET (only array items are split by the service)', () => {
    assert.equal(encodeSearch({ query: 'a, b' }, 'https://x.test').method, 'GET');
  });

  it('switches to POST exactly when the GET URL would pass 2,000 characters', () => {
    const base = 'https://x.test';
    const fixed = buildUrl(base, '/v2/search/developer', [['query', '']]).length;
    const fits = encodeSearch({ query: 'a'.repeat(MAX_GET_URL_LENGTH - fixed) }, base);
    assert.equal(fits.url.length, MAX_GET_URL_LENGTH);
    assert.equal(fits.method, 'GET');
    const over = encodeSearch({ query: 'a'.repeat(MAX_GET_URL_LENGTH - fixed + 1) }, base);
    assert.equal(over.method, 'POST');
    assert.equal((over.body as { query: string }).query.length, MAX_GET_URL_LENGTH - fixed + 1);
  });

  it('counts the percent-encoded length, not the raw one', () => {
    // 400 characters, each 6 characters once percent-encoded (%C3%A9): 2,400, past the limit.
    assert.equal(encodeSearch({ query: 'é'.repeat(400) }, 'https://x.test').method, 'POST');
  });
});

describe('buildUrl / parseBaseUrl', () => {
  it('keeps a gateway path prefix, with or without trailing slashes', () => {
    for (const b of ['https://gw.example.com/fc', 'https://gw.example.com/fc/', 'https://gw.example.com/fc//']) {
      assert.equal(buildUrl(b, '/v2/search/developer'), 'https://gw.example.com/fc/v2/search/developer');
    }
    assert.equal(buildUrl('https://api.example.com', '/v2/agent'), 'https://api.example.com/v2/agent');
    assert.equal(
      buildUrl('http://127.0.0.1:8080/', 'v2/agent', [['before', '1']]),
      'http://127.0.0.1:8080/v2/agent?before=1',
    );
  });

  it('rejects a base URL that is not absolute http(s), carries credentials, or has a query', () => {
    assert.throws(() => parseBaseUrl('api.example.com'), /not a valid absolute URL/);
    assert.throws(() => parseBaseUrl('ftp://x.test'), /http or https/);
    assert.throws(
      () => parseBaseUrl('https://user:secret@x.test'),
      (e: Error) => /credentials/.test(e.message) && !e.message.includes('secret'),
    );
    assert.throws(() => parseBaseUrl('https://x.test/?a=1'), /query or fragment/);
  });
});
