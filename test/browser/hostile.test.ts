// A page of hostile passages in the real bundle under the real CSP: no payload may run, none may even
// try (a CSP violation would mean the renderer let markup through and only the CSP stopped it), and
// clicking every link only posts openLink messages with http, https or mailto urls.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { OutcomeResult } from '../../src/search/session/outcome';
import { HOSTILE } from '../unit/webview/fixtures/hostile';
import { DEFAULTS, outcome, screenshotDir, typeAndSearch } from './harness';
import { viewPages } from '../support/browserPages';

const pages = viewPages();

describe('hostile passages in chromium', () => {
  it('control: the page detects markup that gets past the renderer (so the test below can fail)', async () => {
    const v = await pages.open('dark');
    await v.page.evaluate(() =>
      document.body.insertAdjacentHTML('beforeend', '<img src="data:," onerror="window.__pwned=1">'),
    );
    await v.page.waitForFunction(() => (window as unknown as { __violations: string[] }).__violations.length > 0);
    assert.ok((await v.violations()).length > 0, 'the CSP reports the blocked handler');
    assert.equal(
      await v.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned),
      undefined,
      'and the CSP alone still stops it',
    );
    await v.page.close();
  });

  it('execute nothing, load nothing, and links only become openLink messages', async () => {
    const v = await pages.open('dark');
    await v.send({ type: 'init', defaults: DEFAULTS, workspaceRepos: [] });
    // Five passages per result, with hostile titles and urls too.
    const results: OutcomeResult[] = [];
    for (let i = 0; i < HOSTILE.length; i += 5) {
      const slice = HOSTILE.slice(i, i + 5);
      results.push({
        id: `doc:evil/${i}`,
        type: i % 2 ? 'issue' : 'doc',
        url: i === 0 ? 'javascript:window.__pwned=1' : `https://evil.example/page-${i}.html`,
        title: `<img src=x onerror="window.__pwned=1"> ${slice[0]!.name}`,
        provenance: 'evil.example',
        passages: slice.map((h) => ({
          text: h.text,
          ...(i % 10 === 5 ? { link: 'javascript:window.__pwned=1' } : {}),
        })),
      });
    }
    const s = await typeAndSearch(v, 'hostile');
    await v.send({ type: 'results', requestId: s.requestId, outcome: outcome({ params: s.params, results }) });
    await v.page.waitForSelector('li.row');
    // Every row expanded (the view title's Expand All), scrolled through so content-visibility renders it,
    // then anything queued gets a chance to run.
    await v.send({ type: 'command', command: 'expandAll' });
    for (const li of await v.page.locator('li.row').all()) await li.scrollIntoViewIfNeeded();
    assert.equal(await v.page.locator('li.row .md').count(), HOSTILE.length, 'every passage is rendered');
    await v.page.mouse.move(100, 300);
    // What could still run: an image's load or error handler (every image has settled once it is complete), and
    // anything queued for the next frames (two animation frames have passed).
    await v.page.waitForFunction(() => [...document.images].every((i) => i.complete));
    await v.page.evaluate(
      () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
    );

    assert.equal(
      await v.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned),
      undefined,
      'no payload ran',
    );
    assert.deepEqual(v.dialogs, [], 'no dialog opened');
    assert.deepEqual(await v.violations(), [], 'nothing even tried to load or run (no CSP violation)');
    assert.deepEqual(
      pages.requests().filter((p) => !p.startsWith('/assets/') && !p.startsWith('/theme/') && p !== '/'),
      [],
      'no request left the page',
    );

    const dom = await v.page.evaluate(() => {
      const md = [...document.querySelectorAll('.md *')];
      return {
        tags: [...new Set(md.map((e) => e.tagName.toLowerCase()))].sort(),
        attrs: [...new Set(md.flatMap((e) => [...e.attributes].map((a) => a.name)))].sort(),
        // The renderer's own tab stop on code blocks and tables (they scroll sideways), never anywhere else.
        tabStops: [
          ...new Set(
            md
              .filter((e) => e.hasAttribute('tabindex'))
              .map((e) => `${e.tagName.toLowerCase()}=${e.getAttribute('tabindex')}`),
          ),
        ].sort(),
        scripts: document.querySelectorAll('script').length,
        hrefs: [...document.querySelectorAll('#results-region a[href]')].map((a) => a.getAttribute('href')!),
        clobbered:
          typeof (document as unknown as Record<string, unknown>).getElementById !== 'function' ||
          typeof (window as unknown as Record<string, unknown>).acquireVsCodeApi !== 'function',
      };
    });
    for (const tag of [
      'script',
      'img',
      'svg',
      'iframe',
      'object',
      'embed',
      'style',
      'link',
      'meta',
      'base',
      'form',
      'input',
      'body',
    ]) {
      assert.ok(!dom.tags.includes(tag), `no <${tag}> from content (got ${dom.tags.join(',')})`);
    }
    assert.deepEqual(
      dom.attrs.filter((a) => !['href', 'title', 'class', 'start', 'tabindex'].includes(a)),
      [],
      'only href, title, class, start and tabindex attributes',
    );
    assert.ok(
      dom.tabStops.every((t) => t === 'pre=0' || t === 'table=0'),
      `tabindex="0" on <pre> and <table> only: ${dom.tabStops.join(', ')}`,
    );
    assert.equal(dom.scripts, 1, 'the bundle is the only script');
    assert.equal(dom.clobbered, false);
    for (const href of dom.hrefs) assert.match(href, /^(https?:\/\/|mailto:)/i, `href ${href}`);

    await v.page.screenshot({ path: join(screenshotDir(), 'hostile-dark.png'), fullPage: true });

    const beforeClicks = (await v.posted()).length;
    const links = await v.page.locator('#results-region a').all();
    assert.ok(links.length > 0);
    for (const a of links) await a.click();
    const sent = (await v.posted()).slice(beforeClicks);
    assert.equal(sent.length, links.length, 'one message per click');
    for (const m of sent) {
      assert.equal(m.type, 'openLink');
      assert.match(m.type === 'openLink' ? m.url : '', /^(https?:\/\/|mailto:)/i);
    }
    assert.equal(v.page.url(), `${pages.origin()}/`, 'the page never navigated');
    assert.equal(await v.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
    // The hostile result url is not offered as a link at all.
    await v.page.locator('li.row').first().locator('.row-title').hover();
    assert.equal(await v.page.locator('li.row').first().locator('[data-act="open"]').isDisabled(), true);
    await v.page.close();
  });
});
