// The Search view in the browser: form, status, results, and the message loop with the extension.
// Messages in are from the extension (trusted, but still shape-checked by type); messages out follow
// src/webview/protocol.ts and are validated again on the other side.
import type { FromWebview, ToWebview, ViewIssue, ViewParams } from '../../src/webview/protocol';
import { byId, h, icon } from './dom';
import {
  activeFilterCount, applyFill, defaultForm, dropRepositoryFilters, followDefaults, formToParams, splitList, TYPE_LABELS, TYPES,
  type FormState, type TriState,
} from './form';
import { renderOutcome, resultTitle, upgradeCard } from './results';
import { restoreState, type ViewState } from './state';

export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

type StrField = 'repos' | 'sources' | 'k' | 'passages' | 'language' | 'topic' | 'license' | 'minStars' | 'maxStars';
/** Form field -> the spec parameter name the client's messages use. */
const FIELD_PARAM: Record<StrField | 'types' | 'archived' | 'fork' | 'skillsOnly' | 'query', string> = {
  query: 'query', types: 'types', repos: 'repos', sources: 'sources', k: 'k', passages: 'passages',
  language: 'language', topic: 'topic', license: 'license', minStars: 'min_stars', maxStars: 'max_stars',
  archived: 'archived', fork: 'fork', skillsOnly: 'skills',
};
const PARAM_FIELDS = Object.values(FIELD_PARAM);

/**
 * Results whose markdown is rendered before the first paint: more than a sidebar shows at once.
 * The rest are rendered as they near the viewport or when the browser is idle, so 100 results
 * with 5 passages each paint as fast as a handful (bench/render.bench.ts).
 */
const EAGER_RESULTS = 6;

let idCounter = 0;
function newId(prefix: string): string {
  idCounter += 1;
  return `${prefix}-${Date.now().toString(36)}-${idCounter}`;
}

function seconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}

export class SearchApp {
  private state: ViewState;
  private workspaceRepos: string[] = [];
  /** From the extension's keyState; undefined until it says (so a restored view shows no stale notice). */
  private hasKey: boolean | undefined;
  private liveValidationId: string | undefined;
  private liveIssues: ViewIssue[] = [];
  private submitIssues: ViewIssue[] = [];
  private validateTimer: ReturnType<typeof setTimeout> | undefined;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private retryWait: { until: number; text: (s: number) => string } | undefined;
  private statusMessage: string | undefined;
  private toastTimer: ReturnType<typeof setTimeout> | undefined;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private observer: IntersectionObserver | undefined;
  private idleHandle: number | undefined;
  private idleSave: number | undefined;
  private readonly el: {
    form: HTMLFormElement; query: HTMLInputElement; cancel: HTMLButtonElement; filters: HTMLDetailsElement;
    filterCount: HTMLElement; wsRepos: HTMLElement; keyless: HTMLElement; notice: HTMLElement; status: HTMLElement; error: HTMLElement;
    generalIssues: HTMLElement; results: HTMLElement; toast: HTMLElement;
  };

  constructor(private readonly root: HTMLElement, private readonly vscode: VsCodeApi) {
    this.state = restoreState(vscode.getState());
    root.replaceChildren(this.skeleton());
    this.el = {
      form: byId(root, 'search-form'), query: byId(root, 'q'), cancel: byId(root, 'cancel'), filters: byId(root, 'filters'),
      filterCount: byId(root, 'filter-count'), wsRepos: byId(root, 'ws-repos'), keyless: byId(root, 'keyless'), notice: byId(root, 'notice'),
      status: byId(root, 'status'), error: byId(root, 'error'), generalIssues: byId(root, 'general-issues'),
      results: byId(root, 'results-region'), toast: byId(root, 'toast'),
    };
  }

  /** Draws the restored state, starts listening, and says ready (nothing is posted to us before). */
  start(win: Window): void {
    this.writeForm();
    this.renderNotice();
    this.renderStatus();
    this.renderResults();
    this.bind(win);
    if (this.state.scrollY) win.requestAnimationFrame(() => win.scrollTo(0, this.state.scrollY ?? 0));
    this.post({ type: 'ready', ...(this.state.pendingRequestId ? { pendingRequestId: this.state.pendingRequestId } : {}) });
  }

  // ---------- skeleton and form ----------

