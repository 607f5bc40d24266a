// How `npm test` lays out its tiers (scripts/lanes.mjs, used by scripts/test-all.mjs): the editors' provisioning
// begins with the build, and an editor tier waits for it while the tiers that need no editor go first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findRepoRoot } from '../../../sandbox/serverParts';
import { scriptModule } from '../../support/scriptModule';

const root = findRepoRoot(__dirname) ?? '.';
interface Lanes {
  EDITOR_TIERS: string[];
  planLanes(chosen: string[], o?: { serial?: boolean }): { start: string[]; lanes: string[][] };
  nextTier(queue: string[], provisioned: boolean): number;
}
const load = (): Promise<Lanes> => scriptModule<Lanes>('scripts/lanes.mjs');

const all = [
  'provision',
  'build',
  'lint',
  'typecheck',
  'unit',
  'browser',
  'http',
  'host',
  'e2e',
  'web',
  'package',
  'e2e-watches',
  'e2e-chat',
];

test('the whole run: provisioning and build begin together, then e2e; two e2e suites apart, then host; every other tier in order', async () => {
  const l = await load();
  assert.deepEqual(l.planLanes(all), {
    start: ['provision', 'build'],
    lanes: [
      ['e2e'],
      ['e2e-watches', 'e2e-chat', 'host'],
      ['lint', 'typecheck', 'unit', 'browser', 'http', 'web', 'package'],
    ],
  });
  assert.deepEqual(l.EDITOR_TIERS, ['host', 'e2e', 'web', 'e2e-watches', 'e2e-chat']);
});

test('npm test runs every e2e suite once: the chat suite as e2e-chat, the two-window one as e2e-watches, the rest as e2e', () => {
  const testAll = fs.readFileSync(path.join(root, 'scripts', 'test-all.mjs'), 'utf8');
  const names = [...testAll.matchAll(/\bname: '([\w-]+)'/g)].map((m) => m[1]);
  assert.deepEqual(names, all, 'the tiers in their order');
  const args = (tier: string) => {
    const m = new RegExp(`name: '${tier}',\\s+fn: \\(\\) =>\\s+run\\(process\\.execPath, \\[([^\\]]*)\\]\\)`).exec(
      testAll,
    );
    assert.ok(m, `the ${tier} tier runs a script`);
    return [...m[1]!.matchAll(/'([^']*)'/g)].map((x) => x[1]);
  };
  assert.deepEqual(args('e2e'), ['scripts/vscode/test-e2e.mjs', '--except', 'chat', '--except', 'watchesTwoWindows']);
  assert.deepEqual(args('e2e-watches'), [
    'scripts/vscode/test-e2e.mjs',
    '--only',
    'watchesTwoWindows',
    '--tier',
    'e2e-watches',
  ]);
  assert.deepEqual(args('e2e-chat'), ['scripts/vscode/test-e2e.mjs', '--only', 'chat', '--tier', 'e2e-chat']);
  // lint and typecheck are the package's scripts: Prettier and the webview app's tsconfig are checked too.
  assert.match(testAll, /name: 'lint', fn: \(\) => run\('npm', \['run', '--silent', 'lint'\]\)/);
  assert.match(testAll, /name: 'typecheck', fn: \(\) => run\('npm', \['run', '--silent', 'typecheck'\]\)/);
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  assert.match(pkg.scripts.lint!, /eslint \. && prettier --check \./);
  assert.match(pkg.scripts.typecheck!, /tsc -p \. --noEmit && tsc -p src\/webview\/app --noEmit/);
  // Between them, every suite once: --except and --only take the same test of a file's name.
  const e2e = fs.readFileSync(path.join(root, 'scripts', 'vscode', 'test-e2e.mjs'), 'utf8');
  assert.match(e2e, /only\.some\(\(n\) => f\.includes\(n\)\)\) &&\s+!except\.some\(\(n\) => f\.includes\(n\)\)/);
  const suites = fs.readdirSync(path.join(root, 'test', 'e2e')).filter((f) => f.endsWith('.test.ts'));
  for (const name of ['chat', 'watchesTwoWindows'])
    assert.deepEqual(
      suites.filter((f) => f.includes(name)),
      [`${name}.test.ts`],
      `only one suite has "${name}" in its name`,
    );
});

test('an editor tier chosen alone brings the provisioning; tiers without an editor do not', async () => {
  const l = await load();
  assert.deepEqual(l.planLanes(['host']), { start: ['provision'], lanes: [['host']] });
  assert.deepEqual(l.planLanes(['unit', 'http']), { start: [], lanes: [['unit', 'http']] });
  assert.deepEqual(l.planLanes(['build', 'unit']), { start: ['build'], lanes: [['unit']] });
});

test('DEVINDEX_TEST_SERIAL: one lane, the provisioning and the build first, nothing side by side', async () => {
  const l = await load();
  assert.deepEqual(l.planLanes(all, { serial: true }), { start: [], lanes: [all] });
});

test('while provisioning runs, the tiers that need no editor go before an editor tier; after it, the order holds', async () => {
  const l = await load();
  assert.equal(l.nextTier(['host', 'web', 'package'], false), 2, 'package goes before host and web');
  assert.equal(l.nextTier(['host', 'web', 'package'], true), 0);
  assert.equal(l.nextTier(['http', 'host'], false), 0, 'a tier without an editor keeps its place');
  assert.equal(l.nextTier(['e2e'], false), 0, 'nothing else to run: the editor tier waits');
  assert.equal(l.nextTier(['host', 'web'], false), 0);
});

test('npm test runs the provisioning as its own tier (its own line in the time table), the editor tiers after it', () => {
  const testAll = fs.readFileSync(path.join(root, 'scripts', 'test-all.mjs'), 'utf8');
  assert.match(
    testAll,
    /name: 'provision',\s+fn: \(\) => run\(process\.execPath, \['scripts\/vscode\/provision\.mjs', '--all'\]\)/,
  );
  assert.match(testAll, /if \(EDITOR_TIERS\.includes\(t\.name\) && provisioning\) await provisioning;/);
  assert.match(testAll, /queue\.splice\(nextTier\(queue, provisioned\), 1\)/);
  // The provisioning is begun before the build is awaited, so that the two run side by side.
  const begun = testAll.indexOf("provisioning = runTier(tier('provision'))");
  const built = testAll.indexOf("await runTier(tier('build'))");
  assert.ok(begun > 0 && built > begun, `${begun} ${built}`);
  // .ci/run begins it beside npm ci, with no times of its own (npm test's step writes the table's).
  const ci = fs.readFileSync(path.join(root, '.ci', 'run'), 'utf8');
  const [early, install, tests] = [
    '\nnode scripts/vscode/provision.mjs --all --no-times',
    '\nnpm ci ',
    '\nnpm test',
  ].map((line) => ci.indexOf(line));
  assert.ok(early > 0 && install > early && tests > install, `${early} ${install} ${tests}`);
});
