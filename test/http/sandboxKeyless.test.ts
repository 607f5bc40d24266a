// The sandbox's developer search as production serves it from late August 2026:
// the keyless daily quota and keyless refusals, licenses for keyed callers, the relayed 400 for
// `types=web`, opaque doc ids, the passage budget and the JSON 404. The spec wire is shown unchanged.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox } from '../../sandbox/server';
import { KEYLESS_MESSAGES, secondsToUtcMidnight, type Sandbox } from '../../sandbox/serverParts';
import { get, post } from './sandboxHelpers';

const PATH = '/v2/search/developer';
const KEY = 'sbx-keyless-test-key';
const bearer = { authorization: `Bearer ${KEY}` };
const QUOTA_TEXT =
  "You've hit Firecrawl's keyless free tier rate limit for today. Create an API key at https://www.firecrawl.dev/app/api-keys to keep searching.";

describe('sandbox keyless daily quota (production wire)', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({
      port: 0,
      keys: [KEY],
      faults: true,
      quiet: true,
      keylessDaily: 2,
      keylessRateLimit: 0,
      rateLimit: 0,
    });
  });
  after(async () => {
    await sb.close();
  });
  const control = async (body: unknown): Promise<unknown> => (await post(sb.url, '/__sandbox/keyless', body)).json;

  it('N keyless searches a UTC day, then 429 with the body, WWW-Authenticate and no Retry-After; keyed callers go on', async () => {
    await control({ reset: true });
    assert.equal((await get(sb.url, PATH, { query: 'retry' })).status, 200);
    assert.equal((await post(sb.url, PATH, { query: 'retry' })).status, 200);
    const r = await get(sb.url, PATH, { query: 'retry' });
    assert.equal(r.status, 429);
    assert.deepEqual(Object.keys(r.json).sort(), ['error', 'reason', 'retry_after_seconds', 'signup_url', 'success']);
    // The caller's own link to create a key, the same all day for the same caller.
    assert.match(r.json.signup_url, /^https:\/\/firecrawl\.dev\/k\/[0-9a-f]{20}$/);
    assert.equal((await get(sb.url, PATH, { query: 'again' })).json.signup_url, r.json.signup_url);
    assert.equal(r.json.success, false);
    assert.equal(r.json.error, QUOTA_TEXT);
    assert.equal(r.json.reason, 'requests');
    const expected = secondsToUtcMidnight(Date.now());
    assert.ok(Math.abs(r.json.retry_after_seconds - expected) <= 2, `${r.json.retry_after_seconds} vs ${expected}`);
    assert.ok(r.json.retry_after_seconds <= 86_400);
    assert.equal(r.headers.get('retry-after'), null);
    assert.match(
      r.headers.get('www-authenticate') ?? '',
      /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource"$/,
    );
    assert.equal((await get(sb.url, PATH, { query: 'retry' }, bearer)).status, 200, 'a key is the way out');
  });

  it('controls: Retry-After as some deployments send it, reason "credits", a reset', async () => {
    await control({ reset: true, retryAfterHeader: true, reason: 'credits' });
    try {
      await get(sb.url, PATH, { query: 'a' });
      await get(sb.url, PATH, { query: 'a' });
      const r = await get(sb.url, PATH, { query: 'a' });
      assert.equal(r.status, 429);
      assert.equal(r.json.reason, 'credits');
      assert.equal(r.headers.get('retry-after'), String(r.json.retry_after_seconds));
      await control({ reset: true });
      assert.equal((await get(sb.url, PATH, { query: 'a' })).status, 200);
    } finally {
      await control({ reset: true, retryAfterHeader: false, reason: 'requests' });
    }
  });

  it('keyless refusals: ipv6 and off are 401, suspicious is 403; keyed callers are unaffected; null lifts it', async () => {
    for (const [refuse, status, text] of [
      ['ipv6', 401, KEYLESS_MESSAGES.ipv6],
      ['off', 401, KEYLESS_MESSAGES.off],
      ['suspicious', 403, KEYLESS_MESSAGES.suspicious],
    ] as const) {
      assert.deepEqual(await control({ refuse }), {
        success: true,
        refuse,
        daily: 2,
        retryAfterHeader: false,
        reason: 'requests',
      });
      const r = await get(sb.url, PATH, { query: 'retry' });
      assert.equal(r.status, status, refuse);
      assert.deepEqual(r.json, { success: false, error: text });
      assert.equal((await get(sb.url, PATH, { query: 'retry' }, bearer)).status, 200, `${refuse}: keyed`);
    }
    assert.match(KEYLESS_MESSAGES.suspicious, /your IP address looks suspicious/);
    await control({ refuse: null, reset: true });
    assert.equal((await get(sb.url, PATH, { query: 'retry' })).status, 200);
    assert.equal((await post(sb.url, '/__sandbox/keyless', { refuse: 'maybe' })).status, 400);
  });
});

