// `devindex search --dependency` as a spawned process in a fixture folder against the sandbox:
// the scope line with the installed version, a badge line per result, --json's installed and versions,
// and exit 2 for a name the folder does not have or a dependency without a GitHub repository.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSandbox } from '../../sandbox/server';
import { CLI_PATH, runCliProcess, type CliRun } from './cliProcess';
import { writeVersionsFixture } from './versionsFixture';

let sb: { url: string; close(): Promise<void> };
let folder: string;

function run(args: string[], cwd: string): Promise<CliRun> {
  return runCliProcess(args, { DEVINDEX_BASE_URL: sb.url }, undefined, { cwd });
}

describe('devindex search --dependency (spawned, against the sandbox)', () => {
  before(async () => {
    assert.ok(existsSync(CLI_PATH), `${CLI_PATH} is missing: build with --bundles`);
    sb = await startSandbox({ port: 0, quiet: true, keylessRateLimit: 100_000, faults: true });
    folder = mkdtempSync(join(tmpdir(), 'devindex-versions-cli-'));
    writeVersionsFixture(folder);
  });
  after(async () => {
    await sb.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("scopes to the repository, prints the installed version, the summary and each result's badge", async () => {
    const r = await run(
      ['search', 'Retry-After ignored per-request timeout 429', '--dependency', 'fetchline', '--k', '5'],
      folder,
    );
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^Scope: fetchline 3\.2\.0 installed \(fetchline\/fetchline\)\n/);
    assert.match(r.out, /\n\d results? mentions? a fix newer than your fetchline 3\.2\.0 \(3\.3\.0\)\.\n/);
    assert.match(
      r.out,
      /Retry-After ignored after a 429[^\n]*\n {3}issue · fetchline\/fetchline #472[^\n]*\n {3}https:\/\/github\.com\/fetchline\/fetchline\/issues\/472\n {3}fixed in 3\.3\.0 · newer than your 3\.2\.0\n/,
    );
  });

  it('a fix the installed version already includes says so', async () => {
    const r = await run(
      ['search', 'coerce drops defaults of nested objects', '--dependency', 'keel-schema', '--k', '3'],
      folder,
    );
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^Scope: keel-schema 2\.6\.0 installed \(keelhq\/keel-schema\)\n/);
    assert.match(r.out, /fixed in 2\.5\.1 · included in your 2\.6\.0/);
    assert.match(r.out, /already includes/);
  });

  it('--json adds installed and per-result versions', async () => {
    const r = await run(
      ['search', 'Retry-After per-request timeout', '--dependency', 'fetchline', '--json', '--k', '5'],
      folder,
    );
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out) as {
      installed: unknown[];
      results: Array<{
        id: string;
        versions: Array<{ kind: string; stated: string; verdict: string | null; text: string; sentence: string }>;
      }>;
    };
    assert.deepEqual(j.installed, [
      {
        name: 'fetchline',
        ecosystem: 'npm',
        repo: 'fetchline/fetchline',
        version: '3.2.0',
        versionFrom: 'node_modules',
      },
    ]);
    const issue = j.results.find((x) => x.id === 'issue:fetchline/fetchline#472');
    assert.ok(issue, j.results.map((x) => x.id).join(', '));
    assert.deepEqual(
      issue.versions[0] && [issue.versions[0].kind, issue.versions[0].stated, issue.versions[0].verdict],
      ['fixed', '3.3.0', 'newer-fix'],
    );
    for (const v of issue.versions.slice(1))
      assert.deepEqual([v.kind, v.stated, v.verdict], ['affects', '≥3.1.0 <3.3.0', 'affects-yours']);
    assert.match(issue.versions[0]!.sentence, /fixed in 3\.3\.0/);
    for (const res of j.results) assert.ok(Array.isArray(res.versions));
  });

  it("--dependency given twice: both repositories in the scope, both installed versions printed, each result's badge against its own", async () => {
    await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
    const r = await run(
      [
        'search',
        'Retry-After ignored per-request timeout coerce drops defaults of nested objects',
        '--dependency',
        'fetchline',
        '--dependency',
        'keel-schema',
        '--k',
        '10',
      ],
      folder,
    );
    assert.equal(r.code, 0, r.err);
    assert.match(
      r.out,
      /^Scope: fetchline 3\.2\.0 installed \(fetchline\/fetchline\)\n(?:[^\n]+\n)?Scope: keel-schema 2\.6\.0 installed \(keelhq\/keel-schema\)\n/,
    );
    assert.match(r.out, /fixed in 3\.3\.0 · newer than your 3\.2\.0/);
    assert.match(r.out, /fixed in 2\.5\.1 · included in your 2\.6\.0/);
    const log = (await (await fetch(`${sb.url}/__sandbox/requests`)).json()) as {
      requests: Array<{ path: string; query: string; body: unknown }>;
    };
    const searches = log.requests.filter((q) => q.path === '/v2/search/developer');
    assert.equal(searches.length, 1, JSON.stringify(log.requests));
    assert.deepEqual(new URLSearchParams(searches[0]!.query).getAll('repos'), [
      'fetchline/fetchline',
      'keelhq/keel-schema',
    ]);
    const j = JSON.parse(
      (
        await run(
          [
            'search',
            'Retry-After coerce defaults',
            '--dependency',
            'fetchline',
            '--dependency',
            'keel-schema',
            '--json',
          ],
          folder,
        )
      ).out,
    ) as { installed: Array<{ name: string; version: string }> };
    assert.deepEqual(
      j.installed.map((d) => [d.name, d.version]),
      [
        ['fetchline', '3.2.0'],
        ['keel-schema', '2.6.0'],
      ],
    );
  });

  it('exit 2 for a name the folder does not have (naming what it has) and for a dependency without a GitHub repository', async () => {
    const unknown = await run(['search', 'anything', '--dependency', 'left-pad'], folder);
    assert.equal(unknown.code, 2);
    assert.equal(unknown.out, '');
    assert.match(
      unknown.err,
      /^devindex search: left-pad is not a dependency of .+ \(its manifests list fetchline, keel-schema, gitlab-only, only-locked\)\n$/,
    );
    const gitlab = await run(['search', 'anything', '--dependency', 'gitlab-only'], folder);
    assert.equal(gitlab.code, 2);
    assert.match(
      gitlab.err,
      /gitlab-only has no GitHub repository to search in: its repository is not on GitHub \(hosted on gitlab\.com\)/,
    );
    const locked = await run(['search', 'anything', '--dependency', 'only-locked'], folder);
    assert.equal(locked.code, 2);
    assert.match(locked.err, /only-locked has no GitHub repository to search in: it is not installed/);
  });
});
