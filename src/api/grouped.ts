// Numbers in our words ("12,000 credits", "~1,234 tokens"): en-US digit grouping, whatever the machine's locale.
// One formatter for the process: `n.toLocaleString('en-US')` builds a new ICU formatter on each call, about
// 1 ms on this project's machines, and the text for a model formats a dozen numbers (npm run bench, mcp).
// Made on first use, not when the module loads: the first formatter loads ICU's locale data (about 20 ms),
// and this module is in the activation bundle (npm run bench, activation).
let enUs: Intl.NumberFormat | undefined;

/** `n` with en-US grouping: 12000 -> "12,000". */
export function grouped(n: number): string {
  enUs ??= new Intl.NumberFormat('en-US');
  return enUs.format(n);
}
