// Dependency Fixes in a real extension host: Check Dependencies for Fixes on the dependency fixture (fetchline 3.2.0
// installed, the sandbox's fetchline issues state fixes in 3.3.0), the view's rows as the tree gives them, the
// information diagnostic on package.json's fetchline line, its Quick Fix revealing the row, and devIndex_fixes.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, env, sandboxRequests, type DevIndexExtensionApi } from './hostSupport';
import type { FixesFeature } from '../../src/fixesView/fixesFeature';
import type { FixesOutcome } from '../../src/fixes/report';

type WithFixes = DevIndexExtensionApi & { fixes(): FixesFeature | undefined };

describe('Dependency Fixes', function () {
  this.timeout(90_000);
  let a: WithFixes;
  let folder: vscode.Uri;
  let outcome: FixesOutcome | undefined;

  before(async () => {
    a = (await api()) as WithFixes;
    await a.apiKey.set(env('DEVINDEX_TEST_KEY'));
    folder = vscode.Uri.file(env('DEVINDEX_TEST_DEPS_WORKSPACE'));
    await sandboxRequests('DELETE');
    outcome = await vscode.commands.executeCommand<FixesOutcome | undefined>('devIndex.fixes.check', folder);
  });

  after(async () => {
    await a.apiKey.clear();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('checks each dependency on GitHub with one search scoped to its repository', async () => {
    assert.ok(outcome, 'the command resolves with the outcome');
    const searched = (await sandboxRequests()).filter((r) => r.path.startsWith('/v2/search'));
    assert.equal(searched.length, outcome.report.searches);
    assert.ok(outcome.report.dependencies.some((d) => d.name === 'fetchline' && d.installed === '3.2.0'));
    assert.ok(
      outcome.report.skipped.some((s) => s.name === 'gitlab-only'),
      JSON.stringify(outcome.report.skipped),
    );
  });

  it("the view: fetchline's row says installed → fixed-in and how many, its fixes are its children", () => {
    const tree = a.fixes()!.tree;
    const rows = tree.getChildren();
    const fetchline = rows.find((r) => r.label === 'fetchline');
    assert.ok(fetchline, `rows: ${rows.map((r) => String(r.label)).join(' | ')}`);
    assert.match(String(fetchline.description), /^3\.2\.0 → 3\.3\.0 · \d+ fix(es)?/);
    assert.match(fetchline.accessibilityInformation!.label, /^fetchline: 3\.2\.0 installed lacks \d+ fix/);
    assert.equal(fetchline.contextValue, 'dependency;fixes');
    const fixes = tree.getChildren(fetchline);
    assert.ok(fixes.length >= 1);
    for (const f of fixes) {
      assert.match(String(f.description), /^(fixed in|affects) /);
      assert.equal(f.command?.command, 'devIndex.fixes.openFix');
      assert.match(f.contextValue!, /^fix;(lacked|affecting);link$/);
    }
    // The skipped ones in one line.
    const skipped = rows.filter((r) => String(r.label).startsWith('Skipped '));
    assert.equal(skipped.length, 1);
    assert.match(String(skipped[0]!.label), /gitlab-only/);
  });

  it("an information diagnostic on package.json's fetchline line, whose Quick Fix reveals the row", async () => {
    const manifest = vscode.Uri.joinPath(folder, 'package.json');
    const doc = await vscode.workspace.openTextDocument(manifest);
    const diags = vscode.languages.getDiagnostics(manifest).filter((d) => d.source === 'Developer Index');
    const d = diags.find((x) => x.message.startsWith('fetchline 3.2.0 lacks'));
    assert.ok(d, diags.map((x) => x.message).join(' | '));
    assert.equal(d.severity, vscode.DiagnosticSeverity.Information);
    assert.equal(doc.getText(d.range), 'fetchline');
    await vscode.window.showTextDocument(doc);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      manifest,
      d.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const show = actions.find((x) => x.title === 'Show the fixes fetchline lacks (Dependency Fixes)');
    assert.ok(show, actions.map((x) => x.title).join(' | '));
    assert.equal(await vscode.commands.executeCommand(show.command!.command, ...show.command!.arguments!), true);
  });

  it('a second check answers from the day’s cache: no search is sent', async () => {
    await sandboxRequests('DELETE');
    const again = await vscode.commands.executeCommand<FixesOutcome>('devIndex.fixes.check', folder);
    assert.equal(again.report.searches, 0);
    assert.equal((await sandboxRequests()).filter((r) => r.path.startsWith('/v2/search')).length, 0);
  });

  it('devIndex_fixes gives a model the same report, provenance first', async () => {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder, 'src', 'app.ts'));
    await vscode.window.showTextDocument(doc);
    const r = await a.invokeTool('devIndex_fixes', { dependencies: ['fetchline'] });
    assert.match(r.text, /^Fixes check of .*: 1 dependency checked/);
    assert.match(
      r.text,
      /fetchline 3\.2\.0 installed \(npm, github\.com\/fetchline\/fetchline, package\.json:\d+\)\n- fixed in 3\.3\.0: /,
    );
  });
});
