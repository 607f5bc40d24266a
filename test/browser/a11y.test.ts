// The Search view with a keyboard and a screen reader. axe-core (the npm package,
// pinned) runs inside the real view in chromium, in the light, dark and high contrast test themes, over
// each state the issue names; a keyboard-only walk; the live region's words; the focus outline.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULTS, outcome, screenshotDir, typeAndSearch, type Theme, type ViewPage } from './harness';
import { SAMPLE_RESULTS } from './samples';
import { viewPages } from '../support/browserPages';

const pages = viewPages();
const AXE_SOURCE: string = (require('axe-core') as { source: string }).source;

const shots = screenshotDir();

const THEMES: Theme[] = ['light', 'dark', 'hc'];

interface Finding {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/**
 * axe-core over the whole document, every rule on. Its source is evaluated through the DevTools
 * protocol, which the page's CSP does not govern (a <script> tag would be refused, as it should be);
 * nothing of axe is in the view's bundle. Only serious and critical findings are returned.
 *
 * One finding is set aside, for one kind of element in one state only: `label-content-name-mismatch`
 * (WCAG 2.5.3, Label in Name) on an EXPANDED result row (`li.row[aria-expanded="true"]`, a treeitem).
 * axe takes all of an element's visible text as its label, and an expanded row's visible text is its
 * label followed by up to five rendered passages (tables, code). No name can hold those, and none should:
 * each passage is a named group and a tab stop of its own. What 2.5.3 asks, that the name holds the
 * row's visible label (title, provenance, license) with nothing between its words, is asserted for
 * expanded rows by `expandedRowsHoldTheirLabel` instead. Collapsed rows pass axe itself (their name is
 * what they show, in order: `rowName`), as does every other element.
 */
async function axe(v: ViewPage): Promise<Finding[]> {
  const loaded = await v.page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!loaded) await v.page.evaluate(AXE_SOURCE);
  const found = await v.page.evaluate(async () => {
    type Node = { target: unknown[]; failureSummary?: string; element?: Element };
    const a = (
      window as unknown as {
        axe: {
          run(
            ctx: unknown,
            opts: unknown,
          ): Promise<{ violations: Array<{ id: string; impact?: string; help: string; nodes: Node[] }> }>;
        };
      }
    ).axe;
    const r = await a.run(document, { resultTypes: ['violations'], elementRef: true });
    const setAside = (id: string, n: Node) =>
      id === 'label-content-name-mismatch' && !!n.element?.matches('li.row[role="treeitem"][aria-expanded="true"]');
    return r.violations
      .map((x) => ({ ...x, nodes: x.nodes.filter((n) => !setAside(x.id, n)) }))
      .filter((x) => x.nodes.length > 0)
      .map((x) => ({
        id: x.id,
        impact: x.impact ?? '',
        help: x.help,
        nodes: x.nodes
          .slice(0, 5)
          .map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`.replace(/\s+/g, ' ')),
      }));
  });
  return found.filter((f) => f.impact === 'serious' || f.impact === 'critical');
}

/** Words as axe compares them for 2.5.3: lower case, letters and digits only. */
const words = (s: string): string =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * WCAG 2.5.3 for the expanded rows (the one set-aside above): each one's name holds its visible label,
 * title, provenance and license, with nothing between their words.
 */
async function expandedRowsHoldTheirLabel(v: ViewPage): Promise<number> {
  const rows = await v.page.locator('li.row[aria-expanded="true"]').evaluateAll((els) =>
    els.map((li) => ({
      name: li.getAttribute('aria-label') ?? '',
      label: [...li.querySelectorAll('.row-title, .provenance, .license')].map((e) => e.textContent ?? '').join(' '),
    })),
  );
  for (const r of rows)
    assert.ok(
      ` ${words(r.name)} `.includes(` ${words(r.label)} `),
      `the row's name "${r.name}" holds its label "${r.label}"`,
    );
  return rows.length;
}

function report(fs: Finding[]): string {
  return fs.map((f) => `${f.impact} ${f.id}: ${f.help}\n    ${f.nodes.join('\n    ')}`).join('\n');
}

async function freshView(theme: Theme): Promise<ViewPage> {
  const v = await pages.open(theme);
  await v.send({ type: 'init', defaults: DEFAULTS, workspaceRepos: ['fetchline/fetchline'] });
  return v;
}

describe('accessibility of the search view (axe-core)', () => {
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
      await v.send({
        type: 'results',
        requestId: s.requestId,
        outcome: outcome({ params: s.params, results: SAMPLE_RESULTS }),
      });
      await v.page.waitForSelector('li.row');
      assert.equal(await v.page.locator('#chips .chip').count(), 1);
      await v.page.locator('li.row').nth(1).hover();
      await check('the chip row and collapsed results');
      // An expanded result (markdown: table, code, links) with its actions shown.
      await v.page.focus('#q');
      await v.page.keyboard.press('ArrowDown');
      await v.page.keyboard.press('Enter');
      assert.equal(await v.page.locator('li.row').first().getAttribute('aria-expanded'), 'true');
      await v.page.locator('li.row').first().locator('.passage').first().hover();
      await check('an expanded result');
      assert.equal(await expandedRowsHoldTheirLabel(v), 1);
      await v.page.screenshot({ path: join(shots, `a11y-expanded-${theme}.png`) });
      // An error over the (now stale) results, and one on its own.
      const e = await typeAndSearch(v, 'secret');
      await v.send({ type: 'searchStarted', requestId: e.requestId, params: e.params });
      await v.send({
        type: 'searchError',
        requestId: e.requestId,
        error: { message: 'Unauthorized: Invalid token (HTTP 401)', action: 'setKey', status: 401 },
      });
      await v.page.waitForSelector('#error:not([hidden])');
      await check('a 401 error over stale results');
      await v.page.screenshot({ path: join(shots, `a11y-error-${theme}.png`) });
      await v.send({ type: 'command', command: 'clear' });
      const n = await typeAndSearch(v, 'down');
      await v.send({ type: 'searchStarted', requestId: n.requestId, params: n.params });
      await v.send({
        type: 'searchError',
        requestId: n.requestId,
        error: {
          message: 'Could not reach the service: connect ECONNREFUSED 127.0.0.1:9',
          action: 'retry',
          diagnose: true,
        },
      });
      await v.page.waitForSelector('#error:not([hidden])');
      await check('a network error');
      assert.equal(seen.length, 5);
      assert.deepEqual(problems, [], problems.join('\n'));
      await v.page.close();
    });
  }
});

/** Every element axe's 2.5.3 rule looked at: those that failed (nothing set aside) and those that passed. */
async function labelInName(v: ViewPage): Promise<{ failed: string[]; passed: string[] }> {
  const loaded = await v.page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!loaded) await v.page.evaluate(AXE_SOURCE);
  return v.page.evaluate(async () => {
    type R = { nodes: Array<{ target: unknown[]; element?: Element }> };
    const a = (
      window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: R[]; passes: R[] }> } }
    ).axe;
    const r = await a.run(document, {
      runOnly: { type: 'rule', values: ['label-content-name-mismatch'] },
      resultTypes: ['violations', 'passes'],
      elementRef: true,
    });
    const name = (n: R['nodes'][number]) =>
      `${n.element?.getAttribute('aria-label') ?? JSON.stringify(n.target)}${n.element?.getAttribute('aria-expanded') === 'true' ? ' (expanded)' : ''}`;
    return {
      failed: r.violations.flatMap((x) => x.nodes.map(name)),
      passed: r.passes.flatMap((x) => x.nodes.map(name)),
    };
  });
}

