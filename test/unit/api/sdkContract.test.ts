// The search side of the SDK contract: values shaped as the service's own SDK declares them
// (`firecrawl` 4.42.0, checked by `satisfies` at compile time) go through our zod schema and client. What
// production adds beyond the SDK is typed as such (sandbox/search/wireTypes.ts), never guessed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeveloperSearchResponse, DeveloperSearchResult } from 'firecrawl';
import { DevIndexClient } from '../../../src/api/client';
import { ApiError } from '../../../src/api/errors';
import { explainCoverage } from '../../../src/api/coverage';
import { licenseLabel } from '../../../src/api/results';
import { SearchResponseSchema } from '../../../src/api/schemas';
import type { ProductionSearchResponse, SpecSearchResponse } from '../../../sandbox/search/wireTypes';
import type { Transport } from '../../../src/api/transport';

const issue = {
  id: 'issue:fetchline/fetchline#472',
  url: 'https://github.com/fetchline/fetchline/issues/472',
  title: 'Retry-After ignored',
  passages: [
    { text: 'Fixed in 3.3.0.', citation_url: 'https://github.com/fetchline/fetchline/issues/472#issuecomment-1' },
  ],
  license: { state: 'licensed', spdx_id: 'MIT' },
} satisfies DeveloperSearchResult;
const readme = {
  id: 'readme:tidewater/httpwell',
  url: 'https://github.com/tidewater/httpwell',
  passages: [{ text: '# httpwell' }],
  license: 'Apache-2.0',
} satisfies DeveloperSearchResult;
const doc = {
  id: 'doc:3f9a1c0e7b2d4a61',
  url: 'https://fetchline.dev/docs/retries.html',
  passages: [],
} satisfies DeveloperSearchResult;

const SDK_FULL = {
  success: true,
  results: [issue, readme, doc],
  repos: [{ repo: 'fetchline/fetchline', indexed: true, types: { issue: true, pullRequest: false, readme: true } }],
  sources: [{ source: 'fetchline', indexed: true }],
} satisfies DeveloperSearchResponse;

/** A client whose every answer is `body` with HTTP 200. */
function clientAnswering(body: unknown): DevIndexClient {
  const transport: Transport = {
    send: async () => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      bodyText: JSON.stringify(body),
    }),
    close: async () => undefined,
  };
  return new DevIndexClient({
    baseUrl: 'http://127.0.0.1:1',
    transport,
    clock: { now: () => 0, sleep: async () => undefined },
  });
}

describe('SDK-shaped developer search values through our schema', () => {
  it("the SDK's full response parses: kinds from the id prefixes, both license forms, citation links and the echoes kept", () => {
    const r = SearchResponseSchema.parse(SDK_FULL);
    assert.deepEqual(
      r.results.map((x) => x.type),
      ['issue', 'readme', 'doc'],
    );
    assert.equal(r.results[0]!.passages[0]!.citation_url, issue.passages[0]!.citation_url);
    assert.equal(licenseLabel(r.results[0]!), 'MIT');
    assert.equal(licenseLabel(r.results[1]!), 'Apache-2.0');
    assert.equal(r.results[2]!.title, undefined);
    assert.deepEqual(r.repos, SDK_FULL.repos);
    assert.deepEqual(r.sources, SDK_FULL.sources);
    assert.equal(r.coverage, undefined, 'the SDK declares no coverage');
  });

  it("production's extras beyond the SDK parse too (passage_budget_applied, coverage, reranked)", () => {
    const body = {
      ...SDK_FULL,
      passage_budget_applied: 12,
      coverage: { doc: 'ok', issue: 'degraded' },
      reranked: true,
    } satisfies ProductionSearchResponse;
    const r = SearchResponseSchema.parse(body);
    assert.equal((r as { passage_budget_applied?: unknown }).passage_budget_applied, 12);
    assert.equal(r.coverage?.issue, 'degraded');
    assert.equal(r.reranked, true);
  });

  it("the specification's wire (type on every result, coverage and reranked) is the SDK's plus those fields", () => {
    const body = {
      success: true,
      results: [{ ...issue, type: 'issue' }],
      reranked: false,
      coverage: { doc: 'skipped', issue: 'ok', pull_request: 'skipped', readme: 'skipped' },
    } satisfies SpecSearchResponse;
    assert.equal(SearchResponseSchema.parse(body).results[0]!.type, 'issue');
  });

  it('a coverage value or reranked of an unexpected type drops that field, not the answer', () => {
    const odd: unknown[] = [
      { ...SDK_FULL, coverage: { doc: 3, issue: 'ok', pull_request: null, readme: { state: 'ok' } }, reranked: 'yes' },
      { ...SDK_FULL, coverage: 'ok', reranked: 1 },
      { ...SDK_FULL, coverage: ['ok'], reranked: null },
    ];
    for (const body of odd) {
      const p = SearchResponseSchema.safeParse(body);
      assert.ok(p.success, JSON.stringify(body));
      assert.equal(p.data.results.length, 3);
      assert.equal(p.data.reranked, undefined);
      // No note is made from a value that was not a string.
      for (const n of explainCoverage({ query: 'q' }, p.data)) assert.doesNotMatch(n.text, /\b3\b|null|object/);
    }
    const first = SearchResponseSchema.parse(odd[0]);
    assert.deepEqual(
      { ...first.coverage },
      { issue: 'ok', doc: undefined, pull_request: undefined, readme: undefined },
    );
  });

  it('a result the SDK would not accept is still refused, naming the field (the schema is tolerant, not blind)', () => {
    const p = SearchResponseSchema.safeParse({ success: true, results: [{ id: 'issue:a/b#1', passages: [] }] });
    assert.equal(p.success, false);
    assert.match(JSON.stringify(p.error!.issues[0]!.path), /"results",0,"url"/);
  });
});

describe('a success: false search body (the SDK declares success a boolean)', () => {
  it('keeps its error text: the client throws the service\'s words, not "invalid response"', async () => {
    const body = {
      success: false,
      results: [],
      error: 'Search is temporarily unavailable for this team',
    } satisfies DeveloperSearchResponse & { error: string };
    await assert.rejects(clientAnswering(body).search({ query: 'q' }), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.kind, 'http');
      assert.equal(e.error, 'Search is temporarily unavailable for this team');
      assert.match(e.message, /^Search is temporarily unavailable for this team \(HTTP 200, success: false\)$/);
      assert.equal(e.retryable, false);
      return true;
    });
  });

  it('without results or a message it still says what the service said', async () => {
    await assert.rejects(
      clientAnswering({ success: false }).search({ query: 'q' }),
      (e: unknown) =>
        e instanceof ApiError &&
        e.kind === 'http' &&
        /success: false/.test(e.message) &&
        !/documented shape/.test(e.message),
    );
  });

  it("an answer with success: true and the SDK's shape is returned as it came", async () => {
    const r = await clientAnswering(SDK_FULL).search({ query: 'q' });
    assert.deepEqual(
      r.results.map((x) => x.id),
      SDK_FULL.results.map((x) => x.id),
    );
  });

  it('a body with neither success value is still an invalid response, naming success', async () => {
    await assert.rejects(
      clientAnswering({ results: [] }).search({ query: 'q' }),
      (e: unknown) => e instanceof ApiError && e.kind === 'invalid-response' && /success/.test(e.message),
    );
  });
});
