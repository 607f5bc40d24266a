// In a real extension host: the dependency fixture (scripts/vscode/depsFixture.mjs, made beside
// the repository-scope workspace by the runner) with package.json, a small node_modules, a go.mod and
// src/app.ts whose `import ... from 'keel-schema'` is a TypeScript problem (TS7016 under strict).
// Every search runs through the Search view against the sandbox.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type DevIndexExtensionApi, until as pollUntil } from './hostSupport';

interface SearchOutcome {
  params: { query: string; repos?: string[]; [k: string]: unknown };
  response?: { results: Array<{ id: string; type: string }>; repos?: Array<{ repo: string; indexed: boolean }> };
  error?: string;
}
interface Api {
  lastSearch(): SearchOutcome | undefined;
  apiKey: { clear(): Promise<void> };
  view: DevIndexExtensionApi['view'];
}
interface Row {
  name: string;
  ecosystem: string;
  slug?: string;
  version?: string;
  reason?: string;
  indexed?: boolean;
  types?: { issue: boolean; pullRequest: boolean; readme: boolean };
}

function env(name: string): string {
  const v = process.env[name];
  assert.ok(v, `${name} is not set: run this suite with npm run test:host`);
  return v;
}

/** Reads `fn` until it gives a value (hostSupport's poll). */
async function until<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, ms = 30_000): Promise<T> {
  return (await pollUntil(what, fn, (v) => v !== undefined, ms, 150)) as T;
}

async function searchesSeen(): Promise<Array<Record<string, unknown>>> {
  const r = await fetch(`${env('DEVINDEX_SANDBOX_URL')}/__sandbox/requests`);
  const all = ((await r.json()) as { requests: Array<{ method: string; path: string; query: string; body: unknown }> })
    .requests;
  return all
    .filter((x) => x.path.startsWith('/v2/search'))
    .map((x) =>
      x.method === 'GET' ? Object.fromEntries(new URLSearchParams(x.query)) : (x.body as Record<string, unknown>),
    );
}
const clearSeen = () => fetch(`${env('DEVINDEX_SANDBOX_URL')}/__sandbox/requests`, { method: 'DELETE' });

async function searchDone(a: Api, query: string, previous: SearchOutcome | undefined): Promise<SearchOutcome> {
  return until(
    `a finished search for ${JSON.stringify(query)}`,
    () => {
      const o = a.lastSearch();
      return o && o !== previous && o.params.query === query && (o.response || o.error !== undefined) ? o : undefined;
    },
    20_000,
  );
}

const asArray = (v: unknown): string[] =>
  Array.isArray(v) ? v.map(String) : typeof v === 'string' ? v.split(',') : [];

