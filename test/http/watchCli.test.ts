// `devindex watch add|list|check|remove` as spawned processes against the sandbox: a watch made
// with --dependency in the versions fixture folder, an issue added to the sandbox's index between two checks
// (`POST /__sandbox/corpus`), `check` printing it with its badge, `list` showing the watch, `remove` forgetting
// it. The config folder is a temporary one (DEVINDEX_CONFIG_DIR); HOME and XDG_CONFIG_HOME point at another
// that must stay empty.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSandbox } from '../../sandbox/server';
import { CLI_PATH, runCliProcess, type CliRun } from './cliProcess';
import { writeVersionsFixture } from './versionsFixture';

let sb: { url: string; close(): Promise<void> };
let folder: string;
let configDir: string;
let home: string;

function run(args: string[]): Promise<CliRun> {
  return runCliProcess(
    ['watch', ...args],
    { DEVINDEX_BASE_URL: sb.url, DEVINDEX_CONFIG_DIR: configDir, HOME: home, XDG_CONFIG_HOME: join(home, '.config') },
    undefined,
    { cwd: folder },
  );
}

const QUERY = 'Retry-After ignored per-request timeout 429';

/** Files under HOME other than the CLI's compile cache (V8's code, in ~/.cache/devindex/compile-cache: not state). */
function writtenUnderHome(): string[] {
  return (readdirSync(home, { recursive: true }) as string[])
    .map((f) => f.split(sep).join('/'))
    .filter(
      (f) =>
        !['.cache', '.cache/devindex', '.cache/devindex/compile-cache'].includes(f) &&
        !f.startsWith('.cache/devindex/compile-cache/'),
    );
}

describe('devindex watch add/list/check/remove (spawned, against the sandbox)', () => {
  before(async () => {
    assert.ok(existsSync(CLI_PATH), `${CLI_PATH} is missing: build with --bundles`);
    sb = await startSandbox({ port: 0, quiet: true, keylessRateLimit: 100_000, faults: true });
    folder = mkdtempSync(join(tmpdir(), 'devindex-watch-cli-'));
    writeVersionsFixture(folder);
    configDir = mkdtempSync(join(tmpdir(), 'devindex-watch-config-'));
    home = mkdtempSync(join(tmpdir(), 'devindex-watch-home-'));
  });
  after(async () => {
    await sb.close();
    for (const d of [folder, configDir, home]) rmSync(d, { recursive: true, force: true });
  });

  it('add, check (nothing new), a new issue in the index, check prints it, check again (seen), list, remove', async () => {
    const none = await run(['list']);
    assert.equal(none.code, 0, none.err);
    assert.equal(none.out, 'No watches. Add one with: devindex watch add "<query>" --dependency NAME\n');

    const added = await run(['add', QUERY, '--dependency', 'fetchline']);
    assert.equal(added.code, 0, added.err);
    const m =
      /^Watching "Retry-After ignored per-request timeout 429" in fetchline\/fetchline · 3\.2\.0 installed · [^\n]+ · 0 new\nid ([0-9a-f]{8}): (\d+) current results? counts? as seen; devindex watch check prints what is new\.\n$/.exec(
        added.out,
      );
    assert.ok(m, added.out);
    const id = m[1]!;
    assert.ok(Number(m[2]) > 0, 'the search had results, now seen');
    // Stored in the config folder given, nowhere else.
    const stored = JSON.parse(readFileSync(join(configDir, 'watches.json'), 'utf8')) as {
      watches: Array<{ id: string; installed: unknown[]; params: { repos: string[] }; seen: string[] }>;
    };
    assert.equal(stored.watches.length, 1);
    assert.equal(stored.watches[0]!.id, id);
    assert.deepEqual(stored.watches[0]!.installed, [
      { name: 'fetchline', ecosystem: 'npm', slug: 'fetchline/fetchline', version: '3.2.0' },
    ]);
    assert.deepEqual(stored.watches[0]!.params.repos, ['fetchline/fetchline']);
    assert.ok(stored.watches[0]!.seen.includes('issue:fetchline/fetchline#472'));
    assert.deepEqual(writtenUnderHome(), [], 'nothing written under HOME but the compile cache');

    const quiet = await run(['check']);
    assert.equal(quiet.code, 0, quiet.err);
    assert.match(
      quiet.out,
      new RegExp(
        `^${id} {2}"${QUERY}" in fetchline/fetchline · 3\\.2\\.0 installed · checked [^\\n]+ · 0 new\\n {2}nothing new\\n$`,
      ),
    );

    // The index gains an issue between two checks.
    const r = await fetch(`${sb.url}/__sandbox/corpus`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        add: [
          {
            repo: 'fetchline/fetchline',
            type: 'issue',
            number: 495,
            markdown:
              '# Retry-After ignored with a per-request timeout after a 429 on 3.2.x\n\nOn 3.2.0 the Retry-After header of a 429 is ignored when a per-request timeout is set. Fixed in 3.3.0; upgrade.\n',
          },
        ],
      }),
    });
    assert.equal(r.status, 200, await r.text());

    const news = await run(['check']);
    assert.equal(news.code, 0, news.err);
    assert.match(
      news.out,
      new RegExp(`^${id} {2}"${QUERY}" in fetchline/fetchline · 3\\.2\\.0 installed · checked [^\\n]+ · 1 new\\n`),
    );
    assert.match(
      news.out,
      /\n {2}new: Retry-After ignored with a per-request timeout after a 429 on 3\.2\.x\n {4}https:\/\/github\.com\/fetchline\/fetchline\/issues\/495\n {4}fixed in 3\.3\.0 · newer than your 3\.2\.0\n/,
    );
    assert.equal((news.out.match(/^ {2}new: /gm) ?? []).length, 1, 'only the new issue');

    const again = await run(['check']);
    assert.equal(again.code, 0, again.err);
    assert.match(again.out, /\n {2}nothing new\n$/, 'a result seen once is not new again');

    const list = await run(['list']);
    assert.equal(list.code, 0, list.err);
    assert.match(
      list.out,
      new RegExp(`^${id} {2}"${QUERY}" in fetchline/fetchline · 3\\.2\\.0 installed · checked [^\\n]+ · \\d+ new\\n$`),
    );

    const removed = await run(['remove', id]);
    assert.equal(removed.code, 0, removed.err);
    assert.equal(removed.out, `Removed watch ${id}.\n`);
    const empty = await run(['list']);
    assert.match(empty.out, /^No watches\./);
    assert.deepEqual(
      (JSON.parse(readFileSync(join(configDir, 'watches.json'), 'utf8')) as { watches: unknown[] }).watches,
      [],
    );
    const twice = await run(['remove', id]);
    assert.equal(twice.code, 2);
    assert.match(twice.err, new RegExp(`no watch "${id}"`));
    assert.deepEqual(writtenUnderHome(), [], 'nothing written under HOME but the compile cache');
  });
});

