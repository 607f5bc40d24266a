// With the addendum's late-November shapes verbatim ("Keyless, deprecation, correlation"):
// the keyless 429's `signup_url`, deprecation headers and body warnings, and the External-Request-Id
// every request carries; each as the CLI, the tools and the Search view's extension side say it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DevIndexClient, type RequestLogEntry } from '../../../src/api/client';
import { ApiError } from '../../../src/api/errors';
import {
  deprecationNotice,
  noticeParts,
  noticeWords,
  NoticeBoard,
  NoticeOnce,
  parseDeprecation,
  signupLink,
  successorLink,
  warningTexts,
  type DeprecationNotice,
} from '../../../src/api/notices';
import type { Clock } from '../../../src/api/retry';
import type { HttpRequest } from '../../../src/api/transport';
import { printError, printNotice } from '../../../src/cli/common';
import { type CliIo } from '../../../src/cli/cliBase';
import { errorText, noticesText } from '../../../src/tools/modelText';
import { runTool } from '../../../src/tools/toolOps';
import { type ToolDeps } from '../../../src/tools/toolTypes';
import { toViewError } from '../../../src/search/session/searchSession';
import { SearchController, type SearchViewDeps } from '../../../src/webview/searchController';
import { failureRequestIds, renderIssueBody } from '../../../src/doctor/render';
import type { DiagnosisReport } from '../../../src/doctor/findings';
import { HttpTransport } from '../../../src/api/http';

const T0 = Date.UTC(2026, 10, 27, 0, 0, 0); // 27 Nov 2026, 00:00 UTC
const KEY = 'fc-0123456789abcdef0123';

// The addendum's keyless 429 ("Keyless developer search", plus late November's `signup_url`).
const QUOTA_429 = {
  success: false,
  error: "You've hit Firecrawl's keyless free tier rate limit…",
  reason: 'requests',
  retry_after_seconds: 13 * 3600,
  signup_url: 'https://firecrawl.dev/k/3f9a1c0e7b2d4a61',
};
// The addendum's deprecation headers: `Deprecation` (`@<epoch seconds>` or a date), `Sunset` (an HTTP date),
// `Link: <…>; rel="successor-version"`, `Warning: 299 - "…"`.
const DEPRECATED_HEADERS = {
  deprecation: '@1793664000',
  sunset: 'Thu, 31 Dec 2026 23:59:59 GMT',
  link: '<https://api.firecrawl.dev/v2/search/developer>; rel="successor-version"',
  warning: '299 - "Deprecated API: use /v2/search/developer"',
};
const SEARCH_OK = {
  success: true,
  results: [{ id: 'issue:acme/widgets#1', url: 'https://github.com/acme/widgets/issues/1', passages: [{ text: 'x' }] }],
};

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A client over a transport stand-in: answers in order (the last repeats), records every request. */
function clientOver(
  answers: Answer[],
  o: { key?: string; onNotice?: (n: DeprecationNotice) => void; onLog?: (e: RequestLogEntry) => void } = {},
) {
  const sent: HttpRequest[] = [];
  const clock: Clock = { now: () => T0, sleep: async () => undefined };
  const client = new DevIndexClient({
    transport: new HttpTransport(),
    baseUrl: 'https://api.example.com',
    clock,
    random: () => 0,
    timeZone: 'UTC',
    apiKey: () => o.key,
    maxRetryAfterMs: 60_000,
    ...(o.onNotice ? { onNotice: o.onNotice } : {}),
    ...(o.onLog ? { onLog: o.onLog } : {}),
  });
  (client as unknown as { transport: unknown }).transport = {
    send: async (req: HttpRequest) => {
      const a = answers[Math.min(sent.length, answers.length - 1)]!;
      sent.push(req);
      return { status: a.status, headers: a.headers ?? {}, bodyText: JSON.stringify(a.body) };
    },
    close: async () => undefined,
  };
  return { client, sent };
}

const ioOf = () => {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (s) => out.push(s), err: (s) => err.push(s), env: {} };
  return { io, out, err };
};

