// The Search view's coordinator: builds the regions, turns DOM events and the extension's messages into
// `reduce` messages, runs the effects (post, focus), saves the state and asks each view to render.
import type { ToWebview } from '../protocol';
import { interceptLinks } from './dom';
import { formToParams } from './form';
import { reduce, type Effect, type Msg } from './reduce';
import { restoreState, savedState, type ViewState } from './state';
import { FormView } from './views/formView';
import { actionMessage } from './views/resultRows';
import { ResultsView } from './views/resultsView';
import { ChipsView, StatusView } from './views/statusView';
import { WatchedView } from './watchedView';

export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

let counter = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`;

export class SearchApp {
  private state: ViewState;
  private readonly form = new FormView();
  private readonly chips = new ChipsView();
  private readonly status = new StatusView();
  private readonly results = new ResultsView();
  private readonly watched: WatchedView;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private minuteTimer: ReturnType<typeof setTimeout> | undefined;
  // The extension side starts from an empty keyless line: only a change from it is reported (never before `ready`).
  private liveTimer: ReturnType<typeof setTimeout> | undefined;
  private saveHandle: number | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly vscode: VsCodeApi,
  ) {
    this.state = restoreState(vscode.getState());
    this.state.formRev += 1;
    const s = this.status;
    this.watched = new WatchedView((m) => vscode.postMessage(m));
    root.replaceChildren(
      this.form.el,
      s.keyless,
      this.chips.el,
      s.notice,
      s.status,
      s.error,
      this.watched.bar,
      this.results.el,
      this.watched.list,
      s.announcer,
    );
  }

  /** Draws the restored state, starts listening, and says ready (nothing is posted to us before). */
  start(win: Window): void {
    this.render();
    this.bind(win);
    if (this.state.scrollY) win.requestAnimationFrame(() => win.scrollTo(0, this.state.scrollY ?? 0));
    // A restored form's filters are the scope a palette search uses until the user changes them.
    const scope = this.state.defaults ? formToParams(this.state.form).params : undefined;
    this.vscode.postMessage({
      type: 'ready',
      ...(this.state.pending ? { pendingRequestId: this.state.pending.requestId } : {}),
      ...(scope ? { scope } : {}),
    });
  }

  dispatch(msg: Msg): void {
    const { state, effects } = reduce(this.state, msg);
    const outcomeChanged = state.outcome !== this.state.outcome;
    this.state = state;
    this.render();
    for (const e of effects) this.run(e);
    // The saved state holds every passage: after a new outcome, and after Expand All or Collapse All
    // (serialising 500 passages in the command's own task made it a long one), it is saved when idle.
    const listWide =
      msg.t === 'ext' && msg.m.type === 'command' && (msg.m.command === 'expandAll' || msg.m.command === 'collapseAll');
    if (outcomeChanged || listWide) this.saveWhenIdle();
    else this.save();
  }

  private run(e: Effect): void {
    if ('post' in e) {
      this.vscode.postMessage(e.post);
      return;
    }
    if ('announce' in e) {
      this.status.announce(e.announce);
      return;
    }
    if (e.focus === 'query') this.form.query.focus();
    else if (e.focus === 'sources') {
      const first =
        this.root.querySelector<HTMLElement>('#source-picker button') ??
        this.root.querySelector<HTMLElement>('#f-sources');
      first?.scrollIntoView({ block: 'nearest' });
      first?.focus();
    } else if (e.focus === 'results') this.focusRow(this.state.selected);
    else this.form.query.blur();
  }

  private render(): void {
    this.form.render(this.state);
    this.chips.render(this.state);
    const counting = this.status.render(this.state, Date.now());
    this.results.render(this.state);
    if (counting && !this.ticker) this.ticker = setInterval(() => this.render(), 1000);
    else if (!counting && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
    // The keyless countdown changes by the minute: one timer to the next change, not a tick a second.
    if (this.minuteTimer) {
      clearTimeout(this.minuteTimer);
      this.minuteTimer = undefined;
    }
    const next = this.status.minuteTick(this.state, Date.now());
    if (next !== undefined)
      this.minuteTimer = setTimeout(() => {
        this.minuteTimer = undefined;
        this.render();
      }, next);
  }

  private focusRow(i: number): void {
    const n = this.results.rows();
    if (!n) return;
    const index = Math.max(0, Math.min(i, n - 1));
    if (index !== this.state.selected) this.dispatch({ t: 'select', index });
    this.results.ensureFilled(index);
    const li = this.results.rowAt(index);
    li?.focus();
    li?.scrollIntoView({ block: 'nearest' });
  }

  private bind(win: Window): void {
    win.addEventListener('message', (e: MessageEvent) => {
      const m = e.data as ToWebview | undefined;
      if (m?.type === 'watches') this.watched.update(m);
      else if (m && typeof m === 'object' && typeof m.type === 'string')
        this.dispatch({ t: 'ext', m, now: Date.now() });
    });
    const f = this.form.el;
    f.addEventListener('submit', (e) => {
      e.preventDefault();
      this.dispatch({ t: 'edit', form: this.form.read() });
      this.dispatch({ t: 'submit', requestId: newId('s') });
    });
    const edited = (e: Event) => {
      this.dispatch({ t: 'edit', form: this.form.read() });
      // Filters are validated (and the scope told to the extension) as they change; the query when run.
      if (e.target === this.form.query) return;
      if (this.liveTimer) clearTimeout(this.liveTimer);
      this.liveTimer = setTimeout(() => this.dispatch({ t: 'liveValidate', requestId: newId('v') }), 250);
    };
    f.addEventListener('input', edited);
    f.addEventListener('change', edited);
    this.form.query.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        this.dispatch({ t: 'escape' });
      } else if (e.key === 'ArrowDown' && this.results.rows()) {
        e.preventDefault();
        this.focusRow(this.state.selected);
      }
    });
    this.root.addEventListener('click', (e) => this.onClick(e));
    interceptLinks(this.root, (url) => this.vscode.postMessage({ type: 'openLink', url }));
    this.results.el.addEventListener('keydown', (e) => this.onResultsKey(e));
    win.addEventListener(
      'scroll',
      () => {
        this.state = reduce(this.state, { t: 'scroll', y: Math.round(win.scrollY) }).state;
        this.saveWhenIdle();
      },
      { passive: true },
    );
  }

  private onClick(e: MouseEvent): void {
    const t = e.target as HTMLElement;
    if (t.closest('a')) return;
    const data = (sel: string, key: string) => t.closest<HTMLElement>(sel)?.dataset[key];
    const requestId = newId('s');
    if (t.closest('#cancel')) return this.dispatch({ t: 'cancel' });
    if (t.closest('#filters-toggle')) return this.dispatch({ t: 'toggleFilters' });
    if (t.closest('#clear-filters')) return this.dispatch({ t: 'clearFilters', requestId, run: false });
    if (t.closest('[data-clear-all]')) return this.dispatch({ t: 'clearFilters', requestId, run: true });
    const chip = data('[data-chip]', 'chip');
    if (chip) return this.dispatch({ t: 'removeChip', id: chip, requestId });
    const repo = data('[data-add-repo]', 'addRepo');
    if (repo) return this.dispatch({ t: 'addRepo', repo });
    const source = data('[data-source]', 'source');
    if (source) return this.dispatch({ t: 'toggleSource', id: source });
    const fix = data('[data-fix]', 'fix');
    if (fix) return this.dispatch({ t: 'fix', kind: fix, requestId });
    if (t.closest('[data-key="set"]')) return this.vscode.postMessage({ type: 'setKey' });
    // Get a Key: the link goes back to the extension, which checks it again and opens it (never followed here).
    const signupUrl = this.state.keylessQuota?.signupUrl ?? this.state.error?.keyless?.signupUrl;
    if (t.closest('[data-key="get"]') && signupUrl) return this.vscode.postMessage({ type: 'getKey', url: signupUrl });
    const err = data('[data-err]', 'err');
    if (err === 'setKey') return this.vscode.postMessage({ type: 'setKey' });
    if (err === 'getKey' && signupUrl) return this.vscode.postMessage({ type: 'getKey', url: signupUrl });
    if (err === 'diagnose') return this.vscode.postMessage({ type: 'diagnose' });
    if (err === 'retry' || err === 'keyless')
      return this.dispatch({ t: 'retry', requestId, keyless: err === 'keyless' });
    if (err === 'filters') return this.dispatch({ t: 'toggleFilters', open: true });
    const li = t.closest<HTMLElement>('li.row');
    if (!li) return;
    const index = Number(li.dataset.index);
    const act = t.closest<HTMLElement>('[data-act]');
    if (act) {
      this.dispatch({ t: 'select', index });
      const r = this.state.outcome?.results[index];
      const m = r && actionMessage(act.dataset.act!, r, Number(act.dataset.p ?? 0));
      if (m) this.vscode.postMessage(m);
      return;
    }
    if (t.closest('.row-passages')) {
      this.dispatch({ t: 'select', index });
      return;
    }
    this.dispatch({ t: 'expand', index, open: 'toggle' });
  }

  private onResultsKey(e: KeyboardEvent): void {
    const li = (e.target as HTMLElement).closest<HTMLElement>('li.row');
    if (!li) return;
    // Inside a row (an action, a passage, a link): Escape goes back to the row, the tree's one tab stop.
    if (e.target !== li) {
      if (e.key === 'Escape') {
        e.preventDefault();
        this.focusRow(Number(li.dataset.index));
      }
      return;
    }
    const index = Number(li.dataset.index);
    const keys: Record<string, () => void> = {
      ArrowDown: () => this.focusRow(index + 1),
      ArrowUp: () => (index === 0 ? this.form.query.focus() : this.focusRow(index - 1)),
      Home: () => this.focusRow(0),
      End: () => this.focusRow(this.results.rows() - 1),
      Enter: () => this.dispatch({ t: 'expand', index, open: 'toggle' }),
      ' ': () => this.dispatch({ t: 'expand', index, open: 'toggle' }),
      ArrowRight: () => this.dispatch({ t: 'expand', index, open: true }),
      ArrowLeft: () => this.dispatch({ t: 'expand', index, open: false }),
      Escape: () => this.form.query.focus(),
    };
    const fn = keys[e.key];
    if (fn) {
      e.preventDefault();
      fn();
    }
  }

  private save(): void {
    if (this.saveHandle !== undefined) {
      cancelIdleCallback(this.saveHandle);
      this.saveHandle = undefined;
    }
    this.vscode.setState(savedState(this.state));
  }

  /** Results hold every passage: serialised when the browser is idle, after they are on screen. */
  private saveWhenIdle(): void {
    if (this.saveHandle === undefined)
      this.saveHandle = requestIdleCallback(
        () => {
          this.saveHandle = undefined;
          this.save();
        },
        { timeout: 500 },
      );
  }
}