// A watch added with --base-url was checked against production ("host not found" offline). A watch
// keeps the service it was added against; check honours --base-url and DEVINDEX_BASE_URL. Two sandboxes, and
// no DEVINDEX_BASE_URL at all, so only the flag and the stored service can name them.
describe('devindex watch and --base-url (spawned, two sandboxes, no DEVINDEX_BASE_URL)', () => {
  let a: { url: string; close(): Promise<void> };
  let b: { url: string; close(): Promise<void> };
  let dir: string;
  let home2: string;
  const runFlag = (args: string[], env: Record<string, string> = {}) =>
    runCliProcess(['watch', ...args], {
      DEVINDEX_CONFIG_DIR: dir,
      HOME: home2,
      XDG_CONFIG_HOME: join(home2, '.config'),
      ...env,
    });
  const Q = 'connection pool keep-alive';

  before(async () => {
    a = await startSandbox({ port: 0, quiet: true, keylessRateLimit: 100_000 });
    b = await startSandbox({ port: 0, quiet: true, keylessRateLimit: 100_000, faults: true });
    dir = mkdtempSync(join(tmpdir(), 'devindex-watch-base-'));
    home2 = mkdtempSync(join(tmpdir(), 'devindex-watch-base-home-'));
  });
  after(async () => {
    await a.close();
    await b.close();
    for (const d of [dir, home2]) rmSync(d, { recursive: true, force: true });
  });

  it("add --base-url remembers the service; check --base-url checks those watches there and names the others as skipped; check alone uses each watch's own", async () => {
    const addA = await runFlag(['add', Q, '--repos', 'fetchline/fetchline', '--base-url', a.url]);
    assert.equal(addA.code, 0, addA.err);
    const idA = /\nid ([0-9a-f]{8}):/.exec(addA.out)![1]!;
    const addB = await runFlag(['add', Q, '--repos', 'fetchline/fetchline', '--base-url', `${b.url}/`]);
    assert.equal(addB.code, 0, addB.err);
    const idB = /\nid ([0-9a-f]{8}):/.exec(addB.out)![1]!;
    const stored = JSON.parse(readFileSync(join(dir, 'watches.json'), 'utf8')) as {
      watches: Array<{ id: string; baseUrl?: string }>;
    };
    assert.deepEqual(
      stored.watches.map((w) => [w.id, w.baseUrl]),
      [
        [idA, a.url],
        [idB, `${b.url}/`],
      ],
    );

    // Only sandbox B's index gains an issue.
    const r = await fetch(`${b.url}/__sandbox/corpus`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        add: [
          {
            repo: 'fetchline/fetchline',
            type: 'issue',
            number: 496,
            markdown:
              '# Connection pool keep-alive sockets leak after a reset\n\nThe connection pool keeps keep-alive sockets open after a reset.\n',
          },
        ],
      }),
    });
    assert.equal(r.status, 200, await r.text());

    const onA = await runFlag(['check', '--base-url', a.url]);
    assert.equal(onA.code, 0, onA.err);
    assert.equal(onA.err, '');
    assert.match(onA.out, new RegExp(`^${idA} {2}"${Q}"[^\\n]* · checked [^\\n]+ · 0 new\\n {2}nothing new\\n`));
    assert.match(
      onA.out,
      new RegExp(`\\n${idB} {2}skipped: added against ${b.url}/; check it with --base-url ${b.url}/\\n$`),
    );

    // The environment names the service as the flag does (B, spelled without the slash).
    const onB = await runFlag(['check'], { DEVINDEX_BASE_URL: b.url });
    assert.equal(onB.code, 0, onB.err);
    assert.match(onB.out, new RegExp(`^${idA} {2}skipped: added against ${a.url};`));
    assert.match(
      onB.out,
      new RegExp(
        `\\n${idB} {2}"${Q}"[^\\n]* · 1 new\\n {2}new: Connection pool keep-alive sockets leak after a reset\\n`,
      ),
    );

    // Neither flag nor environment: each watch on its own service, so nothing goes to production.
    const own = await runFlag(['check']);
    assert.equal(own.code, 0, own.err);
    assert.doesNotMatch(own.out, /skipped/);
    assert.match(own.out, new RegExp(`^${idA} [^\\n]+\\n {2}nothing new\\n${idB} [^\\n]+\\n {2}nothing new\\n$`));

    const bad = await runFlag(['check', '--base-url', 'ftp://x']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /base URL must be an absolute http\(s\) URL/);
  });
});