describe("the keyless quota's signup_url", () => {
  it('is kept on the keyless-quota error when it is an https link to a plain host', async () => {
    const { client } = clientOver([
      {
        status: 429,
        body: QUOTA_429,
        headers: {
          'www-authenticate':
            'Bearer resource_metadata="https://api.firecrawl.dev/.well-known/oauth-protected-resource"',
        },
      },
    ]);
    const e = (await client.search({ query: 'q' }).catch((x: unknown) => x)) as ApiError;
    assert.equal(e.kind, 'keyless-quota');
    assert.equal(e.signupUrl, 'https://firecrawl.dev/k/3f9a1c0e7b2d4a61');
  });

  it('is dropped when the link is not one the product may open, and when a key was sent', async () => {
    for (const bad of [
      'http://firecrawl.dev/k/x',
      'javascript:alert(1)',
      'https://user:pw@firecrawl.dev/k/x',
      'https://127.0.0.1/k/x',
      'https://localhost/k/x',
      'https://firecrawl.dev:8443/k/x',
      'https://firecrawl.dev/k/a b',
      'https://firecrawl.dev/k/\u202ex',
      `https://firecrawl.dev/k/${'a'.repeat(2100)}`,
      42,
      'https://[::1]/k',
    ]) {
      assert.equal(signupLink(bad), undefined, String(bad).slice(0, 60));
      const { client } = clientOver([{ status: 429, body: { ...QUOTA_429, signup_url: bad } }]);
      const e = (await client.search({ query: 'q' }).catch((x: unknown) => x)) as ApiError;
      assert.equal(e.kind, 'keyless-quota');
      assert.equal(e.signupUrl, undefined, String(bad).slice(0, 60));
    }
    const keyed = clientOver([{ status: 429, body: QUOTA_429 }], { key: KEY });
    const e = (await keyed.client.search({ query: 'q' }).catch((x: unknown) => x)) as ApiError;
    assert.equal(e.kind, 'retry-after-too-long');
    assert.equal(e.signupUrl, undefined, 'a keyed caller has a key: no signup link');
  });

  it("the CLI prints the link first, then how to use the key; without one, today's words stay", async () => {
    const { client } = clientOver([{ status: 429, body: QUOTA_429 }]);
    const e = (await client.search({ query: 'q' }).catch((x: unknown) => x)) as ApiError;
    const a = ioOf();
    assert.equal(printError(a.io, e, 'devindex search'), 1);
    assert.equal(a.err.length, 2);
    assert.match(
      a.err[0]!,
      /^devindex search: Keyless searches are used up until 13:00 \(in 13 h\); an API key is not limited by the keyless quota \(request id [0-9a-f-]{36}\)\n$/,
    );
    assert.equal(
      a.err[1],
      'devindex search: create your API key here: https://firecrawl.dev/k/3f9a1c0e7b2d4a61 then set DEVINDEX_API_KEY to it\n',
    );
    const plain = clientOver([{ status: 429, body: { ...QUOTA_429, signup_url: undefined } }]);
    const e2 = (await plain.client.search({ query: 'q' }).catch((x: unknown) => x)) as ApiError;
    const b = ioOf();
    printError(b.io, e2, 'devindex search');
    assert.equal(
      b.err[1],
      "devindex search: to search with your own key now, set DEVINDEX_API_KEY (an API key from the service's dashboard)\n",
    );
  });

  it("the tools tell the model to hand the link to the user; without one, today's words", async () => {
    const { client } = clientOver([{ status: 429, body: QUOTA_429 }]);
    const e = (await client.search({ query: 'q' }).catch((x: unknown) => x)) as ApiError;
    const editor = errorText(e, { surface: 'editor', op: 'Developer index search' });
    assert.match(
      editor,
      /give the user this link, exactly as it is, to create an API key: https:\/\/firecrawl\.dev\/k\/3f9a1c0e7b2d4a61 \. Then ask the user to run "Developer Index: Set API Key"/,
    );
    const mcp = errorText(e, { surface: 'mcp', op: 'Developer index search' });
    assert.match(mcp, /https:\/\/firecrawl\.dev\/k\/3f9a1c0e7b2d4a61 \. Then ask the user to set DEVINDEX_API_KEY/);
    const bare = new ApiError({
      kind: 'keyless-quota',
      message: 'Keyless searches are used up until 13:00 (in 13 h)',
      status: 429,
    });
    assert.doesNotMatch(errorText(bare, { surface: 'editor', op: 'Search' }), /give the user this link/);
    assert.match(
      errorText(bare, { surface: 'editor', op: 'Search' }),
      /The user can add an API key to keep searching now: ask the user to run "Developer Index: Set API Key"/,
    );
  });

  it('the Search view gets it on the keyless error (checked again); Get a Key opens only a checked link', async () => {
    const quota = new ApiError({
      kind: 'keyless-quota',
      message: 'm',
      status: 429,
      resetAt: T0 + 1000,
      quota: 'requests',
      signupUrl: 'https://firecrawl.dev/k/abc',
    });
    assert.deepEqual(toViewError(quota), {
      message: 'm',
      status: 429,
      action: 'setKey',
      keyless: { kind: 'quota', resetAt: T0 + 1000, quota: 'requests', signupUrl: 'https://firecrawl.dev/k/abc' },
    });
    const forged = new ApiError({
      kind: 'keyless-quota',
      message: 'm',
      status: 429,
      resetAt: T0 + 1000,
      signupUrl: 'http://evil.example/k',
    });
    assert.deepEqual(toViewError(forged), {
      message: 'm',
      status: 429,
      action: 'setKey',
      keyless: { kind: 'quota', resetAt: T0 + 1000 },
    });

    const opened: string[] = [];
    const logs: string[] = [];
    const deps = {
      openExternal: (u: string) => opened.push(u),
      log: (l: string) => logs.push(l),
      defaults: () => ({ k: 10, passages: 1, types: [] }),
      workspaceRepos: async () => [],
      hasKey: async () => false,
    } as unknown as SearchViewDeps;
    const c = new SearchController(deps, () => undefined);
    await c.receive({ type: 'getKey', url: 'https://firecrawl.dev/k/abc' });
    await c.receive({ type: 'getKey', url: 'https://evil.example:444/k' });
    await c.receive({ type: 'getKey', url: 'file:///etc/passwd' });
    assert.deepEqual(opened, ['https://firecrawl.dev/k/abc']);
    assert.equal(logs.filter((l) => /refused to open a signup link/.test(l)).length, 2);
  });
});

