// `devindex search` as a spawned process (node dist/cli.js) against the sandbox on 127.0.0.1.
// Needs the bundles: node scripts/build.mjs --tests --bundles.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startSandbox } from '../../sandbox/server';
import { CLI_PATH as cli, runCliProcess } from './cliProcess';

const KEY = 'sk-cli-valid-4242';
let sb: { url: string; close(): Promise<void> };

const run = runCliProcess;

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const r = await fetch(`${sb.url}${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  assert.equal(r.status, 200);
  return r.json();
}
const requests = async () =>
  ((await control('GET', '/__sandbox/requests')) as { requests: Array<{ auth: string; query: string }> }).requests;

// Every form runs against both wires of the sandbox (sandbox/README.md, "Wire").
for (const wire of ['production', 'spec'] as const) {
  describe(`devindex search (spawned, --wire ${wire})`, () => {
    before(async () => {
      assert.ok(existsSync(cli), `${cli} is missing: build with --bundles`);
      sb = await startSandbox({ port: 0, wire, keys: [KEY], faults: true, quiet: true, keylessRateLimit: 100_000 });
    });
    after(async () => {
      await sb.close();
    });
    beforeEach(async () => {
      await control('DELETE', '/__sandbox/faults');
      await control('DELETE', '/__sandbox/requests');
    });

    it('Ctrl+C cancels a request in flight: exit 130 with one line, long before the slow answer', async () => {
      await control('POST', '/__sandbox/faults', { faults: [{ kind: 'slow', ms: 8000 }] });
      const started = Date.now();
      // SIGINT once the request is at the sandbox (held there by the slow fault).
      const r = await run(['search', 'keep-alive', '--base-url', sb.url], {}, async () => {
        while ((await requests()).length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      });
      assert.equal(r.code, 130, r.err);
      assert.match(r.err, /^devindex search: request cancelled\n$/);
      assert.ok(Date.now() - started < 6000, 'it did not wait for the slow answer');
    });

    it('success: results and coverage notes on stdout, exit 0', async () => {
      const r = await run([
        'search',
        'retry after rate limit',
        '--k',
        '3',
        '--language',
        'TypeScript',
        '--base-url',
        sb.url,
      ]);
      assert.equal(r.code, 0, r.err);
      assert.equal(r.err, '');
      assert.match(r.out, /^\d results?/);
      assert.match(r.out, /\n1\. .+\n {3}(issue|pull_request|readme) · \S+/);
      assert.match(r.out, /warning: No documentation results: repository filters \(language\)/);
      const reqs = await requests();
      assert.equal(reqs.length, 1);
      assert.equal(reqs[0]!.auth, 'none');
    });

    it('--json prints the validated response; DEVINDEX_BASE_URL and the key are read from the environment', async () => {
      const r = await run(['search', 'streaming', '--types', 'doc', '--sources', 'fetchline,nope', '--json'], {
        DEVINDEX_BASE_URL: sb.url,
        DEVINDEX_API_KEY: KEY,
      });
      assert.equal(r.code, 0, r.err);
      const body = JSON.parse(r.out) as { success: boolean; results: Array<{ type: string }>; sources: unknown };
      assert.equal(body.success, true);
      assert.ok(body.results.every((x) => x.type === 'doc'));
      assert.deepEqual(body.sources, [
        { source: 'fetchline', indexed: true },
        { source: 'nope', indexed: false },
      ]);
      assert.equal((await requests())[0]!.auth, 'valid');
    });

    it('invalid input: exit 2, the message, and no request made', async () => {
      for (const args of [
        ['--k', '0'],
        ['--types', 'issue', '--sources', 'fetchline'],
        ['--min-stars', '-1'],
        ['--bogus'],
      ]) {
        const r = await run(['search', 'q', ...args, '--base-url', sb.url]);
        assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
        assert.match(r.err, /^devindex search: /);
        assert.ok(!/\n\s+at /.test(r.err), 'no stack trace');
      }
      const r = await run(['search', 'q', '--types', 'issue', '--sources', 'fetchline', '--base-url', sb.url]);
      assert.equal(r.err, 'devindex search: sources cannot match any requested type; add doc or drop sources\n');
      assert.deepEqual(await requests(), []);
    });

    it('401: exit 1 with the service message and status, no stack, key not shown', async () => {
      const r = await run(['search', 'retry', '--base-url', sb.url], { DEVINDEX_API_KEY: 'sk-not-a-valid-key' });
      assert.equal(r.code, 1);
      assert.match(r.err, /^devindex search: Unauthorized: Invalid token \(HTTP 401\): set or replace the API key/);
      assert.equal(r.err.trim().split('\n').length, 1);
      assert.ok(!(r.err + r.out).includes('sk-not-a-valid-key'));
      assert.equal(r.out, '');
    });

    it('429 -> retry -> success: progress on stderr, exit 0', async () => {
      await control('POST', '/__sandbox/faults', { faults: [{ kind: 'status', status: 429, retryAfter: '1' }] });
      const r = await run(['search', 'retry', '--base-url', sb.url]);
      assert.equal(r.code, 0, r.err);
      assert.equal(r.err, 'rate limited; retrying in 1 s (attempt 2 of 5)\n');
      assert.match(r.out, /^\d+ results?/);
      assert.equal((await requests()).length, 2);
    });

    it('a service error after retries is exit 1 (503 with Retry-After 0, five times)', async () => {
      await control('POST', '/__sandbox/faults', {
        faults: [{ kind: 'status', status: 503, retryAfter: '0', count: 5 }],
      });
      const r = await run(['search', 'retry', '--base-url', sb.url]);
      assert.equal(r.code, 1);
      assert.equal(r.err.split('\n').filter((l) => l.startsWith('service unavailable (HTTP 503); retrying')).length, 4);
      assert.match(r.err, /devindex search: Service Unavailable \(HTTP 503\): the service is temporarily unavailable/);
    });

    it('--help and devindex --help print usage, exit 0', async () => {
      const a = await run(['--help']);
      assert.equal(a.code, 0);
      assert.match(a.out, /^Usage: devindex <command>/);
      const b = await run(['search', '--help']);
      assert.equal(b.code, 0);
      assert.match(b.out, /^Usage: devindex search "<query>"/);
    });
  });
}
