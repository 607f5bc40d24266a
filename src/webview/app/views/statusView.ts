// Between the form and the results: the chip row (the search's scope, each filter removable), the
// keyless line, a notice, what is running, and what went wrong with its next steps.
import { h, icon } from '../dom';
import { chipsOf } from '../reduce';
import type { ViewState } from '../state';
import { errorTitle, keylessQuotaLine } from '../words';

function seconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}

export class ChipsView {
  readonly el = h('div', { id: 'chips', class: 'chips', hidden: true });
  // A list holds list items only (axe: aria-required-children): Clear all sits beside it, not in it.
  private readonly list = h('span', { class: 'chip-list', role: 'list', 'aria-label': 'Search scope' });
  private readonly clear = h(
    'button',
    { type: 'button', class: 'link-button chips-clear', 'data-clear-all': '' },
    'Clear all',
  );
  private last = '';

  constructor() {
    this.el.append(this.list, this.clear);
  }

  render(s: ViewState): void {
    const chips = chipsOf(s);
    const key = JSON.stringify(chips);
    if (key === this.last) return;
    this.last = key;
    this.list.replaceChildren(
      ...chips.map((c) =>
        h(
          'span',
          { class: 'chip', role: 'listitem', 'data-chip-id': c.id, title: c.label },
          icon(c.icon, 'chip-icon'),
          h('span', { class: 'chip-label' }, c.label),
          h(
            'button',
            {
              type: 'button',
              class: 'chip-remove',
              'data-chip': c.id,
              'aria-label': `Remove filter ${c.label}`,
              title: 'Remove this filter and search again',
            },
            icon('close'),
          ),
        ),
      ),
    );
    this.el.hidden = chips.length === 0;
  }
}

export class StatusView {
  readonly keyless = h(
    'div',
    {
      id: 'keyless',
      class: 'keyless',
      role: 'status',
      hidden: true,
      title: 'No API key is set, so searches run at the lower keyless rate limits.',
    },
    icon('key', 'keyless-icon'),
    h('span', { class: 'keyless-text' }, 'Keyless: lower rate limits.'),
    // The service's own link to create a key, first, while the keyless quota is used up and the service sent one.
    h(
      'button',
      {
        type: 'button',
        class: 'link-button',
        'data-key': 'get',
        hidden: true,
        title: "Open the service's page to create your API key",
      },
      'Get a Key',
    ),
    h('button', { type: 'button', class: 'link-button', 'data-key': 'set' }, 'Set API Key'),
  );
  readonly notice = h('div', { id: 'notice', class: 'notice', role: 'status', hidden: true });
  // Not live: its countdown changes every second. What a screen reader hears comes from `announcer`.
  readonly status = h('div', { id: 'status', class: 'status' });
  // Not an alert either: the announcer says the error once, in the same words as the box's heading and message.
  readonly error = h('div', { id: 'error', class: 'error-box', hidden: true });
  /**
   * The one live region for what a search came to: "10 results", an error, "Results cleared".
   * Each announcement replaces the one before (a new node, so the same words twice are said twice);
   * renders never touch it, so nothing is repeated.
   */
  readonly announcer = h('div', {
    id: 'announce',
    class: 'visually-hidden',
    role: 'status',
    'aria-live': 'polite',
    'aria-atomic': 'true',
  });

  announce(text: string): void {
    this.announcer.replaceChildren(h('span', {}, text));
  }

  /** Milliseconds until the keyless countdown shows another minute; undefined when it is not counting. */
  minuteTick(s: ViewState, now: number): number | undefined {
    const q = s.keylessQuota;
    if (!q || s.hasKey !== false || q.resetAt <= now) return undefined;
    const left = q.resetAt - now;
    return (left % 60_000) + 50;
  }

  private renderKeyless(s: ViewState, now: number): void {
    this.keyless.hidden = s.hasKey !== false;
    const q = s.keylessQuota && s.keylessQuota.resetAt > now - 60_000 ? s.keylessQuota : undefined;
    const text = q ? keylessQuotaLine(q.resetAt, now, q.quota) : 'Keyless: lower rate limits.';
    const span = this.keyless.querySelector('.keyless-text')!;
    if (span.textContent !== text) span.textContent = text;
    this.keyless.classList.toggle('keyless-used-up', !!q);
    this.keyless.title = q
      ? 'The daily keyless quota of this network is used up. Searches with an API key are not limited by it.'
      : 'No API key is set, so searches run at the lower keyless rate limits.';
    // The countdown changes each minute: said once by the error box, not announced on every tick.
    this.keyless.setAttribute('aria-live', q ? 'off' : 'polite');
    const icon = this.keyless.querySelector('.keyless-icon');
    if (icon) icon.className = `codicon codicon-${q ? 'watch' : 'key'} keyless-icon`;
    const get = this.keyless.querySelector<HTMLElement>('[data-key="get"]');
    if (get) get.hidden = !q?.signupUrl;
    this.keyless.classList.toggle('keyless-get', !!q?.signupUrl);
  }

