// The `@devindex` chat participant in a real extension host, against the sandbox. No chat
// model or chat view runs here (code-server offline, no chat provider), so the participant's own handler is
// called through the test surface's chat.handle (src/testHooks/surface.ts) with a recording response stream, a
// cancellation token of the test's and, for the answer, a fake model object shaped as vscode.LanguageModelChat.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, type DevIndexExtensionApi, env, sandboxRequests as requests, until, keylessApi } from './hostSupport';
import { chatApi, PARTICIPANT_ID } from '../../src/chat/register';

interface Part {
  kind: 'markdown' | 'progress' | 'reference' | 'button' | 'anchor' | 'other';
  value: unknown;
  icon?: unknown;
}

/** A ChatResponseStream that records what the participant streams, in order. */
class Recorder {
  readonly parts: Part[] = [];
  onProgress?: (value: string) => void;
  markdown(v: string | vscode.MarkdownString): void {
    this.parts.push({ kind: 'markdown', value: typeof v === 'string' ? v : v.value });
  }
  progress(v: string): void {
    this.parts.push({ kind: 'progress', value: v });
    this.onProgress?.(v);
  }
  reference(v: vscode.Uri | vscode.Location, icon?: unknown): void {
    this.parts.push({ kind: 'reference', value: v, icon });
  }
  button(c: vscode.Command): void {
    this.parts.push({ kind: 'button', value: c });
  }
  anchor(v: unknown): void {
    this.parts.push({ kind: 'anchor', value: v });
  }
  filetree(v: unknown): void {
    this.parts.push({ kind: 'other', value: v });
  }
  push(p: unknown): void {
    this.parts.push({ kind: 'other', value: p });
  }
  text(): string {
    return this.parts
      .filter((p) => p.kind === 'markdown')
      .map((p) => p.value as string)
      .join('');
  }
  references(): string[] {
    return this.parts.filter((p) => p.kind === 'reference').map((p) => (p.value as vscode.Uri).toString(true));
  }
  kinds(): string[] {
    return this.parts.map((p) => p.kind);
  }
}

/** A stand-in for the chat's model: records the prompts it gets and streams the given answer (or throws). */
function fakeModel(answer: string[] | Error): { model: vscode.LanguageModelChat; prompts: string[] } {
  const prompts: string[] = [];
  const model = {
    id: 'fake-model',
    name: 'Fake Model',
    vendor: 'tests',
    family: 'fake',
    version: '1',
    maxInputTokens: 16_000,
    countTokens: async () => 1,
    sendRequest: async (messages: vscode.LanguageModelChatMessage[]) => {
      prompts.push(
        messages
          .map((m) =>
            typeof m.content === 'string'
              ? m.content
              : (m.content as Array<{ value?: unknown }>).map((p) => String(p.value ?? '')).join(''),
          )
          .join('\n'),
      );
      if (answer instanceof Error) throw answer;
      return {
        text: (async function* () {
          for (const a of answer) yield a;
        })(),
        stream: (async function* () {
          /* not read */
        })(),
      };
    },
  };
  return { model: model as unknown as vscode.LanguageModelChat, prompts };
}

function request(prompt: string, command?: string, model?: vscode.LanguageModelChat): vscode.ChatRequest {
  return {
    prompt,
    command,
    references: [],
    toolReferences: [],
    toolInvocationToken: undefined,
    ...(model ? { model } : {}),
  } as unknown as vscode.ChatRequest;
}

type Ports = { pick?: (deps: Array<{ name: string }>) => Promise<unknown> };

async function ask(
  req: vscode.ChatRequest,
  stream: Recorder,
  token?: vscode.CancellationToken,
  ports?: Ports,
): Promise<vscode.ChatResult> {
  return (await api()).chat.handle(
    req,
    stream as unknown as vscode.ChatResponseStream,
    token,
    ports as Parameters<DevIndexExtensionApi['chat']['handle']>[3],
  );
}

async function followups(result: vscode.ChatResult): Promise<vscode.ChatFollowup[]> {
  return (await api()).chat.followups(result);
}

