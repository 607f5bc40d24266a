import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DependencyCache, rootForFile } from '../../../src/deps/cache';
import { importAt } from '../../../src/deps/importAt';
import {
  parseCargoToml,
  parseGoMod,
  parsePythonMetadata,
  slugFromCrateToml,
  slugFromGoModule,
} from '../../../src/deps/manifests';
import { framesInText } from '../../../src/deps/packageRefs';
import { dependencyAtPath, installedNpmDependency } from '../../../src/deps/installLocation';
import { DependencyIndex } from '../../../src/deps/cache';
import { readText, resolveFolder } from '../../../src/deps/resolver';
import { findRepoRoot } from '../../../sandbox/serverParts';

function write(root: string, files: Record<string, string>): void {
  for (const [p, t] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), t);
  }
}

function fixture(): { root: string; cargoHome: string } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'devindex-deps-'));
  const root = path.join(base, 'app');
  const cargoHome = path.join(base, 'cargo');
  const pj = (o: object) => JSON.stringify(o);
  write(root, {
    'package.json': pj({
      dependencies: { fetchline: '^2', '@keel/schema': '^1', lost: '^1', gh: 'github:acme/gh-dep' },
      devDependencies: { gl: '^1', bare: '^1' },
    }),
    'node_modules/fetchline/package.json': pj({
      name: 'fetchline',
      repository: { type: 'git', url: 'git+https://github.com/fetchline/fetchline.git' },
    }),
    'node_modules/@keel/schema/package.json': pj({
      name: '@keel/schema',
      homepage: 'https://github.com/keelhq/keel-schema#readme',
    }),
    'node_modules/gl/package.json': pj({ name: 'gl', repository: 'gitlab:acme/gl' }),
    'node_modules/bare/package.json': pj({ name: 'bare' }),
    'go.mod':
      'module example.com/app\n\nrequire (\n\tgithub.com/gridworks/tollgate/v2 v2.1.0\n\tgolang.org/x/net v0.20.0 // indirect\n\tgitlab.com/acme/thing v1.0.0\n)\n',
    'Cargo.toml':
      '[package]\nname = "app"\n\n[dependencies]\nratelane = "0.4"\nserde_json = { version = "1", features = ["std"] }\nrenamed = { package = "tokio", version = "1" }\nabsent = "1"\n\n[dev-dependencies.insta]\nversion = "1"\n',
    'Cargo.lock': '[[package]]\nname = "ratelane"\nversion = "0.4.2"\n',
    '.venv/lib/python3.12/site-packages/httpwell-3.1.0.dist-info/METADATA':
      'Metadata-Version: 2.1\nName: httpwell\nVersion: 3.1.0\nHome-page: https://httpwell.example.org\nProject-URL: Documentation, https://docs.httpwell.example.org\nProject-URL: Source, https://github.com/tidewater/httpwell\n\nLong description with https://github.com/other/repo\n',
    '.venv/lib/python3.12/site-packages/PyYAML-6.0.1.dist-info/METADATA':
      'Metadata-Version: 2.1\nName: PyYAML\nHome-page: https://pyyaml.org/\nProject-URL: Source, https://github.com/yaml/pyyaml\n',
    '.venv/lib/python3.12/site-packages/PyYAML-6.0.1.dist-info/top_level.txt': '_yaml\nyaml\n',
    '.venv/lib/python3.12/site-packages/private_pkg-1.0.dist-info/METADATA':
      'Metadata-Version: 2.1\nName: private-pkg\nHome-page: UNKNOWN\n',
  });
  write(cargoHome, {
    'registry/src/index.crates.io-6f17d22bba15001f/ratelane-0.4.2/Cargo.toml':
      '[package]\nname = "ratelane"\nversion = "0.4.2"\nrepository = "https://github.com/ferrous-labs/ratelane"\n',
    'registry/src/index.crates.io-6f17d22bba15001f/ratelane-0.3.0/Cargo.toml':
      '[package]\nname = "ratelane"\nrepository = "https://github.com/old/ratelane"\n',
    'registry/src/index.crates.io-6f17d22bba15001f/serde_json-1.0.108/Cargo.toml':
      '[package]\nname = "serde_json"\nrepository = "https://github.com/serde-rs/json"\n',
    'registry/src/index.crates.io-6f17d22bba15001f/tokio-1.35.0/Cargo.toml':
      '[package]\nname = "tokio"\nhomepage = "https://tokio.rs"\nrepository = "https://github.com/tokio-rs/tokio"\n',
    'registry/src/index.crates.io-6f17d22bba15001f/insta-1.34.0/Cargo.toml':
      '[package]\nname = "insta"\nhomepage = "https://insta.rs/"\n',
  });
  return { root, cargoHome };
}

