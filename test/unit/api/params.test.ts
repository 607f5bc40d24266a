import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkSearchParams,
  passedCheck,
  validateSearchParams,
  type SearchParams,
  type ParamIssue,
} from '../../../src/api/params';

function issues(p: unknown): ParamIssue[] {
  const r = validateSearchParams(p as SearchParams);
  assert.equal(r.ok, false, `expected ${JSON.stringify(p)} to be rejected`);
  return (r as { issues: ParamIssue[] }).issues;
}
function accepts(p: unknown): SearchParams {
  const r = validateSearchParams(p as SearchParams);
  assert.ok(r.ok, `expected ${JSON.stringify(p)} to pass, got ${JSON.stringify(!r.ok && r.issues)}`);
  return r.params;
}
/** The single issue for `p`, asserting it names the field, and that the message mentions each of `words`. */
function oneIssue(p: unknown, field: string, ...words: string[]): string {
  const list = issues(p);
  const mine = list.filter((i) => i.field === field);
  assert.equal(mine.length, 1, `one issue for ${field}: ${JSON.stringify(list)}`);
  const msg = mine[0]!.message;
  assert.ok(msg.includes(field), `message names the field: ${msg}`);
  for (const w of words) assert.ok(msg.includes(w), `message ${JSON.stringify(msg)} mentions ${JSON.stringify(w)}`);
  return msg;
}

describe('validateSearchParams: bounds of section 8 on both sides of each edge', () => {
  it('query: at least 1 character', () => {
    accepts({ query: 'a' });
    oneIssue({ query: '' }, 'query', '1 character');
    oneIssue({}, 'query');
    oneIssue({ query: 42 }, 'query', '42');
  });

  it('k: integer 1 to 100', () => {
    accepts({ query: 'q', k: 1 });
    accepts({ query: 'q', k: 100 });
    oneIssue({ query: 'q', k: 0 }, 'k', '1 to 100', 'got 0');
    oneIssue({ query: 'q', k: 101 }, 'k', '1 to 100', 'got 101');
    oneIssue({ query: 'q', k: 2.5 }, 'k', 'integer', '2.5');
    oneIssue({ query: 'q', k: Number.NaN }, 'k', 'integer', 'NaN');
    oneIssue({ query: 'q', k: '10' }, 'k', 'integer', '"10"');
  });

  it('passages: integer 1 to 5', () => {
    accepts({ query: 'q', passages: 1 });
    accepts({ query: 'q', passages: 5 });
    oneIssue({ query: 'q', passages: 0 }, 'passages', '1 to 5', 'got 0');
    oneIssue({ query: 'q', passages: 6 }, 'passages', '1 to 5', 'got 6');
    oneIssue({ query: 'q', passages: 1.5 }, 'passages', 'integer');
  });

  it('types: only the four values, at least one', () => {
    accepts({ query: 'q', types: ['doc', 'issue', 'pull_request', 'readme'] });
    oneIssue({ query: 'q', types: ['docs'] }, 'types', '"docs"', 'doc, issue, pull_request, readme');
    oneIssue({ query: 'q', types: [] }, 'types', 'at least one');
    oneIssue({ query: 'q', types: 'doc' }, 'types', 'array');
  });

  it('sources: at most 20 ids, each 1 to 512 characters', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => `s${i}`);
    accepts({ query: 'q', sources: twenty });
    oneIssue({ query: 'q', sources: [...twenty, 's20'] }, 'sources', 'at most 20', 'got 21');
    accepts({ query: 'q', sources: ['x'] });
    accepts({ query: 'q', sources: ['x'.repeat(512)] });
    oneIssue({ query: 'q', sources: ['x'.repeat(513)] }, 'sources', '1 to 512', 'got 513');
    oneIssue({ query: 'q', sources: ['ok', ''] }, 'sources', '1 to 512', 'got 0', 'sources[1]');
  });

  it('min_stars / max_stars: integers >= 0, and min not above max', () => {
    accepts({ query: 'q', min_stars: 0, max_stars: 0 });
    oneIssue({ query: 'q', min_stars: -1 }, 'min_stars', 'at least 0', 'got -1');
    oneIssue({ query: 'q', max_stars: -1 }, 'max_stars', 'at least 0', 'got -1');
    oneIssue({ query: 'q', min_stars: 1.5 }, 'min_stars', 'integer');
    accepts({ query: 'q', min_stars: 10, max_stars: 10 });
    oneIssue({ query: 'q', min_stars: 11, max_stars: 10 }, 'min_stars', 'max_stars', '11', '10');
  });

  it('repos: owner/repo slugs', () => {
    accepts({ query: 'q', repos: ['nodejs/node', 'a/b.c_d-e'] });
    for (const bad of ['nodejs', 'a/b/c', '/b', 'a/', 'a b/c', 'https://github.com/a/b']) {
      oneIssue({ query: 'q', repos: [bad] }, 'repos', 'owner/repo', JSON.stringify(bad));
    }
  });

  it('repos: a legacy owner ending in `-` (GitHub serves it) is accepted; a leading `-` is refused', () => {
    accepts({ query: 'q', repos: ['acme-/widgets', 'old--name-/tool.js'] });
    oneIssue({ query: 'q', repos: ['-acme/widgets'] }, 'repos', 'owner/repo', '"-acme/widgets"');
  });

  it('skills: only "only"', () => {
    accepts({ query: 'q', skills: 'only' });
    oneIssue({ query: 'q', skills: 'all' }, 'skills', '"only"', '"all"');
  });

  it('free-string filters must be non-empty strings; booleans must be booleans', () => {
    accepts({ query: 'q', language: 'Go', topic: 'http', license: 'MIT', archived: false, fork: true });
    oneIssue({ query: 'q', language: '' }, 'language');
    oneIssue({ query: 'q', topic: 3 }, 'topic', '3');
    oneIssue({ query: 'q', archived: 'yes' }, 'archived', 'true or false', '"yes"');
    oneIssue({ query: 'q', fork: 1 }, 'fork', 'true or false');
  });

  it('unknown parameters are refused (the service refuses them too)', () => {
    oneIssue({ query: 'q', limit: 5 }, 'limit', 'not a developer search parameter');
  });

  it('reports every problem at once', () => {
    const list = issues({ query: '', k: 0, passages: 9 });
    assert.deepEqual(list.map((i) => i.field).sort(), ['k', 'passages', 'query']);
  });

  it('drops empty repos / sources lists and passes the rest through unchanged', () => {
    const p = accepts({ query: 'q', repos: [], sources: [], k: 5 });
    assert.deepEqual(p, { query: 'q', k: 5 });
  });
});