async function searchesSeen(): Promise<Array<Record<string, string[]>>> {
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

async function sandbox(pathName: string, method: 'POST' | 'DELETE', body?: unknown): Promise<number> {
  const r = await fetch(`${env('DEVINDEX_SANDBOX_URL')}${pathName}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  await r.text();
  return r.status;
}

/** The results the sandbox itself gives for a query (what the participant must show and reference). */
async function direct(
  query: string,
  extra = '',
): Promise<Array<{ id: string; url: string; passages: Array<{ citation_url?: string }> }>> {
  const r = await fetch(
    `${env('DEVINDEX_SANDBOX_URL')}/v2/search/developer?query=${encodeURIComponent(query)}${extra}`,
  );
  return (
    (await r.json()) as { results: Array<{ id: string; url: string; passages: Array<{ citation_url?: string }> }> }
  ).results;
}

describe('the @devindex chat participant', function () {
  this.timeout(90_000);
  let a: DevIndexExtensionApi;
  const root = () => env('DEVINDEX_TEST_DEPS_WORKSPACE');

  before(async () => {
    a = await keylessApi();
  });

  after(async () => {
    await sandbox('/__sandbox/faults', 'DELETE');
    await a?.apiKey.clear();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the chat participant API is there, and package.json declares the participant the extension creates', () => {
    assert.ok(chatApi(vscode), 'this host has vscode.chat.createChatParticipant');
    assert.equal(chatApi({}), undefined);
    const pkg = vscode.extensions.getExtension('devindex.devindex')!.packageJSON as {
      contributes: { chatParticipants: Array<{ id: string; name: string }> };
    };
    assert.deepEqual(
      pkg.contributes.chatParticipants.map((p) => [p.id, p.name]),
      [[PARTICIPANT_ID, 'devindex']],
    );
  });

  it('/search without a model: progress, one reference per result (citation link first), the results as markdown, no answer', async () => {
    const query = 'connection pool keep-alive';
    const expected = await direct(query);
    assert.ok(expected.length >= 2, 'the sandbox has results for the query');
    await requests('DELETE');
    const s = new Recorder();
    const result = await ask(request(query, 'search'), s);
    assert.equal(result.errorDetails, undefined, JSON.stringify(result.errorDetails));
    assert.equal(s.kinds()[0], 'progress');
    assert.match(s.parts[0]!.value as string, /^Searching the developer index for "connection pool keep-alive"$/);
    // Every result in the references list, in rank order, with its passage's citation link where it has one.
    const links = expected.map((r) => r.passages.find((p) => p.citation_url)?.citation_url ?? r.url);
    assert.deepEqual(s.references(), links);
    const text = s.text();
    assert.match(text, new RegExp(`^\\*\\*${expected.length} results\\*\\* for “connection pool keep\\\\-alive”\\.`));
    expected.forEach((r, i) =>
      assert.ok(
        text.includes(`\n${i + 1}. [`) && text.includes(`](${r.url})`),
        `result ${i + 1} (${r.url}) is listed with its link:\n${text}`,
      ),
    );
    assert.doesNotMatch(text, /\*\*Answer\*\*/);
    assert.equal((result.metadata as { results: number }).results, expected.length);
    const seen = await searchesSeen();
    assert.equal(seen.length, 1, 'one search');
    assert.deepEqual(seen[0]!.query, [query]);
  });

  it("/search with a model: the model reads the tools' numbered results and its answer cites them as links; an answer citing nothing is not shown", async () => {
    const query = 'connection pool keep-alive';
    const expected = await direct(query);
    const { model, prompts } = fakeModel(['Keep-alive keeps sockets ', 'open in the pool [1]; see also [2] and [99].']);
    const s = new Recorder();
    await ask(request(query, 'search', model), s);
    assert.equal(prompts.length, 1);
    assert.match(prompts[0]!, /Never state a fact, a version or a fix that no passage states/);
    assert.match(prompts[0]!, /\nQuestion: connection pool keep-alive\n/);
    assert.ok(
      prompts[0]!.includes(`[1] ${expected[0]!.id}`) && prompts[0]!.includes(`[2] ${expected[1]!.id}`),
      "the evidence is the search tool's numbered text",
    );
    const text = s.text();
    const link1 = expected[0]!.passages.find((p) => p.citation_url)?.citation_url ?? expected[0]!.url;
    assert.ok(
      text.includes(
        `**Answer** (Fake Model, from the results below)\n\nKeep-alive keeps sockets open in the pool [[1]](${link1}); see also [[2]](`,
      ),
      text,
    );
    assert.doesNotMatch(text, /\[99\]/, 'a citation of no result is removed');
    assert.ok(
      text.startsWith('**Answer**') && text.indexOf('\n1. [') > text.indexOf('[[1]]'),
      'the answer comes first, then the results it cites',
    );

    const silent = fakeModel(['The pool is fine.']);
    const s2 = new Recorder();
    await ask(request(query, undefined, silent.model), s2);
    assert.match(
      s2.text(),
      /^The model's answer cited none of the results, so it is not shown; the results below are the answer\.\n\n\*\*\d+ results\*\* for /,
    );
    assert.equal(s2.references().length, expected.length, 'a request without a command searches');
  });

  it('a model that fails leaves the results standing', async () => {
    const { model } = fakeModel(new Error('no consent to use the model'));
    const s = new Recorder();
    const result = await ask(request('connection pool keep-alive', 'search', model), s);
    assert.equal(result.errorDetails, undefined);
    assert.ok(s.references().length > 0);
    assert.match(
      s.text(),
      /^The chat's model did not answer \(no consent to use the model\); the results below are the answer\.\n\n\*\*\d+ results\*\* for /,
    );
  });

  describe("scoped to a dependency of the active editor's project (the dependency fixture)", () => {
    before(async () => {
      // The fixture is not a workspace folder in this tier: its file in the active editor makes it the project.
      await vscode.window.showTextDocument(vscode.Uri.file(path.join(root(), 'src', 'app.ts')));
    });
    after(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    it("/issues fetchline: the repository's issues and pull requests, badges against 3.2.0, and a follow-up to /fixed", async () => {
      await requests('DELETE');
      const s = new Recorder();
      const result = await ask(request('fetchline Retry-After ignored per-request timeout 429', 'issues'), s);
      assert.equal(result.errorDetails, undefined, JSON.stringify(result.errorDetails));
      const seen = await searchesSeen();
      assert.equal(seen.length, 1);
      assert.deepEqual(seen[0]!.repos, ['fetchline/fetchline']);
      assert.deepEqual(seen[0]!.types?.sort(), ['issue', 'pull_request']);
      assert.deepEqual(
        seen[0]!.query,
        ['Retry-After ignored per-request timeout 429'],
        "the dependency's name is not part of the question",
      );
      const text = s.text();
      assert.match(
        text,
        /Scoped to fetchline 3\\\.2\\\.0 installed \\\(fetchline\/fetchline\\\): its issues and pull requests\./,
      );
      assert.match(
        text,
        /\*\*\d results? mentions? a fix newer than your fetchline 3\\\.2\\\.0 \\\(3\\\.3\\\.0\\\)\\\.\*\*/,
      );
      assert.match(text, /\*\*Fixed in 3\\\.3\\\.0 · you have 3\\\.2\\\.0\*\*/);
      const n = (result.metadata as { results: number }).results;
      assert.ok(n > 0);
      assert.equal(s.references().length, n, 'every result is in the references list');
      assert.deepEqual(
        (await followups(result)).map((f) => [f.command, f.prompt, f.label]),
        [
          [
            'fixed',
            'fetchline Retry-After ignored per-request timeout 429',
            'Is this fixed in fetchline, and in which version?',
          ],
        ],
      );
    });

    it("/fixed with a model: the model is given the installed version and the comparisons; follow-ups to the fix's version and the whole index", async () => {
      const { model, prompts } = fakeModel(['Yes: fixed in 3.3.0 [1], newer than your 3.2.0.']);
      const s = new Recorder();
      const result = await ask(request('fetchline Retry-After ignored per-request timeout 429', 'fixed', model), s);
      assert.equal(result.errorDetails, undefined, JSON.stringify(result.errorDetails));
      assert.match(prompts[0]!, /fixed in fetchline, and in which version, against the installed 3\.2\.0/);
      assert.match(
        prompts[0]!,
        /\nInstalled: fetchline 3\.2\.0 installed \(fetchline\/fetchline\)\. Results from fetchline\/fetchline are compared with version 3\.2\.0\.\n/,
      );
      assert.match(prompts[0]!, /\n\[\d\] fixed in 3\.3\.0 · newer than your 3\.2\.0/);
      assert.match(
        s.text(),
        /^\*\*Answer\*\* \(Fake Model, from the results below\)\n\nYes: fixed in 3\.3\.0 \[\[1\]\]\(https:/,
      );
      assert.deepEqual(
        (await followups(result)).map((f) => [f.command, f.prompt]),
        [
          ['issues', 'fetchline 3.3.0'],
          ['search', 'Retry-After ignored per-request timeout 429'],
        ],
      );
    });

    it('/fixed without a model, on a dependency newer than its fix: the badge says it is included', async () => {
      const s = new Recorder();
      const result = await ask(request('keel-schema coerce drops defaults of nested objects', 'fixed'), s);
      assert.equal(result.errorDetails, undefined, JSON.stringify(result.errorDetails));
      assert.match(s.text(), /Fixed in 2\\\.5\\\.1 · included in your 2\\\.6\\\.0/);
    });

    it("/issues naming no dependency: the pick is offered; dismissed, the project's dependencies are named and offered as follow-ups; picked, it searches", async () => {
      const offered: string[][] = [];
      const s = new Recorder();
      const result = await ask(request('socket hang up', 'issues'), s, undefined, {
        pick: async (deps) => {
          offered.push(deps.map((d) => d.name));
          return undefined;
        },
      });
      assert.ok(
        offered[0]?.includes('fetchline') && offered[0].includes('keel-schema'),
        `the pick lists the dependencies with a repository: ${JSON.stringify(offered)}`,
      );
      assert.ok(!offered[0]!.includes('no-repository'), 'not one without a repository');
      assert.match(s.text(), /^Name one of this project's dependencies after `\/issues`, then the question/);
      assert.equal(s.references().length, 0);
      const f = await followups(result);
      assert.ok(
        f.length >= 1 && f.every((x) => x.command === 'issues' && x.prompt.endsWith(' socket hang up')),
        JSON.stringify(f),
      );

      await requests('DELETE');
      const s2 = new Recorder();
      await ask(request('socket hang up', 'issues'), s2, undefined, {
        pick: async (deps) => deps.find((d) => d.name === 'fetchline'),
      });
      assert.deepEqual((await searchesSeen())[0]!.repos, ['fetchline/fetchline']);
    });

    it("a dependency without a GitHub repository says so in the tools' words; nothing is searched", async () => {
      await requests('DELETE');
      const s = new Recorder();
      const result = await ask(request('no-repository crash on start', 'issues'), s);
      assert.match(
        result.errorDetails?.message ?? '',
        /^dependency "no-repository" cannot scope the search: no-repository has no GitHub repository to search in/,
      );
      assert.equal((await searchesSeen()).length, 0);
    });
  });

  it('cancellation stops the search in flight: nothing more is streamed', async () => {
    await requests('DELETE');
    assert.equal(
      await sandbox('/__sandbox/faults', 'POST', { faults: [{ kind: 'slow', ms: 60_000, path: '/v2/search' }] }),
      200,
    );
    const cts = new vscode.CancellationTokenSource();
    const s = new Recorder();
    const started = Date.now();
    const pending = ask(request('cancel me in flight', 'search'), s, cts.token);
    await until(
      'the sandbox is sent the search',
      () => searchesSeen(),
      (l) => l.some((p) => p.query?.[0] === 'cancel me in flight'),
      20_000,
    );
    cts.cancel();
    const result = await pending;
    assert.ok(Date.now() - started < 30_000, 'the handler ended long before the slow answer');
    assert.equal((result.metadata as { cancelled?: boolean }).cancelled, true);
    assert.deepEqual(s.kinds(), ['progress'], 'no results, references or error after the cancel');
    assert.equal(result.errorDetails, undefined);
    await sandbox('/__sandbox/faults', 'DELETE');
  });

  it("the keyless quota speaks in the tools' words and offers Set API Key", async () => {
    await a.apiKey.clear();
    assert.equal(
      await sandbox('/__sandbox/faults', 'POST', {
        faults: [
          {
            kind: 'status',
            status: 429,
            retryAfter: '86400',
            path: '/v2/search',
            error: "You've hit the keyless free tier rate limit for today.",
          },
        ],
      }),
      200,
    );
    const s = new Recorder();
    const result = await ask(request('keyless quota in chat', 'search'), s);
    assert.match(
      result.errorDetails?.message ?? '',
      /^The search was refused: Keyless searches are used up until .+; an API key is not limited by the keyless quota \(request id [0-9a-f-]{36}\)\. What to do: do not retry until then\. The user can add an API key to keep searching now: ask the user to run "Developer Index: Set API Key"\./,
    );
    assert.deepEqual(
      s.parts.filter((p) => p.kind === 'button').map((p) => (p.value as vscode.Command).command),
      ['devIndex.auth.setKey'],
    );
    assert.equal(s.references().length, 0);
    assert.deepEqual(await followups(result), [], 'no follow-up after an error');
  });
});
