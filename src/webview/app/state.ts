// What the view holds. The saved part (getState/setState) comes back from the editor's storage, so it is checked
// field by field before it is trusted: a field that fails, or a state of another version, costs that field only,
// and the typed query is kept whenever it is a string.
import type { ParamIssue, SearchParams } from '../../api/params';
import type { SearchOutcome } from '../../search/session/outcome';
import type { InstalledDependency } from '../../versions/versionCompare';
import type { ViewError } from '../../words/viewWords';
import type { ViewDefaults } from '../protocol';
import { defaultForm, FORM_TEXT_FIELDS, type FormState, type TriState } from './form';

export const STATE_VERSION = 2;

export interface ViewState {
  v: number;
  form: FormState;
  /** Bumped when the form is set by anything but typing (a command's search, a chip, a fix): the inputs are rewritten. */
  formRev: number;
  filtersOpen: boolean;
  /** Defaults from the extension; undefined until the first init (the form then takes them). */
  defaults?: ViewDefaults;
  outcome?: SearchOutcome;
  /** The outcome is not for the search the view shows (that one failed, was refused or cancelled): dimmed. */
  stale: boolean;
  error?: ViewError;
  /** Why the last search was not sent or was refused, by field (client's or the form's words). */
  issues: ParamIssue[];
  /** The params of the last search sent, for Retry and Refresh. */
  lastParams?: SearchParams;
  /** The search in flight: asked about again on ready after a reload. */
  pending?: { requestId: string; params: SearchParams };
  /** Index of the focused result, and the expanded ones. */
  selected: number;
  expanded: number[];
  notice?: string;
  /** Epoch ms until which a 429 asks us to wait before retrying. */
  waitUntil?: number;
  /** The daily keyless quota is used up until `resetAt` (epoch ms): the keyless line counts down to it. */
  keylessQuota?: { resetAt: number; quota?: 'requests' | 'credits'; signupUrl?: string };
  /** Documentation source ids used or confirmed: true indexed, false not indexed, null not checked yet. */
  sources: Record<string, boolean | null>;
  scrollY?: number;
  /** The dependencies (installed versions) of the search the view shows: the chip says the version. */
  installed?: InstalledDependency[];

  // ---- not saved: the extension sends them again at ready ----
  hasKey?: boolean;
  workspaceRepos: string[];
  liveIssues: ParamIssue[];
  /** The live validation request whose answer is awaited. */
  liveIssuesFor?: string;
  retry?: { until: number; attempt: number; maxAttempts: number; reason: string; status?: number };
  status?: string;
}

const RUNTIME_KEYS = ['hasKey', 'workspaceRepos', 'liveIssues', 'liveIssuesFor', 'retry', 'status'] as const;

export function freshState(): ViewState {
  return {
    v: STATE_VERSION,
    form: defaultForm(undefined),
    formRev: 0,
    filtersOpen: false,
    stale: false,
    issues: [],
    selected: 0,
    expanded: [],
    sources: {},
    workspaceRepos: [],
    liveIssues: [],
  };
}

