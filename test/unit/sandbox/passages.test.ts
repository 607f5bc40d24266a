// Passage chunking: a chunk never cuts a fenced code block or a table, headings start chunks, and no
// content is lost.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chunkMarkdown, splitBlocks } from '../../../sandbox/search/passages';

const fences = (s: string): number => s.split('\n').filter((l) => /^ {0,3}(`{3,}|~{3,})/.test(l)).length;
const contentLines = (s: string): string[] => s.split('\n').filter((l) => l.trim() !== '');

const FENCE_WITH_BLANKS = [
  '```ts',
  'const a = 1;',
  '',
  '# not a heading: inside a fence',
  '',
  '| not | a table |',
  '```',
].join('\n');

const TABLE = [
  '| Attempt | Delay |',
  '|---|---|',
  ...Array.from({ length: 30 }, (_, i) => `| ${i + 1} | ${2 ** Math.min(i, 5)} s |`),
].join('\n');

describe('splitBlocks', () => {
  it('keeps a fenced block with blank lines and hash lines as one block', () => {
    const blocks = splitBlocks(`Intro.\n\n${FENCE_WITH_BLANKS}\n\nAfter.`);
    assert.deepEqual(blocks, ['Intro.', FENCE_WITH_BLANKS, 'After.']);
  });

  it('closes a fence only with the same character and at least the same length', () => {
    const md = ['````md', '```js', 'inner();', '```', '~~~', '````', 'tail'].join('\n');
    assert.deepEqual(splitBlocks(md), [md.split('\n').slice(0, 6).join('\n'), 'tail']);
  });

  it('runs an unclosed fence to the end of the document', () => {
    const md = 'Text.\n\n~~~sh\necho one\n\necho two';
    assert.deepEqual(splitBlocks(md), ['Text.', '~~~sh\necho one\n\necho two']);
  });

  it('keeps a table in one block and puts a heading on its own', () => {
    const md = `## Delays\nThe table:\n${TABLE}\n\nNext.`;
    assert.deepEqual(splitBlocks(md), ['## Delays', `The table:\n${TABLE}`, 'Next.']);
  });
});

describe('chunkMarkdown', () => {
  const doc = [
    'Intro paragraph that is short.',
    '## Table',
    TABLE,
    '## Code',
    'Some words before the code.',
    FENCE_WITH_BLANKS,
    'Words after the code.',
    '## Long section',
    ...Array.from({ length: 12 }, (_, i) => `Paragraph ${i} ${'lorem ipsum '.repeat(8)}`),
  ].join('\n\n');

  for (const target of [50, 200, 700]) {
    it(`never splits a fence or a table (target ${target})`, () => {
      const chunks = chunkMarkdown(doc, target);
      for (const c of chunks) assert.equal(fences(c) % 2, 0, `balanced fences in:\n${c}`);
      const withTable = chunks.filter((c) => c.includes('| Attempt | Delay |'));
      assert.equal(withTable.length, 1);
      assert.equal(
        contentLines(withTable[0] ?? '').filter((l) => l.startsWith('|')).length,
        32,
        'every table row in the same chunk',
      );
      assert.equal(chunks.filter((c) => c.includes('const a = 1;')).length, 1);
      assert.ok((chunks.find((c) => c.includes('const a = 1;')) ?? '').includes('| not | a table |'));
    });
  }

  it('loses no content and keeps its order', () => {
    assert.deepEqual(contentLines(chunkMarkdown(doc, 200).join('\n\n')), contentLines(doc));
  });

  it('starts a chunk at each heading and keeps the heading with what follows', () => {
    const chunks = chunkMarkdown(doc, 10_000);
    assert.deepEqual(
      chunks.map((c) => c.split('\n')[0]),
      ['Intro paragraph that is short.', '## Table', '## Code', '## Long section'],
    );
  });

  it('groups paragraphs up to the target and splits beyond it', () => {
    const long = chunkMarkdown(doc, 300).filter((c) => c.includes('Paragraph'));
    assert.ok(long.length > 1, 'the long section is split');
    for (const c of long)
      assert.ok(c.length <= 300 || !c.includes('\n\n'), `a chunk over the target holds a single block (${c.length})`);
  });

  it('keeps a document of headings only as one chunk, and gives nothing for an empty one', () => {
    assert.deepEqual(chunkMarkdown('# A\n\n## B'), ['# A\n\n## B']);
    assert.deepEqual(chunkMarkdown(''), []);
  });
});
