// The sandbox's developer search over real HTTP against test/fixtures/corpus-small: results, ids,
// ranking, passages, coverage, echoes and scoping rules 1-8 of spec 4.1.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox } from '../../sandbox/server';
import { type Sandbox } from '../../sandbox/serverParts';
import { RULE3_MESSAGE, RULE4_MESSAGE } from '../../sandbox/search/params';
import { get, ids, post, smallCorpus, type Query } from './sandboxHelpers';

const PATH = '/v2/search/developer';
const DOCS = [
  'doc:alpha-docs/guide/retries',
  'doc:alpha-docs/notitle',
  'doc:alpha-docs/skills/backoff/SKILL',
  'doc:beta-docs/index',
  'doc:beta-docs/skills/pagination/SKILL',
];
const ALPHA = DOCS.filter((d) => d.startsWith('doc:alpha-docs/'));
const BETA = DOCS.filter((d) => d.startsWith('doc:beta-docs/'));
const WIDGETS = ['issue:acme/widgets#1', 'issue:acme/widgets#2', 'pull_request:acme/widgets#3', 'readme:acme/widgets'];
const PARTIAL = ['issue:acme/partial#4', 'readme:acme/partial'];
const FORK = ['issue:old/widgets-fork#7', 'readme:old/widgets-fork'];
const REPO_DOCS = [...WIDGETS, ...PARTIAL, ...FORK];
const ALL = [...DOCS, ...REPO_DOCS];
const sorted = (a: string[]): string[] => [...a].sort();
const ALL_OK = { doc: 'ok', issue: 'ok', pull_request: 'ok', readme: 'ok' };

let sb: Sandbox;
before(async () => {
  sb = await startSandbox({
    port: 0,
    wire: 'spec',
    quiet: true,
    corpusDir: smallCorpus(),
    rateLimit: 0,
    keylessRateLimit: 0,
  });
});
after(async () => {
  await sb.close();
});

/** Every fixture document mentions "zephyr": with k=100 a search returns exactly what its scope admits. */
const all = (extra: Query = {}) =>
  get(
    sb.url,
    PATH,
    Array.isArray(extra) ? [['query', 'zephyr'], ['k', '100'], ...extra] : { query: 'zephyr', k: 100, ...extra },
  );

describe('sandbox search: results', () => {
  it('returns every indexed document and nothing unindexed', async () => {
    const r = await all();
    assert.equal(r.status, 200);
    assert.equal(r.json.success, true);
    assert.deepEqual(ids(r), sorted(ALL));
    assert.deepEqual(r.json.coverage, ALL_OK);
    assert.equal(r.json.reranked, true);
    assert.equal('repos' in r.json, false);
    assert.equal('sources' in r.json, false);
  });

  it('gives each type its documented id and url form, and omits a missing doc title', async () => {
    const r = await all();
    const by = new Map<string, { type: string; url: string; title?: string; passages: unknown[] }>(
      r.json.results.map((x: { id: string }) => [x.id, x]),
    );
    assert.deepEqual(by.get('issue:acme/widgets#1'), {
      ...by.get('issue:acme/widgets#1'),
      type: 'issue',
      url: 'https://github.com/acme/widgets/issues/1',
      title: 'Retry-After ignored by the zephyr adapter',
    });
    assert.equal(by.get('pull_request:acme/widgets#3')?.url, 'https://github.com/acme/widgets/pull/3');
    assert.equal(by.get('pull_request:acme/widgets#3')?.type, 'pull_request');
    assert.equal(by.get('readme:acme/widgets')?.url, 'https://github.com/acme/widgets#readme');
    assert.equal(by.get('readme:acme/widgets')?.type, 'readme');
    assert.equal(by.get('doc:alpha-docs/guide/retries')?.url, 'https://alpha.example/docs/guide/retries.html');
    assert.equal(by.get('doc:alpha-docs/guide/retries')?.title, 'Retrying requests with zephyr');
    assert.equal(
      by.get('doc:beta-docs/skills/pagination/SKILL')?.url,
      'https://beta.example/skills/pagination/SKILL.html',
    );
    const untitled = by.get('doc:alpha-docs/notitle');
    assert.ok(untitled);
    assert.equal('title' in untitled, false);
    for (const x of by.values()) assert.equal(x.passages.length, 1);
  });

  it('returns k results: 10 by default, 1 and 100 at the bounds', async () => {
    assert.equal((await get(sb.url, PATH, { query: 'zephyr' })).json.results.length, 10);
    assert.equal((await get(sb.url, PATH, { query: 'zephyr', k: 1 })).json.results.length, 1);
    assert.equal((await get(sb.url, PATH, { query: 'zephyr', k: 100 })).json.results.length, ALL.length);
  });

  it('ranks the document that holds the query terms first', async () => {
    const r = await get(sb.url, PATH, { query: 'quokka policy Retry-After' });
    assert.equal(r.json.results[0].id, 'doc:alpha-docs/guide/retries');
    const r2 = await get(sb.url, PATH, [
      ['query', 'Retry-After adapter'],
      ['types', 'issue,pull_request'],
    ]);
    assert.deepEqual(
      r2.json.results
        .slice(0, 2)
        .map((x: { id: string }) => x.id)
        .sort(),
      ['issue:acme/widgets#1', 'pull_request:acme/widgets#3'],
    );
  });

  it('answers no results for a query nothing matches, without reranking', async () => {
    const r = await get(sb.url, PATH, { query: 'xylophonic' });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.results, []);
    assert.equal(r.json.reranked, false);
    assert.deepEqual(r.json.coverage, ALL_OK);
  });

  it('skips the rerank stage when there is a single candidate', async () => {
    const r = await get(sb.url, PATH, { query: 'quokka' });
    assert.deepEqual(ids(r), ['doc:alpha-docs/guide/retries']);
    assert.equal(r.json.reranked, false);
  });
});

