// Issue 22 (spawn to first answer): dist/cli-mcp.js leaves out what a spawn need not parse. The lockfile parsers
// are read in the worker bundle (dist/lockfiles.js), as the editor does; ajv, which the MCP SDK loads only to check
// elicitation answers, is not bundled (this server never elicits). versionsMcp.test.ts drives the worker path.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { findRepoRoot } from '../../sandbox/server';

const dist = join(findRepoRoot(__dirname) ?? process.cwd(), 'dist');

test('dist/cli-mcp.js reads lockfiles through dist/lockfiles.js and holds no parser of its own', () => {
  const mcp = readFileSync(join(dist, 'cli-mcp.js'), 'utf8');
  assert.match(mcp, /\.\/lockfiles\.js/);
  for (const marker of ['YAMLParseError', 'TomlError', 'parseSyml']) assert.equal(mcp.includes(marker), false, `${marker} is in dist/cli-mcp.js`);
  // The worker bundle does hold them (the same markers, so the check above is not vacuous).
  const worker = readFileSync(join(dist, 'lockfiles.js'), 'utf8');
  for (const marker of ['YAMLParseError', 'TomlError', 'parseSyml']) assert.equal(worker.includes(marker), true, `${marker} missing from dist/lockfiles.js`);
});

test('dist/cli-mcp.js holds no ajv; the SDK\'s provider is the stand-in that refuses to be built', () => {
  const mcp = readFileSync(join(dist, 'cli-mcp.js'), 'utf8');
  for (const marker of ['strictTuples', 'unicodeRegExp', 'ajv-formats']) assert.equal(mcp.includes(marker), false, `${marker} is in dist/cli-mcp.js`);
  assert.match(mcp, /devindex mcp is built without ajv/);
});
