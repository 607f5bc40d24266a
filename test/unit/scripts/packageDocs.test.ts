// docs/TESTING.md's Packaging section describes scripts/package.mjs's allowlist: every bundle and folder the
// check lets into the .vsix is named there, so the description cannot fall behind the check again (it listed
// dist/{extension,core,webview}.js alone long after the CLI, features, lockfile and web bundles went in).
// package.mjs packages when it runs, so it is read as text, not imported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findRepoRoot } from '../../../sandbox/server';

const root = findRepoRoot(__dirname) ?? '.';

test('TESTING.md\'s Packaging section names every bundle and folder package.mjs allows into the .vsix', () => {
  const script = fs.readFileSync(path.join(root, 'scripts', 'package.mjs'), 'utf8');
  const allowed = script.slice(script.indexOf('const ALLOWED = ['), script.indexOf('];', script.indexOf('const ALLOWED = [')));
  const bundles = /\^extension\\\/dist\\\/\(([\w|-]+)\)\\\.js\$/.exec(allowed)?.[1]?.split('|') ?? [];
  assert.ok(bundles.length >= 12 && bundles.includes('extension') && bundles.includes('cli-watch'), `read ${bundles.join(', ')} from package.mjs`);
  const testing = fs.readFileSync(path.join(root, 'docs', 'TESTING.md'), 'utf8');
  const section = testing.slice(testing.indexOf('## Packaging: `npm run package`'), testing.indexOf('\n## ', testing.indexOf('## Packaging: `npm run package`') + 5));
  assert.ok(section.length > 500, 'the Packaging section');
  for (const b of bundles) assert.match(section, new RegExp(`[{,/\`\\s]${b}[},.\`\\s]`), `${b}.js is allowed by package.mjs but not named in TESTING.md`);
  for (const other of ['dist/web/extension.js', 'codicon', 'media/walkthrough/', 'docs/images/', 'extension.vsixmanifest', '[Content_Types].xml']) {
    assert.ok(allowed.includes(other.replace(/[/.[\]]/g, (c) => `\\${c}`)), `${other}: no longer in package.mjs (update this test)`);
    assert.ok(section.includes(other), `${other} is allowed by package.mjs but not named in TESTING.md`);
  }
  assert.doesNotMatch(section, /dist\/\{extension,core,webview\}\.js/, 'the old three-bundle list');
});
