// `devindex fixes` as a spawned process against the sandbox, over a workspace with npm, Python, Go and Cargo
// dependencies: only fixes you lack, skipped and unchecked reported, one search per dependency, the cache and
// --refresh, the keyless quota's stop and its resume, --fail-on, --json's shape, both wires, and --sarif
// checked by Microsoft's SARIF validator (@microsoft/sarif-multitool, rules "Gh;Sarif": no error).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSandbox } from '../../sandbox/server';
import { findRepoRoot } from '../../sandbox/serverParts';
import { CLI_PATH, runCliProcess } from './cliProcess';

const pkgJson = (name: string, version: string, repository?: string) =>
  JSON.stringify({ name, version, ...(repository ? { repository } : {}) });

/** npm (direct, dev, a GitLab one, a transitive one in the lockfile), Python (venv + requirements), Go, Cargo. */
function writeFixesWorkspace(dir: string, cargoHome: string): void {
  const files: Record<string, string> = {
    'package.json': JSON.stringify(
      {
        name: 'fixes-fixture',
        private: true,
        dependencies: { fetchline: '^3.2.0', 'keel-schema': '^2.6.0', 'gitlab-only': '^1.0.0' },
        devDependencies: { trialrun: '^1.0.0' },
      },
      null,
      2,
    ),
    'node_modules/fetchline/package.json': pkgJson('fetchline', '3.2.0', 'github:fetchline/fetchline'),
    'node_modules/keel-schema/package.json': pkgJson('keel-schema', '2.6.0', 'github:keelhq/keel-schema'),
    'node_modules/gitlab-only/package.json': pkgJson('gitlab-only', '1.0.0', 'gitlab:acme/gitlab-only'),
    'node_modules/trialrun/package.json': pkgJson('trialrun', '1.0.0', 'github:trialrun/trialrun'),
    'node_modules/@orbit-editor/webview-toolkit/package.json': pkgJson(
      '@orbit-editor/webview-toolkit',
      '0.7.0',
      'github:orbit-editor/webview-toolkit',
    ),
    'package-lock.json': JSON.stringify(
      {
        name: 'fixes-fixture',
        lockfileVersion: 3,
        packages: {
          '': {},
          'node_modules/fetchline': { version: '3.2.0' },
          'node_modules/keel-schema': { version: '2.6.0' },
          'node_modules/gitlab-only': { version: '1.0.0' },
          'node_modules/trialrun': { version: '1.0.0', dev: true },
          'node_modules/@orbit-editor/webview-toolkit': { version: '0.7.0' },
        },
      },
      null,
      2,
    ),
    'requirements.txt': '# service deps\nhttpwell==1.4.0\n',
    '.venv/lib/python3.12/site-packages/httpwell-1.4.0.dist-info/METADATA':
      'Metadata-Version: 2.1\nName: httpwell\nVersion: 1.4.0\nProject-URL: Source, https://github.com/tidewater/httpwell\n\nbody\n',
    'go.mod':
      'module example.com/fixes\n\ngo 1.22\n\nrequire (\n\tgithub.com/gridworks/tollgate/v2 v2.1.0\n\tgitlab.com/acme/thing v1.0.0\n)\n',
    'Cargo.toml': '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\nratelane = "0.10"\n',
    'Cargo.lock':
      'version = 4\n\n[[package]]\nname = "app"\nversion = "0.1.0"\ndependencies = [\n "ratelane",\n]\n\n[[package]]\nname = "ratelane"\nversion = "0.10.1"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n',
  };
  for (const [p, t] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), t);
  }
  const crate = join(cargoHome, 'registry', 'src', 'index.crates.io-6f17d22bba15001f', 'ratelane-0.10.1');
  mkdirSync(crate, { recursive: true });
  writeFileSync(
    join(crate, 'Cargo.toml'),
    '[package]\nname = "ratelane"\nversion = "0.10.1"\nrepository = "https://github.com/ferrous-labs/ratelane"\n',
  );
}