  /** True while a countdown needs a tick every second. */
  render(s: ViewState, now: number): boolean {
    this.renderKeyless(s, now);
    this.notice.textContent = s.notice ?? '';
    this.notice.hidden = !s.notice;
    const running = !!s.pending;
    this.status.classList.toggle('running', running);
    if (running) {
      const r = s.retry && s.retry.until > now ? s.retry : undefined;
      const wait = r
        ? `${r.status === 429 ? 'Rate limited' : r.reason}, retrying in ${seconds(r.until - now)} s (attempt ${r.attempt} of ${r.maxAttempts})`
        : undefined;
      this.status.replaceChildren(
        h('div', { class: 'progress', 'aria-hidden': 'true' }),
        h('span', {}, wait ?? 'Searching…'),
      );
    } else {
      this.status.replaceChildren(...(s.status ? [h('span', {}, s.status)] : []));
    }
    this.renderError(s, now);
    return (running && !!s.retry && s.retry.until > now) || (!running && !!s.waitUntil && s.waitUntil > now);
  }

  /** The error the box was built for (JSON), so that a render with the same error keeps its nodes. */
  private errorShown = '';

  /**
   * The error box. It is built once per error: a render for anything else (a filter validated as it is
   * typed, a timer, a message) keeps its buttons, so a click in progress is not lost and a keyboard user's
   * focus stays on the button. Only a wait's countdown and its Retry button's state change in place.
   */
  private renderError(s: ViewState, now: number): void {
    const err = s.error;
    // A refusal by the client shows at the fields, in the form's words; no box repeats it.
    if (!err || s.pending || (err.action === 'fix' && err.issues?.length)) {
      this.error.hidden = true;
      this.error.replaceChildren();
      this.errorShown = '';
      return;
    }
    const key = JSON.stringify(err);
    if (key !== this.errorShown) {
      this.errorShown = key;
      const actions = h('div', { class: 'error-actions' });
      const button = (act: string, label: string, iconName: string, primary = false) =>
        h(
          'button',
          { type: 'button', class: primary ? 'primary' : 'secondary', 'data-err': act },
          icon(iconName),
          label,
        );
      if (err.keyless) {
        // Keyless already: a key is the one way out (never "Search Without Key", never a retry countdown);
        // the service's own link to create one comes first when it sent one.
        if (err.keyless.signupUrl)
          actions.append(button('getKey', 'Get a Key', 'link-external', true), button('setKey', 'Set API Key', 'key'));
        else actions.append(button('setKey', 'Set API Key', 'key', true));
      } else if (err.action === 'setKey') {
        actions.append(button('setKey', 'Set API Key', 'key', true), button('keyless', 'Search Without Key', 'search'));
      } else if (err.action === 'retry') {
        actions.append(button('retry', 'Retry', 'refresh', true));
        if (err.diagnose) actions.append(button('diagnose', 'Diagnose Connection', 'pulse'));
      } else if (err.action === 'wait') {
        actions.append(h('span', { class: 'countdown' }), button('retry', 'Retry', 'refresh', true));
      } else if (err.action === 'fix') {
        actions.append(button('filters', 'Show filters', 'filter'));
      }
      this.error.replaceChildren(
        h('strong', {}, errorTitle(err)),
        h('p', {}, err.message),
        ...(actions.childElementCount ? [actions] : []),
      );
    }
    // Only a wait's box has a countdown (built above).
    const countdown = this.error.querySelector('.countdown');
    if (countdown) {
      const left = s.waitUntil ? seconds(s.waitUntil - now) : 0;
      const text = left > 0 ? `You can retry in ${left} s` : 'You can retry now';
      if (countdown.textContent !== text) countdown.textContent = text;
      const retry = this.error.querySelector<HTMLButtonElement>('[data-err="retry"]');
      if (retry) retry.disabled = left > 0;
    }
    this.error.hidden = false;
  }
}
