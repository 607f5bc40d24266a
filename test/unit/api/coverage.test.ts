import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { explainCoverage, type CoverageNote } from '../../../src/api/coverage';
import type { SearchParams } from '../../../src/api/params';
import type { SearchResponse } from '../../../src/api/schemas';

const res = (extra: Partial<SearchResponse> = {}): SearchResponse =>
  ({
    success: true,
    results: [],
    coverage: { doc: 'ok', issue: 'ok', pull_request: 'ok', readme: 'ok' },
    ...extra,
  }) as SearchResponse;
const q = (extra: Partial<SearchParams> = {}): SearchParams => ({ query: 'q', ...extra });
const byType = (notes: CoverageNote[], type: string) => notes.filter((n) => n.type === type);

describe('explainCoverage', () => {
  it('all ok and no echoes: no notes', () => {
    assert.deepEqual(explainCoverage(q(), res()), []);
  });

  it('skipped types are an info note saying types did not ask for them', () => {
    const notes = explainCoverage(
      q({ types: ['doc'] }),
      res({ coverage: { doc: 'ok', issue: 'skipped', pull_request: 'skipped', readme: 'skipped' } }),
    );
    assert.equal(notes.length, 3);
    assert.ok(notes.every((n) => n.level === 'info' && /skipped: the request's types did not ask for/.test(n.text)));
    assert.deepEqual(
      notes.map((n) => n.type),
      ['issue', 'pull_request', 'readme'],
    );
  });

  it("degraded and unavailable are warnings that say the gap is not the query's fault, with the cause when known", () => {
    const notes = explainCoverage(
      q({ repos: ['a/b', 'c/d'] }),
      res({
        coverage: { doc: 'ok', issue: 'ok', pull_request: 'unavailable', readme: 'degraded' },
        repos: [
          { repo: 'a/b', indexed: true, types: { issue: true, pullRequest: false, readme: true } },
          { repo: 'c/d', indexed: false },
        ],
      }),
    );
    const pr = byType(notes, 'pull_request')[0]!;
    assert.equal(pr.level, 'warning');
    assert.match(
      pr.text,
      /Pull request results are unavailable: a gap caused by the index or by a filter, not by the query/,
    );
    assert.match(pr.text, /Repositories not indexed: c\/d/);
    assert.match(pr.text, /pull requests not indexed for: a\/b/);
    assert.match(byType(notes, 'readme')[0]!.text, /README results are degraded/);
  });

  it('rule 6: repository filters without sources -> a warning with the two ways to keep docs as fixes', () => {
    const notes = explainCoverage(
      q({ language: 'Go', min_stars: 100 }),
      res({ coverage: { doc: 'unavailable', issue: 'ok', pull_request: 'ok', readme: 'ok' } }),
    );
    const doc = byType(notes, 'doc');
    assert.equal(doc.length, 2, JSON.stringify(notes));
    assert.equal(doc[0]!.level, 'warning');
    assert.match(doc[0]!.text, /No documentation results/);
    assert.match(doc[0]!.text, /language, min_stars/);
    assert.deepEqual(
      doc.map((n) => n.fix?.kind),
      ['drop-repo-filters', 'add-sources'],
    );
    assert.ok(doc.every((n) => n.fix!.label.length > 0));
  });

  it('rule 6 whatever coverage.doc says (the spec leaves its value unstated)', () => {
    for (const v of ['ok', 'degraded', undefined]) {
      const notes = explainCoverage(q({ archived: false }), res({ coverage: { doc: v, issue: 'ok' } }));
      assert.deepEqual(
        byType(notes, 'doc').map((n) => n.fix?.kind),
        ['drop-repo-filters', 'add-sources'],
      );
    }
  });

  it('no rule-6 note when sources are sent, or doc was not asked for', () => {
    assert.equal(byType(explainCoverage(q({ language: 'Go', sources: ['node-api'] }), res()), 'doc').length, 0);
    const notes = explainCoverage(
      q({ language: 'Go', types: ['issue'] }),
      res({ coverage: { doc: 'skipped', issue: 'ok' } }),
    );
    assert.ok(notes.every((n) => !n.fix));
  });

  it('repositories not indexed, or lacking a requested type', () => {
    const notes = explainCoverage(
      q({ repos: ['a/b', 'c/d', 'e/f'], types: ['issue', 'readme'] }),
      res({
        repos: [
          { repo: 'a/b', indexed: false, types: { issue: false, pullRequest: false, readme: false } },
          { repo: 'c/d', indexed: true, types: { issue: false, pullRequest: false, readme: true } },
          { repo: 'e/f', indexed: true, types: { issue: true, pullRequest: true, readme: true } },
        ],
      }),
    );
    const texts = notes.map((n) => n.text);
    assert.ok(texts.some((t) => /Repository a\/b is not indexed/.test(t)));
    // pull requests were not requested, so only the missing issues are worth saying.
    assert.ok(texts.some((t) => t === 'Repository c/d has no indexed issues, so none can appear from it.'));
    assert.ok(!texts.some((t) => t.includes('e/f')));
  });

  it('sources not indexed', () => {
    const notes = explainCoverage(
      q({ sources: ['node-api', 'nope'] }),
      res({
        sources: [
          { source: 'node-api', indexed: true },
          { source: 'nope', indexed: false },
        ],
      }),
    );
    assert.equal(notes.length, 1);
    assert.equal(notes[0]!.level, 'warning');
    assert.match(notes[0]!.text, /Documentation source "nope" is not indexed: nothing from that id can match/);
  });

  it('unknown coverage values and types are shown as they came', () => {
    const notes = explainCoverage(
      q(),
      res({ coverage: { doc: 'partial', issue: 'ok', wiki: 'unavailable' } as SearchResponse['coverage'] }),
    );
    assert.match(byType(notes, 'doc')[0]!.text, /"partial"/);
    assert.match(byType(notes, 'wiki')[0]!.text, /wiki results are unavailable/i);
  });

  it('a response without coverage gives no coverage notes, and no crash', () => {
    assert.deepEqual(explainCoverage(q(), { success: true, results: [] } as SearchResponse), []);
  });
});
