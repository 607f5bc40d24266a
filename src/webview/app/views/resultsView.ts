// The results region: a summary naming the query and its scope, one neutral line per coverage gap
// with its fixes, and a compact list (type icon, title, provenance, license, a one-line snippet) whose
// rows expand to their passages rendered as markdown. Rows are built once per outcome; expanding,
// selecting and dimming only touch the rows concerned.
import type { CoverageNote } from '../../../api/coverage';
import type { OutcomeResult, SearchOutcome } from '../../../search/session/outcome';
import type { FromWebview } from '../../protocol';
import { safeHref } from '../../linkPolicy';
import { REPOSITORY_FILTERS, requestedTypes } from '../../../api/params';
import { scopePhrase, TYPE_LABELS } from '../../../search/scope';
import { h, icon, spaced } from '../dom';
import { renderMarkdown } from '../markdown';
import type { ViewState } from '../state';

/** Result kind -> codicon; an unknown kind gets `question` and its raw name beside it. */
export const TYPE_ICONS: Record<string, string> = {
  doc: 'book',
  issue: 'issues',
  pull_request: 'git-pull-request',
  readme: 'repo',
  web: 'globe',
};
export const UNKNOWN_TYPE_ICON = 'question';
const KIND_WORDS: Record<string, string> = {
  doc: 'Documentation',
  issue: 'Issue',
  pull_request: 'Pull request',
  readme: 'README',
  web: 'Web page',
};

export function kindLabel(type: string): string {
  return KIND_WORDS[type] ?? type;
}

/** Title; else the url's path (never the bare host); else the url. */
export function resultTitle(r: Pick<OutcomeResult, 'title' | 'url'>): string {
  if (r.title && r.title.trim()) return r.title.trim();
  try {
    const u = new URL(r.url);
    const path = decodeURIComponent(u.pathname).replace(/\/+$/, '');
    if (path) return path.split('/').filter(Boolean).slice(-2).join('/') || r.url;
  } catch {
    /* not a URL: shown as it came */
  }
  return r.url;
}

