// Set API Key's check (src/auth): one cheap authenticated request against the
// sandbox with a good key, a refused key, and a closed port.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { verifyKey } from '../../src/auth/verifyKey';
import { startSandbox } from '../../sandbox/server';
import { HttpTransport } from '../../src/api/http';

const KEY = 'fc-check-0123456789abcdef0123';
let sb: { url: string; close(): Promise<void> };
const requests = async () =>
  (
    (await (await fetch(`${sb.url}/__sandbox/requests`)).json()) as {
      requests: Array<{ method: string; path: string; auth: string }>;
    }
  ).requests;

before(async () => {
  sb = await startSandbox({ port: 0, keys: [KEY], faults: true, quiet: true });
});
after(() => sb.close());

describe('verifyKey', () => {
  it('a good key: accepted, with exactly one request (GET /v2/agent, no credits)', async () => {
    await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
    assert.deepEqual(await verifyKey(KEY, { baseUrl: sb.url, transport: new HttpTransport() }), {
      outcome: 'accepted',
    });
    assert.deepEqual(
      (await requests()).map((r) => [r.method, r.path, r.auth]),
      [['GET', '/v2/agent', 'valid']],
    );
  });
  it('a refused key: refused (HTTP 401), not retried', async () => {
    await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
    const r = await verifyKey('fc-wrong-0123456789abcdef', { baseUrl: sb.url, transport: new HttpTransport() });
    assert.equal(r.outcome, 'refused');
    assert.equal((await requests()).length, 1);
  });
  it('a closed port: unchecked, with the reason', async () => {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const port = (s.address() as AddressInfo).port;
    await new Promise<void>((r) => s.close(() => r()));
    const r = await verifyKey(KEY, { baseUrl: `http://127.0.0.1:${port}`, transport: new HttpTransport() });
    assert.equal(r.outcome, 'unchecked');
    assert.match((r as { reason: string }).reason, /connection refused/);
  });
  it('a 503 or a 429 is not conclusive: unchecked, one attempt only', async () => {
    await fetch(`${sb.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ faults: [{ kind: 'status', status: 503, count: 5 }] }),
    });
    await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
    const r = await verifyKey(KEY, { baseUrl: sb.url, transport: new HttpTransport() });
    assert.equal(r.outcome, 'unchecked');
    assert.equal((await requests()).length, 1);
    await fetch(`${sb.url}/__sandbox/faults`, { method: 'DELETE' });
  });
});
