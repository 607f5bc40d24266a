// Browser UI: the Search view as a user drives it in the real workbench, against the sandbox corpus.
// A search typed in the view renders tables and code blocks; rule 6's hint appears and its fix brings
// documentation back; the corpus's hostile passages (webview-toolkit#58, keel-schema#918 and others)
// execute nothing; keyless search says so and follows key changes; a refused key offers Set API Key.
// Every state is captured in the dark and the light theme (test-results/e2e/search-flows-*.png).
import * as assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { FrameLocator, Locator } from 'playwright-core';
import { Workbench, e2e } from './workbench';

interface SeenRequest { method: string; path: string; query: string; body: unknown; auth: string }

async function sandboxRequests(method: 'GET' | 'DELETE' = 'GET'): Promise<SeenRequest[]> {
  const r = await fetch(`${e2e.sandboxUrl()}/__sandbox/requests`, { method });
  return method === 'GET' ? ((await r.json()) as { requests: SeenRequest[] }).requests : [];
}

async function sandboxKeys(change: { add?: string[]; revoke?: string[] }): Promise<void> {
  const r = await fetch(`${e2e.sandboxUrl()}/__sandbox/keys`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(change) });
  assert.equal(r.status, 200);
}

function searchParams(r: SeenRequest): Record<string, unknown> {
  if (r.method === 'POST' && r.body && typeof r.body === 'object') return r.body as Record<string, unknown>;
  return Object.fromEntries(new URLSearchParams(r.query));
}

