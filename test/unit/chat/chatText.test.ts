import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SearchResponseSchema } from '../../../src/api/schemas';
import { resultBadges, type InstalledDependency } from '../../../src/versions/versionCompare';
import {
  CHAT_COMMANDS,
  dependencyInPrompt,
  escapeMarkdown,
  fixedWithoutModel,
  modelInstructions,
  plainExcerpt,
  referenceLinks,
  resultsMarkdown,
  vetAnswer,
  webLink,
} from '../../../src/chat/chatText';
import { followupsFor } from '../../../src/chat/followups';
import { scopedSearch } from '../../../src/tools/searchOps';
import type { ToolDeps } from '../../../src/tools/toolTypes';
import * as agentApi from '../../../src/api/agent/agentClient';
import { resolveFolder } from '../../../src/deps/resolver';

const DEPS = [
  { ecosystem: 'npm', name: '@acme/widgets', slug: 'acme/widgets', version: '2.0.3' },
  { ecosystem: 'pypi', name: 'Flask_Login', slug: 'maxcountryman/flask-login', version: '0.6.2' },
  { ecosystem: 'cargo', name: 'serde_json', slug: 'serde-rs/json' },
  { ecosystem: 'npm', name: 'left-pad', slug: '' },
];

const WIDGETS: InstalledDependency = {
  ecosystem: 'npm',
  name: '@acme/widgets',
  slug: 'acme/widgets',
  version: '2.0.3',
};

function response(results: unknown[]) {
  return SearchResponseSchema.parse({ success: true, results });
}

const RESULTS = response([
  {
    id: 'issue:acme/widgets#12',
    url: 'https://github.com/acme/widgets/issues/12',
    title: 'Pool leaks sockets [urgent] ![x](https://evil.example/p.png)',
    license: 'MIT',
    passages: [
      {
        text: 'The pool leak was fixed in 2.1.0 of @acme/widgets. <img src=x onerror=alert(1)>',
        citation_url: 'https://github.com/acme/widgets/issues/12#issuecomment-99',
      },
    ],
  },
  {
    id: 'doc:widgets.dev/guide',
    url: 'https://widgets.dev/guide/pool',
    title: 'Pool guide',
    passages: [{ text: 'Set maxSockets to bound the pool.' }],
  },
  { id: 'issue:acme/widgets#3', url: 'javascript:alert(1)', title: 'Bad link', passages: [] },
]);

describe('@devindex: which dependency a prompt names', () => {
  it('the first word names it (any case, npm scope, trailing colon); the rest is the question', () => {
    assert.deepEqual(dependencyInPrompt('@ACME/Widgets: pool leaks sockets', DEPS), {
      dep: DEPS[0],
      question: 'pool leaks sockets',
    });
    assert.deepEqual(
      dependencyInPrompt('  flask-login  session lost after login ', DEPS)?.dep,
      DEPS[1],
      'Python names compare with - _ . alike',
    );
    assert.deepEqual(
      dependencyInPrompt('serde-json float precision', DEPS)?.question,
      'float precision',
      'Cargo names compare with - and _ alike',
    );
  });

  it('a later word names it: the whole prompt is the question; none named gives undefined', () => {
    assert.deepEqual(dependencyInPrompt('does serde_json lose floats?', DEPS), {
      dep: DEPS[2],
      question: 'does serde_json lose floats?',
    });
    assert.equal(dependencyInPrompt('pool leaks sockets', DEPS), undefined);
    assert.equal(dependencyInPrompt('   ', DEPS), undefined);
    assert.equal(dependencyInPrompt('widgets leaks', DEPS), undefined, 'a part of a scoped name is not the name');
  });
});

