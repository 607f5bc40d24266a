// The sandbox's auth, rate limits, agent dispatch, test-mode fault injection and request log, and a
// clean close, over real HTTP on 127.0.0.1.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startSandbox } from '../../sandbox/server';
import { teamOf, type Sandbox } from '../../sandbox/serverParts';
import { until } from '../support/until';
import { del, get, post, smallCorpus, type Reply } from './sandboxHelpers';

const PATH = '/v2/search/developer';
const KEY = 'sbx-test-key-alpha';
const KEY2 = 'sbx-test-key-beta';
const bearer = (k: string): Record<string, string> => ({ authorization: `Bearer ${k}` });
const search = (sb: Sandbox, headers: Record<string, string> = {}): Promise<Reply> =>
  get(sb.url, PATH, { query: 'zephyr', k: 2 }, headers);
const UNAUTHORIZED = { success: false, error: 'Unauthorized: Invalid token' };

describe('sandbox auth', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({
      port: 0,
      wire: 'spec',
      quiet: true,
      corpusDir: smallCorpus(),
      keys: [KEY, KEY2],
      rateLimit: 0,
      keylessRateLimit: 0,
    });
  });
  after(async () => {
    await sb.close();
  });

  it('allows search without a key and with a declared key', async () => {
    assert.equal((await search(sb)).status, 200);
    assert.equal((await search(sb, bearer(KEY))).status, 200);
    assert.equal((await search(sb, bearer(KEY2))).status, 200);
  });

  it('answers 401 Unauthorized: Invalid token to any other Authorization header', async () => {
    for (const h of [`Bearer ${KEY}x`, 'Bearer', 'Bearer ', `Basic ${KEY}`, KEY, `Bearer ${KEY} ${KEY}`]) {
      const r = await search(sb, { authorization: h });
      assert.equal(r.status, 401, h);
      assert.deepEqual(r.json, UNAUTHORIZED);
    }
  });

  it('hands /v2/agent paths to the agent engine only with a valid key, one team per key', async () => {
    assert.deepEqual((await post(sb.url, '/v2/agent', { prompt: 'find the changelog' })).json, UNAUTHORIZED);
    assert.equal((await get(sb.url, '/v2/agent')).status, 401);
    assert.equal((await get(sb.url, '/v2/agent', undefined, { authorization: 'Bearer wrong' })).status, 401);
    const submitted = await post(sb.url, '/v2/agent', { prompt: 'find the changelog' }, bearer(KEY));
    assert.equal(submitted.status, 200, submitted.text);
    const id = submitted.json.id as string;
    assert.match(id, /^[0-9a-f-]{36}$/);
    const mine = await get(sb.url, `/v2/agent/${id}`, undefined, bearer(KEY));
    assert.equal(mine.status, 200);
    assert.equal(mine.json.status, 'processing', 'the job is there for its own team (production records carry no id)');
    const theirs = await get(sb.url, `/v2/agent/${id}`, undefined, bearer(KEY2));
    assert.equal(theirs.status, 404, 'another key is another team');
  });

  it('derives the team id from the key without containing it', () => {
    assert.equal(teamOf(KEY), teamOf(KEY));
    assert.notEqual(teamOf(KEY), teamOf(KEY2));
    assert.equal(teamOf(KEY).includes(KEY), false);
  });
});

describe('sandbox rate limits', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({
      port: 0,
      wire: 'spec',
      quiet: true,
      corpusDir: smallCorpus(),
      keys: [KEY, KEY2],
      rateLimit: 5,
      keylessRateLimit: 3,
    });
  });
  after(async () => {
    await sb.close();
  });

  const assertLimited = (r: Reply): void => {
    assert.equal(r.status, 429);
    assert.deepEqual(r.json, { success: false, error: 'Rate limit exceeded' });
    const ra = r.headers.get('retry-after');
    assert.match(ra ?? '', /^\d+$/, 'Retry-After in whole seconds');
    assert.ok(Number(ra) >= 1 && Number(ra) <= 60, `Retry-After ${ra} within the minute`);
  };

  it('limits keyless clients to the keyless limit per minute', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await search(sb)).status, 200, `keyless request ${i + 1}`);
    assertLimited(await search(sb));
    assertLimited(await search(sb));
  });

  it('gives each key its own, higher limit', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await search(sb, bearer(KEY))).status, 200, `keyed request ${i + 1}`);
    assertLimited(await search(sb, bearer(KEY)));
    assert.equal((await search(sb, bearer(KEY2))).status, 200, 'the second key has its own window');
  });

  it('checks the key before the rate limit', async () => {
    assert.equal((await search(sb, bearer('revoked'))).status, 401);
  });
});

