import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SearchParams } from '../../../src/api/params';
import { SearchResponseSchema, type SearchResponse } from '../../../src/api/schemas';
import { MoreCache } from '../../../src/tools/moreCache';
import { readMoreText, searchAnswer } from '../../../src/tools/searchAnswer';
import { estimateTokens } from '../../../src/tools/tokens';

const long = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');
const q: SearchParams = { query: 'retry after' };

const big: SearchResponse = SearchResponseSchema.parse({
  success: true,
  results: Array.from({ length: 10 }, (_, i) => ({
    id: `issue:acme/widgets#${i + 1}`, url: `https://github.com/acme/widgets/issues/${i + 1}`, title: `Issue ${i + 1}`,
    passages: [{ text: long(120, `p${i}a`) }, { text: long(120, `p${i}b`) }, { text: long(40, `p${i}c`) }],
  })),
  coverage: { doc: 'ok', issue: 'ok', pull_request: 'ok', readme: 'ok' },
});

/** Every word of every passage the texts hold. */
function words(texts: string[]): Set<string> {
  return new Set(texts.join('\n').split(/\s+/).filter((w) => /^p\d+[abc]\d+$/.test(w)));
}

function handleOf(t: string): string | undefined {
  return /\nmore: (m[0-9a-f]{12})$/.exec(t)?.[1];
}

describe('searchAnswer and readMoreText', () => {
  it('states its size up front and fits the budget', () => {
    const cache = new MoreCache();
    const a = searchAnswer(q, big, { maxChars: 6_000, cache });
    assert.ok(a.text.length <= 6_000, `${a.text.length}`);
    const m = /^Developer index: 10 results for "retry after"; this answer: (\d+) results?, (\d+) passages?(?: \(\d+ shortened\))?, ~([\d,]+) tokens\./.exec(a.text);
    assert.ok(m, a.text.slice(0, 300));
    assert.ok(Math.abs(Number(m[3]!.replace(/,/g, '')) - estimateTokens(a.text)) <= 1, 'the stated size is the size');
    assert.ok(a.handle);
    assert.equal(handleOf(a.text), a.handle, 'the last line is more: <handle>');
  });

  it('readMore returns exactly what was left out: every passage word once, across calls, then the handle is gone', () => {
    const cache = new MoreCache();
    const a = searchAnswer(q, big, { maxChars: 4_000, cache });
    const texts = [a.text];
    let handle = a.handle!;
    for (let guard = 0; guard < 60; guard++) {
      const kept = cache.get(handle);
      if (!kept) break;
      const partial = kept.results.findIndex((r) => r.headed && r.passages.some((p, j) => r.sent[j]! < p.text.length));
      const r = readMoreText(handle, kept, partial >= 0 ? { result: partial + 1, cache } : { cache });
      assert.equal(r.isError, false, r.text);
      assert.ok(r.text.length <= 4_000 + 400, `${r.text.length}`);
      texts.push(r.text);
      const h = handleOf(r.text);
      if (!h) { assert.match(r.text, /That was all of this answer\.$/); break; }
      handle = h;
    }
    assert.equal(cache.size, 0, 'a fully read answer is forgotten');
    const all = words(texts);
    const expected = words(big.results.flatMap((r) => r.passages!.map((p) => p.text)));
    assert.deepEqual([...expected].filter((w) => !all.has(w)), [], 'nothing missing');
    // Nothing sent twice: each word appears once across all the texts.
    const counts = new Map<string, number>();
    for (const w of texts.join('\n').split(/\s+/)) if (expected.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
    assert.deepEqual([...counts].filter(([, n]) => n > 1), [], 'nothing repeated');
  });

  it('readMore with the handle alone: the results not shown, then the further passages, until nothing is left', () => {
    const cache = new MoreCache();
    const a = searchAnswer(q, big, { maxChars: 5_000, cache });
    const texts = [a.text];
    let handle: string | undefined = a.handle!;
    for (let guard = 0; handle && guard < 60; guard++) {
      const r = readMoreText(handle, cache.get(handle)!, { cache });
      texts.push(r.text);
      handle = handleOf(r.text);
    }
    assert.equal(handle, undefined);
    const all = words(texts);
    const expected = words(big.results.flatMap((r) => r.passages!.map((p) => p.text)));
    assert.deepEqual([...expected].filter((w) => !all.has(w)), []);
  });

  it('a whole answer has no handle and keeps nothing', () => {
    const cache = new MoreCache();
    const a = searchAnswer(q, big, { maxChars: 200_000, cache });
    assert.equal(a.handle, undefined);
    assert.doesNotMatch(a.text, /more:/);
    assert.equal(cache.size, 0);
  });

  it('the cache forgets after its time and beyond its size', () => {
    let now = 0;
    const cache = new MoreCache({ ttlMs: 1000, maxEntries: 2, now: () => now });
    const h1 = searchAnswer(q, big, { maxChars: 3_000, cache }).handle!;
    now = 500;
    const h2 = searchAnswer(q, big, { maxChars: 3_000, cache }).handle!;
    const h3 = searchAnswer(q, big, { maxChars: 3_000, cache }).handle!;
    assert.equal(cache.get(h1), undefined, 'the oldest goes first');
    assert.ok(cache.get(h2) && cache.get(h3));
    now = 1600;
    assert.equal(cache.get(h2), undefined, 'expired');
  });
});
