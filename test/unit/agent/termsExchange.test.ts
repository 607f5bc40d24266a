// Exchange answers read in full: the addendum's `data.alexandria` shapes (December 2026), typed against the
// SDK's AlexandriaScrapeResult, through the answer schema and exchangeResults.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import type { AlexandriaScrapeResult } from 'firecrawl';
import { ExchangeAnswerSchema, type ExchangeCall } from '../../../src/api/agent/exchangeSchemas';
import {
  acceptCallIssues,
  exchangeResults,
  needsDigest,
  showCallFor,
  shownDigest,
  withDigest,
} from '../../../src/api/agent/termsExchange';
import { failureOf } from '../../../src/api/failure';
import { cliWords, editorWords, modelWords } from '../../../src/words/failureWords';

const ID = '0f8b3c9e-7a51-4d2e-9c61-2b4f5e6a7d80';
const accept = (provider: string, digest: string | null): ExchangeCall => ({
  provider: 'firecrawl',
  capability: 'terms/accept',
  options: { provider, version: '3', digest, confirmed: true },
});
const failed: AlexandriaScrapeResult = {
  provider: 'firecrawl',
  capability: 'terms/accept',
  error: { code: 'terms_changed', message: 'Terms changed', status: 409, chargeId: 'ch_1' },
};
const succeeded: AlexandriaScrapeResult = {
  provider: 'firecrawl',
  capability: 'terms/accept',
  creditsCost: 0,
  data: { provider: 'acme-data', version: '3', accepted: true },
};
const answer = (results: AlexandriaScrapeResult[]) =>
  ExchangeAnswerSchema.parse({ success: true, scrape_id: 's1', data: { alexandria: results, creditsCost: 0 } });

describe('Exchange answers read in full', () => {
  it('a 200 whose result carries error is a terms-not-accepted failure with the service words, code, status, request id', () => {
    const e = (() => {
      try {
        exchangeResults(answer([failed]), [accept('acme-data', 'd')], ID);
      } catch (x) {
        return x;
      }
      assert.fail('read as accepted');
    })();
    const f = failureOf(e);
    assert.equal(f.reason, 'terms-not-accepted');
    assert.equal(f.status, 409);
    assert.equal(f.requestId, ID);
    assert.match(f.message, /did not accept the data terms of acme-data: Terms changed \(terms_changed, HTTP 409\)/);
    assert.match(f.message, new RegExp(`request id ${ID}`));
    for (const words of [cliWords(f).join('\n'), editorWords(f), modelWords(f, { host: 'editor', op: 'Approve' })]) {
      assert.doesNotMatch(words, /\baccepted (the|acme)/i, words);
      assert.match(words, /Terms changed/);
    }
    assert.match(
      editorWords(f),
      /^The data terms were not accepted\. The service did not accept .*nothing was approved/,
    );
  });

  it('one failed result among successes fails the whole acceptance; a missing result too', () => {
    const two = [accept('acme-data', 'd'), accept('globex-news', 'e')];
    assert.throws(() => exchangeResults(answer([succeeded, failed]), two, ID), /globex-news: Terms changed/);
    assert.throws(() => exchangeResults(answer([succeeded]), two, ID), /globex-news: the answer holds no result/);
    assert.throws(
      () => exchangeResults(ExchangeAnswerSchema.parse({ success: true, data: { alexandria: [null] } }), two, ID),
      /unreadable result/,
    );
  });

  it('every result free of error is a success; the top-level alexandria form is read too', () => {
    assert.equal(exchangeResults(answer([succeeded]), [accept('acme-data', 'd')], ID).length, 1);
    const top = ExchangeAnswerSchema.parse({ success: true, alexandria: [succeeded], creditsCost: 0 });
    assert.equal(exchangeResults(top, [accept('acme-data', 'd')], ID).length, 1);
  });

  it('a success: false body is a refusal with its text', () => {
    const refused = ExchangeAnswerSchema.parse({
      success: false,
      error: 'This endpoint is not enabled for this team.',
    });
    assert.throws(() => exchangeResults(refused, [accept('acme-data', 'd')], ID), /not enabled for this team/);
  });

  it('a null digest needs terms/show first; the digest shown is the one sent', () => {
    const c = accept('globex-news', null);
    assert.equal(needsDigest(c), true);
    assert.equal(needsDigest(accept('acme-data', 'sha256:ab')), false);
    assert.deepEqual(showCallFor(c), {
      provider: 'firecrawl',
      capability: 'terms/show',
      options: { provider: 'globex-news' },
    });
    const shown: AlexandriaScrapeResult = {
      provider: 'firecrawl',
      capability: 'terms/show',
      creditsCost: 0,
      data: { provider: 'globex-news', version: '3', digest: 'sha256:0b9e', url: 'https://x', text: 't' },
    };
    const parsed = answer([shown]).data!.alexandria![0]!;
    assert.equal(shownDigest(parsed), 'sha256:0b9e');
    assert.equal(withDigest(c, 'sha256:0b9e').options?.digest, 'sha256:0b9e');
    assert.equal(shownDigest({ ...parsed, data: { digest: null } }), undefined);
  });

  it('only confirmed terms/accept calls may be sent', () => {
    assert.deepEqual(acceptCallIssues([accept('acme-data', 'd')]), []);
    assert.equal(acceptCallIssues([]).length, 1);
    assert.equal(acceptCallIssues([{ ...accept('acme-data', 'd'), capability: 'terms/show' }]).length, 1);
    assert.equal(acceptCallIssues([{ ...accept('acme-data', 'd'), options: { provider: 'acme-data' } }]).length, 1);
  });
});