describe('label in name (WCAG 2.5.3, axe label-content-name-mismatch)', () => {
  for (const theme of THEMES) {
    it(`in ${theme}: every row, collapsed, with license and version badges, and every labelled button shows words its name holds; only an expanded row's passages are beyond its name`, async () => {
      const v = await freshView(theme);
      await v.send({ type: 'keyState', hasKey: true });
      const s = await typeAndSearch(v, 'http server keep-alive');
      await v.send({ type: 'searchStarted', requestId: s.requestId, params: s.params });
      const o = outcome({ params: s.params, results: SAMPLE_RESULTS });
      // A license and a version badge on the first row, an unknown kind on the last: all are visible words.
      o.results[0] = {
        ...o.results[0]!,
        license: 'MIT',
        versions: [
          {
            kind: 'fixed',
            verdict: 'newer-fix',
            stated: '3.3.0',
            installed: '3.2.0',
            label: 'fixed in 3.3.0 · newer than your 3.2.0',
            text: 'fixed in 3.3.0 · newer than your 3.2.0',
            sentence: 'This is fixed in 3.3.0.',
            highlight: true,
          },
        ],
      };
      o.results[4] = { ...o.results[4]!, type: 'discussion' };
      await v.send({ type: 'results', requestId: s.requestId, outcome: o });
      await v.page.waitForSelector('li.row');
      await v.send({
        type: 'watches',
        watches: [
          {
            id: 'w1',
            query: 'Retry-After ignored with a per-request timeout',
            scope: 'fetchline/fetchline · 3.2.0 installed',
            lastCheck: Date.now() - 3_600_000,
            newCount: 2,
          },
        ],
        max: 50,
      });
      await v.page.waitForSelector('.watch-item');
      await v.page.locator('li.row').nth(1).hover();
      const collapsed = await labelInName(v);
      assert.deepEqual(collapsed.failed, [], 'collapsed rows and every button: no mismatch, nothing set aside');
      const rows = await v.page.locator('li.row').count();
      assert.equal(
        collapsed.passed.filter((n) => /^(Documentation|Issue|Pull request|README|discussion): /.test(n)).length,
        rows,
        `every row was checked and passed: ${collapsed.passed.join(' | ')}`,
      );
      assert.ok(
        collapsed.passed.some((n) => n.startsWith('Retry-After ignored with a per-request timeout, in ')),
        "the watch's query button",
      );
      assert.ok(
        collapsed.passed.some((n) => n.startsWith('Check Now')),
        'Check Now',
      );
      await v.page.screenshot({ path: join(shots, `a11y-label-in-name-${theme}.png`) });
      // Expanded: the row's passages are visible words of its subtree; its name keeps to its label.
      await v.page.focus('#q');
      await v.page.keyboard.press('ArrowDown');
      await v.page.keyboard.press('Enter');
      await v.page.locator('li.row').first().locator('.passage').first().waitFor();
      const expanded = await labelInName(v);
      assert.equal(expanded.failed.length, 1, expanded.failed.join(' | '));
      assert.match(expanded.failed[0]!, /\(expanded\)$/);
      assert.equal(await expandedRowsHoldTheirLabel(v), 1);
      // Collapsed again, it passes again.
      await v.page.keyboard.press('Enter');
      assert.deepEqual((await labelInName(v)).failed, []);
      await v.page.close();
    });
  }
});

