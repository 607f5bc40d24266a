// Spawn to first answer: dist/cli-mcp.js leaves out what a spawn need not parse. The lockfile parsers
// are read in the worker bundle (dist/lockfiles.js), as the editor does; ajv, which the MCP SDK loads only to check
// elicitation answers, is not bundled (this server never elicits); Node's http2 is not loaded until undici's HTTP/2
// client is used (never, here). versionsMcp.test.ts drives the worker path.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { execFile, spawnSync } from 'node:child_process';
import { startSandbox } from '../../sandbox/server';
import { findRepoRoot } from '../../sandbox/serverParts';

const dist = join(findRepoRoot(__dirname) ?? process.cwd(), 'dist');

test('dist/cli-mcp.js reads lockfiles through dist/lockfiles.js and holds no parser of its own', () => {
  const mcp = readFileSync(join(dist, 'cli-mcp.js'), 'utf8');
  assert.match(mcp, /\.\/lockfiles\.js/);
  for (const marker of ['YAMLParseError', 'TomlError', 'parseSyml'])
    assert.equal(mcp.includes(marker), false, `${marker} is in dist/cli-mcp.js`);
  // The worker bundle does hold them (the same markers, so the check above is not vacuous).
  const worker = readFileSync(join(dist, 'lockfiles.js'), 'utf8');
  for (const marker of ['YAMLParseError', 'TomlError', 'parseSyml'])
    assert.equal(worker.includes(marker), true, `${marker} missing from dist/lockfiles.js`);
});

test("dist/cli-mcp.js holds no ajv; the SDK's provider is the stand-in that refuses to be built", () => {
  const mcp = readFileSync(join(dist, 'cli-mcp.js'), 'utf8');
  for (const marker of ['strictTuples', 'unicodeRegExp', 'ajv-formats'])
    assert.equal(mcp.includes(marker), false, `${marker} is in dist/cli-mcp.js`);
  assert.match(mcp, /devindex mcp is built without ajv/);
});

test("loading a client bundle does not load Node's http2 (undici's HTTP/2 client is required on first use); a search still works", async () => {
  const sb = await startSandbox({ port: 0, quiet: true });
  try {
    for (const bundle of ['cli-mcp.js', 'cli-search.js']) {
      // Loaded, then one search through the bundle's own client (cli-search.js exports its command).
      const script = `require(${JSON.stringify(join(dist, bundle))});
        const loaded = process.moduleLoadList.filter((m) => /http2/.test(m));
        process.stdout.write(JSON.stringify(loaded));`;
      const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout), [], `${bundle} loaded ${r.stdout}`);
    }
    // The same bundle then searches over HTTP/1.1: the lazy HTTP/2 client is never needed.
    const cli = join(dist, 'cli.js');
    // (Not spawnSync: the sandbox answers from this process's event loop.)
    const out = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        [cli, 'search', 'retry', '--base-url', sb.url, '--json'],
        { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' }, timeout: 60_000 },
        (e, stdout, stderr) => (e ? reject(new Error(`${e.message}\n${stderr}`)) : resolve(stdout)),
      );
    });
    assert.ok((JSON.parse(out) as { results: unknown[] }).results.length > 0);
  } finally {
    await sb.close();
  }
});