describe('deprecation headers and body warnings', () => {
  it("are read from the addendum's headers: since, sunset, successor, warning", () => {
    const n = deprecationNotice({ method: 'GET', path: '/v2/search/developer/search', headers: DEPRECATED_HEADERS })!;
    assert.deepEqual(n, {
      endpoint: 'GET /v2/search/developer/search',
      deprecated: true,
      deprecatedAt: Date.UTC(2026, 10, 3),
      sunsetAt: Date.UTC(2026, 11, 31, 23, 59, 59),
      successor: 'https://api.firecrawl.dev/v2/search/developer',
      warnings: ['Deprecated API: use /v2/search/developer'],
    });
    assert.equal(
      noticeWords(n, T0),
      'GET /v2/search/developer/search is deprecated since 3 Nov 2026; it stops working on 31 Dec 2026 (in 35 d); ' +
        'successor: https://api.firecrawl.dev/v2/search/developer; the service says: "Deprecated API: use /v2/search/developer"',
    );
    // After the sunset the day stays the day, and how far off says "ago".
    assert.match(
      noticeParts(n, Date.UTC(2027, 0, 2)).sunset!,
      /^it was due to stop working on 31 Dec 2026 \(\d+ h ago\)$/,
    );
  });

  it('`Deprecation` as a date, as `true`, and a Link list with other relations', () => {
    assert.deepEqual(parseDeprecation('Tue, 03 Nov 2026 00:00:00 GMT'), { present: true, at: Date.UTC(2026, 10, 3) });
    assert.deepEqual(parseDeprecation('2026-11-03'), { present: true, at: Date.UTC(2026, 10, 3) });
    assert.deepEqual(parseDeprecation('true'), { present: true });
    assert.deepEqual(parseDeprecation(undefined), { present: false });
    assert.equal(
      successorLink(
        '<https://docs.x.dev/a>; rel="deprecation", </v2/new>; rel="successor-version latest-version"',
        'https://api.example.com/v2/old?q=1',
      ),
      'https://api.example.com/v2/new',
    );
    assert.equal(successorLink('<javascript:alert(1)>; rel="successor-version"'), undefined);
    assert.deepEqual(
      warningTexts('299 - "first", 299 api.example.com "second \\"quoted\\"" "Tue, 03 Nov 2026 00:00:00 GMT"'),
      ['first', 'second "quoted"'],
    );
  });

  it('body `warnings` and `replacement` are shown the same way; warnings alone are a warning, not a deprecation', () => {
    const n = deprecationNotice({
      method: 'POST',
      path: '/v2/search/developer',
      headers: {},
      body: {
        success: true,
        results: [],
        warnings: ['topic as a string is deprecated', { message: 'second\nline' }],
        replacement: '/v2/search/developer?topic[]',
      },
    })!;
    assert.equal(n.deprecated, true);
    assert.deepEqual(n.warnings, ['topic as a string is deprecated', 'second line']);
    assert.equal(n.replacement, '/v2/search/developer?topic[]');
    const only = deprecationNotice({
      method: 'GET',
      path: '/v2/agent',
      headers: {},
      body: { warnings: ['slow down'] },
    })!;
    assert.equal(noticeWords(only, T0), 'the service warns about GET /v2/agent; the service says: "slow down"');
    assert.equal(
      deprecationNotice({
        method: 'GET',
        path: '/v2/agent',
        headers: { 'content-type': 'application/json' },
        body: { success: true },
      }),
      undefined,
    );
  });

  it("the client returns the answer as usual and reports the notice with the request's id, on success and on error", async () => {
    const notices: DeprecationNotice[] = [];
    const { client, sent } = clientOver(
      [{ status: 200, body: { ...SEARCH_OK, warnings: ['use topic arrays'] }, headers: DEPRECATED_HEADERS }],
      { onNotice: (n) => notices.push(n) },
    );
    const r = await client.search({ query: 'q' });
    assert.equal(r.results.length, 1, 'the answer as usual');
    assert.equal(notices.length, 1);
    assert.equal(notices[0]!.requestId, sent[0]!.headers['external-request-id']);
    assert.deepEqual(notices[0]!.warnings, ['Deprecated API: use /v2/search/developer', 'use topic arrays']);
    const failing = clientOver(
      [
        {
          status: 400,
          body: { success: false, error: 'Invalid query parameters', warnings: ['x'] },
          headers: DEPRECATED_HEADERS,
        },
      ],
      { onNotice: (n) => notices.push(n) },
    );
    await failing.client.search({ query: 'q' }).catch(() => undefined);
    assert.equal(notices.length, 2);
    assert.equal(notices[1]!.sunsetAt, Date.UTC(2026, 11, 31, 23, 59, 59));
  });

  it('the CLI tells it once per endpoint and process, on stderr', () => {
    const n = deprecationNotice({
      method: 'GET',
      path: '/v2/search/developer',
      headers: DEPRECATED_HEADERS,
      requestId: 'rid-7',
    })!;
    const a = ioOf();
    printNotice(a.io, n, T0);
    printNotice(a.io, n, T0 + 1000);
    printNotice(a.io, { ...n, endpoint: 'POST /v2/search/developer' }, T0);
    assert.equal(a.err.length, 2);
    assert.equal(
      a.err[0],
      'devindex: notice: GET /v2/search/developer is deprecated since 3 Nov 2026; it stops working on 31 Dec 2026 (in 35 d); successor: https://api.firecrawl.dev/v2/search/developer; the service says: "Deprecated API: use /v2/search/developer" (request id rid-7)\n',
    );
    assert.equal(a.out.length, 0, 'stdout keeps the answer alone');
  });

  it("once per endpoint and day (the editor's rule), once per process for a model", () => {
    const n = deprecationNotice({ method: 'GET', path: '/v2/agent', headers: DEPRECATED_HEADERS })!;
    const day = new NoticeOnce('day');
    assert.equal(day.first(n, T0), true);
    assert.equal(day.first(n, T0 + 3_600_000), false);
    assert.equal(day.first(n, T0 + 86_400_000), true, 'the next UTC day');
    const board = new NoticeBoard();
    board.add(n, T0);
    board.add(n, T0 + 1);
    assert.equal(board.take().length, 1);
    assert.equal(board.take().length, 0);
  });

  it('a tool answer carries the notices not yet told, for the model to pass on', async () => {
    const n = deprecationNotice({
      method: 'GET',
      path: '/v2/search/developer',
      headers: DEPRECATED_HEADERS,
      requestId: 'rid-9',
    })!;
    let pending = [n];
    const deps = {
      surface: 'mcp',
      maxChars: () => 4000,
      search: async () => ({ success: true, results: [] }),
      takeNotices: () => {
        const out = pending;
        pending = [];
        return out;
      },
    } as unknown as ToolDeps;
    const first = await runTool('devIndex_search', { query: 'q' }, deps);
    assert.match(
      first.text,
      /\n\nService notice \(tell the user; the answer above is complete\): GET \/v2\/search\/developer is deprecated since 3 Nov 2026; it stops working on 31 Dec 2026 \(in \d+ d\); successor: https:\/\/api\.firecrawl\.dev\/v2\/search\/developer; .* \(request id rid-9\)\.$/,
    );
    const second = await runTool('devIndex_search', { query: 'q' }, deps);
    assert.doesNotMatch(second.text, /Service notice/);
    assert.equal(noticesText([]), '');
  });
});

