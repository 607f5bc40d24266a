// Search inside a real extension host, against the sandbox the runner started (its URL is the
// extension's devIndex.baseUrl). Every search goes the way a user's does: command -> Search view
// (a real webview) -> extension -> sandbox; the suite reads the outcome through the test surface
// (`lastSearch()`) and what went over the wire through the sandbox's /__sandbox/requests.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  type DevIndexExtensionApi,
  env,
  sandboxRequests as sandbox,
  type LastSearch,
  type SeenRequest,
  keylessApi,
  until,
} from './hostSupport';

/** The search requests the sandbox saw since the last clear, with their parameters decoded (GET or POST). */
async function searchesSeen(): Promise<Array<{ params: Record<string, string[]>; auth: SeenRequest['auth'] }>> {
  return (await sandbox('GET'))
    .filter((r) => r.path.startsWith('/v2/search'))
    .map((r) => {
      const params: Record<string, string[]> = {};
      if (r.method === 'GET') {
        for (const [k, v] of new URLSearchParams(r.query)) (params[k] ??= []).push(v);
      } else if (r.body && typeof r.body === 'object') {
        for (const [k, v] of Object.entries(r.body as Record<string, unknown>))
          params[k] = Array.isArray(v) ? v.map(String) : [String(v)];
      }
      return { params, auth: r.auth };
    });
}

/**
 * Waits until the extension finished a search for `query` that began after `previous` (the outcome
 * object is replaced on every search, so a re-run of the same query is told apart).
 */
async function searchDone(
  a: DevIndexExtensionApi,
  query: string,
  previous: LastSearch | undefined,
  ms = 20_000,
): Promise<LastSearch> {
  const o = await until(
    `a finished search for ${JSON.stringify(query)}`,
    () => a.lastSearch(),
    (v) => !!v && v !== previous && v.params.query === query && (!!v.response || v.error !== undefined),
    ms,
    100,
  );
  return o!;
}

async function closeEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/**
 * Opens `content` from a file (not an untitled document: closing a dirty one would ask to save and
 * leave it active) and selects from `start` to `end`; returns once it is the active editor.
 */
async function openWithSelection(
  name: string,
  content: string,
  select: (doc: vscode.TextDocument) => vscode.Selection,
): Promise<vscode.TextEditor> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'devindex-selection-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  editor.selection = select(doc);
  await until(
    `${name} as the active editor`,
    () => vscode.window.activeTextEditor?.document === doc,
    (active) => active,
    5000,
    50,
  );
  return editor;
}