describe('sandbox production search additions', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({
      port: 0,
      keys: [KEY],
      faults: true,
      quiet: true,
      keylessRateLimit: 0,
      rateLimit: 0,
      licenseKeyed: true,
    });
  });
  after(async () => {
    await sb.close();
  });

  it("types=web: the back end's relayed 400, with no success and no details", async () => {
    for (const r of [
      await get(sb.url, PATH, { query: 'q', types: 'doc,web' }),
      await post(sb.url, PATH, { query: 'q', types: ['web'] }),
    ]) {
      assert.equal(r.status, 400);
      assert.deepEqual(r.json, {
        code: 'BAD_REQUEST',
        error: 'unknown type: web (expected doc, issue, pull_request, readme)',
      });
    }
  });

  it('passage_budget in a request is a 400; no passage_budget_applied unless a budget is set', async () => {
    const r = await post(sb.url, PATH, { query: 'q', passage_budget: 5 });
    assert.equal(r.status, 400);
    assert.match(JSON.stringify(r.json.details), /passage_budget/);
    assert.equal(
      'passage_budget_applied' in (await get(sb.url, PATH, { query: 'retry', k: 100, passages: 5 })).json,
      false,
    );
  });

  it('doc ids: the Orbit command reference and activation-events pages are opaque, stable hashes; url gives provenance', async () => {
    const q = { query: 'activation events commands', types: 'doc', sources: 'orbit-ext-api', k: 20 };
    const a = await get(sb.url, PATH, q);
    const hashed = (a.json.results as Array<{ id: string; url: string }>).filter((x) =>
      /^doc:[0-9a-f]{16}$/.test(x.id),
    );
    assert.deepEqual(hashed.map((x) => x.url).sort(), [
      'https://orbit-editor.dev/api/extension-guides/activation-events.html',
      'https://orbit-editor.dev/api/references/commands.html',
    ]);
    const others = (a.json.results as Array<{ id: string; url: string }>).filter((x) => !hashed.includes(x));
    assert.ok(others.length > 0 && others.every((x) => x.id === `doc:${x.url}`), 'every other doc id is doc:<url>');
    assert.deepEqual(
      (await get(sb.url, PATH, q)).json.results.map((x: { id: string }) => x.id),
      a.json.results.map((x: { id: string }) => x.id),
      'stable',
    );
  });

  it("an unknown path is production's JSON 404 with documentation_url", async () => {
    const r = await get(sb.url, '/v2/nope');
    assert.equal(r.status, 404);
    // Production's body exactly, as its own route test expects it (the path without the query).
    assert.deepEqual(r.json, {
      success: false,
      code: 'NOT_FOUND',
      error: 'GET /v2/nope is not a Firecrawl API endpoint.',
      documentation_url: 'https://docs.firecrawl.dev/api-reference/introduction',
    });
    assert.equal(
      (await get(sb.url, '/v2/nope', { q: 'x' })).json.error,
      'GET /v2/nope is not a Firecrawl API endpoint.',
    );
  });

  it('licenses (licenseKeyed on): only keyed callers get them, as in production', async () => {
    const has = (r: { json: { results: Array<{ license?: unknown }> } }): boolean =>
      r.json.results.some((x) => x.license !== undefined);
    assert.ok(!has(await get(sb.url, PATH, { query: 'retry', types: 'issue,readme', k: 20 })));
    assert.ok(has(await get(sb.url, PATH, { query: 'retry', types: 'issue,readme', k: 20 }, bearer)));
  });
});

