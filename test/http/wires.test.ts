// The client and every `devindex search` form against both wires of the sandbox: `production` (what
// the service sends today: no `type`, licenses, citation links, `web:` pages, no coverage) and `spec`
// (the specification's shapes). Each assertion says which wire it is about.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DevIndexClient } from '../../src/api/client';
import type { ApiError } from '../../src/api/errors';
import { licenseLabel, passageLink, provenance } from '../../src/api/results';
import { SearchResponseSchema } from '../../src/api/schemas';
import { VERSION } from '../../src/api/version';
import { startSandbox } from '../../sandbox/server';
import { type Sandbox } from '../../sandbox/serverParts';
import { runCliProcess, type CliRun } from './cliProcess';
import { HttpTransport } from '../../src/api/http';

const KEY = 'sk-wires-test-0123456789';
const REPOSITORY_ID = /^(issue|pull_request|readme):[^/]+\/[^#]+/;

const runCli = (args: string[], env: Record<string, string> = {}): Promise<CliRun> => runCliProcess(args, env);

for (const wire of ['production', 'spec'] as const) {
  describe(`--wire ${wire}`, () => {
    let sb: Sandbox;
    const clients: DevIndexClient[] = [];
    const client = (o: Partial<ConstructorParameters<typeof DevIndexClient>[0]> = {}): DevIndexClient => {
      const c = new DevIndexClient({
        transport: new HttpTransport(),
        baseUrl: sb.url,
        timeoutMs: 5000,
        origin: 'devindex-test@1',
        ...o,
      });
      clients.push(c);
      return c;
    };
    const raw = async (
      path: string,
      init: RequestInit = {},
    ): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> => {
      const r = await fetch(`${sb.url}${path}`, init);
      return { status: r.status, body: (await r.json()) as Record<string, unknown>, headers: r.headers };
    };
    const logged = async (): Promise<Array<{ method: string; body: unknown }>> =>
      (
        (await (await fetch(`${sb.url}/__sandbox/requests`)).json()) as {
          requests: Array<{ method: string; body: unknown }>;
        }
      ).requests;

    before(async () => {
      sb = await startSandbox({
        port: 0,
        wire,
        keys: [KEY],
        faults: true,
        quiet: true,
        rateLimit: 100_000,
        keylessRateLimit: 100_000,
        licenseKeyed: true,
      });
    });
    after(async () => {
      await Promise.all(clients.map((c) => c.close()));
      await sb.close();
    });

    it('client: every result gets its kind (type or id prefix) and its provenance', async () => {
      const r = await client().search({
        query: 'retry after rate limit',
        k: 10,
        types: ['issue', 'pull_request', 'readme'],
      });
      assert.ok(r.results.length >= 3);
      for (const x of r.results) {
        assert.match(x.id, REPOSITORY_ID);
        assert.equal(x.type, x.id.slice(0, x.id.indexOf(':')), `${x.id}: kind from the id`);
        const p = provenance(x);
        assert.ok(p.repo && x.id.includes(p.repo), `${x.id}: provenance ${p.text}`);
        if (x.type !== 'readme') assert.match(p.text, /^[^/]+\/\S+ #\d+$/);
      }
      const wireBody = await raw('/v2/search/developer?query=retry&types=issue');
      const first = (wireBody.body.results as Array<Record<string, unknown>>)[0]!;
      assert.equal('type' in first, wire === 'spec', 'the wire itself: type only on the spec wire');
    });

    it('client: licenses and passage links are production additions', async () => {
      const r = await client({ apiKey: () => KEY }).search({
        query: 'retry 429 Retry-After',
        k: 20,
        passages: 3,
        types: ['issue', 'pull_request', 'readme'],
      });
      const keyless = await client().search({
        query: 'retry 429 Retry-After',
        k: 20,
        passages: 3,
        types: ['issue', 'pull_request', 'readme'],
      });
      assert.equal(
        keyless.results.filter((x) => licenseLabel(x) !== undefined).length,
        0,
        'a keyless response carries no license',
      );
      const labels = r.results.map((x) => licenseLabel(x)).filter((l) => l !== undefined);
      const deepLinks = r.results.flatMap((x) => x.passages.map((p) => passageLink(p, x)).filter((l) => l !== x.url));
      if (wire === 'production') {
        assert.ok(labels.length > 0, 'some results carry a license');
        assert.ok(
          labels.every((l) => /^(MIT|Apache-2\.0|GPL-3\.0|BSD-3-Clause|no license)$/.test(l!)),
          labels.join(','),
        );
        assert.ok(
          deepLinks.some((l) => /#issuecomment-\d+$/.test(l)),
          'a passage links to its comment',
        );
        const rawBody = await raw('/v2/search/developer?query=retry&types=issue,readme&k=20', {
          headers: { authorization: `Bearer ${KEY}` },
        });
        const forms = new Set((rawBody.body.results as Array<{ license?: unknown }>).map((x) => typeof x.license));
        assert.ok(forms.has('string') && forms.has('object'), 'both license forms are on the wire');
      } else {
        assert.deepEqual(labels, []);
        assert.deepEqual(deepLinks, []);
      }
    });

    it('client: a search without types brings web pages only on the production wire', async () => {
      const r = await client().search({ query: 'flame graph sampling' });
      const kinds = new Set(r.results.map((x) => x.type));
      if (wire === 'production') {
        assert.ok(kinds.has('web'), [...kinds].join(','));
        const web = r.results.find((x) => x.type === 'web')!;
        assert.equal(provenance(web).text, 'notes.quarry.example/profiling/flame-graphs');
        assert.equal(r.coverage, undefined);
        assert.equal(r.reranked, undefined);
      } else {
        assert.ok(!kinds.has('web'));
        assert.ok(r.coverage);
      }
      const typed = await client().search({
        query: 'flame graph sampling',
        types: ['doc', 'issue', 'pull_request', 'readme'],
      });
      assert.ok(
        typed.results.every((x) => x.type !== 'web'),
        'types sent: no web pages on either wire',
      );
    });

    it('client: doc results keep their kind and a page provenance (production ids are doc:<url>)', async () => {
      const r = await client().search({ query: 'streaming response body', types: ['doc'] });
      assert.ok(r.results.length > 0);
      for (const x of r.results) {
        assert.equal(x.type, 'doc');
        assert.equal(x.id.startsWith(`doc:${x.url}`), wire === 'production', x.id);
        assert.ok(provenance(x).site);
      }
    });

    it('client: the 400 for a bad parameter names the field (production says "Invalid query parameters")', async () => {
      const c = client();
      await assert.rejects(
        c.request({
          method: 'GET',
          path: '/v2/search/developer',
          query: [
            ['query', 'x'],
            ['k', '0'],
          ],
          schema: SearchResponseSchema,
          retry: 'spec',
        }),
        (e: ApiError) => {
          assert.equal(e.status, 400);
          assert.equal(e.error, wire === 'production' ? 'Invalid query parameters' : 'Bad Request');
          assert.match(e.message, /\bk\b/);
          assert.equal(e.attempts, 1);
          return true;
        },
      );
    });

    it('client: an unknown path is a 404 (production: JSON naming the method and path, code NOT_FOUND)', async () => {
      await assert.rejects(
        client().request({
          method: 'GET',
          path: '/v2/search/nothing-here',
          schema: SearchResponseSchema,
          retry: 'spec',
        }),
        (e: ApiError) => {
          assert.equal(e.status, 404);
          if (wire === 'production') {
            assert.equal(e.error, 'GET /v2/search/nothing-here is not a Firecrawl API endpoint.');
            assert.equal(e.code, 'NOT_FOUND');
          } else assert.equal(e.error, 'Not Found');
          return true;
        },
      );
    });

    it('client: several topics go as a JSON array in a POST with origin; production accepts it, the spec wire refuses it', async () => {
      const c = client();
      const call = c.search({ query: 'rate limiting', topic: ['token-bucket', 'api-gateway'] });
      if (wire === 'production') {
        const r = await call;
        assert.ok(r.results.length > 0);
        assert.ok(
          r.results.every((x) => x.id.includes('ferrous-labs/ratelane') || x.id.includes('gridworks/tollgate')),
          r.results.map((x) => x.id).join(','),
        );
      } else {
        await assert.rejects(call, (e: ApiError) => e.status === 400 && /topic/.test(e.message));
      }
      const last = (await logged()).at(-1)!;
      assert.equal(last.method, 'POST');
      assert.deepEqual(last.body, {
        query: 'rate limiting',
        topic: ['token-bucket', 'api-gateway'],
        origin: 'devindex-test@1',
      });
    });

    it('the key-only mount /v2/developer/search exists only on the production wire and refuses keyless callers', async () => {
      const keyless = await raw('/v2/developer/search?query=retry');
      const keyed = await raw('/v2/developer/search?query=retry', { headers: { authorization: `Bearer ${KEY}` } });
      if (wire === 'production') {
        assert.equal(keyless.status, 401);
        assert.equal(keyed.status, 200);
        assert.ok((keyed.body.results as unknown[]).length > 0);
      } else {
        assert.equal(keyless.status, 404);
        assert.equal(keyed.status, 404);
      }
    });

    it('a 429 says its wait in the header, and on the production wire also as retry_after_seconds', async () => {
      const local = await startSandbox({ port: 0, wire, quiet: true, keylessRateLimit: 1 });
      try {
        await fetch(`${local.url}/v2/search/developer?query=a`).then((r) => r.arrayBuffer());
        const r = await fetch(`${local.url}/v2/search/developer?query=a`);
        const body = (await r.json()) as Record<string, unknown>;
        assert.equal(r.status, 429);
        const header = Number(r.headers.get('retry-after'));
        assert.ok(header >= 1);
        assert.equal(body.retry_after_seconds, wire === 'production' ? header : undefined);
      } finally {
        await local.close();
      }
    });

    it('devindex search: kind, provenance and (production) license and passage links, exit 0', async () => {
      const r = await runCli(
        [
          'search',
          'Retry-After 429',
          '--types',
          'issue,pull_request',
          '--passages',
          '3',
          '--k',
          '5',
          '--base-url',
          sb.url,
        ],
        { DEVINDEX_API_KEY: KEY },
      );
      assert.equal(r.code, 0, r.err);
      assert.equal(r.err, '');
      assert.match(r.out, /\n1\. .+\n {3}(issue|pull_request) · [\w.-]+\/[\w.-]+ #\d+( · [\w.-]+)?\n/);
      assert.equal(/ · (MIT|Apache-2\.0|GPL-3\.0)\n/.test(r.out), wire === 'production', 'license label');
      assert.equal(
        /\n {5}-> https:\/\/github\.com\/\S+#issuecomment-\d+\n/.test(r.out),
        wire === 'production',
        'passage link',
      );
    });

    it('devindex search --json: the validated response, with the kind filled in on both wires', async () => {
      const r = await runCli(['search', wire === 'production' ? 'flame graph' : 'retry', '--json', '--k', '3'], {
        DEVINDEX_BASE_URL: sb.url,
        DEVINDEX_API_KEY: KEY,
      });
      assert.equal(r.code, 0, r.err);
      const body = JSON.parse(r.out) as { results: Array<{ id: string; type: string }> };
      assert.ok(body.results.length > 0);
      for (const x of body.results) assert.equal(x.type, x.id.slice(0, x.id.indexOf(':')));
    });

    it('devindex search --topic twice: production answers, the spec wire refuses with the field named (exit 1)', async () => {
      const r = await runCli([
        'search',
        'rate limiting',
        '--topic',
        'token-bucket',
        '--topic',
        'api-gateway',
        '--base-url',
        sb.url,
      ]);
      const sent = (await logged()).at(-1)!;
      assert.equal(sent.method, 'POST');
      assert.equal(
        (sent.body as { origin?: unknown }).origin,
        `devindex-cli@${VERSION}`,
        'the CLI names itself as origin',
      );
      if (wire === 'production') {
        assert.equal(r.code, 0, r.err);
        assert.match(r.out, /ferrous-labs\/ratelane|gridworks\/tollgate/);
      } else {
        assert.equal(r.code, 1);
        assert.match(r.err, /topic/);
      }
    });

    it('devindex search: invalid input exits 2 before anything is sent, on either wire', async () => {
      const before = (await logged()).length;
      const r = await runCli(['search', 'q', '--k', '101', '--base-url', sb.url]);
      assert.equal(r.code, 2);
      assert.match(r.err, /k must be from 1 to 100; got 101/);
      assert.equal((await logged()).length, before);
    });
  });
}
