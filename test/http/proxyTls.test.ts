// Proxies and certificates for real on loopback: a forward proxy in front of the sandbox (with and
// without proxy authentication, NO_PROXY bypass, the CLI through the environment), and an HTTPS front
// with a certificate from a CA made in the test (trusted through the setting, refused without it).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DevIndexClient, type ClientOptions } from '../../src/api/client';
import { ApiError } from '../../src/api/errors';
import { runCli } from '../../src/cli/main';
import { startSandbox } from '../../sandbox/server';
import { haveOpenssl, makeTestCa, startHttpsFront, startProxy, type LoopbackProxy, type TestCa } from './netHelpers';
import { HttpTransport } from '../../src/api/http';
import { type NetworkOptions } from '../../src/api/network';

const KEY = 'fc-proxy-0123456789abcdef0123';
let sb: { url: string; close(): Promise<void> };
let open: LoopbackProxy;
let authed: LoopbackProxy;
const clients: DevIndexClient[] = [];
const make = ({ network, ...o }: Partial<ClientOptions> & { network?: NetworkOptions }) => {
  const c = new DevIndexClient({
    transport: new HttpTransport({ network }),
    baseUrl: sb.url,
    apiKey: () => KEY,
    timeoutMs: 5000,
    random: () => 0,
    clock: { now: () => Date.now(), sleep: async () => {} },
    ...o,
  });
  clients.push(c);
  return c;
};
const caught = async (p: Promise<unknown>): Promise<ApiError> => {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    return e;
  }
  assert.fail('expected a rejection');
};
async function cli(args: string[], env: NodeJS.ProcessEnv) {
  const r = { code: 0, out: '', err: '' };
  r.code = await runCli(args, {
    out: (s) => {
      r.out += s;
    },
    err: (s) => {
      r.err += s;
    },
    env,
  });
  return r;
}

before(async () => {
  sb = await startSandbox({ port: 0, keys: [KEY], quiet: true, keylessRateLimit: 100_000, rateLimit: 100_000 });
  open = await startProxy();
  authed = await startProxy('alice:s3cret');
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all([open.close(), authed.close(), sb.close()]);
});

describe('forward proxy in front of the sandbox', () => {
  it('http.proxy (the setting): the search goes through the proxy', async () => {
    const before = open.connects + open.requests;
    const r = await make({ network: { proxy: open.url, env: {} } }).search({ query: 'retry' });
    assert.ok(r.results.length > 0);
    assert.ok(open.connects + open.requests > before, 'the proxy carried it');
  });
  it('HTTP_PROXY from the environment, when no setting is given', async () => {
    const before = open.connects + open.requests;
    await make({ network: { env: { HTTP_PROXY: open.url } } }).search({ query: 'retry' });
    assert.ok(open.connects + open.requests > before);
  });
  it('the setting wins over the environment', async () => {
    const before = open.connects + open.requests;
    await make({ network: { proxy: open.url, env: { HTTP_PROXY: 'http://127.0.0.1:9' } } }).search({ query: 'retry' });
    assert.ok(open.connects + open.requests > before);
  });
  it('NO_PROXY (and http.noProxy) bypass the proxy', async () => {
    const before = open.connects + open.requests;
    await make({ network: { env: { HTTP_PROXY: open.url, NO_PROXY: '127.0.0.1' } } }).search({ query: 'retry' });
    await make({ network: { proxy: open.url, noProxy: ['127.0.0.1'], env: {} } }).search({ query: 'retry' });
    assert.equal(open.connects + open.requests, before, 'nothing went through the proxy');
  });
  it('proxy authentication: 407 without credentials says what to set; http.proxyAuthorization or user:pass in the URL pass', async () => {
    const e = await caught(make({ network: { proxy: authed.url, env: {} } }).search({ query: 'retry' }));
    assert.equal(e.status, 407);
    assert.equal(e.attempts, 1, 'a 407 is not retried');
    assert.match(e.message, /needs credentials \(HTTP 407 Proxy Authentication Required\)/);
    assert.match(e.message, /http\.proxyAuthorization/);
    assert.match(e.message, /HTTPS_PROXY=http:\/\/user:password@host:port/);
    const token = `Basic ${Buffer.from('alice:s3cret').toString('base64')}`;
    await make({ network: { proxy: authed.url, proxyAuthorization: token, env: {} } }).search({ query: 'retry' });
    await make({ network: { env: { HTTP_PROXY: `http://alice:s3cret@127.0.0.1:${authed.port}` } } }).search({
      query: 'retry',
    });
    const wrong = await caught(
      make({ network: { env: { HTTP_PROXY: `http://alice:nope@127.0.0.1:${authed.port}` } } }).search({
        query: 'retry',
      }),
    );
    assert.ok(!wrong.message.includes('nope'), 'the proxy password is not in the message');
  });
  it('a proxy that is not there: the message names the proxy', async () => {
    const e = await caught(make({ network: { proxy: 'http://127.0.0.1:9', env: {} } }).search({ query: 'retry' }));
    assert.match(e.message, /proxy http:\/\/127\.0\.0\.1:9/);
  });
  it('the CLI honours HTTP_PROXY / NO_PROXY and a 407 from the environment', async () => {
    let before = open.connects + open.requests;
    const ok = await cli(['search', 'retry', '--base-url', sb.url], { HTTP_PROXY: open.url, DEVINDEX_API_KEY: KEY });
    assert.equal(ok.code, 0, ok.err);
    assert.ok(open.connects + open.requests > before);
    before = open.connects + open.requests;
    const bypass = await cli(['search', 'retry', '--base-url', sb.url], {
      HTTP_PROXY: open.url,
      NO_PROXY: 'localhost,127.0.0.1',
    });
    assert.equal(bypass.code, 0, bypass.err);
    assert.equal(open.connects + open.requests, before);
    const refused = await cli(['search', 'retry', '--base-url', sb.url], { http_proxy: authed.url });
    assert.equal(refused.code, 1);
    assert.match(refused.err, /HTTP 407/);
  });
});