describe('sandbox search: passages', () => {
  it('returns the best chunk, with its code fence whole', async () => {
    const r = await get(sb.url, PATH, { query: 'quokka', passages: 1 });
    const [p] = r.json.results[0].passages as Array<{ text: string }>;
    assert.ok(p);
    assert.match(p.text, /quokka policy/);
    assert.equal(p.text.split('```').length - 1, 2, 'both fence lines are in the passage');
    assert.match(p.text, /maxAttempts: 5/);
  });

  it('returns up to `passages` chunks, tables and fences never cut', async () => {
    const r = await get(sb.url, PATH, { query: 'quokka', passages: 5 });
    const ps = (r.json.results[0].passages as Array<{ text: string }>).map((p) => p.text);
    assert.equal(ps.length, 4, 'the page has four chunks: intro, delays, quokka, giving up');
    assert.match(ps[0] ?? '', /quokka/);
    for (const t of ps) assert.equal((t.split('```').length - 1) % 2, 0);
    const table = ps.find((t) => t.includes('| Attempt |'));
    assert.ok(table);
    for (const row of ['| 1 | 1 |', '| 2 | 2 |', '| 3 | 4 |', '| 4 | 8 |']) assert.ok(table.includes(row), row);
  });

  it('returns fewer passages than asked when the document is shorter', async () => {
    const r = await get(sb.url, PATH, [
      ['query', 'flag parsing panics'],
      ['types', 'issue'],
      ['passages', '5'],
    ]);
    assert.equal(r.json.results[0].id, 'issue:acme/partial#4');
    assert.equal(r.json.results[0].passages.length, 1);
  });
});

describe('sandbox search: types and array forms', () => {
  it('searches only the requested types and reports the others skipped', async () => {
    const r = await all({ types: 'issue' });
    assert.deepEqual(ids(r), sorted(REPO_DOCS.filter((d) => d.startsWith('issue:'))));
    assert.deepEqual(r.json.coverage, { doc: 'skipped', issue: 'ok', pull_request: 'skipped', readme: 'skipped' });
  });

  it('accepts repeated, comma-separated and mixed array parameters alike', async () => {
    const want = sorted(REPO_DOCS.filter((d) => /^(issue|readme):/.test(d)));
    const repeated = await all([
      ['types', 'issue'],
      ['types', 'readme'],
    ]);
    const comma = await all([['types', 'issue,readme']]);
    assert.deepEqual(ids(repeated), want);
    assert.deepEqual(ids(comma), want);
    const mixed = await all([
      ['types', 'issue,readme'],
      ['types', 'doc'],
      ['sources', 'alpha-docs'],
      ['sources', 'beta-docs,nope'],
    ]);
    assert.deepEqual(ids(mixed), sorted([...want, ...DOCS]));
    assert.deepEqual(mixed.json.sources, [
      { source: 'alpha-docs', indexed: true },
      { source: 'beta-docs', indexed: true },
      { source: 'nope', indexed: false },
    ]);
  });

  it('answers a POST JSON body exactly like the GET form', async () => {
    const q = {
      query: 'zephyr',
      k: 100,
      types: ['issue', 'doc'],
      repos: ['acme/widgets'],
      sources: ['beta-docs'],
      passages: 2,
    };
    const p = await post(sb.url, PATH, q);
    const g = await get(sb.url, PATH, [
      ['query', 'zephyr'],
      ['k', '100'],
      ['types', 'issue'],
      ['types', 'doc'],
      ['repos', 'acme/widgets'],
      ['sources', 'beta-docs'],
      ['passages', '2'],
    ]);
    assert.equal(p.status, 200);
    assert.deepEqual(p.json, g.json);
    assert.deepEqual(ids(p), sorted(['issue:acme/widgets#1', 'issue:acme/widgets#2', ...BETA]));
  });
});

