// Against the sandbox, on both wires: the keyless quota's `signup_url`, deprecation headers
// on any endpoint (`--deprecated` / `POST /__sandbox/deprecations`), and `External-Request-Id` in the
// sandbox's request log; through the client, `devindex search` (a real process) and the doctor.
// `--wire spec` serves none of the production additions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DevIndexClient, type RequestLogEntry } from '../../src/api/client';
import type { ApiError } from '../../src/api/errors';
import type { DeprecationNotice } from '../../src/api/notices';
import { diagnose } from '../../src/doctor/diagnose';
import { renderIssueBody } from '../../src/doctor/render';
import { startSandbox } from '../../sandbox/server';
import { DEFAULT_DEPRECATION, type LoggedRequest, type Sandbox } from '../../sandbox/serverParts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI_PATH, runCliProcess } from './cliProcess';
import { HttpTransport } from '../../src/api/http';

/** `devindex mcp` through the SDK's client (as test/http/mcp.test.ts), keyless; one tool call's text, and the server's stderr. */
async function mcpSearch(baseUrl: string, queries: string[]): Promise<{ texts: string[]; stderr: string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_PATH, 'mcp'],
    env: { PATH: process.env.PATH ?? '', DEVINDEX_BASE_URL: baseUrl },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => {
    stderr += String(d);
  });
  const client = new Client({ name: 'devindex-correlation-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const texts: string[] = [];
    for (const query of queries) {
      const r = await client.callTool({ name: 'devIndex_search', arguments: { query } });
      texts.push((r.content as Array<{ text?: string }>)[0]?.text ?? '');
    }
    return { texts, stderr };
  } finally {
    await client.close();
  }
}

const KEY = 'sk-correlation-test-0123456789';
const SIGNUP = /^https:\/\/firecrawl\.dev\/k\/[0-9a-f]{20}$/;

