import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  describeZodError,
  displayTitle,
  ErrorBodySchema,
  RepositoryEchoSchema,
  SearchResponseSchema,
} from '../../../src/api/schemas';
import type { SpecSearchResponse, SpecSearchResult } from '../../../sandbox/search/wireTypes';

// Wire values typed against the SDK's declarations (plus the specification's `type`, coverage and reranked).
const result = {
  id: 'issue:a/b#1',
  type: 'issue',
  url: 'https://github.com/a/b/issues/1',
  title: 'Crash',
  passages: [{ text: '| a | b |\n|---|---|' }],
} satisfies SpecSearchResult;

describe('SearchResponseSchema', () => {
  it('parses the documented response with coverage and both echoes', () => {
    const r = SearchResponseSchema.parse({
      success: true,
      results: [result],
      reranked: true,
      coverage: { doc: 'skipped', issue: 'ok', pull_request: 'degraded', readme: 'unavailable' },
      repos: [{ repo: 'a/b', indexed: true, types: { issue: true, pullRequest: false, readme: true } }],
      sources: [{ source: 'node-api', indexed: false }],
    } satisfies SpecSearchResponse);
    assert.equal(r.results[0]!.passages[0]!.text, '| a | b |\n|---|---|');
    assert.equal(r.repos![0]!.types!.pullRequest, false);
    assert.equal(r.sources![0]!.indexed, false);
    assert.equal(r.coverage!.pull_request, 'degraded');
  });

  it('keeps unknown fields, unknown result types and unknown coverage values as they came', () => {
    const r = SearchResponseSchema.parse({
      success: true,
      requestId: 'x1',
      results: [{ ...result, type: 'discussion', score: 0.5 }],
      coverage: { doc: 'partial', issue: 'ok', wiki: 'ok' },
    });
    assert.equal(r.results[0]!.type, 'discussion');
    assert.equal((r.results[0] as Record<string, unknown>).score, 0.5);
    assert.equal((r as Record<string, unknown>).requestId, 'x1');
    assert.equal(r.coverage!.doc, 'partial');
    assert.equal((r.coverage as Record<string, unknown>).wiki, 'ok');
  });

  it('title may be absent or null; display falls back to url', () => {
    const r = SearchResponseSchema.parse({
      success: true,
      results: [
        { id: 'doc:s/p', type: 'doc', url: 'https://s.dev/p.html', passages: [] },
        { ...result, title: null },
      ],
    });
    assert.equal(r.results[0]!.title, undefined);
    assert.equal(displayTitle(r.results[0]!), 'https://s.dev/p.html');
    assert.equal(displayTitle(r.results[1]!), result.url);
    assert.equal(displayTitle({ title: 'Crash', url: 'u' }), 'Crash');
    assert.equal(displayTitle({ title: '  ', url: 'u' }), 'u');
  });

  it('a result without passages gets an empty list rather than failing', () => {
    const r = SearchResponseSchema.parse({ success: true, results: [{ id: 'x', type: 'readme', url: 'u' }] });
    assert.deepEqual(r.results[0]!.passages, []);
  });

  it('a missing required field is an error naming the field', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ success: true }, /^results: /],
      [{ results: [] }, /^success: /],
      [{ success: true, results: [{ id: 'x', type: 'doc' }] }, /^results\[0\]\.url: /],
      [{ success: true, results: [result, { ...result, passages: [{}] }] }, /^results\[1\]\.passages\[0\]\.text: /],
      [{ success: true, results: [], repos: [{ repo: 'a/b' }] }, /^repos\[0\]\.indexed: /],
      [{ success: true, results: [], sources: [{ indexed: true }] }, /^sources\[0\]\.source: /],
    ];
    for (const [body, re] of cases) {
      const p = SearchResponseSchema.safeParse(body);
      assert.equal(p.success, false);
      assert.match(describeZodError(p.error!), re);
    }
  });

  it('the repository echo uses the camel-case pullRequest key', () => {
    const e = RepositoryEchoSchema.parse({
      repo: 'a/b',
      indexed: true,
      types: { issue: true, pullRequest: true, readme: false },
    });
    assert.deepEqual(e.types, { issue: true, pullRequest: true, readme: false });
  });
});

describe('ErrorBodySchema', () => {
  it('accepts the documented body and the shapes proxies send', () => {
    assert.equal(
      ErrorBodySchema.parse({ success: false, error: 'Bad Request', details: [{ path: ['k'] }] }).error,
      'Bad Request',
    );
    assert.equal(ErrorBodySchema.parse({ detail: 'Gateway timeout' }).detail, 'Gateway timeout');
    assert.equal(ErrorBodySchema.parse({ title: 'Bad Gateway', status: 502 }).title, 'Bad Gateway');
  });
});
