// Browser UI: the Search view as a user drives it in the real workbench, against the sandbox corpus,
// at the default side bar width. A search typed in the view gives a compact list whose rows expand to
// rendered tables and code; Search in This Repository and a filter show in the chip row, and removing a
// chip searches again without it; rule 6 is one neutral line whose fix brings documentation back; the
// corpus's hostile passages (webview-toolkit#58, keel-schema#918 and others) execute nothing; keyless
// search says so and follows key changes; a refused key offers Set API Key and Search Without Key.
// The list, an expanded row, the chip row and the rule 6 line are captured in the dark, light and
// high-contrast themes (test-results/e2e/search-flows-*.png).
import * as assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { FrameLocator, Locator } from 'playwright-core';
import { until } from '../support/until';
import { Workbench, e2e } from './workbench';

interface SeenRequest {
  method: string;
  path: string;
  query: string;
  body: unknown;
  auth: string;
}

async function sandboxRequests(method: 'GET' | 'DELETE' = 'GET'): Promise<SeenRequest[]> {
  const r = await fetch(`${e2e.sandboxUrl()}/__sandbox/requests`, { method });
  return method === 'GET' ? ((await r.json()) as { requests: SeenRequest[] }).requests : [];
}

async function sandboxKeys(change: { add?: string[]; revoke?: string[] }): Promise<void> {
  const r = await fetch(`${e2e.sandboxUrl()}/__sandbox/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(change),
  });
  assert.equal(r.status, 200);
}

/** A search request's parameters, GET or POST; a repeated GET parameter (repos) becomes a comma list. */
function searchParams(r: SeenRequest): Record<string, unknown> {
  if (r.method === 'POST' && r.body && typeof r.body === 'object') return r.body as Record<string, unknown>;
  const q = new URLSearchParams(r.query);
  return Object.fromEntries([...new Set(q.keys())].map((k) => [k, q.getAll(k).join(',')]));
}

const searchesSent = async () => (await sandboxRequests()).filter((r) => r.path.startsWith('/v2/search'));

describe('Search view flows in the workbench', () => {
  let wb: Workbench;
  let view: FrameLocator;
  const dialogs: string[] = [];

  before(async () => {
    wb = await Workbench.open('search-flows');
    // Any alert/confirm/prompt from any frame (the webview's included) lands here and is dismissed.
    wb.page.on('dialog', (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      void d.dismiss();
    });
    await wb.activityItem('Developer Index').waitFor({ state: 'visible', timeout: 60_000 });
    await wb.useTheme('dark');
    await wb.openContainer('Developer Index');
    view = wb.webview();
    await view.getByRole('searchbox').waitFor({ state: 'visible' });
    // The default side bar width (no widening); Agent Jobs collapsed, as it starts while there are no jobs.
    await wb.giveViewTheSideBar('Search', ['Agent Jobs'], 0);
    await resetFilters();
  });
  afterEach(async (t) => {
    await wb.screenshot(`${t.name} end`);
  });
  after(async () => {
    // Leave the workbench as the other browser tests expect it: no key, the dark theme.
    await wb?.runCommand('Developer Index: Clear API Key').catch(() => undefined);
    await wb?.useTheme('dark').catch(() => undefined);
    await wb?.close();
  });

  /** Scrolls `top` to the top of the webview, then checks that each element that shows the state is on screen. */
  async function showState(top: Locator, shown: Array<[Locator, string]>): Promise<void> {
    await wb.scrollToTop(top);
    for (const [el, what] of shown) await wb.assertInViewport(el, what);
  }

  /** The current state in the dark, light and high-contrast themes (the webview follows live), then dark again. */
  async function allThemes(
    label: string,
    top: Locator,
    shown: Array<[Locator, string]>,
    prepare?: () => Promise<void>,
  ): Promise<void> {
    for (const [theme, cls] of [
      ['dark', 'vscode-dark'],
      ['light', 'vscode-light'],
      ['hc', 'vscode-high-contrast'],
    ] as const) {
      await wb.useTheme(theme);
      await view.locator(`body.${cls}`).waitFor({ state: 'attached' });
      await showState(top, shown);
      if (prepare) await prepare();
      await wb.screenshot(`${label} ${theme === 'hc' ? 'high contrast' : theme}`);
    }
    await wb.useTheme('dark');
    await view.locator('body.vscode-dark').waitFor({ state: 'attached' });
  }

  async function resetFilters(): Promise<void> {
    const clear = view.locator('#clear-filters');
    if (await clear.isVisible()) await clear.click();
    if ((await view.locator('#filters-toggle').getAttribute('aria-expanded')) === 'true')
      await view.locator('#filters-toggle').click();
  }

  async function openFilters(): Promise<void> {
    if ((await view.locator('#filters-toggle').getAttribute('aria-expanded')) !== 'true')
      await view.locator('#filters-toggle').click();
  }

  async function search(query: string): Promise<void> {
    const box = view.getByRole('searchbox');
    await box.fill(query);
    await box.press('Enter');
    await box.blur();
  }

  const rowFor = (urlEnd: string) => view.locator('li.row', { has: view.locator(`.provenance[title$="${urlEnd}"]`) });

  it('keyless search says it is keyless in one line, offers Set API Key, and follows key changes', async () => {
    const bar = view.locator('#keyless');
    await bar.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await bar.innerText(), /Keyless: lower rate limits/);
    await bar.getByRole('button', { name: 'Set API Key' }).click();
    await wb.answerInputBox(e2e.testKey(), { prompt: /secret storage/i });
    await wb.waitForNotification(/API key saved/i);
    await bar.waitFor({ state: 'hidden', timeout: 10_000 });
    await wb.runCommand('Developer Index: Clear API Key');
    await wb.waitForNotification(/API key removed/i);
    await bar.waitFor({ state: 'visible', timeout: 10_000 });
  });

  it('a search typed in the view lists compact rows with provenance; a row expands to a rendered table and code block', async () => {
    await resetFilters();
    await openFilters();
    await view.locator('#f-passages').fill('5');
    await view.locator('#filters-toggle').click();
    await sandboxRequests('DELETE');
    await search('connection pool keep-alive timeout');
    const pooling = rowFor('/guides/connection-pooling.html');
    await pooling.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await pooling.locator('.type-icon.codicon-book').count(), 1, 'a doc result wears the book codicon');
    const issue = view.locator('li.row', { has: view.locator('.type-icon.codicon-issues') }).first();
    assert.match(
      await issue.locator('.provenance').innerText(),
      /^[\w.-]+\/[\w.-]+ #\d+$/,
      'an issue says owner/repo #number',
    );
    assert.equal(await view.locator('li.row .md').count(), 0, 'rows start collapsed');
    const glyph = await pooling.locator('.type-icon').evaluate((e) => ({
      family: getComputedStyle(e).fontFamily,
      content: getComputedStyle(e, '::before').content,
      loaded: [...document.fonts].some((f) => f.family.replace(/["']/g, '') === 'codicon' && f.status === 'loaded'),
    }));
    assert.ok(
      glyph.loaded && /codicon/.test(glyph.family) && glyph.content !== 'none',
      `the codicon font loaded in the webview: ${JSON.stringify(glyph)}`,
    );
    const sent = await searchesSent();
    assert.equal(sent.length, 1);
    assert.equal(String(searchParams(sent[0]!).passages), '5');
    const summary = view.locator('#results-region p.summary');
    const rows = view.locator('li.row');
    await allThemes('compact list', summary, [
      [summary, 'the summary'],
      [rows.nth(0), 'the first row'],
      [rows.nth(4), 'the fifth row'],
    ]);

    await pooling.locator('.row-title').click();
    await pooling.locator('.md table th').first().waitFor({ state: 'visible' });
    assert.ok((await pooling.locator('.md pre code').count()) > 0, 'the expanded row renders a fenced code block');
    await allThemes(
      'expanded row',
      pooling,
      [
        [pooling.locator('.row-main'), "the expanded row's title"],
        [pooling.locator('.md table th').first(), 'its table (the first header cell)'],
      ],
      async () => {
        await pooling.hover();
      },
    );
    await pooling.locator('.row-title').click();
  });

  it('Search in This Repository and a filter show as chips; removing a chip searches again without it', async () => {
    await resetFilters();
    await wb.runCommand('Developer Index: Search in This Repository…');
    await wb.answerInputBox('retry on 429 with Retry-After', { prompt: /question or search phrase/i });
    const chips = view.locator('#chips');
    await chips.locator('.chip', { hasText: 'fetchline/fetchline' }).waitFor({ state: 'visible', timeout: 30_000 });
    // The chip shows when the search begins, beside the rows of the search before: this search's own summary is the
    // sign that its results are listed.
    await view
      .locator('.summary', {
        hasText: /results? for “retry on 429 with Retry-After” in fetchline\/fetchline, quarry-dev\/fetchline/,
      })
      .waitFor({ state: 'visible', timeout: 30_000 });
    await view.locator('li.row').first().waitFor({ state: 'visible' });
    await openFilters();
    await view.locator('#f-minStars').fill('1');
    await view.locator('#filters-toggle').click();
    await chips.locator('.chip', { hasText: 'Stars ≥ 1' }).waitFor({ state: 'visible' });
    assert.deepEqual(await chips.locator('.chip-label').allInnerTexts(), [
      'fetchline/fetchline',
      'quarry-dev/fetchline',
      'Stars ≥ 1',
    ]);
    // The palette's one-off search keeps that scope, and says so before it runs.
    await sandboxRequests('DELETE');
    await wb.runCommand('Developer Index: Search…');
    await wb.answerInputBox('backoff jitter', { prompt: /question or search phrase/i });
    await view.locator('.summary', { hasText: 'backoff jitter' }).waitFor({ state: 'visible', timeout: 30_000 });
    const sent = searchParams((await searchesSent())[0]!);
    assert.deepEqual(
      [sent.repos, sent.min_stars].map(String),
      ['fetchline/fetchline,quarry-dev/fetchline', '1'],
      `the palette search used the chips: ${JSON.stringify(sent)}`,
    );
    await allThemes(
      'chip row',
      chips,
      [
        [chips, 'the chip row'],
        [view.locator('.summary'), 'the summary naming the scope'],
      ],
      async () => {
        await chips.locator('.chip-remove').first().hover();
      },
    );
    await sandboxRequests('DELETE');
    await chips.getByRole('button', { name: 'Remove filter Stars ≥ 1' }).click();
    await view.locator('.chip', { hasText: 'Stars ≥ 1' }).waitFor({ state: 'detached' });
    for (let i = 0; i < 50 && (await searchesSent()).length === 0; i++) await wb.page.waitForTimeout(100);
    const again = searchParams((await searchesSent())[0]!);
    assert.equal(again.min_stars, undefined, 'the search ran again without the removed filter');
    assert.equal(String(again.repos), 'fetchline/fetchline,quarry-dev/fetchline', 'and with the others');
    await resetFilters();
    assert.equal(await chips.isVisible(), false, 'Clear filters empties the chip row');
  });

  it('rule 6 is one neutral line with its fixes, and Include documentation brings documentation back', async () => {
    await resetFilters();
    await openFilters();
    await view.locator('#f-language').fill('Rust');
    await view.locator('#filters-toggle').click();
    await sandboxRequests('DELETE');
    await search('rate limit');
    const line = view.locator('.coverage-line.rule6');
    await line.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await line.innerText(), /Documentation left out because of the repository filters \(language\)\./);
    assert.equal(
      await view.locator('li.row .type-icon.type-doc').count(),
      0,
      'no documentation results while the filter is set',
    );
    await allThemes('rule 6 line', view.locator('#chips'), [
      [line, 'the rule 6 line'],
      [line.getByRole('button', { name: 'Include documentation' }), 'its fix'],
    ]);
    await sandboxRequests('DELETE');
    await line.getByRole('button', { name: 'Include documentation' }).click();
    await view.locator('li.row .type-icon.type-doc').first().waitFor({ state: 'attached', timeout: 15_000 });
    assert.equal(await view.locator('.coverage-line.rule6').count(), 0, 'the line is gone');
    const sent = await searchesSent();
    assert.equal(sent.length, 1);
    assert.equal(searchParams(sent[0]!).language, undefined, 'the fixed search was sent without the language filter');
  });

  it('hostile passages from the corpus execute no script', async () => {
    await resetFilters();
    const frame = await wb.webviewFrame();
    await frame.evaluate(() => {
      const w = window as unknown as { __fired: string[]; __violations: string[] };
      w.__fired = [];
      w.__violations = [];
      for (const name of ['alert', 'confirm', 'prompt', 'print', 'open'] as const) {
        (window as unknown as Record<string, unknown>)[name] = (...a: unknown[]) => {
          w.__fired.push(`${name}(${a.map(String).join(',')})`);
          return null;
        };
      }
      document.addEventListener('securitypolicyviolation', (e) =>
        w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    await frame.evaluate(() => window.alert('control'));
    assert.deepEqual(await frame.evaluate(() => (window as unknown as { __fired: string[] }).__fired.splice(0)), [
      'alert(control)',
    ]);

    await search('XSS script alert');
    const toolkit58 = rowFor('/orbit-editor/webview-toolkit/issues/58');
    const keel918 = rowFor('/keelhq/keel-schema/issues/918');
    await toolkit58.waitFor({ state: 'visible', timeout: 30_000 });
    await keel918.waitFor({ state: 'attached' });
    await wb.runCommand('Developer Index: Expand All Results');
    await keel918.locator('.md').first().waitFor({ state: 'attached' });
    await keel918.scrollIntoViewIfNeeded();
    assert.match(
      (await keel918.textContent()) ?? '',
      /<script>alert\(1\)<\/script>/,
      'the script tag is shown as text',
    );
    const dom = await frame.evaluate(() => {
      const region = document.getElementById('results-region')!;
      const all = [...region.querySelectorAll('*')];
      return {
        scripts: region.querySelectorAll('script, iframe, object, embed, svg, img, style').length,
        handlers: all.flatMap((el) =>
          [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName}[${a.name}]`),
        ),
        badLinks: [...region.querySelectorAll('a[href]')]
          .map((a) => a.getAttribute('href')!)
          .filter((h) => !/^(https?:|mailto:)/i.test(h)),
      };
    });
    assert.deepEqual(dom, { scripts: 0, handlers: [], badLinks: [] });
    const blocked = toolkit58.locator('.md-link-blocked');
    for (let i = 0; i < Math.min(await blocked.count(), 5); i++) await blocked.nth(i).click();
    await wb.page.waitForTimeout(500);
    assert.deepEqual(
      await frame.evaluate(() => (window as unknown as { __fired: string[] }).__fired),
      [],
      'no payload called alert/confirm/prompt/print/open',
    );
    assert.deepEqual(
      await frame.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
      [],
      'nothing even tried to run or load (no CSP violation)',
    );
    assert.deepEqual(dialogs, [], 'no dialog opened in any frame');
    await showState(toolkit58, [
      [toolkit58.locator('.row-main'), 'the webview-toolkit#58 row'],
      [toolkit58.locator('.md').first(), "webview-toolkit#58's passage"],
    ]);
    await wb.screenshot('hostile passages inert');
    await wb.runCommand('Developer Index: Collapse All Results');
  });

  it('401: a key revoked after it was saved dims the old results and offers Set API Key and Search Without Key', async () => {
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
    assert.equal(
      await view.locator('.stale-banner').isVisible(),
      true,
      "the previous results are marked as not this search's",
    );
    const html = [
      await wb.page.content(),
      ...(await Promise.all(wb.page.frames().map((f) => f.content().catch(() => '')))),
    ].join('\n');
    assert.ok(!html.includes(bad), 'the key appears nowhere in the workbench or the webview');
    await showState(box, [
      [box, 'the Unauthorized error box'],
      [box.getByRole('button', { name: 'Search Without Key' }), 'Search Without Key'],
    ]);
    await wb.screenshot('unauthorized');

    await sandboxRequests('DELETE');
    await box.getByRole('button', { name: 'Search Without Key' }).click();
    await view
      .locator('.summary', { hasText: 'webview content security policy' })
      .waitFor({ state: 'visible', timeout: 30_000 });
    assert.deepEqual(
      (await searchesSent()).map((r) => r.auth),
      ['none'],
      'sent without the key',
    );
    assert.equal(await view.locator('.stale-banner').isVisible(), false);

    await search('webview content security policy');
    await box.waitFor({ state: 'visible', timeout: 30_000 });
    await box.getByRole('button', { name: 'Set API Key' }).click();
    await wb.answerInputBox(e2e.testKey(), { prompt: /secret storage/i });
    await wb.waitForNotification(/API key saved/i);
    await sandboxRequests('DELETE');
    await wb.runCommand('Developer Index: Refresh Search');
    await box.waitFor({ state: 'hidden', timeout: 30_000 });
    // The box goes as the refreshed search starts, before its request reaches the sandbox: wait for the request.
    const sent = await until(
      async () => (await searchesSent()).map((r) => r.auth),
      (a) => a.length > 0,
      {
        timeoutMs: 30_000,
        message: (a) => `the refreshed search reached the sandbox (requests: ${JSON.stringify(a)})`,
      },
    );
    assert.deepEqual(sent, ['valid'], 'the refreshed search carried the new, valid key');
  });
});
