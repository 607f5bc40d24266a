// The closing time table of `npm test`: the node:test reporter that sums each file's top-level
// tests, and addTimes, which the host and e2e runners use for their setup and mocha's per-file lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findRepoRoot } from '../../../sandbox/serverParts';
import { scriptModule } from '../../support/scriptModule';

const root = findRepoRoot(__dirname) ?? '.';
interface Times {
  default(source: AsyncIterable<unknown>): AsyncGenerator<string>;
  timesFile(root: string, tier: string): string;
  addTimes(root: string, tier: string, suites: { name: string; ms: number }[]): void;
}
const load = (): Promise<Times> => scriptModule<Times>('scripts/suite-times-reporter.mjs');

const ev = (type: string, file: string | undefined, nesting: number, ms: number) => ({
  type,
  data: { name: 't', file, nesting, details: { duration_ms: ms } },
});

test("the reporter sums each file's top-level tests (passed and failed), not their subtests, and names the file under out/", async () => {
  const r = await load();
  const a = path.join(process.cwd(), 'out', 'test', 'unit', 'a.test.js');
  const b = path.join(process.cwd(), 'out', 'test', 'unit', 'b.test.js');
  async function* source() {
    yield ev('test:pass', a, 1, 1000); // a subtest: inside its parent's time
    yield ev('test:pass', a, 0, 1200.4);
    yield ev('test:fail', a, 0, 300.2);
    yield ev('test:start', b, 0, 0);
    yield ev('test:pass', b, 0, 40);
    yield ev('test:pass', undefined, 0, 99); // no file: not a file's test
    yield { type: 'test:diagnostic', data: { message: 'duration_ms 5000', nesting: 0 } };
  }
  const out: string[] = [];
  for await (const s of r.default(source())) out.push(s);
  assert.equal(out.length, 1);
  assert.deepEqual(JSON.parse(out[0]!), {
    suites: [
      { name: 'test/unit/a.test.js', ms: 1501 },
      { name: 'test/unit/b.test.js', ms: 40 },
    ],
  });
});

test("addTimes adds to a tier's file, making it and its folder when there is none", async () => {
  const r = await load();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'times-'));
  try {
    assert.equal(r.timesFile(dir, 'e2e'), path.join(dir, 'test-results', 'times', 'e2e.json'));
    r.addTimes(dir, 'e2e', [{ name: 'e2e/a.test.js', ms: 5 }]);
    r.addTimes(dir, 'e2e', [{ name: '(setup)', ms: 7 }]);
    assert.deepEqual(JSON.parse(fs.readFileSync(r.timesFile(dir, 'e2e'), 'utf8')), {
      suites: [
        { name: 'e2e/a.test.js', ms: 5 },
        { name: '(setup)', ms: 7 },
      ],
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('npm test prints the time table before its closing line, and the tiers write their times', () => {
  const testAll = fs.readFileSync(path.join(root, 'scripts', 'test-all.mjs'), 'utf8');
  const table = testAll.search(/console\.log\(["']\\n=== time/);
  const last = testAll.lastIndexOf('console.log(`${passed} passed, ${failed} failed`)');
  assert.ok(table > 0 && last > table, 'the table comes before the closing line');
  assert.equal(testAll.slice(last).match(/console\.log/g)?.length, 1, 'nothing is printed after the closing line');
  for (const t of ['unit', 'http', 'browser']) assert.match(testAll, new RegExp(`nodeTest\\('test/${t}', '${t}'\\)`));
  assert.match(
    fs.readFileSync(path.join(root, 'scripts', 'vscode', 'test-e2e.mjs'), 'utf8'),
    /--test-reporter=\.\/scripts\/suite-times-reporter\.mjs/,
  );
  assert.match(
    fs.readFileSync(path.join(root, 'scripts', 'vscode', 'test-host.mjs'), 'utf8'),
    /addTimes\(root, 'host'/,
  );
  assert.match(fs.readFileSync(path.join(root, 'test', 'integration', 'index.ts'), 'utf8'), /suite time: /);
});
