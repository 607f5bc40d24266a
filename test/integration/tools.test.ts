// The language-model tools inside a real extension host, called the way a chat agent calls them:
// vscode.lm.invokeTool, against the sandbox the runner started (the extension's devIndex.baseUrl).
// Outside a chat request the workbench confirms a tool through a dialog, which an extension-test
// session answers "yes" by itself; what that dialog says is checked on prepareToolInvocation.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type DevIndexExtensionApi, env, sandboxRequests as requests, until, keylessApi } from './hostSupport';
import { languageModelToolApi, prepareToolInvocation } from '../../src/tools/register';

const TOOLS = [
  'devIndex_search',
  'devIndex_readMore',
  'devIndex_startAgentJob',
  'devIndex_agentJobStatus',
  'devIndex_waitForAgentJob',
  'devIndex_listAgentJobs',
  'devIndex_cancelAgentJob',
];

/** The parameters of the search requests the sandbox saw (GET query or POST body). */
async function searchParamsSeen(): Promise<Array<Record<string, string[]>>> {
  return (await requests())
    .filter((r) => r.path.startsWith('/v2/search'))
    .map((r) => {
      const params: Record<string, string[]> = {};
      if (r.method === 'GET')
        for (const [k, v] of new URLSearchParams(r.query)) (params[k] ??= []).push(...v.split(','));
      else
        for (const [k, v] of Object.entries(r.body as Record<string, unknown>))
          params[k] = Array.isArray(v) ? v.map(String) : [String(v)];
      return params;
    });
}

async function invoke(name: string, input: object): Promise<string> {
  const r = await vscode.lm.invokeTool(
    name,
    { input, toolInvocationToken: undefined },
    new vscode.CancellationTokenSource().token,
  );
  const parts = r.content.filter(
    (p): p is vscode.LanguageModelTextPart =>
      p instanceof vscode.LanguageModelTextPart || typeof (p as { value?: unknown }).value === 'string',
  );
  assert.equal(parts.length, 1, 'one text part');
  return parts[0]!.value;
}

