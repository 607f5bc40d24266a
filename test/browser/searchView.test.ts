// The Search view's bundle in a real browser (Debian chromium), under its real CSP, with the
// extension played by the test: what the view posts is read back, what the extension would send is
// posted into the page.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { explainCoverage } from '../../src/api/coverage';
import type { SearchResponse } from '../../src/api/schemas';
import type { ViewNote } from '../../src/webview/protocol';
import {
  DEFAULTS, applyTheme, launchBrowser, openView, outcome, screenshotDir, startPageServer, typeAndSearch,
  type BrowserHandle, type PageServer, type ViewPage,
} from './harness';
import { SAMPLE_RESULTS } from './samples';

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

async function freshView(theme: 'light' | 'dark' | 'hc' = 'dark'): Promise<ViewPage> {
  const v = await openView(browser.context, server.origin, theme);
  await v.send({ type: 'init', defaults: DEFAULTS, workspaceRepos: ['nodejs/node', 'nodejs/undici'] });
  return v;
}

async function showSample(v: ViewPage, notes: ViewNote[] = []): Promise<void> {
  const s = await typeAndSearch(v, 'http server keep-alive');
  await v.send({ type: 'searchStarted', requestId: s.requestId });
  await v.send({ type: 'results', requestId: s.requestId, outcome: outcome({ params: s.params, results: SAMPLE_RESULTS, reranked: true, notes }) });
  await v.page.waitForSelector('li.result');
}

