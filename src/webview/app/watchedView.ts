// The Watched list of the Search view (saved searches re-run in the background) and the Watch for a Fix button.
// Its state is the extension's (the whole list comes on ready and on every change, so nothing goes to setState);
// it owns its DOM and one timer (the "checked 12 min ago" words), and posts only ids back.
import type { FromWebview, ToWebview, ViewWatch, ViewWatches } from '../protocol';
import { checkedWords } from '../../words/duration';
import { h, icon } from './dom';

type WatchesMessage = Extract<ToWebview, { type: 'watches' }>;

/** The meta line of a watch: its last check, the new results, and what needs the user's eye. */
function watchMeta(w: ViewWatch, now: number): string {
  const parts = [w.checking ? 'checking now…' : checkedWords(w.lastCheck, now), `${w.newCount} new`];
  if (w.fixIncluded) parts.push(`your version includes the fix (${w.fixIncluded})`);
  if (w.vanished?.length) parts.push(`${w.vanished.join(', ')} is no longer in the index`);
  if (w.lastError) parts.push(`last check failed: ${w.lastError}`);
  return parts.join(' · ');
}

export class WatchedView {
  /** Above the results: Watch for a Fix on the search shown. */
  readonly bar = h('div', { class: 'watch-bar', hidden: true });
  /** Below the results: the Watched list. */
  readonly list = h('section', { class: 'watched', 'aria-labelledby': 'watched-heading', hidden: true });
  private data: ViewWatches = { watches: [], max: 50 };
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly post: (m: FromWebview) => void) {
    this.bar.addEventListener('click', (e) => {
      if ((e.target as HTMLElement).closest('[data-watch-add]')) this.post({ type: 'watch' });
    });
    this.list.addEventListener('click', (e) => {
      const b = (e.target as HTMLElement).closest<HTMLElement>('[data-watch-act]');
      const id = b?.closest<HTMLElement>('[data-watch-id]')?.dataset.watchId;
      const act = b?.dataset.watchAct;
      if (id && (act === 'check' || act === 'remove' || act === 'open'))
        this.post({ type: 'watchAction', action: act, id });
    });
  }

  /** A `watches` message from the extension. */
  update(m: WatchesMessage): void {
    this.data = { watches: m.watches, max: m.max, ...(m.canWatch ? { canWatch: m.canWatch } : {}) };
    this.render(Date.now());
    // The relative times move on by the minute while the list is shown.
    if (this.data.watches.length && !this.timer) this.timer = setInterval(() => this.renderTimes(Date.now()), 60_000);
    else if (!this.data.watches.length && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private render(now: number): void {
    const { watches, canWatch, max } = this.data;
    const already = canWatch && watches.some((w) => w.query === canWatch.query && w.scope === canWatch.scope);
    this.bar.hidden = !canWatch;
    this.bar.replaceChildren(
      ...(canWatch
        ? [
            already
              ? h(
                  'span',
                  { class: 'watch-bar-note' },
                  icon('eye'),
                  'Watched: new results are checked for every 6 hours.',
                )
              : h(
                  'button',
                  {
                    type: 'button',
                    class: 'link-button',
                    'data-watch-add': '',
                    disabled: watches.length >= max,
                    'aria-label': `Watch for a Fix: re-run “${canWatch.query}” in ${canWatch.scope} every 6 hours and tell me what is new`,
                    title:
                      watches.length >= max
                        ? `${max} watches are the most kept: remove one first`
                        : 'Re-run this search every 6 hours while VS Code is open and tell me what is new',
                  },
                  icon('eye'),
                  'Watch for a Fix',
                ),
          ]
        : []),
    );
    const focused = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('[data-watch-act]');
    const refocus =
      focused && this.list.contains(focused)
        ? { id: focused.closest<HTMLElement>('[data-watch-id]')?.dataset.watchId, act: focused.dataset.watchAct }
        : undefined;
    this.list.hidden = !watches.length;
    this.list.replaceChildren(
      h('h2', { id: 'watched-heading', class: 'watched-heading' }, icon('eye'), `Watched (${watches.length})`),
      h('ul', { class: 'watched-list' }, ...watches.map((w) => this.item(w, now))),
    );
    // A button re-rendered under the user's focus keeps it (Check Now rebuilds the row twice).
    if (refocus?.id) {
      const row = [...this.list.querySelectorAll<HTMLElement>('[data-watch-id]')].find(
        (el) => el.dataset.watchId === refocus.id,
      );
      (
        row?.querySelector<HTMLElement>(`[data-watch-act="${refocus.act}"]`) ??
        row?.querySelector<HTMLElement>('button')
      )?.focus();
    }
  }

  private item(w: ViewWatch, now: number): HTMLElement {
    const q = `“${w.query.length > 60 ? `${w.query.slice(0, 59)}…` : w.query}”`;
    const attention = !!(w.vanished?.length || w.lastError);
    return h(
      'li',
      { class: `watch-item${w.newCount ? ' has-new' : ''}${attention ? ' attention' : ''}`, 'data-watch-id': w.id },
      h(
        'div',
        { class: 'watch-main' },
        h(
          'button',
          {
            type: 'button',
            class: 'link-button watch-query',
            'data-watch-act': 'open',
            'aria-label': `${w.query}, in ${w.scope}: open this search`,
            title: 'Open this search',
          },
          w.query,
        ),
        w.newCount
          ? h('span', { class: 'watch-new', 'aria-label': `${w.newCount} new` }, String(w.newCount))
          : undefined,
      ),
      h('div', { class: 'watch-scope', title: w.scope }, w.scope),
      h('div', { class: 'watch-meta' }, watchMeta(w, now)),
      h(
        'div',
        { class: 'watch-actions' },
        h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            'data-watch-act': 'check',
            disabled: !!w.checking,
            'aria-label': `Check Now: ${q}`,
          },
          icon(w.checking ? 'loading' : 'refresh', w.checking ? 'codicon-modifier-spin' : ''),
          'Check Now',
        ),
        h(
          'button',
          { type: 'button', class: 'secondary', 'data-watch-act': 'remove', 'aria-label': `Remove the watch ${q}` },
          icon('trash'),
          'Remove',
        ),
      ),
    );
  }

  private renderTimes(now: number): void {
    for (const li of this.list.querySelectorAll<HTMLElement>('[data-watch-id]')) {
      const w = this.data.watches.find((x) => x.id === li.dataset.watchId);
      const meta = li.querySelector('.watch-meta');
      if (w && meta) meta.textContent = watchMeta(w, now);
    }
  }
}