describe('sandbox faults and request log', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({
      port: 0,
      wire: 'spec',
      quiet: true,
      corpusDir: smallCorpus(),
      keys: [KEY],
      faults: true,
      rateLimit: 0,
      keylessRateLimit: 0,
    });
  });
  after(async () => {
    await sb.close();
  });

  const inject = async (...faults: unknown[]): Promise<void> => {
    const r = await post(sb.url, '/__sandbox/faults', { faults });
    assert.equal(r.status, 200, r.text);
  };

  it('issues and revokes keys while running (POST /__sandbox/keys), and says nothing of the keys themselves', async () => {
    const k = 'sk-issued-later-0001';
    const auth = { authorization: `Bearer ${k}` };
    assert.equal((await get(sb.url, '/v2/search/developer', { query: 'q' }, auth)).status, 401);
    const added = await post(sb.url, '/__sandbox/keys', { add: [k] });
    assert.equal(added.status, 200);
    assert.ok(!added.text.includes(k));
    assert.equal((await get(sb.url, '/v2/search/developer', { query: 'q' }, auth)).status, 200);
    assert.equal((await post(sb.url, '/__sandbox/keys', { revoke: [k] })).status, 200);
    assert.equal((await get(sb.url, '/v2/search/developer', { query: 'q' }, auth)).status, 401);
    assert.equal(
      (await get(sb.url, '/v2/search/developer', { query: 'q' }, { authorization: `Bearer ${KEY}` })).status,
      200,
      'other keys stay',
    );
    assert.equal((await post(sb.url, '/__sandbox/keys', { add: [''] })).status, 400);
  });

  it('answers a status fault once with a JSON error body and Retry-After', async () => {
    await inject({ kind: 'status', status: 429, retryAfter: '7' });
    const r = await search(sb);
    assert.equal(r.status, 429);
    assert.deepEqual(r.json, { success: false, error: 'Rate limit exceeded' });
    assert.equal(r.headers.get('retry-after'), '7');
    assert.equal((await search(sb)).status, 200, 'count defaults to 1');
  });

  it('answers a 429 fault without Retry-After when none is given', async () => {
    await inject({ kind: 'status', status: 429, error: 'Concurrency limit reached' });
    const r = await search(sb);
    assert.equal(r.status, 429);
    assert.equal(r.json.error, 'Concurrency limit reached');
    assert.equal(r.headers.get('retry-after'), null);
  });

  it('answers count requests, then normally', async () => {
    await inject({ kind: 'status', status: 503, count: 2 });
    assert.equal((await search(sb)).status, 503);
    assert.equal((await search(sb)).status, 503);
    assert.equal((await search(sb)).status, 200);
  });

  it('uses each body shape', async () => {
    await inject(
      { kind: 'status', status: 504, body: 'empty' },
      { kind: 'status', status: 502, body: 'html' },
      { kind: 'status', status: 500, body: 'truncated' },
      { kind: 'status', status: 502, body: 'detail', error: 'upstream said no' },
      { kind: 'status', status: 503, body: 'title' },
      { kind: 'status', status: 408, body: 'no-success' },
      { kind: 'status', status: 500, body: 'json', error: 'custom failure' },
    );
    const empty = await search(sb);
    assert.equal(empty.status, 504);
    assert.equal(empty.text, '');
    const html = await search(sb);
    assert.equal(html.status, 502);
    assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(html.text, /^<html>[\s\S]*502 Bad Gateway/);
    const truncated = await search(sb);
    assert.equal(truncated.status, 500);
    assert.match(truncated.headers.get('content-type') ?? '', /json/);
    assert.ok(truncated.text.startsWith('{"success":false'));
    assert.throws(() => JSON.parse(truncated.text));
    const detail = await search(sb);
    assert.deepEqual([detail.status, detail.json], [502, { detail: 'upstream said no' }]);
    const title = await search(sb);
    assert.equal(title.status, 503);
    assert.equal(title.json.title, 'Service Unavailable');
    assert.equal('error' in title.json, false);
    const noSuccess = await search(sb);
    assert.deepEqual([noSuccess.status, noSuccess.json], [408, { error: 'Request Timeout' }]);
    const custom = await search(sb);
    assert.deepEqual([custom.status, custom.json], [500, { success: false, error: 'custom failure' }]);
    assert.equal((await search(sb)).status, 200, 'the queue is used up');
  });

  it('matches a fault to a path prefix only', async () => {
    await inject({ kind: 'status', status: 500, path: '/v2/agent' });
    assert.equal((await search(sb)).status, 200, 'search is not under /v2/agent');
    assert.equal((await get(sb.url, '/v2/agent', undefined, bearer(KEY))).status, 500);
  });

  it('answers a slow fault normally after the delay', async () => {
    await inject({ kind: 'slow', ms: 300 });
    const t0 = performance.now();
    const r = await search(sb);
    const ms = performance.now() - t0;
    assert.equal(r.status, 200);
    assert.equal(r.json.success, true);
    assert.ok(ms >= 280, `took ${ms.toFixed(0)} ms`);
  });

  it('resets the connection for a reset fault', async () => {
    await inject({ kind: 'reset' });
    await assert.rejects(search(sb), (e: Error & { cause?: { code?: string } }) => {
      assert.match(String(e.cause?.code ?? e.message), /ECONNRESET|UND_ERR_SOCKET|other side closed/);
      return true;
    });
    assert.equal((await search(sb)).status, 200);
  });

  it('clears the queue with DELETE /__sandbox/faults', async () => {
    await inject({ kind: 'status', status: 500, count: 5 });
    assert.equal((await del(sb.url, '/__sandbox/faults')).status, 200);
    assert.equal((await search(sb)).status, 200);
  });

  it('rejects a malformed fault', async () => {
    for (const faults of [
      [{ kind: 'status' }],
      [{ kind: 'status', status: 99 }],
      [{ kind: 'explode' }],
      [{ kind: 'slow', ms: -1 }],
      [{ kind: 'status', status: 500, body: 'xml' }],
    ]) {
      const r = await post(sb.url, '/__sandbox/faults', { faults });
      assert.equal(r.status, 400, JSON.stringify(faults));
      assert.equal(r.json.success, false);
    }
  });

  it('logs every /v2/ request with method, path, query, body and auth, never the key', async () => {
    assert.equal((await del(sb.url, '/__sandbox/requests')).status, 200);
    await get(sb.url, PATH, [
      ['query', 'zephyr'],
      ['types', 'doc'],
      ['types', 'issue'],
    ]);
    await post(sb.url, PATH, { query: 'zephyr', repos: ['acme/widgets'] }, bearer(KEY));
    await search(sb, bearer('not-a-key'));
    await inject({ kind: 'status', status: 502, body: 'empty' });
    await search(sb);
    await get(sb.url, '/not-v2');
    assert.equal((await post(sb.url, PATH, { query: 'x'.repeat(1024 * 1024) })).status, 413);
    const r = await get(sb.url, '/__sandbox/requests');
    assert.deepEqual(r.json, {
      requests: [
        { method: 'GET', path: PATH, query: 'query=zephyr&types=doc&types=issue', body: null, auth: 'none' },
        { method: 'POST', path: PATH, query: '', body: { query: 'zephyr', repos: ['acme/widgets'] }, auth: 'valid' },
        { method: 'GET', path: PATH, query: 'query=zephyr&k=2', body: null, auth: 'invalid' },
        { method: 'GET', path: PATH, query: 'query=zephyr&k=2', body: null, auth: 'none' },
        { method: 'POST', path: PATH, query: '', body: '(1048576+ bytes, not kept)', auth: 'none' },
      ],
    });
    assert.equal(r.text.includes(KEY), false);
    assert.equal(r.text.includes('not-a-key'), false);
    await del(sb.url, '/__sandbox/requests');
    assert.deepEqual((await get(sb.url, '/__sandbox/requests')).json, { requests: [] });
  });
});

