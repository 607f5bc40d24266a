// What `npm test` (scripts/test-all.mjs) repeats of a failed tier under its closing summary. A CI log is often kept
// only from its end, and a tier's own output, failure included, is written where it ended, minutes before that end:
// so the names of the failed tests and the first lines of their errors are said again beside the counts.

const MAX_LINES = 40;
const STACK_FRAME = /^\s+at /;

/**
 * The failure report in one tier's output, or '' when it has none: node:test's closing `✖ failing tests:` section,
 * mocha's `N failing` section, else each `✖` line of node:test's own. Stack frames left out, at most 40 lines.
 */
export function failureLines(out) {
  const lines = out.split(/\r?\n/);
  const from = (i) =>
    lines
      .slice(i)
      .filter((l) => !STACK_FRAME.test(l))
      .join('\n')
      .trim()
      .split('\n')
      .slice(0, MAX_LINES)
      .join('\n');
  const nodeTest = lines.findLastIndex((l) => /^\S*\s*✖ failing tests:$/.test(l));
  if (nodeTest >= 0) return from(nodeTest + 1);
  const mocha = lines.findLastIndex((l) => /^\s+\d+ failing$/.test(l));
  if (mocha >= 0) return from(mocha + 1);
  return lines
    .filter((l) => /^\s*✖ /.test(l))
    .slice(0, MAX_LINES)
    .join('\n');
}

/** The end of a tier's output without stack frames: for a tier that failed outside any test (a build, a setup). */
export function lastLines(out, n = 15) {
  return out
    .trim()
    .split(/\r?\n/)
    .filter((l) => !STACK_FRAME.test(l))
    .slice(-n)
    .join('\n');
}