/** What the focused element is, in a few words, for the order of Tab stops. */
async function focused(v: ViewPage): Promise<string> {
  return v.page.evaluate(() => {
    const e = document.activeElement as HTMLElement | null;
    if (!e || e === document.body) return 'body';
    if (e.matches('li.row')) return `row ${e.dataset.index}`;
    if (e.matches('.passage')) return `passage: ${e.getAttribute('aria-label')}`;
    if (e.id) return `#${e.id}`;
    const labelled = e instanceof HTMLInputElement ? e.labels?.[0]?.innerText : undefined;
    const name =
      e.getAttribute('aria-label') ??
      labelled ??
      (e.innerText.split('\n').find((l) => l.trim()) ?? '').replace(/\s+/g, ' ').trim();
    return `${e.tagName.toLowerCase()}: ${name}`;
  });
}

/** The focused element's outline, and the theme's focus colour (--vscode-focusBorder) as the browser computes it. */
async function focusRing(
  v: ViewPage,
): Promise<{ style: string; width: number; color: string; focusBorder: string; box: number }> {
  return v.page.evaluate(() => {
    const e = document.activeElement as HTMLElement;
    const cs = getComputedStyle(e);
    const probe = document.createElement('span');
    probe.style.color = 'var(--vscode-focusBorder)';
    document.body.append(probe);
    const focusBorder = getComputedStyle(probe).color;
    probe.remove();
    const r = e.getBoundingClientRect();
    return {
      style: cs.outlineStyle,
      width: parseFloat(cs.outlineWidth),
      color: cs.outlineColor,
      focusBorder,
      box: r.width * r.height,
    };
  });
}

async function showResults(v: ViewPage, query = 'http server keep-alive', results = SAMPLE_RESULTS) {
  const before = (await v.posted()).length;
  await v.page.keyboard.type(query);
  await v.page.keyboard.press('Enter');
  const s = await v.waitForPosted('search', before);
  await v.send({ type: 'searchStarted', requestId: s.requestId, params: s.params });
  await v.send({ type: 'results', requestId: s.requestId, outcome: outcome({ params: s.params, results }) });
  await v.page.waitForSelector('li.row');
  return s;
}