/** The part of the state worth saving. */
export function savedState(s: ViewState): Partial<ViewState> {
  const out: Record<string, unknown> = { ...s };
  for (const k of RUNTIME_KEYS) delete out[k];
  return out as Partial<ViewState>;
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isStrArr = (v: unknown): v is string[] => Array.isArray(v) && v.every(isStr);
const isTri = (v: unknown): v is TriState => v === 'any' || v === 'yes' || v === 'no';
const isNat = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const MAX_FIELD = 20_000;

/** Each field on its own: a bad one falls back to its default, the others (the query first) stay. */
function restoreForm(raw: unknown): FormState {
  const f = defaultForm(undefined);
  if (!isObj(raw)) return f;
  for (const k of ['query', ...FORM_TEXT_FIELDS] as const)
    if (isStr(raw[k]) && raw[k].length <= MAX_FIELD) f[k] = raw[k];
  if (isStrArr(raw.types) && raw.types.length <= 16) f.types = raw.types;
  if (isTri(raw.archived)) f.archived = raw.archived;
  if (isTri(raw.fork)) f.fork = raw.fork;
  if (typeof raw.skillsOnly === 'boolean') f.skillsOnly = raw.skillsOnly;
  return f;
}

function isParams(v: unknown): v is SearchParams {
  return isObj(v) && isStr(v.query);
}

function isOutcome(v: unknown): v is SearchOutcome {
  return (
    isObj(v) &&
    isParams(v.params) &&
    Array.isArray(v.results) &&
    v.results.every(
      (r) =>
        isObj(r) &&
        isStr(r.id) &&
        isStr(r.type) &&
        isStr(r.url) &&
        isStr(r.provenance) &&
        Array.isArray(r.passages) &&
        r.passages.every((p) => isObj(p) && isStr(p.text) && (p.link === undefined || isStr(p.link))) &&
        (r.title === undefined || isStr(r.title)) &&
        (r.license === undefined || isStr(r.license)),
    ) &&
    isObj(v.coverage) &&
    Array.isArray(v.notes) &&
    v.notes.every((n) => isObj(n) && isStr(n.text)) &&
    typeof v.ms === 'number'
  );
}

function isError(v: unknown): v is ViewError {
  return isObj(v) && isStr(v.message) && ['setKey', 'retry', 'wait', 'fix', 'none'].includes(v.action as string);
}

function isIssues(v: unknown): v is ParamIssue[] {
  return Array.isArray(v) && v.length <= 50 && v.every((i) => isObj(i) && isStr(i.field) && isStr(i.message));
}

/**
 * The stored state, field by field: whatever is valid is kept (also from another version's state),
 * whatever is not falls back to a fresh value. Never throws.
 */
export function restoreState(raw: unknown): ViewState {
  const s = freshState();
  if (!isObj(raw)) return s;
  s.form = restoreForm(raw.form);
  s.filtersOpen = raw.filtersOpen === true;
  const d = raw.defaults;
  if (isObj(d) && isNat(d.k) && isNat(d.passages) && isStrArr(d.types))
    s.defaults = { k: d.k, passages: d.passages, types: d.types };
  if (isOutcome(raw.outcome)) s.outcome = raw.outcome;
  s.stale = s.outcome !== undefined && raw.stale === true;
  if (isError(raw.error)) s.error = raw.error;
  if (isIssues(raw.issues)) s.issues = raw.issues;
  if (isParams(raw.lastParams)) s.lastParams = raw.lastParams;
  const p = raw.pending;
  if (isObj(p) && isStr(p.requestId) && p.requestId.length <= 64 && isParams(p.params))
    s.pending = { requestId: p.requestId, params: p.params };
  if (isNat(raw.selected)) s.selected = raw.selected;
  if (Array.isArray(raw.expanded) && raw.expanded.every(isNat)) s.expanded = raw.expanded.slice(0, 200);
  if (isStr(raw.notice)) s.notice = raw.notice;
  if (typeof raw.waitUntil === 'number' && Number.isFinite(raw.waitUntil)) s.waitUntil = raw.waitUntil;
  const kq = raw.keylessQuota;
  if (isObj(kq) && typeof kq.resetAt === 'number' && Number.isFinite(kq.resetAt)) {
    s.keylessQuota = {
      resetAt: kq.resetAt,
      ...(kq.quota === 'requests' || kq.quota === 'credits' ? { quota: kq.quota } : {}),
      // The extension checks it again before opening it (signupLink): here only its shape.
      ...(isStr(kq.signupUrl) && kq.signupUrl.length <= 2048 && kq.signupUrl.startsWith('https://')
        ? { signupUrl: kq.signupUrl }
        : {}),
    };
  }
  if (isObj(raw.sources)) {
    for (const [k, v] of Object.entries(raw.sources).slice(0, 200))
      if (k.length <= 512 && (v === true || v === false || v === null)) s.sources[k] = v;
  }
  if (typeof raw.scrollY === 'number' && Number.isFinite(raw.scrollY) && raw.scrollY >= 0) s.scrollY = raw.scrollY;
  if (
    Array.isArray(raw.installed) &&
    raw.installed.length <= 20 &&
    raw.installed.every(
      (d) =>
        isObj(d) &&
        isStr(d.slug) &&
        isStr(d.name) &&
        isStr(d.ecosystem) &&
        (d.version === undefined || isStr(d.version)),
    )
  ) {
    s.installed = raw.installed as InstalledDependency[];
  }
  return s;
}
