import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { citationOf, headingAnchor, type RepoInfo } from '../../../sandbox/search/corpus';
import { queryToInput, validateSearchRequest } from '../../../sandbox/search/params';
import { productionLicense } from '../../../sandbox/search/searchEngine';

describe('sandbox production validation', () => {
  it('coerces numbers and booleans in a POST body; the spec wire refuses them', () => {
    const body = { query: 'q', k: '10', passages: '2', min_stars: '5', archived: 'false' };
    const p = validateSearchRequest(body, 'production');
    assert.ok(p.ok);
    assert.deepEqual(
      { k: p.request.k, passages: p.request.passages, min_stars: p.request.min_stars, archived: p.request.archived },
      { k: 10, passages: 2, min_stars: 5, archived: false },
    );
    const s = validateSearchRequest(body, 'spec');
    assert.ok(!s.ok);
    assert.equal(s.failure.error, 'Bad Request');
  });

  it('topic: a string or an array of 1 to 8 strings on production; only a string on spec', () => {
    assert.ok(validateSearchRequest({ query: 'q', topic: ['a', 'b'] }, 'production').ok);
    const nine = validateSearchRequest(
      { query: 'q', topic: ['1', '2', '3', '4', '5', '6', '7', '8', '9'] },
      'production',
    );
    assert.ok(!nine.ok);
    assert.match(JSON.stringify(nine.failure.details), /topic may hold at most 8 items \(got 9\)/);
    assert.ok(!validateSearchRequest({ query: 'q', topic: ['a', 'b'] }, 'spec').ok);
  });

  it('the production 400 is "Invalid query parameters" with zod issues (code, path, message) in details', () => {
    const r = validateSearchRequest({ query: 'q', k: 0, nope: 1 }, 'production');
    assert.ok(!r.ok);
    assert.equal(r.failure.error, 'Invalid query parameters');
    const details = r.failure.details as Array<{ code: string; path: unknown[]; message: string }>;
    assert.ok(details.some((d) => d.code === 'too_small' && d.path[0] === 'k'));
    assert.ok(details.some((d) => d.code === 'unrecognized_keys' && /nope/.test(d.message)));
  });

  it('a repeated GET topic is an array on production and a refused pair on spec', () => {
    assert.deepEqual(queryToInput(new URLSearchParams('query=q&topic=a&topic=b'), 'production').topic, ['a', 'b']);
    assert.equal(queryToInput(new URLSearchParams('query=q&topic=a'), 'production').topic, 'a');
    assert.ok(!validateSearchRequest(queryToInput(new URLSearchParams('query=q&topic=a&topic=b'), 'spec'), 'spec').ok);
  });
});

describe('sandbox citations and licenses', () => {
  it("heading anchors follow GitHub's form", () => {
    assert.equal(headingAnchor('Retry-After and 429s!'), 'retry-after-and-429s');
    assert.equal(headingAnchor('  Two  words '), 'two-words');
  });

  it('issue chunks after the first cite a comment; pages cite the heading a chunk starts with', () => {
    assert.equal(
      citationOf('issue', 'https://github.com/a/b/issues/7', 'opening', 0),
      'https://github.com/a/b/issues/7',
    );
    assert.equal(
      citationOf('issue', 'https://github.com/a/b/issues/7', 'reply', 2),
      'https://github.com/a/b/issues/7#issuecomment-1000702',
    );
    assert.equal(
      citationOf('doc', 'https://x.dev/g.html', '## Backoff rules\n\ntext', 3),
      'https://x.dev/g.html#backoff-rules',
    );
    assert.equal(
      citationOf('readme', 'https://github.com/a/b#readme', 'no heading', 1),
      'https://github.com/a/b#readme',
    );
    assert.equal(
      citationOf('readme', 'https://github.com/a/b#readme', '### Install', 1),
      'https://github.com/a/b#install',
    );
  });

  it("licenses come in both forms; no license is known_absent; a fork's is unknown", () => {
    const repo = (r: string, extra: Partial<RepoInfo> = {}): RepoInfo => ({
      repo: r,
      indexed: true,
      types: { issue: true, pullRequest: true, readme: true },
      ...extra,
    });
    const all = new Map([
      ['a/one', repo('a/one', { license: 'MIT' })],
      ['a/two', repo('a/two', { license: 'Apache-2.0' })],
      ['a/three', repo('a/three')],
      ['a/four', repo('a/four', { license: 'MIT', fork: true })],
    ]);
    assert.deepEqual(productionLicense(all.get('a/one')!, all), { state: 'licensed', spdx_id: 'MIT' });
    assert.equal(productionLicense(all.get('a/two')!, all), 'Apache-2.0');
    assert.deepEqual(productionLicense(all.get('a/three')!, all), { state: 'known_absent', spdx_id: null });
    assert.deepEqual(productionLicense(all.get('a/four')!, all), { state: 'unknown', spdx_id: null });
  });
});
