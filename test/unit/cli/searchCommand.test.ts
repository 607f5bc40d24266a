import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, errorFromResponse } from '../../../src/api/errors';
import type { SearchParams } from '../../../src/api/params';
import type { SearchResponse } from '../../../src/api/schemas';
import { runCli } from '../../../src/cli/main';
import {
  parseSearchArgs,
  runSearchCommand,
  type SearchClientLike,
  type SearchCommandDeps,
} from '../../../src/cli/searchCommand';
import type { CallOptions } from '../../../src/api/client';

function io(env: NodeJS.ProcessEnv = {}) {
  const o = { out: '', err: '', env };
  return {
    o,
    io: {
      out: (s: string) => {
        o.out += s;
      },
      err: (s: string) => {
        o.err += s;
      },
      env,
    },
  };
}

/** A client that records what it was asked and answers from `answer`. */
function fake(answer: (p: SearchParams, opts?: CallOptions) => Promise<SearchResponse>) {
  const calls: SearchParams[] = [];
  let created = 0;
  let closed = 0;
  const deps: SearchCommandDeps = {
    createClient: () => {
      created++;
      const c: SearchClientLike = {
        search: (p, opts) => {
          calls.push(p);
          return answer(p, opts);
        },
        close: async () => {
          closed++;
        },
      };
      return c;
    },
  };
  return { deps, calls, created: () => created, closed: () => closed };
}

const RESPONSE: SearchResponse = {
  success: true,
  reranked: true,
  results: [
    {
      id: 'issue:fetchline/fetchline#451',
      type: 'issue',
      url: 'https://github.com/fetchline/fetchline/issues/451',
      title: 'Retries ignore Retry-After',
      passages: [{ text: 'First line\n\n```ts\nawait f()\n```' }],
    },
    {
      id: 'doc:fetchline/streams',
      type: 'doc',
      url: 'https://fetchline.dev/docs/streams.html',
      title: undefined,
      passages: [{ text: 'Streams \u001b[31mred\u001b[0m text' }],
    },
  ],
  coverage: { doc: 'unavailable', issue: 'ok', pull_request: 'skipped', readme: 'ok' },
};

describe('parseSearchArgs', () => {
  it('maps every flag to its parameter', () => {
    const { params, json, baseUrl } = parseSearchArgs([
      'how to retry',
      '--k',
      '20',
      '--types',
      'doc,issue',
      '--types',
      'readme',
      '--repos',
      'a/b, c/d',
      '--sources',
      's1',
      '--skills',
      'only',
      '--passages',
      '3',
      '--language',
      'Go',
      '--topic',
      'http',
      '--license',
      'MIT',
      '--min-stars',
      '0',
      '--max-stars',
      '500',
      '--archived',
      'false',
      '--fork',
      'TRUE',
      '--base-url',
      'http://127.0.0.1:1',
      '--json',
    ]);
    assert.deepEqual(params, {
      query: 'how to retry',
      k: 20,
      types: ['doc', 'issue', 'readme'],
      repos: ['a/b', 'c/d'],
      sources: ['s1'],
      skills: 'only',
      passages: 3,
      language: 'Go',
      topic: 'http',
      license: 'MIT',
      min_stars: 0,
      max_stars: 500,
      archived: false,
      fork: true,
    });
    assert.equal(json, true);
    assert.equal(baseUrl, 'http://127.0.0.1:1');
  });

  it('keeps non-numeric and non-boolean values so validation can name them', () => {
    const { params } = parseSearchArgs(['q', '--k', 'ten', '--archived', 'maybe', '--passages', '2.5']);
    assert.equal(params.k as unknown, 'ten');
    assert.equal(params.archived as unknown, 'maybe');
    assert.equal(params.passages, 2.5);
  });
});

