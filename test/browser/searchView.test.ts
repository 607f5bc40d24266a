// The Search view's bundle in a real browser (Debian chromium), under its real CSP, with the
// extension played by the test: what the view posts is read back, what the extension would send is
// posted into the page. Outcomes are built the way the extension builds them (the wire response
// parsed by the client's schema, projected by toOutcome with its coverage notes), from the
// specification's shape and from the production service's shape.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { SearchParams } from '../../src/api/params';
import type { FromWebview } from '../../src/webview/protocol';
import { SearchResponseSchema } from '../../src/api/schemas';
import { toOutcome, type SearchOutcome } from '../../src/search/session/outcome';
import {
  DEFAULTS,
  applyTheme,
  launchBrowser,
  openView,
  outcome,
  screenshotDir,
  startPageServer,
  typeAndSearch,
  type BrowserHandle,
  type PageServer,
  type Theme,
  type ViewPage,
} from './harness';
import { CODE_PASSAGE, SAMPLE_RESULTS, TABLE_PASSAGE } from './samples';

let server: PageServer;
let browser: BrowserHandle;
const shots = screenshotDir();

before(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startPageServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A wire response through the client's schema and explainer into what the view receives. */
function fromWire(params: SearchParams, body: unknown): SearchOutcome {
  const response = SearchResponseSchema.parse(body);
  return toOutcome(params, response, [], 31);
}

/** What the production service sends: no `type`, `web:` results, license in both forms, citation links, no coverage. */
const PRODUCTION_BODY = {
  success: true,
  results: [
    {
      id: 'issue:fetchline/fetchline#429',
      url: 'https://github.com/fetchline/fetchline/issues/429',
      title: 'Retry after 429 ignores Retry-After',
      license: { state: 'licensed', spdx_id: 'MIT' },
      passages: [
        {
          text: 'The client **retries** at once.\n\n| Header | Meaning |\n|---|---|\n| `Retry-After` | seconds |',
          citation_url: 'https://github.com/fetchline/fetchline/issues/429#issuecomment-7',
        },
      ],
    },
    {
      id: 'issue:quarry-dev/fetchline#429',
      url: 'https://github.com/quarry-dev/fetchline/issues/429',
      title: 'Retry after 429 ignores Retry-After',
      license: 'Apache-2.0',
      passages: [{ text: 'Same in the fork.' }],
    },
    {
      id: 'pull_request:fetchline/fetchline#431',
      url: 'https://github.com/fetchline/fetchline/pull/431',
      title: 'Honour Retry-After',
      license: { state: 'known_absent' },
      passages: [{ text: 'Reads the header.' }],
    },
    {
      id: 'readme:fetchline/fetchline',
      url: 'https://github.com/fetchline/fetchline#readme',
      title: 'fetchline',
      passages: [{ text: '# fetchline\n\nA fetch wrapper with retries.' }],
    },
    {
      id: 'doc:mdn/http/status/429',
      url: 'https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/429',
      passages: [{ text: '429 Too Many Requests' }],
    },
    {
      id: 'web:example.com/blog/retries',
      url: 'https://www.example.com/blog/retries',
      title: 'Backoff, explained',
      passages: [{ text: 'Exponential backoff with jitter.' }],
    },
    { id: 'snippet:abc', url: 'https://gist.example.org/abc', title: 'A new kind', passages: [] },
  ],
};

function manyResults(n: number): SearchOutcome['results'] {
  return Array.from({ length: n }, (_, i) => ({
    id: `issue:fetchline/fetchline#${i + 1}`,
    type: i % 3 === 0 ? 'doc' : 'issue',
    url: `https://github.com/fetchline/fetchline/issues/${i + 1}`,
    title: `Result ${i + 1}: retries after a 429 answer`,
    provenance: `fetchline/fetchline #${i + 1}`,
    passages: [
      { text: `Passage ${i + 1}: the **client** waits for \`Retry-After\` and then retries the request once more.` },
    ],
  }));
}

async function freshView(theme: Theme = 'dark', size?: { width: number; height: number }): Promise<ViewPage> {
  const v = await openView(browser.context, server.origin, theme);
  if (size) await v.page.setViewportSize(size);
  await v.send({ type: 'init', defaults: DEFAULTS, workspaceRepos: ['fetchline/fetchline', 'quarry-dev/fetchline'] });
  return v;
}

async function showSample(
  v: ViewPage,
  o: (params: SearchParams) => SearchOutcome = (params) => outcome({ params, results: SAMPLE_RESULTS, reranked: true }),
): Promise<SearchParams> {
  const s = await typeAndSearch(v, 'http server keep-alive');
  await v.send({ type: 'searchStarted', requestId: s.requestId, params: s.params });
  await v.send({ type: 'results', requestId: s.requestId, outcome: o(s.params) });
  await v.page.waitForSelector('li.row');
  return s.params;
}

const rowTexts = (v: ViewPage) =>
  v.page.locator('li.row').evaluateAll((els) =>
    els.map((li) => ({
      icon: [...li.querySelector('.type-icon')!.classList].find((c) => c.startsWith('codicon-')),
      kind: li.querySelector('.type-icon')!.getAttribute('aria-label'),
      title: li.querySelector('.row-title')!.textContent,
      provenance: li.querySelector('.provenance')!.textContent,
      license: li.querySelector('.license')?.textContent ?? null,
      snippet: li.querySelector('.row-snippet')?.textContent ?? null,
      height: Math.round(li.getBoundingClientRect().height),
    })),
  );

describe('search view in chromium', () => {
  it('says ready first and sends nothing else before init', async () => {
    const v = await openView(browser.context, server.origin);
    assert.deepEqual(await v.posted(), [{ type: 'ready' }]);
    await v.page.close();
  });

  it('lists results compactly: kind icon, title, provenance and a one-line snippet per row (specification shape)', async () => {
    const v = await freshView('dark', { width: 300, height: 900 });
    const s = await typeAndSearch(v, 'http server keep-alive');
    assert.deepEqual(s.params, { query: 'http server keep-alive', k: 10, passages: 3 });
    await v.send({ type: 'searchStarted', requestId: s.requestId, params: s.params });
    assert.equal(await v.page.isVisible('#cancel'), true, 'Cancel shows while the search runs');
    const spec = fromWire(s.params, {
      success: true,
      reranked: true,
      coverage: { doc: 'ok', issue: 'ok', pull_request: 'ok', readme: 'ok' },
      results: [
        {
          id: 'doc:node-api/http',
          type: 'doc',
          url: 'https://nodejs.org/api/http.html',
          title: 'HTTP | Node.js API',
          passages: [{ text: CODE_PASSAGE }, { text: TABLE_PASSAGE }],
        },
        {
          id: 'issue:nodejs/node#123',
          type: 'issue',
          url: 'https://github.com/nodejs/node/issues/123',
          title: 'http: server.close() hangs',
          passages: [{ text: '# Heading\n\nCalling `server.close()` waits for **idle** sockets.' }],
        },
        {
          id: 'pull_request:nodejs/node#456',
          type: 'pull_request',
          url: 'https://github.com/nodejs/node/pull/456',
          title: 'http: add closeAllConnections',
          passages: [{ text: '> Adds it.' }],
        },
        {
          id: 'doc:node-api/untitled',
          type: 'doc',
          url: 'https://nodejs.org/api/fs/promises.html',
          passages: [{ text: 'No title.' }],
        },
        {
          id: 'readme:nodejs/undici',
          type: 'readme',
          url: 'https://github.com/nodejs/undici#readme',
          title: 'undici',
          passages: [{ text: 'An HTTP/1.1 client.' }],
        },
      ],
    });
    await v.send({ type: 'results', requestId: s.requestId, outcome: spec });
    await v.page.waitForSelector('li.row');
    assert.equal(await v.page.isVisible('#cancel'), false);
    const rows = await rowTexts(v);
    assert.deepEqual(
      rows.map(({ height: _h, ...r }) => r),
      [
        {
          icon: 'codicon-book',
          kind: 'Documentation',
          title: 'HTTP | Node.js API',
          provenance: 'nodejs.org/api/http.html',
          license: null,
          snippet:
            "Create a server and listen on a port: import { createServer } from 'node:http'; createServer((req, res) => res.end('ok')).listen(8080); See the guide and RFC 9110.",
        },
        {
          icon: 'codicon-issues',
          kind: 'Issue',
          title: 'http: server.close() hangs',
          provenance: 'nodejs/node #123',
          license: null,
          snippet: 'Heading Calling server.close() waits for idle sockets.',
        },
        {
          icon: 'codicon-git-pull-request',
          kind: 'Pull request',
          title: 'http: add closeAllConnections',
          provenance: 'nodejs/node #456',
          license: null,
          snippet: 'Adds it.',
        },
        {
          icon: 'codicon-book',
          kind: 'Documentation',
          title: 'fs/promises.html',
          provenance: 'nodejs.org/api/fs/promises.html',
          license: null,
          snippet: 'No title.',
        },
        {
          icon: 'codicon-repo',
          kind: 'README',
          title: 'undici',
          provenance: 'nodejs/undici',
          license: null,
          snippet: 'An HTTP/1.1 client.',
        },
      ],
    );
    for (const r of rows) assert.ok(r.height <= 64, `a row is at most three short lines: ${r.height} px`);
    assert.equal(
      await v.page.locator('.coverage-lines').count(),
      0,
      'no coverage line when every requested type is ok',
    );
    assert.equal(await v.page.textContent('.summary'), '5 results for “http server keep-alive”');
    assert.equal(await v.page.getAttribute('.summary', 'title'), '31 ms · reranked', 'reranked is in the tooltip');
    assert.equal(await v.page.locator('li.row .md').count(), 0, 'passages are rendered only when a row is expanded');
    // The codicon font really loads under the CSP (font-src) and draws a glyph.
    await v.page.waitForFunction(
      () => [...document.fonts].some((f) => f.family.replace(/["']/g, '') === 'codicon' && f.status === 'loaded'),
      undefined,
      { timeout: 5000 },
    );
    const glyph = await v.page
      .locator('.type-icon')
      .first()
      .evaluate((e) => ({ content: getComputedStyle(e, '::before').content, width: e.getBoundingClientRect().width }));
    assert.ok(
      glyph.content !== 'none' && glyph.content.length >= 3 && glyph.width >= 12,
      `the book icon draws a glyph: ${JSON.stringify(glyph)}`,
    );
    assert.deepEqual(await v.violations(), []);
    for (const theme of ['dark', 'light', 'hc'] as const) {
      await applyTheme(v.page, theme);
      await v.page.screenshot({ path: join(shots, `list-${theme}.png`) });
    }
    assert.equal(
      await v.page.evaluate(() => getComputedStyle(document.body).backgroundColor),
      'rgb(0, 0, 0)',
      'colours come from the theme variables',
    );
    await v.page.close();
  });

  it('shows what the production wire adds: kind from the id, web and unknown kinds, provenance from ids and URLs, license labels', async () => {
    const v = await freshView();
    await showSample(v, (params) => fromWire(params, PRODUCTION_BODY));
    const rows = await rowTexts(v);
    assert.deepEqual(
      rows.map((r) => [r.icon, r.kind, r.provenance, r.license]),
      [
        ['codicon-issues', 'Issue', 'fetchline/fetchline #429', 'MIT'],
        ['codicon-issues', 'Issue', 'quarry-dev/fetchline #429', 'Apache-2.0'],
        ['codicon-git-pull-request', 'Pull request', 'fetchline/fetchline #431', 'no license'],
        ['codicon-repo', 'README', 'fetchline/fetchline', null],
        ['codicon-book', 'Documentation', 'developer.mozilla.org/en-US/docs/Web/HTTP/Status/429', null],
        ['codicon-globe', 'Web page', 'example.com/blog/retries', null],
        ['codicon-question', 'snippet', 'gist.example.org/abc', null],
      ],
    );
    assert.equal(rows[4]!.title, 'Status/429', 'an untitled page shows its path, not the bare host');
    assert.equal(
      await v.page.locator('li.row').nth(6).locator('.type-raw').textContent(),
      'snippet',
      'an unknown kind is shown raw',
    );
    assert.equal(await v.page.locator('.coverage-lines').count(), 0, 'no coverage from production: no line');
    // The passage's citation link is its own Open target.
    await v.page.locator('li.row').first().click();
    const passage = v.page.locator('li.row').first().locator('.passage').first();
    assert.equal(
      await passage.locator('.passage-actions').isVisible(),
      false,
      "a passage's actions show on hover and focus only",
    );
    await passage.hover();
    const before = (await v.posted()).length;
    await v.page.getByRole('button', { name: 'Open passage 1 of “Retry after 429 ignores Retry-After”' }).click();
    const open = await v.waitForPosted('openLink', before);
    assert.equal(open.url, 'https://github.com/fetchline/fetchline/issues/429#issuecomment-7');
    assert.equal(
      await v.page.locator('li.row').nth(1).locator('button[data-act="open-passage"]').count(),
      0,
      'no citation link, no extra Open',
    );
    await v.page.close();
  });

  it('expands and collapses rows by keyboard and click; arrows move between rows', async () => {
    const v = await freshView();
    await showSample(v);
    await v.page.focus('#q');
    await v.page.keyboard.press('ArrowDown');
    const active = () => v.page.evaluate(() => document.activeElement?.getAttribute('data-index'));
    assert.equal(await active(), '0');
    const first = v.page.locator('li.row').first();
    await v.page.keyboard.press('Enter');
    assert.equal(await first.getAttribute('aria-expanded'), 'true');
    assert.deepEqual(
      await first.locator('.md table th').allTextContents(),
      ['Option', 'Type', 'Default'],
      'expanded passages are rendered markdown',
    );
    assert.equal(await first.locator('.md pre code.language-ts').count(), 1);
    assert.equal(
      await first.locator('.md a', { hasText: 'the guide' }).getAttribute('href'),
      'https://nodejs.org/api/guide.html',
      'relative links resolve against the result url',
    );
    const cell = await first
      .locator('.md td')
      .first()
      .evaluate((td) => getComputedStyle(td).wordBreak + '/' + getComputedStyle(td).whiteSpace);
    assert.equal(cell, 'normal/nowrap', 'table cells never break words');
    await v.page.screenshot({ path: join(shots, 'expanded-dark.png') });
    await v.page.keyboard.press('ArrowLeft');
    assert.equal(await first.getAttribute('aria-expanded'), 'false');
    assert.equal(await first.locator('.row-passages').isVisible(), false);
    await v.page.keyboard.press('ArrowRight');
    assert.equal(await first.getAttribute('aria-expanded'), 'true');
    await v.page.keyboard.press('ArrowDown');
    await v.page.keyboard.press('ArrowDown');
    assert.equal(await active(), '2');
    await v.page.keyboard.press('End');
    assert.equal(await active(), '4');
    await v.page.keyboard.press('Home');
    await v.page.keyboard.press('ArrowUp');
    assert.equal(
      await v.page.evaluate(() => document.activeElement?.id),
      'q',
      'ArrowUp from the first row returns to the query',
    );
    const second = v.page.locator('li.row').nth(1);
    await second.locator('.row-title').click();
    assert.equal(await second.getAttribute('aria-expanded'), 'true', 'a click expands');
    await second.locator('.row-title').click();
    assert.equal(await second.getAttribute('aria-expanded'), 'false', 'a second click collapses');
    await v.send({ type: 'command', command: 'expandAll' });
    assert.equal(await v.page.locator('li.row[aria-expanded="true"]').count(), 5, 'Expand All');
    await v.send({ type: 'command', command: 'collapseAll' });
    assert.equal(await v.page.locator('li.row[aria-expanded="true"]').count(), 0, 'Collapse All');
    await v.page.close();
  });

  it('offers Open, Copy Link, Copy Passage, Insert at Cursor and Open as Markdown on hover and focus, named with the title', async () => {
    const v = await freshView();
    await showSample(v);
    const row = v.page.locator('li.row').nth(1);
    const actions = row.locator('.row-actions');
    assert.equal(await actions.isVisible(), false, 'hidden until the row is hovered or focused');
    await row.hover();
    assert.equal(await actions.isVisible(), true, 'shown on hover');
    await v.page.mouse.move(299, 5);
    await row.focus();
    assert.equal(await actions.isVisible(), true, 'shown on focus');
    const names = await actions.locator('button').evaluateAll((els) => els.map((b) => b.getAttribute('aria-label')));
    const t = '“http: server.close() hangs with keep-alive”';
    assert.deepEqual(names, [
      `Open ${t}`,
      `Copy Link to ${t}`,
      `Copy Passage of ${t}`,
      `Insert Passage of ${t} at Cursor`,
      `Open ${t} as Markdown`,
    ]);
    const before = (await v.posted()).length;
    for (const name of names) await row.getByRole('button', { name: name!, exact: true }).click();
    const sent = (await v.posted()).slice(before);
    assert.deepEqual(sent, [
      { type: 'openLink', url: 'https://github.com/nodejs/node/issues/123' },
      { type: 'copy', what: 'link', text: 'https://github.com/nodejs/node/issues/123' },
      { type: 'copy', what: 'passage', text: SAMPLE_RESULTS[1]!.passages[0]!.text },
      { type: 'insert', text: SAMPLE_RESULTS[1]!.passages[0]!.text },
      {
        type: 'openPassages',
        id: 'issue:nodejs/node#123',
        title: 'http: server.close() hangs with keep-alive',
        url: 'https://github.com/nodejs/node/issues/123',
        passages: [SAMPLE_RESULTS[1]!.passages[0]!.text],
      },
    ]);
    assert.equal(await row.getAttribute('aria-expanded'), 'false', 'an action button does not toggle the row');
    assert.equal(
      await v.page.locator('#toast').count(),
      0,
      'no toast over the results: confirmations go to the status bar',
    );
    await v.page.close();
  });

  it('shows a chip for every filter that differs from the defaults; removing one re-runs without it; Clear all', async () => {
    const v = await freshView();
    await v.page.click('#filters-toggle');
    await v.page.click('[data-add-repo="fetchline/fetchline"]');
    await v.page.uncheck('input[value="readme"]');
    await v.page.fill('#f-sources', 'node-api');
    await v.page.check('#f-skillsOnly');
    await v.page.fill('#f-language', 'TypeScript');
    await v.page.fill('#f-topic', 'http');
    await v.page.fill('#f-license', 'MIT');
    await v.page.fill('#f-minStars', '10');
    await v.page.fill('#f-maxStars', '5000');
    await v.page.selectOption('#f-archived', 'no');
    await v.page.selectOption('#f-fork', 'yes');
    const s = await typeAndSearch(v, 'retry 429');
    await v.send({ type: 'searchStarted', requestId: s.requestId, params: s.params });
    await v.send({
      type: 'results',
      requestId: s.requestId,
      outcome: outcome({ params: s.params, results: SAMPLE_RESULTS.slice(1, 3) }),
    });
    await v.page.waitForSelector('li.row');
    await v.page.click('#filters-toggle');
    const labels = await v.page.locator('#chips .chip-label').allTextContents();
    assert.deepEqual(labels, [
      'fetchline/fetchline',
      'Docs: node-api',
      'Types: Documentation, Issues, Pull requests',
      'Agent-skill files only',
      'Language: TypeScript',
      'Topic: http',
      'License: MIT',
      'Stars 10–5000',
      'Not archived',
      'Forks only',
    ]);
    assert.equal(await v.page.textContent('.summary'), '2 results for “retry 429” in fetchline/fetchline, node-api');
    for (const theme of ['dark', 'light', 'hc'] as const) {
      await applyTheme(v.page, theme);
      await v.page.locator('#chips .chip-remove').first().hover();
      await v.page.screenshot({
        path: join(shots, `chips-${theme}.png`),
        clip: { x: 0, y: 0, width: 420, height: 260 },
      });
    }
    // Each chip removed with one click: the search runs again without that filter, and only that one.
    const expectWithout: Array<[string, (p: SearchParams) => unknown]> = [
      ['fetchline/fetchline', (p) => p.repos],
      ['Docs: node-api', (p) => p.sources],
      ['Types: Documentation, Issues, Pull requests', (p) => p.types],
      ['Agent-skill files only', (p) => p.skills],
      ['Language: TypeScript', (p) => p.language],
      ['Topic: http', (p) => p.topic],
      ['License: MIT', (p) => p.license],
      ['Stars 10–5000', (p) => p.min_stars ?? p.max_stars],
      ['Not archived', (p) => p.archived],
      ['Forks only', (p) => p.fork],
    ];
    let remaining = labels.length;
    for (const [label, read] of expectWithout) {
      const before = (await v.posted()).length;
      await v.page.getByRole('button', { name: `Remove filter ${label}` }).click();
      const again = await v.waitForPosted('search', before);
      assert.equal(read(again.params), undefined, `${label} is gone from the search`);
      assert.equal(again.params.query, 'retry 429');
      remaining -= 1;
      assert.equal(await v.page.locator('#chips .chip').count(), remaining, `${label}: one chip fewer`);
      await v.send({ type: 'searchStarted', requestId: again.requestId, params: again.params });
      await v.send({
        type: 'results',
        requestId: again.requestId,
        outcome: outcome({ params: again.params, results: SAMPLE_RESULTS.slice(0, 1) }),
      });
    }
    assert.equal(await v.page.isVisible('#chips'), false, 'no chip row at the defaults');
    assert.equal(await v.page.textContent('.summary'), '1 result for “retry 429”');
    // Clear all, from a scope set by a command.
    await v.send({
      type: 'searchStarted',
      requestId: 'x-1',
      params: { query: 'q2', k: 10, passages: 3, repos: ['a/b'], language: 'Go' },
    });
    assert.deepEqual(
      await v.page.locator('#chips .chip-label').allTextContents(),
      ['a/b', 'Language: Go'],
      "a command's search shows its scope in the chip row",
    );
    assert.equal(await v.page.inputValue('#q'), 'q2');
    await v.send({
      type: 'results',
      requestId: 'x-1',
      outcome: outcome({ params: { query: 'q2', repos: ['a/b'], language: 'Go' }, results: [] }),
    });
    const before = (await v.posted()).length;
    await v.page.getByRole('button', { name: 'Clear all' }).click();
    const cleared = await v.waitForPosted('search', before);
    assert.deepEqual(cleared.params, { query: 'q2', k: 10, passages: 3 });
    await v.page.close();
  });

  it('never leaves results looking current after a refused or failed search; the 401 box offers Search Without Key', async () => {
    const v = await freshView('light');
    await showSample(v);
    assert.equal(await v.page.isVisible('.stale-banner'), false);
    // A search refused by the client: the old results are dimmed under "Showing results for ...".
    await v.page.click('#filters-toggle');
    await v.page.uncheck('input[value="doc"]');
    await v.page.uncheck('input[value="issue"]');
    await v.page.uncheck('input[value="pull_request"]');
    await v.page.uncheck('input[value="readme"]');
    let s = await typeAndSearch(v, 'no types');
    assert.deepEqual(s.params.types, [], 'the form sends what it shows; the client says why it is wrong');
    await v.send({
      type: 'searchError',
      requestId: s.requestId,
      error: {
        message:
          'types must hold at least one of doc, issue, pull_request, readme, or be omitted to search all four; got []',
        action: 'fix',
        issues: [
          {
            field: 'types',
            message:
              'types must hold at least one of doc, issue, pull_request, readme, or be omitted to search all four; got []',
          },
        ],
      },
    });
    await v.page.waitForSelector('#err-types:not([hidden])');
    assert.equal(
      await v.page.textContent('#err-types'),
      'Pick at least one result type',
      "the form's words, not the wire names",
    );
    assert.equal(await v.page.isVisible('.stale-banner'), true);
    assert.equal(await v.page.textContent('.stale-banner'), 'Showing results for “http server keep-alive”');
    // Marked as earlier results (greyed, titles in italics) but not dimmed below 4.5:1 (axe's contrast check: opacity gave 2.9:1).
    assert.deepEqual(
      await v.page
        .locator('.results')
        .evaluate((e) => [getComputedStyle(e).filter, getComputedStyle(e.querySelector('.row-title')!).fontStyle]),
      ['grayscale(1)', 'italic'],
      'marked stale',
    );
    assert.equal(await v.page.locator('.results').evaluate((e) => getComputedStyle(e).opacity), '1', 'still readable');
    await v.page.check('input[value="issue"]');
    // A 401: dimmed too, with both next steps.
    s = await typeAndSearch(v, 'secret');
    await v.send({ type: 'searchStarted', requestId: s.requestId, params: s.params });
    await v.send({
      type: 'searchError',
      requestId: s.requestId,
      error: { message: 'Unauthorized: Invalid token (HTTP 401)', action: 'setKey', status: 401 },
    });
    await v.page.waitForSelector('#error:not([hidden])');
    assert.equal(await v.page.isVisible('.stale-banner'), true);
    await v.page.screenshot({ path: join(shots, 'error-401-light.png') });
    let before = (await v.posted()).length;
    await v.page.getByRole('button', { name: 'Set API Key' }).last().click();
    await v.waitForPosted('setKey', before);
    before = (await v.posted()).length;
    await v.page.getByRole('button', { name: 'Search Without Key' }).click();
    const keyless = await v.waitForPosted('search', before);
    assert.equal(keyless.keyless, true);
    assert.deepEqual(keyless.params, s.params);
    await v.send({ type: 'searchStarted', requestId: keyless.requestId, params: keyless.params, keyless: true });
    await v.send({
      type: 'results',
      requestId: keyless.requestId,
      outcome: outcome({ params: keyless.params, results: SAMPLE_RESULTS.slice(0, 2) }),
    });
    await v.page.waitForFunction(() => document.querySelectorAll('li.row').length === 2);
    assert.equal(await v.page.isVisible('.stale-banner'), false, 'fresh results are not dimmed');
    assert.equal(await v.page.isVisible('#error'), false);
    // A local refusal (text where a number goes) dims them as well, and sends nothing.
    await v.page.fill('#f-k', 'ten');
    before = (await v.posted()).length;
    await v.page.fill('#q', 'anything');
    await v.page.press('#q', 'Enter');
    await v.page.waitForSelector('#err-k:not([hidden])');
    assert.equal(await v.page.textContent('#err-k'), 'Results (k) must be a whole number, not "ten"');
    assert.equal((await v.posted()).slice(before).filter((m) => m.type === 'search').length, 0);
    assert.equal(await v.page.isVisible('.stale-banner'), true);
    await v.page.close();
  });

  it('offers Diagnose Connection under a network, proxy or TLS failure, and only there', async () => {
    const v = await freshView('light');
    let s = await typeAndSearch(v, 'behind a proxy');
    await v.send({ type: 'searchStarted', requestId: s.requestId, params: s.params });
    await v.send({
      type: 'searchError',
      requestId: s.requestId,
      error: {
        message:
          'could not complete the request to https://api.example.com (through the proxy http://127.0.0.1:3128): connection refused',
        action: 'retry',
        diagnose: true,
      },
    });
    await v.page.waitForSelector('#error:not([hidden])');
    const diagnose = v.page.getByRole('button', { name: 'Diagnose Connection' });
    assert.equal(await diagnose.isVisible(), true);
    await v.page.screenshot({ path: join(shots, 'error-network-diagnose-light.png') });
    const before = (await v.posted()).length;
    await diagnose.click();
    await v.waitForPosted('diagnose', before);
    // A service's own failure (503) is not a connection problem: Retry only.
    s = await typeAndSearch(v, 'service down');
    await v.send({ type: 'searchStarted', requestId: s.requestId, params: s.params });
    await v.send({
      type: 'searchError',
      requestId: s.requestId,
      error: { message: 'Service Unavailable (HTTP 503)', action: 'retry', status: 503 },
    });
    await v.page.waitForSelector('#error:not([hidden])');
    await v.page.getByRole('button', { name: 'Retry' }).waitFor({ state: 'visible' });
    assert.equal(await v.page.getByRole('button', { name: 'Diagnose Connection' }).count(), 0);
    await v.page.close();
  });

  it('Escape cancels a running search and leaves the box, and never erases the query; an empty query only focuses the box', async () => {
    const v = await freshView();
    const s = await typeAndSearch(v, 'keep me');
    await v.send({ type: 'searchStarted', requestId: s.requestId, params: s.params });
    const before = (await v.posted()).length;
    await v.page.press('#q', 'Escape');
    const c = await v.waitForPosted('cancel', before);
    assert.equal(c.requestId, s.requestId);
    assert.equal(await v.page.inputValue('#q'), 'keep me');
    assert.match((await v.page.textContent('#status')) ?? '', /cancelled/);
    await v.page.press('#q', 'Escape');
    assert.equal(await v.page.inputValue('#q'), 'keep me', 'a second Escape keeps it too');
    assert.notEqual(await v.page.evaluate(() => document.activeElement?.id), 'q', 'and leaves the box');
    const mid = (await v.posted()).length;
    await v.page.fill('#q', '   ');
    await v.page.click('#run');
    await v.page.waitForTimeout(50);
    assert.equal(
      (await v.posted()).slice(mid).filter((m) => m.type === 'search').length,
      0,
      'an empty query sends nothing',
    );
    assert.equal(await v.page.evaluate(() => document.activeElement?.id), 'q', 'and focuses the box');
    assert.equal(await v.page.isVisible('#err-query'), false, 'without an error message');
    await v.page.close();
  });

  it('shows at least 8 results in the first screen at 300 x 900 px after a palette search, keyless notice included', async () => {
    const v = await freshView('dark', { width: 300, height: 900 });
    await v.send({ type: 'keyState', hasKey: false });
    await v.send({
      type: 'searchStarted',
      requestId: 'x-palette',
      params: { query: 'retry after 429', k: 10, passages: 3 },
    });
    await v.send({
      type: 'results',
      requestId: 'x-palette',
      outcome: outcome({ params: { query: 'retry after 429', k: 10, passages: 3 }, results: manyResults(20) }),
    });
    await v.page.waitForSelector('li.row');
    const visible = await v.page.evaluate(
      () =>
        [...document.querySelectorAll('li.row')].filter((li) => {
          const r = li.getBoundingClientRect();
          return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
        }).length,
    );
    console.log(`visible results at 300 x 900 px: ${visible}`);
    assert.ok(visible >= 8, `at least 8 results fully visible; got ${visible}`);
    await v.page.screenshot({ path: join(shots, 'first-screen-300x900-dark.png') });
    await v.page.close();
  });

  it('states rule 6 in one neutral line with its two fixes; documentation sources can be discovered', async () => {
    for (const theme of ['dark', 'light', 'hc'] as const) {
      const v = await freshView(theme);
      await v.page.click('#filters-toggle');
      assert.match(
        (await v.page.textContent('.repo-group legend')) ?? '',
        /Repository filters \(issues, pull requests, READMEs only\)/,
      );
      await v.page.fill('#f-minStars', '100');
      await v.page.click('#filters-toggle');
      const s = await typeAndSearch(v, 'streams');
      await v.send({ type: 'searchStarted', requestId: s.requestId, params: s.params });
      const o = fromWire(s.params, {
        success: true,
        results: PRODUCTION_BODY.results.slice(0, 3),
        coverage: { doc: 'unavailable', issue: 'ok', pull_request: 'ok', readme: 'ok' },
      });
      await v.send({ type: 'results', requestId: s.requestId, outcome: o });
      await v.page.waitForSelector('.coverage-line');
      assert.deepEqual(await v.page.locator('.coverage-line').allTextContents(), [
        'Documentation left out because of the repository filters (min_stars).Include documentationChoose documentation sources…',
      ]);
      assert.equal(await v.page.locator('.coverage-line .codicon-info').count(), 1, 'neutral (info), not an error');
      await v.page.screenshot({
        path: join(shots, `rule6-${theme}.png`),
        clip: { x: 0, y: 0, width: 420, height: 300 },
      });
      if (theme !== 'hc') {
        await v.page.close();
        continue;
      }
      await v.page.getByRole('button', { name: 'Choose documentation sources…' }).click();
      assert.equal(await v.page.isVisible('#filters-body'), true, 'the picker opens');
      assert.equal(
        await v.page.evaluate(() => document.activeElement?.id),
        'f-sources',
        'no ids known yet: the field takes the focus',
      );
      const before = (await v.posted()).length;
      await v.page.getByRole('button', { name: 'Include documentation' }).click();
      const again = await v.waitForPosted('search', before);
      assert.equal(again.params.min_stars, undefined);
      // Sources used before, marked by the service's echo.
      await v.page.fill('#f-sources', 'node-api, nope');
      const s2 = await typeAndSearch(v, 'streams');
      await v.send({ type: 'searchStarted', requestId: s2.requestId, params: s2.params });
      await v.send({
        type: 'results',
        requestId: s2.requestId,
        outcome: outcome({
          params: s2.params,
          results: [],
          sources: [
            { source: 'node-api', indexed: true },
            { source: 'nope', indexed: false },
          ],
        }),
      });
      await v.page.fill('#f-sources', '');
      await v.page.dispatchEvent('#f-sources', 'input');
      assert.deepEqual(
        await v.page
          .locator('#source-picker button')
          .evaluateAll((els) => els.map((b) => b.getAttribute('aria-label'))),
        ['node-api, indexed', 'nope, not indexed'],
      );
      await v.page.getByRole('button', { name: 'node-api, indexed' }).click();
      assert.equal(await v.page.inputValue('#f-sources'), 'node-api', 'a known id is one click');
      await v.page.close();
    }
  });

  it("keeps the error box's buttons while other things render: a keyboard user's focus stays, a wait's Retry is the same button as it counts down", async () => {
    const v = await freshView();
    await showSample(v);
    let s = await typeAndSearch(v, 'secret');
    await v.send({ type: 'searchStarted', requestId: s.requestId, params: s.params });
    await v.send({
      type: 'searchError',
      requestId: s.requestId,
      error: { message: 'Unauthorized: Invalid token (HTTP 401)', action: 'setKey', status: 401 },
    });
    await v.page.waitForSelector('#error:not([hidden])');
    // Renders for other reasons while the button has the focus: a filter validated as it is typed (250 ms
    // after the typing), and the key state coming and going (the keyless line).
    await v.page.click('#filters-toggle');
    await v.page.fill('#f-language', 'Go');
    await v.page.getByRole('button', { name: 'Set API Key' }).last().focus();
    await v.page.evaluate(() => {
      (window as unknown as { __kept: Element | null }).__kept = document.activeElement;
    });
    await v.send({ type: 'keyState', hasKey: false });
    await v.send({ type: 'keyState', hasKey: true });
    await v.page.waitForTimeout(400);
    assert.deepEqual(
      await v.page.evaluate(() => {
        const kept = (window as unknown as { __kept: Element | null }).__kept;
        return [
          kept === document.activeElement,
          kept?.isConnected,
          kept?.textContent,
          (kept as HTMLElement | null)?.dataset.err,
        ];
      }),
      [true, true, 'Set API Key', 'setKey'],
      'the focused button is still in the box, and still focused',
    );
    let before = (await v.posted()).length;
    await v.page.keyboard.press('Enter');
    await v.waitForPosted('setKey', before);

    // A 429 with a wait: the countdown changes every second, the Retry button stays the same node.
    s = await typeAndSearch(v, 'busy');
    await v.send({ type: 'searchStarted', requestId: s.requestId, params: s.params });
    await v.send({
      type: 'searchError',
      requestId: s.requestId,
      error: { message: 'Too Many Requests (HTTP 429)', action: 'wait', status: 429, retryAfterMs: 2500 },
    });
    await v.page.waitForSelector('#error .countdown');
    assert.match((await v.page.textContent('#error .countdown')) ?? '', /^You can retry in [23] s$/);
    await v.page.evaluate(() => {
      (window as unknown as { __retry: Element | null }).__retry = document.querySelector('#error [data-err="retry"]');
    });
    assert.equal(await v.page.locator('#error [data-err="retry"]').isDisabled(), true);
    await v.page.waitForFunction(
      () => document.querySelector('#error .countdown')?.textContent === 'You can retry now',
      undefined,
      { timeout: 4000 },
    );
    assert.deepEqual(
      await v.page.evaluate(() => {
        const r = (window as unknown as { __retry: HTMLButtonElement }).__retry;
        return [r.isConnected, r.disabled];
      }),
      [true, false],
      'the same Retry button, enabled when the wait is over',
    );
    before = (await v.posted()).length;
    await v.page.locator('#error [data-err="retry"]').click();
    const again = await v.waitForPosted('search', before);
    assert.equal(again.params.query, 'busy');
    await v.page.close();
  });

  it('shows retry waits counting down and cancels', async () => {
    const v = await freshView();
    const s = await typeAndSearch(v, 'busy');
    await v.send({ type: 'searchStarted', requestId: s.requestId, params: s.params });
    await v.send({
      type: 'retrying',
      requestId: s.requestId,
      attempt: 2,
      maxAttempts: 5,
      delayMs: 3000,
      reason: 'Too Many Requests',
      status: 429,
    });
    assert.match((await v.page.textContent('#status')) ?? '', /Rate limited, retrying in [23] s \(attempt 2 of 5\)/);
    await v.page.waitForFunction(
      () => /retrying in 1 s/.test(document.querySelector('#status')?.textContent ?? ''),
      undefined,
      { timeout: 3500 },
    );
    const before = (await v.posted()).length;
    await v.page.click('#cancel');
    const c = await v.waitForPosted('cancel', before);
    assert.equal(c.requestId, s.requestId);
    await v.send({
      type: 'results',
      requestId: s.requestId,
      outcome: outcome({ params: s.params, results: SAMPLE_RESULTS }),
    });
    await v.page.waitForTimeout(50);
    assert.equal(await v.page.locator('li.row').count(), 0, 'a late answer to a cancelled search is ignored');
    await v.page.close();
  });

  it('turns every link click into an openLink message and never navigates', async () => {
    const v = await freshView();
    await showSample(v);
    await v.page.locator('li.row').first().click();
    const before = (await v.posted()).length;
    const pages = v.page.context().pages().length;
    await v.page.locator('.md a', { hasText: 'RFC 9110' }).click();
    await v.page.locator('.md a', { hasText: 'RFC 9110' }).click({ button: 'middle' });
    const links = (await v.posted()).slice(before).filter((m) => m.type === 'openLink');
    assert.deepEqual(
      links.map((m) => m.type === 'openLink' && m.url),
      ['https://www.rfc-editor.org/rfc/rfc9110', 'https://www.rfc-editor.org/rfc/rfc9110'],
    );
    assert.equal(v.page.url(), `${server.origin}/`);
    assert.equal(v.page.context().pages().length, pages, 'no page or popup opened');
    assert.equal(
      await v.page.locator('li.row').first().getAttribute('aria-expanded'),
      'true',
      'a link click inside passages does not collapse the row',
    );
    await v.page.close();
  });

  it('restores every valid field after a reload, and keeps the typed query when another field is damaged or the version changed', async () => {
    const v = await freshView();
    await v.page.click('#filters-toggle');
    await v.page.fill('#f-language', 'TypeScript');
    await v.page.selectOption('#f-archived', 'no');
    await showSample(v);
    await v.page.locator('li.row').nth(1).click();
    await v.page.reload();
    await v.page.waitForSelector('li.row');
    const posted = await v.posted();
    assert.equal(posted.length, 1);
    assert.equal(posted[0]!.type, 'ready', 'after the reload: ready and no new search');
    assert.deepEqual(
      posted[0]!.type === 'ready' && posted[0].scope,
      { query: 'http server keep-alive', k: 10, passages: 3, language: 'TypeScript', archived: false },
      'ready tells the extension the scope on screen',
    );
    assert.equal(await v.page.inputValue('#q'), 'http server keep-alive');
    assert.equal(await v.page.inputValue('#f-language'), 'TypeScript');
    assert.equal(await v.page.locator('li.row').count(), 5);
    assert.equal(
      await v.page.locator('li.row').nth(1).getAttribute('aria-expanded'),
      'true',
      'the expanded row stays expanded',
    );
    // One field damaged, and a state from another version: the query and every valid field survive.
    await v.page.evaluate(() => {
      const s = JSON.parse(sessionStorage.getItem('vscode-state')!);
      s.v = 99;
      s.form.k = 12;
      s.form.types = 'all';
      s.outcome.results[0].passages = 'broken';
      sessionStorage.setItem('vscode-state', JSON.stringify(s));
    });
    await v.page.reload();
    await v.page.waitForFunction(() => (window as unknown as { __posted: unknown[] }).__posted.length > 0);
    assert.equal(await v.page.inputValue('#q'), 'http server keep-alive');
    assert.equal(await v.page.inputValue('#f-language'), 'TypeScript');
    assert.equal(await v.page.inputValue('#f-archived'), 'no');
    assert.equal(await v.page.locator('li.row').count(), 0, 'the damaged outcome alone is dropped');
    await v.page.close();
  });

  it('asks about a search that was running when the view went away', async () => {
    const v = await freshView();
    const s = await typeAndSearch(v, 'pending');
    await v.page.reload();
    await v.page.waitForFunction(() => (window as unknown as { __posted: unknown[] }).__posted.length > 0);
    const ready = (await v.posted())[0]!;
    assert.equal(ready.type === 'ready' && ready.pendingRequestId, s.requestId);
    assert.match((await v.page.textContent('#status')) ?? '', /Searching/);
    assert.equal(await v.page.inputValue('#q'), 'pending');
    await v.send({ type: 'init', defaults: DEFAULTS, workspaceRepos: [] });
    await v.send({
      type: 'results',
      requestId: s.requestId,
      outcome: outcome({ params: s.params, results: SAMPLE_RESULTS.slice(0, 1) }),
    });
    await v.page.waitForSelector('li.row');
    await v.page.close();
  });

  it("validates filters as they are typed, in the form's words", async () => {
    const v = await freshView();
    await v.page.click('#filters-toggle');
    await v.page.fill('#f-minStars', '500');
    await v.page.fill('#f-maxStars', '5');
    // On a busy machine the 250 ms pause can pass between the two fills: a first check then goes out with
    // min_stars alone, and the view keeps only the answer to its newest one. Answer the one with both bounds.
    const handle = await v.page.waitForFunction(
      () =>
        (window as unknown as { __posted: FromWebview[] }).__posted.find(
          (m) => m.type === 'validate' && m.params.max_stars === 5,
        ),
      undefined,
      { timeout: 5000 },
    );
    const val = (await handle.jsonValue()) as Extract<FromWebview, { type: 'validate' }>;
    assert.equal(val.params.min_stars, 500);
    const scopes = (await v.posted()).filter((m) => m.type === 'scope');
    const scope = scopes[scopes.length - 1]!;
    assert.equal(scope.type === 'scope' && scope.params.max_stars, 5, 'the extension learns the scope on screen');
    await v.send({
      type: 'validation',
      requestId: val.requestId,
      issues: [
        {
          field: 'min_stars',
          message: 'min_stars (500) must not be greater than max_stars (5); no repository can match',
        },
      ],
    });
    await v.page.waitForSelector('#err-min_stars:not([hidden])');
    assert.equal(await v.page.textContent('#err-min_stars'), 'Min stars is above Max stars');
    assert.equal(await v.page.getAttribute('#f-minStars', 'aria-invalid'), 'true');
    await v.page.screenshot({ path: join(shots, 'validation-dark.png'), fullPage: true });
    await v.page.close();
  });

  it('keeps hovered suggestions, chips and rows readable (contrast at least 4.5:1) in light, dark and high contrast', async () => {
    for (const theme of ['light', 'dark', 'hc'] as const) {
      const v = await freshView(theme);
      await v.page.click('#filters-toggle');
      await v.page.fill('#f-language', 'Go');
      await showSample(v);
      const measure = async (selector: string, what: string) => {
        await v.page.locator(selector).first().hover();
        const ratio = await v.page
          .locator(selector)
          .first()
          .evaluate((el) => {
            const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
            const lum = ([r, g, b]: number[]) =>
              [r!, g!, b!]
                .map((x) => {
                  const c = x / 255;
                  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
                })
                .reduce((acc, c, i) => acc + c * [0.2126, 0.7152, 0.0722][i]!, 0);
            // The colour drawn behind the element: its own background, else the nearest painted ancestor's, composited.
            let bg = [0, 0, 0, 0];
            const layers: number[][] = [];
            for (let e: Element | null = el; e; e = e.parentElement) {
              const c = rgb(getComputedStyle(e).backgroundColor);
              const a = c.length > 3 ? c[3]! : 1;
              if (a > 0) {
                layers.push([c[0]!, c[1]!, c[2]!, a]);
                if (a >= 1) break;
              }
            }
            for (const l of layers.reverse())
              bg = [0, 1, 2].map((i) => l[i]! * l[3]! + (bg[i] ?? 0) * (1 - l[3]!)).concat(1);
            const fg = rgb(getComputedStyle(el).color);
            const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
            return (a! + 0.05) / (b! + 0.05);
          });
        assert.ok(ratio >= 4.5, `${theme}: ${what} on hover has contrast ${ratio.toFixed(2)}:1`);
      };
      await measure('[data-add-repo]', 'a workspace repository suggestion');
      await measure('#chips .chip-label', 'a chip');
      await measure('li.row .row-title', 'a row title');
      await measure('li.row .provenance', "a row's provenance");
      if (theme === 'light') {
        await v.page.locator('[data-add-repo]').first().hover();
        await v.page.screenshot({
          path: join(shots, 'suggestion-hover-light.png'),
          clip: { x: 0, y: 0, width: 420, height: 500 },
        });
      }
      await v.page.close();
    }
  });

  it('says when a search is keyless, in one line, and follows key changes', async () => {
    const v = await freshView('light');
    const bar = v.page.locator('#keyless');
    assert.equal(await bar.isVisible(), false, 'nothing is claimed before the extension says');
    await v.send({ type: 'keyState', hasKey: false });
    assert.equal(await bar.isVisible(), true);
    assert.ok((await bar.boundingBox())!.height <= 24, 'one line');
    const before = (await v.posted()).length;
    await bar.getByRole('button', { name: 'Set API Key' }).click();
    await v.waitForPosted('setKey', before);
    await v.send({ type: 'keyState', hasKey: true });
    assert.equal(await bar.isVisible(), false);
    await v.page.close();
  });

  it("the keyless quota with the service's signup link offers Get a Key beside Set API Key, in the line and the box; the link goes back to the extension", async () => {
    for (const theme of ['light', 'dark', 'hc'] as const) {
      const v = await freshView(theme, { width: 300, height: 700 });
      await v.send({ type: 'keyState', hasKey: false });
      const s = await typeAndSearch(v, 'keyless quota');
      const signupUrl = 'https://firecrawl.dev/k/3f9a1c0e7b2d4a61';
      await v.send({
        type: 'searchError',
        requestId: s.requestId,
        error: {
          message:
            'Keyless searches are used up until 00:00 tomorrow (in 9 h); an API key is not limited by the keyless quota (request id 0b7c6a52-1d1e-4c4f-9d35-2f0c1f6b8e11)',
          action: 'setKey',
          status: 429,
          keyless: { kind: 'quota', resetAt: Date.now() + 9 * 3_600_000, quota: 'requests', signupUrl },
        },
      });
      const bar = v.page.locator('#keyless');
      await bar.getByRole('button', { name: 'Get a Key' }).waitFor({ state: 'visible' });
      assert.deepEqual(await bar.getByRole('button').allInnerTexts(), ['Get a Key', 'Set API Key']);
      assert.deepEqual(
        await v.page.locator('#error').getByRole('button').allInnerTexts(),
        ['Get a Key', 'Set API Key'],
        'the box: Get a Key first',
      );
      const line = await bar.boundingBox();
      const set = await bar.getByRole('button', { name: 'Set API Key' }).boundingBox();
      assert.ok(line && set && set.x + set.width <= line.x + line.width + 1, 'both actions inside the line at 300 px');
      await v.page.screenshot({ path: join(shots, `keyless-get-a-key-${theme}.png`) });
      let before = (await v.posted()).length;
      await bar.getByRole('button', { name: 'Get a Key' }).click();
      const fromLine = await v.waitForPosted('getKey', before);
      assert.equal(fromLine.url, signupUrl);
      before = (await v.posted()).length;
      await v.page.locator('#error').getByRole('button', { name: 'Get a Key' }).click();
      assert.equal((await v.waitForPosted('getKey', before)).url, signupUrl);
      await v.page.close();
    }
    // Without a link, today's line: Set API Key alone.
    const v = await freshView('light');
    await v.send({ type: 'keyState', hasKey: false });
    const s = await typeAndSearch(v, 'keyless quota');
    await v.send({
      type: 'searchError',
      requestId: s.requestId,
      error: {
        message: 'Keyless searches are used up',
        action: 'setKey',
        status: 429,
        keyless: { kind: 'quota', resetAt: Date.now() + 3_600_000 },
      },
    });
    await v.page.locator('#error:not([hidden])').waitFor();
    assert.deepEqual(await v.page.locator('#keyless').getByRole('button').allInnerTexts(), ['Set API Key']);
    assert.deepEqual(await v.page.locator('#error').getByRole('button').allInnerTexts(), ['Set API Key']);
    await v.page.close();
  });

  it('Expand All ends with every row expanded and its passages rendered as markdown, again after Collapse All; a search started during the slices leaves no stale rows', async () => {
    const v = await freshView();
    const many = Array.from({ length: 100 }, (_, i) => ({
      id: `doc:slices/${i}`,
      type: 'doc',
      url: `https://nodejs.org/api/slices-${i}.html`,
      title: `Old result ${i}`,
      provenance: `nodejs.org/api/slices-${i}.html`,
      passages: Array.from({ length: 5 }, (_, j) => ({
        text: `### Old part ${i}.${j}\n\nSome **bold** words, \`code\` and [a link](https://nodejs.org/${i}/${j}).\n\n| a | b |\n|---|---|\n| ${i} | ${j} |\n\n\`\`\`ts\nconst x = ${i};\n\`\`\``,
      })),
    }));
    await showSample(v, (params) => outcome({ params, results: many }));
    /** Every row, as the tree and a screen reader see it once nothing is left busy. */
    const rows = () =>
      v.page.locator('li.row').evaluateAll((els) =>
        els.map((li) => {
          const box = li.querySelector<HTMLElement>('.row-passages');
          const passages = [...li.querySelectorAll<HTMLElement>('.passage')];
          return {
            expanded: li.getAttribute('aria-expanded'),
            shown: !!box && !box.hidden && box.getBoundingClientRect().height > 0,
            busy: box?.getAttribute('aria-busy') ?? null,
            passages: passages.length,
            visible: passages.filter((p) => p.getBoundingClientRect().height > 0).length,
            markdown: passages.every(
              (p) =>
                !!p.querySelector('.md h3') &&
                !!p.querySelector('.md strong') &&
                !!p.querySelector('.md table td') &&
                !!p.querySelector('.md pre.md-code code') &&
                !!p.querySelector('.md a[href^="https://nodejs.org/"]') &&
                !/###|\|---|\*\*|```/.test(p.textContent ?? ''),
            ),
          };
        }),
      );
    const allDone = () =>
      v.page.waitForFunction(
        () =>
          document.querySelectorAll('li.row .passage').length === 500 &&
          !document.querySelector('.row-passages[aria-busy]'),
        undefined,
        { timeout: 30_000 },
      );
    for (const round of ['first Expand All', 'Expand All after Collapse All']) {
      await v.send({ type: 'command', command: 'expandAll' });
      await allDone();
      const all = await rows();
      assert.equal(all.length, 100);
      all.forEach((r, i) =>
        assert.deepEqual(
          r,
          { expanded: 'true', shown: true, busy: null, passages: 5, visible: 5, markdown: true },
          `${round}: row ${i}`,
        ),
      );
      await v.send({ type: 'command', command: 'collapseAll' });
      assert.equal(
        await v.page.locator('li.row[aria-expanded="true"]').count(),
        0,
        `${round}: Collapse All closes every row`,
      );
      assert.equal(await v.page.locator('.row-passages:not([hidden])').count(), 0, `${round}: and hides every passage`);
    }
    // A new search while the slices run: Expand All, then (in the same task, so slices are certainly still due)
    // the form submitted; its results replace the list, and no later slice writes an old passage anywhere.
    const before = (await v.posted()).length;
    const due = await v.page.evaluate(() => {
      window.dispatchEvent(new MessageEvent('message', { data: { type: 'command', command: 'expandAll' } }));
      const busy = document.querySelectorAll('.row-passages[aria-busy="true"]').length;
      (document.getElementById('q') as HTMLInputElement).value = 'a new question';
      (document.querySelector('form') as HTMLFormElement).requestSubmit();
      return busy;
    });
    assert.ok(due > 50, `slices were still due when the search started (${due} rows busy)`);
    const s = await v.waitForPosted('search', before);
    assert.equal(s.params.query, 'a new question');
    await v.send({ type: 'searchStarted', requestId: s.requestId, params: s.params });
    const fresh = Array.from({ length: 3 }, (_, i) => ({
      id: `doc:new/${i}`,
      type: 'doc',
      url: `https://nodejs.org/api/new-${i}.html`,
      title: `New result ${i}`,
      provenance: `nodejs.org/api/new-${i}.html`,
      passages: [{ text: `New passage ${i} with **markdown**.` }],
    }));
    await v.send({ type: 'results', requestId: s.requestId, outcome: outcome({ params: s.params, results: fresh }) });
    // Long enough for every slice the old Expand All had left (100 rows) to have run, were it not cancelled.
    await v.page.evaluate(
      () =>
        new Promise<void>((r) => {
          let n = 0;
          const tick = () => (++n > 40 ? r() : setTimeout(tick, 10));
          tick();
        }),
    );
    assert.deepEqual(await v.page.locator('li.row .row-title').allTextContents(), [
      'New result 0',
      'New result 1',
      'New result 2',
    ]);
    assert.deepEqual(
      await v.page.locator('li.row').evaluateAll((els) => els.map((li) => li.getAttribute('aria-expanded'))),
      ['false', 'false', 'false'],
      'the new rows are collapsed',
    );
    assert.equal(
      await v.page.locator('.passage, .row-passages, [aria-busy]').count(),
      0,
      'no passage box, old or new, and nothing busy',
    );
    assert.doesNotMatch(
      await v.page.locator('#results-region').innerText(),
      /Old (result|part)/,
      'nothing of the old results is left',
    );
    // The new list expands as usual.
    await v.send({ type: 'command', command: 'expandAll' });
    await v.page.waitForFunction(
      () => document.querySelectorAll('li.row .passage').length === 3 && !document.querySelector('[aria-busy]'),
    );
    assert.deepEqual(await v.page.locator('li.row .passage .md strong').allTextContents(), [
      'markdown',
      'markdown',
      'markdown',
    ]);
    await v.page.close();
  });

  it('shows the empty states; Clear empties the query and the results', async () => {
    const v = await freshView('light');
    assert.match((await v.page.textContent('#results-region')) ?? '', /Type a question and press Enter/);
    const s = await typeAndSearch(v, 'zzzz');
    await v.send({ type: 'results', requestId: s.requestId, outcome: outcome({ params: s.params, results: [] }) });
    await v.page.waitForSelector('.empty:not(.welcome)');
    assert.match((await v.page.textContent('.empty:not(.welcome)')) ?? '', /No results for “zzzz”/);
    await v.send({ type: 'command', command: 'clear' });
    assert.equal(await v.page.inputValue('#q'), '');
    assert.equal(await v.page.locator('.welcome').count(), 1);
    await v.page.close();
  });
});
