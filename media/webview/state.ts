// What the view remembers across hide/show and window reloads (vscode getState/setState). The stored
// value comes back from the editor's storage, so it is checked field by field before it is trusted.
import type { ViewDefaults, ViewError, ViewOutcome, ViewParams } from '../../src/webview/protocol';
import { defaultForm, type FormState, type TriState } from './form';

export const STATE_VERSION = 1;

export interface ViewState {
  v: typeof STATE_VERSION;
  form: FormState;
  filtersOpen: boolean;
  /** Defaults from the extension; undefined until the first init (the form then takes them). */
  defaults?: ViewDefaults;
  outcome?: ViewOutcome;
  error?: ViewError;
  /** The params of the last search sent, for Retry. */
  lastParams?: ViewParams;
  /** A search that was running when the view went away: asked about again on ready. */
  pendingRequestId?: string;
  /** Index of the focused result, for keyboard navigation after a restore. */
  selected: number;
  notice?: string;
  /** Epoch ms until which a 429 asks us to wait before retrying. */
  waitUntil?: number;
  scrollY?: number;
}

export function freshState(): ViewState {
  return { v: STATE_VERSION, form: defaultForm(undefined), filtersOpen: false, selected: 0 };
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isStrArr = (v: unknown): v is string[] => Array.isArray(v) && v.every(isStr);
const isTri = (v: unknown): v is TriState => v === 'any' || v === 'yes' || v === 'no';

function restoreForm(raw: unknown): FormState | undefined {
  if (!isObj(raw)) return undefined;
  const f = defaultForm(undefined);
  const strKeys = ['query', 'repos', 'sources', 'k', 'passages', 'language', 'topic', 'license', 'minStars', 'maxStars'] as const;
  for (const k of strKeys) {
    if (!isStr(raw[k])) return undefined;
    f[k] = raw[k] as string;
  }
  if (!isStrArr(raw.types) || !isTri(raw.archived) || !isTri(raw.fork) || typeof raw.skillsOnly !== 'boolean') return undefined;
  f.types = raw.types;
  f.archived = raw.archived;
  f.fork = raw.fork;
  f.skillsOnly = raw.skillsOnly;
  return f;
}

function isOutcome(v: unknown): v is ViewOutcome {
  return isObj(v) && isObj(v.params) && isStr(v.params.query) && Array.isArray(v.results)
    && v.results.every((r) => isObj(r) && isStr(r.id) && isStr(r.type) && isStr(r.url) && isStr(r.host) && isStrArr(r.passages) && (r.title === undefined || isStr(r.title)))
    && isObj(v.coverage) && Array.isArray(v.notes) && typeof v.ms === 'number';
}

function isError(v: unknown): v is ViewError {
  return isObj(v) && isStr(v.message) && ['setKey', 'retry', 'wait', 'fix', 'none'].includes(v.action as string);
}

/** The stored state if it is one this build wrote, else a fresh one; a damaged part is dropped alone. */
export function restoreState(raw: unknown): ViewState {
  const s = freshState();
  if (!isObj(raw) || raw.v !== STATE_VERSION) return s;
  const form = restoreForm(raw.form);
  if (form) s.form = form;
  s.filtersOpen = raw.filtersOpen === true;
  if (isObj(raw.defaults) && typeof raw.defaults.k === 'number' && typeof raw.defaults.passages === 'number' && isStrArr(raw.defaults.types)) {
    s.defaults = { k: raw.defaults.k, passages: raw.defaults.passages, types: raw.defaults.types };
  }
  if (isOutcome(raw.outcome)) s.outcome = raw.outcome;
  if (isError(raw.error)) s.error = raw.error;
  if (isObj(raw.lastParams) && isStr(raw.lastParams.query)) s.lastParams = raw.lastParams as unknown as ViewParams;
  if (isStr(raw.pendingRequestId) && raw.pendingRequestId.length <= 64) s.pendingRequestId = raw.pendingRequestId;
  if (typeof raw.selected === 'number' && Number.isInteger(raw.selected) && raw.selected >= 0) s.selected = raw.selected;
  if (isStr(raw.notice)) s.notice = raw.notice;
  if (typeof raw.waitUntil === 'number' && Number.isFinite(raw.waitUntil)) s.waitUntil = raw.waitUntil;
  if (typeof raw.scrollY === 'number' && Number.isFinite(raw.scrollY) && raw.scrollY >= 0) s.scrollY = raw.scrollY;
  return s;
}