describe('search from problems, imports, dependencies and the terminal', function () {
  this.timeout(120_000);
  let a: Api;
  let root: string;
  let doc: vscode.TextDocument;
  let problem: vscode.Diagnostic;

  before(async () => {
    root = env('DEVINDEX_TEST_DEPS_WORKSPACE');
    a = (await vscode.extensions.getExtension('devindex.devindex')!.activate()) as Api;
    doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(root, 'src', 'app.ts')));
    await vscode.window.showTextDocument(doc, { preview: false });
    // The TypeScript server reports the import problem on the 'keel-schema' specifier.
    problem = await until(
      'the TypeScript problem on the keel-schema import',
      () => vscode.languages.getDiagnostics(doc.uri).find((d) => doc.getText(d.range).includes('keel-schema')),
      90_000,
    );
  });

  after(async () => {
    // Leave the Search view without a repository scope for the suites that follow.
    await vscode.commands.executeCommand('devIndex.search.run', {
      query: 'reset after the dependency suite',
      repos: [],
    });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the code action appears on the problem, names the repository, and runs a search scoped to it', async () => {
    const ours = await until('the code action scoped to keelhq/keel-schema (cache warm)', async () => {
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        doc.uri,
        problem.range,
      );
      const mine = actions.filter((x) => x.title.startsWith('Search Developer Index for this problem'));
      assert.ok(mine.length >= 1, `our action is offered: ${actions.map((x) => x.title).join(' | ')}`);
      // The title carries the installed version (the fixture installs keel-schema 2.6.0).
      return mine.find((x) => x.title.endsWith('in keelhq/keel-schema (2.6.0 installed)'));
    });
    assert.equal(ours.command?.command, 'devIndex.deps.searchProblem');
    await clearSeen();
    const before = a.lastSearch();
    const ran = await vscode.commands.executeCommand<{ query: string; repos?: string[]; installed?: unknown }>(
      ours.command!.command,
      ...(ours.command!.arguments ?? []),
    );
    assert.deepEqual(ran.repos, ['keelhq/keel-schema']);
    assert.deepEqual(
      ran.installed,
      [{ ecosystem: 'npm', name: 'keel-schema', slug: 'keelhq/keel-schema', version: '2.6.0' }],
      'the search carries the installed version',
    );
    assert.ok(
      !ran.query.includes(root) && !ran.query.includes('node_modules'),
      `no absolute path in the query: ${ran.query}`,
    );
    assert.match(ran.query, /declaration file for module 'keel-schema'/);
    const o = await searchDone(a, ran.query, before);
    assert.equal(o.error, undefined, `the search failed: ${o.error}`);
    assert.deepEqual(o.params.repos, ['keelhq/keel-schema']);
    const wire = await searchesSeen();
    assert.equal(wire.length, 1);
    assert.deepEqual(asArray(wire[0]!.repos), ['keelhq/keel-schema'], 'the wire carries the scope');
    const repoResults = o.response!.results.filter((r) => r.type !== 'doc');
    assert.ok(repoResults.length > 0, 'the sandbox found repository results');
    assert.ok(
      repoResults.every((r) => r.id.includes('keelhq/keel-schema')),
      `only the scoped repository: ${repoResults.map((r) => r.id).join(', ')}`,
    );
    assert.deepEqual(
      o.response!.repos?.map((e) => [e.repo, e.indexed]),
      [['keelhq/keel-schema', true]],
      'the echo says it is indexed',
    );
  });

  it('a problem from another source points into a package by its related information or module path', async () => {
    const coll = vscode.languages.createDiagnosticCollection('deps-test');
    try {
      const d = new vscode.Diagnostic(
        new vscode.Range(3, 0, 3, 5),
        'panic: rate limiter closed in github.com/gridworks/tollgate/v2/limiter',
        vscode.DiagnosticSeverity.Error,
      );
      const r = new vscode.Diagnostic(
        new vscode.Range(3, 0, 3, 5),
        "Type 'Options' is not assignable to type 'RetryPolicy'.",
        vscode.DiagnosticSeverity.Error,
      );
      r.relatedInformation = [
        new vscode.DiagnosticRelatedInformation(
          new vscode.Location(
            vscode.Uri.file(path.join(root, 'node_modules', 'trialrun', 'index.d.ts')),
            new vscode.Position(0, 0),
          ),
          'declared here',
        ),
      ];
      coll.set(doc.uri, [d, r]);
      const titles = await until('scoped actions for both injected problems', async () => {
        const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
          'vscode.executeCodeActionProvider',
          doc.uri,
          new vscode.Range(3, 0, 3, 5),
        );
        const t = actions.map((x) => x.title);
        // Each title says the installed version (go.mod's v2.1.0; trialrun's node_modules 1.0.0).
        return t.includes('Search Developer Index for this problem in gridworks/tollgate (v2.1.0 installed)') &&
          t.includes('Search Developer Index for this problem in trialrun/trialrun (1.0.0 installed)')
          ? t
          : undefined;
      });
      assert.ok(titles.length >= 2);
    } finally {
      coll.dispose();
    }
  });

  it("the import hover links to the package's issues and repository", async () => {
    const line = doc.lineAt(1).text;
    const pos = new vscode.Position(1, line.indexOf('keel-schema') + 3);
    const md = await until('our hover on the keel-schema import', async () => {
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, pos);
      const texts = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)));
      return texts.find((t) => t.includes('command:devIndex.deps.searchPackage'));
    });
    assert.match(md, /\[Search issues of keel-schema\]\(command:devIndex\.deps\.searchPackage\?/);
    assert.match(md, /\[Open keelhq\/keel-schema\]\(command:devIndex\.deps\.openRepository\?/);
    const args = decodeURIComponent(/devIndex\.deps\.searchPackage\?([^ )]+)/.exec(md)![1]!);
    assert.deepEqual(JSON.parse(args), [
      { name: 'keel-schema', slug: 'keelhq/keel-schema', ecosystem: 'npm', version: '2.6.0' },
    ]);
    const fetchPos = new vscode.Position(0, doc.lineAt(0).text.indexOf('fetchline') + 2);
    const other = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      fetchPos,
    );
    assert.ok(
      other
        .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)))
        .some((t) => t.includes('Open fetchline/fetchline')),
    );
    // The link's command runs a search of that repository's issues and pull requests.
    await clearSeen();
    const before = a.lastSearch();
    await vscode.commands.executeCommand(
      'devIndex.deps.searchPackage',
      { name: 'keel-schema', slug: 'keelhq/keel-schema' },
      'strict unknown keys nested',
    );
    const o = await searchDone(a, 'strict unknown keys nested', before);
    assert.deepEqual(o.params.repos, ['keelhq/keel-schema']);
    assert.deepEqual(o.params.types, ['issue', 'pull_request']);
  });

  it("the dependency pick lists the slugs with the echo's indexed flags and scopes the search", async () => {
    await clearSeen();
    const before = a.lastSearch();
    const out = await vscode.commands.executeCommand<{ rows: Row[]; repos?: string[] }>(
      'devIndex.deps.searchDependency',
      { folder: root, pick: ['trialrun', 'github.com/gridworks/tollgate/v2'], query: 'flaky retries' },
    );
    const by = Object.fromEntries(out.rows.map((r) => [r.name, r]));
    assert.equal(by.fetchline?.slug, 'fetchline/fetchline');
    assert.equal(by.fetchline?.indexed, true);
    assert.equal(by['@orbit-editor/webview-toolkit']?.slug, 'orbit-editor/webview-toolkit');
    assert.equal(by.shapeshift?.slug, 'harborlight/shapeshift');
    assert.equal(by.shapeshift?.indexed, false, 'the corpus lists harborlight/shapeshift as not indexed');
    assert.deepEqual(by['github.com/gridworks/tollgate/v2']?.types, { issue: true, pullRequest: false, readme: true });
    assert.equal(by['golang.org/x/net']?.indexed, false);
    assert.match(by['gitlab-only']?.reason ?? '', /not on GitHub.*gitlab\.com/);
    assert.match(by['no-repository']?.reason ?? '', /no repository, homepage or bugs field/);
    assert.match(by['not-installed']?.reason ?? '', /not installed: run npm install/);
    assert.match(by['gitlab.com/acme/thing']?.reason ?? '', /not on GitHub/);
    assert.deepEqual(out.repos, ['trialrun/trialrun', 'gridworks/tollgate']);
    const o = await searchDone(a, 'flaky retries', before);
    assert.deepEqual(o.params.repos, ['trialrun/trialrun', 'gridworks/tollgate']);
    const wire = await searchesSeen();
    const echo = wire.filter((w) => w.query === 'README');
    assert.equal(echo.length, 1, 'one search for the echo');
    assert.equal(asArray(echo[0]!.k)[0], '1');
  });

  it('a terminal stack trace is searched without its noise, scoped to the package its frames point into', async () => {
    const trace = [
      "TypeError: Cannot read properties of undefined (reading 'budget')",
      `    at run (${root}/node_modules/trialrun/index.js:12:7)`,
      `    at main (${root}/src/app.js:3:1)`,
      '    at node:internal/main/run_main_module:28:49',
    ].join('\n');
    const before = a.lastSearch();
    const ran = await vscode.commands.executeCommand<{ query: string; repos?: string[]; installed?: unknown[] }>(
      'devIndex.deps.searchTerminalSelection',
      trace,
    );
    assert.equal(ran.query, "TypeError: Cannot read properties of undefined (reading 'budget')");
    assert.deepEqual(ran.repos, ['trialrun/trialrun']);
    // The version the frame's install states (node_modules/trialrun/package.json), carried to the view's chip.
    assert.deepEqual(ran.installed, [
      { ecosystem: 'npm', name: 'trialrun', slug: 'trialrun/trialrun', version: '1.0.0' },
    ]);
    const o = await searchDone(a, ran.query, before);
    assert.deepEqual(o.params.repos, ['trialrun/trialrun']);
    const posted = await until('the search posted to the webview', async () => {
      const p = a.view.lastSearch() as {
        searchStarted?: { params: { query: string }; installed?: unknown[] };
      };
      return p?.searchStarted?.params.query === ran.query ? p : undefined;
    });
    assert.deepEqual(posted.searchStarted!.installed, [
      { ecosystem: 'npm', name: 'trialrun', slug: 'trialrun/trialrun', version: '1.0.0' },
    ]);
  });

  it("a trace into an install outside the workspace carries that install's version, not the workspace's", async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'devindex-host-trace-'));
    try {
      fs.mkdirSync(path.join(elsewhere, 'node_modules', 'fetchline', 'dist'), { recursive: true });
      fs.writeFileSync(
        path.join(elsewhere, 'node_modules', 'fetchline', 'package.json'),
        JSON.stringify({ name: 'fetchline', version: '3.3.1', repository: 'github:fetchline/fetchline' }),
      );
      const trace = [
        "TypeError: Cannot read properties of undefined (reading 'headers')",
        `    at request (${elsewhere}/node_modules/fetchline/dist/client.js:211:31)`,
        `    at main (${elsewhere}/server.js:9:3)`,
      ].join('\n');
      const before = a.lastSearch();
      const ran = await vscode.commands.executeCommand<{ query: string; repos?: string[]; installed?: unknown[] }>(
        'devIndex.deps.searchTerminalSelection',
        trace,
      );
      assert.deepEqual(ran.repos, ['fetchline/fetchline']);
      assert.deepEqual(
        ran.installed,
        [{ ecosystem: 'npm', name: 'fetchline', slug: 'fetchline/fetchline', version: '3.3.1' }],
        "the frame's install (3.3.1), not the workspace's fetchline 3.2.0",
      );
      await searchDone(a, ran.query, before);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('the code action can be turned off', async () => {
    const cfg = vscode.workspace.getConfiguration('devIndex.dependencies');
    await cfg.update('codeAction', false, vscode.ConfigurationTarget.Global);
    try {
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        doc.uri,
        problem.range,
      );
      assert.ok(!actions.some((x) => x.title.startsWith('Search Developer Index')), 'no action when off');
    } finally {
      await cfg.update('codeAction', undefined, vscode.ConfigurationTarget.Global);
    }
  });
  it('a folder with only a lockfile gets its versions from the lockfile worker (dist/lockfiles.js), not from dist/core.js', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'devindex-host-lock-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'package.json'),
        JSON.stringify({ dependencies: { 'keel-schema': '^2.0.0', 'left-pad': '^1.0.0' } }),
      );
      fs.writeFileSync(
        path.join(dir, 'package-lock.json'),
        JSON.stringify({
          name: 'x',
          lockfileVersion: 3,
          packages: {
            '': { dependencies: { 'keel-schema': '^2.0.0', 'left-pad': '^1.0.0' } },
            'node_modules/keel-schema': { version: '2.7.1' },
            'node_modules/left-pad': { version: '1.3.0' },
          },
        }),
      );
      const rows = (
        await vscode.commands.executeCommand<{ rows: Row[] }>('devIndex.deps.searchDependency', {
          folder: dir,
          pick: [],
        })
      ).rows;
      assert.deepEqual(
        rows.map((r) => [r.name, r.version]),
        [
          ['keel-schema', '2.7.1'],
          ['left-pad', '1.3.0'],
        ],
      );
      const ext = vscode.extensions.getExtension('devindex.devindex')!;
      const core = fs.readFileSync(path.join(ext.extensionPath, 'dist', 'core.js'), 'utf8');
      assert.ok(!/smol-toml|parseSyml|js-yaml/.test(core), 'the lockfile parsers are not in dist/core.js');
      assert.ok(fs.existsSync(path.join(ext.extensionPath, 'dist', 'lockfiles.js')));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  // Last: it changes the fixture.
  it("a changed manifest is read again (the folder's watcher drops the cached resolution)", async () => {
    const rows = async () =>
      (
        await vscode.commands.executeCommand<{ rows: Row[] }>('devIndex.deps.searchDependency', {
          folder: root,
          pick: [],
        })
      ).rows;
    assert.equal(
      (await rows()).find((r) => r.name === 'ratelane-js'),
      undefined,
      'not a dependency yet',
    );
    const fs = await import('node:fs');
    fs.mkdirSync(path.join(root, 'node_modules', 'ratelane-js'), { recursive: true });
    fs.writeFileSync(
      path.join(root, 'node_modules', 'ratelane-js', 'package.json'),
      JSON.stringify({ name: 'ratelane-js', repository: 'https://github.com/ferrous-labs/ratelane' }),
    );
    const pkgFile = path.join(root, 'package.json');
    const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8')) as { dependencies: Record<string, string> };
    pkg.dependencies['ratelane-js'] = '^0.4.0';
    fs.writeFileSync(pkgFile, JSON.stringify(pkg, null, 2));
    const added = await until(
      'the new dependency in the pick',
      async () => (await rows()).find((r) => r.name === 'ratelane-js'),
      20_000,
    );
    assert.equal(added.slug, 'ferrous-labs/ratelane');
    assert.equal(added.indexed, true);
  });
});