describe('search commands against the sandbox', function () {
  this.timeout(60_000);
  let a: DevIndexExtensionApi;

  before(async () => {
    a = await keylessApi();
  });

  after(async () => {
    await a?.apiKey.clear();
    await closeEditors();
  });

  it('devIndex.search.run with a query runs it in the Search view and returns sandbox results, keyless', async () => {
    await sandbox('DELETE');
    const before = a.lastSearch();
    await vscode.commands.executeCommand('devIndex.search.run', 'retry on 429 with Retry-After');
    const o = await searchDone(a, 'retry on 429 with Retry-After', before);
    assert.equal(o.error, undefined, `the search failed: ${o.error}`);
    const ids = o.response!.results.map((r) => r.id);
    assert.ok(
      ids.includes('issue:fetchline/fetchline#412'),
      `the corpus's retry issue is among the results: ${ids.join(', ')}`,
    );
    // The sessions' sandbox speaks the production wire: no `type` on the wire, doc ids are doc:<url>.
    assert.ok(
      o.response!.results.some((r) => r.type === 'doc' && r.url.startsWith('https://fetchline.dev/')),
      `a fetchline doc page is among the results: ${ids.join(', ')}`,
    );
    assert.ok(
      o.response!.results.every((r) => r.type === r.id.slice(0, r.id.indexOf(':'))),
      'every kind is read from the id prefix',
    );
    // Production sends licenses only to keyed callers: a keyless search carries none.
    assert.ok(
      o.response!.results.every((r) => (r as { license?: unknown }).license === undefined),
      'a keyless response carries no license',
    );
    const seen = await searchesSeen();
    assert.equal(seen.length, 1, `exactly one search went out: ${JSON.stringify(seen)}`);
    assert.deepEqual(seen[0]!.params.query, ['retry on 429 with Retry-After']);
    assert.equal(seen[0]!.auth, 'none', 'no key is set, so no Authorization header is sent (keyless search)');
  });

  it('devIndex.search.selection searches the whitespace-folded selection', async () => {
    const content = [
      'export function pool() {',
      '  // connection pool',
      '\tkeep-alive    timeout',
      '',
      '  return 1;',
      '}',
    ].join('\n');
    const editor = await openWithSelection('pool.ts', content, () => new vscode.Selection(1, 5, 4, 2));
    assert.equal(
      editor.document.getText(editor.selection),
      'connection pool\n\tkeep-alive    timeout\n\n  ',
      'a multi-line selection with tabs, runs of spaces and a blank line',
    );
    await sandbox('DELETE');
    const before = a.lastSearch();
    await vscode.commands.executeCommand('devIndex.search.selection');
    const o = await searchDone(a, 'connection pool keep-alive timeout', before);
    assert.equal(o.error, undefined, `the search failed: ${o.error}`);
    assert.ok(o.response!.results.length > 0, 'the folded selection finds corpus documents');
    const seen = await searchesSeen();
    assert.deepEqual(
      seen.map((s) => s.params.query),
      [['connection pool keep-alive timeout']],
    );
    await closeEditors();
  });

  it('devIndex.search.selection cuts a long selection at a word boundary', async () => {
    const words = Array.from({ length: 120 }, (_, i) => `word${i}`);
    const content = words.slice(0, 60).join('  ') + '\n' + words.slice(60).join('\n    ');
    const folded = words.join(' ');
    assert.ok(folded.length > 400);
    await openWithSelection(
      'long.txt',
      content,
      (doc) => new vscode.Selection(0, 0, doc.lineCount - 1, doc.lineAt(doc.lineCount - 1).text.length),
    );
    // The longest run of whole words that fits in 400 characters.
    let expected = '';
    for (const w of words) {
      if ((expected ? `${expected} ${w}` : w).length > 400) break;
      expected = expected ? `${expected} ${w}` : w;
    }
    const before = a.lastSearch();
    await sandbox('DELETE');
    await vscode.commands.executeCommand('devIndex.search.selection');
    const o = await searchDone(a, expected, before);
    const q = o.params.query;
    assert.ok(q.length <= 400 && folded.length > q.length, `cut to at most 400 characters (got ${q.length})`);
    assert.ok(
      folded.startsWith(q) && folded[q.length] === ' ',
      'the start of the folded selection, cut at a word boundary',
    );
    assert.match(q, /^word0 word1 word2 /);
    const seen = await searchesSeen();
    assert.deepEqual(
      seen.map((s) => s.params.query),
      [[q]],
      'the cut query is what was sent',
    );
    await closeEditors();
  });

  it('devIndex.search.history records searches and re-runs a past one', async () => {
    const first = 'zod schema unknown keys';
    const second = 'test runner timeout flaky';
    let before = a.lastSearch();
    await vscode.commands.executeCommand('devIndex.search.run', first);
    await searchDone(a, first, before);
    before = a.lastSearch();
    await vscode.commands.executeCommand('devIndex.search.run', second);
    await searchDone(a, second, before);

    // Newest first: index 1 is the first query, index 0 the second.
    await sandbox('DELETE');
    before = a.lastSearch();
    await vscode.commands.executeCommand('devIndex.search.history', 1);
    const rerun = await searchDone(a, first, before);
    assert.ok(
      rerun.response!.results.some((r) => r.type === 'doc' && r.url.startsWith('https://keel-schema.dev/')),
      'the re-run finds keel-schema docs again',
    );
    assert.deepEqual(
      (await searchesSeen()).map((s) => s.params.query),
      [[first]],
    );

    // Re-running moved the first query to the front, so index 1 is now the second query.
    await sandbox('DELETE');
    before = a.lastSearch();
    await vscode.commands.executeCommand('devIndex.search.history', 1);
    await searchDone(a, second, before);
    assert.deepEqual(
      (await searchesSeen()).map((s) => s.params.query),
      [[second]],
    );
  });

  it('401: an invalid key fails with the Unauthorized message, which never holds the key', async () => {
    const bad = 'devindex-not-a-valid-key-5e1f0c2a9b';
    await a.apiKey.set(bad); // Set API Key would check it and refuse it (HTTP 401); the store takes it as it is
    assert.equal(await a.apiKey.get(), bad);
    await sandbox('DELETE');
    const before = a.lastSearch();
    await vscode.commands.executeCommand('devIndex.search.run', 'webview content security policy');
    const o = await searchDone(a, 'webview content security policy', before);
    assert.equal(o.response, undefined);
    assert.equal(o.status, 401);
    assert.match(o.error ?? '', /Unauthorized: Invalid token/);
    assert.ok(!(o.error ?? '').includes(bad), 'the key is not in the error message');
    assert.ok(!JSON.stringify(o).includes(bad), 'the key is nowhere in the outcome');
    const seen = await searchesSeen();
    assert.ok(
      seen.length >= 1 && seen.every((s) => s.auth === 'invalid'),
      `the key was sent and refused: ${JSON.stringify(seen)}`,
    );
    assert.equal(seen.length, 1, '401 is not retried (spec: no retry)');
  });

  it('key round trip: set through the command, searches carry it; cleared, searches go keyless', async () => {
    const key = env('DEVINDEX_TEST_KEY');
    assert.equal(await vscode.commands.executeCommand('devIndex.auth.setKey', key), true);
    assert.equal(await a.apiKey.get(), key);
    await sandbox('DELETE');
    let before = a.lastSearch();
    await vscode.commands.executeCommand('devIndex.search.run', 'connection pool');
    let o = await searchDone(a, 'connection pool', before);
    assert.equal(o.error, undefined, `with a valid key: ${o.error}`);
    assert.deepEqual(
      (await searchesSeen()).map((s) => s.auth),
      ['valid'],
    );
    const settings = fs.readFileSync(env('DEVINDEX_TEST_USER_SETTINGS'), 'utf8');
    assert.ok(!settings.includes(key), 'the key is not in the user settings file');

    assert.equal(await vscode.commands.executeCommand('devIndex.auth.clearKey'), true);
    assert.equal(await a.apiKey.get(), undefined);
    await sandbox('DELETE');
    before = a.lastSearch();
    await vscode.commands.executeCommand('devIndex.search.run', 'keep-alive');
    o = await searchDone(a, 'keep-alive', before);
    assert.equal(o.error, undefined, `keyless: ${o.error}`);
    assert.deepEqual(
      (await searchesSeen()).map((s) => s.auth),
      ['none'],
    );
  });

  it('the Developer Index log records each request (method, path, status, attempts, ms) and never the key', async () => {
    const key = env('DEVINDEX_TEST_KEY');
    const badKey = 'devindex-LOGCHECK-wrong-key-4242';
    const logs = path.join(path.dirname(path.dirname(env('DEVINDEX_TEST_USER_SETTINGS'))), 'logs');
    const files = (dir: string): string[] =>
      (fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []).flatMap((d) =>
        d.isDirectory() ? files(path.join(dir, d.name)) : [path.join(dir, d.name)],
      );

    await a.apiKey.set(key);
    let before = a.lastSearch();
    await vscode.commands.executeCommand('devIndex.search.run', 'log check with a key');
    assert.equal((await searchDone(a, 'log check with a key', before)).error, undefined);
    await a.apiKey.set(badKey);
    before = a.lastSearch();
    await vscode.commands.executeCommand('devIndex.search.run', 'log check with a refused key');
    assert.equal((await searchDone(a, 'log check with a refused key', before)).status, 401);
    await a.apiKey.clear();

    // The channel writes its file asynchronously: wait for both request lines.
    const text = await until(
      "both request lines in the channel's file",
      () =>
        files(logs)
          .filter((f) => path.basename(f).includes('Developer Index'))
          .map((f) => fs.readFileSync(f, 'utf8'))
          .join('\n'),
      (t) =>
        /GET \/v2\/search\/developer 200 · 1 attempt · \d+ ms/.test(t) &&
        /GET \/v2\/search\/developer 401 · 1 attempt · \d+ ms/.test(t),
      10_000,
      100,
    );
    assert.match(
      text,
      /GET \/v2\/search\/developer 200 · 1 attempt · \d+ ms/,
      'a request line for the search with a key',
    );
    assert.match(text, /GET \/v2\/search\/developer 401 · 1 attempt · \d+ ms/, 'a request line for the refused key');
    for (const f of files(logs)) {
      const content = fs.readFileSync(f, 'utf8');
      assert.ok(!content.includes(key) && !content.includes(badKey), `a key appears in ${path.relative(logs, f)}`);
    }
  });

  it('a changed devIndex.search.k applies to the next search in the open view, without a reload', async () => {
    const cfg = () => vscode.workspace.getConfiguration('devIndex');
    await cfg().update('search.k', 7, vscode.ConfigurationTarget.Global);
    // update() can resolve before this extension host has taken the change (and run its listeners).
    await until(
      'this extension host has devIndex.search.k 7',
      () => cfg().get('search.k'),
      (k) => k === 7,
      5000,
      100,
    );
    try {
      await sandbox('DELETE');
      const before = a.lastSearch();
      await vscode.commands.executeCommand('devIndex.search.run', 'keep-alive timeout');
      const o = await searchDone(a, 'keep-alive timeout', before);
      assert.equal(o.error, undefined, `the search failed: ${o.error}`);
      assert.equal(o.params.k, 7);
      assert.deepEqual((await searchesSeen())[0]?.params.k, ['7'], 'the wire carries the new k');
    } finally {
      await cfg().update('search.k', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('devIndex.search.repository says so, and sends nothing, for a folder on another host or with no repository', async () => {
    const { execFileSync } = await import('node:child_process');
    const make = (name: string, remotes: Record<string, string> | undefined): vscode.Uri => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `devindex-${name}-`));
      if (remotes) {
        execFileSync('git', ['init', '-q'], { cwd: dir });
        for (const [n, url] of Object.entries(remotes)) execFileSync('git', ['remote', 'add', n, url], { cwd: dir });
      }
      return vscode.Uri.file(dir);
    };
    await sandbox('DELETE');
    const gitlab = await vscode.commands.executeCommand('devIndex.search.repository', {
      folder: make('gitlab', { origin: 'git@gitlab.com:acme/http-kit.git' }),
      query: 'retry',
    });
    assert.deepEqual(gitlab, { kind: 'unsupported-host', hosts: ['gitlab.com'] });
    const noRemote = await vscode.commands.executeCommand('devIndex.search.repository', {
      folder: make('noremote', {}),
      query: 'retry',
    });
    assert.deepEqual(noRemote, { kind: 'no-repository' });
    const noGit = await vscode.commands.executeCommand('devIndex.search.repository', {
      folder: make('nogit', undefined),
      query: 'retry',
    });
    assert.deepEqual(noGit, { kind: 'no-repository' });
    assert.deepEqual(await searchesSeen(), [], 'no search was sent for any of them');
  });

  // Last: a repository-scoped search leaves its repos in the view's filters for later bare queries.
  it('devIndex.search.repository scopes repos to the workspace remotes, upstream first', async () => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.equal(folders.length, 1, 'the runner opens the fixture workspace');
    await sandbox('DELETE');
    const before = a.lastSearch();
    const outcome = await vscode.commands.executeCommand('devIndex.search.repository', {
      query: 'retry on 429 with Retry-After',
    });
    assert.deepEqual(outcome, { kind: 'searched', repos: ['fetchline/fetchline', 'quarry-dev/fetchline'] });
    const o = await searchDone(a, 'retry on 429 with Retry-After', before);
    assert.equal(o.error, undefined, `the search failed: ${o.error}`);
    assert.deepEqual(o.params.repos, ['fetchline/fetchline', 'quarry-dev/fetchline']);
    const seen = await searchesSeen();
    assert.equal(seen.length, 1);
    assert.deepEqual(
      seen[0]!.params.repos,
      ['fetchline/fetchline', 'quarry-dev/fetchline'],
      'the wire carries both slugs',
    );
    const repoIds = o.response!.results.filter((r) => r.type !== 'doc').map((r) => r.id);
    assert.ok(repoIds.length > 0, 'repository results came back');
    assert.ok(
      repoIds.every((id) => /(fetchline\/fetchline|quarry-dev\/fetchline)/.test(id)),
      `only the scoped repositories: ${repoIds.join(', ')}`,
    );
    assert.ok(
      repoIds.some((id) => id.includes('fetchline/fetchline#')),
      `the upstream's issues are found: ${repoIds.join(', ')}`,
    );
  });

  // After the repository search above: the scope stays on screen, and a selection search uses exactly it.
  it('Search in This Repository, then Search Selection: the selection runs with the repositories chip, and the view shows that scope', async () => {
    const before = a.lastSearch();
    await vscode.commands.executeCommand('devIndex.search.repository', { query: 'retry on 429 with Retry-After' });
    await searchDone(a, 'retry on 429 with Retry-After', before);
    await openWithSelection('scope.ts', 'const why = "backoff jitter";\n', () => new vscode.Selection(0, 13, 0, 27));
    await sandbox('DELETE');
    const mid = a.lastSearch();
    await vscode.commands.executeCommand('devIndex.search.selection');
    const o = await searchDone(a, 'backoff jitter', mid);
    assert.equal(o.error, undefined, `the search failed: ${o.error}`);
    assert.deepEqual(
      o.params.repos,
      ['fetchline/fetchline', 'quarry-dev/fetchline'],
      'the selection search kept the repository scope',
    );
    assert.deepEqual(
      (await searchesSeen()).map((x) => x.params.repos),
      [['fetchline/fetchline', 'quarry-dev/fetchline']],
      'and sent it',
    );
    // The webview reports what its form and chip row show once it has taken the search in.
    const shown = await until(
      "the view shows the selection's query",
      async () => a.view.shownScope() as { query?: string; repos?: string[] } | undefined,
      (v) => v?.query === 'backoff jitter',
      10_000,
      100,
    );
    assert.equal(shown?.query, 'backoff jitter', `the view shows the selection's query: ${JSON.stringify(shown)}`);
    assert.deepEqual(
      shown?.repos,
      ['fetchline/fetchline', 'quarry-dev/fetchline'],
      'and the repositories chip it used',
    );
    await closeEditors();
  });

  it('Open as Markdown opens a read-only document named after the result, which closes without a save prompt', async () => {
    await closeEditors();
    const markdown = '# Retry after 429\n\n## Passage 1\n\nWait for `Retry-After`.\n';
    const uri = await vscode.commands.executeCommand<vscode.Uri>('devIndex.search.openDocument', {
      id: 'issue:fetchline/fetchline#412',
      title: 'Retry: honour 429',
      markdown,
    });
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'a document is open');
    assert.equal(editor.document.uri.toString(), uri.toString());
    assert.equal(editor.document.uri.scheme, 'devindex-result', "served by the extension's content provider");
    assert.match(editor.document.uri.path, /\/Retry honour 429\.md$/, 'named after the result');
    assert.equal(editor.document.languageId, 'markdown');
    assert.equal(editor.document.getText(), markdown);
    assert.equal(editor.document.isUntitled, false, 'not an Untitled document');
    assert.equal(editor.document.isDirty, false, 'nothing to save');
    assert.equal(
      vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'untitled').length,
      0,
      'no Untitled document was made',
    );
    // Even after an edit through the API (the editor itself refuses typing in a provider's document),
    // closing asks nothing: an Untitled or file document with changes would hold the close on a save dialog.
    await Promise.resolve(editor.edit((b) => b.insert(new vscode.Position(0, 0), 'x'))).catch(() => false);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    const open = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString());
    assert.equal(open.length, 0, 'closed at once: no save prompt held it open');
  });
});
