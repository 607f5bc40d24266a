// Installed versions from every lockfile kind (real-shaped fixtures in test/fixtures/lockfiles), the go.mod
// replace rules, METADATA, RECORD import names, and the resolver reading them (node_modules first, lazily,
// under a size cap).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  cargoLockVersions,
  npmLockVersions,
  parseGoReplaces,
  plainVersion,
  pnpmLockVersions,
  pythonMetadataVersion,
  yarnLockVersions,
} from '../../../src/deps/lockfiles';
import { importsFromRecord } from '../../../src/deps/manifests';
import { resolveFolder } from '../../../src/deps/resolver';
import { findRepoRoot } from '../../../sandbox/serverParts';

const dir = path.join(findRepoRoot(__dirname) ?? '.', 'test', 'fixtures', 'lockfiles');
const read = (f: string) => fs.readFileSync(path.join(dir, f), 'utf8');
const obj = (m: Map<string, string>) => Object.fromEntries(m);

test('package-lock v1: top-level dependencies only (a nested copy is not the installed one); file: specs are not versions', () => {
  assert.deepEqual(
    obj(npmLockVersions(read('package-lock.v1.json'), ['@acme/widgets', 'left-pad', 'local-lib', 'absent'])),
    { '@acme/widgets': '2.0.3', 'left-pad': '1.3.0' },
  );
});

test('package-lock v2 and v3: packages["node_modules/<name>"], not a nested node_modules copy; links have no version', () => {
  assert.deepEqual(obj(npmLockVersions(read('package-lock.v2.json'), ['@acme/widgets', 'fetchline'])), {
    '@acme/widgets': '2.0.3',
    fetchline: '2.4.1',
  });
  assert.deepEqual(
    obj(npmLockVersions(read('package-lock.v3.json'), ['@acme/widgets', 'fetchline', 'typescript', 'my-workspace'])),
    { '@acme/widgets': '2.1.0', fetchline: '2.4.1', typescript: '5.9.3' },
  );
});

test("npm-shrinkwrap.json (a published CLI's, lockfileVersion 3): the top-level copy, not a nested one; optional and dev entries", () => {
  assert.deepEqual(
    obj(
      npmLockVersions(read('npm-shrinkwrap.json'), [
        '@acme/widgets',
        'fetchline',
        'yargs',
        'fsevents',
        'typescript',
        'ansi-regex',
        'absent',
      ]),
    ),
    {
      '@acme/widgets': '2.0.1',
      fetchline: '2.3.0',
      yargs: '17.7.2',
      fsevents: '2.3.3',
      typescript: '5.9.3',
      'ansi-regex': '5.0.1',
    },
  );
});

test('a half-written or future package-lock gives what it can, never a guess', () => {
  const text = read('package-lock.v3.json');
  assert.deepEqual(
    obj(npmLockVersions(text.slice(0, text.indexOf('"node_modules/fetchline"') + 40), ['@acme/widgets', 'fetchline'])),
    { '@acme/widgets': '2.1.0' },
  );
  assert.deepEqual(obj(npmLockVersions(text.replace('"lockfileVersion": 3', '"lockfileVersion": 7'), ['fetchline'])), {
    fetchline: '2.4.1',
  });
  assert.deepEqual(
    obj(npmLockVersions('{"lockfileVersion": 3, "packages": {"node_modules/x": {"version": "not a version"}}}', ['x'])),
    {},
  );
  assert.deepEqual(obj(npmLockVersions('', ['x'])), {});
});

test('yarn.lock classic: the block naming the package; two ranges resolved apart need the manifest range', () => {
  const text = read('yarn.classic.lock');
  assert.deepEqual(obj(yarnLockVersions(text, ['@acme/widgets', 'left-pad', 'fetchline'])), {
    '@acme/widgets': '2.0.3',
    'left-pad': '1.3.0',
  });
  assert.deepEqual(obj(yarnLockVersions(text, ['fetchline'], new Map([['fetchline', '^2.4.0']]))), {
    fetchline: '2.4.1',
  });
});

test('yarn.lock berry: npm: descriptors, workspaces and patches', () => {
  const text = read('yarn.berry.lock');
  assert.deepEqual(obj(yarnLockVersions(text, ['@acme/widgets', 'left-pad', 'quirk', 'app'])), {
    '@acme/widgets': '2.0.3',
    'left-pad': '1.3.0',
    quirk: '1.0.0',
    app: '0.0.0-use.local',
  });
});

