// The Search view's rules as one pure function: `reduce(state, msg)` gives the next state and the
// effects to run (messages to post, focus to move). Every input goes through it: what the user does
// and what the extension sends. Request ids and the clock come in with the message, so it stays pure.
import type { FromWebview, SearchParams, ToWebview } from '../protocol';
import { installedChipLabel } from '../../words/viewWords';
import { scopeChips, withoutChip } from '../../search/scope';
import {
  defaultForm,
  dropRepositoryFilters,
  followDefaults,
  formToParams,
  paramsToForm,
  splitList,
  type FormState,
} from './form';
import type { ViewState } from './state';
import { errorAnnouncement, issuesAnnouncement, resultsAnnouncement } from './words';

export type Msg =
  | { t: 'ext'; m: ToWebview; now: number }
  /** The user typed in the form (query or filters). */
  | { t: 'edit'; form: FormState }
  | { t: 'submit'; requestId: string }
  /** Retry the last search; `keyless`: without the key (the 401 box). */
  | { t: 'retry'; requestId: string; keyless?: boolean }
  | { t: 'cancel' }
  | { t: 'escape' }
  | { t: 'removeChip'; id: string; requestId: string }
  | { t: 'clearFilters'; requestId: string; run: boolean }
  | { t: 'toggleFilters'; open?: boolean }
  | { t: 'addRepo'; repo: string }
  | { t: 'toggleSource'; id: string }
  | { t: 'chooseSources' }
  | { t: 'select'; index: number }
  | { t: 'expand'; index: number; open: boolean | 'toggle' }
  | { t: 'fix'; kind: string; requestId: string }
  | { t: 'liveValidate'; requestId: string }
  | { t: 'scroll'; y: number };

export type Effect =
  | { post: FromWebview }
  | { focus: 'query' | 'sources' | 'results' | 'blur' }
  /** Said once through the live region (a finished search, an error, a cleared list). */
  | { announce: string };

export interface Step {
  state: ViewState;
  effects: Effect[];
}

function scopeOf(s: ViewState): SearchParams {
  return formToParams(s.form).params;
}

/** Sends `params` as a new search (an empty query does nothing but focus the box). */
function startSearch(
  s: ViewState,
  params: SearchParams,
  requestId: string,
  opts: { keyless?: boolean; keepNotice?: boolean } = {},
): Step {
  if (!params.query.trim()) return { state: { ...s, issues: [] }, effects: [{ focus: 'query' }] };
  const next: ViewState = {
    ...s,
    pending: { requestId, params },
    lastParams: params,
    error: undefined,
    issues: [],
    waitUntil: undefined,
    retry: undefined,
    status: undefined,
    notice: opts.keepNotice ? s.notice : undefined,
  };
  return {
    state: next,
    effects: [{ post: { type: 'search', requestId, params, ...(opts.keyless ? { keyless: true as const } : {}) } }],
  };
}

/** Submits the form: refused locally (text where a number goes) or sent. */
function submitForm(s: ViewState, requestId: string): Step {
  const r = formToParams(s.form);
  if (!r.params.query) return { state: { ...s, issues: [] }, effects: [{ focus: 'query' }] };
  if (r.issues.length) {
    // A refused search must not leave the previous results looking like its results.
    return {
      state: { ...s, issues: r.issues, filtersOpen: true, stale: !!s.outcome, error: undefined, pending: undefined },
      effects: [{ announce: issuesAnnouncement(r.issues) }],
    };
  }
  return startSearch(s, r.params, requestId);
}

function withForm(s: ViewState, form: FormState): ViewState {
  return { ...s, form, formRev: s.formRev + 1, liveIssues: [] };
}

function scopePost(s: ViewState): Effect {
  return { post: { type: 'scope', params: scopeOf(s) } };
}