  private skeleton(): DocumentFragment {
    const text = (field: StrField, label: string, placeholder = '', cls = '') => h('div', { class: `field ${cls}` },
      h('label', { for: `f-${field}` }, label),
      h('input', { id: `f-${field}`, type: 'text', 'data-field': field, placeholder, spellcheck: 'false', autocomplete: 'off', 'aria-describedby': `err-${FIELD_PARAM[field]}` }),
      h('div', { id: `err-${FIELD_PARAM[field]}`, class: 'field-error', hidden: true }));
    const triSelect = (field: 'archived' | 'fork', label: string, yes: string, no: string) => h('div', { class: 'field half' },
      h('label', { for: `f-${field}` }, label),
      h('select', { id: `f-${field}`, 'data-field': field, 'aria-describedby': `err-${field}` },
        h('option', { value: 'any' }, 'Any'), h('option', { value: 'yes' }, yes), h('option', { value: 'no' }, no)),
      h('div', { id: `err-${field}`, class: 'field-error', hidden: true }));
    const types = h('fieldset', { class: 'field types', 'aria-describedby': 'err-types' }, h('legend', {}, 'Result types'));
    for (const t of TYPES) {
      types.append(h('label', { class: 'check' }, h('input', { type: 'checkbox', 'data-field': 'types', value: t }), ` ${TYPE_LABELS[t]}`));
    }
    types.append(h('div', { id: 'err-types', class: 'field-error', hidden: true }));

    const frag = document.createDocumentFragment();
    frag.append(
      h('form', { id: 'search-form', class: 'search-form', role: 'search', novalidate: true },
        h('div', { class: 'query-row' },
          h('input', { id: 'q', type: 'search', 'data-field': 'query', 'aria-label': 'Search query', placeholder: 'Ask a question or search…', autocomplete: 'off', 'aria-describedby': 'err-query' }),
          h('button', { type: 'submit', class: 'primary', id: 'run' }, 'Search'),
          h('button', { type: 'button', id: 'cancel', class: 'secondary', hidden: true }, 'Cancel')),
        h('div', { id: 'err-query', class: 'field-error', hidden: true }),
        h('details', { id: 'filters', class: 'filters' },
          h('summary', {}, 'Filters ', h('span', { id: 'filter-count', class: 'badge', hidden: true })),
          h('div', { class: 'filter-grid' },
            types,
            text('repos', 'Repositories (owner/repo, comma separated)', 'e.g. nodejs/node'),
            h('div', { id: 'ws-repos', class: 'ws-repos', hidden: true }),
            text('sources', 'Documentation sources (ids, comma separated)', 'e.g. node-api'),
            text('k', 'Results (k)', '10', 'half'),
            text('passages', 'Passages per result', '1', 'half'),
            text('language', 'Language', 'e.g. TypeScript', 'third'),
            text('topic', 'Topic', 'e.g. http', 'third'),
            text('license', 'License', 'e.g. MIT', 'third'),
            text('minStars', 'Min stars', '', 'half'),
            text('maxStars', 'Max stars', '', 'half'),
            triSelect('archived', 'Archived repositories', 'Only archived', 'Exclude archived'),
            triSelect('fork', 'Forks', 'Only forks', 'Exclude forks'),
            h('div', { class: 'field' },
              h('label', { class: 'check' }, h('input', { id: 'f-skillsOnly', type: 'checkbox', 'data-field': 'skillsOnly', 'aria-describedby': 'err-skills' }), ' Agent-skill files only'),
              h('div', { id: 'err-skills', class: 'field-error', hidden: true })),
            h('div', { class: 'field' }, h('button', { type: 'button', id: 'reset-filters', class: 'secondary' }, 'Reset filters'))))),
      h('div', { id: 'keyless', class: 'keyless', role: 'status', hidden: true },
        icon('key', 'keyless-icon'),
        h('span', { class: 'keyless-text' }, 'Keyless search: no API key is set, so searches run at the lower keyless rate limits.'),
        h('button', { type: 'button', class: 'link-button', 'data-key': 'set' }, 'Set API Key')),
      h('div', { id: 'notice', class: 'notice', role: 'status', hidden: true }),
      h('div', { id: 'status', class: 'status', role: 'status', 'aria-live': 'polite' }),
      h('div', { id: 'error', class: 'error-box', role: 'alert', hidden: true }),
      h('ul', { id: 'general-issues', class: 'general-issues', hidden: true }),
      h('div', { id: 'results-region', class: 'results-region' }),
      h('div', { id: 'toast', class: 'toast', role: 'status', 'aria-live': 'polite', hidden: true }),
    );
    return frag;
  }

