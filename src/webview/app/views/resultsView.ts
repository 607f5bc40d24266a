// The results region: a summary naming the query and its scope, the coverage lines, and a compact list whose rows
// expand to their passages. Rows are built once per outcome; expanding, selecting and dimming touch only those rows.
import type { SearchOutcome } from '../../../search/session/outcome';
import { requestedTypes } from '../../../api/params';
import { scopePhrase, TYPE_LABELS } from '../../../search/scope';
import { h, icon } from '../dom';
import type { ViewState } from '../state';
import { addBadges, coverageLines, fillPassages, passagesBox, row, rowActions } from './resultRows';

/** Less than the height a row's line of badges adds (media/webview.css, `.row-versions`: about 21 px). */
const BADGE_LINE_PX = 16;

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
  /** The frame that adds the badges of the rows below the first screen (see build). */
  private badgeFrame: number | undefined;

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
    if (this.badgeFrame !== undefined) cancelAnimationFrame(this.badgeFrame);
    this.badgeFrame = undefined;
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
    // Only the rows on the first screen get their version badges before the first paint; the rest a frame after
    // it. Badges off screen still cost that paint (content-visibility does not spare their first style and
    // layout): building thirty rows' badges made it a fifth slower (npm run bench, versions). Names carry them.
    o.results.forEach((r, i) => this.list!.append(row(r, i, n)));
    parts.push(this.list);
    this.el.replaceChildren(...parts.filter((p): p is HTMLElement => !!p));
    const rows = [...this.list.querySelectorAll<HTMLElement>(':scope > .row')];
    if (!o.results.some((r) => r.versions?.length)) return;
    // Every position read before any write: one layout, of rows not rendered yet (content-visibility gives them
    // the stylesheet's 58 px, about a plain row's height). Each badged row pushes those below it down by at least
    // BADGE_LINE_PX, so the rows counted here include all that the first screen shows with their badges.
    const bottom = this.el.ownerDocument.defaultView?.innerHeight ?? 0;
    let pushed = 0;
    const shown = rows.map((li, i) => {
      const b = li.getBoundingClientRect();
      const on = b.bottom + pushed > 0 && b.top + pushed < bottom;
      if (on && o.results[i]!.versions?.length) pushed += BADGE_LINE_PX;
      return on;
    });
    rows.forEach((li, i) => shown[i] && addBadges(li, o.results[i]!));
    if (shown.every(Boolean)) return;
    this.badgeFrame = requestAnimationFrame(() => {
      this.badgeFrame = requestAnimationFrame(() => {
        this.badgeFrame = undefined;
        rows.forEach((li, i) => addBadges(li, o.results[i]!));
      });
    });
  }
}