test('pnpm-lock.yaml 5.4, 6.0 and 9.0: the root importer, peer suffixes dropped, links not versions', () => {
  assert.deepEqual(
    obj(pnpmLockVersions(read('pnpm-lock.v9.yaml'), ['@acme/widgets', 'fetchline', 'typescript', 'local-lib'])),
    { '@acme/widgets': '2.0.3', fetchline: '2.4.1', typescript: '5.9.3' },
  );
  assert.deepEqual(obj(pnpmLockVersions(read('pnpm-lock.v6.yaml'), ['@acme/widgets', 'fetchline'])), {
    '@acme/widgets': '2.0.3',
    fetchline: '2.4.1',
  });
  assert.deepEqual(obj(pnpmLockVersions(read('pnpm-lock.v5.yaml'), ['@acme/widgets', 'fetchline'])), {
    '@acme/widgets': '2.0.3',
    fetchline: '2.4.1',
  });
  assert.deepEqual(obj(pnpmLockVersions('lockfileVersion: [unclosed', ['x'])), {});
});

test('Cargo.lock: one version, or the one the root package names when several are locked', () => {
  const text = read('Cargo.lock');
  assert.deepEqual(obj(cargoLockVersions(text, ['ratelane', 'serde_json', 'syn', 'absent'], 'app')), {
    ratelane: '0.4.2',
    serde_json: '1.0.108',
    syn: '2.0.48',
  });
  assert.deepEqual(obj(cargoLockVersions(text, ['syn'])), {}, 'two versions and no root to choose: unknown');
  assert.deepEqual(obj(cargoLockVersions('[[package]\nname = ', ['x'])), {});
});

test('go.mod: replace directives (single and block, module and local path)', () => {
  assert.deepEqual(parseGoReplaces(read('go.mod')), [
    { from: 'github.com/forked/thing', to: 'github.com/myfork/thing', toVersion: 'v1.4.1-fix.1' },
    { from: 'github.com/local/dev', to: '../dev' },
  ]);
});

test('METADATA Version header only (not the description); RECORD import names', () => {
  assert.equal(pythonMetadataVersion(read('METADATA')), '2.31.0');
  assert.equal(pythonMetadataVersion('Name: x\n'), undefined);
  assert.deepEqual(importsFromRecord(read('RECORD')).sort(), ['_cffi_backend', 'charset_normalizer', 'six']);
});

test('plainVersion: versions as written, never links, paths, tags or words', () => {
  for (const v of [
    '2.0.3',
    'v1.2.3',
    '0.0.0-20240105093012-1f2e3d4c5b6a',
    '1.0.0-rc.1+build.5',
    '2.31.0',
    '1.0rc1',
    '2023.12.25',
    'v2.0.0+incompatible',
  ])
    assert.equal(plainVersion(v), v, v);
  for (const v of [
    'file:../x',
    'link:../x',
    'workspace:*',
    'latest',
    '',
    'github:o/r',
    '^1.2.3',
    '1.2.3 || 2',
    undefined,
    42,
  ])
    assert.equal(plainVersion(v), undefined, String(v));
});

function write(root: string, files: Record<string, string>): void {
  for (const [p, t] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), t);
  }
}

test('resolveFolder: node_modules first, the lockfile for the rest; go.mod with replace; Cargo.lock; METADATA; unknown stays unknown', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'devindex-versions-'));
  write(root, {
    'package.json': JSON.stringify({ dependencies: { '@acme/widgets': '^2.0.0', fetchline: '^2.4.0', ghost: '^1' } }),
    'node_modules/@acme/widgets/package.json': JSON.stringify({
      name: '@acme/widgets',
      version: '2.0.3',
      repository: 'github:acme/widgets',
    }),
    'package-lock.json': read('package-lock.v3.json'),
    'go.mod': read('go.mod'),
    'Cargo.toml': '[package]\nname = "app"\n\n[dependencies]\nratelane = "0.4"\nsyn = "2"\n',
    'Cargo.lock': read('Cargo.lock'),
    '.venv/lib/python3.12/site-packages/requests-2.31.0.dist-info/METADATA': read('METADATA'),
    '.venv/lib/python3.12/site-packages/charset_normalizer-3.3.2.dist-info/METADATA':
      'Metadata-Version: 2.1\nName: charset-normalizer\nVersion: 3.3.2\nProject-URL: Code, https://github.com/jawah/charset_normalizer\n',
    '.venv/lib/python3.12/site-packages/charset_normalizer-3.3.2.dist-info/RECORD': read('RECORD'),
  });
  const r = await resolveFolder(root, { maxDependencies: 100, cargoHome: path.join(root, 'no-cargo') });
  const by = (n: string) => r.deps.find((d) => d.name === n)!;
  assert.deepEqual(
    [by('@acme/widgets').version, by('@acme/widgets').versionFrom],
    ['2.0.3', 'node_modules'],
    'node_modules beats the lockfile (2.1.0)',
  );
  assert.deepEqual([by('fetchline').version, by('fetchline').versionFrom], ['2.4.1', 'package-lock.json']);
  assert.equal(by('ghost').version, undefined);
  assert.equal(
    by('github.com/acme/widgets').version,
    'v0.0.0-20240105093012-1f2e3d4c5b6a',
    'a pseudo-version kept as it is',
  );
  assert.deepEqual(
    [by('github.com/forked/thing').version, by('github.com/forked/thing').versionFrom],
    ['v1.4.1-fix.1', 'go.mod replace'],
  );
  assert.equal(by('github.com/local/dev').version, undefined, 'replaced by a local directory: unknown');
  assert.equal(by('ratelane').version, '0.4.2');
  assert.equal(by('syn').version, '2.0.48');
  assert.deepEqual([by('requests').version, by('requests').slug], ['2.31.0', 'psf/requests']);
  assert.deepEqual(by('charset-normalizer').imports, ['charset_normalizer', 'six', '_cffi_backend']);

  // Over the cap the lockfile is not read at all.
  const capped = await resolveFolder(root, {
    maxDependencies: 100,
    cargoHome: path.join(root, 'no-cargo'),
    lockfileMaxBytes: 100,
  });
  assert.equal(capped.deps.find((d) => d.name === 'fetchline')!.version, undefined);
  assert.equal(capped.deps.find((d) => d.name === '@acme/widgets')!.version, '2.0.3');
});