describe('sandbox close', () => {
  it('closes with a keep-alive connection open and a slow answer pending', async () => {
    const sb = await startSandbox({
      port: 0,
      wire: 'spec',
      quiet: true,
      corpusDir: smallCorpus(),
      faults: true,
      rateLimit: 0,
      keylessRateLimit: 0,
    });
    await post(sb.url, '/__sandbox/faults', { faults: [{ kind: 'slow', ms: 60_000, path: '/v2/slow' }] });
    const pending = new Promise<string>((resolve) => {
      const req = httpRequest(`${sb.url}/v2/slow`, { agent: false, headers: { connection: 'keep-alive' } }, (res) => {
        res.resume();
        res.on('end', () => resolve('answered'));
      });
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
      req.end();
    });
    assert.equal((await search(sb)).status, 200, 'a keep-alive fetch socket stays open after this');
    await until(
      async () => ((await get(sb.url, '/__sandbox/requests')).json as { requests: Array<{ path: string }> }).requests,
      (qs) => qs.some((q) => q.path === '/v2/slow'),
      { timeoutMs: 5_000, stepMs: 20, message: () => 'the slow request reached the sandbox' },
    );
    const t0 = performance.now();
    await sb.close();
    assert.ok(performance.now() - t0 < 2_000, 'close() does not wait for idle or slow sockets');
    assert.notEqual(await pending, 'answered');
    await assert.rejects(fetch(`${sb.url}${PATH}?query=x`, { signal: AbortSignal.timeout(2_000) }));
  });
});
