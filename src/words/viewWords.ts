// The Search view's table of the failure words (src/words/failureWords.ts has the CLI's, the editor's and a model's):
// its own module so that dist/core.js, which shows the view, holds only this table. No vscode import.
import type { Failure } from '../api/failure';
import type { ErrorAction, ViewError } from '../webview/protocol';

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