describe('runSearchCommand', () => {
  it('invalid input: exit 2, every problem named, no client created (nothing sent)', async () => {
    for (const argv of [
      ['q', '--k', '0'],
      ['q', '--k', 'ten'],
      ['q', '--passages', '6'],
      ['q', '--types', 'issue', '--sources', 'node-api'],
      ['q', '--repos', 'nope'],
      ['q', '--min-stars', '5', '--max-stars', '1'],
      ['q', '--skills', 'all'],
      ['q', '--fork', 'yes'],
    ]) {
      const f = fake(async () => RESPONSE);
      const t = io();
      assert.equal(await runSearchCommand(argv, t.io, f.deps), 2, argv.join(' '));
      assert.equal(f.created(), 0);
      assert.match(t.o.err, /^devindex search: \S+/);
      assert.equal(t.o.out, '');
    }
    const t = io();
    await runSearchCommand(['q', '--types', 'issue', '--sources', 'node-api'], t.io, fake(async () => RESPONSE).deps);
    assert.equal(t.o.err, 'devindex search: sources cannot match any requested type; add doc or drop sources\n');
    const t2 = io();
    await runSearchCommand(['q', '--k', 'ten'], t2.io, fake(async () => RESPONSE).deps);
    assert.equal(t2.o.err, 'devindex search: k must be an integer from 1 to 100; got "ten"\n');
  });

  it('usage errors: missing query, unknown flag, missing flag value -> exit 2', async () => {
    for (const argv of [[], ['--k', '5'], ['q', '--limit', '5'], ['q', '--k']]) {
      const t = io();
      const f = fake(async () => RESPONSE);
      assert.equal(await runSearchCommand(argv, t.io, f.deps), 2, argv.join(' '));
      assert.equal(f.created(), 0);
      assert.ok(t.o.err.startsWith('devindex search: '), t.o.err);
    }
  });

  it('prints results (title or url, kind, provenance, passages) and coverage notes, without terminal escapes', async () => {
    const f = fake(async () => RESPONSE);
    const t = io();
    assert.equal(
      await runSearchCommand(['retry', '--language', 'TypeScript', '--types', 'doc,issue,readme'], t.io, f.deps),
      0,
    );
    assert.deepEqual(f.calls[0], { query: 'retry', language: 'TypeScript', types: ['doc', 'issue', 'readme'] });
    const out = t.o.out;
    assert.match(out, /^2 results \(reranked\)\n/);
    assert.match(
      out,
      /\n1\. Retries ignore Retry-After\n {3}issue · fetchline\/fetchline #451\n {3}https:\/\/github.com\/fetchline\/fetchline\/issues\/451\n/,
    );
    assert.match(
      out,
      /\n2\. https:\/\/fetchline.dev\/docs\/streams.html\n {3}doc · fetchline.dev\/docs\/streams.html\n/,
    );
    assert.match(out, /\n {5}```ts\n {5}await f\(\)\n {5}```\n/);
    assert.ok(!out.includes('\u001b'), 'escape sequences from the service are stripped');
    assert.match(out, /Streams red text/);
    assert.match(out, /\nwarning: No documentation results: repository filters \(language\)/);
    assert.match(out, /\nnote: Pull request results were skipped/);
    assert.equal(f.closed(), 1);
  });

  it('caps each passage at 40 lines, before a code block that straddles the cap, and says what is left; --json keeps it whole', async () => {
    const long = [
      ...Array.from({ length: 36 }, (_, i) => `prose ${i + 1}`),
      '```js',
      'retry(3)',
      'retry(4)',
      'retry(5)',
      'retry(6)',
      'retry(7)',
      '```',
      'tail',
    ].join('\n');
    const short = Array.from({ length: 40 }, (_, i) => `short ${i + 1}`).join('\n');
    const res: SearchResponse = {
      success: true,
      results: [
        {
          id: 'readme:a/b',
          type: 'readme',
          url: 'https://github.com/a/b',
          title: 'b',
          passages: [{ text: long }, { text: short }],
        },
      ],
    };
    const t = io();
    assert.equal(await runSearchCommand(['q'], t.io, fake(async () => res).deps), 0);
    const out = t.o.out;
    assert.match(out, /\n {5}prose 36\n {5}… \(8 more lines; use --json for the full passage\)\n/);
    assert.ok(!out.includes('```'), 'no half of a code block is printed');
    assert.ok(!out.includes('tail'));
    assert.match(out, /\n {5}short 40\n/, 'a passage of exactly 40 lines is printed whole');
    assert.equal(out.match(/more line/g)?.length, 1);
    const j = io();
    assert.equal(await runSearchCommand(['q', '--json'], j.io, fake(async () => res).deps), 0);
    assert.equal(JSON.parse(j.o.out).results[0].passages[0].text, long);
  });

  it('--json prints the validated response and nothing else on stdout', async () => {
    const t = io();
    assert.equal(await runSearchCommand(['q', '--json'], t.io, fake(async () => RESPONSE).deps), 0);
    assert.deepEqual(JSON.parse(t.o.out), JSON.parse(JSON.stringify(RESPONSE)));
  });

  it('a service error: exit 1, "<message> (HTTP <status>)" on stderr, no stack', async () => {
    const err = errorFromResponse({
      status: 401,
      bodyText: JSON.stringify({ success: false, error: 'Unauthorized: Invalid token' }),
      nowMs: 0,
      attempts: 1,
    });
    const f = fake(async () => {
      throw err;
    });
    const t = io();
    assert.equal(await runSearchCommand(['q'], t.io, f.deps), 1);
    assert.match(t.o.err, /^devindex search: Unauthorized: Invalid token \(HTTP 401\): set or replace the API key/);
    assert.match(t.o.err, /the key is read from DEVINDEX_API_KEY/);
    assert.equal(t.o.err.split('\n').filter(Boolean).length, 1);
    assert.ok(!/\n\s+at /.test(t.o.err));
    assert.equal(t.o.out, '');
    assert.equal(f.closed(), 1);
  });

  it('network errors exit 1 too', async () => {
    const t = io();
    const f = fake(async () => {
      throw new ApiError({
        kind: 'network',
        message: 'could not complete the request to http://x: connection refused',
        retryable: false,
      });
    });
    assert.equal(await runSearchCommand(['q'], t.io, f.deps), 1);
  });

  it('retry progress goes to stderr', async () => {
    const f = fake(async (_p, opts) => {
      opts?.onRetry?.({ attempt: 2, maxAttempts: 5, delayMs: 2400, reason: 'rate limited', status: 429 });
      return RESPONSE;
    });
    const t = io();
    assert.equal(await runSearchCommand(['q'], t.io, f.deps), 0);
    assert.equal(t.o.err, 'rate limited; retrying in 3 s (attempt 2 of 5)\n');
  });

  it('--help prints the usage and exits 0', async () => {
    const t = io();
    assert.equal(await runSearchCommand(['--help'], t.io, fake(async () => RESPONSE).deps), 0);
    assert.match(t.o.out, /^Usage: devindex search "<query>"/);
    for (const flag of [
      '--k',
      '--types',
      '--repos',
      '--sources',
      '--skills',
      '--passages',
      '--language',
      '--topic',
      '--license',
      '--min-stars',
      '--max-stars',
      '--archived',
      '--fork',
      '--base-url',
      '--json',
    ]) {
      assert.ok(t.o.out.includes(flag), flag);
    }
  });

  it('an invalid --base-url is input error 2', async () => {
    const t = io();
    assert.equal(await runSearchCommand(['q', '--base-url', 'ftp://x'], t.io), 2);
    assert.match(t.o.err, /base URL must be an absolute http\(s\) URL/);
  });
});

describe('runCli', () => {
  it('--help, --version, unknown command, no command', async () => {
    let t = io();
    assert.equal(await runCli(['--help'], t.io), 0);
    assert.match(t.o.out, /search "<query>"/);
    assert.match(t.o.out, /agent/);
    t = io();
    assert.equal(await runCli(['--version'], t.io), 0);
    assert.match(t.o.out, /^devindex \d+\.\d+\.\d+\n$/);
    t = io();
    assert.equal(await runCli(['serch', 'q'], t.io), 2);
    assert.match(t.o.err, /unknown command "serch"/);
    t = io();
    assert.equal(await runCli([], t.io), 2);
    assert.match(t.o.err, /^Usage: devindex/);
  });

  it('dispatches search (invalid input comes back as 2 from the search command)', async () => {
    const t = io();
    assert.equal(await runCli(['search', 'q', '--k', '101'], t.io), 2);
    assert.equal(t.o.err, 'devindex search: k must be from 1 to 100; got 101\n');
  });
});