test('resolveFolder: npm, Go, Cargo and a venv, each dependency a slug or a reason', async () => {
  const { root, cargoHome } = fixture();
  const r = await resolveFolder(root, { maxDependencies: 1000, cargoHome });
  const by = Object.fromEntries(r.deps.map((d) => [`${d.ecosystem}:${d.name}`, d.slug ?? d.reason]));
  assert.deepEqual(by, {
    'npm:fetchline': 'fetchline/fetchline',
    'npm:@keel/schema': 'keelhq/keel-schema',
    'npm:lost': 'not-installed',
    'npm:gh': 'acme/gh-dep',
    'npm:gl': 'not-on-github',
    'npm:bare': 'no-repository-field',
    'go:github.com/gridworks/tollgate/v2': 'gridworks/tollgate',
    'go:gitlab.com/acme/thing': 'not-on-github',
    'go:golang.org/x/net': 'golang/net',
    'cargo:ratelane': 'ferrous-labs/ratelane',
    'cargo:serde_json': 'serde-rs/json',
    'cargo:renamed': 'tokio-rs/tokio',
    'cargo:absent': 'not-installed',
    'cargo:insta': 'not-on-github',
    'pypi:httpwell': 'tidewater/httpwell',
    'pypi:PyYAML': 'yaml/pyyaml',
    'pypi:private-pkg': 'no-repository-field',
  });
  assert.equal(r.total, r.deps.length);
  assert.equal(r.truncated, false);
  const fromField = r.deps.find((d) => d.name === '@keel/schema');
  assert.equal(fromField?.from, 'homepage');
});

test('resolveFolder reads at most maxDependencies and says so', async () => {
  const { root, cargoHome } = fixture();
  const r = await resolveFolder(root, { maxDependencies: 5, cargoHome });
  assert.equal(r.deps.length, 5);
  assert.equal(r.total, 17);
  assert.equal(r.truncated, true);
});

test('DependencyIndex lookups: npm name, Go package inside a module, Cargo dash/underscore, Python import name', async () => {
  const { root, cargoHome } = fixture();
  const index = new DependencyIndex(await resolveFolder(root, { maxDependencies: 1000, cargoHome }));
  assert.equal(index.lookup({ ecosystem: 'npm', name: '@keel/schema' })?.slug, 'keelhq/keel-schema');
  assert.equal(
    index.lookup({ ecosystem: 'go', name: 'github.com/gridworks/tollgate/v2/limiter' })?.slug,
    'gridworks/tollgate',
  );
  assert.equal(
    index.lookup({ ecosystem: 'go', name: 'github.com/other/mod/pkg' })?.slug,
    'other/mod',
    'a module path not in go.mod still names its repository',
  );
  assert.equal(index.lookup({ ecosystem: 'cargo', name: 'serde-json' })?.slug, 'serde-rs/json');
  assert.equal(index.lookup({ ecosystem: 'pypi', name: 'yaml' })?.slug, 'yaml/pyyaml');
  assert.equal(index.lookup({ ecosystem: 'pypi', name: 'HTTPWell' })?.slug, 'tidewater/httpwell');
  assert.equal(index.lookup({ ecosystem: 'npm', name: 'nothing' }), undefined);
  assert.equal(
    index.firstResolved([
      { ecosystem: 'npm', name: 'bare' },
      { ecosystem: 'npm', name: 'fetchline' },
    ])?.slug,
    'fetchline/fetchline',
  );
});

test('a folder without manifests has no dependencies', async () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'devindex-deps-empty-'));
  const r = await resolveFolder(empty, { maxDependencies: 100, cargoHome: path.join(empty, 'no-cargo') });
  assert.deepEqual([r.deps, r.total], [[], 0]);
});