describe('the search view with the keyboard alone', () => {
  it('walks search → expand → open → back to the query box, as a tree (arrows, Home/End, Enter/Space, roving tabindex)', async () => {
    const v = await freshView('dark');
    await v.page.keyboard.press('Tab');
    assert.equal(await focused(v), '#q', 'the first Tab stop is the query box');
    await showResults(v);
    assert.equal(await v.page.getAttribute('ol.results', 'role'), 'tree');
    assert.deepEqual(
      await v.page
        .locator('li.row')
        .evaluateAll((els) =>
          els.map((e) =>
            [
              e.getAttribute('role'),
              e.getAttribute('aria-level'),
              e.getAttribute('aria-posinset'),
              e.getAttribute('aria-setsize'),
            ].join(' '),
          ),
        ),
      ['treeitem 1 1 5', 'treeitem 1 2 5', 'treeitem 1 3 5', 'treeitem 1 4 5', 'treeitem 1 5 5'],
    );
    // The order of Tab stops: query, Search, Filters, then the list as one stop (its selected row).
    const order: string[] = [await focused(v)];
    for (let i = 0; i < 3; i++) {
      await v.page.keyboard.press('Tab');
      order.push(await focused(v));
    }
    assert.deepEqual(order, ['#q', '#run', '#filters-toggle', 'row 0']);
    await v.page.keyboard.press('Shift+Tab');
    assert.equal(await focused(v), '#filters-toggle');
    await v.page.focus('#q');
    await v.page.keyboard.press('ArrowDown');
    assert.equal(await focused(v), 'row 0', 'ArrowDown from the query box enters the list');
    const roving = () =>
      v.page
        .locator('li.row')
        .evaluateAll((els) => els.map((e) => `${e.getAttribute('tabindex')}/${e.getAttribute('aria-selected')}`));
    await v.page.keyboard.press('ArrowDown');
    assert.equal(await focused(v), 'row 1');
    assert.deepEqual(
      await roving(),
      ['-1/false', '0/true', '-1/false', '-1/false', '-1/false'],
      'one tab stop, on the selected row',
    );
    await v.page.keyboard.press('End');
    assert.equal(await focused(v), 'row 4');
    await v.page.keyboard.press('Home');
    assert.equal(await focused(v), 'row 0');
    assert.deepEqual(await roving(), ['0/true', '-1/false', '-1/false', '-1/false', '-1/false']);
    const row0 = v.page.locator('li.row').first();
    await v.page.keyboard.press('Enter');
    assert.equal(await row0.getAttribute('aria-expanded'), 'true', 'Enter expands');
    await v.page.keyboard.press(' ');
    assert.equal(await row0.getAttribute('aria-expanded'), 'false', 'Space collapses');
    await v.page.keyboard.press(' ');
    assert.equal(await row0.getAttribute('aria-expanded'), 'true', 'Space expands');
    assert.equal(await row0.locator('.passage').count(), 2);
    // Into the row: its actions first, Open among them.
    await v.page.keyboard.press('Tab');
    assert.equal(await focused(v), 'button: Open “HTTP | Node.js API”');
    const before = (await v.posted()).length;
    await v.page.keyboard.press('Enter');
    assert.deepEqual(
      (await v.posted()).slice(before),
      [{ type: 'openLink', url: 'https://nodejs.org/api/http.html' }],
      "Open posts openLink with the result's url, and nothing else",
    );
    await v.page.keyboard.press('Escape');
    assert.equal(await focused(v), 'row 0', 'Escape inside a row goes back to the row');
    await v.page.keyboard.press('Escape');
    assert.equal(await focused(v), '#q', 'and from the row to the query box');
    await v.page.close();
  });

  it('reaches every action of an expanded row with Tab (row actions, each passage and its actions, links, code), in order', async () => {
    const v = await freshView('dark');
    await v.page.keyboard.press('Tab');
    await showResults(v);
    await v.page.keyboard.press('ArrowDown');
    await v.page.keyboard.press('Enter');
    const stops: string[] = [];
    for (let i = 0; i < 30; i++) {
      await v.page.keyboard.press('Tab');
      const f = await focused(v);
      if (f === 'body' || f === '#q') break;
      stops.push(f);
    }
    const t = '“HTTP | Node.js API”';
    assert.deepEqual(stops, [
      `button: Open ${t}`,
      `button: Copy Link to ${t}`,
      `button: Copy Passage of ${t}`,
      `button: Insert Passage of ${t} at Cursor`,
      `button: Open ${t} as Markdown`,
      `passage: Passage 1 of ${t}`,
      `button: Copy passage 1 of ${t}`,
      `button: Insert passage 1 of ${t} at Cursor`,
      "pre: import { createServer } from 'node:http';",
      'a: the guide',
      'a: RFC 9110',
      `passage: Passage 2 of ${t}`,
      `button: Copy passage 2 of ${t}`,
      `button: Insert passage 2 of ${t} at Cursor`,
      'table: Option Type Default', // the table (it scrolls sideways in a narrow side bar)
    ]);
    // A passage's action works from the keyboard: back with Shift+Tab to Copy on passage 2.
    for (let i = 0; i < 4 && (await focused(v)) !== `button: Copy passage 2 of ${t}`; i++)
      await v.page.keyboard.press('Shift+Tab');
    assert.equal(await focused(v), `button: Copy passage 2 of ${t}`);
    const before = (await v.posted()).length;
    await v.page.keyboard.press('Enter');
    assert.deepEqual((await v.posted()).slice(before), [
      { type: 'copy', what: 'passage', text: SAMPLE_RESULTS[0]!.passages[1]!.text },
    ]);
    await v.page.close();
  });

  for (const theme of THEMES) {
    it(`shows the theme's focus outline on every Tab stop in ${theme}`, async () => {
      const v = await freshView(theme);
      await v.send({ type: 'keyState', hasKey: false });
      await v.page.keyboard.press('Tab');
      await showResults(v);
      await v.page.click('#filters-toggle');
      await v.page.fill('#f-language', 'Go');
      await v.page.focus('#q');
      await v.page.keyboard.press('ArrowDown');
      await v.page.keyboard.press('Enter');
      await v.page.focus('#q');
      const seen = new Set<string>(['#q']);
      const q = await focusRing(v);
      assert.ok(
        q.style !== 'none' && q.width >= 1 && q.color === q.focusBorder,
        `${theme}: the query box's outline ${JSON.stringify(q)}`,
      );
      let shot = false;
      for (let i = 0; i < 80; i++) {
        await v.page.keyboard.press('Tab');
        const f = await focused(v);
        if (f === 'body' || seen.has(f)) break;
        seen.add(f);
        const ring = await focusRing(v);
        assert.ok(ring.box > 0, `${theme}: ${f} is on screen`);
        assert.ok(
          ring.style !== 'none' && ring.width >= 1,
          `${theme}: ${f} has an outline (${ring.style} ${ring.width}px)`,
        );
        assert.equal(ring.color, ring.focusBorder, `${theme}: ${f}'s outline is the theme's focus border`);
        if (!shot && f.startsWith('button: Open “')) {
          await v.page.screenshot({
            path: join(shots, `a11y-focus-row-action-${theme}.png`),
            clip: { x: 0, y: 0, width: 420, height: 700 },
          });
          shot = true;
        }
      }
      for (const want of [
        '#q',
        '#run',
        '#filters-toggle',
        '#f-language',
        '#f-archived',
        'button: Set API Key',
        'row 0',
        'button: Remove filter Language: Go',
        'button: Clear all',
      ]) {
        assert.ok(seen.has(want), `${theme}: ${want} is a Tab stop (${[...seen].join(' | ')})`);
      }
      assert.ok(seen.size >= 30, `${theme}: ${seen.size} Tab stops`);
      assert.ok(shot, "the row's Open was reached");
      await v.page.close();
    });
  }
});

