// The service's own developer-search API tests, replayed against the sandbox (production wire): each
// case below sends the requests one upstream test sends and checks what it asserts, written here in
// our own words. Source read: the firecrawl API's "Developer Search API" suite (newer than the local
// mirror of firecrawl/firecrawl, which is from 2025-08-25 and has neither developer search nor agent
// routes nor their tests). Its cases that read the service's database (request and usage logs, ZDR
// redaction) or its billing cannot be replayed against a stand-in and are listed, not run. The last case
// replays the service's "terminal not-found handler" test (its JSON 404 for an unknown path).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox } from '../../sandbox/server';
import { type Sandbox } from '../../sandbox/serverParts';
import { get, post, type Query } from './sandboxHelpers';

const CANONICAL = '/v2/search/developer';
const LEGACY = '/v2/developer/search';
/** A team as the suite's identity helper makes one: a key, 100 credits, no license flag (the sandbox's default). */
const IDENTITY = 'sbx-replay-identity-key';
const auth = { authorization: `Bearer ${IDENTITY}` };

describe("the service's developer search API tests, replayed on the sandbox", () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({
      port: 0,
      keys: [IDENTITY],
      faults: true,
      quiet: true,
      rateLimit: 0,
      keylessRateLimit: 0,
      keylessDaily: 1000,
    });
  });
  after(async () => {
    await sb.close();
  });
  const research = (path: string, q: Query, keyed = true) => get(sb.url, path, q, keyed ? auth : {});

  for (const path of [CANONICAL, LEGACY]) {
    it(`${path}: serves developer search (results with id, url, passages and no license for a team without the flag)`, async () => {
      const r = await research(path, { query: 'how do I configure retries', k: 3 });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.success, true);
      assert.ok(Array.isArray(r.json.results));
      for (const x of r.json.results) {
        assert.equal(typeof x.id, 'string');
        assert.equal(typeof x.url, 'string');
        assert.ok(Array.isArray(x.passages));
        assert.equal(x.license, undefined);
      }
    });

    it(`${path}: serves the same search from a POST body`, async () => {
      const r = await post(sb.url, path, { query: 'graceful shutdown', k: 2, types: ['issue', 'readme'] }, auth);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.success, true);
      assert.ok(Array.isArray(r.json.results));
    });
  }

  it('keeps the upstream casing on repo enrollment status (pullRequest)', async () => {
    const r = await research(CANONICAL, {
      query: 'rate limit handling',
      k: 1,
      repos: 'firecrawl/firecrawl',
      types: 'issue',
    });
    assert.equal(r.status, 200, r.text);
    assert.ok(Array.isArray(r.json.repos));
    assert.equal(r.json.repos[0].repo, 'firecrawl/firecrawl');
    assert.equal(typeof r.json.repos[0].types.pullRequest, 'boolean');
  });

  it('rejects unknown params and an out-of-bound k', async () => {
    for (const q of [
      { query: 'retries', magic: 'true' },
      { query: 'retries', k: 101 },
    ] as Query[]) {
      const r = await research(CANONICAL, q);
      assert.equal(r.status, 400, JSON.stringify(q));
      assert.equal(r.json.success, false);
    }
  });

  it('keyless: permits keyless access on the canonical mount', async () => {
    const r = await research(CANONICAL, { query: 'retry backoff', k: 1 }, false);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.success, true);
    assert.ok(Array.isArray(r.json.results));
  });

  it('keyless: refuses keyless access on the legacy mount', async () => {
    assert.equal((await research(LEGACY, { query: 'retry backoff', k: 1 }, false)).status, 401);
  });

  it('answers an unknown path with JSON (not an HTML page): NOT_FOUND, the method and path, the documentation URL', async () => {
    const r = await get(sb.url, '/v2/nonexistent-xyz');
    assert.equal(r.status, 404);
    assert.match(r.headers.get('content-type') ?? '', /application\/json/);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    assert.ok(!r.text.includes('Cannot GET'));
    assert.deepEqual(r.json, {
      success: false,
      code: 'NOT_FOUND',
      error: 'GET /v2/nonexistent-xyz is not a Firecrawl API endpoint.',
      documentation_url: 'https://docs.firecrawl.dev/api-reference/introduction',
    });
  });

  // Not replayable against a stand-in, so not here: the suite's cases that read the service's own
  // database or bill real credits (the request log's kind with origin and integration; stored payloads
  // redacted for a forced-ZDR team; the usage row's billed credits; billing by result count).
});

