import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SearchParams } from '../../../src/api/params';
import { SearchResponseSchema, type SearchResponse } from '../../../src/api/schemas';
import { MoreCache } from '../../../src/tools/moreCache';
import { readMoreText, searchAnswer } from '../../../src/tools/searchAnswer';
import { heldPassages } from '../../../src/tools/moreCache';
import { estimateTokens } from '../../../src/tools/toolInputs';

const long = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');
const q: SearchParams = { query: 'retry after' };

const big: SearchResponse = SearchResponseSchema.parse({
  success: true,
  results: Array.from({ length: 10 }, (_, i) => ({
    id: `issue:acme/widgets#${i + 1}`,
    url: `https://github.com/acme/widgets/issues/${i + 1}`,
    title: `Issue ${i + 1}`,
    passages: [{ text: long(120, `p${i}a`) }, { text: long(120, `p${i}b`) }, { text: long(40, `p${i}c`) }],
  })),
  coverage: { doc: 'ok', issue: 'ok', pull_request: 'ok', readme: 'ok' },
});

/** Every word of every passage the texts hold. */
function words(texts: string[]): Set<string> {
  return new Set(
    texts
      .join('\n')
      .split(/\s+/)
      .filter((w) => /^p\d+[abc]\d+$/.test(w)),
  );
}

function handleOf(t: string): string | undefined {
  return /\nmore: (m[0-9a-f]{12})$/.exec(t)?.[1];
}

