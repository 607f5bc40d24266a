// Numbers in our words ("12,000 credits", "~1,234 tokens"): en-US digit grouping, whatever the machine's locale.
// Whole numbers are grouped here, without ICU: the first Intl formatter of a process loads ICU's locale data,
// 12 to 17 ms on this project's machines, which was the largest single cost of `devindex mcp`'s first answer
// (npm run bench, mcp). Anything else (a fraction, a number too large to be exact) goes to one en-US
// formatter, made on first use.
let enUs: Intl.NumberFormat | undefined;

/** `n` with en-US grouping: 12000 -> "12,000", -1234567 -> "-1,234,567". */
export function grouped(n: number): string {
  if (Number.isSafeInteger(n)) {
    const digits = String(Math.abs(n));
    let out = '';
    for (let end = digits.length; end > 0; end -= 3)
      out = (end > 3 ? ',' : '') + digits.slice(Math.max(0, end - 3), end) + out;
    return n < 0 ? `-${out}` : out;
  }
  enUs ??= new Intl.NumberFormat('en-US');
  return enUs.format(n);
}