/** A passage's markdown as one line of plain text, for the row's snippet. */
export function plainSnippet(md: string, max = 240): string {
  const s = md
    .slice(0, 4000)
    .replace(/```[^\n]*\n/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/^\s*\|?\s*:?-{2,}.*$/gm, ' ')
    .replace(/[`*_~|]+/g, ' ')
    .replace(/<[^>\n]{0,200}>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function typeIcon(type: string): HTMLElement {
  const known = Object.prototype.hasOwnProperty.call(TYPE_ICONS, type);
  const glyph = h('span', {
    class: `type-icon codicon codicon-${known ? TYPE_ICONS[type]! : UNKNOWN_TYPE_ICON} ${known ? `type-${type}` : 'type-other'}`,
    role: 'img',
    'aria-label': kindLabel(type),
    title: kindLabel(type),
    'data-type': type,
  });
  return known
    ? glyph
    : h('span', { class: 'type-unknown' }, ...spaced(glyph, h('span', { class: 'type-raw' }, type.slice(0, 40))));
}

function actionButton(
  act: string,
  iconName: string,
  label: string,
  extra: Record<string, string | number | boolean> = {},
): HTMLButtonElement {
  return h(
    'button',
    { type: 'button', class: 'action', 'data-act': act, 'aria-label': label, title: label, ...extra },
    icon(iconName),
  );
}

/** A row's action buttons: built when the row is first hovered or focused, so a long list stays cheap to paint. */
export function rowActions(r: OutcomeResult, watchable = false): HTMLElement[] {
  const title = resultTitle(r);
  const q = `“${title.length > 80 ? `${title.slice(0, 79)}…` : title}”`;
  return [
    actionButton('open', 'link-external', `Open ${q}`, { disabled: !safeHref(r.url) }),
    actionButton('copy-link', 'link', `Copy Link to ${q}`),
    ...(r.passages.length
      ? [
          actionButton('copy-passage', 'copy', `Copy Passage of ${q}`, { 'data-p': 0 }),
          actionButton('insert-passage', 'insert', `Insert Passage of ${q} at Cursor`, { 'data-p': 0 }),
          actionButton('open-passages', 'markdown', `Open ${q} as Markdown`),
        ]
      : []),
    // Watches the search this result came from (a repository-scoped one).
    ...(watchable
      ? [actionButton('watch', 'eye', `Watch for a Fix: re-run the search that found ${q} and tell me what is new`)]
      : []),
  ];
}

/**
 * A row's accessible name: its kind (the icon's word), then exactly what the collapsed row shows, in the
 * same order (title, provenance, license, version badges, snippet). WCAG 2.5.3 (Label in Name): a voice
 * control user says what they see ("click <title>"), so nothing may come between the visible words.
 */
export function rowName(r: OutcomeResult): string {
  const known = Object.prototype.hasOwnProperty.call(TYPE_ICONS, r.type);
  const snippet = r.passages[0] ? plainSnippet(r.passages[0].text) : '';
  return [
    `${known ? kindLabel(r.type) : r.type.slice(0, 40)}: ${resultTitle(r)}`,
    r.provenance,
    r.license,
    ...(r.versions ?? []).slice(0, 3).map((b) => b.label),
    snippet,
  ]
    .filter((x) => !!x)
    .join(', ');
}

/** A row is a treeitem (HOUSE_STYLE 17): rows expand to their passages, as in VS Code's Search view. */
function row(r: OutcomeResult, index: number, count: number): HTMLElement {
  const title = resultTitle(r);
  const snippet = r.passages[0] ? plainSnippet(r.passages[0].text) : '';
  return h(
    'li',
    {
      class: 'row',
      role: 'treeitem',
      tabindex: -1,
      'data-index': index,
      'aria-level': 1,
      'aria-posinset': index + 1,
      'aria-setsize': count,
      'aria-selected': 'false',
      'aria-expanded': r.passages.length ? 'false' : undefined,
      'aria-label': rowName(r),
    },
    // Spaces between the parts, so that the words a row shows are the words of its name (rowName).
    ...spaced(
      h(
        'div',
        { class: 'row-main' },
        ...spaced(
          typeIcon(r.type),
          h('span', { class: 'row-title', title }, title),
          h('span', { class: 'row-actions' }),
        ),
      ),
      h(
        'div',
        { class: 'row-meta' },
        ...spaced(
          h('span', { class: 'provenance', title: r.url }, r.provenance),
          r.license ? h('span', { class: 'license', title: `License: ${r.license}` }, r.license) : undefined,
        ),
      ),
      r.versions?.length ? versionBadges(r) : undefined,
      snippet ? h('div', { class: 'row-snippet' }, snippet) : undefined,
    ),
  );
}

/**
 * A result's version badges; the tooltip (and the accessible name) quotes the sentence. One element a
 * badge: its icon is the stylesheet's (`data-verdict`), so badges cost the first paint little over plain rows.
 */
function versionBadges(r: OutcomeResult): HTMLElement {
  return h(
    'div',
    { class: 'row-versions' },
    ...spaced(
      ...(r.versions ?? []).slice(0, 3).map((b) =>
        h(
          'span',
          {
            class: `version-badge${b.highlight ? ' highlight' : ''}`,
            'data-verdict': b.verdict,
            title: `“${b.sentence}”`,
            'aria-label': `${b.label}: “${b.sentence}”`,
          },
          b.label,
        ),
      ),
    ),
  );
}

/** The box a row's passages go in; empty until `fillPassages` renders them. */
function passagesBox(r: OutcomeResult): HTMLElement {
  return h('div', { class: 'row-passages', role: 'group', 'aria-label': `Passages of ${resultTitle(r)}` });
}

/** Renders a row's passages as markdown into its box (once per row and outcome). */
function fillPassages(box: HTMLElement, r: OutcomeResult, index: number): void {
  const base = safeHref(r.url);
  r.passages.forEach((p, i) => {
    const body = h('div', { class: 'md' });
    // Safe by construction: markdown-it with raw HTML off plus the link and attribute policy in markdown.ts.
    body.innerHTML = renderMarkdown(p.text, p.link && safeHref(p.link) ? p.link : base);
    const n = `passage ${i + 1} of “${resultTitle(r).slice(0, 80)}”`;
    // A tab stop of its own: focus on it shows its actions, so the keyboard reaches them.
    box.append(
      h(
        'div',
        {
          class: 'passage',
          'data-index': index,
          role: 'group',
          tabindex: 0,
          'aria-label': n.charAt(0).toUpperCase() + n.slice(1),
        },
        h(
          'div',
          { class: 'passage-actions' },
          p.link && safeHref(p.link)
            ? actionButton('open-passage', 'link-external', `Open ${n}`, { 'data-p': i })
            : undefined,
          actionButton('copy-passage', 'copy', `Copy ${n}`, { 'data-p': i }),
          actionButton('insert-passage', 'insert', `Insert ${n} at Cursor`, { 'data-p': i }),
        ),
        body,
      ),
    );
  });
  box.dataset.filled = '';
}

/** Rule 6 and the other coverage gaps in plain words, one line each; nothing when every requested type is ok. */
function coverageLines(o: SearchOutcome): HTMLElement | undefined {
  const asked = requestedTypes(o.params);
  const lines: HTMLElement[] = [];
  const notes = o.notes.filter((n) => !(n.fix?.kind === 'add-sources'));
  for (const n of notes) {
    // A type the user did not ask for being skipped is what they asked for.
    if (n.type && o.coverage[n.type] === 'skipped' && !asked.includes(n.type) && !n.fix) continue;
    lines.push(noteLine(n, o));
  }
  return lines.length ? h('ul', { class: 'coverage-lines', 'aria-label': 'Coverage' }, ...lines) : undefined;
}

function noteLine(n: CoverageNote, o: SearchOutcome): HTMLElement {
  if (n.fix?.kind === 'drop-repo-filters') {
    const used = REPOSITORY_FILTERS.filter((f) => o.params[f] !== undefined);
    return h(
      'li',
      { class: 'coverage-line rule6' },
      icon('info', 'note-icon'),
      h('span', {}, `Documentation left out because of the repository filters (${used.join(', ')}).`),
      h(
        'span',
        { class: 'fixes' },
        h(
          'button',
          { type: 'button', class: 'link-button fix', 'data-fix': 'drop-repo-filters' },
          'Include documentation',
        ),
        h(
          'button',
          { type: 'button', class: 'link-button fix', 'data-fix': 'add-sources' },
          'Choose documentation sources…',
        ),
      ),
    );
  }
  return h(
    'li',
    { class: 'coverage-line' },
    icon(n.level === 'warning' ? 'warning' : 'info', 'note-icon'),
    h('span', {}, n.text),
  );
}

/** What a row's or a passage's action button posts; a passage opens at its own citation link when it has one. */
export function actionMessage(act: string, r: OutcomeResult, p: number): FromWebview | undefined {
  const passage = r.passages[p];
  switch (act) {
    case 'open':
      return { type: 'openLink', url: r.url };
    case 'open-passage':
      return { type: 'openLink', url: passage?.link ?? r.url };
    case 'copy-link':
      return { type: 'copy', what: 'link', text: r.url };
    case 'copy-passage':
      return passage && { type: 'copy', what: 'passage', text: passage.text };
    case 'insert-passage':
      return passage && { type: 'insert', text: passage.text };
    case 'open-passages':
      return {
        type: 'openPassages',
        id: r.id,
        title: resultTitle(r),
        url: r.url,
        passages: r.passages.map((x) => x.text),
      };
    case 'watch':
      return { type: 'watch' };
  }
  return undefined;
}

/** The most markdown one task renders while rows are filled in the background, in ms. */
export const SLICE_MS = 8;

export class ResultsView {
  readonly el = h('div', { id: 'results-region', class: 'results-region' });

  constructor() {
    const arm = (e: Event) => {
      const li = (e.target as Element | null)?.closest?.<HTMLElement>('li.row');
      const box = li?.querySelector<HTMLElement>('.row-actions');
      const r = li && this.outcome?.results[Number(li.dataset.index)];
      if (box && r && !box.childElementCount) box.append(...rowActions(r, !!this.outcome?.params.repos?.length));
      // A row that the keyboard reaches before its Expand All slice has come shows its passages at once.
      if (e.type === 'focusin' && li) this.ensureFilled(Number(li.dataset.index));
    };
    this.el.addEventListener('pointerover', arm);
    this.el.addEventListener('focusin', arm);
    // Tab and Shift+Tab walk the passages of expanded rows in document order: the next expanded row in that
    // direction is shown before the browser moves the focus, so a row waiting for its slice is never skipped.
    this.el.addEventListener('keydown', (e) => {
      if (e.key !== 'Tab' || !this.list) return;
      const li = (e.target as Element | null)?.closest?.<HTMLElement>('li.row');
      if (!li) return;
      const step = e.shiftKey ? -1 : 1;
      for (let j = Number(li.dataset.index) + step; j >= 0 && j < this.rows(); j += step) {
        if (this.expanded.has(j)) {
          this.ensureFilled(j);
          break;
        }
      }
    });
  }

  private outcome: SearchOutcome | undefined | null = null;
  private list: HTMLOListElement | undefined;
  private expanded = new Set<number>();
  private selected = -1;
  /**
   * Expanded rows whose passages are not shown yet, in the order they will be. Such a row says
   * `aria-expanded="true"` and its group `aria-busy="true"`; the group's passages, when a Collapse All
   * left them rendered, stay out of the layout (CSS) until the row's turn.
   */
  private pending: number[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  render(s: ViewState): void {
    const o = s.outcome;
    if (o !== this.outcome) this.build(s);
    this.el.classList.toggle('stale', s.stale);
    const banner = this.el.querySelector<HTMLElement>('.stale-banner');
    if (banner) banner.hidden = !s.stale;
    if (!this.list || !o) return;
    const want = new Set(s.expanded.filter((i) => i < o.results.length));
    for (const i of [...this.expanded]) if (!want.has(i)) this.setExpanded(i, false);
    const opened = [...want].filter((i) => !this.expanded.has(i));
    for (const i of opened) this.setExpanded(i, true);
    if (opened.length === 1) this.show(opened[0]!);
    else if (opened.length > 1) this.showInSlices(opened);
    // Collapse All (or a row closed) while slices were due: what is left for closed rows is dropped.
    if (this.pending.some((i) => !this.expanded.has(i)))
      this.pending = this.pending.filter((i) => this.expanded.has(i));
    if (!this.pending.length) this.cancelSlices();
    const sel = Math.min(s.selected, o.results.length - 1);
    if (sel !== this.selected) {
      const old = this.rowAt(this.selected);
      old?.setAttribute('tabindex', '-1');
      old?.setAttribute('aria-selected', 'false');
      const now = this.rowAt(sel);
      now?.setAttribute('tabindex', '0');
      now?.setAttribute('aria-selected', 'true');
      this.selected = sel;
    }
  }

  rowAt(i: number): HTMLElement | undefined {
    return (this.list?.children[i] as HTMLElement | undefined) ?? undefined;
  }

  rows(): number {
    return this.list?.childElementCount ?? 0;
  }

  /** Rows expanded whose passages are still to be shown (0 once Expand All has finished). */
  unfilled(): number {
    return this.pending.length;
  }

  /** Shows row `i`'s passages now if it is expanded and waits for them: before it takes the focus, say. */
  ensureFilled(i: number): void {
    if (this.expanded.has(i)) this.show(i);
  }

  /**
   * Opens or closes a row at once. An opened row's group is busy until `show` (now, or in a slice) renders
   * its passages or, when they are still there from an earlier expansion, lets them into the layout again.
   */
  private setExpanded(i: number, open: boolean): void {
    const li = this.rowAt(i);
    const r = this.outcome?.results[i];
    if (!li || !r || !r.passages.length) return;
    let box = li.querySelector<HTMLElement>('.row-passages');
    if (open && !box) {
      box = passagesBox(r);
      li.append(box);
    }
    if (box) {
      if (open) box.setAttribute('aria-busy', 'true');
      box.hidden = !open;
    }
    li.setAttribute('aria-expanded', String(open));
    li.classList.toggle('expanded', open);
    if (open) this.expanded.add(i);
    else this.expanded.delete(i);
  }

  private show(i: number): void {
    const at = this.pending.indexOf(i);
    if (at >= 0) this.pending.splice(at, 1);
    const li = this.rowAt(i);
    const r = this.outcome?.results[i];
    const box = li?.querySelector<HTMLElement>('.row-passages');
    if (!r || !box || !box.hasAttribute('aria-busy')) return;
    if (box.dataset.filled === undefined) fillPassages(box, r, i);
    box.removeAttribute('aria-busy');
  }

  /**
   * Expand All: the rows on screen get their passages in this task, so they paint in the next
   * frame; the others follow in tasks of about SLICE_MS each (rows after the screen first, then those
   * above it), so no task holds the view for long and keys and clicks are answered between them.
   */
  private showInSlices(rows: number[]): void {
    const order = [...rows].sort((a, b) => a - b);
    const first = this.firstOnScreen(order);
    const height = window.innerHeight;
    const start = performance.now();
    let k = order.indexOf(first);
    // Rows from the first one on screen down to the bottom of the screen (layout read once per row).
    while (k >= 0 && k < order.length) {
      const i = order[k]!;
      this.show(i);
      k++;
      const li = this.rowAt(i);
      if (!li || li.getBoundingClientRect().bottom >= height || performance.now() - start > SLICE_MS * 2) break;
    }
    const at = order.indexOf(first);
    const rest = [...order.slice(k), ...order.slice(0, Math.max(0, at))];
    this.pending = [...new Set([...this.pending, ...rest])].filter((i) => this.expanded.has(i));
    this.schedule();
  }

  private firstOnScreen(order: number[]): number {
    for (const i of order) {
      const li = this.rowAt(i);
      if (li && li.getBoundingClientRect().bottom > 0) return i;
    }
    return order[0]!;
  }

  private schedule(): void {
    if (this.timer !== undefined || !this.pending.length) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const start = performance.now();
      while (this.pending.length && performance.now() - start < SLICE_MS) {
        const i = this.pending[0]!;
        this.show(i);
        // Laid out now, inside the slice's time: showing passages rendered earlier costs little script and
        // much layout, which would otherwise pile up after the slice (99 rows re-shown in one frame).
        this.rowAt(i)?.getBoundingClientRect();
      }
      this.schedule();
    }, 0);
  }

  /** Collapse All, or a new outcome: the slices still due are not run. */
  private cancelSlices(): void {
    this.pending = [];
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private build(s: ViewState): void {
    const o = s.outcome;
    this.outcome = o;
    this.expanded = new Set();
    this.cancelSlices();
    this.selected = -1;
    this.list = undefined;
    if (!o) {
      this.el.replaceChildren(
        h(
          'div',
          { class: 'empty welcome' },
          h('p', {}, 'Search documentation, issues, pull requests and READMEs from the developer index.'),
          h(
            'p',
            {},
            'Type a question and press Enter. Filters limit the search to repositories, documentation sources or result types.',
          ),
        ),
      );
      return;
    }
    const n = o.results.length;
    const scope = scopePhrase(o.params);
    const tip = [`${o.ms} ms`, o.reranked ? 'reranked' : undefined].filter(Boolean).join(' · ');
    const parts: Array<HTMLElement | undefined> = [
      h('p', { class: 'stale-banner', hidden: true }, icon('history'), `Showing results for “${o.params.query}”`),
      h(
        'p',
        { class: 'summary', title: tip },
        `${n} result${n === 1 ? '' : 's'} for “${o.params.query}”${scope ? ` ${scope}` : ''}`,
      ),
      ...(o.versionSummary ?? []).map((line) =>
        h('p', { class: 'version-summary' }, icon('versions', 'version-icon'), line),
      ),
      coverageLines(o),
    ];
    if (n === 0) {
      const types = requestedTypes(o.params)
        .map((t) => TYPE_LABELS[t] ?? t)
        .join(', ');
      parts.push(
        h(
          'div',
          { class: 'empty' },
          h(
            'p',
            {},
            `No results for “${o.params.query}” among ${types}. Try other words, fewer filters, or more result types.`,
          ),
        ),
      );
      this.el.replaceChildren(...parts.filter((p): p is HTMLElement => !!p));
      return;
    }
    this.list = h('ol', { class: 'results', role: 'tree', 'aria-label': 'Search results' });
    o.results.forEach((r, i) => this.list!.append(row(r, i, n)));
    parts.push(this.list);
    this.el.replaceChildren(...parts.filter((p): p is HTMLElement => !!p));
  }
}
