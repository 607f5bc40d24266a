import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeSearch } from '../../../src/api/encode';
import { validateSearchParams } from '../../../src/api/params';

describe('topic: one value or several', () => {
  it('validates 1 to 8 non-empty topics and names the bound', () => {
    assert.ok(validateSearchParams({ query: 'q', topic: ['http', 'retry'] }).ok);
    const many = validateSearchParams({ query: 'q', topic: ['1', '2', '3', '4', '5', '6', '7', '8', '9'] });
    assert.ok(!many.ok);
    assert.deepEqual(many.issues, [{ field: 'topic', message: 'topic must hold 1 to 8 topics; got 9' }]);
    const empty = validateSearchParams({ query: 'q', topic: [] });
    assert.ok(!empty.ok);
    const blank = validateSearchParams({ query: 'q', topic: ['ok', ''] });
    assert.ok(!blank.ok);
    assert.equal(blank.issues[0]!.message, 'topic[1] must be a non-empty string; got ""');
  });

  it('several topics travel as a JSON array in a POST body; one topic stays a GET parameter', () => {
    const several = encodeSearch({ query: 'q', topic: ['http', 'retry'] }, 'https://api.example.com');
    assert.equal(several.method, 'POST');
    assert.deepEqual(several.body, { query: 'q', topic: ['http', 'retry'] });
    const one = encodeSearch({ query: 'q', topic: ['http'] }, 'https://api.example.com');
    assert.equal(one.method, 'GET');
    assert.equal(one.url, 'https://api.example.com/v2/search/developer?query=q&topic=http');
    assert.equal(encodeSearch({ query: 'q', topic: 'http' }, 'https://api.example.com').method, 'GET');
  });
});