describe('@devindex: results as markdown', () => {
  it('escapes every text from the network: no link, image, HTML or emphasis can be made from a title or passage', () => {
    const md = resultsMarkdown({ params: { query: 'pool *leak* [x](y)' }, response: RESULTS });
    assert.doesNotMatch(md, /(^|[^\\])!\[x\]\(/, 'an image in a title stays text');
    assert.doesNotMatch(md, /(^|[^\\])<img/, 'HTML in a passage stays text');
    assert.match(md, /\\<img src=x onerror=alert\\\(1\\\)\\>/, 'its characters are escaped one by one');
    assert.match(md, /pool \\\*leak\\\* \\\[x\\\]\\\(y\\\)/, 'the query is escaped');
    assert.match(md, /\\!\\\[x\\\]\\\(https:\/\/evil/, 'the image syntax is escaped, character by character');
  });

  it('each result: number, linked title, kind, provenance, license, one excerpt with its citation link', () => {
    const md = resultsMarkdown({ params: { query: 'pool' }, response: RESULTS });
    assert.match(md, /^\*\*3 results\*\* for “pool”\./);
    assert.match(
      md,
      /\n1\. \[Pool leaks sockets[^\n]*\]\(https:\/\/github\.com\/acme\/widgets\/issues\/12\) · issue · acme\/widgets \\#12 · license MIT\n/,
    );
    assert.match(
      md,
      /\n {3}> The pool leak was fixed in 2\\\.1\\\.0[^\n]* \[cite\]\(https:\/\/github\.com\/acme\/widgets\/issues\/12#issuecomment-99\)/,
    );
    assert.match(
      md,
      /\n2\. \[Pool guide\]\(https:\/\/widgets\.dev\/guide\/pool\) · documentation · widgets\\\.dev\/guide\/pool\n {3}> Set maxSockets/,
    );
    assert.match(md, /\n3\. Bad link · issue · acme\/widgets \\#3(\n|$)/, 'a javascript: URL is not linked');
  });

  it("a dependency search names its scope, its version summary and each result's badges", () => {
    const badges = RESULTS.results.map((r) =>
      resultBadges(
        r.title,
        r.passages.map((p) => p.text),
        WIDGETS,
      ),
    );
    const md = resultsMarkdown({
      params: { query: 'pool', repos: ['acme/widgets'] },
      response: RESULTS,
      dep: WIDGETS,
      badges,
    });
    assert.match(
      md,
      /Scoped to @acme\/widgets 2\\\.0\\\.3 installed \\\(acme\/widgets\\\): its issues and pull requests\./,
    );
    assert.match(
      md,
      /\*\*1 result mentions a fix newer than your @acme\/widgets 2\\\.0\\\.3 \\\(2\\\.1\\\.0\\\)\\\.\*\*/,
    );
    assert.match(md, /\n {3}\*\*Fixed in 2\\\.1\\\.0 · you have 2\\\.0\\\.3\*\*\n/);
  });

  it('no results: says so with the coverage advice of every other surface', () => {
    const md = resultsMarkdown({
      params: { query: 'nothing', repos: ['acme/widgets'], types: ['issue'] },
      response: response([]),
    });
    assert.match(md, /^No results for “nothing”\. Repositories: acme\/widgets\./);
  });

  it('/fixed without a model: unknown installed version, or no comparable statement, said in one line; a summary needs none', () => {
    const none = response([
      {
        id: 'issue:acme/widgets#5',
        url: 'https://github.com/acme/widgets/issues/5',
        title: 'Docs typo',
        passages: [{ text: 'typo' }],
      },
    ]);
    assert.match(
      fixedWithoutModel({ params: { query: 'q' }, response: none, dep: WIDGETS, badges: [[]] })!,
      /No result from acme\/widgets states a fix or a release that compares with your 2\\\.0\\\.3\./,
    );
    assert.match(
      fixedWithoutModel({ params: { query: 'q' }, response: none, dep: { ...WIDGETS, version: undefined } })!,
      /installed version of @acme\/widgets is unknown/,
    );
    const badges = RESULTS.results.map((r) =>
      resultBadges(
        r.title,
        r.passages.map((p) => p.text),
        WIDGETS,
      ),
    );
    assert.equal(fixedWithoutModel({ params: { query: 'q' }, response: RESULTS, dep: WIDGETS, badges }), undefined);
  });
});

describe('@devindex: the references list', () => {
  it("one link per result: the passage's citation link where there is one, else the URL; never a non-web link", () => {
    assert.deepEqual(
      referenceLinks(RESULTS).map((l) => [l.n, l.link, l.kind]),
      [
        [1, 'https://github.com/acme/widgets/issues/12#issuecomment-99', 'issue'],
        [2, 'https://widgets.dev/guide/pool', 'doc'],
      ],
    );
  });

  it('webLink: http(s) only, no credentials, brackets encoded so a markdown link cannot end early', () => {
    assert.equal(webLink('https://example.com/a_(b)'), 'https://example.com/a_%28b%29');
    assert.equal(webLink('mailto:a@b.c'), undefined);
    assert.equal(webLink('https://user:pw@example.com/'), undefined);
    assert.equal(webLink('data:text/html,x'), undefined);
  });
});

describe("@devindex: the model's answer", () => {
  const links = referenceLinks(RESULTS);

  it('the instructions: evidence only, cite by number, say so when nothing answers; /fixed names the installed version', () => {
    const t = modelInstructions('fixed', 'pool leaks\nsockets', WIDGETS);
    assert.match(t, /Never state a fact, a version or a fix that no passage states/);
    assert.match(t, /like \[2\]/);
    assert.match(t, /If the passages do not answer the question, say so/);
    assert.match(t, /fixed in @acme\/widgets, and in which version, against the installed 2\.0\.3/);
    assert.match(t, /\nQuestion: pool leaks sockets$/);
    assert.doesNotMatch(modelInstructions('search', 'q', undefined), /installed/);
  });

  it('citations of results become links to them; citations of no result are removed', () => {
    const v = vetAnswer('Fixed in 2.1.0 [1], see the guide [2, 9] and [7].', links, 3)!;
    assert.equal(
      v.markdown,
      'Fixed in 2.1.0 [[1]](https://github.com/acme/widgets/issues/12#issuecomment-99), see the guide [[2]](https://widgets.dev/guide/pool) and .',
    );
    assert.deepEqual(v.cited, [1, 2]);
    assert.equal(vetAnswer('Result [3] has no link.', links, 3)!.markdown, 'Result [3] has no link.');
  });

  it('HTML, images, links and headings of a model are removed; an answer citing no result is not shown', () => {
    const v = vetAnswer(
      '# Title\n<b>Yes</b> ![i](https://evil.example/t.png) [click](https://evil.example) [1]',
      links,
      3,
    )!;
    assert.equal(v.markdown, 'Title\nYes i click [[1]](https://github.com/acme/widgets/issues/12#issuecomment-99)');
    const defs = vetAnswer(
      'See [1] and https://evil.example/x or www.evil.example.\n[1]: https://evil.example/phish',
      links,
      3,
    )!;
    assert.equal(
      defs.markdown,
      'See [[1]](https://github.com/acme/widgets/issues/12#issuecomment-99) and https\\://evil.example/x or www\\.evil.example.',
    );
    assert.equal(vetAnswer('It is fixed in 3.0.', links, 3), undefined);
    assert.equal(vetAnswer('It is fixed [4].', links, 3), undefined);
  });
});

describe('@devindex: follow-ups', () => {
  it("search → the dependency's issues → is it fixed → the whole index", () => {
    const dependency = { name: '@acme/widgets', slug: 'acme/widgets', version: '2.0.3' };
    assert.deepEqual(followupsFor({ command: 'search', question: 'pool leak', results: 3, dependency }), [
      {
        prompt: '@acme/widgets pool leak',
        label: 'Search the issues of @acme/widgets 2.0.3 installed',
        command: 'issues',
      },
    ]);
    assert.deepEqual(followupsFor({ command: 'issues', question: 'pool leak', results: 3, dependency }), [
      {
        prompt: '@acme/widgets pool leak',
        label: 'Is this fixed in @acme/widgets, and in which version?',
        command: 'fixed',
      },
    ]);
    assert.deepEqual(
      followupsFor({ command: 'fixed', question: 'pool leak', results: 3, dependency, newerFix: '2.1.0' }).map((f) => [
        f.command,
        f.prompt,
      ]),
      [
        ['issues', '@acme/widgets 2.1.0'],
        ['search', 'pool leak'],
      ],
    );
  });

  it("no dependency named: up to three of the workspace's to choose; none after an error, a cancel or no metadata", () => {
    assert.deepEqual(
      followupsFor({ command: 'fixed', question: 'leak', results: 0, choices: ['a', 'b', 'c', 'd'] }).map((f) => [
        f.command,
        f.prompt,
      ]),
      [
        ['fixed', 'a leak'],
        ['fixed', 'b leak'],
        ['fixed', 'c leak'],
      ],
    );
    assert.deepEqual(
      followupsFor({
        command: 'issues',
        question: 'x',
        results: 0,
        error: true,
        dependency: { name: 'a', slug: 'a/a' },
      }),
      [],
    );
    assert.deepEqual(
      followupsFor({
        command: 'issues',
        question: 'x',
        results: 0,
        cancelled: true,
        dependency: { name: 'a', slug: 'a/a' },
      }),
      [],
    );
    assert.deepEqual(followupsFor(undefined), []);
    assert.deepEqual(followupsFor({ command: 'search', question: 'x', results: 2 }), []);
  });

  it('package.json declares the participant with exactly these commands', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '../../../../package.json'), 'utf8')) as {
      contributes: { chatParticipants: Array<{ id: string; name: string; commands: Array<{ name: string }> }> };
    };
    const [p] = pkg.contributes.chatParticipants;
    assert.equal(p!.id, 'devIndex.participant');
    assert.equal(p!.name, 'devindex');
    assert.deepEqual(
      p!.commands.map((c) => c.name),
      // `/fixes` is the fixes check (src/chat/fixesChat.ts), not a scoped search: it has no follow-ups.
      [...CHAT_COMMANDS, 'fixes'],
    );
  });

  it("plainExcerpt: a passage's markdown (fences, headings, tables, emphasis) as one line of words, cut at a word", () => {
    assert.equal(
      plainExcerpt('## What happens\nThe **pool** leaks `sockets`.\n```ts\nconst a = 1;\n```'),
      'What happens The pool leaks sockets. const a = 1;',
    );
    assert.equal(
      plainExcerpt('| Case | Before |\n|---|---|\n| `Retry-After: 20` | 1 s |'),
      'Case Before Retry-After: 20 1 s',
    );
    const long = plainExcerpt(`${'word '.repeat(100)}end`);
    assert.ok(long.length <= 222 && long.endsWith(' …') && !long.includes('wor …'), long);
  });

  it('escapeMarkdown keeps words and removes the power of every markdown character', () => {
    assert.equal(escapeMarkdown('a_b *c* `d` <e> [f](g) #h'), 'a\\_b \\*c\\* \\`d\\` \\<e\\> \\[f\\]\\(g\\) \\#h');
  });
});

