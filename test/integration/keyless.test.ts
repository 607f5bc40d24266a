// The keyless quota in the Search view: a keyless search over the daily quota shows a
// countdown to the reset in the view's keyless line, with Set API Key; setting a key clears it. Read here in what
// the extension sends the view (the words and the buttons from those messages: the browser and e2e tiers' DOM).
// The first test uses the sandbox's fault injection (a 429 asking for a day's wait), so it runs on
// any sandbox; the second uses the sandbox's daily quota (`POST /__sandbox/keyless`).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type DevIndexExtensionApi, env, until, keylessApi } from './hostSupport';

interface Told {
  /** The last keyState: whether a key is set (undefined before the view said ready). */
  hasKey?: boolean;
  /** The last search outcome's keyless refusal (the quota's reset, its signup link), if it was one. */
  keyless?: { kind: string; resetAt?: number; signupUrl?: string };
}

/** What the extension last told the Search view about searching without a key. */
function told(a: DevIndexExtensionApi): Told {
  const sent = a.view.sent() as Array<{ type: string; hasKey?: boolean; error?: { keyless?: Told['keyless'] } }>;
  const outcome = sent.filter((m) => m.type === 'searchError' || m.type === 'results').at(-1);
  return {
    hasKey: sent.filter((m) => m.type === 'keyState').at(-1)?.hasKey,
    keyless: outcome?.type === 'searchError' ? outcome.error?.keyless : undefined,
  };
}

