// What `npm test` says again under its summary when a tier fails (scripts/failures.mjs): read from the real output
// of node:test's spec reporter and of mocha's, each run here on a file with one passing and one failing test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findRepoRoot } from '../../../sandbox/serverParts';
import { scriptModule } from '../../support/scriptModule';

const root = findRepoRoot(__dirname) ?? '.';
interface Failures {
  failureLines(out: string): string;
  lastLines(out: string, n?: number): string;
}
const load = (): Promise<Failures> => scriptModule<Failures>('scripts/failures.mjs');

function outputOf(args: string[], file: string, source: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'failures-'));
  try {
    fs.writeFileSync(path.join(dir, file), source);
    // NODE_TEST_CONTEXT would make the child's node:test report to this run instead of printing its own output.
    const env = { ...process.env, NODE_TEST_CONTEXT: undefined };
    const r = spawnSync(process.execPath, [...args, path.join(dir, file)], { cwd: dir, encoding: 'utf8', env });
    assert.notEqual(r.status, 0, 'the run failed');
    return r.stdout + r.stderr;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("node:test's spec output: the failed test's name and its assertion, no stack frame, not the passing test", async () => {
  const { failureLines } = await load();
  const out = outputOf(
    ['--test', '--test-reporter=spec'],
    'a.test.js',
    `const { test } = require('node:test');
const assert = require('node:assert/strict');
test('adds up', () => assert.equal(1 + 1, 2));
test('keeps the order of the rows', () => assert.deepEqual([1, 2], [2, 1]));
`,
  );
  const lines = failureLines(out);
  assert.match(lines, /keeps the order of the rows/);
  assert.match(lines, /deepStrictEqual|deep-equal|Expected values to be strictly deep-equal/);
  assert.doesNotMatch(lines, /adds up/);
  assert.doesNotMatch(lines, /^\s+at /m);
});

test("mocha's spec output (the host tier): the failing section with the suite, the test and its error", async () => {
  const { failureLines } = await load();
  const out = outputOf(
    [path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--reporter', 'spec'],
    'b.test.js',
    `const assert = require('node:assert/strict');
describe('the fixes view', () => {
  it('lists the rows', () => assert.ok(true));
  it('reveals the row from the Quick Fix', () => assert.equal('fetchline', 'undici', 'the revealed row'));
});
`,
  );
  const lines = failureLines(out);
  assert.match(lines, /the fixes view/);
  assert.match(lines, /reveals the row from the Quick Fix/);
  assert.match(lines, /the revealed row/);
  assert.doesNotMatch(lines, /lists the rows/);
  assert.doesNotMatch(lines, /^\s+at /m);
});

test('an output with no failure report says nothing; at most 40 lines are kept', async () => {
  const { failureLines } = await load();
  assert.equal(failureLines('built in 2.6 s\nsandbox ready\n'), '');
  const many = Array.from({ length: 100 }, (_, i) => `✖ case ${i}`).join('\n');
  assert.equal(failureLines(many).split('\n').length, 40);
});

test("a tier that failed outside its tests: the end of its output, without the stack's frames", async () => {
  const { lastLines } = await load();
  const r = spawnSync(
    process.execPath,
    ['-e', "console.log('building'); throw new Error('no such file: scriptModule')"],
    {
      encoding: 'utf8',
    },
  );
  const lines = lastLines(r.stdout + r.stderr, 6);
  assert.match(lines, /Error: no such file: scriptModule/);
  assert.doesNotMatch(lines, /^\s+at /m);
  assert.ok(lines.split('\n').length <= 6);
});
