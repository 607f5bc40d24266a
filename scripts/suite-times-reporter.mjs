// A node:test reporter for `npm test`'s closing table (scripts/test-all.mjs): the time of each test file,
// as the sum of its top-level tests' durations (node:test reports no event for a file of its own, so a file's
// import and process start are not in it). Writes one JSON document to its destination:
// `{ "suites": [{ "name": "<file, relative to out/>", "ms": N }] }`.
//   node --test --test-reporter=spec --test-reporter-destination=stdout \
//     --test-reporter=./scripts/suite-times-reporter.mjs --test-reporter-destination=test-results/times/unit.json out/test/unit/
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

export default async function* suiteTimes(source) {
  const ms = new Map();
  for await (const ev of source) {
    if ((ev.type !== 'test:pass' && ev.type !== 'test:fail') || ev.data.nesting !== 0 || !ev.data.file) continue;
    const name = relative(process.cwd(), ev.data.file)
      .split(sep)
      .join('/')
      .replace(/^out\//, '');
    ms.set(name, (ms.get(name) ?? 0) + (ev.data.details?.duration_ms ?? 0));
  }
  yield `${JSON.stringify({ suites: [...ms].map(([name, t]) => ({ name, ms: Math.round(t) })) })}\n`;
}

/** Where the tiers leave their files' times for scripts/test-all.mjs: test-results/times/<tier>.json. */
export const timesFile = (root, tier) => join(root, 'test-results', 'times', `${tier}.json`);

/** Adds entries (e.g. a tier's setup before its first test) to a tier's times file, making it if need be. */
export function addTimes(root, tier, suites) {
  const f = timesFile(root, tier);
  let prior = [];
  try {
    prior = JSON.parse(readFileSync(f, 'utf8')).suites ?? [];
  } catch {
    /* none yet */
  }
  mkdirSync(dirname(f), { recursive: true });
  writeFileSync(f, `${JSON.stringify({ suites: [...prior, ...suites] })}\n`);
}