test('manifest parsers: go.mod, Cargo.toml, crate Cargo.toml, METADATA', () => {
  assert.deepEqual(
    parseGoMod(
      'module m\nrequire github.com/a/b v1.0.0\nrequire (\n  "github.com/c/d" v2.0.0 // indirect\n)\nreplace github.com/a/b => ../b\n',
    ),
    [
      { path: 'github.com/a/b', version: 'v1.0.0', indirect: false },
      { path: 'github.com/c/d', version: 'v2.0.0', indirect: true },
    ],
  );
  assert.deepEqual(
    ['github.com/a/b/v3/sub', 'gopkg.in/yaml.v3', 'gopkg.in/check/check.v1', 'go.uber.org/zap'].map((m) => {
      const r = slugFromGoModule(m);
      return r.ok ? r.slug : r.reason;
    }),
    ['a/b', 'go-yaml/yaml', 'check/check', 'not-on-github'],
  );
  assert.deepEqual(
    parseCargoToml(
      '[dependencies]\na = "1"\nb = { git = "https://github.com/x/b" }\n[target.\'cfg(unix)\'.dependencies]\nc = "2"\n[workspace]\nmembers = ["x"]\n',
    ).map((d) => d.name),
    ['a', 'b', 'c'],
  );
  const crate = slugFromCrateToml(
    '[package]\nname = "x"\nrepository = "https://gitlab.com/x/x"\n[dependencies]\nrepository = "no"\n',
  );
  assert.equal(!crate.ok && crate.reason, 'not-on-github');
  const meta = parsePythonMetadata(
    'Name: requests\nHome-page: https://requests.readthedocs.io\nProject-URL: Source, https://github.com/psf/requests\n',
  );
  assert.deepEqual([meta.name, meta.result.ok && meta.result.slug], ['requests', 'psf/requests']);
});

test('DependencyCache: peek never waits, get resolves once, invalidate reads again', async () => {
  let calls = 0;
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const cache = new DependencyCache(
    () => ({ maxDependencies: 10 }),
    undefined,
    async (root) => {
      calls++;
      await gate;
      return {
        root,
        deps: [{ ecosystem: 'npm', name: 'fetchline', slug: `fetchline/fetchline${calls}` }],
        total: 1,
        truncated: false,
        ms: 0,
      };
    },
  );
  assert.equal(cache.peek('/w'), undefined, 'cold: no answer, resolution started');
  assert.equal(cache.peek('/w'), undefined);
  assert.equal(calls, 1, 'one resolution for two peeks');
  release();
  const index = await cache.get('/w');
  assert.equal(cache.peek('/w'), index, 'warm: the same index from memory');
  assert.equal(index.lookup({ ecosystem: 'npm', name: 'fetchline' })?.slug, 'fetchline/fetchline1');
  cache.invalidate('/w');
  assert.equal(cache.peek('/w'), undefined);
  assert.equal((await cache.get('/w')).lookup({ ecosystem: 'npm', name: 'fetchline' })?.slug, 'fetchline/fetchline2');
});

test('rootForFile: the deepest workspace folder, else the nearest folder with a manifest', () => {
  assert.equal(
    rootForFile('/w/a/src/x.ts', ['/w', '/w/a'], () => false),
    '/w/a',
  );
  assert.equal(
    rootForFile('/w2/src/x.ts', ['/w'], () => false),
    undefined,
  );
  assert.equal(
    rootForFile('/other/proj/src/x.ts', ['/w'], (d) => d === '/other/proj'),
    '/other/proj',
  );
  assert.equal(
    rootForFile('/wx/y.ts', ['/w'], () => false),
    undefined,
    '/wx is not inside /w',
  );
});

test('importAt: the specifier under the cursor in TypeScript, Go, Python and Rust', () => {
  const line = "import { schema } from 'keel-schema/zod';";
  const at = line.indexOf('keel');
  assert.deepEqual(importAt(line, at + 2, 'typescript'), {
    ref: { ecosystem: 'npm', name: 'keel-schema' },
    start: at,
    end: at + 'keel-schema/zod'.length,
  });
  assert.equal(importAt(line, 3, 'typescript'), undefined, 'not on the specifier');
  assert.equal(importAt("import x from './local';", 17, 'typescript'), undefined);
  assert.equal(importAt("const f = require('fetchline');", 22, 'javascript')?.ref.name, 'fetchline');
  assert.equal(
    importAt('\t"github.com/gridworks/tollgate/v2/limiter"', 10, 'go')?.ref.name,
    'github.com/gridworks/tollgate/v2/limiter',
  );
  assert.equal(importAt('\t"fmt"', 3, 'go'), undefined);
  assert.equal(importAt('from httpwell.retry import Budget', 7, 'python')?.ref.name, 'httpwell');
  assert.equal(importAt('use ratelane::Bucket;', 6, 'rust')?.ref.name, 'ratelane');
  assert.equal(importAt('use std::fmt;', 5, 'rust'), undefined);
});