describe('External-Request-Id', () => {
  it('every request carries its own fresh random id (each retry too), never derived from the key; the error names the last', async () => {
    const logs: RequestLogEntry[] = [];
    const { client, sent } = clientOver([{ status: 503, body: { success: false, error: 'Service Unavailable' } }], {
      key: KEY,
      onLog: (e) => logs.push(e),
    });
    const e = (await client.search({ query: 'q' }).catch((x: unknown) => x)) as ApiError;
    assert.equal(sent.length, 5);
    const ids = sent.map((r) => r.headers['external-request-id']!);
    assert.equal(new Set(ids).size, 5, 'a fresh id per request');
    for (const id of ids) {
      assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'a random (v4) UUID');
      assert.ok(Buffer.byteLength(id) <= 2048);
      assert.ok(!id.includes(KEY.slice(3, 11)), 'nothing of the key');
    }
    assert.equal(e.requestId, ids[4]);
    assert.match(e.message, new RegExp(`\\(request id ${ids[4]}\\)$`));
    assert.deepEqual(logs[0]!.requestIds, ids, "the log has every request's id");
    const again = clientOver([{ status: 200, body: SEARCH_OK }], { key: KEY });
    await again.client.search({ query: 'q' });
    assert.ok(!ids.includes(again.sent[0]!.headers['external-request-id']!), 'another client, another id');
  });

  it('nothing sent, no id: a refused input names none', async () => {
    const { client, sent } = clientOver([{ status: 200, body: SEARCH_OK }]);
    const e = (await client.search({ query: '' }).catch((x: unknown) => x)) as ApiError;
    assert.equal(sent.length, 0);
    assert.equal(e.requestId, undefined);
    assert.doesNotMatch(e.message, /request id/);
  });
});

