// The MCP launcher, run for real (node and sh child processes) over a fake extensions folder: it starts the
// newest installed build, survives the old folder's removal (an update), says in words when it finds no build,
// no node or too old a node, and runs a build older than itself as a child process.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { stalePaths } from '../../../src/mcpSetup/files';
import { launcherFiles } from '../../../src/mcpSetup/launcher';
import { scanFor, VERSIONED_CLI } from '../../../src/mcpSetup/launcherStamp';
import { installLauncher } from '../../../src/mcpSetup/setupKit';

const root = mkdtempSync(join(tmpdir(), "devindex-launcher it's here "));
after(() => rmSync(root, { recursive: true, force: true }));

/** A stand-in build: its cli.js says which version ran and with which arguments. */
function build(dir: string, version: string, kind: 'current' | 'old' = 'current'): string {
  const cli = join(dir, 'dist', 'cli.js');
  mkdirSync(join(dir, 'dist'), { recursive: true });
  writeFileSync(
    cli,
    kind === 'current'
      ? `exports.runAsEntry = () => { process.stdout.write(${JSON.stringify(version)} + ' ' + process.argv.slice(2).join(' ') + ' argv1=' + require('path').basename(process.argv[1])); };\n`
      : `if (require.main === module) { process.stdout.write(${JSON.stringify(`${version} (old)`)} + ' ' + process.argv.slice(2).join(' ')); process.exitCode = 3; }\n`,
  );
  return cli;
}

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { code: number | null; out: string; err: string } {
  const r = spawnSync(command, args, { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: root, ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('MCP launcher', () => {
  const exts = join(root, 'extensions');
  const store = join(root, 'globalStorage');
  const first = build(join(exts, 'devindex.devindex-0.1.0'), '0.1.0');

  it('starts the newest installed build; skips obsolete and half-installed folders and other extensions', () => {
    build(join(exts, 'devindex.devindex-0.2.0-linux-x64'), '0.2.0');
    build(join(exts, 'devindex.devindex-0.10.0'), '0.10.0');
    mkdirSync(join(exts, 'devindex.devindex-0.11.0'), { recursive: true }); // no dist/cli.js yet
    build(join(exts, 'other.extension-9.9.9'), 'other');
    writeFileSync(join(exts, '.obsolete'), JSON.stringify({ 'devindex.devindex-0.10.0': true }));
    const launch = installLauncher(store, { scan: scanFor(first), fallback: first }, 'linux');
    assert.equal(launch.command, join(store, 'devindex-mcp'));
    assert.equal(statSync(launch.command).mode & 0o777, 0o755);
    const r = run(launch.command, [...launch.args, 'mcp', '--tools', 'search']);
    assert.equal(r.err, '');
    assert.equal(r.out, '0.2.0 mcp --tools search argv1=cli.js');
  });

  it('survives an update: the folder that wrote it removed, the newer one runs; then the fallback; then words', () => {
    const launch = installLauncher(store, { scan: scanFor(first), fallback: first }, 'linux');
    build(join(exts, 'devindex.devindex-0.3.0'), '0.3.0');
    rmSync(join(exts, 'devindex.devindex-0.1.0'), { recursive: true });
    assert.equal(run(launch.command, ['mcp']).out.split(' ')[0], '0.3.0');
    rmSync(exts, { recursive: true });
    const elsewhere = build(join(root, 'npm-global'), 'npm');
    const fallbackOnly = installLauncher(store, { scan: scanFor(first), fallback: elsewhere }, 'linux');
    assert.equal(run(fallbackOnly.command, ['mcp']).out.split(' ')[0], 'npm');
    rmSync(join(root, 'npm-global'), { recursive: true });
    const none = run(fallbackOnly.command, ['mcp']);
    assert.equal(none.code, 1);
    assert.match(
      none.err,
      /^devindex: no installed Developer Index build was found in .*extensions or at .*cli\.js\. Reinstall the extension, or run "devindex setup mcp" again\.\n$/,
    );
    assert.doesNotMatch(none.err, /\n\s+at /, 'no stack');
  });

  it('runs a build older than the launcher (no runAsEntry) as a child, passing its output and exit code', () => {
    const old = build(join(root, 'old'), '0.0.9', 'old');
    const launch = installLauncher(join(root, 'old-store'), { fallback: old }, 'linux');
    const r = run(launch.command, ['mcp']);
    assert.equal(r.out, '0.0.9 (old) mcp');
    assert.equal(r.code, 3);
  });

  it('says in words when node is missing (sh launcher) or too old (JavaScript launcher)', () => {
    const cli = build(join(root, 'b'), '1.0.0');
    const dir = join(root, 'words');
    const launch = installLauncher(dir, { fallback: cli }, 'linux');
    const missing = run(launch.command, ['mcp'], { DEVINDEX_NODE: join(root, 'no-such-node') });
    assert.equal(missing.code, 127);
    assert.match(
      missing.err,
      /^devindex: Node\.js was not found .* needs Node\.js 20 or later: install it \(https:\/\/nodejs\.org\), or set DEVINDEX_NODE/,
    );
    // An old Node is simulated by raising the launcher's minimum above this Node's major version.
    const js = join(dir, 'devindex-mcp.cjs');
    writeFileSync(js, readFileSync(js, 'utf8').replace(/var MIN = \d+;/, 'var MIN = 999;'));
    const old = run(process.execPath, [js, 'mcp']);
    assert.equal(old.code, 1);
    assert.match(
      old.err,
      new RegExp(
        `^devindex: this Node\\.js \\(${process.versions.node.replace(/\./g, '\\.')}, .*\\) is too old for the Developer Index MCP server, which needs Node\\.js 999 or later`,
      ),
    );
    assert.equal(old.out, '');
  });

  it('Windows: node runs the JavaScript launcher, no sh file', () => {
    const { files, launch } = launcherFiles(
      'C:\\Users\\A B\\AppData\\Roaming\\devindex',
      { fallback: 'C:\\x\\dist\\cli.js' },
      'win32',
      (...p) => p.join('\\'),
    );
    assert.deepEqual(
      files.map((f) => f.name),
      ['devindex-mcp.cjs'],
    );
    assert.deepEqual(launch, {
      command: 'node',
      args: ['C:\\Users\\A B\\AppData\\Roaming\\devindex\\devindex-mcp.cjs'],
    });
  });

  it("recognises an older entry's versioned CLI path, and which of them are gone", () => {
    assert.deepEqual(scanFor('/home/u/.vscode/extensions/devindex.devindex-0.3.1/dist/cli.js'), {
      dir: '/home/u/.vscode/extensions',
      prefix: 'devindex.devindex',
    });
    assert.deepEqual(
      scanFor('C:\\Users\\u\\.vscode\\extensions\\devindex.devindex-0.3.1-win32-x64\\dist\\cli.js', '\\'),
      { dir: 'C:\\Users\\u\\.vscode\\extensions', prefix: 'devindex.devindex' },
    );
    assert.equal(scanFor('/work/checkout/dist/cli.js'), undefined);
    assert.ok(VERSIONED_CLI.test('/a/devindex.devindex-0.1.0/dist/cli.js'));
    assert.ok(!VERSIONED_CLI.test('/a/devindex/dist/cli.js'));
    assert.ok(!VERSIONED_CLI.test('/a/other.tool-1.2.3/dist/cli.js'), "another extension's CLI is not ours to repair");
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as {
      publisher: string;
      name: string;
    };
    assert.ok(
      VERSIONED_CLI.test(`/x/${manifest.publisher}.${manifest.name}-1.0.0/dist/cli.js`),
      "the pattern names this extension's folder",
    );
    const text =
      '{ "servers": { "d": { "args": ["C:\\\\x\\\\devindex.devindex-0.1.0\\\\dist\\\\cli.js", "mcp"] }, "e": { "args": ["/kept/devindex.devindex-0.2.0/dist/cli.js"] } } }';
    assert.deepEqual(
      stalePaths(text, (p) => p.startsWith('/kept')),
      ['C:\\x\\devindex.devindex-0.1.0\\dist\\cli.js'],
    );
  });
});
