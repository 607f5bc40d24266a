// Browser UI: Watch for a Fix in the workbench, as a user sees it. The dependency fixture is
// open; a search in fetchline's repository with its version badges and summary line, Watch for a Fix above
// its results, a new issue in the index, Check Now and its notification, and the Watched list at the default
// side bar width (300 px) in dark, light and high contrast (test-results/e2e/watches-*.png). The watch is removed at the end (the
// workbench's global storage is shared with the other e2e files).
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Workbench, e2e } from './workbench';

const QUERY = 'Retry-After ignored with a per-request timeout';

describe('Watch for a Fix in the workbench', () => {
  let wb: Workbench;

  before(async () => {
    const url = process.env.DEVINDEX_E2E_DEPS_WORKBENCH_URL;
    assert.ok(url, 'DEVINDEX_E2E_DEPS_WORKBENCH_URL is not set: run with npm run test:e2e');
    wb = await Workbench.open('watches', { url });
    await wb.activityItem('Developer Index').waitFor({ state: 'visible', timeout: 60_000 });
    await wb.useTheme('dark');
  });
  after(async () => {
    await wb?.useTheme('dark').catch(() => undefined);
    await wb?.close();
  });

  it('the badges and the summary line of a dependency search, on screen in the real Search view at the default side bar width, in dark, light and high contrast', async () => {
    await wb.openContainer('Developer Index');
    // A fresh profile's side bar is 300 px wide; the view is not widened for this test.
    const width = await wb.sideBarWidth();
    assert.ok(Math.abs(width - 300) <= 10, `the default side bar width is about 300 px, not ${width}`);
    await wb.setViewExpanded('Agent Jobs', false).catch(() => undefined);
    await wb.searchInDependency('fetchline/fetchline', 'fetchline', QUERY);
    const view = wb.webview();
    const summary = view.locator('.version-summary');
    await summary.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(
      (await summary.innerText()).trim(),
      /^\d results? mentions? a fix newer than your fetchline 3\.2\.0 \(3\.3\.0\)\.$/,
    );
    const row = view.locator('li.row', {
      hasText: 'Retry-After ignored after a 429 when a per-request timeout is set',
    });
    const badge = row.locator('.version-badge.highlight');
    await badge.first().waitFor({ state: 'visible' });
    assert.equal((await badge.first().innerText()).trim(), 'Fixed in 3.3.0 · you have 3.2.0');
    assert.match((await badge.first().getAttribute('title')) ?? '', /fixed in 3\.3\.0/);
    const release = view.locator('li.row', { hasText: 'chore(release): v3.3.0' }).locator('.version-badge');
    await release.first().waitFor({ state: 'visible' });
    assert.equal((await release.first().innerText()).trim(), 'Released 3.3.0 · newer than your 3.2.0');
    assert.equal(await wb.sideBarWidth(), width, 'still the default width');
    for (const [theme, label] of [
      ['dark', 'dark'],
      ['light', 'light'],
      ['hc', 'high contrast'],
    ] as const) {
      await wb.useTheme(theme);
      // The view scrolled to its top, as a search leaves it: the form, the chip, the status line, then the summary.
      await summary.evaluate(
        (el) =>
          new Promise((r) => {
            (el.ownerDocument.scrollingElement ?? el.ownerDocument.documentElement).scrollTo(0, 0);
            requestAnimationFrame(() => requestAnimationFrame(r));
          }),
      );
      await wb.assertInViewport(summary, `the summary line (${theme})`);
      await wb.assertInViewport(badge.first(), `#472's badge (${theme})`);
      await wb.assertInViewport(release.first(), `the release pull request's badge (${theme})`);
      // Not clipped: each badge and the summary lie inside the view, their text inside their box (they wrap, never cut),
      // and their text stands out from what is behind it (WCAG AA, 4.5:1).
      for (const [what, el] of [
        ['summary', summary],
        ['fix badge', badge.first()],
        ['release badge', release.first()],
      ] as const) {
        const m = await el.evaluate((node) => {
          const e = node as HTMLElement;
          const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
          const lum = (c: number[]) => {
            const [r, g, b] = c.slice(0, 3).map((v) => {
              const s = v / 255;
              return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
            });
            return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
          };
          let bg: number[] = [];
          for (let p: HTMLElement | null = e; p; p = p.parentElement) {
            const c = rgb(getComputedStyle(p).backgroundColor);
            if (c.length >= 3 && (c.length < 4 || c[3]! > 0.9)) {
              bg = c;
              break;
            }
          }
          if (!bg.length) bg = rgb(getComputedStyle(document.body).backgroundColor);
          const fg = rgb(getComputedStyle(e).color);
          const [l1, l2] = [lum(fg), lum(bg)].sort((x, y) => y - x);
          const box = e.getBoundingClientRect();
          return {
            contrast: (l1! + 0.05) / (l2! + 0.05),
            right: box.right,
            viewWidth: document.documentElement.clientWidth,
            scrollWidth: e.scrollWidth,
            clientWidth: e.clientWidth,
            pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          };
        });
        assert.ok(
          m.right <= m.viewWidth + 0.5,
          `${what} (${theme}) ends at ${m.right} px, past the view's ${m.viewWidth} px`,
        );
        assert.ok(
          m.scrollWidth <= m.clientWidth + 1,
          `${what} (${theme}) text is ${m.scrollWidth} px in a ${m.clientWidth} px box`,
        );
        assert.ok(m.pageOverflow <= 0, `the view scrolls sideways by ${m.pageOverflow} px (${theme})`);
        assert.ok(m.contrast >= 4.5, `${what} (${theme}) contrast ${m.contrast.toFixed(2)}:1`);
      }
      await wb.screenshot(`badges and summary line ${label}`);
      await wb.screenshot(`badges and summary line ${label} side bar`, wb.page.locator('.part.sidebar'));
    }
    await wb.useTheme('dark');
  });

  it('watches a dependency search, notifies a new issue, and lists the watch at 300 px in three themes', async () => {
    await wb.openContainer('Developer Index');
    await wb.setSideBarWidth(300);
    await wb.setViewExpanded('Agent Jobs', false).catch(() => undefined);
    await wb.searchInDependency('fetchline/fetchline', 'fetchline', QUERY);
    const view = wb.webview();
    const watchButton = view.getByRole('button', {
      name: /^Watch for a Fix: re-run “Retry-After ignored with a per-request timeout” in fetchline\/fetchline · 3\.2\.0 installed/,
    });
    await watchButton.waitFor({ state: 'visible', timeout: 30_000 });
    await wb.screenshot('watch for a fix above the results dark');
    await watchButton.click();
    const item = view.locator('.watch-item').filter({ hasText: QUERY });
    // As in the two-window suite: adding reads the folder's installed versions first, and a clean-clone CI run once
    // saw the watch show more than 15 s after the click (the extension's log now says how long each add took).
    await item.waitFor({ state: 'visible', timeout: 60_000 });
    assert.match(await item.innerText(), /fetchline\/fetchline · 3\.2\.0 installed[\s\S]*never checked · 0 new/);
    // The index gains an issue; Check Now finds it and says so.
    const r = await fetch(`${e2e.sandboxUrl()}/__sandbox/corpus`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        add: [
          {
            repo: 'fetchline/fetchline',
            type: 'issue',
            number: 482,
            markdown:
              '# Retry-After ignored with a per-request timeout on 3.2.x\n\nThe Retry-After header is still ignored with a per-request timeout on 3.2.0. Fixed in 3.3.0.\n',
          },
        ],
      }),
    });
    assert.equal(r.status, 200);
    await item.getByRole('button', { name: /^Check Now/ }).click();
    const note = await wb.waitForNotification(/found a new issue/, 30_000);
    assert.match(
      note,
      /Retry-After ignored with a per-request timeout on 3\.2\.x · fixed in 3\.3\.0 · newer than your 3\.2\.0/,
    );
    await view.locator('.watch-item .watch-new').filter({ hasText: '1' }).first().waitFor({ state: 'visible' });
    assert.match(await item.locator('.watch-meta').innerText(), /^checked just now · 1 new$/);
    const list = view.locator('.watched');
    await wb.scrollToTop(list);
    await wb.screenshot('watched list and notification dark');
    await wb.page.keyboard.press('Escape');
    await wb.useTheme('light');
    await wb.scrollToTop(view.locator('.watched'));
    await wb.screenshot('watched list light');
    await wb.useTheme('hc');
    await wb.scrollToTop(view.locator('.watched'));
    await wb.screenshot('watched list high contrast');
    await wb.useTheme('dark');
    // Open Search from the notification's list item is the host tier's; here Remove empties the list.
    await view
      .locator('.watch-item')
      .filter({ hasText: QUERY })
      .getByRole('button', { name: /^Remove the watch/ })
      .click();
    await view.locator('.watched').waitFor({ state: 'hidden', timeout: 10_000 });
    await wb.screenshot('watch removed');
  });
});
