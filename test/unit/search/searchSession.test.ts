// The search session without the editor: superseding and cancelling, the bounds message naming the
// field (nothing sent), version badges and the summary, history, the watchable search; and the one order
// (search, badges, summary) the CLI and the tools consume.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DevIndexClient, type CallOptions } from '../../../src/api/client';
import type { SearchParams } from '../../../src/api/params';
import type { SearchResponse } from '../../../src/api/schemas';
import type { InstalledDependency } from '../../../src/versions/versionCompare';
import { compareVersions, searchAndCompare } from '../../../src/search/session/searchRun';
import { SearchService } from '../../../src/search/session/searchService';
import { SearchSession, type SearchMessage } from '../../../src/search/session/searchSession';

const WIDGETS: InstalledDependency = {
  ecosystem: 'npm',
  name: '@acme/widgets',
  slug: 'acme/widgets',
  version: '2.0.3',
};

function response(results: SearchResponse['results']): SearchResponse {
  return { success: true, results, coverage: {} } as SearchResponse;
}

const FIXED = response([
  {
    id: 'issue:acme/widgets#7',
    type: 'issue',
    url: 'https://github.com/acme/widgets/issues/7',
    title: 'Retry loop ignores the timeout',
    passages: [{ text: 'This was fixed in 2.1.0 after the rewrite of the retry loop.' }],
  },
  {
    id: 'issue:other/repo#1',
    type: 'issue',
    url: 'https://github.com/other/repo/issues/1',
    title: 'Unrelated',
    passages: [{ text: 'Fixed in 2.1.0 as well.' }],
  },
  {
    id: 'doc:acme/guide',
    type: 'doc',
    url: 'https://docs.acme.dev/guide',
    title: 'Guide',
    passages: [{ text: 'No versions here.' }],
  },
] as SearchResponse['results']);

interface Sent {
  params: SearchParams;
  opts: CallOptions;
  resolve(r: SearchResponse): void;
  reject(e: unknown): void;
}

/** A fake client: each search waits until the test answers it; an abort rejects it as the client does. */
function fakeClient() {
  const sent: Sent[] = [];
  const client = {
    search: (params: SearchParams, opts: CallOptions = {}) =>
      new Promise<SearchResponse>((resolve, reject) => {
        sent.push({ params, opts, resolve, reject });
        opts.signal?.addEventListener('abort', () =>
          reject(Object.assign(new Error('The request was cancelled.'), { kind: 'aborted' })),
        );
      }),
  };
  return { client, sent };
}