describe('searchAnswer and readMoreText', () => {
  it('states its size up front and fits the budget', () => {
    const cache = new MoreCache();
    const a = searchAnswer(q, big, { maxChars: 6_000, cache });
    assert.ok(a.text.length <= 6_000, `${a.text.length}`);
    const m =
      /^Developer index: 10 results for "retry after"; this answer: (\d+) results?, (\d+) passages?(?: \(\d+ shortened\))?, ~([\d,]+) tokens\./.exec(
        a.text,
      );
    assert.ok(m, a.text.slice(0, 300));
    assert.ok(Math.abs(Number(m[3]!.replace(/,/g, '')) - estimateTokens(a.text)) <= 1, 'the stated size is the size');
    assert.ok(a.handle);
    assert.equal(handleOf(a.text), a.handle, 'the last line is more: <handle>');
  });

  it('readMore returns exactly what was left out: every passage word once, across calls; the answer stays kept (for `have`)', () => {
    const cache = new MoreCache();
    const a = searchAnswer(q, big, { maxChars: 4_000, cache });
    const texts = [a.text];
    let handle = a.handle!;
    for (let guard = 0; guard < 60; guard++) {
      const kept = cache.get(handle);
      if (!kept) break;
      const partial = kept.results.findIndex((r) => r.headed && r.passages.some((p, j) => r.sent[j]! < p.text.length));
      const r = readMoreText(handle, kept, partial >= 0 ? { result: partial + 1 } : {});
      assert.equal(r.isError, false, r.text);
      assert.ok(r.text.length <= 4_000 + 400, `${r.text.length}`);
      texts.push(r.text);
      const h = handleOf(r.text);
      if (!h) {
        assert.match(r.text, /That was all of this answer\.$/);
        break;
      }
      handle = h;
    }
    assert.equal(cache.size, 1, 'a fully read answer stays kept, so that a model can name it in `have`');
    assert.match(readMoreText(handle, cache.get(handle)!).text, /^Nothing of this answer is left/);
    const all = words(texts);
    const expected = words(big.results.flatMap((r) => r.passages!.map((p) => p.text)));
    assert.deepEqual(
      [...expected].filter((w) => !all.has(w)),
      [],
      'nothing missing',
    );
    // Nothing sent twice: each word appears once across all the texts.
    const counts = new Map<string, number>();
    for (const w of texts.join('\n').split(/\s+/)) if (expected.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
    assert.deepEqual(
      [...counts].filter(([, n]) => n > 1),
      [],
      'nothing repeated',
    );
  });

  it('readMore with the handle alone: the results not shown, then the further passages, until nothing is left', () => {
    const cache = new MoreCache();
    const a = searchAnswer(q, big, { maxChars: 5_000, cache });
    const texts = [a.text];
    let handle: string | undefined = a.handle!;
    for (let guard = 0; handle && guard < 60; guard++) {
      const r = readMoreText(handle, cache.get(handle)!);
      texts.push(r.text);
      handle = handleOf(r.text);
    }
    assert.equal(handle, undefined);
    const all = words(texts);
    const expected = words(big.results.flatMap((r) => r.passages!.map((p) => p.text)));
    assert.deepEqual(
      [...expected].filter((w) => !all.has(w)),
      [],
    );
  });

  it('a whole answer ends with `answer: <handle>` and is kept for `have`; without a cache it has no handle', () => {
    const cache = new MoreCache();
    const a = searchAnswer(q, big, { maxChars: 200_000, cache });
    assert.ok(a.handle);
    assert.ok(a.text.endsWith(`\n\nanswer: ${a.handle}`), a.text.slice(-80));
    assert.doesNotMatch(a.text, /more:|Left out|Not repeated/);
    assert.equal(cache.size, 1);
    assert.match(
      readMoreText(a.handle, cache.get(a.handle)!).text,
      /^Nothing of this answer is left: every result and passage has been sent\.$/,
    );
    const plain = searchAnswer(q, big, { maxChars: 200_000 });
    assert.equal(plain.handle, undefined);
    assert.doesNotMatch(plain.text, /answer: m|more:/);
  });

  it('have: passages a held answer sent in full are named, not repeated; readMore with result repeats exactly them', () => {
    const cache = new MoreCache();
    // The first answer holds results 1 to 3 of `big` in full and results 4 to 10 not at all.
    const first: SearchResponse = { ...big, results: big.results.slice(0, 3) };
    const h1 = searchAnswer(q, first, { maxChars: 200_000, cache }).handle!;
    // A later search: results 2 and 3 come back (now [1] and [2]), with result 7 between them ([3] here) that no answer sent.
    const later: SearchResponse = { ...big, results: [big.results[1]!, big.results[6]!, big.results[2]!] };
    const held = heldPassages([h1, 'm0123456789ab'], cache);
    assert.deepEqual(held.unknown, ['m0123456789ab']);
    assert.equal(held.known.size, 9, 'every passage of the three results, each sent in full');
    const a = searchAnswer(q, later, { maxChars: 200_000, cache, known: held.known });
    assert.match(
      a.text,
      /^Developer index: 3 results for "retry after"; this answer: 3 results, 3 passages, 6 named, not repeated, ~[\d,]+ tokens\./,
    );
    assert.match(a.text, new RegExp(`\\n\\[1\\.1\\] sent before: \\[2\\.1\\] of ${h1}\\n`));
    assert.match(a.text, new RegExp(`\\n\\[3\\.3\\] sent before: \\[3\\.3\\] of ${h1}`));
    // Every id and URL is in the answer; result 7's passages in full; those of 2 and 3 nowhere in it.
    for (const r of later.results) assert.ok(a.text.includes(r.id) && a.text.includes(r.url), r.id);
    const inA = words([a.text]);
    assert.deepEqual(
      [...words(big.results[6]!.passages!.map((p) => p.text))].filter((w) => !inA.has(w)),
      [],
    );
    assert.deepEqual(
      [...inA].filter((w) => /^p[12][abc]/.test(w)),
      [],
    );
    assert.match(
      a.text,
      /\nNot repeated: 6 passages of \[1\], \[3\], sent in full by answers you named in `have`; devIndex_readMore with `result: N` and the handle below repeats result \[N\]'s\.\nmore: m[0-9a-f]{12}$/,
    );
    assert.doesNotMatch(a.text, /Left out/);
    // readMore without `result` has nothing left out to send, and says how to repeat the named ones.
    const none = readMoreText(a.handle!, cache.get(a.handle!)!);
    assert.match(none.text, /^Nothing of this answer was left out\.\nNot repeated: 6 passages/);
    // With `result: 3`: exactly big result 3's three passages, every word once.
    const again = readMoreText(a.handle!, cache.get(a.handle!)!, { result: 3 });
    const got = words([again.text]);
    assert.deepEqual([...got].sort(), [...words(big.results[2]!.passages!.map((p) => p.text))].sort());
    assert.match(again.text, /\nNot repeated: 3 passages of \[1\],/);
  });

  it('have: a result first shown by readMore says where its named passages were sent', () => {
    const cache = new MoreCache();
    const h1 = searchAnswer(q, { ...big, results: big.results.slice(9, 10) }, { maxChars: 200_000, cache }).handle!;
    // Result [10] of a cut answer is big's result 10, which h1 sent in full: readMore shows its heading and names its passages.
    const a = searchAnswer(q, big, { maxChars: 900, cache, known: heldPassages([h1], cache).known });
    assert.match(a.text, /results \[\d+\] to \[10\] not shown/);
    let handle: string | undefined = a.handle!;
    let last = '';
    for (let guard = 0; handle && guard < 40 && !last.includes('issue:acme/widgets#10'); guard++) {
      last = readMoreText(handle, cache.get(handle)!).text;
      handle = handleOf(last);
    }
    assert.match(
      last,
      new RegExp(
        `\\[10\\] issue:acme/widgets#10 · Issue 10\\nhttps://github\\.com/acme/widgets/issues/10\\n\\[10\\.1\\] sent before: \\[1\\.1\\] of ${h1}\\n\\[10\\.2\\] sent before: \\[1\\.2\\] of ${h1}\\n\\[10\\.3\\] sent before: \\[1\\.3\\] of ${h1}`,
      ),
    );
    assert.ok(!words([last]).has('p9a0'), 'not repeated');
  });

  it('have: a passage the held answer only began (cut) is sent again in full, not named', () => {
    const cache = new MoreCache();
    const one: SearchResponse = { ...big, results: big.results.slice(0, 1) };
    const cut = searchAnswer(q, one, { maxChars: 1_200, cache });
    assert.match(cut.text, /\[1\.1\][\s\S]*\[…\]/, 'the first passage was shortened');
    const held = heldPassages([cut.handle!], cache);
    const a = searchAnswer(q, one, { maxChars: 200_000, cache, known: held.known });
    assert.match(a.text, /\n\[1\.1\]\n/, 'passage 1 again, in full');
    assert.ok(words([a.text]).has('p0a119'), 'its last word');
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
