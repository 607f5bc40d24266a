// Accepting data terms as the service answers it (production wire): a terms/accept that failed inside a 200,
// a 503 that succeeds when the same x-request-id comes back, the AGENT_INDEX_ONLY refusal, and a success whose
// catalog entry had no digest (terms/show first). Through `devindex agent` as a process and through AgentClient.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../sandbox/server';
import { type Sandbox } from '../../sandbox/serverParts';
import { AgentClient } from '../../src/api/agent/agentClient';
import { DevIndexClient } from '../../src/api/client';
import { HttpTransport } from '../../src/api/http';
import { failureOf } from '../../src/api/failure';
import { modelWords } from '../../src/words/failureWords';
import { runCliProcess } from './cliProcess';

const KEY = 'sandbox-terms-answers-key-01';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

interface Logged {
  method: string;
  path: string;
  body: { alexandria?: Array<{ capability: string; options: Record<string, unknown> }>; exchange?: unknown };
  retryId?: string;
}

describe('terms answers (production wire)', () => {
  let sb: Sandbox;
  let dir: string;
  const env = () => ({
    DEVINDEX_API_KEY: KEY,
    DEVINDEX_BASE_URL: sb.url,
    DEVINDEX_CONFIG_DIR: dir,
    DEVINDEX_POLL_MS: '250',
  });
  const agent = (...args: string[]) => runCliProcess(['agent', ...args], env());
  const log = async (): Promise<Logged[]> =>
    ((await (await fetch(`${sb.url}/__sandbox/requests`)).json()) as { requests: Logged[] }).requests;
  const scrapes = async () => (await log()).filter((r) => r.path === '/v2/scrape');
  const approvals = async () =>
    (await log()).filter((r) => r.method === 'POST' && r.path === '/v2/agent' && r.body?.exchange !== undefined);

  before(async () => {
    sb = await startSandbox({ port: 0, keys: [KEY], faults: true, agentSpeed: 50, quiet: true, wire: 'production' });
    dir = mkdtempSync(join(tmpdir(), 'devindex-terms-answers-'));
  });
  after(async () => {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
  });

  /** A chat run that ends waiting for the terms the trigger names; returns its thread and approval ids. */
  async function waitingForTerms(trigger: string): Promise<{ thread: string; approval: string }> {
    const w = await agent('start', `Compare APPROVAL-TERMS ${trigger} providers`, '--mode', 'chat', '--wait');
    assert.equal(w.code, 1, w.err);
    const job = new RegExp(`Started agent job (${UUID.source})`).exec(w.out)![1]!;
    const st = await agent('status', job);
    const cmd = /devindex agent start --thread (\S+) --approve (\S+) --accept-terms/.exec(st.out);
    assert.ok(cmd, st.out);
    await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
    return { thread: cmd[1]!, approval: cmd[2]! };
  }

  test('CLI: a terms/accept that failed inside a 200 is exit 1 with the service words; nothing says accepted; no approval is sent', async () => {
    const { thread, approval } = await waitingForTerms('TERMS-CHANGED');
    const r = await agent('start', '--thread', thread, '--approve', approval, '--accept-terms');
    assert.equal(r.code, 1, `${r.out}\n${r.err}`);
    assert.match(r.err, /did not accept the data terms of initech-maps: Terms changed \(terms_changed, HTTP 409\)/);
    assert.match(r.err, /nothing was approved: show the terms again/);
    assert.match(r.err, /request id [0-9a-f-]{36}/);
    assert.match(r.err, /Initech Maps.*: https:\/\/example\.com\/devindex-sandbox\/terms\/initech-maps/);
    assert.match(r.err, new RegExp(`devindex agent start --thread ${thread} --approve ${approval}\\n`));
    assert.doesNotMatch(`${r.out}${r.err}`, /accepted .* for your team|Approved/);
    assert.equal((await scrapes()).length, 1);
    assert.deepEqual(await approvals(), [], 'the approval is never sent after a failed acceptance');
  });

  test('CLI: a 503 is retried with the same x-request-id, and then the terms are accepted and the run approved', async () => {
    const { thread, approval } = await waitingForTerms('TERMS-UNAVAILABLE');
    const r = await agent('start', '--thread', thread, '--approve', approval, '--accept-terms');
    assert.equal(r.code, 0, `${r.out}\n${r.err}`);
    assert.match(r.err, /accepted Umbrella Weather .*for your team/);
    const s = await scrapes();
    assert.equal(s.length, 2, 'one 503, then the retry');
    assert.match(s[0]!.retryId ?? '', UUID);
    assert.equal(s[1]!.retryId, s[0]!.retryId, 'the retry carries the same x-request-id');
    assert.equal((await approvals()).length, 1);
  });

  test('CLI: AGENT_INDEX_ONLY says to verify the key; exit 1; no approval is sent', async () => {
    const { thread, approval } = await waitingForTerms('TERMS-UNVERIFIED');
    const r = await agent('start', '--thread', thread, '--approve', approval, '--accept-terms');
    assert.equal(r.code, 1, `${r.out}\n${r.err}`);
    assert.match(
      r.err,
      /Verify this API key before executing provider tools\. \(HTTP 403\): .*verify this key in the service's dashboard/,
    );
    assert.equal((await scrapes()).length, 1, 'a 403 is not retried');
    assert.deepEqual(await approvals(), []);
  });

  test('CLI: success; a provider whose catalog has no digest is shown first and accepted with the digest shown', async () => {
    const { thread, approval } = await waitingForTerms('');
    const r = await agent('start', '--thread', thread, '--approve', approval, '--accept-terms');
    assert.equal(r.code, 0, `${r.out}\n${r.err}`);
    assert.match(r.err, /accepted Acme Data .*Globex News .*for your team/);
    const s = await scrapes();
    assert.deepEqual(
      s.map((x) => x.body.alexandria!.map((c) => `${c.capability} ${c.options.provider}`)),
      [['terms/show globex-news'], ['terms/accept acme-data', 'terms/accept globex-news']],
    );
    assert.equal(
      s[1]!.body.alexandria![1]!.options.digest,
      'sha256:0b9e8d7c6a5f4e3d2c1b0a99887766554433221100ffeeddccbbaa9988776655',
    );
    assert.notEqual(s[0]!.retryId, s[1]!.retryId, 'each call its own id');
    assert.equal((await approvals()).length, 1);
  });

  test('AgentClient: each answer as an error a model is told about; a new id on a second call gets the 503 again', async () => {
    const client = new DevIndexClient({
      baseUrl: sb.url,
      transport: new HttpTransport(),
      apiKey: async () => KEY,
      clock: { now: () => Date.now(), sleep: async () => undefined },
    });
    const agentClient = new AgentClient(client);
    const accept = (provider: string, version: string, digest: string) => ({
      provider: 'firecrawl',
      capability: 'terms/accept',
      options: { provider, version, digest, confirmed: true },
    });
    try {
      const changed = await agentClient
        .acceptTerms([accept('initech-maps', '7', 'sha256:' + '1f2e3d4c5b6a7988'.repeat(4))])
        .then(
          () => assert.fail('accepted'),
          (e: unknown) => e,
        );
      const f = failureOf(changed);
      assert.equal(f.reason, 'terms-not-accepted');
      assert.equal(f.next, 'refresh');
      assert.match(f.requestId ?? '', UUID);
      assert.match(
        modelWords(f, { host: 'mcp', op: 'Accepting the terms' }),
        /did not accept .*Terms changed.*do not report them as accepted/,
      );

      const unverified = await agentClient
        .acceptTerms([accept('hooli-people', '1', 'sha256:' + '99aa88bb77cc66dd'.repeat(4))])
        .then(
          () => assert.fail('accepted'),
          (e: unknown) => e,
        );
      assert.equal(failureOf(unverified).reason, 'key-unverified');

      await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
      const umbrella = accept('umbrella-weather', '2', 'sha256:' + 'a1b2c3d4e5f60718'.repeat(4));
      const ok = await agentClient.acceptTerms([umbrella]);
      assert.deepEqual(ok.providers, ['umbrella-weather']);
      await agentClient.acceptTerms([umbrella]);
      const ids = (await scrapes()).map((s) => s.retryId);
      assert.equal(ids.length, 4, 'each call met the 503 once: a new id is a new request');
      assert.equal(ids[0], ids[1]);
      assert.equal(ids[2], ids[3]);
      assert.notEqual(ids[0], ids[2]);
    } finally {
      await client.close();
    }
  });
});
