// The web extension's pure parts: the repository a github.dev folder names (no git), the
// dependencies of a folder from its manifests and lockfiles alone (what the browser reads through
// workspace.fs), the tools' folder check without node:path, and the build's check of the browser bundle.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { manifestDependencies, NOT_INSTALLED_HERE } from '../../../src/deps/manifestDependencies';
import { lookupDependency } from '../../../src/deps/dependencyScope';
import { remotesOfVfsUri, repositoryOfVfsUri, scopeFromRemotes } from '../../../src/search/repoSlug';
import { isAbsoluteFolder } from '../../../src/tools/searchOps';
import { findRepoRoot } from '../../../sandbox/serverParts';
import { scriptModule } from '../../support/scriptModule';

const root = findRepoRoot(__dirname) ?? '.';
const fixtures = path.join(root, 'test', 'fixtures', 'lockfiles');

test('a vscode-vfs://github/owner/repo folder names its repository; branches, deeper paths and other URIs', () => {
  const u = (s: string) => {
    const x = new URL(s.replace(/^vscode-vfs:/, 'http:'));
    return { scheme: s.split(':')[0]!, authority: x.host, path: x.pathname };
  };
  assert.deepEqual(repositoryOfVfsUri(u('vscode-vfs://github/fetchline/fetchline')), {
    owner: 'fetchline',
    repo: 'fetchline',
  });
  assert.deepEqual(repositoryOfVfsUri(u('vscode-vfs://github/quarry-dev/fetchline/src/index.ts')), {
    owner: 'quarry-dev',
    repo: 'fetchline',
  });
  assert.deepEqual(
    repositoryOfVfsUri({ scheme: 'vscode-vfs', authority: 'github+7b2274797065223a317d', path: '/o/r.js' }),
    { owner: 'o', repo: 'r.js' },
  );
  assert.deepEqual(repositoryOfVfsUri({ scheme: 'vscode-vfs', authority: 'github', path: '/o/r.git/' }), {
    owner: 'o',
    repo: 'r',
  });
  for (const bad of [
    { scheme: 'vscode-vfs', authority: 'github', path: '/onlyowner' },
    { scheme: 'vscode-vfs', authority: 'azurerepos', path: '/org/project/repo' },
    { scheme: 'file', authority: '', path: '/github/o/r' },
    { scheme: 'vscode-vfs', authority: 'github', path: '/o/..' },
    { scheme: 'vscode-vfs', authority: 'github', path: '/o w/r' },
  ])
    assert.equal(repositoryOfVfsUri(bad), undefined, JSON.stringify(bad));
  // What Search in This Repository builds from it: the same scope rules as git remotes.
  assert.deepEqual(
    scopeFromRemotes(
      remotesOfVfsUri({ scheme: 'vscode-vfs', authority: 'github', path: '/fetchline/fetchline/README.md' }),
    ).slugs,
    ['fetchline/fetchline'],
  );
  assert.deepEqual(remotesOfVfsUri({ scheme: 'file', authority: '', path: '/x' }), []);
});