  private fieldEl<T extends HTMLElement>(field: string): T {
    return byId<T>(this.root, `f-${field}`);
  }

  private writeForm(): void {
    const f = this.state.form;
    this.el.query.value = f.query;
    for (const key of ['repos', 'sources', 'k', 'passages', 'language', 'topic', 'license', 'minStars', 'maxStars'] as const) {
      this.fieldEl<HTMLInputElement>(key).value = f[key];
    }
    this.fieldEl<HTMLSelectElement>('archived').value = f.archived;
    this.fieldEl<HTMLSelectElement>('fork').value = f.fork;
    this.fieldEl<HTMLInputElement>('skillsOnly').checked = f.skillsOnly;
    for (const cb of this.root.querySelectorAll<HTMLInputElement>('input[data-field="types"]')) cb.checked = f.types.includes(cb.value);
    this.el.filters.open = this.state.filtersOpen;
    this.renderFilterCount();
    this.renderWorkspaceRepos();
    this.renderIssues();
  }

  private readForm(): FormState {
    const v = (key: StrField) => this.fieldEl<HTMLInputElement>(key).value;
    return {
      query: this.el.query.value,
      types: [...this.root.querySelectorAll<HTMLInputElement>('input[data-field="types"]')].filter((c) => c.checked).map((c) => c.value),
      repos: v('repos'), sources: v('sources'), k: v('k'), passages: v('passages'), language: v('language'), topic: v('topic'),
      license: v('license'), minStars: v('minStars'), maxStars: v('maxStars'),
      archived: this.fieldEl<HTMLSelectElement>('archived').value as TriState,
      fork: this.fieldEl<HTMLSelectElement>('fork').value as TriState,
      skillsOnly: this.fieldEl<HTMLInputElement>('skillsOnly').checked,
    };
  }

  private renderFilterCount(): void {
    const n = activeFilterCount(this.state.form, this.state.defaults);
    this.el.filterCount.textContent = n ? String(n) : '';
    this.el.filterCount.hidden = n === 0;
  }

  private renderWorkspaceRepos(): void {
    const present = new Set(splitList(this.state.form.repos));
    const offer = this.workspaceRepos.filter((r) => !present.has(r));
    this.el.wsRepos.replaceChildren(...offer.map((r) =>
      h('button', { type: 'button', class: 'chip', 'data-add-repo': r, title: `Limit the repository half to ${r}` }, `+ ${r}`)));
    this.el.wsRepos.hidden = offer.length === 0;
  }

  /** Inline messages: live validation of the filters, plus what the last submit was refused for. */
  private renderIssues(): void {
    const local = formToParams(this.state.form).issues;
    const all = [...local, ...this.liveIssues.filter((i) => i.field !== 'query'), ...this.submitIssues];
    const byField = new Map<string, string[]>();
    const general: string[] = [];
    for (const i of all) {
      if (!PARAM_FIELDS.includes(i.field)) { general.push(i.message); continue; }
      const list = byField.get(i.field) ?? [];
      if (!list.includes(i.message)) list.push(i.message);
      byField.set(i.field, list);
    }
    for (const param of PARAM_FIELDS) {
      const err = this.root.querySelector<HTMLElement>(`#err-${param}`);
      if (!err) continue;
      const msgs = byField.get(param) ?? [];
      err.textContent = msgs.join(' ');
      err.hidden = msgs.length === 0;
      const field = Object.entries(FIELD_PARAM).find(([, p]) => p === param)?.[0];
      const input = field === 'query' ? this.el.query : field === 'types' ? undefined : this.root.querySelector<HTMLElement>(`#f-${field}`);
      if (input) {
        if (msgs.length) input.setAttribute('aria-invalid', 'true');
        else input.removeAttribute('aria-invalid');
      }
    }
    this.el.generalIssues.replaceChildren(...general.map((m) => h('li', {}, m)));
    this.el.generalIssues.hidden = general.length === 0;
  }

  // ---------- events ----------

