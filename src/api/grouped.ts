// Numbers in our words ("12,000 credits", "~1,234 tokens"): en-US digit grouping, whatever the machine's locale.
// One formatter for the process: `n.toLocaleString('en-US')` builds a new ICU formatter on each call, about
// 1 ms on this project's machines, and the text for a model formats a dozen numbers (npm run bench, mcp).
const EN_US = new Intl.NumberFormat('en-US');

/** `n` with en-US grouping: 12000 -> "12,000". */
export function grouped(n: number): string {
  return EN_US.format(n);
}