describe('the issue report carries the ids of the failures it describes', () => {
  const report: DiagnosisReport = {
    baseUrl: 'https://api.example.com',
    surface: 'editor',
    startedAt: '2026-11-27T00:00:00.000Z',
    ms: 900,
    cancelled: false,
    ok: false,
    findings: [
      {
        check: 'service',
        title: 'service',
        status: 'problem',
        found: 'the service answered HTTP 503 (request id 11111111-2222-4333-8444-555555555555)',
        fix: { text: 'later' },
        requestId: '11111111-2222-4333-8444-555555555555',
      },
      {
        check: 'key',
        title: 'API key',
        status: 'ok',
        found: 'accepted',
        requestId: '99999999-2222-4333-8444-555555555555',
      },
    ],
  };
  const lines = [
    '2026-11-27T00:00:01.000Z [info] GET /v2/search/developer 200 · 1 attempt · 12 ms · id aaaaaaaa-2222-4333-8444-555555555555',
    '2026-11-27T00:00:02.000Z [warning] GET /v2/search/developer 503 · 2 attempts · 900 ms · id bbbbbbbb-2222-4333-8444-555555555555, cccccccc-2222-4333-8444-555555555555 · Service Unavailable (HTTP 503): later (request id cccccccc-2222-4333-8444-555555555555)',
    '2026-11-27T00:00:03.000Z [warning] service notice: GET /v2/agent is deprecated (request id dddddddd-2222-4333-8444-555555555555)',
  ];

  it("the problem findings' ids, then each failed request's last id from the log; never a success, an ok finding or a notice", () => {
    assert.deepEqual(failureRequestIds(report, lines), [
      '11111111-2222-4333-8444-555555555555',
      'cccccccc-2222-4333-8444-555555555555',
    ]);
    const body = renderIssueBody(report, { extension: '0.1.0', node: 'v20', os: 'Linux' }, lines);
    assert.match(
      body,
      /### Request ids of the failures\n\nThe service can look these up \(External-Request-Id\): `11111111-2222-4333-8444-555555555555`, `cccccccc-2222-4333-8444-555555555555`\n/,
    );
    assert.match(
      renderIssueBody({ ...report, findings: [] }, { extension: '0.1.0', node: 'v20', os: 'Linux' }, []),
      /### Request ids of the failures\n\nNone: no request failed\./,
    );
  });
});