function onExtension(s: ViewState, m: ToWebview, now: number): Step {
  const pending = s.pending?.requestId;
  switch (m.type) {
    case 'init': {
      const form = s.defaults ? followDefaults(s.form, s.defaults, m.defaults) : defaultForm(m.defaults, s.form.query);
      const next = { ...withForm(s, form), defaults: m.defaults, workspaceRepos: m.workspaceRepos };
      return { state: next, effects: [scopePost(next)] };
    }
    case 'keyState': {
      if (m.hasKey !== true) return { state: { ...s, hasKey: false }, effects: [] };
      // With a key the keyless quota and keyless refusals no longer apply: the line and their error go.
      const keylessError = s.error?.keyless !== undefined;
      return {
        state: {
          ...s,
          hasKey: true,
          keylessQuota: undefined,
          ...(keylessError ? { error: undefined, status: 'API key set: search again to use it.' } : {}),
        },
        effects: [],
      };
    }
    case 'validation':
      if (m.requestId !== s.liveIssuesFor) return { state: s, effects: [] };
      return { state: { ...s, liveIssues: m.issues }, effects: [] };
    case 'searchStarted': {
      if (m.requestId === pending)
        return {
          state: { ...s, pending: { requestId: m.requestId, params: m.params }, installed: m.installed },
          effects: [],
        };
      // A search the extension started (palette, selection, repository, history): the form and the
      // chip row show exactly what it sends.
      const next: ViewState = {
        ...withForm(s, paramsToForm(m.params, s.defaults)),
        pending: { requestId: m.requestId, params: m.params },
        lastParams: m.params,
        error: undefined,
        issues: [],
        waitUntil: undefined,
        retry: undefined,
        status: undefined,
        notice: m.notice,
        installed: m.installed,
      };
      // The view tells the extension what its form and chip row now show.
      return { state: next, effects: [scopePost(next)] };
    }
    case 'retrying':
      if (m.requestId !== pending) return { state: s, effects: [] };
      return {
        state: {
          ...s,
          retry: {
            until: now + m.delayMs,
            attempt: m.attempt,
            maxAttempts: m.maxAttempts,
            reason: m.reason,
            ...(m.status !== undefined ? { status: m.status } : {}),
          },
        },
        effects: [],
      };
    case 'results': {
      if (m.requestId !== pending) return { state: s, effects: [] };
      const sources = { ...s.sources };
      for (const id of m.outcome.params.sources ?? []) if (!(id in sources)) sources[id] = null;
      for (const e of m.outcome.sources ?? []) sources[e.source] = e.indexed;
      return {
        // A search that went through: whatever the quota said before, it is not used up now.
        state: {
          ...s,
          pending: undefined,
          outcome: m.outcome,
          stale: false,
          error: undefined,
          issues: [],
          selected: 0,
          expanded: [],
          scrollY: 0,
          retry: undefined,
          status: undefined,
          sources,
          keylessQuota: undefined,
        },
        effects: [{ announce: resultsAnnouncement(m.outcome.results.length) }],
      };
    }
    case 'searchError': {
      if (m.requestId !== pending) return { state: s, effects: [] };
      const issues = m.error.issues ?? [];
      return {
        state: {
          ...s,
          pending: undefined,
          error: m.error,
          issues,
          stale: !!s.outcome,
          retry: undefined,
          waitUntil:
            m.error.action === 'wait' && m.error.retryAfterMs !== undefined ? now + m.error.retryAfterMs : undefined,
          keylessQuota:
            m.error.keyless?.kind === 'quota'
              ? {
                  resetAt: m.error.keyless.resetAt,
                  ...(m.error.keyless.quota ? { quota: m.error.keyless.quota } : {}),
                  ...(m.error.keyless.signupUrl ? { signupUrl: m.error.keyless.signupUrl } : {}),
                }
              : s.keylessQuota,
          filtersOpen: s.filtersOpen || issues.some((i) => i.field !== 'query'),
        },
        effects: [{ announce: errorAnnouncement(m.error) }],
      };
    }
    case 'searchCancelled':
      if (m.requestId !== pending) return { state: s, effects: [] };
      return {
        state: { ...s, pending: undefined, retry: undefined, status: 'Search cancelled.', stale: !!s.outcome },
        effects: [{ announce: 'Search cancelled' }],
      };
    case 'watches':
      // The Watched list keeps its own state (views/watchedView.ts).
      return { state: s, effects: [] };
    case 'command':
      switch (m.command) {
        case 'clear': {
          const next: ViewState = {
            ...withForm(s, { ...s.form, query: '' }),
            outcome: undefined,
            stale: false,
            error: undefined,
            issues: [],
            notice: undefined,
            status: undefined,
            expanded: [],
            selected: 0,
          };
          return {
            state: next,
            effects: [{ focus: 'query' }, ...(s.outcome ? [{ announce: 'Results cleared' }] : [])],
          };
        }
        case 'refresh':
          return s.lastParams
            ? startSearch(s, s.lastParams, `r-${now.toString(36)}`)
            : { state: s, effects: [{ focus: 'query' }] };
        case 'expandAll':
          return { state: { ...s, expanded: (s.outcome?.results ?? []).map((_, i) => i) }, effects: [] };
        case 'collapseAll':
          return { state: { ...s, expanded: [] }, effects: [] };
      }
      return { state: s, effects: [] };
  }
  return { state: s, effects: [] };
}

