// `grouped` writes whole numbers without ICU (the first Intl formatter costs `devindex mcp`'s first
// answer 12 to 17 ms). Its words must be what en-US Intl grouping gives, for every size and sign.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { grouped } from '../../../src/words/duration';

describe('grouped', () => {
  const intl = new Intl.NumberFormat('en-US');

  it('groups whole numbers as en-US Intl does', () => {
    const samples = [
      0,
      1,
      9,
      10,
      99,
      100,
      999,
      1000,
      1001,
      9999,
      10000,
      12000,
      99999,
      100000,
      123456,
      999999,
      1000000,
      1234567,
      10000000,
      123456789012,
      Number.MAX_SAFE_INTEGER,
    ];
    for (const n of [...samples, ...samples.filter((s) => s > 0).map((s) => -s)])
      assert.equal(grouped(n), intl.format(n), String(n));
    for (let p = 0; p < 16; p++) {
      const n = Math.floor(Math.random() * 10 ** p);
      assert.equal(grouped(n), intl.format(n), String(n));
    }
  });

  it('hands fractions and unsafe integers to Intl', () => {
    assert.equal(grouped(1234.5), '1,234.5');
    assert.equal(grouped(2 ** 60), intl.format(2 ** 60));
    assert.equal(grouped(Number.NaN), 'NaN');
  });

  it('writes "12,000", never the machine locale\'s separators', () => {
    assert.equal(grouped(12000), '12,000');
    assert.equal(grouped(-1234567), '-1,234,567');
  });
});