describe('search view in chromium', () => {
  it('says ready first and sends nothing else before init', async () => {
    const v = await openView(browser.context, server.origin);
    const posted = await v.posted();
    assert.deepEqual(posted, [{ type: 'ready' }]);
    await v.page.close();
  });

  it('sends the typed query with the default filters and renders a table, a code block and titles', async () => {
    const v = await freshView('dark');
    const s = await typeAndSearch(v, 'http server keep-alive');
    assert.deepEqual(s.params, { query: 'http server keep-alive', k: 10, passages: 3 });
    await v.send({ type: 'searchStarted', requestId: s.requestId });
    assert.equal(await v.page.isVisible('#cancel'), true, 'Cancel shows while the search runs');
    await v.send({ type: 'results', requestId: s.requestId, outcome: outcome({ params: s.params, results: SAMPLE_RESULTS, reranked: true }) });
    await v.page.waitForSelector('li.result');

    assert.equal(await v.page.locator('li.result').count(), 5);
    assert.equal(await v.page.isVisible('#cancel'), false);
    const table = v.page.locator('li.result').first().locator('.md table');
    assert.equal(await table.count(), 1);
    assert.deepEqual(await table.locator('th').allTextContents(), ['Option', 'Type', 'Default']);
    assert.equal(await table.locator('th.md-align-right').count(), 1, 'alignment becomes a class, not a style attribute');
    const code = v.page.locator('li.result').first().locator('pre code.language-ts');
    assert.match((await code.textContent()) ?? '', /createServer\(\(req, res\) => res\.end\('ok'\)\)/);
    assert.equal(await v.page.locator('.summary .reranked').count(), 1);
    assert.equal(await v.page.locator('li.result').nth(3).locator('.result-title').textContent(), 'https://nodejs.org/api/untitled.html', 'title falls back to the url');
    const icons = v.page.locator('li.result .type-icon');
    assert.deepEqual(await icons.evaluateAll((els) => els.map((e) => [...e.classList].filter((c) => c.startsWith('codicon-')))),
      [['codicon-book'], ['codicon-issues'], ['codicon-git-pull-request'], ['codicon-book'], ['codicon-repo']]);
    assert.deepEqual(await icons.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))), ['Documentation', 'Issues', 'Pull requests', 'Documentation', 'READMEs']);
    // The codicon font really loads under the CSP (font-src) and draws a glyph: not a blank box of text.
    await v.page.waitForFunction(() => [...document.fonts].some((f) => f.family.replace(/["']/g, '') === 'codicon' && f.status === 'loaded'), undefined, { timeout: 5000 });
    const glyph = await icons.first().evaluate((e) => ({ content: getComputedStyle(e, '::before').content, width: e.getBoundingClientRect().width }));
    assert.ok(glyph.content !== 'none' && glyph.content.length >= 3 && glyph.width >= 12, `the book icon draws a glyph: ${JSON.stringify(glyph)}`);
    assert.ok(server.requests.includes('/assets/dist/codicon.ttf'), 'the font came through the asset path (asWebviewUri in the extension)');
    assert.deepEqual(await v.page.locator('li.result').first().locator('.result-actions .codicon').evaluateAll((els) => els.map((e) => [...e.classList].find((c) => c.startsWith('codicon-')))),
      ['codicon-link-external', 'codicon-link', 'codicon-markdown']);
    const rel = await v.page.locator('li.result').first().locator('.md a', { hasText: 'the guide' }).getAttribute('href');
    assert.equal(rel, 'https://nodejs.org/api/guide.html', 'relative links resolve against the result url');
    assert.deepEqual(await v.violations(), []);

    await v.page.screenshot({ path: join(shots, 'results-dark.png'), fullPage: true });
    await applyTheme(v.page, 'light');
    await v.page.screenshot({ path: join(shots, 'results-light.png'), fullPage: true });
    await applyTheme(v.page, 'hc');
    await v.page.screenshot({ path: join(shots, 'results-high-contrast.png'), fullPage: true });
    const bg = await v.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(bg, 'rgb(0, 0, 0)', 'colours come from the theme variables');
    await v.page.close();
  });

  it('turns every link click into an openLink message and never navigates', async () => {
    const v = await freshView();
    await showSample(v);
    const before = (await v.posted()).length;
    const pages = v.page.context().pages().length;
    await v.page.locator('.md a', { hasText: 'RFC 9110' }).click();
    await v.page.locator('li.result').nth(1).locator('.result-title').click();
    await v.page.locator('li.result').nth(1).locator('.result-title').click({ button: 'middle' });
    const links = (await v.posted()).slice(before).filter((m) => m.type === 'openLink');
    assert.deepEqual(links.map((m) => m.type === 'openLink' && m.url), [
      'https://www.rfc-editor.org/rfc/rfc9110',
      'https://github.com/nodejs/node/issues/123',
      'https://github.com/nodejs/node/issues/123',
    ]);
    assert.equal(v.page.url(), `${server.origin}/`);
    assert.equal(v.page.context().pages().length, pages, 'no page or popup opened');
    await v.page.close();
  });

  it('moves between results with the arrow keys and opens the focused one with Enter', async () => {
    const v = await freshView();
    await showSample(v);
    await v.page.focus('#q');
    await v.page.keyboard.press('ArrowDown');
    assert.equal(await v.page.evaluate(() => document.activeElement?.getAttribute('data-index')), '0');
    await v.page.keyboard.press('ArrowDown');
    await v.page.keyboard.press('ArrowDown');
    assert.equal(await v.page.evaluate(() => document.activeElement?.getAttribute('data-index')), '2');
    await v.page.keyboard.press('ArrowUp');
    assert.equal(await v.page.evaluate(() => document.activeElement?.getAttribute('data-index')), '1');
    await v.page.keyboard.press('End');
    assert.equal(await v.page.evaluate(() => document.activeElement?.getAttribute('data-index')), '4');
    const before = (await v.posted()).length;
    await v.page.keyboard.press('Enter');
    const open = await v.waitForPosted('openLink', before);
    assert.equal(open.url, 'https://github.com/nodejs/undici#readme');
    await v.page.keyboard.press('Home');
    await v.page.keyboard.press('ArrowUp');
    assert.equal(await v.page.evaluate(() => document.activeElement?.id), 'q', 'ArrowUp from the first result returns to the query');
    await v.page.close();
  });

  it('posts copy, insert and open-as-markdown for a result', async () => {
    const v = await freshView();
    await showSample(v);
    const card = v.page.locator('li.result').nth(1);
    const before = (await v.posted()).length;
    await card.getByRole('button', { name: 'Copy link' }).click();
    await card.getByRole('button', { name: 'Copy passage 1' }).click();
    await card.getByRole('button', { name: 'Insert passage 1 at the cursor' }).click();
    await card.getByRole('button', { name: 'Open as Markdown' }).click();
    const sent = (await v.posted()).slice(before);
    assert.deepEqual(sent.map((m) => m.type), ['copy', 'copy', 'insert', 'openPassages']);
    assert.equal(sent[0]!.type === 'copy' && sent[0].text, 'https://github.com/nodejs/node/issues/123');
    assert.equal(sent[2]!.type === 'insert' && sent[2].text, SAMPLE_RESULTS[1]!.passages[0]);
    const op = sent[3]!;
    assert.ok(op.type === 'openPassages');
    assert.equal(op.title, 'http: server.close() hangs with keep-alive');
    assert.deepEqual(op.passages, SAMPLE_RESULTS[1]!.passages);
    await v.send({ type: 'actionDone', requestId: op.requestId, ok: false, message: 'No editor is active' });
    assert.equal(await v.page.locator('#toast').textContent(), 'No editor is active');
    await v.page.close();
  });

  it('restores query, filters, results and the selected result after a reload', async () => {
    const v = await freshView();
    await v.page.click('#filters summary');
    await v.page.fill('#f-language', 'TypeScript');
    await v.page.selectOption('#f-archived', 'no');
    await showSample(v);
    await v.page.focus('#q');
    await v.page.keyboard.press('ArrowDown');
    await v.page.keyboard.press('ArrowDown');
    await v.page.reload();
    await v.page.waitForSelector('li.result');
    const posted = await v.posted();
    assert.deepEqual(posted, [{ type: 'ready' }], 'after the reload: ready and no new search');
    assert.equal(await v.page.inputValue('#q'), 'http server keep-alive');
    assert.equal(await v.page.inputValue('#f-language'), 'TypeScript');
    assert.equal(await v.page.inputValue('#f-archived'), 'no');
    assert.equal(await v.page.locator('#filters').getAttribute('open'), '');
    assert.equal(await v.page.locator('li.result').count(), 5);
    assert.equal(await v.page.locator('li.result[tabindex="0"]').getAttribute('data-index'), '1');
    await v.page.close();
  });

  it('asks about a search that was running when the view went away', async () => {
    const v = await freshView();
    const s = await typeAndSearch(v, 'pending');
    await v.page.reload();
    await v.page.waitForFunction(() => (window as unknown as { __posted: unknown[] }).__posted.length > 0);
    assert.deepEqual(await v.posted(), [{ type: 'ready', pendingRequestId: s.requestId }]);
    assert.match((await v.page.textContent('#status')) ?? '', /Searching/);
    await v.send({ type: 'init', defaults: DEFAULTS, workspaceRepos: [] });
    await v.send({ type: 'results', requestId: s.requestId, outcome: outcome({ params: s.params, results: SAMPLE_RESULTS.slice(0, 1) }) });
    await v.page.waitForSelector('li.result');
    await v.page.close();
  });

  it('flags invalid filters inline before anything is sent, with the client\'s messages', async () => {
    const v = await freshView();
    await v.page.click('#filters summary');
    await v.page.fill('#f-k', 'ten');
    await v.page.waitForSelector('#err-k:not([hidden])');
    assert.match((await v.page.textContent('#err-k')) ?? '', /k must be a whole number; got "ten"/);
    assert.equal(await v.page.getAttribute('#f-k', 'aria-invalid'), 'true');
    const before = (await v.posted()).length;
    await v.page.fill('#q', 'anything');
    await v.page.press('#q', 'Enter');
    await v.page.waitForTimeout(100);
    assert.equal((await v.posted()).slice(before).filter((m) => m.type === 'search').length, 0, 'no search with a local issue');

    await v.page.fill('#f-k', '500');
    const val = await v.waitForPosted('validate', before);
    assert.equal(val.params.k, 500);
    await v.send({ type: 'validation', requestId: val.requestId, issues: [{ field: 'k', message: 'k must be from 1 to 100; got 500' }] });
    await v.page.waitForFunction(() => document.querySelector('#err-k')?.textContent === 'k must be from 1 to 100; got 500');

    // A search the extension refuses: issues inline, nothing running.
    await v.page.fill('#f-k', '5');
    await v.page.fill('#f-repos', 'nodejs');
    const s = await typeAndSearch(v, 'anything');
    await v.send({ type: 'validation', requestId: s.requestId, issues: [{ field: 'repos', message: 'repos items must have the form owner/repo; got "nodejs"' }] });
    await v.page.waitForSelector('#err-repos:not([hidden])');
    assert.equal(await v.page.isVisible('#cancel'), false);
    await v.page.screenshot({ path: join(shots, 'validation-dark.png'), fullPage: true });
    await v.page.close();
  });

  it('offers the workspace repositories as one click and sets every filter', async () => {
    const v = await freshView();
    await v.page.click('#filters summary');
    await v.page.click('[data-add-repo="nodejs/undici"]');
    assert.equal(await v.page.inputValue('#f-repos'), 'nodejs/undici');
    assert.equal(await v.page.locator('[data-add-repo="nodejs/undici"]').count(), 0, 'an added slug is no longer offered');
    await v.page.uncheck('input[value="readme"]');
    await v.page.fill('#f-sources', 'node-api, mdn');
    await v.page.fill('#f-passages', '2');
    await v.page.fill('#f-topic', 'http');
    await v.page.fill('#f-license', 'MIT');
    await v.page.fill('#f-minStars', '10');
    await v.page.fill('#f-maxStars', '5000');
    await v.page.selectOption('#f-fork', 'yes');
    await v.page.check('#f-skillsOnly');
    const s = await typeAndSearch(v, 'fetch');
    assert.deepEqual(s.params, {
      query: 'fetch', k: 10, passages: 2, types: ['doc', 'issue', 'pull_request'], repos: ['nodejs/undici'], sources: ['node-api', 'mdn'],
      skills: 'only', topic: 'http', license: 'MIT', min_stars: 10, max_stars: 5000, fork: true,
    });
    assert.equal(await v.page.textContent('#filter-count'), '10');
    await v.page.close();
  });

  it('shows retry waits counting down and cancels', async () => {
    const v = await freshView();
    const s = await typeAndSearch(v, 'busy');
    await v.send({ type: 'searchStarted', requestId: s.requestId });
    await v.send({ type: 'retrying', requestId: s.requestId, attempt: 2, maxAttempts: 5, delayMs: 3000, reason: 'Too Many Requests', status: 429 });
    // A loaded machine may take a moment between the post and the read: 3 s or, at worst, 2 s left.
    assert.match((await v.page.textContent('#status')) ?? '', /Rate limited, retrying in [23] s \(attempt 2 of 5\)/);
    await v.page.waitForFunction(() => /retrying in 1 s/.test(document.querySelector('#status')?.textContent ?? ''), undefined, { timeout: 3500 });
    const before = (await v.posted()).length;
    await v.page.click('#cancel');
    const c = await v.waitForPosted('cancel', before);
    assert.equal(c.requestId, s.requestId);
    await v.send({ type: 'results', requestId: s.requestId, outcome: outcome({ params: s.params, results: SAMPLE_RESULTS }) });
    await v.page.waitForTimeout(50);
    assert.equal(await v.page.locator('li.result').count(), 0, 'a late answer to a cancelled search is ignored');
    assert.match((await v.page.textContent('#status')) ?? '', /cancelled/);
    await v.page.close();
  });

  it('a new search supersedes the one in flight', async () => {
    const v = await freshView();
    const first = await typeAndSearch(v, 'first');
    const second = await typeAndSearch(v, 'second');
    assert.notEqual(first.requestId, second.requestId);
    await v.send({ type: 'results', requestId: first.requestId, outcome: outcome({ params: first.params, results: SAMPLE_RESULTS }) });
    await v.send({ type: 'results', requestId: second.requestId, outcome: outcome({ params: second.params, results: SAMPLE_RESULTS.slice(0, 2) }) });
    await v.page.waitForSelector('li.result');
    assert.equal(await v.page.locator('li.result').count(), 2);
    await v.page.close();
  });

  it('offers the next step for 401, 429 and network failures', async () => {
    const v = await freshView('light');
    let s = await typeAndSearch(v, 'secret');
    await v.send({ type: 'searchError', requestId: s.requestId, error: { message: 'Unauthorized: Invalid token (HTTP 401): set or replace the API key', action: 'setKey', status: 401 } });
    await v.page.waitForSelector('#error:not([hidden])');
    await v.page.screenshot({ path: join(shots, 'error-401-light.png') });
    let before = (await v.posted()).length;
    await v.page.click('[data-err="setKey"]');
    await v.waitForPosted('setKey', before);

    s = await typeAndSearch(v, 'busy');
    await v.send({ type: 'searchError', requestId: s.requestId, error: { message: 'Rate limit exceeded (HTTP 429)', action: 'wait', status: 429, retryAfterMs: 2000 } });
    await v.page.waitForSelector('#error:not([hidden])');
    assert.match((await v.page.textContent('#error')) ?? '', /retry in [12] s/);
    assert.equal(await v.page.isDisabled('[data-err="retry"]'), true);
    await v.page.screenshot({ path: join(shots, 'error-429-light.png') });
    await v.page.waitForSelector('[data-err="retry"]:not([disabled])', { timeout: 3500 });

    s = await typeAndSearch(v, 'offline');
    await v.send({ type: 'searchError', requestId: s.requestId, error: { message: 'could not reach the service', action: 'retry' } });
    await v.page.waitForSelector('#error:not([hidden])');
    before = (await v.posted()).length;
    await v.page.click('[data-err="retry"]');
    const again = await v.waitForPosted('search', before);
    assert.deepEqual(again.params, s.params);
    assert.notEqual(again.requestId, s.requestId);
    await v.page.close();
  });

  it('shows coverage and the explainer\'s notes once each (echo warnings included), and rule 6\'s one-click fix', async () => {
    const v = await freshView();
    await v.page.click('#filters summary');
    await v.page.fill('#f-language', 'TypeScript');
    await v.page.fill('#f-repos', 'nodejs/node, ghost/none');
    const s = await typeAndSearch(v, 'streams');
    // The notes are what the extension sends: explainCoverage's, the same the CLI prints.
    const response = {
      success: true, results: [], reranked: false,
      coverage: { doc: 'unavailable', issue: 'ok', pull_request: 'degraded', readme: 'skipped', snippet: 'ok' },
      repos: [{ repo: 'nodejs/node', indexed: true, types: { issue: true, pullRequest: false, readme: true } }, { repo: 'ghost/none', indexed: false }],
    } as unknown as SearchResponse;
    const notes: ViewNote[] = explainCoverage(s.params, response);
    const echoes = notes.filter((n) => /^Repository /.test(n.text)).map((n) => n.text);
    assert.equal(echoes.length, 2, `the explainer reports both echoed repositories: ${JSON.stringify(notes)}`);
    await v.send({ type: 'results', requestId: s.requestId, outcome: outcome({
      params: s.params, results: SAMPLE_RESULTS.slice(1, 3), notes,
      coverage: response.coverage as Record<string, string>,
      repos: [{ repo: 'nodejs/node', indexed: true, types: { issue: true, pullRequest: false, readme: true } }, { repo: 'ghost/none', indexed: false }],
    }) });
    await v.page.waitForSelector('.coverage-strip');
    assert.deepEqual(await v.page.locator('.cov').allTextContents(), ['Documentation unavailable', 'Issues ok', 'Pull requests degraded', 'READMEs skipped', 'snippet ok']);
    assert.match((await v.page.locator('.cov-unavailable').getAttribute('title')) ?? '', /repository filters \(language\)/);
    const shown = await v.page.locator('.notes > li.note').allTextContents();
    assert.equal(shown.length, notes.length, `one line per explainer note, nothing derived beside them: ${JSON.stringify(shown)}`);
    const region = (await v.page.textContent('#results-region')) ?? '';
    for (const text of echoes) assert.equal(region.split(text).length - 1, 1, `shown exactly once: ${text}`);
    assert.equal(shown.filter((t) => /Repository ghost\/none is not indexed/.test(t)).length, 1, 'the unindexed repository is reported once, not by a second derivation');
    assert.equal(await v.page.locator('.note .codicon-warning').count(), notes.filter((n) => n.level === 'warning').length);
    await v.page.screenshot({ path: join(shots, 'coverage-dark.png'), fullPage: true });
    const before = (await v.posted()).length;
    await v.page.click('[data-fix="drop-repo-filters"]');
    const again = await v.waitForPosted('search', before);
    assert.equal(again.params.language, undefined);
    assert.deepEqual(again.params.repos, ['nodejs/node', 'ghost/none'], 'repos is a scope, not one of the seven repository filters');
    assert.equal(await v.page.inputValue('#f-language'), '');
    await v.page.click('[data-fix="add-sources"]');
    assert.equal(await v.page.evaluate(() => document.activeElement?.id), 'f-sources');
    await v.page.close();
  });

  it('says when a search is keyless, with Set API Key, and follows key changes', async () => {
    const v = await freshView('light');
    const bar = v.page.locator('#keyless');
    assert.equal(await bar.isVisible(), false, 'nothing is claimed before the extension says');
    await v.send({ type: 'keyState', hasKey: false });
    assert.equal(await bar.isVisible(), true);
    assert.match((await bar.textContent()) ?? '', /Keyless search.*lower keyless rate limits/);
    await v.page.screenshot({ path: join(shots, 'keyless-light.png') });
    const before = (await v.posted()).length;
    await bar.getByRole('button', { name: 'Set API Key' }).click();
    await v.waitForPosted('setKey', before);
    await v.send({ type: 'keyState', hasKey: true });
    assert.equal(await bar.isVisible(), false, 'a key set (here or in another window) hides it');
    await v.send({ type: 'keyState', hasKey: false });
    assert.equal(await bar.isVisible(), true, 'a key cleared shows it again');
    await v.page.close();
  });

  it('fills and runs a palette request, with its notice', async () => {
    const v = await freshView();
    await v.page.click('#filters summary');
    await v.page.fill('#f-language', 'Go');
    const before = (await v.posted()).length;
    await v.send({ type: 'fill', fill: { params: { query: 'abort a fetch' }, replaceFilters: false, run: true, notice: 'The selection was 9,000 characters; the search uses its first 1000.' } });
    const s1 = await v.waitForPosted('search', before);
    assert.deepEqual(s1.params, { query: 'abort a fetch', k: 10, passages: 3, language: 'Go' }, 'a bare query keeps the view\'s filters');
    assert.match((await v.page.textContent('#notice')) ?? '', /first 1000/);
    const mid = (await v.posted()).length;
    await v.send({ type: 'fill', fill: { params: { query: 'keep-alive', repos: ['nodejs/node'] }, replaceFilters: true, run: true } });
    const s2 = await v.waitForPosted('search', mid);
    assert.deepEqual(s2.params, { query: 'keep-alive', k: 10, passages: 3, repos: ['nodejs/node'] });
    assert.equal(await v.page.inputValue('#q'), 'keep-alive');
    await v.page.close();
  });

  it('shows the empty states', async () => {
    const v = await freshView('light');
    assert.match((await v.page.textContent('#results-region')) ?? '', /Type a question and press Enter/);
    const s = await typeAndSearch(v, 'zzzz');
    await v.send({ type: 'results', requestId: s.requestId, outcome: outcome({ params: s.params, results: [] }) });
    await v.page.waitForSelector('.empty:not(.welcome)');
    assert.match((await v.page.textContent('.empty:not(.welcome)')) ?? '', /No results for “zzzz”/);
    assert.equal(await v.page.locator('.welcome').count(), 0);
    await v.page.screenshot({ path: join(shots, 'empty-light.png') });
    await v.page.close();
  });
});