test('dependencyAtPath: a frame path read from the install it points into', async () => {
  const { root, cargoHome } = fixture();
  const trace = [
    "TypeError: Cannot read properties of undefined (reading 'headers')",
    `    at request (${root}/node_modules/fetchline/dist/client.js:211:31)`,
    `   --> ${cargoHome}/registry/src/index.crates.io-6f17d22bba15001f/ratelane-0.3.0/src/lib.rs:88:14`,
    `  File "${root}/.venv/lib/python3.12/site-packages/yaml/__init__.py", line 79, in load`,
  ].join('\n');
  const slugs: Array<string | undefined> = [];
  for (const f of framesInText(trace)) slugs.push((await dependencyAtPath(f.path!, f.ref))?.slug);
  // Python frames make the whole text read innermost-last, so the order is reversed.
  assert.deepEqual(
    slugs,
    ['yaml/pyyaml', 'old/ratelane', 'fetchline/fetchline'],
    'the 0.3.0 sources the frame names, not the locked 0.4.2',
  );
  assert.equal(
    await dependencyAtPath(`${root}/node_modules/nothing/x.js`, { ecosystem: 'npm', name: 'nothing' }),
    undefined,
  );
});

test('dependencyAtPath: the version the install a frame points into states (package.json, Cargo.toml, METADATA, the Go module cache folder); none when it states none', async () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'devindex-deps-'));
  const root = path.join(base, 'app');
  const cargoHome = path.join(base, 'cargo');
  const site = path.join(root, '.venv/lib/python3.12/site-packages');
  const metadata = fs.readFileSync(
    path.join(findRepoRoot(__dirname) ?? '.', 'test', 'fixtures', 'lockfiles', 'METADATA'),
    'utf8',
  );
  write(root, {
    'package.json': JSON.stringify({ dependencies: { fetchline: '^3.0.0' } }),
    // The folder's manifest says ^3.0.0 and its lockfile 3.3.0; the frame's install says 3.2.0, and that is what ran.
    'package-lock.json': JSON.stringify({
      lockfileVersion: 3,
      packages: { '': {}, 'node_modules/fetchline': { version: '3.3.0' } },
    }),
    'node_modules/fetchline/package.json': JSON.stringify({
      name: 'fetchline',
      version: '3.2.0',
      repository: { type: 'git', url: 'git+https://github.com/fetchline/fetchline.git' },
    }),
    'node_modules/@keel/schema/package.json': JSON.stringify({
      name: '@keel/schema',
      version: 'not-a-version',
      repository: 'github:keelhq/keel-schema',
    }),
    'node_modules/undated/package.json': JSON.stringify({ name: 'undated', repository: 'github:acme/undated' }),
    '.venv/lib/python3.12/site-packages/requests-2.31.0.dist-info/METADATA': metadata,
    '.venv/lib/python3.12/site-packages/requests-2.31.0.dist-info/top_level.txt': 'requests\n',
    '.venv/lib/python3.12/site-packages/httpwell-3.1.0.dist-info/METADATA':
      'Metadata-Version: 2.1\nName: httpwell\nProject-URL: Source, https://github.com/tidewater/httpwell\n',
  });
  write(cargoHome, {
    'registry/src/index.crates.io-6f17d22bba15001f/ratelane-0.3.0/Cargo.toml':
      '# THIS FILE IS AUTOMATICALLY GENERATED BY CARGO\n\n[package]\nedition = "2021"\nname = "ratelane"\nversion = "0.3.0"\nrepository = "https://github.com/ferrous-labs/ratelane"\n\n[dependencies.tokio]\nversion = "1.35"\n',
  });
  const node = [
    "TypeError: Cannot read properties of undefined (reading 'headers')",
    `    at request (${root}/node_modules/fetchline/dist/client.js:211:31)`,
    `    at async main (${root}/src/app.ts:12:3)`,
  ].join('\n');
  const [f] = framesInText(node);
  assert.deepEqual(await dependencyAtPath(f!.path!, f!.ref), {
    ecosystem: 'npm',
    name: 'fetchline',
    slug: 'fetchline/fetchline',
    from: 'repository',
    version: '3.2.0',
    versionFrom: 'node_modules',
  });
  const python = [
    'Traceback (most recent call last):',
    `  File "${root}/app.py", line 3, in <module>`,
    `  File "${site}/requests/api.py", line 73, in get`,
    '    return request("get", url, params=params, **kwargs)',
    "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api.example.org', port=443)",
  ].join('\n');
  const py = framesInText(python).find((x) => x.ref.ecosystem === 'pypi')!;
  assert.deepEqual(
    await dependencyAtPath(py.path!, py.ref),
    {
      ecosystem: 'pypi',
      name: 'requests',
      slug: 'psf/requests',
      from: 'METADATA',
      version: '2.31.0',
      versionFrom: 'METADATA',
    },
    'the Version header, not the 9.9.9 in the description',
  );
  const rust = `   --> ${cargoHome}/registry/src/index.crates.io-6f17d22bba15001f/ratelane-0.3.0/src/lib.rs:88:14`;
  const rs = framesInText(rust)[0]!;
  assert.deepEqual(await dependencyAtPath(rs.path!, rs.ref), {
    ecosystem: 'cargo',
    name: 'ratelane',
    slug: 'ferrous-labs/ratelane',
    from: 'Cargo.toml repository',
    version: '0.3.0',
    versionFrom: 'Cargo.toml',
  });
  const go = [
    'panic: runtime error: invalid memory address or nil pointer dereference',
    'goroutine 1 [running]:',
    'github.com/BurntSushi/toml.(*Decoder).Decode(0x0, {0x5c3e40, 0xc000012345})',
    '\t/home/dev/go/pkg/mod/github.com/!burnt!sushi/toml@v1.3.2/decode.go:151 +0x1a5',
    'github.com/acme/widgets/retry.Do(...)',
    '\t/home/dev/go/pkg/mod/github.com/acme/widgets@v0.0.0-20240105093012-1f2e3d4c5b6a/retry/retry.go:40 +0x2b',
  ].join('\n');
  const goFrames = framesInText(go).filter((x) => x.path);
  const goDeps = await Promise.all(goFrames.map((x) => dependencyAtPath(x.path!, x.ref)));
  assert.deepEqual(
    goDeps.map((d) => [d?.name, d?.slug, d?.version, d?.versionFrom]),
    [
      ['github.com/BurntSushi/toml', 'BurntSushi/toml', 'v1.3.2', 'module cache'],
      ['github.com/acme/widgets', 'acme/widgets', 'v0.0.0-20240105093012-1f2e3d4c5b6a', 'module cache'],
    ],
  );
  // A Go frame named by its function only (no path) has no version; neither do installs that state none or garbage.
  assert.equal((await dependencyAtPath('', { ecosystem: 'go', name: 'github.com/acme/widgets' }))?.version, undefined);
  for (const [p, ref] of [
    [`${root}/node_modules/undated/index.js`, { ecosystem: 'npm', name: 'undated' }],
    [`${root}/node_modules/@keel/schema/dist/index.js`, { ecosystem: 'npm', name: '@keel/schema' }],
    [`${site}/httpwell/client.py`, { ecosystem: 'pypi', name: 'httpwell' }],
  ] as const) {
    const d = await dependencyAtPath(p, ref);
    assert.ok(d?.slug, p);
    assert.equal(d.version, undefined, p);
    assert.equal(d.versionFrom, undefined, p);
  }
});

