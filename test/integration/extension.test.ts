// First extension-host suite: activation, every contribution registered, the API key kept in
// SecretStorage only, and `devIndex.baseUrl` read live. Runs inside a real extension host.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, extension, until } from './hostSupport';

interface Contributes {
  commands?: Array<{ command: string; title: string }>;
  viewsContainers?: Record<string, Array<{ id: string }>>;
  views?: Record<string, Array<{ id: string; type?: string; visibility?: string }>>;
  menus?: Record<string, Array<{ command: string; when?: string; group?: string }>>;
  configuration?: { properties?: Record<string, unknown> } | Array<{ properties?: Record<string, unknown> }>;
}

/** package.json as it is on disk now, so the suite keeps up as contributions are added. */
function contributes(): Contributes {
  const pkg = JSON.parse(fs.readFileSync(path.join(extension().extensionPath, 'package.json'), 'utf8'));
  return pkg.contributes ?? {};
}

function settingKeys(): string[] {
  const c = contributes().configuration;
  const blocks = Array.isArray(c) ? c : c ? [c] : [];
  return blocks.flatMap((b) => Object.keys(b.properties ?? {}));
}

describe('extension', () => {
  it('activates without error', async () => {
    const ext = extension();
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('returns the test surface from activate()', async () => {
    const a = await api();
    assert.match(a.baseUrl(), /^https?:\/\//);
  });
});

describe('contributions', () => {
  const c = contributes();

  it('package.json contributes the view container, the views and commands', () => {
    const containers = Object.values(c.viewsContainers ?? {})
      .flat()
      .map((v) => v.id);
    const views = Object.values(c.views ?? {})
      .flat()
      .map((v) => v.id);
    assert.ok(
      containers.includes('devIndex'),
      `view container devIndex not contributed (have: ${containers.join(', ') || 'none'})`,
    );
    assert.ok(
      views.includes('devIndex.search') && views.includes('devIndex.jobs'),
      `views devIndex.search and devIndex.jobs not contributed (have: ${views.join(', ') || 'none'})`,
    );
    assert.ok((c.commands ?? []).length > 0, 'no command contributed');
  });

  it('Search view contributions: Agent Jobs starts collapsed, the selection entry has its own group and name, the view title has Refresh, Clear and Collapse All', () => {
    const jobs = Object.values(c.views ?? {})
      .flat()
      .find((v) => v.id === 'devIndex.jobs');
    assert.equal(jobs?.visibility, 'collapsed', 'someone who only searches gets the side bar for Search');
    const entry = (c.menus?.['editor/context'] ?? []).find((m) => m.command === 'devIndex.search.selection');
    assert.ok(
      entry?.group && !entry.group.startsWith('navigation'),
      `its own group below the navigation items: ${entry?.group}`,
    );
    assert.equal(
      (c.commands ?? []).find((x) => x.command === 'devIndex.search.selection')?.title,
      'Search Developer Index for Selection',
    );
    const title = (c.menus?.['view/title'] ?? [])
      .filter((m) => m.when === 'view == devIndex.search' && m.group?.startsWith('navigation'))
      .map((m) => m.command);
    for (const id of ['devIndex.search.refresh', 'devIndex.search.clear', 'devIndex.search.collapseAll'])
      assert.ok(title.includes(id), `${id} in the Search view title: ${title.join(', ')}`);
  });

  for (const { command } of c.commands ?? []) {
    it(`registers command ${command}`, async () => {
      await extension().activate();
      const all = await vscode.commands.getCommands(true);
      assert.ok(all.includes(command), `${command} is contributed but not registered`);
    });
  }

  for (const id of Object.values(c.viewsContainers ?? {})
    .flat()
    .map((v) => v.id)) {
    it(`opens view container ${id}`, async () => {
      const all = await vscode.commands.getCommands(true);
      assert.ok(all.includes(`workbench.view.extension.${id}`), `view container ${id} is not registered`);
      await vscode.commands.executeCommand(`workbench.view.extension.${id}`);
    });
  }

  for (const view of Object.values(c.views ?? {}).flat()) {
    it(`registers ${view.type ?? 'tree'} view ${view.id}`, async () => {
      await extension().activate();
      const all = await vscode.commands.getCommands(true);
      // The workbench adds `<view>.focus` for every registered view; running it resolves the view.
      assert.ok(all.includes(`${view.id}.focus`), `view ${view.id} is not registered`);
      await vscode.commands.executeCommand(`${view.id}.focus`);
    });
  }
});

describe('API key', () => {
  const key = `dk-roundtrip-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  let previous: string | undefined;

  before(async () => {
    previous = await (await api()).apiKey.get();
  });
  after(async () => {
    const a = await api();
    if (previous) await a.apiKey.set(previous);
    else await a.apiKey.clear();
  });

  it('round-trips through SecretStorage', async () => {
    const a = await api();
    await a.apiKey.set(key);
    assert.equal(await a.apiKey.get(), key);
    await a.apiKey.clear();
    assert.equal(await a.apiKey.get(), undefined);
    await a.apiKey.set(key);
    assert.equal(await a.apiKey.get(), key);
  });

  it('never appears in settings', async () => {
    const a = await api();
    await a.apiKey.set(key);
    const cfg = vscode.workspace.getConfiguration();
    for (const k of settingKeys()) {
      const seen = JSON.stringify(cfg.inspect(k) ?? {});
      assert.ok(!seen.includes(key), `setting ${k} holds the API key`);
    }
    const files = [
      process.env.DEVINDEX_TEST_USER_SETTINGS,
      ...(vscode.workspace.workspaceFolders ?? []).map((f) => path.join(f.uri.fsPath, '.vscode', 'settings.json')),
    ];
    for (const f of files) {
      if (f && fs.existsSync(f)) assert.ok(!fs.readFileSync(f, 'utf8').includes(key), `${f} holds the API key`);
    }
  });
});

describe('devIndex.baseUrl', () => {
  const cfg = () => vscode.workspace.getConfiguration('devIndex');
  let original: unknown;
  before(() => {
    original = cfg().inspect('baseUrl')?.globalValue;
  });
  after(async () => {
    await cfg().update('baseUrl', original, vscode.ConfigurationTarget.Global);
  });

  it('starts at the value in user settings', async () => {
    // The runners (test-host, test-electron) start the sandbox and write its URL to user settings.
    const sandbox = process.env.DEVINDEX_SANDBOX_URL;
    assert.ok(sandbox, 'DEVINDEX_SANDBOX_URL is not set: run this suite with npm run test:host');
    assert.equal((await api()).baseUrl().replace(/\/$/, ''), sandbox.replace(/\/$/, ''));
  });

  it('takes effect without a reload', async () => {
    const a = await api();
    const next = 'http://127.0.0.1:9/devindex-test-prefix';
    await cfg().update('baseUrl', next, vscode.ConfigurationTarget.Global);
    await until(
      'baseUrl() after changing devIndex.baseUrl',
      () => a.baseUrl().replace(/\/$/, ''),
      (v) => v === next,
    );
    await cfg().update('baseUrl', 'http://127.0.0.1:9/second', vscode.ConfigurationTarget.Global);
    await until(
      'baseUrl() after a second change',
      () => a.baseUrl().replace(/\/$/, ''),
      (v) => v === 'http://127.0.0.1:9/second',
    );
  });
});
