import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { licenseLabel, licenseOf, passageLink, provenance, resultKind } from '../../../src/api/results';
import { SearchResponseSchema } from '../../../src/api/schemas';

describe('resultKind', () => {
  it("takes `type` when the service sent one (the specification's shape)", () => {
    assert.equal(resultKind({ type: 'issue', id: 'doc:https://x.dev/a' }), 'issue');
  });

  it('reads the id prefix when `type` is absent (production), for every form the service sends', () => {
    const cases: Array<[string, string]> = [
      ['issue:fetchline/fetchline#412', 'issue'],
      ['pull_request:fetchline/fetchline#430', 'pull_request'],
      ['readme:keelhq/keel-schema', 'readme'],
      ['doc:https://fetchline.dev/docs/guides/retries.html', 'doc'],
      ['web:https://notes.quarry.example/profiling/flame-graphs', 'web'],
      ['discussion:owner/repo#7', 'discussion'],
    ];
    for (const [id, kind] of cases) assert.equal(resultKind({ id }), kind, id);
  });

  it('an empty or non-string `type` falls back to the prefix; no prefix at all is `unknown`', () => {
    assert.equal(resultKind({ type: '', id: 'readme:a/b' }), 'readme');
    assert.equal(resultKind({ type: 7, id: 'issue:a/b#1' }), 'issue');
    assert.equal(resultKind({ id: 'plain-id-without-prefix' }), 'unknown');
    assert.equal(resultKind({ id: ':leading-colon' }), 'unknown');
  });
});

describe('provenance', () => {
  it('owner/repo #n for issues and pull requests, from the id', () => {
    assert.equal(
      provenance({ id: 'issue:fetchline/fetchline#412', url: 'https://github.com/fetchline/fetchline/issues/412' })
        .text,
      'fetchline/fetchline #412',
    );
    const pr = provenance({
      id: 'pull_request:quarry-dev/fetchline#9',
      url: 'https://github.com/quarry-dev/fetchline/pull/9',
    });
    assert.deepEqual(pr, { repo: 'quarry-dev/fetchline', number: 9, text: 'quarry-dev/fetchline #9' });
  });

  it('owner/repo for READMEs', () => {
    assert.deepEqual(
      provenance({ id: 'readme:keelhq/keel-schema', url: 'https://github.com/keelhq/keel-schema#readme' }),
      { repo: 'keelhq/keel-schema', text: 'keelhq/keel-schema' },
    );
  });

  it('falls back to the GitHub URL when the id does not carry the repository', () => {
    assert.equal(
      provenance({
        id: 'issue:12345',
        type: 'issue',
        url: 'https://github.com/tidewater/httpwell/issues/77#issuecomment-1',
      }).text,
      'tidewater/httpwell #77',
    );
    assert.equal(
      provenance({ id: 'readme:x', type: 'readme', url: 'https://www.github.com/a-b/c.d#readme' }).text,
      'a-b/c.d',
    );
  });

  it('legacy owners ending in `-` (or with a doubled hyphen) are repositories, from the id and from the URL', () => {
    assert.deepEqual(provenance({ id: 'issue:acme-/widgets#12', url: 'https://github.com/acme-/widgets/issues/12' }), {
      repo: 'acme-/widgets',
      number: 12,
      text: 'acme-/widgets #12',
    });
    assert.deepEqual(
      provenance({ id: 'readme:old--name-/tool.js', url: 'https://github.com/old--name-/tool.js#readme' }),
      { repo: 'old--name-/tool.js', text: 'old--name-/tool.js' },
    );
    assert.equal(
      provenance({ id: 'pull_request:77', type: 'pull_request', url: 'https://github.com/acme-/widgets/pull/77' }).text,
      'acme-/widgets #77',
    );
    assert.equal(
      provenance({ id: 'readme:x', type: 'readme', url: 'https://github.com/acme-/widgets.git' }).text,
      'acme-/widgets',
    );
  });

  it('an owner starting with a hyphen is still not a repository (GitHub serves none)', () => {
    assert.deepEqual(provenance({ id: 'issue:-acme/widgets#1', url: 'https://example.org/-acme/widgets/issues/1' }), {
      site: 'example.org',
      path: '/-acme/widgets/issues/1',
      text: 'example.org/-acme/widgets/issues/1',
    });
    assert.deepEqual(provenance({ id: 'issue:1', type: 'issue', url: 'https://github.com/-acme/widgets/issues/1' }), {
      site: 'github.com',
      path: '/-acme/widgets/issues/1',
      text: 'github.com/-acme/widgets/issues/1',
    });
  });

  it('site and path for documentation and web pages, never the bare host when there is a path', () => {
    assert.deepEqual(
      provenance({
        id: 'doc:https://fetchline.dev/docs/guides/retries.html',
        url: 'https://fetchline.dev/docs/guides/retries.html',
      }),
      { site: 'fetchline.dev', path: '/docs/guides/retries.html', text: 'fetchline.dev/docs/guides/retries.html' },
    );
    assert.equal(
      provenance({ id: 'web:https://www.example.org/', url: 'https://www.example.org/' }).text,
      'example.org',
    );
    assert.equal(
      provenance({ id: 'doc:x', type: 'doc', url: 'https://docs.example.com/api/' }).text,
      'docs.example.com/api',
    );
  });

  it('an unparsable URL is shown as it came (cut), not dropped', () => {
    assert.equal(provenance({ id: 'doc:?', url: 'not a url' }).text, 'not a url');
  });
});