describe('the live region', () => {
  it('says a finished search, an error, a cancel and a cleared list once each, in plain words', async () => {
    const v = await freshView('light');
    // Every change to the live region, as a screen reader would be told of it.
    await v.page.evaluate(() => {
      const w = window as unknown as { __said: string[] };
      w.__said = [];
      new MutationObserver(() => w.__said.push(document.getElementById('announce')!.textContent ?? '')).observe(
        document.getElementById('announce')!,
        { childList: true, subtree: true, characterData: true },
      );
    });
    const said = () => v.page.evaluate(() => (window as unknown as { __said: string[] }).__said.slice());
    const region = () =>
      v.page.evaluate(() => {
        const a = document.getElementById('announce')!;
        return {
          text: a.textContent,
          live: a.getAttribute('aria-live'),
          role: a.getAttribute('role'),
          nodes: a.childElementCount,
        };
      });
    await v.page.keyboard.press('Tab');
    await showResults(v);
    await v.page.waitForFunction(() => (window as unknown as { __said: string[] }).__said.length > 0);
    assert.deepEqual(await region(), { text: '5 results', live: 'polite', role: 'status', nodes: 1 });
    assert.deepEqual(await said(), ['5 results']);
    // Moving, expanding, Expand All and a second's re-render say nothing more.
    await v.page.keyboard.press('ArrowDown');
    await v.page.keyboard.press('Enter');
    await v.send({ type: 'command', command: 'expandAll' });
    await v.send({ type: 'command', command: 'collapseAll' });
    await v.page.waitForTimeout(1100);
    assert.deepEqual(await said(), ['5 results'], 'said once');
    // The status line and the error box are not live regions of their own (no double announcement).
    assert.deepEqual(
      await v.page.evaluate(() =>
        ['status', 'error'].map((id) => [
          document.getElementById(id)!.getAttribute('role'),
          document.getElementById(id)!.getAttribute('aria-live'),
        ]),
      ),
      [
        [null, null],
        [null, null],
      ],
    );
    // An error: its heading and message, once.
    const search = async (query: string) => {
      const before = (await v.posted()).length;
      await v.page.fill('#q', query);
      await v.page.press('#q', 'Enter');
      const s = await v.waitForPosted('search', before);
      await v.send({ type: 'searchStarted', requestId: s.requestId, params: s.params });
      return s;
    };
    let s = await search('down');
    await v.send({
      type: 'searchError',
      requestId: s.requestId,
      error: {
        message: 'Could not reach the service: connect ECONNREFUSED 127.0.0.1:9',
        action: 'retry',
        diagnose: true,
      },
    });
    await v.page.waitForTimeout(1100);
    assert.deepEqual(await said(), [
      '5 results',
      'The search failed. Could not reach the service: connect ECONNREFUSED 127.0.0.1:9',
    ]);
    assert.equal((await region()).nodes, 1, 'one announcement at a time');
    // A cancelled search, then no results.
    s = await search('slow');
    await v.page.press('#q', 'Escape');
    s = await search('zzzz');
    await v.send({ type: 'results', requestId: s.requestId, outcome: outcome({ params: s.params, results: [] }) });
    // The list cleared (the view's Clear command).
    await v.send({ type: 'command', command: 'clear' });
    // The same count twice is said twice (a new node each time), never as one doubled text.
    s = await search('again');
    await v.send({
      type: 'results',
      requestId: s.requestId,
      outcome: outcome({ params: s.params, results: SAMPLE_RESULTS }),
    });
    s = await search('again and again');
    await v.send({
      type: 'results',
      requestId: s.requestId,
      outcome: outcome({ params: s.params, results: SAMPLE_RESULTS }),
    });
    await v.page.waitForTimeout(300);
    assert.deepEqual((await said()).slice(2), [
      'Search cancelled',
      'No results',
      'Results cleared',
      '5 results',
      '5 results',
    ]);
    assert.deepEqual(await region(), { text: '5 results', live: 'polite', role: 'status', nodes: 1 });
    await v.page.close();
  });
});