describe('sandbox production search: the keyed-only license and a passage budget', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({
      port: 0,
      keys: [KEY],
      quiet: true,
      keylessRateLimit: 0,
      rateLimit: 0,
      passageBudget: 20,
      licenseKeyed: true,
    });
  });
  after(async () => {
    await sb.close();
  });

  it('license only for keyed callers: a keyless response carries none', async () => {
    const q = { query: 'retry', types: 'issue,readme', k: 20 };
    const keyless = await get(sb.url, PATH, q);
    assert.ok(keyless.json.results.length > 0);
    assert.ok(keyless.json.results.every((x: { license?: unknown }) => !('license' in x)));
    assert.ok(
      (await get(sb.url, PATH, q, bearer)).json.results.some((x: { license?: unknown }) => x.license !== undefined),
    );
  });

  it('over the budget: passages cut (each result keeps one) and passage_budget_applied says the budget', async () => {
    const r = await get(sb.url, PATH, { query: 'retry rate limit', k: 10, passages: 5 });
    const results = r.json.results as Array<{ passages: unknown[] }>;
    assert.equal(results.length, 10);
    assert.equal(r.json.passage_budget_applied, 20);
    const total = results.reduce((n, x) => n + x.passages.length, 0);
    assert.ok(total <= 20, `${total} passages`);
    assert.ok(results.every((x) => x.passages.length >= 1));
    assert.equal(
      'passage_budget_applied' in (await get(sb.url, PATH, { query: 'retry rate limit', k: 4, passages: 5 })).json,
      false,
      'within the budget',
    );
  });
});

describe('sandbox production search: license by default (a team without the flag)', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ port: 0, keys: [KEY], quiet: true, keylessRateLimit: 0, rateLimit: 0 });
  });
  after(async () => {
    await sb.close();
  });

  it('no caller gets license unless licenseKeyed says the keyed teams have the flag (production sends it only to teams with it)', async () => {
    const q = { query: 'retry', types: 'issue,readme', k: 20 };
    for (const r of [
      await get(sb.url, PATH, q, bearer),
      await get(sb.url, PATH, q),
      await post(sb.url, PATH, { query: 'retry', types: ['issue', 'readme'], k: 20 }, bearer),
    ]) {
      assert.equal(r.status, 200, r.text);
      assert.ok(r.json.results.length > 0);
      assert.ok(
        r.json.results.every((x: object) => !('license' in x)),
        JSON.stringify(r.json.results[0]),
      );
    }
  });
});

describe('sandbox keyless and search additions on the spec wire: unchanged', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ port: 0, wire: 'spec', faults: true, quiet: true, keylessDaily: 1, keylessRateLimit: 0 });
  });
  after(async () => {
    await sb.close();
  });

  it('no daily quota, no keyless refusal, types=web is an ordinary validation 400, doc ids are <source>/<path>', async () => {
    await post(sb.url, '/__sandbox/keyless', { refuse: 'suspicious' });
    for (let i = 0; i < 3; i++) assert.equal((await get(sb.url, PATH, { query: 'retry' })).status, 200);
    const web = await get(sb.url, PATH, { query: 'q', types: 'web' });
    assert.equal(web.status, 400);
    assert.equal(web.json.error, 'Bad Request');
    assert.ok(Array.isArray(web.json.details));
    const docs = await get(sb.url, PATH, {
      query: 'activation events commands',
      types: 'doc',
      sources: 'orbit-ext-api',
    });
    assert.ok(docs.json.results.every((x: { id: string }) => x.id.startsWith('doc:orbit-ext-api/')));
  });
});