  private bind(win: Window): void {
    win.addEventListener('message', (e: MessageEvent) => this.onMessage(e.data));
    this.el.form.addEventListener('submit', (e) => { e.preventDefault(); this.submit(); });
    // Only filter edits are validated as they happen; the query is checked when the search is run.
    const edited = (e: Event) => this.onFormEdited(e.target !== this.el.query);
    this.el.form.addEventListener('input', edited);
    this.el.form.addEventListener('change', edited);
    this.el.cancel.addEventListener('click', () => this.cancel());
    this.el.filters.addEventListener('toggle', () => { this.state.filtersOpen = this.el.filters.open; this.save(); });
    byId(this.root, 'reset-filters').addEventListener('click', () => {
      this.state.form = defaultForm(this.state.defaults, this.state.form.query);
      this.writeForm();
      this.onFormEdited();
    });
    this.el.wsRepos.addEventListener('click', (e) => {
      const repo = (e.target as HTMLElement).closest<HTMLElement>('[data-add-repo]')?.dataset.addRepo;
      if (!repo) return;
      const list = splitList(this.state.form.repos);
      if (!list.includes(repo)) list.push(repo);
      this.fieldEl<HTMLInputElement>('repos').value = list.join(', ');
      this.onFormEdited();
    });
    // Links are never followed in the webview: every click on one becomes an openLink message.
    const intercept = (e: MouseEvent) => {
      const a = (e.target as Element | null)?.closest?.('a');
      if (!a) return;
      e.preventDefault();
      if (e.type === 'click' || e.button === 1) {
        const href = a.getAttribute('href');
        if (href) this.post({ type: 'openLink', url: href });
      }
    };
    this.root.addEventListener('click', intercept);
    this.root.addEventListener('auxclick', intercept);
    this.root.addEventListener('dragstart', (e) => { if ((e.target as Element | null)?.closest?.('a')) e.preventDefault(); });
    this.el.results.addEventListener('click', (e) => this.onResultsClick(e));
    this.el.error.addEventListener('click', (e) => this.onErrorClick(e));
    this.el.keyless.addEventListener('click', (e) => {
      if ((e.target as HTMLElement).closest('[data-key="set"]')) this.post({ type: 'setKey' });
    });
    this.el.results.addEventListener('keydown', (e) => this.onResultsKey(e));
    this.el.query.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowDown' && this.resultItems().length) { e.preventDefault(); this.focusResult(this.state.selected); }
    });
    win.addEventListener('scroll', () => {
      if (this.saveTimer) clearTimeout(this.saveTimer);
      this.saveTimer = setTimeout(() => { this.state.scrollY = Math.round(win.scrollY); this.save(); }, 200);
    }, { passive: true });
  }

  private onFormEdited(validate = true): void {
    this.state.form = this.readForm();
    this.submitIssues = [];
    this.renderFilterCount();
    this.renderWorkspaceRepos();
    this.renderIssues();
    this.save();
    if (!validate) return;
    if (this.validateTimer) clearTimeout(this.validateTimer);
    this.validateTimer = setTimeout(() => this.validateLive(), 250);
  }

  private validateLive(): void {
    const { params, issues } = formToParams(this.state.form);
    if (issues.length) { this.liveIssues = []; this.renderIssues(); return; }
    this.liveValidationId = newId('v');
    this.post({ type: 'validate', requestId: this.liveValidationId, params });
  }

  // ---------- search lifecycle ----------

  /** Runs the form's search. A running search is superseded (the extension cancels it). */
  submit(opts: { keepNotice?: boolean; params?: ViewParams } = {}): void {
    let params = opts.params;
    if (!params) {
      this.state.form = this.readForm();
      const r = formToParams(this.state.form);
      if (r.issues.length) {
        this.submitIssues = r.issues;
        this.renderIssues();
        this.openFiltersFor(r.issues);
        return;
      }
      params = r.params;
    }
    if (!opts.keepNotice) this.state.notice = undefined;
    const requestId = newId('s');
    this.state.pendingRequestId = requestId;
    this.state.lastParams = params;
    this.state.error = undefined;
    this.state.waitUntil = undefined;
    this.retryWait = undefined;
    this.submitIssues = [];
    this.renderIssues();
    this.renderNotice();
    this.renderStatus();
    this.save();
    this.post({ type: 'search', requestId, params });
  }

  private cancel(): void {
    const id = this.state.pendingRequestId;
    if (!id) return;
    this.post({ type: 'cancel', requestId: id });
    this.state.pendingRequestId = undefined;
    this.retryWait = undefined;
    this.renderStatus('Search cancelled.');
    this.save();
  }

  private openFiltersFor(issues: ViewIssue[]): void {
    if (issues.some((i) => i.field !== 'query')) {
      this.el.filters.open = true;
      this.state.filtersOpen = true;
    }
  }

  private onMessage(raw: unknown): void {
    if (!raw || typeof raw !== 'object' || typeof (raw as { type?: unknown }).type !== 'string') return;
    const m = raw as ToWebview;
    const pending = this.state.pendingRequestId;
    switch (m.type) {
      case 'init': {
        const old = this.state.defaults;
        this.state.defaults = m.defaults;
        this.state.form = old ? followDefaults(this.state.form, old, m.defaults) : defaultForm(m.defaults, this.state.form.query);
        this.workspaceRepos = m.workspaceRepos;
        this.writeForm();
        this.save();
        return;
      }
      case 'keyState':
        this.hasKey = m.hasKey === true;
        this.renderKeyState();
        return;
      case 'fill':
        this.state.form = applyFill(this.state.form, m.fill, this.state.defaults);
        this.state.notice = m.fill.notice;
        this.liveIssues = [];
        this.writeForm();
        this.renderNotice();
        if (m.fill.run) this.submit({ keepNotice: true });
        else this.save();
        return;
      case 'validation':
        if (m.requestId === pending) {
          this.state.pendingRequestId = undefined;
          this.submitIssues = m.issues;
          this.openFiltersFor(m.issues);
          this.renderIssues();
          this.renderStatus();
          this.save();
        } else if (m.requestId === this.liveValidationId) {
          this.liveIssues = m.issues;
          this.renderIssues();
        }
        return;
      case 'searchStarted':
        if (m.requestId === pending) this.renderStatus();
        return;
      case 'retrying':
        if (m.requestId !== pending) return;
        this.retryWait = {
          until: Date.now() + m.delayMs,
          text: (s) => `${m.status === 429 ? 'Rate limited' : m.reason}, retrying in ${s} s (attempt ${m.attempt} of ${m.maxAttempts})`,
        };
        this.renderStatus();
        return;
      case 'results':
        if (m.requestId !== pending) return;
        this.state.pendingRequestId = undefined;
        this.state.outcome = m.outcome;
        this.state.error = undefined;
        this.state.selected = 0;
        this.state.scrollY = 0;
        this.retryWait = undefined;
        this.renderStatus();
        this.renderResults();
        // The state now holds every passage: serialise it after the results are on screen, not before.
        this.saveWhenIdle();
        return;
      case 'searchError':
        if (m.requestId !== pending) return;
        this.state.pendingRequestId = undefined;
        this.state.error = m.error;
        this.state.waitUntil = m.error.action === 'wait' && m.error.retryAfterMs !== undefined ? Date.now() + m.error.retryAfterMs : undefined;
        this.retryWait = undefined;
        if (m.error.issues?.length) { this.submitIssues = m.error.issues; this.openFiltersFor(m.error.issues); this.renderIssues(); }
        this.renderStatus();
        this.save();
        return;
      case 'searchCancelled':
        if (m.requestId !== pending) return;
        this.state.pendingRequestId = undefined;
        this.retryWait = undefined;
        this.renderStatus('Search cancelled.');
        this.save();
        return;
      case 'actionDone':
        this.toast(m.message, m.ok);
        return;
    }
  }

  // ---------- rendering ----------

  private renderKeyState(): void {
    this.el.keyless.hidden = this.hasKey !== false;
  }

  private renderNotice(): void {
    this.el.notice.textContent = this.state.notice ?? '';
    this.el.notice.hidden = !this.state.notice;
  }

  private renderStatus(message?: string): void {
    this.statusMessage = message;
    const running = !!this.state.pendingRequestId;
    this.el.cancel.hidden = !running;
    this.el.status.classList.toggle('running', running);
    const now = Date.now();
    if (running) {
      const wait = this.retryWait && this.retryWait.until > now ? this.retryWait.text(seconds(this.retryWait.until - now)) : undefined;
      this.el.status.replaceChildren(h('div', { class: 'progress', 'aria-hidden': 'true' }), h('span', {}, wait ?? 'Searching…'));
    } else {
      this.el.status.replaceChildren(...(message ? [h('span', {}, message)] : []));
    }
    this.renderError(now);
    const counting = (running && this.retryWait && this.retryWait.until > now) || (!running && this.state.waitUntil && this.state.waitUntil > now);
    if (counting && !this.ticker) this.ticker = setInterval(() => this.renderStatus(this.statusMessage), 1000);
    else if (!counting && this.ticker) { clearInterval(this.ticker); this.ticker = undefined; }
  }

  private renderError(now: number): void {
    const err = this.state.error;
    if (!err || this.state.pendingRequestId) { this.el.error.hidden = true; this.el.error.replaceChildren(); return; }
    const actions = h('div', { class: 'error-actions' });
    if (err.action === 'setKey') {
      actions.append(h('button', { type: 'button', class: 'primary', 'data-err': 'setKey' }, icon('key'), ' Set API Key'), h('button', { type: 'button', class: 'secondary', 'data-err': 'retry' }, icon('refresh'), ' Retry'));
    } else if (err.action === 'retry') {
      actions.append(h('button', { type: 'button', class: 'primary', 'data-err': 'retry' }, icon('refresh'), ' Retry'));
    } else if (err.action === 'wait') {
      const left = this.state.waitUntil ? seconds(this.state.waitUntil - now) : 0;
      actions.append(
        h('span', { class: 'countdown' }, left > 0 ? `Rate limited: you can retry in ${left} s` : 'You can retry now'),
        h('button', { type: 'button', class: 'primary', 'data-err': 'retry', disabled: left > 0 }, icon('refresh'), ' Retry'));
    } else if (err.action === 'fix') {
      actions.append(h('button', { type: 'button', class: 'secondary', 'data-err': 'filters' }, 'Show filters'));
    }
    const title = err.status === 401 ? 'The service did not accept the API key'
      : err.status === 429 ? 'Rate limited'
        : err.action === 'retry' ? 'The search failed' : 'The search was refused';
    this.el.error.replaceChildren(h('strong', {}, title), h('p', {}, err.message), ...(actions.childElementCount ? [actions] : []));
    this.el.error.hidden = false;
  }

  private renderResults(): void {
    const o = this.state.outcome;
    if (!o) {
      this.el.results.replaceChildren(h('div', { class: 'empty welcome' },
        h('p', {}, 'Search documentation, issues, pull requests and READMEs from the developer index.'),
        h('p', {}, 'Type a question and press Enter. Use Filters to limit the search to repositories, documentation sources or result types.')));
      return;
    }
    this.stopUpgrades();
    this.el.results.replaceChildren(renderOutcome(o, this.state.selected, Math.max(EAGER_RESULTS, this.state.selected + 1)));
    this.scheduleUpgrades();
  }

  private upgrade(li: HTMLElement): void {
    const r = this.state.outcome?.results[Number(li.dataset.index)];
    if (r) upgradeCard(li, r);
    this.observer?.unobserve(li);
  }

  private scheduleUpgrades(): void {
    const pending = [...this.el.results.querySelectorAll<HTMLElement>('li.result.pending')];
    if (!pending.length) return;
    this.observer = new IntersectionObserver((entries) => {
      for (const e of entries) if (e.isIntersecting) this.upgrade(e.target as HTMLElement);
    }, { rootMargin: '800px 0px' });
    for (const li of pending) this.observer.observe(li);
    const step = (deadline: IdleDeadline) => {
      let li: HTMLElement | null;
      let first = true;
      // At least one card per callback, so a busy page still finishes; more while the frame has time.
      while ((first || deadline.timeRemaining() > 4) && (li = this.el.results.querySelector<HTMLElement>('li.result.pending'))) {
        this.upgrade(li);
        first = false;
      }
      this.idleHandle = this.el.results.querySelector('li.result.pending') ? requestIdleCallback(step, { timeout: 1000 }) : undefined;
    };
    this.idleHandle = requestIdleCallback(step, { timeout: 1000 });
  }

  private stopUpgrades(): void {
    this.observer?.disconnect();
    this.observer = undefined;
    if (this.idleHandle !== undefined) cancelIdleCallback(this.idleHandle);
    this.idleHandle = undefined;
  }

  private toast(message: string, ok: boolean): void {
    this.el.toast.textContent = message;
    this.el.toast.classList.toggle('toast-error', !ok);
    this.el.toast.hidden = false;
    if (this.toastTimer) clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { this.el.toast.hidden = true; }, 3000);
  }

  // ---------- results interaction ----------

  private resultItems(): HTMLElement[] {
    return [...this.el.results.querySelectorAll<HTMLElement>('li.result')];
  }

  private focusResult(index: number): void {
    const items = this.resultItems();
    if (!items.length) return;
    const i = Math.max(0, Math.min(index, items.length - 1));
    items.forEach((el, j) => el.setAttribute('tabindex', j === i ? '0' : '-1'));
    items[i]!.focus();
    items[i]!.scrollIntoView({ block: 'nearest' });
    if (this.state.selected !== i) { this.state.selected = i; this.save(); }
  }

  private onResultsKey(e: KeyboardEvent): void {
    const li = (e.target as HTMLElement).closest<HTMLElement>('li.result');
    if (!li) return;
    const index = Number(li.dataset.index);
    switch (e.key) {
      case 'ArrowDown': e.preventDefault(); this.focusResult(index + 1); return;
      case 'ArrowUp':
        e.preventDefault();
        if (index === 0) this.el.query.focus();
        else this.focusResult(index - 1);
        return;
      case 'Home': e.preventDefault(); this.focusResult(0); return;
      case 'End': e.preventDefault(); this.focusResult(this.resultItems().length - 1); return;
      case 'Enter':
        if (e.target === li) { e.preventDefault(); this.resultAction('open', index); }
        return;
    }
  }

  private onResultsClick(e: MouseEvent): void {
    const target = e.target as HTMLElement;
    const fix = target.closest<HTMLElement>('[data-fix]')?.dataset.fix;
    if (fix) { this.applyFix(fix); return; }
    const btn = target.closest<HTMLElement>('[data-act]');
    const li = target.closest<HTMLElement>('li.result');
    if (li) {
      const index = Number(li.dataset.index);
      if (this.state.selected !== index) {
        this.resultItems().forEach((el, j) => el.setAttribute('tabindex', j === index ? '0' : '-1'));
        this.state.selected = index;
        this.save();
      }
      if (btn?.dataset.act) this.resultAction(btn.dataset.act, index, Number(btn.dataset.p ?? 0));
    }
  }

  private resultAction(act: string, index: number, passage = 0): void {
    const r = this.state.outcome?.results[index];
    if (!r) return;
    const requestId = newId('a');
    switch (act) {
      case 'open': this.post({ type: 'openLink', url: r.url }); return;
      case 'copy-link': this.post({ type: 'copy', requestId, text: r.url }); return;
      case 'copy-passage': if (r.passages[passage] !== undefined) this.post({ type: 'copy', requestId, text: r.passages[passage]! }); return;
      case 'insert-passage': if (r.passages[passage] !== undefined) this.post({ type: 'insert', requestId, text: r.passages[passage]! }); return;
      case 'open-passages': this.post({ type: 'openPassages', requestId, title: resultTitle(r), url: r.url, passages: r.passages }); return;
    }
  }

  /** Rule 6's one-click fixes from the coverage notes. */
  private applyFix(kind: string): void {
    if (kind === 'drop-repo-filters') {
      this.state.form = dropRepositoryFilters(this.readForm());
      this.writeForm();
      this.submit();
    } else if (kind === 'add-sources') {
      this.el.filters.open = true;
      this.state.filtersOpen = true;
      const input = this.fieldEl<HTMLInputElement>('sources');
      input.focus();
      this.toast('Add documentation source ids (comma separated), then search again: documentation is searched only within them while repository filters are set.', true);
      this.save();
    }
  }

  private onErrorClick(e: MouseEvent): void {
    const act = (e.target as HTMLElement).closest<HTMLElement>('[data-err]')?.dataset.err;
    if (act === 'setKey') this.post({ type: 'setKey' });
    else if (act === 'retry') this.submit(this.state.lastParams ? { params: this.state.lastParams } : {});
    else if (act === 'filters') { this.el.filters.open = true; this.state.filtersOpen = true; this.save(); }
  }

  // ---------- plumbing ----------

  private post(m: FromWebview): void {
    this.vscode.postMessage(m);
  }

  private save(): void {
    if (this.idleSave !== undefined) { cancelIdleCallback(this.idleSave); this.idleSave = undefined; }
    this.vscode.setState(this.state);
  }

  private saveWhenIdle(): void {
    if (this.idleSave === undefined) this.idleSave = requestIdleCallback(() => { this.idleSave = undefined; this.save(); }, { timeout: 500 });
  }
}
