// The Search view's table of the failure words (src/words/failureWords.ts has the CLI's, the editor's and a model's):
// its own module so that dist/core.js, which shows the view, holds only this table. No vscode import.
import type { Failure } from '../api/failure';
import type { ParamIssue } from '../api/params';

/** What the user can do next about a failed search. */
type ErrorAction = 'setKey' | 'retry' | 'wait' | 'fix' | 'none';

/** A failed search as the Search view shows it: the message and the next step it offers. */
export interface ViewError {
  message: string;
  action: ErrorAction;
  status?: number;
  /** For action 'wait': how long until a retry may succeed (429 with Retry-After). */
  retryAfterMs?: number;
  issues?: ParamIssue[];
  /** A network, TLS, proxy or timeout failure: the view offers Diagnose Connection. */
  diagnose?: boolean;
  /**
   * A keyless search refused for keyless reasons: `quota`, the daily keyless quota is used up until
   * `resetAt` (epoch ms; `quota` says whether requests or credits); `refused`, keyless access is refused
   * for this network. Either way an API key is the way out; `signupUrl` (checked) is the service's own link to create one.
   */
  keyless?:
    | { kind: 'quota'; resetAt: number; quota?: 'requests' | 'credits'; signupUrl?: string }
    | { kind: 'refused'; signupUrl?: string };
}

const VIEW_ACTIONS: Record<Failure['next'], ErrorAction> = {
  'set-key': 'setKey',
  'fix-input': 'fix',
  wait: 'wait',
  retry: 'retry',
  diagnose: 'retry',
  refresh: 'retry',
  'start-again': 'retry',
  none: 'none',
};

/**
 * The Search view's error for a failed search (cancelled searches are not errors: the caller checks
 * `f.reason === 'cancelled'` first). The action is the failure's next step; a network failure also
 * offers Diagnose Connection; a keyless refusal says which, and until when.
 */
export function viewError(f: Failure): ViewError {
  const base = { message: f.message, ...(f.status !== undefined ? { status: f.status } : {}) };
  const signup = f.signupUrl ? { signupUrl: f.signupUrl } : {};
  const action = VIEW_ACTIONS[f.next];
  switch (f.reason) {
    case 'keyless-quota':
      return {
        ...base,
        action,
        ...(f.until !== undefined && f.untilFrom === 'reset'
          ? { keyless: { kind: 'quota', resetAt: f.until, ...(f.quota ? { quota: f.quota } : {}), ...signup } }
          : {}),
      };
    case 'keyless-refused':
      return { ...base, action, keyless: { kind: 'refused', ...signup } };
    default:
      return {
        ...base,
        action,
        ...(f.kind === 'validation' ? { issues: f.issues ?? [] } : {}),
        ...(action === 'wait' && f.retryAfterMs !== undefined ? { retryAfterMs: f.retryAfterMs } : {}),
        ...(f.next === 'diagnose' ? { diagnose: true } : {}),
      };
  }
}

/** The chip of a dependency-scoped search: `acme/widgets · 2.0.3 installed`, or `acme/widgets · version unknown`. */
export function installedChipLabel(dep: { slug: string; version?: string }): string {
  return `${dep.slug} · ${dep.version ? `${dep.version} installed` : 'version unknown'}`;
}