describe('validateSearchParams: scoping rules 3 and 4', () => {
  it('rule 3: repos with no repository type in types', () => {
    const msg = oneIssue(
      { query: 'q', types: ['doc'], repos: ['a/b'] },
      'repos',
      'cannot match any requested type',
      'drop repos',
      'issue, pull_request or readme',
      'types=doc',
    );
    assert.match(msg, /^repos cannot match any requested type; add issue, pull_request or readme or drop repos/);
    accepts({ query: 'q', types: ['doc', 'readme'], repos: ['a/b'] });
    accepts({ query: 'q', repos: ['a/b'] });
  });

  it("rule 4: sources without doc in types, with the specification's wording verbatim", () => {
    const list = issues({ query: 'q', types: ['issue'], sources: ['node-api'] });
    assert.deepEqual(list, [
      { field: 'sources', message: 'sources cannot match any requested type; add doc or drop sources' },
    ]);
    accepts({ query: 'q', types: ['doc'], sources: ['node-api'] });
    accepts({ query: 'q', sources: ['node-api'] });
  });
});

describe('validateSearchParams: the one check a search goes through', () => {
  it('what it passed is frozen and known to the client (passedCheck); a copy, or the input, is checked again', () => {
    const input: SearchParams = { query: 'q', repos: [] };
    const passed = accepts(input);
    assert.ok(Object.isFrozen(passed));
    assert.ok(passedCheck(passed));
    assert.equal(passedCheck(input), false);
    assert.equal(passedCheck({ ...passed }), false, 'a copy may have been changed: the client checks it');
    assert.deepEqual(passed, { query: 'q' }, 'the empty scope is dropped');
  });

  it("the client's own check (checkSearchParams) gives the same answer, neither frozen nor remembered", () => {
    const input: SearchParams = { query: 'q', repos: [], k: 5 };
    const own = checkSearchParams(input);
    assert.ok(own.ok);
    assert.deepEqual(own.params, accepts(input));
    assert.equal(Object.isFrozen(own.params), false);
    assert.equal(passedCheck(own.params), false);
    const bad = checkSearchParams({ query: '', k: 500 });
    assert.ok(!bad.ok);
    assert.deepEqual(bad.issues, (validateSearchParams({ query: '', k: 500 }) as { issues: ParamIssue[] }).issues);
  });
});