describe('sandbox search: scoping rules', () => {
  it('rule 1: repos scopes only the repository half', async () => {
    const r = await all({ repos: 'acme/widgets' });
    assert.deepEqual(ids(r), sorted([...WIDGETS, ...DOCS]));
    assert.deepEqual(r.json.repos, [
      { repo: 'acme/widgets', indexed: true, types: { issue: true, pullRequest: true, readme: true } },
    ]);
    assert.deepEqual(r.json.coverage, ALL_OK);
  });

  it('rule 1: sources scopes only the documentation half', async () => {
    const r = await all({ sources: 'alpha-docs' });
    assert.deepEqual(ids(r), sorted([...ALPHA, ...REPO_DOCS]));
    assert.deepEqual(r.json.sources, [{ source: 'alpha-docs', indexed: true }]);
  });

  it('rule 2: repos and sources together are a union of both halves', async () => {
    const r = await all({ repos: 'acme/widgets', sources: 'beta-docs' });
    assert.deepEqual(ids(r), sorted([...WIDGETS, ...BETA]));
    assert.equal(r.json.repos.length, 1);
    assert.equal(r.json.sources.length, 1);
  });

  it('rule 3: repos with no repository type is a 400 naming repos', async () => {
    for (const body of [
      { query: 'zephyr', repos: ['acme/widgets'], types: ['doc'] },
      { query: 'zephyr', repos: ['acme/widgets'], types: [] },
    ]) {
      const r = await post(sb.url, PATH, body);
      assert.equal(r.status, 400);
      assert.equal(r.json.success, false);
      assert.equal(r.json.error, RULE3_MESSAGE);
      assert.match(
        r.json.error,
        /^repos cannot match any requested type; add issue, pull_request or readme or drop repos$/,
      );
      assert.deepEqual(
        r.json.details.map((d: { path: string[] }) => d.path),
        [['repos']],
      );
    }
    const ok = await all({ repos: 'acme/widgets', types: 'readme' });
    assert.deepEqual(ids(ok), ['readme:acme/widgets']);
  });

  it("rule 4: sources without doc is a 400 with the specification's message", async () => {
    const r = await get(sb.url, PATH, [
      ['query', 'zephyr'],
      ['sources', 'alpha-docs'],
      ['types', 'issue,readme'],
    ]);
    assert.equal(r.status, 400);
    assert.equal(r.json.success, false);
    assert.equal(r.json.error, 'sources cannot match any requested type; add doc or drop sources');
    assert.equal(RULE4_MESSAGE, r.json.error);
    const ok = await all([
      ['sources', 'alpha-docs'],
      ['types', 'doc'],
    ]);
    assert.deepEqual(ids(ok), sorted(ALPHA));
  });

  const filterCases: Array<[string, Query, string[]]> = [
    ['language', { language: 'typescript' }, WIDGETS],
    ['topic', { topic: 'cli' }, PARTIAL],
    ['topic (shared)', { topic: 'HTTP' }, [...WIDGETS, ...FORK]],
    ['license', { license: 'apache-2.0' }, PARTIAL],
    ["min_stars at a repository's stars", { min_stars: 120 }, [...WIDGETS, ...PARTIAL]],
    ['min_stars one above', { min_stars: 121 }, WIDGETS],
    ["max_stars at a repository's stars", { max_stars: 120 }, [...PARTIAL, ...FORK]],
    ['max_stars one below', { max_stars: 119 }, FORK],
    ['archived=true', { archived: true }, FORK],
    ['archived=false', { archived: false }, [...WIDGETS, ...PARTIAL]],
    ['fork=true', { fork: true }, FORK],
    ['fork=false', { fork: false }, [...WIDGETS, ...PARTIAL]],
    ['min_stars above max_stars', { min_stars: 200, max_stars: 100 }, []],
  ];
  for (const [name, q, want] of filterCases) {
    it(`rules 5 and 6: ${name} filters repositories, and no doc results without sources`, async () => {
      const r = await all(q);
      assert.equal(r.status, 200);
      assert.deepEqual(ids(r), sorted(want));
      assert.equal(r.json.coverage.doc, 'unavailable');
      assert.equal(r.json.coverage.issue, 'ok');
    });
  }

  it('rule 6: a filter with types=doc only gives no results and doc unavailable', async () => {
    const r = await all({ language: 'Go', types: 'doc' });
    assert.deepEqual(r.json.results, []);
    assert.deepEqual(r.json.coverage, {
      doc: 'unavailable',
      issue: 'skipped',
      pull_request: 'skipped',
      readme: 'skipped',
    });
  });

  it('rule 7: a filter with sources keeps the scoped doc results (filters never touch docs)', async () => {
    const r = await all({ language: 'TypeScript', sources: 'alpha-docs' });
    assert.deepEqual(ids(r), sorted([...WIDGETS, ...ALPHA]));
    assert.equal(r.json.coverage.doc, 'ok');
    assert.deepEqual(r.json.sources, [{ source: 'alpha-docs', indexed: true }]);
  });

  it('rule 8: each echo appears only when its parameter was sent', async () => {
    const none = await all({ language: 'Go' });
    assert.equal('repos' in none.json, false);
    assert.equal('sources' in none.json, false);
    const reposOnly = await all({ repos: 'acme/partial' });
    assert.ok(Array.isArray(reposOnly.json.repos));
    assert.equal('sources' in reposOnly.json, false);
    const sourcesOnly = await all({ sources: 'beta-docs' });
    assert.ok(Array.isArray(sourcesOnly.json.sources));
    assert.equal('repos' in sourcesOnly.json, false);
  });
});

