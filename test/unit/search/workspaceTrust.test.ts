// Package.json declares how the extension behaves in a virtual workspace and in Restricted Mode
// (`capabilities`), and what it declares is what the code does: the one process the editor runs in a
// workspace folder (`git config`) is not run in an untrusted one, and no setting that decides where the key
// goes, what is trusted or what is spent is taken from an untrusted workspace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findRepoRoot } from '../../../sandbox/serverParts';
import { mayRunGitIn, restrictedModeWords } from '../../../src/search/gitTrust';

const root = findRepoRoot(__dirname) ?? '.';
interface Setting {
  scope?: string;
}
interface Manifest {
  capabilities?: {
    virtualWorkspaces?: boolean | { supported?: unknown; description?: unknown };
    untrustedWorkspaces?: { supported?: unknown; description?: unknown; restrictedConfigurations?: unknown };
  };
  contributes: {
    configuration: { properties: Record<string, Setting> } | Array<{ properties: Record<string, Setting> }>;
  };
}
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
const settings: Record<string, Setting> = Object.assign(
  {},
  ...[manifest.contributes.configuration].flat().map((c) => c.properties),
);

/** The settings that decide where the key is sent, which certificates are trusted and what a job may spend. */
const TRUST_SETTINGS = [
  'devIndex.baseUrl',
  'devIndex.network.caFile',
  'devIndex.insecure.allowHttpWithKey',
  'devIndex.agent.defaultMaxCredits',
];

test('capabilities.virtualWorkspaces is declared: limited, with what needs a file system', () => {
  const v = manifest.capabilities?.virtualWorkspaces;
  assert.ok(v !== undefined, 'package.json capabilities.virtualWorkspaces is missing (VS Code then guesses)');
  if (v !== true) {
    assert.equal(typeof v, 'object');
    const o = v as { supported?: unknown; description?: unknown };
    assert.equal(o.supported, 'limited');
    assert.equal(typeof o.description, 'string');
    assert.match(o.description as string, /node_modules/);
    assert.match(o.description as string, /Search in This Repository/);
  }
});

test('capabilities.untrustedWorkspaces is declared: limited, with a description, and the trust settings restricted', () => {
  const u = manifest.capabilities?.untrustedWorkspaces;
  assert.ok(
    u,
    'package.json capabilities.untrustedWorkspaces is missing (VS Code then disables the extension in Restricted Mode)',
  );
  assert.ok(u.supported === 'limited' || u.supported === true, `supported is ${JSON.stringify(u.supported)}`);
  assert.equal(typeof u.description, 'string', 'VS Code shows the description in Restricted Mode');
  assert.match(u.description as string, /git/, 'it says what is left out: running git in the folder');
  const restricted = u.restrictedConfigurations;
  assert.ok(Array.isArray(restricted));
  for (const key of restricted as string[])
    assert.ok(key in settings, `${key} in restrictedConfigurations is not a contributed setting`);
  for (const key of TRUST_SETTINGS) {
    assert.ok((restricted as string[]).includes(key), `${key} is not in restrictedConfigurations`);
    // And a workspace cannot set it at all, trusted or not (belt and braces: restricted should its scope ever change).
    assert.ok(
      ['application', 'machine'].includes(settings[key]?.scope ?? ''),
      `${key} has scope ${settings[key]?.scope ?? 'window'}`,
    );
  }
  // Every user-only setting is restricted too: what was decided about a workspace never setting it holds in Restricted Mode.
  for (const [key, s] of Object.entries(settings))
    if (s.scope === 'application')
      assert.ok((restricted as string[]).includes(key), `${key} is application-scoped but not restricted`);
});

test('git config runs only in a local folder of a trusted workspace', () => {
  assert.equal(mayRunGitIn('file', true), true);
  assert.equal(mayRunGitIn('file', false), false, 'Restricted Mode: no process in an untrusted folder');
  assert.equal(mayRunGitIn('vscode-vfs', true), false, 'a virtual folder has no working directory for git');
  assert.equal(mayRunGitIn('vscode-remote', true), false);
  const words = restrictedModeWords('fetchline');
  assert.match(words, /"fetchline" is open in Restricted Mode/);
  assert.match(words, /Manage Workspace Trust/);
});

test("the only caller of git config asks mayRunGitIn with the workspace's trust first", () => {
  const src = path.join(root, 'src');
  const files = (dir: string): string[] =>
    fs.readdirSync(dir).flatMap((n) => {
      const p = path.join(dir, n);
      return fs.statSync(p).isDirectory() ? files(p) : /\.ts$/.test(n) ? [p] : [];
    });
  const callers = files(src)
    .filter((f) => /\bremotesFromGitConfig\(/.test(fs.readFileSync(f, 'utf8')))
    .map((f) => path.relative(src, f).replace(/\\/g, '/'))
    .filter((f) => !/^host\//.test(f));
  assert.deepEqual(callers, ['search/workspaceRepos.ts']);
  const text = fs.readFileSync(path.join(src, 'search', 'workspaceRepos.ts'), 'utf8');
  assert.match(text, /mayRunGitIn\(folder\.scheme, vscode\.workspace\.isTrusted\) \? host\.remotesFromGitConfig\(/);
});

test('docs/USAGE.md says what Restricted Mode and a virtual workspace leave out, and the README links there', () => {
  const usage = fs.readFileSync(path.join(root, 'docs', 'USAGE.md'), 'utf8');
  assert.match(usage, /Restricted Mode/);
  assert.match(usage, /virtual workspace/i);
  assert.match(usage, /restrictedConfigurations/);
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  assert.match(readme, /\]\(docs\/USAGE\.md#restricted-mode-and-virtual-workspaces\)/);
});