function setup(real?: Pick<DevIndexClient, 'search'>) {
  const { client: fake, sent } = fakeClient();
  const client = real ?? fake;
  const history: SearchParams[] = [];
  const service = new SearchService(() => client, {
    add: async (p) => {
      history.push(p);
    },
  });
  const session = new SearchSession({
    search: (p, o) => service.search(p, o),
    defaults: () => ({ k: 10, passages: 1, types: [] }),
    log: () => undefined,
  });
  const messages: SearchMessage[] = [];
  let watchable = 0;
  session.attach({
    show: async () => undefined,
    emit: (m) => {
      messages.push(m);
    },
    watchableChanged: () => {
      watchable += 1;
    },
  });
  return { session, service, sent, history, messages, watchable: () => watchable };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('search session', () => {
  it('a new search supersedes the one in flight: the first is aborted and ends cancelled, the second shows its results', async () => {
    const { session, sent, messages } = setup();
    const first = session.run('r1', { query: 'one' }, { fromCommand: false });
    await tick();
    const second = session.run('r2', { query: 'two' }, { fromCommand: false });
    await tick();
    assert.equal(sent.length, 2);
    assert.equal(sent[0]!.opts.signal?.aborted, true, 'the first request was aborted');
    assert.equal(sent[1]!.opts.signal?.aborted, false);
    sent[1]!.resolve(FIXED);
    await Promise.all([first, second]);
    assert.deepEqual(
      messages.map((m) => `${m.type} ${m.requestId}`),
      ['searchStarted r1', 'searchStarted r2', 'searchCancelled r1', 'results r2'],
    );
    assert.deepEqual(session.scope(), { query: 'two' }, 'the scope is the latest search');
    assert.equal(session.whereIs('r2') && (session.whereIs('r2') as SearchMessage).type, 'results');
  });

  it('cancel aborts only the search it names', async () => {
    const { session, sent, messages } = setup();
    const run = session.run('r1', { query: 'q' }, { fromCommand: false });
    await tick();
    session.cancel('other');
    assert.equal(sent[0]!.opts.signal?.aborted, false, 'another id cancels nothing');
    assert.equal(session.whereIs('r1'), 'running');
    session.cancel('r1');
    await run;
    assert.equal(sent[0]!.opts.signal?.aborted, true);
    assert.deepEqual(
      messages.map((m) => m.type),
      ['searchStarted', 'searchCancelled'],
    );
    assert.equal(session.whereIs('r1') && (session.whereIs('r1') as SearchMessage).type, 'searchCancelled');
  });

  it('a request out of bounds is refused with a message naming the field and the bound; nothing is sent or kept', async () => {
    // The client's own check (the one a search goes through), over a transport that counts what it is handed.
    let sent = 0;
    const client = new DevIndexClient({
      baseUrl: 'http://127.0.0.1:9',
      transport: {
        send: async () => {
          sent += 1;
          throw new Error('nothing should be sent');
        },
        close: async () => undefined,
      },
    });
    const { session, messages, history, service } = setup(client);
    await session.search({ query: 'q', k: 500 }, { scope: 'exact' });
    assert.equal(sent, 0, 'nothing was sent');
    assert.equal(history.length, 0);
    const err = messages.at(-1);
    assert.equal(err?.type, 'searchError');
    const e = (err as Extract<SearchMessage, { type: 'searchError' }>).error;
    assert.equal(e.action, 'fix');
    assert.deepEqual(
      e.issues?.map((i) => i.field),
      ['k'],
    );
    assert.match(e.issues![0]!.message, /\bk\b.*\b100\b/, 'the bound is named');
    assert.match(service.lastOutcome()?.error ?? '', /500/);
  });

  it("a command resolves its request over the view's scope (keep) or the defaults (exact), and history keeps what went through", async () => {
    const { session, sent, history } = setup();
    session.setScope({ query: 'old', k: 5, language: 'Go' });
    const kept = session.search({ query: ' pools ' }, { scope: 'keep' });
    await tick();
    assert.deepEqual(sent[0]!.params, { query: 'pools', k: 5, language: 'Go' });
    sent[0]!.resolve(FIXED);
    await kept;
    const exact = session.search({ query: 'pools', repos: ['acme/widgets'] }, { scope: 'exact' });
    await tick();
    assert.deepEqual(sent[1]!.params, { query: 'pools', k: 10, passages: 1, repos: ['acme/widgets'] });
    sent[1]!.reject(Object.assign(new Error('HTTP 500'), { kind: 'http', status: 500 }));
    await exact;
    assert.deepEqual(
      history,
      [{ query: 'pools', k: 5, language: 'Go' }],
      'only the search that went through is in the history',
    );
  });

  it("a dependency search gets badges on its repository's results and the summary; it becomes the watchable search", async () => {
    const { session, sent, messages, watchable } = setup();
    const done = session.search({ query: 'retry', repos: ['acme/widgets'] }, { scope: 'exact', installed: [WIDGETS] });
    await tick();
    const started = messages[0] as Extract<SearchMessage, { type: 'searchStarted' }>;
    assert.deepEqual(
      started.installed,
      [{ ecosystem: 'npm', name: '@acme/widgets', slug: 'acme/widgets', version: '2.0.3' }],
      'the chip knows the installed version at once',
    );
    sent[0]!.resolve(FIXED);
    await done;
    const r = messages.at(-1) as Extract<SearchMessage, { type: 'results' }>;
    const [own, other, doc] = r.outcome.results;
    assert.deepEqual(
      own!.versions?.map((v) => v.verdict),
      ['newer-fix'],
    );
    assert.match(own!.versions![0]!.label, /2\.1\.0/);
    assert.equal(other!.versions, undefined, 'a result from another repository gets no badge');
    assert.equal(doc!.versions, undefined);
    assert.equal(r.outcome.versionSummary?.length, 1);
    assert.match(r.outcome.versionSummary![0]!, /@acme\/widgets 2\.0\.3.*2\.1\.0/);
    assert.deepEqual(
      session.versionsOf(own!.id).map((v) => v.sentence),
      [own!.versions![0]!.sentence],
      'Open as Markdown keeps the badges',
    );
    assert.equal(session.watchableSearch()?.installed[0]?.slug, 'acme/widgets');
    assert.equal(watchable(), 1);
    // A later search of the same repository keeps the badges (the installed version is remembered).
    const again = session.run('v2', { query: 'again', repos: ['ACME/widgets'] }, { fromCommand: false });
    await tick();
    sent[1]!.resolve(FIXED);
    await again;
    assert.equal((messages.at(-1) as Extract<SearchMessage, { type: 'results' }>).outcome.versionSummary?.length, 1);
  });

  it("a settings change moves the kept scope's fields that were at the old defaults", () => {
    let defaults = { k: 10, passages: 1, types: [] as string[] };
    const session = new SearchSession({
      search: async () => {
        throw new Error('unused');
      },
      defaults: () => defaults,
      log: () => undefined,
    });
    session.defaultsSent();
    session.setScope({ query: 'q', k: 10, passages: 3 });
    defaults = { k: 20, passages: 2, types: [] };
    assert.deepEqual(session.settingsChanged(), defaults);
    assert.deepEqual(session.scope(), { query: 'q', k: 20, passages: 3 });
  });
});

describe('search, then version badges, then the summary (the one order every surface uses)', () => {
  it('compares each result against the dependency whose repository it is from, with one summary per dependency', async () => {
    const calls: SearchParams[] = [];
    const run = await searchAndCompare(
      async (p) => {
        calls.push(p);
        return FIXED;
      },
      { query: 'q', repos: ['acme/widgets'] },
      {},
      [WIDGETS, { ...WIDGETS, name: 'other', slug: 'other/repo', version: '3.0.0' }],
    );
    assert.equal(calls.length, 1);
    assert.deepEqual(
      run.badges.map((b) => b?.map((x) => x.verdict)),
      [['newer-fix'], ['included-fix'], undefined],
    );
    assert.equal(run.summaries.length, 2);
    assert.match(run.summaries[0]!, /newer than your @acme\/widgets 2\.0\.3/);
    assert.match(run.summaries[1]!, /already includes/);
    assert.deepEqual(run.notes, [], 'no coverage to explain');
  });

  it('without installed dependencies there is nothing to compare', () => {
    assert.deepEqual(compareVersions(FIXED.results, []), { badges: [undefined, undefined, undefined], summaries: [] });
    const unknown = compareVersions(FIXED.results, [{ ...WIDGETS, version: undefined }]);
    assert.deepEqual(unknown.summaries, [undefined], 'no summary without an installed version');
  });
});