describe(
  'HTTPS with a throw-away certificate authority',
  { skip: haveOpenssl() ? false : 'openssl is not installed' },
  () => {
    let ca: TestCa;
    let front: { url: string; close(): Promise<void> };
    before(async () => {
      ca = makeTestCa();
      front = await startHttpsFront(sb.url, ca);
    });
    after(async () => {
      await front?.close();
    });

    it('refused without the CA, with a message that says what to set', async () => {
      const e = await caught(make({ baseUrl: front.url, network: { env: {} } }).search({ query: 'retry' }));
      assert.equal(e.kind, 'network');
      assert.equal(e.attempts, 1, 'a certificate failure is not retried');
      assert.match(
        e.message,
        /certificate is not trusted \((UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED_CERT_IN_CHAIN)\)/,
      );
      assert.match(e.message, /NODE_EXTRA_CA_CERTS/);
      assert.match(e.message, /devIndex\.network\.caFile/);
    });
    it('plain http needs no certificates: an unreadable certificate file fails https requests only', async () => {
      // The same setting on both: the sandbox over http (no TLS, so the file is never read), the front over https.
      const c = make({ network: { caFile: '/nonexistent/ca.pem', env: {} } });
      const r = await c.search({ query: 'retry' });
      assert.ok(r.results.length > 0, 'the http search went through');
      const viaHttps = make({ baseUrl: front.url, network: { caFile: '/nonexistent/ca.pem', env: {} } });
      const e = await caught(viaHttps.search({ query: 'retry' }));
      assert.match(e.message, /could not read the certificate authorities in \/nonexistent\/ca\.pem/);
    });
    it('trusted through the certificate file setting', async () => {
      const r = await make({ baseUrl: front.url, network: { caFile: ca.caFile, env: {} } }).search({ query: 'retry' });
      assert.ok(r.results.length > 0);
    });
    it('the CLI trusts NODE_EXTRA_CA_CERTS', async () => {
      const r = await cli(['search', 'retry', '--base-url', front.url], {
        NODE_EXTRA_CA_CERTS: ca.caFile,
        DEVINDEX_API_KEY: KEY,
      });
      assert.equal(r.code, 0, r.err);
      const no = await cli(['search', 'retry', '--base-url', front.url], {});
      assert.equal(no.code, 1);
      assert.match(no.err, /certificate is not trusted/);
    });
    it('through the proxy (a CONNECT tunnel) to the HTTPS front, trusting the CA', async () => {
      const before = open.connects;
      const r = await make({ baseUrl: front.url, network: { proxy: open.url, caFile: ca.caFile, env: {} } }).search({
        query: 'retry',
      });
      assert.ok(r.results.length > 0);
      assert.ok(open.connects > before, 'tunnelled');
    });
    it('http.proxyStrictSSL false: an untrusted certificate behind a proxy is accepted (the user chose it)', async () => {
      const r = await make({ baseUrl: front.url, network: { proxy: open.url, proxyStrictSSL: false, env: {} } }).search(
        { query: 'retry' },
      );
      assert.ok(r.results.length > 0);
    });
    it('http.proxyStrictSSL false does not relax a host that NO_PROXY sends direct', async () => {
      const e = await caught(
        make({
          baseUrl: front.url,
          network: { proxy: open.url, proxyStrictSSL: false, noProxy: ['127.0.0.1'], env: {} },
        }).search({ query: 'retry' }),
      );
      assert.match(e.message, /certificate is not trusted/);
    });
  },
);