describe('scopedSearch (the pipeline the tool and the participant share)', () => {
  function deps(found: unknown[]): ToolDeps & { sent: unknown[] } {
    const sent: unknown[] = [];
    return {
      sent,
      surface: 'editor',
      folderDependencies: resolveFolder,
      maxChars: () => 10_000,
      search: async (p) => {
        sent.push(p);
        return response(found);
      },
      agentModule: async () => agentApi.agentModule,
      agent: async () => {
        throw new Error('no agent');
      },
    };
  }

  it("a resolved dependency scopes the search to its repository and badges only that repository's results", async () => {
    const d = deps(RESULTS.results);
    const run = await scopedSearch({ query: 'pool', types: ['issue', 'pull_request'] }, d, undefined, [], WIDGETS);
    assert.ok(!('isError' in run));
    assert.deepEqual(d.sent, [
      { query: 'pool', types: ['issue', 'pull_request'], repos: ['acme/widgets'], passages: 3 },
    ]);
    assert.equal(run.badges![0]![0]!.verdict, 'newer-fix');
    assert.equal(run.badges![1], undefined, 'a documentation page is from no dependency');
  });

  it("bad input comes back as the tool's error outcome with the caller's issues; nothing is sent", async () => {
    const d = deps([]);
    const run = await scopedSearch({ query: '' }, d, undefined, [
      { field: 'maxTokens', message: 'maxTokens must be …' },
    ]);
    assert.ok('isError' in run && run.isError);
    assert.match(run.text, /^Invalid search parameters; nothing was sent\.[\s\S]*- maxTokens: [\s\S]*- query: /);
    assert.equal(d.sent.length, 0);
  });
});
