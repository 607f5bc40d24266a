// The walkthrough in a real extension host: the first activation (this run's user data is
// new: a first install) opened "Get Started with Developer Index" once; the rule run again opens
// nothing; after forgetting, it opens exactly once more (observed through the test's opener, then
// through the real workbench command, whose editor tab is looked for); the setting turned off opens
// nothing. The opener is the seam: executeCommand('workbench.action.openWalkthrough', ref) in the product.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, type DevIndexExtensionApi, until } from './hostSupport';

type Walkthrough = NonNullable<DevIndexExtensionApi['walkthrough']>;

function observer(): { calls: string[]; open: (ref: string) => Promise<void> } {
  const calls: string[] = [];
  return {
    calls,
    open: async (ref) => {
      calls.push(ref);
    },
  };
}

const walkthroughTabs = () =>
  vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => !(t.input instanceof vscode.TabInputText) && /Developer Index|Welcome|Walkthrough/i.test(t.label));

describe('walkthrough on first run', function () {
  this.timeout(60_000);
  let w: Walkthrough;

  before(async () => {
    const a = await api();
    assert.ok(a.walkthrough, 'the test surface has no walkthrough handle');
    w = a.walkthrough;
  });

  after(async () => {
    await vscode.workspace
      .getConfiguration('devIndex')
      .update('walkthrough.openOnFirstRun', undefined, vscode.ConfigurationTarget.Global);
    // Leave it remembered, as after a real first run.
    await w.runFirstRun(async () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the first activation opened the walkthrough (a fresh user data folder is a first install)', async () => {
    assert.equal(await w.atActivation, 'opened');
    assert.equal(w.ref, 'devindex.devindex#devIndex.gettingStarted');
  });

  it('run again, the rule opens nothing: it was shown', async () => {
    const o = observer();
    assert.equal(await w.runFirstRun(o.open), 'already-shown');
    assert.deepEqual(o.calls, []);
  });

  it('forgotten (a first install again), it opens the walkthrough exactly once', async () => {
    await w.forget();
    const o = observer();
    assert.equal(await w.runFirstRun(o.open), 'opened');
    assert.equal(await w.runFirstRun(o.open), 'already-shown');
    assert.equal(await w.runFirstRun(o.open), 'already-shown');
    assert.deepEqual(o.calls, ['devindex.devindex#devIndex.gettingStarted']);
  });

  it('with devIndex.walkthrough.openOnFirstRun off, nothing opens on a first install', async () => {
    await w.forget();
    await vscode.workspace
      .getConfiguration('devIndex')
      .update('walkthrough.openOnFirstRun', false, vscode.ConfigurationTarget.Global);
    const o = observer();
    assert.equal(await w.runFirstRun(o.open), 'disabled');
    assert.deepEqual(o.calls, []);
    await vscode.workspace
      .getConfiguration('devIndex')
      .update('walkthrough.openOnFirstRun', undefined, vscode.ConfigurationTarget.Global);
  });

  it('through the real workbench command, the walkthrough opens in an editor tab', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.deepEqual(
      walkthroughTabs().map((t) => t.label),
      [],
    );
    await w.forget();
    assert.equal(await w.runFirstRun(), 'opened');
    const tabs = await until(
      'a walkthrough tab',
      () => walkthroughTabs().map((t) => t.label),
      (l) => l.length > 0,
      15_000,
    );
    assert.equal(tabs.length, 1, JSON.stringify(tabs));
  });
});