// The two agent cases of the service's API tests, in our words: a plain start's record leaves out
// what it does not have (`message` among them, rather than sending null), and a thread whose turn has
// just finished takes the next turn (busy only while the turn runs).
describe("the service's agent API tests, replayed on the sandbox", () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ port: 0, keys: [IDENTITY], quiet: true, rateLimit: 0, agentSpeed: 50 });
  });
  after(async () => {
    await sb.close();
  });
  const status = async (id: string) => (await get(sb.url, `/v2/agent/${id}`, undefined, auth)).json;
  async function untilDone(id: string): Promise<Record<string, unknown>> {
    for (let i = 0; i < 200; i++) {
      const job = await status(id);
      if (job.status !== 'processing') return job;
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.fail(`${id} did not finish`);
  }

  it('a plain start completes with threadId and threadTurn, and no message key (extract mode)', async () => {
    const s = await post(sb.url, '/v2/agent', { prompt: 'list three HTTP clients' }, auth);
    assert.equal(s.status, 200, s.text);
    const job = await untilDone(s.json.id);
    assert.equal(job.status, 'completed');
    assert.equal(job.threadId, s.json.threadId);
    assert.equal(job.threadTurn, 1);
    assert.equal('message' in job, false);
  });

  it('a follow-up is refused while the turn runs and accepted as soon as it has finished', async () => {
    const s = await post(sb.url, '/v2/agent', { prompt: 'first turn' }, auth);
    const busy = await post(sb.url, '/v2/agent', { prompt: 'second turn', threadId: s.json.threadId }, auth);
    assert.equal(busy.status, 409);
    assert.equal(busy.json.code, 'thread_busy');
    await untilDone(s.json.id);
    const next = await post(sb.url, '/v2/agent', { prompt: 'second turn', threadId: s.json.threadId }, auth);
    assert.equal(next.status, 200, next.text);
    assert.equal(next.json.threadTurn, 2);
  });

  it('a spark-2 run started without effort is listed with effort medium; its status leaves effort out', async () => {
    const s = await post(sb.url, '/v2/agent', { prompt: 'list three HTTP clients' }, auth);
    assert.equal(s.status, 200, s.text);
    const list = await get(sb.url, '/v2/agent', undefined, auth);
    const row = (list.json.agents as Array<{ id: string; options: Record<string, unknown> }>).find(
      (a) => a.id === s.json.id,
    );
    assert.equal(row?.options.model, 'spark-2');
    assert.equal(row?.options.effort, 'medium');
    assert.equal('effort' in (await status(s.json.id)), false);
  });
});

describe("the service's agent API tests, replayed at the service's own speed", () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ port: 0, keys: [IDENTITY], quiet: true, rateLimit: 0, agentSpeed: 1 });
  });
  after(async () => {
    await sb.close();
  });

  it('a follow-up right after its turn was cancelled is accepted: the cancelled turn has ended for the thread', async () => {
    const s = await post(sb.url, '/v2/agent', { prompt: 'A SLOW survey of retry libraries' }, auth);
    assert.equal(s.status, 200, s.text);
    const cancel = await fetch(`${sb.url}/v2/agent/${s.json.id}`, { method: 'DELETE', headers: auth });
    assert.equal(cancel.status, 200);
    const next = await post(sb.url, '/v2/agent', { prompt: 'second turn', threadId: s.json.threadId }, auth);
    assert.equal(next.status, 200, next.text);
    assert.equal(next.json.threadTurn, 2);
  });
});