describe('Expand All in slices keeps the tree usable', () => {
  it('opens every row at once, renders the rows on screen first, the rest later; a row the keyboard reaches is rendered at once', async () => {
    const v = await freshView('dark');
    const many = Array.from({ length: 100 }, (_, i) => ({
      id: `doc:bench/${i}`,
      type: 'doc',
      url: `https://nodejs.org/api/page-${i}.html`,
      title: `Result ${i}`,
      provenance: `nodejs.org/api/page-${i}.html`,
      passages: Array.from({ length: 5 }, (_, j) => ({
        text: `### Part ${j}\n\nSome **markdown** with \`code\` and [a link](https://nodejs.org/${i}/${j}).\n\n| a | b |\n|---|---|\n| ${i} | ${j} |`,
      })),
    }));
    await v.page.keyboard.press('Tab');
    await showResults(v, 'many', many);
    await v.page.focus('#q');
    await v.page.keyboard.press('ArrowDown');
    // In one task: the command, then what it left for later.
    const right = await v.page.evaluate(() => {
      window.dispatchEvent(new MessageEvent('message', { data: { type: 'command', command: 'expandAll' } }));
      const rows = [...document.querySelectorAll<HTMLElement>('li.row')];
      const filled = rows
        .filter((li) => li.querySelector('.row-passages[data-filled]'))
        .map((li) => Number(li.dataset.index));
      return {
        expanded: rows.filter((li) => li.getAttribute('aria-expanded') === 'true').length,
        filled,
        busy: rows.filter((li) => li.querySelector('.row-passages[aria-busy="true"]')).length,
        firstOnScreen: rows.findIndex((li) => li.getBoundingClientRect().bottom > 0),
      };
    });
    assert.equal(right.expanded, 100, 'every row says it is expanded at once');
    assert.ok(
      right.filled.includes(right.firstOnScreen) && right.filled.length >= 1 && right.filled.length < 100,
      `the rows on screen first: ${right.filled.join(',')}`,
    );
    assert.equal(right.busy, 100 - right.filled.length, 'the others are busy (aria-busy) until their slice');
    // End: the last row gets the focus, and its passages are there when it does.
    await v.page.keyboard.press('End');
    assert.equal(await focused(v), 'row 99');
    assert.equal(
      await v.page.locator('li.row').nth(99).locator('.passage').count(),
      5,
      'rendered on the way to the focus',
    );
    await v.page.waitForFunction(() => document.querySelectorAll('li.row .passage').length === 500, undefined, {
      timeout: 20_000,
    });
    assert.equal(await v.page.locator('.row-passages[aria-busy]').count(), 0, 'nothing left busy');
    assert.equal(
      await v.page.locator('li.row').nth(42).locator('.passage').count(),
      5,
      'each row once: no passage twice',
    );
    // Collapse All while slices would still run: nothing is rendered into closed rows after it.
    await v.send({ type: 'command', command: 'collapseAll' });
    assert.equal(await v.page.locator('li.row[aria-expanded="true"]').count(), 0);
    await v.page.close();
  });

  it('Tab from the last passage of the rows on screen shows the next row before the focus moves, so no waiting row is skipped', async () => {
    const v = await freshView('dark');
    const many = Array.from({ length: 60 }, (_, i) => ({
      id: `doc:tab/${i}`,
      type: 'doc',
      url: `https://nodejs.org/api/tab-${i}.html`,
      title: `Result ${i}`,
      provenance: `nodejs.org/api/tab-${i}.html`,
      passages: Array.from({ length: 3 }, (_, j) => ({ text: `### Part ${j}\n\nSome **markdown** ${i}.${j}.` })),
    }));
    await v.page.keyboard.press('Tab');
    await showResults(v, 'tab', many);
    // All in one task, so no slice can run in between: Expand All, the focus on the last passage shown, Tab's keydown.
    const seen = await v.page.evaluate(() => {
      window.dispatchEvent(new MessageEvent('message', { data: { type: 'command', command: 'expandAll' } }));
      const rows = [...document.querySelectorAll<HTMLElement>('li.row')];
      const shown = rows.filter((li) => li.querySelector('.row-passages[data-filled]:not([aria-busy])'));
      const last = shown[shown.length - 1]!;
      const next = rows[Number(last.dataset.index) + 1]!;
      const before = next.querySelector('.row-passages')!.getAttribute('aria-busy');
      const passages = last.querySelectorAll<HTMLElement>('.passage');
      passages[passages.length - 1]!.focus();
      passages[passages.length - 1]!.dispatchEvent(
        new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, cancelable: true }),
      );
      return {
        last: Number(last.dataset.index),
        before,
        after: next.querySelector('.row-passages')!.getAttribute('aria-busy'),
        passages: next.querySelectorAll('.passage').length,
      };
    });
    assert.equal(seen.before, 'true', `row ${seen.last + 1} was waiting for its slice`);
    assert.deepEqual(
      { after: seen.after, passages: seen.passages },
      { after: null, passages: 3 },
      'and is shown on Tab, before the focus moves',
    );
    await v.page.close();
  });
});
