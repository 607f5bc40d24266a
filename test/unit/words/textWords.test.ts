// The one duration formatter and the one control-character cleaner, with the options each surface picks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withoutControls } from '../../../src/words/controls';
import { durationWords } from '../../../src/words/duration';

describe('durationWords', () => {
  it('says a wait in its largest sensible unit by default', () => {
    assert.deepEqual(
      [45_000, 89_000, 20 * 60_000, 13 * 3_600_000, 3 * 86_400_000].map((ms) => durationWords(ms)),
      ['45 s', '89 s', '20 min', '13 h', '3 d'],
    );
  });
  it('hours with their minutes, never days, for a countdown or a run', () => {
    assert.equal(durationWords(13.5 * 3_600_000, { largest: 'h' }), '13 h 30 min');
    assert.equal(durationWords(49 * 3_600_000, { largest: 'h' }), '49 h');
    assert.equal(durationWords(65 * 60_000, { upTo: 60, largest: 'h' }), '1 h 5 min');
  });
  it('a countdown rounds up and never says 0 before its end', () => {
    assert.equal(durationWords(1, { smallest: 'min', round: 'up', upTo: 60, largest: 'h' }), '1 min');
    assert.equal(durationWords(60_001, { smallest: 'min', round: 'up', upTo: 60, largest: 'h' }), '2 min');
  });
  it('an age rounds down, and says days in full', () => {
    assert.equal(durationWords(119_000, { smallest: 'min', round: 'down', upTo: 60 }), '1 min');
    assert.equal(durationWords(72 * 3_600_000, { smallest: 'min', round: 'down', upTo: 60, days: 'days' }), '3 days');
  });
  it('a negative length is 0', () => assert.equal(durationWords(-5000), '0 s'));
});

describe('withoutControls', () => {
  const nasty = 'a\u001b[2Jb\tc\r\nd\re\u0000f\u009bg\u202eh\u2028i';
  it('keeps line feeds and tabs by default; a CR becomes a line feed', () => {
    assert.equal(withoutControls(nasty), 'a[2Jb\tc\nd\nefg\u202eh\u2028i');
  });
  it('drops whole terminal sequences and bidi overrides when asked', () => {
    assert.equal(withoutControls('x\u001b]8;;https://evil\u0007y\u202ez', { sequences: true, bidi: true }), 'xyz');
  });
  it('joins lines into one, or marks each break', () => {
    assert.equal(withoutControls(' a\r\n\tb\u2028c ', { lines: 'join' }), 'a b c');
    assert.equal(withoutControls('a\nb\r\nc', { lines: 'mark' }), 'a ⏎ b ⏎ c');
  });
  it('can put a space where a control was, and bound the length', () => {
    assert.equal(withoutControls('a\u0000b', { replaceWith: ' ' }), 'a b');
    assert.equal(withoutControls('abcdef', { max: 3 }), 'abc');
  });
});
