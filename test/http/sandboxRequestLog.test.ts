// "Nothing lost, nothing garbled": the sandbox's request log keeps a bounded prefix of each
// body (not whole bodies), and a client that hangs up mid-body is an ordinary event, not an internal error.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startSandbox } from '../../sandbox/server';
import { MAX_LOGGED_BODY_BYTES, type Sandbox } from '../../sandbox/serverParts';
import { until } from '../support/until';
import { smallCorpus } from './sandboxHelpers';

describe('sandbox request log: bodies are kept as a bounded prefix', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ port: 0, faults: true, quiet: true, corpusDir: smallCorpus(), keylessRateLimit: 0 });
  });
  after(async () => {
    await sb.close();
  });

  it('120 bodies of 1 MB: every logged body is at most a 4 KiB prefix marked as cut, and the log stays small', async () => {
    await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
    const big = JSON.stringify({ query: 'x', pad: 'p'.repeat(1_000_000) });
    for (let i = 0; i < 120; i++) {
      const r = await fetch(`${sb.url}/v2/search/developer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: big,
      });
      await r.arrayBuffer();
    }
    await fetch(`${sb.url}/v2/search/developer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'small' }),
    }).then((r) => r.arrayBuffer());
    const text = await (await fetch(`${sb.url}/__sandbox/requests`)).text();
    assert.ok(text.length < 1_000_000, `the log answers ${text.length} characters`);
    const { requests } = JSON.parse(text) as { requests: Array<{ body: unknown }> };
    const cut = requests.slice(0, -1);
    assert.ok(cut.length >= 10, `${cut.length} large entries kept`);
    for (const q of cut) {
      const b = q.body as { cut?: unknown; bytes?: unknown; prefix?: unknown };
      assert.equal(b.cut, true);
      assert.equal(b.bytes, Buffer.byteLength(big));
      assert.equal(typeof b.prefix, 'string');
      assert.ok(Buffer.byteLength(b.prefix as string) <= MAX_LOGGED_BODY_BYTES);
      assert.ok(big.startsWith(b.prefix as string));
    }
    assert.deepEqual(requests.at(-1)!.body, { query: 'small' }, 'a small body is kept whole, parsed');
  });
});

describe('sandbox: a client that hangs up mid-body', () => {
  let sb: Sandbox;
  const lines: string[] = [];
  const saved = { error: console.error, log: console.log };
  before(async () => {
    console.error = (...a: unknown[]) => {
      lines.push(a.map(String).join(' '));
    };
    console.log = (...a: unknown[]) => {
      lines.push(a.map(String).join(' '));
    };
    sb = await startSandbox({ port: 0, quiet: false, corpusDir: smallCorpus(), keylessRateLimit: 0 });
  });
  after(async () => {
    await sb.close();
    console.error = saved.error;
    console.log = saved.log;
  });

  it('is logged as an ordinary event, never as an internal error, and the sandbox keeps serving', async () => {
    const socket = connect(sb.port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    // `Expect: 100-continue`: the server answers `100 Continue` once it has the request (its handler runs), so the
    // half body is sent and the connection dropped while the handler reads it.
    const continued = new Promise<void>((resolve) => {
      socket.on('data', (d: Buffer) => {
        if (/^HTTP\/1\.1 100 /.test(String(d))) resolve();
      });
    });
    socket.write(
      `POST /v2/agent HTTP/1.1\r\nHost: 127.0.0.1:${sb.port}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\nExpect: 100-continue\r\n\r\n`,
    );
    await continued;
    await new Promise<void>((resolve) => {
      socket.write('{"prompt":"half', () => resolve());
    });
    socket.destroy();
    const hungUp = /POST \/v2\/agent: the client closed the connection before the whole request arrived/;
    await until(
      () => lines,
      (ls) => ls.some((l) => hungUp.test(l)),
      { timeoutMs: 5_000, stepMs: 20, message: (ls) => `no hang-up line in:\n${ls?.join('\n')}` },
    );
    const r = await fetch(`${sb.url}/v2/search/developer?query=zephyr`);
    assert.equal(r.status, 200);
    const said = lines.filter((l) => !l.startsWith('sandbox listening') && !/corpus/i.test(l));
    assert.ok(!said.some((l) => /internal error/i.test(l)), said.join('\n'));
    assert.ok(
      said.some((l) => /POST \/v2\/agent: the client closed the connection before the whole request arrived/.test(l)),
      said.join('\n'),
    );
  });
});