for (const wire of ['production', 'spec'] as const) {
  describe(`the keyless quota, deprecations and correlation on --wire ${wire}`, () => {
    let sb: Sandbox;
    const clients: DevIndexClient[] = [];
    const client = (o: Partial<ConstructorParameters<typeof DevIndexClient>[0]> = {}): DevIndexClient => {
      const c = new DevIndexClient({ transport: new HttpTransport(), baseUrl: sb.url, timeoutMs: 5000, ...o });
      clients.push(c);
      return c;
    };
    const control = async (path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
      const r = await fetch(`${sb.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: r.status, json: (await r.json()) as Record<string, unknown> };
    };
    const logged = async (): Promise<LoggedRequest[]> =>
      ((await (await fetch(`${sb.url}/__sandbox/requests`)).json()) as { requests: LoggedRequest[] }).requests;
    const clearLog = async (): Promise<void> => {
      await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
    };

    before(async () => {
      sb = await startSandbox({
        port: 0,
        wire,
        keys: [KEY],
        faults: true,
        quiet: true,
        rateLimit: 100_000,
        keylessRateLimit: 100_000,
      });
    });
    after(async () => {
      await Promise.all(clients.map((c) => c.close()));
      await sb.close();
    });

    it('every request carries its own External-Request-Id; the sandbox logs it on the production wire', async () => {
      await clearLog();
      const logs: RequestLogEntry[] = [];
      const c = client({ apiKey: () => KEY, onLog: (e) => logs.push(e) });
      await c.search({ query: 'retry' });
      await c.search({ query: 'retry', k: 2 });
      const sent = logs.flatMap((l) => l.requestIds);
      assert.equal(sent.length, 2);
      assert.notEqual(sent[0], sent[1]);
      const seen = (await logged()).map((r) => r.requestId);
      if (wire === 'production') assert.deepEqual(seen, sent, 'echoed in the request log, as sent');
      else assert.deepEqual(seen, [undefined, undefined], 'the spec wire stays as it is');
      if (wire === 'production') {
        await clearLog();
        const long = 'x'.repeat(2049);
        await fetch(`${sb.url}/v2/search/developer?query=q`, { headers: { 'external-request-id': long } });
        assert.equal((await logged())[0]!.requestId, '(2049 bytes, over 2048: not kept)');
      }
    });

    it('an error a user sees names its request id, the one the sandbox logged', async () => {
      await clearLog();
      await control('/__sandbox/faults', { faults: [{ kind: 'status', status: 400, path: '/v2/search' }] });
      const e = (await client()
        .search({ query: 'q' })
        .catch((x: unknown) => x)) as ApiError;
      assert.match(e.message, /\(request id [0-9a-f-]{36}\)$/);
      if (wire === 'production') assert.equal((await logged())[0]!.requestId, e.requestId);
      const cli = await runCliProcess(['search', 'q'], { DEVINDEX_BASE_URL: sb.url });
      assert.equal(cli.code, 0);
      await control('/__sandbox/faults', { faults: [{ kind: 'status', status: 400, path: '/v2/search' }] });
      const failed = await runCliProcess(['search', 'q'], { DEVINDEX_BASE_URL: sb.url });
      assert.equal(failed.code, 1);
      assert.match(failed.err, /^devindex search: .*\(request id [0-9a-f-]{36}\)\n$/);
    });

    if (wire === 'production') {
      it("the keyless quota's 429 carries signup_url; the client keeps it, the CLI prints it first", async () => {
        assert.equal((await control('/__sandbox/keyless', { daily: 1, reset: true })).status, 200);
        try {
          await client().search({ query: 'first' });
          const raw = await fetch(`${sb.url}/v2/search/developer?query=second`);
          assert.equal(raw.status, 429);
          const body = (await raw.json()) as Record<string, unknown>;
          assert.match(String(body.signup_url), SIGNUP);
          const e = (await client()
            .search({ query: 'third' })
            .catch((x: unknown) => x)) as ApiError;
          assert.equal(e.kind, 'keyless-quota');
          assert.equal(e.signupUrl, body.signup_url, 'the same caller, the same day: the same link');
          const cli = await runCliProcess(['search', 'fourth'], { DEVINDEX_BASE_URL: sb.url });
          assert.equal(cli.code, 1);
          const lines = cli.err.trimEnd().split('\n');
          assert.match(
            lines[0]!,
            /^devindex search: Keyless searches are used up until .* \(request id [0-9a-f-]{36}\)$/,
          );
          assert.equal(
            lines[1],
            `devindex search: create your API key here: ${String(body.signup_url)} then set DEVINDEX_API_KEY to it`,
          );
          // The doctor: its failing finding names the request id, and the issue report carries it.
          const report = await diagnose(
            { baseUrl: sb.url, network: { env: {} }, surface: 'cli' },
            { timeouts: { service: 4000 } },
          );
          const service = report.findings.find((f) => f.check === 'service')!;
          assert.equal(service.status, 'problem');
          assert.match(service.found, /keyless searches are used up .* \(request id [0-9a-f-]{36}\)$/);
          assert.ok(service.requestId);
          assert.match(
            service.fix!.text,
            new RegExp(
              `^create your API key at ${String(body.signup_url).replace(/[/.]/g, '\\$&')}, then set DEVINDEX_API_KEY`,
            ),
          );
          const last = (await logged()).at(-1)!;
          assert.equal(last.requestId, service.requestId, 'the id the sandbox logged');
          // The MCP tools tell the model to hand the link to the user.
          const tools = await mcpSearch(sb.url, ['fifth']);
          assert.match(
            tools.texts[0]!,
            new RegExp(
              `give the user this link, exactly as it is, to create an API key: ${String(body.signup_url).replace(/[/.]/g, '\\$&')} \\. Then ask the user to set DEVINDEX_API_KEY`,
            ),
          );
          assert.match(tools.texts[0]!, /\(request id [0-9a-f-]{36}\)/);
          const body2 = renderIssueBody(report, { extension: '0.1.0', node: process.version, os: 'test' }, []);
          assert.match(
            body2,
            new RegExp(
              `### Request ids of the failures\\n\\nThe service can look these up \\(External-Request-Id\\): \`${service.requestId}\``,
            ),
          );
        } finally {
          await control('/__sandbox/keyless', { daily: 0, reset: true });
        }
      });

      it('a deprecated endpoint answers as usual with the headers and body warnings; the client, the CLI and the doctor say so', async () => {
        assert.equal((await control('/__sandbox/deprecations', { paths: ['/v2/search/developer'] })).status, 200);
        try {
          const raw = await fetch(`${sb.url}/v2/search/developer?query=retry`);
          assert.equal(raw.status, 200);
          assert.equal(raw.headers.get('deprecation'), DEFAULT_DEPRECATION.deprecation);
          assert.equal(raw.headers.get('sunset'), 'Thu, 31 Dec 2026 23:59:59 GMT');
          assert.equal(raw.headers.get('link'), `<${DEFAULT_DEPRECATION.successor}>; rel="successor-version"`);
          assert.equal(raw.headers.get('warning'), `299 - "${DEFAULT_DEPRECATION.warning}"`);
          const json = (await raw.json()) as Record<string, unknown>;
          assert.deepEqual(json.warnings, [DEFAULT_DEPRECATION.warning]);
          assert.equal(json.replacement, '/v2/search/developer');
          assert.ok(Array.isArray(json.results) && json.results.length > 0, 'the answer itself');

          const notices: DeprecationNotice[] = [];
          const r = await client({ onNotice: (n) => notices.push(n) }).search({ query: 'retry' });
          assert.ok(r.results.length > 0, 'shown as usual');
          assert.equal(notices.length, 1);
          assert.equal(notices[0]!.endpoint, 'GET /v2/search/developer');
          assert.equal(notices[0]!.sunsetAt, Date.UTC(2026, 11, 31, 23, 59, 59));
          assert.equal(notices[0]!.successor, DEFAULT_DEPRECATION.successor);

          // The answer on stdout as usual; the notice once, on stderr.
          const cli = await runCliProcess(['search', 'retry'], { DEVINDEX_BASE_URL: sb.url });
          assert.equal(cli.code, 0);
          assert.match(cli.out, /\d+ results?/);
          const notes = cli.err.split('\n').filter((l) => l.startsWith('devindex: notice: '));
          assert.equal(notes.length, 1);
          assert.match(
            notes[0]!,
            /^devindex: notice: GET \/v2\/search\/developer is deprecated since 3 Nov 2026; it stops working on 31 Dec 2026 \((in \d+ (d|h)|\d+ (d|h) ago)\); successor: https:\/\/docs\.firecrawl\.dev\/\S+; the service says: ".*" \(request id [0-9a-f-]{36}\)$/,
          );

          // The MCP tools: the first answer carries the notice for the model, the next does not; stderr has it once.
          const tools = await mcpSearch(sb.url, ['retry', 'retry again']);
          assert.match(
            tools.texts[0]!,
            /\n\nService notice \(tell the user; the answer above is complete\): GET \/v2\/search\/developer is deprecated since 3 Nov 2026; it stops working on 31 Dec 2026/,
          );
          assert.doesNotMatch(tools.texts[1]!, /Service notice/);
          assert.equal(tools.stderr.split('\n').filter((l) => l.startsWith('devindex: notice: ')).length, 1);

          // Any endpoint: the agent list too, keyed.
          await control('/__sandbox/deprecations', {
            paths: ['/v2/agent'],
            sunset: 'Fri, 30 Apr 2027 00:00:00 GMT',
            successor: 'https://docs.firecrawl.dev/agent-v3',
            warning: 'agent v2 is retiring',
          });
          const agentList = await fetch(`${sb.url}/v2/agent`, { headers: { authorization: `Bearer ${KEY}` } });
          assert.equal(agentList.status, 200);
          assert.equal(agentList.headers.get('sunset'), 'Fri, 30 Apr 2027 00:00:00 GMT');
          assert.equal(agentList.headers.get('link'), '<https://docs.firecrawl.dev/agent-v3>; rel="successor-version"');
          const search = await fetch(`${sb.url}/v2/search/developer?query=retry`);
          assert.equal(search.headers.get('deprecation'), null, 'only the named paths');

          const report = await diagnose(
            { baseUrl: sb.url, apiKey: KEY, network: { env: {} }, surface: 'cli' },
            { timeouts: { service: 4000, key: 4000 } },
          );
          const key = report.findings.find((f) => f.check === 'key')!;
          assert.equal(key.status, 'ok');
          assert.match(
            key.found,
            /; notice: GET \/v2\/agent is deprecated since 3 Nov 2026; it stops working on 30 Apr 2027 \(in \d+ d\); successor: https:\/\/docs\.firecrawl\.dev\/agent-v3; the service says: "agent v2 is retiring"/,
          );
          assert.deepEqual(key.notices?.length, 1);
        } finally {
          await control('/__sandbox/deprecations', { paths: [] });
        }
      });
    } else {
      it('serves none of it: no keyless quota link, no deprecation switch', async () => {
        const r = await control('/__sandbox/deprecations', { paths: ['/v2/search/developer'] });
        assert.equal(r.status, 400);
        const raw = await fetch(`${sb.url}/v2/search/developer?query=retry`);
        assert.equal(raw.headers.get('deprecation'), null);
        const tools = await mcpSearch(sb.url, ['retry']);
        assert.doesNotMatch(tools.texts[0]!, /Service notice/);
        assert.doesNotMatch(tools.stderr, /notice:/);
      });
      it('a sandbox started with --deprecated on the spec wire still answers without the headers', async () => {
        const other = await startSandbox({ port: 0, wire: 'spec', quiet: true, deprecated: ['/v2/search/developer'] });
        try {
          const raw = await fetch(`${other.url}/v2/search/developer?query=retry`);
          assert.equal(raw.status, 200);
          assert.equal(raw.headers.get('sunset'), null);
          assert.equal('warnings' in ((await raw.json()) as object), false);
        } finally {
          await other.close();
        }
      });
    }
  });
}

describe('--deprecated at start, production wire', () => {
  it('deprecates the named paths from the first request', async () => {
    const sb = await startSandbox({ port: 0, quiet: true, deprecated: ['/v2/search/developer'] });
    try {
      const raw = await fetch(`${sb.url}/v2/search/developer?query=retry`);
      assert.equal(raw.headers.get('deprecation'), DEFAULT_DEPRECATION.deprecation);
      // The browser build reads these headers: CORS exposes them, and a preflight admits the request id.
      assert.match(raw.headers.get('access-control-expose-headers') ?? '', /Deprecation, Sunset, Link, Warning/);
      const pre = await fetch(`${sb.url}/v2/search/developer`, { method: 'OPTIONS' });
      assert.match(pre.headers.get('access-control-allow-headers') ?? '', /External-Request-Id/);
    } finally {
      await sb.close();
    }
  });
});
