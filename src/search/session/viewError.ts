// An ApiError (or anything thrown) as the message and next step the Search view offers (moved here as it was
// from src/webview/searchController.ts; the chat participant uses its action too). Editor-free.
import type { ParamIssue } from '../../api/params';
import { signupLink } from '../../api/notices';
import type { ViewError } from '../../webview/protocol';

interface ApiErrorLike { kind?: unknown; status?: unknown; message?: unknown; retryAfterMs?: unknown; issues?: unknown; name?: unknown; resetAt?: unknown; quota?: unknown; signupUrl?: unknown }

/** An ApiError (or anything thrown) as a message plus the next step the view offers. */
export function toViewError(e: unknown): ViewError | 'aborted' {
  const err = (e && typeof e === 'object' ? e : {}) as ApiErrorLike;
  const message = typeof err.message === 'string' && err.message ? err.message : String(e);
  const status = typeof err.status === 'number' ? err.status : undefined;
  const retryAfterMs = typeof err.retryAfterMs === 'number' ? err.retryAfterMs : undefined;
  const base = { message, ...(status !== undefined ? { status } : {}) };
  if (err.kind === 'aborted' || err.name === 'AbortError') return 'aborted';
  // The service's own link to create a key (checked again: it came from the network).
  const signupUrl = signupLink(err.signupUrl);
  const signup = signupUrl ? { signupUrl } : {};
  switch (err.kind) {
    case 'keyless-quota': {
      // The way out is a key, not waiting: never a retry countdown for a day-long wait.
      const resetAt = typeof err.resetAt === 'number' && Number.isFinite(err.resetAt) ? err.resetAt : undefined;
      const quota = err.quota === 'requests' || err.quota === 'credits' ? err.quota : undefined;
      return { ...base, action: 'setKey', ...(resetAt !== undefined ? { keyless: { kind: 'quota', resetAt, ...(quota ? { quota } : {}), ...signup } } : {}) };
    }
    case 'keyless-refused':
      return { ...base, action: 'setKey', keyless: { kind: 'refused', ...signup } };
    case 'validation': {
      const issues = Array.isArray(err.issues) ? (err.issues as ParamIssue[]).map((i) => ({ field: String(i.field), message: String(i.message) })) : [];
      return { ...base, action: 'fix', issues };
    }
    case 'retry-after-too-long':
      return { ...base, action: 'wait', ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
    case 'network': case 'timeout':
      // Unreachable, proxy, certificate or silence: the diagnosis says which setting is wrong.
      return { ...base, action: 'retry', diagnose: true };
    case 'invalid-response': case 'response-too-large':
      return { ...base, action: 'retry' };
    case 'http':
      if (status === 401) return { ...base, action: 'setKey' };
      if (status === 429) return retryAfterMs !== undefined ? { ...base, action: 'wait', retryAfterMs } : { ...base, action: 'retry' };
      if (status === 400) return { ...base, action: 'fix' };
      if (status === 408 || (status !== undefined && status >= 500)) return { ...base, action: 'retry' };
      return { ...base, action: 'none' };
    default:
      return { ...base, action: 'retry' };
  }
}