async function post(path: string, body: unknown): Promise<number> {
  const r = await fetch(`${env('DEVINDEX_SANDBOX_URL')}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await r.text();
  return r.status;
}

async function search(a: DevIndexExtensionApi, query: string): Promise<void> {
  const before = a.lastSearch();
  await vscode.commands.executeCommand('devIndex.search.run', query);
  await until(
    `the search "${query}" finishes`,
    () => a.lastSearch(),
    (o) =>
      o !== undefined &&
      o !== before &&
      o.params.query === query &&
      (o.response !== undefined || o.error !== undefined),
    20_000,
  );
}

describe('the keyless quota in the Search view', function () {
  this.timeout(90_000);
  let a: DevIndexExtensionApi;

  before(async () => {
    a = await keylessApi();
  });

  after(async () => {
    await fetch(`${env('DEVINDEX_SANDBOX_URL')}/__sandbox/faults`, { method: 'DELETE' });
    await post('/__sandbox/keyless', { daily: 0, reset: true }).catch(() => undefined);
    await a?.apiKey.clear();
  });

  it('a keyless 429 asking for a day counts down to the reset with Set API Key; a key clears the line', async () => {
    await until(
      'the view told no key is set',
      async () => told(a),
      (t) => t.hasKey === false,
      15_000,
    ).catch(async () => {
      await search(a, 'warm up the view');
    });
    assert.equal(
      await post('/__sandbox/faults', {
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
    await search(a, 'keyless quota countdown');
    assert.match(
      a.lastSearch()!.error ?? '',
      /^Keyless searches are used up until .+; an API key is not limited by the keyless quota/,
    );
    const shown = await until(
      'the view told the keyless quota',
      async () => told(a).keyless,
      (k) => k?.kind === 'quota',
      15_000,
    );
    assert.equal(shown?.kind, 'quota', 'the view is told the quota, for its countdown');
    const left = (shown?.resetAt ?? 0) - Date.now();
    assert.ok(left > 86_400_000 - 120_000 && left <= 86_400_000, `the reset a day away (in ${left} ms)`);
    assert.equal(shown?.signupUrl, undefined, 'no signup link: Set API Key alone');
    await a.apiKey.set(env('DEVINDEX_TEST_KEY'));
    await until(
      'the view told a key is set',
      async () => told(a),
      (t) => t.hasKey === true,
      15_000,
    );
    await a.apiKey.clear();
    await until(
      'the view told the key is gone',
      async () => told(a),
      (t) => t.hasKey === false,
      15_000,
    );
  });

  it('a keyless 403 says the network is refused and offers a key, never a key the user does not have', async () => {
    assert.equal(
      await post('/__sandbox/faults', {
        faults: [
          {
            kind: 'status',
            status: 403,
            path: '/v2/search',
            error: 'Keyless requests are refused because your IP address looks suspicious.',
          },
        ],
      }),
      200,
    );
    await search(a, 'keyless refused here');
    const err = a.lastSearch()!.error ?? '';
    assert.match(err, /refuses keyless searches from this network/);
    assert.doesNotMatch(err, /lacks permission/);
  });

  it("the keyless quota's signup_url puts Get a Key beside Set API Key; Get a Key opens the checked link", async () => {
    const opened: string[] = [];
    a.setExternalOpener((url) => {
      opened.push(url);
      return true;
    });
    try {
      assert.equal(await post('/__sandbox/keyless', { daily: 1, reset: true }), 200);
      await search(a, 'first keyless search for a signup link');
      await search(a, 'second keyless search for a signup link');
      assert.match(
        a.lastSearch()!.error ?? '',
        /^Keyless searches are used up until .+ \(request id [0-9a-f-]{36}\)$/,
        'the error names its request id',
      );
      const shown = await until(
        'the view told the keyless quota',
        async () => told(a).keyless,
        (k) => k?.kind === 'quota',
        15_000,
      );
      assert.equal(shown?.kind, 'quota');
      const link = shown?.signupUrl ?? '';
      assert.match(
        link,
        /^https:\/\/firecrawl\.dev\/k\/[0-9a-f]{20}$/,
        'the signup link: Get a Key beside Set API Key',
      );
      // Get a Key, as its button posts it.
      assert.ok(a.view.receive({ type: 'getKey', url: link }), 'the view is open');
      await until(
        'the link opened',
        async () => opened.length,
        (n) => n > 0,
        5_000,
      );
      assert.deepEqual(opened, [link], "opened once, through the product's link checks");
      // A link that fails the signup link check is not opened.
      a.view.receive({ type: 'getKey', url: 'http://firecrawl.dev/k/0000' });
      await a.apiKey.set(env('DEVINDEX_TEST_KEY'));
      await until(
        'the view told a key is set',
        async () => told(a),
        (t) => t.hasKey === true,
        15_000,
      );
      assert.deepEqual(opened, [link]);
    } finally {
      a.setExternalOpener(undefined);
      await a.apiKey.clear();
      await post('/__sandbox/keyless', { daily: 0, reset: true });
    }
  });

  it('a deprecated endpoint still answers; the user is told once a day, the log and a model every time they ask', async () => {
    assert.equal(
      await post('/__sandbox/deprecations', { paths: ['/v2/search/developer'], warning: 'host test deprecation' }),
      200,
    );
    try {
      await search(a, 'deprecated but answering');
      assert.ok(a.lastSearch()!.response!.results.length > 0, 'results as usual');
      const notices = await until(
        'the deprecation message',
        async () => a.shownNotices(),
        (n) => n.some((t) => /host test deprecation/.test(t)),
        10_000,
      );
      const said = notices!.filter((t) => /host test deprecation/.test(t));
      assert.equal(said.length, 1);
      assert.match(
        said[0]!,
        /^Developer Index: GET \/v2\/search\/developer is deprecated since 3 Nov 2026; it stops working on 31 Dec 2026 \((in \d+ (d|h)|\d+ (d|h) ago)\)\. Its successor: https:\/\/docs\.firecrawl\.dev\/\S+\. The service says: “host test deprecation” Its answers are still shown as usual\.$/,
      );
      await search(a, 'deprecated and answering again');
      assert.equal(
        a.shownNotices().filter((t) => /host test deprecation/.test(t)).length,
        1,
        'once per endpoint and day',
      );
      const tool = await a.invokeTool('devIndex_search', { query: 'retry after' });
      assert.match(
        tool.text,
        /Service notice \(tell the user; the answer above is complete\): GET \/v2\/search\/developer is deprecated/,
      );
    } finally {
      await post('/__sandbox/deprecations', { paths: [] });
    }
  });

  it("the sandbox's daily keyless quota: the second keyless search of the day counts down to UTC midnight", async function () {
    const nextMidnight = (d: Date): number => Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
    // The sandbox counts the day of the 429; a run across 00:00 UTC may see either midnight.
    const midnights = [nextMidnight(new Date())];
    const status = await post('/__sandbox/keyless', { daily: 1, reset: true });
    assert.equal(status, 200, 'the sandbox sets its daily keyless quota');
    await search(a, 'first keyless search today');
    assert.ok(a.lastSearch()!.response, 'the first is within the quota');
    await search(a, 'second keyless search today');
    const shown = await until(
      'the view told the keyless quota',
      async () => told(a).keyless,
      (k) => k?.kind === 'quota',
      15_000,
    );
    assert.equal(shown?.kind, 'quota');
    midnights.push(nextMidnight(new Date()));
    assert.ok(
      midnights.some((m) => Math.abs((shown?.resetAt ?? 0) - m) <= 60_000),
      `the reset at UTC midnight (${shown?.resetAt})`,
    );
  });
});