test('resolveFolder: npm-shrinkwrap.json alone, and over package-lock.json when both are there (npm installs from the shrinkwrap)', async () => {
  const pkg = JSON.stringify({
    dependencies: { '@acme/widgets': '~2.0.1', fetchline: '2.3.0', yargs: '^17.7.2' },
    devDependencies: { typescript: '~5.9.3' },
  });
  const alone = fs.mkdtempSync(path.join(os.tmpdir(), 'devindex-versions-'));
  write(alone, { 'package.json': pkg, 'npm-shrinkwrap.json': read('npm-shrinkwrap.json') });
  const a = await resolveFolder(alone, { maxDependencies: 10 });
  assert.deepEqual(
    a.deps.map((d) => [d.name, d.version, d.versionFrom]),
    [
      ['@acme/widgets', '2.0.1', 'npm-shrinkwrap.json'],
      ['fetchline', '2.3.0', 'npm-shrinkwrap.json'],
      ['yargs', '17.7.2', 'npm-shrinkwrap.json'],
      ['typescript', '5.9.3', 'npm-shrinkwrap.json'],
    ],
  );
  // Both: package-lock.v3.json says @acme/widgets 2.1.0 and fetchline 2.4.1; the shrinkwrap's 2.0.1 and 2.3.0 win.
  const both = fs.mkdtempSync(path.join(os.tmpdir(), 'devindex-versions-'));
  write(both, {
    'package.json': pkg,
    'package-lock.json': read('package-lock.v3.json'),
    'npm-shrinkwrap.json': read('npm-shrinkwrap.json'),
  });
  const b = await resolveFolder(both, { maxDependencies: 10 });
  const by = (n: string) => b.deps.find((d) => d.name === n)!;
  assert.deepEqual([by('@acme/widgets').version, by('@acme/widgets').versionFrom], ['2.0.1', 'npm-shrinkwrap.json']);
  assert.deepEqual([by('fetchline').version, by('fetchline').versionFrom], ['2.3.0', 'npm-shrinkwrap.json']);
  // A parent folder's shrinkwrap is not consulted before this folder's package-lock: the nearest folder with a lockfile answers.
  const child = path.join(both, 'packages', 'child');
  write(child, { 'package.json': pkg, 'package-lock.json': read('package-lock.v3.json') });
  const c = await resolveFolder(child, { maxDependencies: 10 });
  assert.deepEqual([c.deps[0]!.version, c.deps[0]!.versionFrom], ['2.1.0', 'package-lock.json']);
});

test('resolveFolder: yarn.lock and pnpm-lock.yaml beside package.json', async () => {
  for (const [file, fixture] of [
    ['yarn.lock', 'yarn.classic.lock'],
    ['yarn.lock', 'yarn.berry.lock'],
    ['pnpm-lock.yaml', 'pnpm-lock.v9.yaml'],
  ] as const) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'devindex-versions-'));
    write(root, {
      'package.json': JSON.stringify({ dependencies: { '@acme/widgets': '^2.0.0' } }),
      [file]: read(fixture),
    });
    const r = await resolveFolder(root, { maxDependencies: 10 });
    assert.deepEqual([r.deps[0]!.version, r.deps[0]!.versionFrom], ['2.0.3', file], fixture);
  }
});