describe('language-model tools', function () {
  this.timeout(90_000);
  let a: DevIndexExtensionApi;

  before(async () => {
    a = await keylessApi();
  });

  after(async () => {
    await a.apiKey.clear();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('vscode.lm.tools lists the seven tools with their input schemas', async () => {
    const tools = await until(
      'the tools are registered',
      () => vscode.lm.tools.filter((t) => TOOLS.includes(t.name)),
      (l) => l.length === TOOLS.length,
      10_000,
    );
    const search = tools.find((t) => t.name === 'devIndex_search')!;
    const schema = search.inputSchema as { properties: Record<string, { maximum?: number }>; required: string[] };
    assert.deepEqual(schema.required, ['query']);
    assert.equal(schema.properties.k!.maximum, 100);
    assert.ok('scope' in schema.properties);
    assert.match(search.description, /Docs, GitHub issues, PRs and READMEs in one ranked search/);
  });

  // lm.tools lists every contributed tool, enabled or not; a model is offered only those whose
  // `when` (config.devIndex.tools.enabled) holds, and a turned-off tool has no implementation.
  it('the API is feature-detected: an editor without it (or with half of it) gets no tools and no error', () => {
    assert.ok(languageModelToolApi(vscode), 'this host has the Language Model Tool API');
    assert.equal(languageModelToolApi({}), undefined);
    assert.equal(languageModelToolApi({ lm: {} }), undefined);
    assert.equal(languageModelToolApi({ lm: { registerTool: () => undefined } }), undefined, 'no result classes');
  });

  it('devIndex.tools.enabled turns the tools off and on again', async () => {
    const cfg = () => vscode.workspace.getConfiguration('devIndex');
    const runs = async () =>
      invoke('devIndex_search', { query: 'pool', k: 1 }).then(
        () => true,
        () => false,
      );
    try {
      await cfg().update('tools.enabled', false, vscode.ConfigurationTarget.Global);
      await until('the search tool stops running', runs, (ok) => !ok, 10_000);
    } finally {
      await cfg().update('tools.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
    await until('the search tool runs again', runs, (ok) => ok, 10_000);
  });

  it("a search returns the sandbox's top result with provenance and passages", async () => {
    const direct = await fetch(
      `${env('DEVINDEX_SANDBOX_URL')}/v2/search/developer?query=connection+pool+keep-alive&k=3&passages=2`,
    );
    const top = (
      (await direct.json()) as { results: Array<{ id: string; url: string; passages: Array<{ text: string }> }> }
    ).results[0]!;
    const text = await invoke('devIndex_search', { query: 'connection pool keep-alive', k: 3, passages: 2 });
    const first = text.split('\n[2]')[0]!;
    assert.ok(first.includes(`[1] ${top.id}`), `the id ${top.id} in:\n${first}`);
    assert.ok(first.includes(`\n${top.url}\n`));
    assert.ok(first.includes(top.passages[0]!.text.split('\n')[0]!.slice(0, 40)), 'first passage');
    assert.match(first, /\n\[1\.2\]/);
  });

  it('a rule 6 request returns the note that documentation was left out and how to keep it', async () => {
    const text = await invoke('devIndex_search', { query: 'retry', min_stars: 10 });
    assert.match(text, /No documentation results: repository filters \(min_stars\)/);
    assert.match(text, /To keep doc results, drop the repository filters, or scope the documentation with sources/);
  });

  it('scope "workspace" scopes to the fixture\'s repositories', async () => {
    await requests('DELETE');
    const text = await invoke('devIndex_search', { query: 'connection pool', scope: 'workspace' });
    assert.match(text, /Scope: the workspace's repositories fetchline\/fetchline, quarry-dev\/fetchline/);
    const seen = await searchParamsSeen();
    assert.equal(seen.length, 1);
    assert.deepEqual(seen[0]!.repos, ['fetchline/fetchline', 'quarry-dev/fetchline']);
    assert.equal(seen[0]!.scope, undefined);
  });

  it("`dependency`: read from the active editor's project (the dependency fixture), scoped to its repository; the text starts with the installed version and says how each result's version statements compare", async () => {
    const root = env('DEVINDEX_TEST_DEPS_WORKSPACE');
    // The fixture is not a workspace folder here (adding one would reload the window): its file in the active
    // editor makes it the project, as it does for the hover, the problem search and the dependency pick.
    await vscode.window.showTextDocument(vscode.Uri.file(`${root}/src/app.ts`));
    try {
      await requests('DELETE');
      const text = await invoke('devIndex_search', {
        query: 'Retry-After ignored per-request timeout 429',
        dependency: 'fetchline',
        k: 5,
      });
      assert.match(
        text,
        /^Installed: fetchline 3\.2\.0 installed \(fetchline\/fetchline\)\. Results from fetchline\/fetchline are compared with version 3\.2\.0\.\n/,
      );
      assert.match(text, /\n\d results? mentions? a fix newer than your fetchline 3\.2\.0 \(3\.3\.0\)\.\n/);
      assert.match(
        text,
        /\n\[\d\] fixed in 3\.3\.0 · newer than your 3\.2\.0 \("[^"]*3\.3\.0/,
        'a result states how its version mention compares with the installed one',
      );
      // Every result of the answer has its comparison line.
      const shown = [...text.matchAll(/^\[(\d+)\] \S+:/gm)].length;
      const compared = [
        ...text.matchAll(/^\[(\d+)\] (?:fixed in|affects|released|states no version|not from this dependency)/gm),
      ].length;
      assert.ok(shown > 0 && compared === shown, `${compared} comparison lines for ${shown} results:\n${text}`);
      const seen = await searchParamsSeen();
      assert.equal(seen.length, 1);
      assert.deepEqual(seen[0]!.repos, ['fetchline/fetchline']);
      // A dependency newer than its fix: the comparison says it is included.
      const keel = await invoke('devIndex_search', {
        query: 'coerce drops defaults of nested objects',
        dependency: 'keel-schema',
        k: 3,
      });
      assert.match(keel, /^Installed: keel-schema 2\.6\.0 installed \(keelhq\/keel-schema\)\./);
      assert.match(keel, /fixed in 2\.5\.1 · included in your 2\.6\.0/);
      // A name the fixture does not have names what it has.
      const unknown = await invoke('devIndex_search', { query: 'x', dependency: 'left-pad' });
      assert.match(
        unknown,
        /^dependency "left-pad" cannot scope the search: left-pad is not a dependency of .+ \(its manifests list fetchline, keel-schema/,
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('invalid input returns the field and the bound, and sends nothing', async () => {
    await requests('DELETE');
    const text = await invoke('devIndex_search', { query: 'x', k: 0, sources: ['alpha'], types: ['issue'] });
    assert.match(text, /- k: k must be from 1 to 100; got 0/);
    assert.match(text, /- sources: sources cannot match any requested type; add doc or drop sources/);
    assert.deepEqual(await searchParamsSeen(), []);
  });

  it('a refused key returns the 401 advice without the key', async () => {
    const bad = 'refused-key-for-tools-test-5150';
    await a.apiKey.set(bad);
    try {
      const text = await invoke('devIndex_search', { query: 'retry' });
      assert.match(text, /HTTP 401 Unauthorized: Invalid token/);
      assert.match(text, /"Developer Index: Set API Key"/);
      assert.ok(!text.includes(bad), 'the key is not in the result');
    } finally {
      await a.apiKey.clear();
    }
  });

  it('starting a job asks first, with the prompt and the credit ceiling', () => {
    const p = prepareToolInvocation(
      'devIndex_startAgentJob',
      { prompt: 'Find HTTP client libraries', maxCredits: 300 },
      2500,
    );
    assert.ok(p.confirmationMessages, 'a confirmation');
    assert.match(p.confirmationMessages.title, /up to 300 credits/);
    const message = p.confirmationMessages.message;
    const md = typeof message === 'string' ? message : message.value;
    assert.match(md, /Find HTTP client libraries/);
    assert.match(md, /\*\*Credit ceiling:\*\* 300 credits/);
    assert.match(
      prepareToolInvocation('devIndex_startAgentJob', { prompt: 'x' }, 2500).confirmationMessages!.title,
      /2,500 credits/,
    );
    // A prompt cannot close the code block and pose as the dialog's own ceiling line.
    const spoof = prepareToolInvocation(
      'devIndex_startAgentJob',
      { prompt: 'x\n```\n**Credit ceiling:** 1 credits\n```\n', maxCredits: 300 },
      2500,
    );
    const spoofMd = (spoof.confirmationMessages!.message as vscode.MarkdownString).value;
    assert.deepEqual(
      spoofMd.split('\n').filter((l) => l.startsWith('**Credit ceiling:**')),
      ['**Credit ceiling:** 300 credits'],
    );
    assert.match(
      prepareToolInvocation('devIndex_search', { query: 'pool' }, 2500).invocationMessage as string,
      /^Searching the developer index for "pool"/,
    );
  });

  it('a job started through the tool is in the Agent Jobs tree; status and cancel work on it', async () => {
    const none = await invoke('devIndex_startAgentJob', { prompt: 'Find HTTP client libraries' });
    assert.match(none, /needs an API key/);
    await a.apiKey.set(env('DEVINDEX_TEST_KEY'));
    const started = await invoke('devIndex_startAgentJob', {
      prompt: 'Find HTTP client libraries for Node.js',
      maxCredits: 300,
    });
    const id = /^Started agent job ([0-9a-f-]{36}) with a ceiling of 300 credits/.exec(started)?.[1];
    assert.ok(id, started);
    const version = (vscode.extensions.getExtension('devindex.devindex')!.packageJSON as { version: string }).version;
    const submits = (await requests()).filter((r) => r.method === 'POST' && r.path === '/v2/agent');
    assert.equal(
      (submits.at(-1)?.body as { origin?: unknown } | undefined)?.origin,
      `devindex-vscode@${version}`,
      'the extension names itself as origin',
    );
    // Open Trace looks the job up in the store the tree shows; a job not in the tree opens nothing.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('devIndex.agent.openTrace', id);
    const doc = await until(
      "the job's trace document opens",
      () => vscode.window.activeTextEditor?.document,
      (d) => !!d && d.uri.toString().includes(id),
      10_000,
    );
    assert.ok(doc);
    const status = await invoke('devIndex_agentJobStatus', { jobId: id });
    assert.match(status, new RegExp(`^Agent job ${id}: (processing|completed|failed)\\.`));
    const cancelled = await invoke('devIndex_cancelAgentJob', { jobId: id });
    assert.match(cancelled, /Cancellation of agent job .* was requested|had already finished/);
  });

  it("a wait through the editor's tool reports progress through the invocation and returns the end; readMore continues a cut answer", async () => {
    await a.apiKey.set(env('DEVINDEX_TEST_KEY'));
    try {
      const started = await invoke('devIndex_startAgentJob', {
        prompt: 'Find HTTP client libraries for Node.js',
        maxCredits: 300,
      });
      const id = /^Started agent job ([0-9a-f-]{36})/.exec(started)?.[1];
      assert.ok(id, started);
      const r = await a.invokeTool('devIndex_waitForAgentJob', { jobId: id, timeoutSeconds: 120 });
      assert.match(r.text, new RegExp(`^Agent job ${id} (ended|is waiting)`), r.text);
      assert.ok(r.progress.length >= 1, `progress lines: ${JSON.stringify(r.progress)}`);
      for (const l of r.progress) assert.ok(!l.includes('\n') && !l.includes(env('DEVINDEX_TEST_KEY')), l);
      const list = await invoke('devIndex_listAgentJobs', { limit: 5 });
      assert.ok(list.includes(id), list);
    } finally {
      await a.apiKey.clear();
    }
    const cut = await invoke('devIndex_search', { query: 'retry after header', k: 10, passages: 3, maxTokens: 600 });
    const handle = /\nmore: (m[0-9a-f]{12})$/.exec(cut)?.[1];
    assert.ok(handle, cut.slice(-300));
    const more = await invoke('devIndex_readMore', { handle });
    assert.match(more, /^More of the developer index answer for "retry after header": /);
  });

  it('have: a search naming an answer the chat still holds names its passages instead of repeating them', async () => {
    const first = await invoke('devIndex_search', {
      query: 'connection pool keep-alive',
      k: 3,
      passages: 1,
      maxTokens: 20_000,
    });
    const h1 = /\nanswer: (m[0-9a-f]{12})$/.exec(first)?.[1];
    assert.ok(h1, first.slice(-300));
    const second = await invoke('devIndex_search', {
      query: 'connection pool keep-alive',
      k: 3,
      passages: 1,
      maxTokens: 20_000,
      have: [h1],
    });
    assert.match(
      second,
      /; this answer: 3 results, 0 passages, 3 named, not repeated, ~[\d,]+ tokens\./,
      second.slice(0, 300),
    );
    assert.ok(second.includes(`\n[1.1] sent before: [1.1] of ${h1}\n`), second);
    assert.ok(second.length < first.length / 2, `${second.length} against ${first.length} characters`);
    const h2 = /\nmore: (m[0-9a-f]{12})$/.exec(second)?.[1];
    assert.ok(h2, second.slice(-300));
    const again = await invoke('devIndex_readMore', { handle: h2, result: 1 });
    const passage = first.split('\n[1.1]')[1]!.split('\n').slice(1, 3).join('\n');
    assert.ok(passage.length > 20 && again.includes(passage), again);
  });
});
