// The house rule "src/api and every editor-free module never imports vscode", read from the sources (eslint's
// noVscode entries say the same per file): a `vscode` import, type-only included, in one of these fails here.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { findRepoRoot } from '../../../sandbox/serverParts';

const root = findRepoRoot(__dirname) ?? '.';

/** Folders (every .ts below them) and single files that must not import the editor. */
const EDITOR_FREE = [
  'src/api',
  'src/agentRun',
  'src/search/session',
  'src/versions',
  'src/words',
  'src/storage/sharedRecords.ts',
  'src/storage/sharedCollection.ts',
  'src/webview/searchController.ts',
  'src/webview/viewChannel.ts',
  'src/webview/searchViewDeps.ts',
  'src/tools/toolOps.ts',
  'src/tools/searchOps.ts',
  'src/tools/toolInputs.ts',
  'src/tools/toolTypes.ts',
];

function files(p: string): string[] {
  if (!statSync(p).isDirectory()) return [p];
  return readdirSync(p)
    .flatMap((n) => files(join(p, n)))
    .filter((f) => f.endsWith('.ts'));
}

const VSCODE = /(?:from\s*|import\s*\(\s*|require\s*\(\s*)['"]vscode['"]/;

describe('house: editor-free modules', () => {
  it('no module in the editor-free folders and files imports vscode', () => {
    const all = EDITOR_FREE.flatMap((p) => files(join(root, p)));
    assert.ok(all.length > 40, `the list reads the sources (${all.length} files)`);
    const offenders = all.filter((f) => VSCODE.test(readFileSync(f, 'utf8'))).map((f) => relative(root, f));
    assert.deepEqual(offenders, []);
  });

  it('the check sees an import of vscode, type-only included', () => {
    assert.ok(VSCODE.test("import type * as vscode from 'vscode';"));
    assert.ok(VSCODE.test('const v = await import("vscode");'));
    assert.ok(!VSCODE.test('// the vscode glue is in searchViewProvider.ts'));
  });
});