describe('sandbox search: index gaps', () => {
  it('a repository that is not indexed echoes indexed:false and gives nothing', async () => {
    for (const slug of ['hidden/unindexed', 'nobody/nothing']) {
      const r = await all({ repos: slug });
      assert.deepEqual(r.json.repos, [
        { repo: slug, indexed: false, types: { issue: false, pullRequest: false, readme: false } },
      ]);
      assert.deepEqual(ids(r), sorted(DOCS), 'only the unscoped documentation half answers');
      assert.deepEqual(r.json.coverage, { doc: 'ok', issue: 'degraded', pull_request: 'degraded', readme: 'degraded' });
    }
  });

  it('a repository with some types indexed echoes them and gives nothing of the others', async () => {
    const r = await all({ repos: 'acme/partial', types: 'issue,pull_request,readme' });
    assert.deepEqual(r.json.repos, [
      { repo: 'acme/partial', indexed: true, types: { issue: true, pullRequest: false, readme: true } },
    ]);
    assert.deepEqual(ids(r), sorted(PARTIAL), 'pull request #5 is on disk but not indexed');
    assert.deepEqual(r.json.coverage, { doc: 'skipped', issue: 'ok', pull_request: 'degraded', readme: 'ok' });
  });

  it('matches repository slugs case-insensitively and echoes them as requested', async () => {
    const r = await all({ repos: 'ACME/Widgets', types: 'readme' });
    assert.deepEqual(r.json.repos, [
      { repo: 'ACME/Widgets', indexed: true, types: { issue: true, pullRequest: true, readme: true } },
    ]);
    assert.deepEqual(ids(r), ['readme:acme/widgets']);
  });

  it('an unknown source id echoes indexed:false and gives no doc results', async () => {
    const r = await all({ sources: 'no-such-source', types: 'doc' });
    assert.deepEqual(r.json.sources, [{ source: 'no-such-source', indexed: false }]);
    assert.deepEqual(r.json.results, []);
    assert.equal(r.json.coverage.doc, 'degraded');
  });

  it('skills=only searches only agent-skill files', async () => {
    const r = await all({ skills: 'only' });
    assert.deepEqual(ids(r), ['doc:alpha-docs/skills/backoff/SKILL', 'doc:beta-docs/skills/pagination/SKILL']);
    assert.deepEqual(r.json.coverage, {
      doc: 'ok',
      issue: 'unavailable',
      pull_request: 'unavailable',
      readme: 'unavailable',
    });
    const scoped = await all({ skills: 'only', sources: 'beta-docs' });
    assert.deepEqual(ids(scoped), ['doc:beta-docs/skills/pagination/SKILL']);
  });
});
