// Sanity of the shipped fixture corpus (sandbox/corpus), format-independent: it loads, is big enough,
// and the default sandbox (no corpusDir) serves it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCorpus } from '../../sandbox/search/corpus';
import { startSandbox } from '../../sandbox/server';
import { defaultCorpusDir, type Sandbox } from '../../sandbox/serverParts';
import { get } from './sandboxHelpers';

describe('sandbox default corpus', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ port: 0, wire: 'spec', quiet: true, keylessRateLimit: 0 });
  });
  after(async () => {
    await sb.close();
  });

  it('loads at least 60 documents of all four types, plus the web pages of the production wire', () => {
    const corpus = loadCorpus(defaultCorpusDir());
    assert.ok(corpus.docs.length >= 60, `${corpus.docs.length} documents`);
    assert.deepEqual([...new Set(corpus.docs.map((d) => d.type))].sort(), [
      'doc',
      'issue',
      'pull_request',
      'readme',
      'web',
    ]);
    assert.ok(
      corpus.docs.filter((d) => d.type === 'web').every((d) => d.id === `web:${d.url}` && d.url.startsWith('https://')),
    );
    assert.equal(new Set(corpus.docs.map((d) => d.id)).size, corpus.docs.length, 'ids are unique');
  });

  it('is served by default and answers a search with k results', async () => {
    const r = await get(sb.url, '/v2/search/developer', { query: 'retry timeout', k: 5 });
    assert.equal(r.status, 200);
    assert.equal(r.json.results.length, 5);
  });
});