test('manifests and lockfiles alone: Go resolves, npm and Cargo have versions and are "not installed here"', async () => {
  const files: Record<string, string> = {
    'package.json': JSON.stringify({
      dependencies: { '@acme/widgets': '^2.1.0', fetchline: '^2.4.0', gadget: 'github:gadgets/gadget#v1' },
      devDependencies: { typescript: '~5.9.3' },
    }),
    'package-lock.json': fs.readFileSync(path.join(fixtures, 'package-lock.v3.json'), 'utf8'),
    'go.mod': fs.readFileSync(path.join(fixtures, 'go.mod'), 'utf8'),
    'Cargo.toml': '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\nratelane = "0.4"\nserde_json = "1"\n',
    'Cargo.lock': fs.readFileSync(path.join(fixtures, 'Cargo.lock'), 'utf8'),
  };
  const asked: string[] = [];
  const read = async (name: string, max: number) => {
    asked.push(name);
    const t = files[name];
    return t !== undefined && t.length <= max ? t : undefined;
  };
  const r = await manifestDependencies('vscode-vfs://github/o/r', read, { maxDependencies: 100 });
  const by = (n: string) => r.deps.find((d) => d.name === n);
  assert.ok(by('@acme/widgets')?.version, 'npm version from package-lock.json');
  assert.equal(by('@acme/widgets')?.versionFrom, 'package-lock.json');
  assert.equal(by('@acme/widgets')?.reason, 'not-installed');
  assert.equal(by('@acme/widgets')?.detail, NOT_INSTALLED_HERE);
  assert.equal(by('gadget')?.slug, 'gadgets/gadget', 'a GitHub spec names its repository without node_modules');
  assert.equal(by('github.com/gridworks/tollgate/v2')?.slug, 'gridworks/tollgate');
  assert.match(by('github.com/gridworks/tollgate/v2')?.version ?? '', /^v?2\.1\.0$/);
  assert.equal(by('github.com/forked/thing')?.versionFrom, 'go.mod replace');
  assert.equal(by('ratelane')?.version, '0.4.2');
  assert.equal(by('ratelane')?.reason, 'not-installed');
  assert.ok(!asked.some((n) => n.includes('node_modules')), 'node_modules is never read');
  // The lookup every surface uses says why a row cannot scope a search.
  const l = lookupDependency(r, '@acme/widgets');
  assert.ok(!l.ok && l.reason === 'no-repository' && /not installed/.test(l.message), JSON.stringify(l));
  const g = lookupDependency(r, 'github.com/gridworks/tollgate/v2');
  assert.ok(g.ok && g.dep.slug === 'gridworks/tollgate');
  // The bound and a lockfile above its cap.
  const few = await manifestDependencies('x', read, { maxDependencies: 2 });
  assert.equal(few.deps.length, 2);
  assert.ok(few.truncated);
  const capped = await manifestDependencies('x', read, { maxDependencies: 100, lockfileMaxBytes: 10 });
  assert.equal(capped.deps.find((d) => d.name === '@acme/widgets')?.version, undefined);
});

test('manifests and lockfiles alone: npm-shrinkwrap.json wins over package-lock.json, as npm installs from it', async () => {
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ dependencies: { '@acme/widgets': '~2.0.1', fetchline: '2.3.0' } }),
    'package-lock.json': fs.readFileSync(path.join(fixtures, 'package-lock.v3.json'), 'utf8'),
    'npm-shrinkwrap.json': fs.readFileSync(path.join(fixtures, 'npm-shrinkwrap.json'), 'utf8'),
  };
  const r = await manifestDependencies(
    'vscode-vfs://github/o/r',
    async (name, max) => {
      const t = files[name];
      return t !== undefined && t.length <= max ? t : undefined;
    },
    { maxDependencies: 10 },
  );
  assert.deepEqual(
    r.deps.map((d) => [d.name, d.version, d.versionFrom]),
    [
      ['@acme/widgets', '2.0.1', 'npm-shrinkwrap.json'],
      ['fetchline', '2.3.0', 'npm-shrinkwrap.json'],
    ],
  );
});

test("the tools' folder check holds POSIX, Windows and workspace URIs without node:path", () => {
  for (const ok of ['/home/me/app', 'C:\\src\\app', 'd:/app', '\\\\server\\share\\app', 'vscode-vfs://github/o/r'])
    assert.ok(isAbsoluteFolder(ok), ok);
  for (const bad of ['app', './app', '..\\app', 'C:app', '']) assert.ok(!isAbsoluteFolder(bad), bad);
});

test('the browser bundle check names Node built-ins, undici and unswapped host modules', async () => {
  type Meta = {
    inputs: Record<string, { imports: Array<{ path: string }> }>;
    outputs: Record<string, { imports: Array<{ path: string }> }>;
  };
  const { browserBundleProblems, NODE_HOST } = await scriptModule<{
    browserBundleProblems(m: Meta): string[];
    NODE_HOST: string;
  }>('scripts/webBuild.mjs');
  const clean = {
    inputs: { 'src/web/extension.ts': { imports: [{ path: 'vscode' }] } },
    outputs: { 'dist/web/extension.js': { imports: [{ path: 'vscode' }] } },
  };
  assert.deepEqual(browserBundleProblems(clean), []);
  const dirty = {
    inputs: {
      'src/x.ts': { imports: [{ path: 'node:fs' }, { path: 'tls' }] },
      'node_modules/undici/lib/dispatcher/agent.js': { imports: [] },
      [`${NODE_HOST}transport.ts`]: { imports: [] },
    },
    outputs: { 'dist/web/extension.js': { imports: [{ path: 'vscode' }, { path: './core.js' }] } },
  };
  const p = browserBundleProblems(dirty).join('\n');
  for (const w of ['node:fs', 'tls', 'undici', 'Node host module', './core.js'])
    assert.ok(p.includes(w), `${w} in ${p}`);
});