describe('Search view flows in the workbench', () => {
  let wb: Workbench;
  let view: FrameLocator;
  const dialogs: string[] = [];

  before(async () => {
    wb = await Workbench.open('search-flows');
    // Any alert/confirm/prompt from any frame (the webview's included) lands here and is dismissed.
    wb.page.on('dialog', (d) => { dialogs.push(`${d.type()}: ${d.message()}`); void d.dismiss(); });
    await wb.activityItem('Developer Index').waitFor({ state: 'visible', timeout: 60_000 });
    await wb.useTheme('dark');
    await wb.openContainer('Developer Index');
    view = wb.webview();
    await view.getByRole('searchbox').waitFor({ state: 'visible' });
    // At the default width (about 290 px) and half the side bar's height (Agent Jobs takes the
    // rest), what a state shows sits below the filter form, out of the screenshots.
    await wb.giveViewTheSideBar('Search', ['Agent Jobs']);
    await resetFilters();
  });
  afterEach(async (t) => { await wb.screenshot(`${t.name} end`); });
  after(async () => {
    // Leave the workbench as the other browser tests expect it: no key, the dark theme.
    await wb?.runCommand('Developer Index: Clear API Key').catch(() => undefined);
    await wb?.useTheme('dark').catch(() => undefined);
    await wb?.close();
  });

  /**
   * Scrolls `top` to the top of the webview, then checks that each element that shows the state
   * is on screen, so the screenshot that follows shows it.
   */
  async function showState(top: Locator, shown: Array<[Locator, string]>): Promise<void> {
    await wb.scrollToTop(top);
    for (const [el, what] of shown) await wb.assertInViewport(el, what);
  }

  /**
   * The current state in the dark theme, then in the light one (the webview follows live), then back;
   * before each screenshot, the elements that show the state are scrolled to and checked on screen.
   */
  async function bothThemes(label: string, top: Locator, shown: Array<[Locator, string]>): Promise<void> {
    await view.locator('body.vscode-dark').waitFor({ state: 'attached' });
    await showState(top, shown);
    await wb.screenshot(`${label} dark`);
    await wb.useTheme('light');
    await view.locator('body.vscode-light').waitFor({ state: 'attached' });
    await showState(top, shown);
    await wb.screenshot(`${label} light`);
    await wb.useTheme('dark');
    await view.locator('body.vscode-dark').waitFor({ state: 'attached' });
  }

  async function openFilters(): Promise<void> {
    if ((await view.locator('#filters').getAttribute('open')) === null) await view.locator('#filters summary').click();
  }

  async function resetFilters(): Promise<void> {
    await openFilters();
    await view.locator('#reset-filters').click();
  }

  async function search(query: string): Promise<void> {
    const box = view.getByRole('searchbox');
    await box.fill(query);
    await box.press('Enter');
    // Escape in a focused search box clears it (the palette helpers press Escape first): leave it.
    await box.blur();
  }

  it('keyless search says it is keyless, offers Set API Key, and follows key changes', async () => {
    const bar = view.locator('#keyless');
    await bar.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await bar.innerText(), /Keyless search.*lower keyless rate limits/s);
    await bothThemes('keyless notice', bar, [[bar, 'the keyless notice'], [bar.getByRole('button', { name: 'Set API Key' }), "the notice's Set API Key"]]);
    await bar.getByRole('button', { name: 'Set API Key' }).click();
    await wb.answerInputBox(e2e.testKey(), { prompt: /secret storage/i });
    await wb.waitForNotification(/API key saved/i);
    await bar.waitFor({ state: 'hidden', timeout: 10_000 });
    await wb.runCommand('Developer Index: Clear API Key');
    await wb.waitForNotification(/API key removed/i);
    await bar.waitFor({ state: 'visible', timeout: 10_000 });
  });

  it('a search typed in the view shows results whose passages render a table and a code block', async () => {
    await resetFilters();
    await view.locator('#f-passages').fill('5');
    await sandboxRequests('DELETE');
    await search('connection pool keep-alive timeout');
    const pooling = view.locator('li.result', { has: view.locator('a.result-title[href$="/guides/connection-pooling.html"]') });
    await pooling.waitFor({ state: 'visible', timeout: 30_000 });
    assert.ok(await view.locator('li.result .md table th').count() > 0, 'a passage renders a markdown table');
    assert.ok(await view.locator('li.result .md pre code').count() > 0, 'a passage renders a fenced code block');
    assert.equal(await pooling.locator('.type-icon.codicon-book').count(), 1, 'a doc result wears the book codicon');
    assert.ok(await view.locator('li.result .type-icon.codicon-issues').count() > 0, 'issues wear the issues codicon');
    const glyph = await pooling.locator('.type-icon').evaluate((e) => ({
      family: getComputedStyle(e).fontFamily, content: getComputedStyle(e, '::before').content,
      loaded: [...document.fonts].some((f) => f.family.replace(/["']/g, '') === 'codicon' && f.status === 'loaded'),
    }));
    assert.ok(glyph.loaded && /codicon/.test(glyph.family) && glyph.content !== 'none', `the codicon font loaded in the webview: ${JSON.stringify(glyph)}`);
    const sent = (await sandboxRequests()).filter((r) => r.path.startsWith('/v2/search'));
    assert.equal(sent.length, 1);
    assert.equal(searchParams(sent[0]!).passages, '5');
    await pooling.scrollIntoViewIfNeeded();
    const summary = view.locator('#results-region p.summary');
    const first = view.locator('li.result').first();
    await bothThemes('results with table and code', summary, [
      [summary, 'the results summary line'],
      [first.locator('.result-head'), "the first result's title"],
      [view.locator('li.result .md pre').first(), 'the first code block'],
      [pooling.locator('.result-head'), 'the connection-pooling result'],
      // The table is taller than what is left of the view: its header row and first rows must show.
      [pooling.locator('.md table tr').nth(2), "the connection-pooling table's first rows"],
    ]);
  });

  it('rule 6: a repository filter with documentation asked for explains the missing docs, and the fix brings them back', async () => {
    await resetFilters();
    await view.locator('#f-language').fill('Rust');
    await sandboxRequests('DELETE');
    await search('rate limit');
    const fix = view.locator('[data-fix="drop-repo-filters"]');
    await fix.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await view.locator('.notes').innerText(), /repository filters \(language\) apply only to repositories/);
    assert.equal(await view.locator('li.result .type-icon.type-doc').count(), 0, 'no documentation results while the filter is set');
    assert.ok(await view.locator('li.result').count() > 0, 'the repository half still answers');
    await bothThemes('rule 6 hint', view.locator('#results-region p.summary'), [
      [view.locator('.notes'), 'the rule 6 note'],
      [fix, "the note's fix button"],
    ]);

    await sandboxRequests('DELETE');
    await fix.click();
    // 'attached': cards below the fold skip rendering (content-visibility: auto), so they are not "visible".
    await view.locator('li.result .type-icon.type-doc').first().waitFor({ state: 'attached', timeout: 15_000 }).catch(async (e: Error) => {
      const seen = (await sandboxRequests()).map((r) => ({ path: r.path, params: searchParams(r) }));
      const status = await view.locator('#status').textContent();
      throw new Error(`no documentation after the fix; language field ${JSON.stringify(await view.locator('#f-language').inputValue())}, status ${JSON.stringify(status)}, sent ${JSON.stringify(seen)}\n${e.message}`);
    });
    assert.equal(await view.locator('#f-language').inputValue(), '', 'the fix cleared the language filter');
    assert.equal(await view.locator('[data-fix="drop-repo-filters"]').count(), 0, 'the hint is gone');
    const sent = (await sandboxRequests()).filter((r) => r.path.startsWith('/v2/search'));
    assert.equal(sent.length, 1);
    assert.equal(searchParams(sent[0]!).language, undefined, 'the fixed search was sent without the language filter');
    // The documentation results come back below the repository ones: show the first of them.
    const doc = view.locator('li.result', { has: view.locator('.type-icon.type-doc') }).first();
    await bothThemes('rule 6 fixed', doc, [[doc.locator('.result-head'), 'the first documentation result']]);
  });

  it('hostile passages from the corpus execute no script', async () => {
    await resetFilters();
    await view.locator('#f-passages').fill('5');
    const frame = await wb.webviewFrame();
    // Sentinels inside the webview's own document: every way the payloads would show they ran.
    await frame.evaluate(() => {
      const w = window as unknown as { __fired: string[]; __violations: string[] };
      w.__fired = [];
      w.__violations = [];
      for (const name of ['alert', 'confirm', 'prompt', 'print', 'open'] as const) {
        (window as unknown as Record<string, unknown>)[name] = (...a: unknown[]) => { w.__fired.push(`${name}(${a.map(String).join(',')})`); return null; };
      }
      document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    // Control: the sentinel is in the frame the results render in, so it can fail.
    await frame.evaluate(() => window.alert('control'));
    assert.deepEqual(await frame.evaluate(() => (window as unknown as { __fired: string[] }).__fired.splice(0)), ['alert(control)']);

    await search('XSS script alert');
    const toolkit58 = view.locator('li.result', { has: view.locator('a.result-title[href="https://github.com/orbit-editor/webview-toolkit/issues/58"]') });
    const keel918 = view.locator('li.result', { has: view.locator('a.result-title[href="https://github.com/keelhq/keel-schema/issues/918"]') });
    await toolkit58.waitFor({ state: 'visible', timeout: 30_000 });
    await keel918.waitFor({ state: 'attached' });
    await keel918.scrollIntoViewIfNeeded();
    // Let the lazily rendered cards upgrade to markdown, then look at what is in the DOM.
    await view.locator('li.result.pending').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
    assert.match((await keel918.textContent()) ?? '', /<script>alert\(1\)<\/script>/, 'the script tag is shown as text');
    const dom = await frame.evaluate(() => {
      const region = document.getElementById('results-region')!;
      const all = [...region.querySelectorAll('*')];
      return {
        scripts: region.querySelectorAll('script, iframe, object, embed, svg, img, style').length,
        handlers: all.flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName}[${a.name}]`)),
        badLinks: [...region.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')!).filter((h) => !/^(https?:|mailto:)/i.test(h)),
      };
    });
    assert.deepEqual(dom, { scripts: 0, handlers: [], badLinks: [] });
    // Click what the javascript: links became (blocked text): nothing may navigate or run.
    const blocked = toolkit58.locator('.md-link-blocked');
    for (let i = 0; i < Math.min(await blocked.count(), 5); i++) await blocked.nth(i).click();
    await wb.page.waitForTimeout(500);
    assert.deepEqual(await frame.evaluate(() => (window as unknown as { __fired: string[] }).__fired), [], 'no payload called alert/confirm/prompt/print/open');
    assert.deepEqual(await frame.evaluate(() => (window as unknown as { __violations: string[] }).__violations), [], 'nothing even tried to run or load (no CSP violation)');
    assert.deepEqual(dialogs, [], 'no dialog opened in any frame');
    await toolkit58.scrollIntoViewIfNeeded();
    await bothThemes('hostile passages inert', toolkit58, [
      [toolkit58.locator('.result-head'), 'the webview-toolkit#58 result'],
      [toolkit58.locator('.md').first(), "webview-toolkit#58's passage"],
    ]);
  });

  it('401: a key revoked after it was saved shows the Unauthorized message with Set API Key, which fixes it', async () => {
    // Set API Key checks a key before saving it, so the 401 comes from a key the service later revokes.
    const bad = 'devindex-e2e-revoked-key-7f3a91';
    await sandboxKeys({ add: [bad] });
    await wb.runCommand('Developer Index: Set API Key');
    await wb.answerInputBox(bad, { prompt: /secret storage/i });
    await wb.waitForNotification(/API key saved/i);
    await view.locator('#keyless').waitFor({ state: 'hidden' });
    await sandboxKeys({ revoke: [bad] });
    await resetFilters();
    await search('webview content security policy');
    const box = view.locator('#error');
    await box.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await box.innerText(), /did not accept the API key/);
    assert.match(await box.innerText(), /Unauthorized: Invalid token/);
    const html = [await wb.page.content(), ...await Promise.all(wb.page.frames().map((f) => f.content().catch(() => '')))].join('\n');
    assert.ok(!html.includes(bad), 'the key appears nowhere in the workbench or the webview');
    await bothThemes('unauthorized', box, [[box, 'the Unauthorized error box'], [box.getByRole('button', { name: 'Set API Key' }), "the error box's Set API Key"]]);

    await box.getByRole('button', { name: 'Set API Key' }).click();
    await wb.answerInputBox(e2e.testKey(), { prompt: /secret storage/i });
    await wb.waitForNotification(/API key saved/i);
    await sandboxRequests('DELETE');
    await box.getByRole('button', { name: 'Retry' }).click();
    await view.locator('li.result').first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await box.isVisible(), false);
    const sent = (await sandboxRequests()).filter((r) => r.path.startsWith('/v2/search'));
    assert.deepEqual(sent.map((r) => r.auth), ['valid'], 'the retry carried the new, valid key');
  });
});