test('installedNpmDependency: found from a nested folder up, even when the manifest does not list it', async () => {
  const { root } = fixture();
  write(root, {
    'node_modules/transitive/package.json': JSON.stringify({
      name: 'transitive',
      bugs: { url: 'https://github.com/acme/transitive/issues' },
    }),
  });
  const nested = path.join(root, 'packages', 'a', 'src');
  fs.mkdirSync(nested, { recursive: true });
  assert.deepEqual(
    await installedNpmDependency(nested, 'transitive'),
    { ecosystem: 'npm', name: 'transitive', slug: 'acme/transitive', from: 'bugs' },
    'no version stated: none given',
  );
  write(root, {
    'node_modules/versioned/package.json': JSON.stringify({
      name: 'versioned',
      version: '1.4.0',
      repository: 'github:acme/versioned',
    }),
  });
  assert.deepEqual(await installedNpmDependency(nested, 'versioned'), {
    ecosystem: 'npm',
    name: 'versioned',
    slug: 'acme/versioned',
    from: 'repository',
    version: '1.4.0',
    versionFrom: 'node_modules',
  });
  assert.equal(await installedNpmDependency(nested, 'bare'), undefined, 'installed without a repository');
  assert.equal(await installedNpmDependency(nested, 'nowhere'), undefined);
});

test('readText: a small file and one past the synchronous bound read whole; a missing file or a folder is undefined', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'devindex-readtext-'));
  const small = '{"name":"a"}\n';
  const big = `${'x'.repeat(300 * 1024)}é\n`;
  write(dir, { 'small.json': small, 'big.txt': big });
  assert.equal(await readText(path.join(dir, 'small.json')), small);
  assert.equal(await readText(path.join(dir, 'big.txt')), big);
  assert.equal(await readText(path.join(dir, 'missing.json')), undefined);
  assert.equal(await readText(dir), undefined);
  fs.rmSync(dir, { recursive: true, force: true });
});
