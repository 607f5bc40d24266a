// Issue 24, section 4: the Search view with a keyboard and a screen reader. axe-core (the npm package,
// pinned) runs inside the real view in chromium, in the light, dark and high contrast test themes, over
// each state the issue names; a keyboard-only walk; the live region's words; the focus outline.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  DEFAULTS, launchBrowser, openView, outcome, screenshotDir, startPageServer, typeAndSearch,
  type BrowserHandle, type PageServer, type Theme, type ViewPage,
} from './harness';
import { SAMPLE_RESULTS } from './samples';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const AXE_SOURCE: string = (require('axe-core') as { source: string }).source;

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

const THEMES: Theme[] = ['light', 'dark', 'hc'];

interface Finding { id: string; impact: string; help: string; nodes: string[] }

/**
 * axe-core over the whole document, every rule on. Its source is evaluated through the DevTools
 * protocol, which the page's CSP does not govern (a <script> tag would be refused, as it should be);
 * nothing of axe is in the view's bundle. Only serious and critical findings are returned.
 *
 * One finding is set aside, for one kind of element only: `label-content-name-mismatch` (WCAG 2.5.3,
 * Label in Name) on a result row (`li.row`, a treeitem). axe takes all of an element's visible text as
 * its label; a row's visible text is its label (title, provenance, license) followed by its content
 * (the snippet, and once expanded up to five rendered passages). The row's name is its label on
 * purpose: a screen reader says "Issue: <title>, <provenance>", not the passages. What 2.5.3 asks,
 * that the name contains the visible label, is asserted by `rowNamesHoldTheirLabel` below instead.
 */
async function axe(v: ViewPage): Promise<Finding[]> {
  const loaded = await v.page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!loaded) await v.page.evaluate(AXE_SOURCE);
  const found = await v.page.evaluate(async () => {
    type Node = { target: unknown[]; failureSummary?: string; element?: Element };
    const a = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: Array<{ id: string; impact?: string; help: string; nodes: Node[] }> }> } }).axe;
    const r = await a.run(document, { resultTypes: ['violations'], elementRef: true });
    const setAside = (id: string, n: Node) => id === 'label-content-name-mismatch' && !!n.element?.matches('li.row[role="treeitem"]');
    return r.violations
      .map((x) => ({ ...x, nodes: x.nodes.filter((n) => !setAside(x.id, n)) }))
      .filter((x) => x.nodes.length > 0)
      .map((x) => ({ id: x.id, impact: x.impact ?? '', help: x.help, nodes: x.nodes.slice(0, 5).map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`.replace(/\s+/g, ' ')) }));
  });
  return found.filter((f) => f.impact === 'serious' || f.impact === 'critical');
}

/** WCAG 2.5.3 for the rows: each row's accessible name holds its visible title and provenance, in that order. */
async function rowNamesHoldTheirLabel(v: ViewPage): Promise<void> {
  const rows = await v.page.locator('li.row').evaluateAll((els) => els.map((li) => ({
    name: li.getAttribute('aria-label') ?? '', title: li.querySelector('.row-title')!.textContent ?? '', provenance: li.querySelector('.provenance')!.textContent ?? '',
  })));
  assert.ok(rows.length > 0);
  for (const r of rows) {
    const at = r.name.indexOf(r.title);
    assert.ok(at >= 0 && r.name.indexOf(r.provenance, at + r.title.length) > at, `the row's name "${r.name}" holds "${r.title}" then "${r.provenance}"`);
  }
}

function report(fs: Finding[]): string {
  return fs.map((f) => `${f.impact} ${f.id}: ${f.help}\n    ${f.nodes.join('\n    ')}`).join('\n');
}

async function freshView(theme: Theme): Promise<ViewPage> {
  const v = await openView(browser.context, server.origin, theme);
  await v.send({ type: 'init', defaults: DEFAULTS, workspaceRepos: ['fetchline/fetchline'] });
  return v;
}

describe('accessibility of the search view (axe-core, issue 24)', () => {
  for (const theme of THEMES) {
    it(`has no serious or critical axe violation in ${theme}: form, chips, keyless line, collapsed and expanded results, an error`, async () => {
      const v = await freshView(theme);
      const seen: string[] = [];
      const problems: string[] = [];
      // Every state is checked before the test fails, so one run names everything that is wrong.
      const check = async (state: string) => {
        const fs = await axe(v);
        seen.push(state);
        if (fs.length) problems.push(`${theme}, ${state}:\n${report(fs)}`);
      };
      // The form with its filters open, and the keyless line.
      await v.send({ type: 'keyState', hasKey: false });
      await v.page.click('#filters-toggle');
      await v.page.fill('#f-language', 'Go');
      await check('the form with filters open and the keyless line');
      await v.page.click('#filters-toggle');
      // The chip row and a list of collapsed results.
      const s = await typeAndSearch(v, 'http server keep-alive');
      await v.send({ type: 'searchStarted', requestId: s.requestId, params: s.params });
      await v.send({ type: 'results', requestId: s.requestId, outcome: outcome({ params: s.params, results: SAMPLE_RESULTS }) });
      await v.page.waitForSelector('li.row');
      assert.equal(await v.page.locator('#chips .chip').count(), 1);
      await v.page.locator('li.row').nth(1).hover();
      await check('the chip row and collapsed results');
      await rowNamesHoldTheirLabel(v);
      // An expanded result (markdown: table, code, links) with its actions shown.
      await v.page.focus('#q');
      await v.page.keyboard.press('ArrowDown');
      await v.page.keyboard.press('Enter');
      assert.equal(await v.page.locator('li.row').first().getAttribute('aria-expanded'), 'true');
      await v.page.locator('li.row').first().locator('.passage').first().hover();
      await check('an expanded result');
      await v.page.screenshot({ path: join(shots, `a11y-expanded-${theme}.png`) });
      // An error over the (now stale) results, and one on its own.
      const e = await typeAndSearch(v, 'secret');
      await v.send({ type: 'searchStarted', requestId: e.requestId, params: e.params });
      await v.send({ type: 'searchError', requestId: e.requestId, error: { message: 'Unauthorized: Invalid token (HTTP 401)', action: 'setKey', status: 401 } });
      await v.page.waitForSelector('#error:not([hidden])');
      await check('a 401 error over stale results');
      await v.page.screenshot({ path: join(shots, `a11y-error-${theme}.png`) });
      await v.send({ type: 'command', command: 'clear' });
      const n = await typeAndSearch(v, 'down');
      await v.send({ type: 'searchStarted', requestId: n.requestId, params: n.params });
      await v.send({ type: 'searchError', requestId: n.requestId, error: { message: 'Could not reach the service: connect ECONNREFUSED 127.0.0.1:9', action: 'retry', diagnose: true } });
      await v.page.waitForSelector('#error:not([hidden])');
      await check('a network error');
      assert.equal(seen.length, 5);
      assert.deepEqual(problems, [], problems.join('\n'));
      await v.page.close();
    });
  }
});
