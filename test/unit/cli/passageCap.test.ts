// The terminal's passage cap: at most 40 lines, never inside a fenced code block.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { capPassageLines, moreLinesNotice, PASSAGE_LINE_CAP } from '../../../src/cli/passageCap';

const numbered = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `line ${from + i}`);

describe('capPassageLines', () => {
  it('the cap is 40 lines, as in the official CLI', () => {
    assert.equal(PASSAGE_LINE_CAP, 40);
  });

  it('a passage of exactly 40 lines is whole; 41 lines keep 40 and leave 1', () => {
    assert.deepEqual(capPassageLines(numbered(40)), { lines: numbered(40), more: 0 });
    const cut = capPassageLines(numbered(41));
    assert.deepEqual(cut.lines, numbered(40));
    assert.equal(cut.more, 1);
  });

  it('a ``` block that straddles line 40 is left out whole: the cut comes before its opening fence', () => {
    // lines 1..35 prose, 36 opens, 37..44 code, 45 closes, 46..50 prose
    const text = [...numbered(35), '```ts', ...numbered(8, 100), '```', ...numbered(5, 200)];
    const cut = capPassageLines(text);
    assert.deepEqual(cut.lines, numbered(35));
    assert.equal(cut.more, text.length - 35);
  });

  it('a ~~~ block straddling the cap is treated the same; a ``` line inside it does not close it', () => {
    const text = [...numbered(30), '~~~', 'code', '```', ...numbered(20, 100), '~~~', 'after'];
    const cut = capPassageLines(text);
    assert.deepEqual(cut.lines, numbered(30));
    assert.equal(cut.more, text.length - 30);
  });

  it('a block that closes before the cap is kept, and the cut falls after it', () => {
    const text = [...numbered(10), '````md', '```', 'nested', '```', '````', ...numbered(40, 100)];
    const cut = capPassageLines(text);
    assert.equal(cut.lines.length, 40);
    assert.deepEqual(cut.lines.slice(10, 15), ['````md', '```', 'nested', '```', '````']);
    assert.equal(cut.more, text.length - 40);
  });

  it('a closing fence must be at least as long as the opening one, and carry no info string', () => {
    const text = [...numbered(5), '`````', 'a', '```', '````` js', ...numbered(40, 100)];
    // The block never closes within 40 lines, so the cut is before it.
    assert.deepEqual(capPassageLines(text).lines, numbered(5));
  });

  it('a passage that opens with a block longer than the cap shows 39 of its lines and closes it', () => {
    const text = ['  ~~~~python', ...numbered(60), '  ~~~~'];
    const cut = capPassageLines(text);
    assert.equal(cut.lines.length, 40);
    assert.deepEqual(cut.lines.slice(0, 39), text.slice(0, 39));
    assert.equal(cut.lines[39], '  ~~~~');
    assert.equal(cut.more, text.length - 39);
  });

  it('backticks in the info string mean it is not a fence', () => {
    const text = [...numbered(38), '``` a`b', ...numbered(10, 100)];
    assert.deepEqual(capPassageLines(text).lines, [...numbered(38), '``` a`b', 'line 100']);
  });

  it('the notice names the lines left and --json', () => {
    assert.equal(moreLinesNotice(12), '… (12 more lines; use --json for the full passage)');
    assert.equal(moreLinesNotice(1), '… (1 more line; use --json for the full passage)');
  });
});