describe('license', () => {
  it('reads the object form and the plain SPDX string', () => {
    assert.deepEqual(licenseOf({ license: { state: 'licensed', spdx_id: 'MIT' } }), {
      state: 'licensed',
      spdxId: 'MIT',
    });
    assert.deepEqual(licenseOf({ license: 'Apache-2.0' }), { state: 'licensed', spdxId: 'Apache-2.0' });
    assert.equal(licenseLabel({ license: { state: 'licensed', spdx_id: 'MIT' } }), 'MIT');
    assert.equal(licenseLabel({ license: 'GPL-3.0' }), 'GPL-3.0');
  });

  it('known_absent says "no license"; unknown and absent say nothing; junk is ignored', () => {
    assert.equal(licenseLabel({ license: { state: 'known_absent', spdx_id: null } }), 'no license');
    assert.equal(licenseLabel({ license: { state: 'unknown', spdx_id: null } }), undefined);
    assert.equal(licenseLabel({}), undefined);
    assert.equal(licenseLabel({ license: 42 }), undefined);
    assert.equal(licenseLabel({ license: ['MIT'] }), undefined);
    assert.equal(licenseLabel({ license: '   ' }), undefined);
    assert.equal(licenseLabel({ license: { state: 'pending_review' } }), 'pending_review');
  });
});

describe('passageLink', () => {
  it('uses an http(s) citation_url, else the result URL', () => {
    const r = { url: 'https://github.com/a/b/issues/1' };
    assert.equal(
      passageLink({ citation_url: 'https://github.com/a/b/issues/1#issuecomment-5' }, r),
      'https://github.com/a/b/issues/1#issuecomment-5',
    );
    assert.equal(passageLink({}, r), r.url);
    assert.equal(passageLink({ citation_url: 'javascript:alert(1)' }, r), r.url);
    assert.equal(passageLink({ citation_url: 12 }, r), r.url);
  });
});

describe('SearchResponseSchema on the production shape', () => {
  it('accepts results without type (kind from the id), license in both forms, citation_url, no coverage', () => {
    const parsed = SearchResponseSchema.parse({
      success: true,
      results: [
        {
          id: 'issue:a/b#1',
          url: 'https://github.com/a/b/issues/1',
          title: 'T',
          passages: [{ text: 'p', citation_url: 'https://github.com/a/b/issues/1#issuecomment-2' }],
          license: { state: 'licensed', spdx_id: 'MIT' },
        },
        { id: 'web:https://x.example/', url: 'https://x.example/', passages: [{ text: 'w' }], license: 'BSD-3-Clause' },
        { id: 'newkind:zzz', url: 'https://z.example/', passages: [{ text: 'z', citation_url: 5 }] },
      ],
    });
    assert.deepEqual(
      parsed.results.map((r) => r.type),
      ['issue', 'web', 'newkind'],
    );
    assert.equal(parsed.results[0]!.passages[0]!.citation_url, 'https://github.com/a/b/issues/1#issuecomment-2');
    assert.equal(parsed.results[2]!.passages[0]!.citation_url, undefined);
    assert.equal(licenseLabel(parsed.results[1]!), 'BSD-3-Clause');
    assert.equal(parsed.coverage, undefined);
  });

  it("keeps the specification's type when present", () => {
    const parsed = SearchResponseSchema.parse({
      success: true,
      results: [{ id: 'doc:fetchline/x', type: 'doc', url: 'https://f.dev/x', passages: [] }],
      coverage: { doc: 'ok' },
      reranked: true,
    });
    assert.equal(parsed.results[0]!.type, 'doc');
  });
});