for (const wire of ['production', 'spec'] as const) {
  describe(`devindex fixes (spawned, against the sandbox, ${wire} wire)`, () => {
    let sb: { url: string; close(): Promise<void> };
    let folder: string;
    let cargoHome: string;
    let cache: string;
    const run = (args: string[], extra: Record<string, string> = {}) =>
      runCliProcess(['fixes', '--dir', folder, ...args], {
        DEVINDEX_BASE_URL: sb.url,
        XDG_CACHE_HOME: cache,
        CARGO_HOME: cargoHome,
        ...extra,
      });
    const control = (path: string, body: unknown) =>
      fetch(`${sb.url}${path}`, { method: 'POST', body: JSON.stringify(body) }).then((r) => r.json());
    const searchesSent = async () => {
      const r = (await (await fetch(`${sb.url}/__sandbox/requests`)).json()) as { requests: Array<{ path: string }> };
      await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
      return r.requests.filter((q) => q.path.startsWith('/v2/search/developer')).length;
    };

    before(async () => {
      assert.ok(existsSync(CLI_PATH), `${CLI_PATH} is missing: build with --bundles`);
      sb = await startSandbox({ port: 0, quiet: true, keylessRateLimit: 0, faults: true, wire });
      folder = mkdtempSync(join(tmpdir(), 'devindex-fixes-'));
      cargoHome = mkdtempSync(join(tmpdir(), 'devindex-fixes-cargo-'));
      cache = mkdtempSync(join(tmpdir(), 'devindex-fixes-cache-'));
      writeFixesWorkspace(folder, cargoHome);
    });
    after(async () => {
      await sb.close();
      for (const d of [folder, cargoHome, cache]) rmSync(d, { recursive: true, force: true });
    });

    it('--json: every ecosystem, only the fixes you lack, the known unfixed apart, skipped named; then cached, then --refresh', async () => {
      await searchesSent();
      const r = await run(['--json', '--refresh']);
      assert.equal(r.code, 0, r.err);
      const report = JSON.parse(r.out) as {
        dependencies: Array<Record<string, unknown> & { name: string; fixes: Array<Record<string, unknown>> }>;
        skipped: unknown[];
        unchecked: unknown[];
        searches: number;
      };
      assert.deepEqual(Object.keys(report), ['dependencies', 'skipped', 'unchecked', 'searches']);
      const by = Object.fromEntries(report.dependencies.map((d) => [d.name, d]));
      assert.deepEqual(Object.keys(by).sort(), [
        'fetchline',
        'github.com/gridworks/tollgate/v2',
        'httpwell',
        'keel-schema',
        'ratelane',
        'trialrun',
      ]);
      assert.deepEqual(Object.keys(by.fetchline!), [
        'name',
        'ecosystem',
        'installed',
        'repository',
        'manifest',
        'fixes',
        'affecting',
      ]);
      assert.deepEqual(by.fetchline!.manifest, { file: 'package.json', line: 5 });
      assert.deepEqual(
        by.fetchline!.fixes.find((f) => f.id === 'issue:fetchline/fetchline#472'),
        {
          id: 'issue:fetchline/fetchline#472',
          url: 'https://github.com/fetchline/fetchline/issues/472',
          title: 'Retry-After ignored after a 429 when a per-request timeout is set',
          kind: 'issue',
          fixedIn: '3.3.0',
        },
      );
      assert.deepEqual(by['keel-schema']!.fixes, [], 'keel-schema 2.6.0 already has the 2.5.1 fix');
      assert.deepEqual(
        by.httpwell!.fixes.map((f) => [f.id, f.fixedIn]),
        [['issue:tidewater/httpwell#244', '1.4.2']],
      );
      assert.deepEqual(by.httpwell!.manifest, { file: 'requirements.txt', line: 2 });
      assert.deepEqual(
        by.ratelane!.fixes.map((f) => [f.id, f.fixedIn]),
        [['issue:ferrous-labs/ratelane#104', '0.10.3']],
      );
      assert.deepEqual(by.ratelane!.manifest, { file: 'Cargo.toml', line: 6 });
      assert.deepEqual(
        by['github.com/gridworks/tollgate/v2']!.fixes.map((f) => f.fixedIn),
        ['3.14.1'],
      );
      assert.deepEqual(by.trialrun!.fixes, []);
      assert.deepEqual(by.trialrun!.affecting, [
        {
          id: 'issue:trialrun/trialrun#1240',
          url: 'https://github.com/trialrun/trialrun/issues/1240',
          title: 'Summary line missing from the dot reporter when stdout is a pipe',
          kind: 'issue',
          affects: '1.0.x',
        },
      ]);
      assert.deepEqual(report.skipped, [
        { name: 'gitlab-only', reason: 'repository on GitLab' },
        { name: 'gitlab.com/acme/thing', reason: 'repository on GitLab' },
      ]);
      assert.deepEqual(report.unchecked, []);
      assert.equal(report.searches, 6);
      assert.equal(await searchesSent(), 6, 'one search per dependency');

      const again = await run(['--json']);
      assert.equal(again.code, 0, again.err);
      assert.equal((JSON.parse(again.out) as { searches: number }).searches, 0);
      assert.deepEqual((JSON.parse(again.out) as { dependencies: unknown }).dependencies, report.dependencies);
      assert.equal(await searchesSent(), 0, 'a second run sends no search');

      const refreshed = await run(['--json', '--refresh', '--dependency', 'fetchline']);
      assert.equal((JSON.parse(refreshed.out) as { searches: number }).searches, 1);
      assert.equal(await searchesSent(), 1);
    });

    it('text report, --fail-on newer, --all, unknown --dependency', async () => {
      const text = await run([]);
      assert.equal(text.code, 0, text.err);
      assert.match(text.out, /^fetchline 3\.2\.0 → 3\.3\.0 {2}\(fetchline\/fetchline, package\.json:5\)$/m);
      assert.match(
        text.out,
        /issue #472 · fixed in 3\.3\.0 · https:\/\/github\.com\/fetchline\/fetchline\/issues\/472/,
      );
      assert.match(text.out, /keel-schema 2\.6\.0: no fix you lack/);
      assert.match(text.out, /Known, not fixed yet:\n {2}Summary line missing/);
      assert.match(text.out, /gitlab-only: repository on GitLab/);
      assert.match(text.out, /^4 of 6 dependencies have fixes you lack; 1 has known issues not fixed yet/m);
      const gate = await run(['--fail-on', 'newer']);
      assert.equal(gate.code, 1);
      const passes = await run(['--fail-on', 'newer', '--dependency', 'keel-schema']);
      assert.equal(passes.code, 0, passes.err);
      const all = await run(['--json', '--all']);
      const names = (JSON.parse(all.out) as { dependencies: Array<{ name: string; manifest: unknown }> }).dependencies;
      assert.deepEqual(
        names.find((d) => d.name === '@orbit-editor/webview-toolkit')?.manifest,
        { file: 'package-lock.json', line: 19 },
        'a transitive one is located at its lockfile entry',
      );
      const unknown = await run(['--dependency', 'nope']);
      assert.equal(unknown.code, 2);
      assert.match(
        unknown.err,
        /nope is not a dependency of .* \(it has fetchline, keel-schema, gitlab-only, trialrun/,
      );
      const bad = await run(['--concurrency', '9']);
      assert.equal(bad.code, 2);
      assert.match(bad.err, /--concurrency must be a whole number from 1 to 8/);
    });

    if (wire === 'production')
      it('the keyless quota stops new searches at once, says the way out, exit 1; the next run checks only the rest', async () => {
        await control('/__sandbox/keyless', { daily: 2, reset: true });
        await searchesSent();
        const fresh = { XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'devindex-fixes-quota-')) };
        const r = await run(['--concurrency', '1'], fresh);
        assert.equal(r.code, 1, r.err);
        assert.equal(await searchesSent(), 3, 'two answered, the third refused, nothing after');
        assert.match(r.out, /Not checked:\n(?: {2}.*: not checked: the service is rate limiting searches\n){4}/);
        assert.match(r.out, /https:\/\/firecrawl\.dev\/k\/[0-9a-f]{20}/);
        assert.match(r.out, /Run devindex fixes again/);
        await control('/__sandbox/keyless', { daily: 0, reset: true });
        const next = await run(['--json'], fresh);
        assert.equal(next.code, 0, next.err);
        assert.equal((JSON.parse(next.out) as { searches: number }).searches, 4, 'only what was left unchecked');
        assert.equal(await searchesSent(), 4);
        rmSync(fresh.XDG_CACHE_HOME, { recursive: true, force: true });
      });

    it('a rate limit it could wait out (429, Retry-After 30 s) is neither waited out nor retried: the check stops, exit 1', async () => {
      await searchesSent();
      const fresh = { XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'devindex-fixes-429-')) };
      try {
        await control('/__sandbox/faults', {
          faults: [{ kind: 'status', status: 429, retryAfter: '30', path: '/v2/search/developer' }],
        });
        const r = await run(['--concurrency', '1'], fresh);
        assert.equal(r.code, 1, r.err);
        assert.equal(await searchesSent(), 1, 'the refused search was not sent again, and nothing after it');
        assert.match(r.out, /Not checked:\n(?: {2}.*: not checked: the service is rate limiting searches\n){6}/);
        assert.doesNotMatch(r.err, /retrying/, 'no retry line for a 429 the check stops on');
      } finally {
        await fetch(`${sb.url}/__sandbox/faults`, { method: 'DELETE' });
        rmSync(fresh.XDG_CACHE_HOME, { recursive: true, force: true });
      }
    });

    it('--sarif passes the SARIF validator (rules Gh;Sarif) with no error', async () => {
      const r = await run(['--sarif']);
      assert.equal(r.code, 0, r.err);
      const log = JSON.parse(r.out) as {
        runs: Array<{ results: Array<{ ruleId: string; partialFingerprints: object }> }>;
      };
      const ids = log.runs[0]!.results.map((x) => x.ruleId);
      assert.equal(ids.filter((x) => x === 'devindex/fix-available').length, 5);
      assert.equal(ids.filter((x) => x === 'devindex/known-issue').length, 1);
      const again = JSON.parse((await run(['--sarif'])).out) as typeof log;
      assert.deepEqual(
        again.runs[0]!.results.map((x) => x.partialFingerprints),
        log.runs[0]!.results.map((x) => x.partialFingerprints),
        'stable fingerprints',
      );
      const dir = mkdtempSync(join(tmpdir(), 'devindex-sarif-'));
      try {
        writeFileSync(join(dir, 'fixes.sarif'), r.out);
        const root = findRepoRoot(__dirname) ?? process.cwd();
        const tool = require(require.resolve('@microsoft/sarif-multitool', { paths: [root] })) as string;
        const v = spawnSync(
          tool,
          ['validate', '--rule-kind', 'Gh;Sarif', '--output', join(dir, 'out.sarif'), join(dir, 'fixes.sarif')],
          { encoding: 'utf8', timeout: 180_000 },
        );
        assert.equal(v.status, 0, `${v.stdout}\n${v.stderr}`);
        const out = JSON.parse(readFileSync(join(dir, 'out.sarif'), 'utf8')) as {
          runs: Array<{ results?: Array<{ level?: string; ruleId: string; message: unknown }> }>;
        };
        const errors = (out.runs[0]!.results ?? []).filter((x) => (x.level ?? 'warning') === 'error');
        assert.deepEqual(errors, []);
        assert.doesNotMatch(v.stdout, /: error /);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
