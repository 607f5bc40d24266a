// docs/TESTING.md's Packaging section describes scripts/package.mjs's allowlist: every bundle and folder the
// check lets into the .vsix is named there, so the description cannot fall behind the check again (it listed
// dist/{extension,core,webview}.js alone long after the CLI, features, lockfile and web bundles went in).
// package.mjs packages when it runs, so it is read as text, not imported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findRepoRoot } from '../../../sandbox/serverParts';

const root = findRepoRoot(__dirname) ?? '.';

test("TESTING.md's Packaging section names every bundle and folder package.mjs allows into the .vsix", () => {
  const script = fs.readFileSync(path.join(root, 'scripts', 'package.mjs'), 'utf8');
  const allowed = script.slice(
    script.indexOf('const ALLOWED = ['),
    script.indexOf('];', script.indexOf('const ALLOWED = [')),
  );
  const bundles = /\^extension\\\/dist\\\/\(([\w|-]+)\)\\\.js\$/.exec(allowed)?.[1]?.split('|') ?? [];
  assert.ok(
    bundles.length >= 12 && bundles.includes('extension') && bundles.includes('cli-watch'),
    `read ${bundles.join(', ')} from package.mjs`,
  );
  const testing = fs.readFileSync(path.join(root, 'docs', 'TESTING.md'), 'utf8');
  const section = testing.slice(
    testing.indexOf('## Packaging: `npm run package`'),
    testing.indexOf('\n## ', testing.indexOf('## Packaging: `npm run package`') + 5),
  );
  assert.ok(section.length > 500, 'the Packaging section');
  for (const b of bundles)
    assert.match(
      section,
      new RegExp(`[{,/\`\\s]${b}[},.\`\\s]`),
      `${b}.js is allowed by package.mjs but not named in TESTING.md`,
    );
  for (const other of [
    'dist/web/extension.js',
    'codicon',
    'media/walkthrough/',
    'docs/images/',
    'extension.vsixmanifest',
    '[Content_Types].xml',
  ]) {
    assert.ok(
      allowed.includes(other.replace(/[/.[\]]/g, (c) => `\\${c}`)),
      `${other}: no longer in package.mjs (update this test)`,
    );
    assert.ok(section.includes(other), `${other} is allowed by package.mjs but not named in TESTING.md`);
  }
  assert.doesNotMatch(section, /dist\/\{extension,core,webview\}\.js/, 'the old three-bundle list');
});

test("CHANGELOG.md (shipped in the .vsix) says what each version adds: the next one's work and the rest since 0.1.0, and 0.1.0 in more than one line", () => {
  const text = fs.readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
  const versions = text
    .split(/^## /m)
    .slice(1)
    .map((v) => ({ name: v.split('\n', 1)[0]!.trim(), body: v }));
  assert.deepEqual(
    versions.map((v) => v.name),
    ['Unreleased', '0.1.0'],
  );
  const next = versions[0]!.body;
  for (const [what, re] of [
    ['the web extension', /vscode\.dev/],
    ['github.dev', /github\.dev/],
    ['scope from the browsed repository', /vscode-vfs:\/\/github/],
    ['what the browser leaves out, and why', /Left out in the browser[^]*node_modules/],
    ['accessibility', /axe-core[^]*light, dark and high\s+contrast[^]*live region[^]*start with their state/],
    ['Windows paths', /Windows paths/],
    ['the marketplace entry', /128×128 PNG icon/],
    ['the walkthrough', /walkthrough/],
    ['agent threads and chat answers', /Agent threads and chat answers/],
    ['the keyless quota', /keyless daily quota/],
    ['the connection doctor', /devindex doctor/],
    ['version badges and watches', /badges[^]*Watch for a Fix/],
    ['MCP setup and the agent tools', /devIndex_readMore[^]*Set Up MCP for Another Agent…/],
  ] as const)
    assert.match(next, re, `the next version does not mention ${what}`);
  const first = versions[1]!.body.split('\n').filter((l) => l.startsWith('- '));
  assert.ok(first.length >= 5, `0.1.0 says what it added in ${first.length} line(s)`);
});