/** The next state and the effects of one message. */
export function reduce(s: ViewState, msg: Msg): Step {
  switch (msg.t) {
    case 'ext':
      return onExtension(s, msg.m, msg.now);
    case 'edit': {
      const next = { ...s, form: msg.form, issues: [] };
      return { state: next, effects: [] };
    }
    case 'liveValidate': {
      const r = formToParams(s.form);
      const effects: Effect[] = [scopePost(s)];
      if (r.issues.length) return { state: { ...s, liveIssues: [], liveIssuesFor: undefined }, effects };
      effects.push({ post: { type: 'validate', requestId: msg.requestId, params: r.params } });
      return { state: { ...s, liveIssuesFor: msg.requestId }, effects };
    }
    case 'submit':
      return submitForm(s, msg.requestId);
    case 'retry':
      return s.lastParams
        ? startSearch(s, s.lastParams, msg.requestId, msg.keyless ? { keyless: true } : {})
        : submitForm(s, msg.requestId);
    case 'cancel': {
      if (!s.pending) return { state: s, effects: [] };
      return {
        state: { ...s, pending: undefined, retry: undefined, status: 'Search cancelled.', stale: !!s.outcome },
        effects: [{ post: { type: 'cancel', requestId: s.pending.requestId } }, { announce: 'Search cancelled' }],
      };
    }
    case 'escape':
      // VS Code's Search: Escape never erases the query. It cancels a running search, else leaves the box.
      if (s.pending) return reduce(s, { t: 'cancel' });
      return { state: s, effects: [{ focus: s.outcome?.results.length ? 'results' : 'blur' }] };
    case 'removeChip': {
      const params = withoutChip(scopeOf(s), msg.id, s.defaults);
      const next = withForm(s, {
        ...paramsToForm(params, s.defaults),
        k: s.form.k,
        passages: s.form.passages,
        query: s.form.query,
      });
      const run = next.form.query.trim() ? submitForm(next, msg.requestId) : { state: next, effects: [] as Effect[] };
      return { state: run.state, effects: [scopePost(run.state), ...run.effects] };
    }
    case 'clearFilters': {
      // Every filter back to the settings' defaults (k and passages included); the query stays.
      const next = withForm(s, defaultForm(s.defaults, s.form.query));
      const run =
        msg.run && next.form.query.trim() ? submitForm(next, msg.requestId) : { state: next, effects: [] as Effect[] };
      return { state: run.state, effects: [scopePost(run.state), ...run.effects] };
    }
    case 'toggleFilters':
      return { state: { ...s, filtersOpen: msg.open ?? !s.filtersOpen }, effects: [] };
    case 'addRepo': {
      const list = splitList(s.form.repos);
      if (!list.includes(msg.repo)) list.push(msg.repo);
      const next = withForm(s, { ...s.form, repos: list.join(', ') });
      return { state: next, effects: [scopePost(next)] };
    }
    case 'toggleSource': {
      const list = splitList(s.form.sources);
      const at = list.indexOf(msg.id);
      if (at >= 0) list.splice(at, 1);
      else list.push(msg.id);
      const next = withForm(s, { ...s.form, sources: list.join(', ') });
      return { state: next, effects: [scopePost(next)] };
    }
    case 'chooseSources':
      return { state: { ...s, filtersOpen: true }, effects: [{ focus: 'sources' }] };
    case 'select':
      return { state: { ...s, selected: msg.index }, effects: [] };
    case 'expand': {
      const has = s.expanded.includes(msg.index);
      const open = msg.open === 'toggle' ? !has : msg.open;
      if (open === has) return { state: { ...s, selected: msg.index }, effects: [] };
      const expanded = open ? [...s.expanded, msg.index] : s.expanded.filter((i) => i !== msg.index);
      return { state: { ...s, expanded, selected: msg.index }, effects: [] };
    }
    case 'fix':
      if (msg.kind === 'drop-repo-filters')
        return submitForm(withForm(s, dropRepositoryFilters(s.form)), msg.requestId);
      if (msg.kind === 'add-sources') return reduce(s, { t: 'chooseSources' });
      return { state: s, effects: [] };
    case 'scroll':
      return { state: { ...s, scrollY: msg.y }, effects: [] };
  }
  return { state: s, effects: [] };
}

/** The chips the view shows: the filters the next search sends that differ from the defaults. */
/** The scope's chips; a repository chip of a dependency-scoped search says the installed version (`acme/widgets · 2.0.3 installed`). */
export function chipsOf(s: ViewState) {
  return scopeChips(scopeOf(s), s.defaults).map((c) => {
    const d = c.id.startsWith('repos:')
      ? s.installed?.find((x) => `repos:${x.slug}`.toLowerCase() === c.id.toLowerCase())
      : undefined;
    return d ? { ...c, label: installedChipLabel(d), icon: 'package' } : c;
  });
}
