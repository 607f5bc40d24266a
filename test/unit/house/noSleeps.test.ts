// The house rule: no test sleeps where it could wait for a condition. Reads every test/**/*.ts and
// counts its timed waits: playwright's waitForTimeout, a sleep helper's call, a promise resolved by a timer
// (`setTimeout(r, …)` and the like), node:timers/promises. Comment lines are not read.
//
// A file may have timed waits only as the lists below say, with their number and reason:
// - JUSTIFIED: a wait that cannot be a condition (a poll step between two reads of a condition, a check that
//   something does NOT happen for a while, the file system's modification-time resolution).
// - TO_CONVERT: waits that should become waits for a condition (or test-controlled time). Empty now
//   converted the last twenty files; it stays for a wait found later, and only shrinks.
// A new timed wait fails here: wait for the condition instead (test/support/until.ts polls one with a deadline), or
// add it to JUSTIFIED with its reason.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, it } from 'node:test';
import { findRepoRoot } from '../../../sandbox/serverParts';

const root = findRepoRoot(__dirname) ?? '.';
const SELF = 'test/unit/house/noSleeps.test.ts';

interface Allowance {
  uses: number;
  reason: string;
}

/** Timed waits that stay, with why. */
const JUSTIFIED: Record<string, Allowance> = {
  'test/support/until.ts': { uses: 1, reason: 'the shared poll: the step between two reads of a condition' },
  'test/integration/hostSupport.ts': {
    uses: 1,
    reason: "the host suites' until(): the step between two reads of a condition",
  },
  'test/e2e/workbench.ts': {
    uses: 1,
    reason: "the poll step while the side bar's width settles after a drag (no event says it has)",
  },
  'test/browser/searchView.test.ts': {
    uses: 4,
    reason:
      'checks that nothing happens: an empty query sends nothing, a key change does not re-render, a late answer is ignored, a cancelled Expand All runs no slice',
  },
  'test/browser/a11y.test.ts': {
    uses: 3,
    reason: "checks that the live region says nothing more over the view's one-second re-render",
  },
  'test/http/sandboxExchange.test.ts': {
    uses: 3,
    reason: 'its poll helper (definition and step), and a check that a waiting run stays unchanged',
  },
  'test/http/sandboxThreads.test.ts': {
    uses: 3,
    reason: "its poll helper (definition and step), and a check that a finished run's trace does not grow",
  },
  'test/http/agentSandbox.test.ts': {
    uses: 2,
    reason: "a poll step, and a check that a finished run's trace does not grow",
  },
  'test/http/startSignals.test.ts': {
    uses: 2,
    reason: 'polls for processes that are not its children to end (no event for that)',
  },
  'test/http/compileCache.test.ts': {
    uses: 2,
    reason: "the file system's modification-time resolution: a rewrite must be able to show in mtime",
  },
  'test/http/cli.test.ts': { uses: 1, reason: 'a poll step (the sandbox has the request)' },
  'test/http/sandboxServiceReplay.test.ts': { uses: 1, reason: 'a poll step (the job has ended)' },
  'test/integration/mcpSetup.test.ts': { uses: 1, reason: 'a poll step (the editor shows the command)' },
  'test/e2e/searchFlows.test.ts': {
    uses: 2,
    reason: 'a poll step (the search was sent), and a check that no blocked link ran a payload',
  },
  'test/e2e/watchesTwoWindows.test.ts': {
    uses: 1,
    reason:
      "checks that two more lease beats pass with nothing happening: there is no event to wait for (durations are the test's own, DEVINDEX_TEST_TIMING)",
  },
};

/** Timed waits to replace by a wait for a condition, or by test-controlled time. */
const TO_CONVERT: Record<string, Allowance> = {};

const TIMED_WAIT = [
  /\bwaitForTimeout\s*\(/g,
  /\bsleep\s*\(/g,
  /\bsetTimeout\(\s*(?:r|res|resolve|next|tick|done)\s*,/g,
  /\bsetTimeout\(\s*\(\)\s*=>\s*(?:r|res|resolve|next|done)\(\s*\)\s*,/g,
  /['"](?:node:)?timers\/promises['"]/g,
];

/** The timed waits of one file's text, comment lines left out. */
export function timedWaits(text: string): number {
  let n = 0;
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t.startsWith('//') || t.startsWith('*') || t.startsWith('/*')) continue;
    for (const re of TIMED_WAIT) n += line.match(re)?.length ?? 0;
  }
  return n;
}

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? (name === 'node_modules' ? [] : testFiles(p)) : name.endsWith('.ts') ? [p] : [];
  });
}

describe('house rule: tests wait for conditions, not for time', () => {
  it('finds the timed waits it is meant to find, and not a timer the code under test is given', () => {
    assert.equal(timedWaits('await page.waitForTimeout(300);'), 1);
    assert.equal(
      timedWaits('const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));\nawait sleep(5);'),
      2,
    );
    assert.equal(timedWaits('await new Promise((resolve) => setTimeout(resolve, 50));'), 1);
    assert.equal(timedWaits('await new Promise<void>((r) => setTimeout(() => r(), 10));'), 1);
    assert.equal(timedWaits("import { setTimeout as wait } from 'node:timers/promises';"), 1);
    assert.equal(timedWaits('// a comment: await page.waitForTimeout(300);\n * sleep(1) in a doc comment'), 0);
    assert.equal(
      timedWaits('timers: { setTimeout: (fn, ms) => setTimeout(fn, ms) }'),
      0,
      'a timer handed to the code under test',
    );
    assert.equal(timedWaits('setTimeout(() => ac.abort(), 300);'), 0, 'a timer that acts (an abort), not a wait');
  });

  it('every timed wait in test/ is on the lists, with its number and reason', () => {
    const found = new Map<string, number>();
    for (const f of testFiles(join(root, 'test'))) {
      const rel = relative(root, f).split(sep).join('/');
      if (rel === SELF) continue;
      const n = timedWaits(readFileSync(f, 'utf8'));
      if (n > 0) found.set(rel, n);
    }
    assert.ok(found.size > 0, 'the files were read (a repository with none would not need this test)');
    const problems: string[] = [];
    for (const [file, n] of found) {
      const allowed = (JUSTIFIED[file]?.uses ?? 0) + (TO_CONVERT[file]?.uses ?? 0);
      if (n > allowed)
        problems.push(
          `${file}: ${n} timed wait(s), ${allowed} allowed. Wait for the condition (test/support/until.ts), or add it to JUSTIFIED with its reason`,
        );
      if (n < allowed)
        problems.push(
          `${file}: ${n} timed wait(s), ${allowed} allowed: lower its count in test/unit/house/noSleeps.test.ts`,
        );
    }
    for (const file of new Set([...Object.keys(JUSTIFIED), ...Object.keys(TO_CONVERT)])) {
      if (!found.has(file))
        problems.push(`${file}: no timed wait left: remove it from the lists in test/unit/house/noSleeps.test.ts`);
    }
    for (const [file, a] of [...Object.entries(JUSTIFIED), ...Object.entries(TO_CONVERT)]) {
      if (a.uses < 1 || a.reason.trim().length < 10)
        problems.push(`${file}: an entry needs a count of at least 1 and its reason`);
    }
    assert.deepEqual(problems, []);
  });
});
