// A failure as data, computed once for search and agent calls alike: one reason, one next step, and from when trying
// again can help. Every surface words it from this (src/words/failureWords.ts); nothing else reads an error's kind
// or status to decide what to say. Read by shape, so editor code needs no client import; no vscode, no zod.
import { type AgentErrorReason, reasonOf, statusReason } from './agent/agentReasons';
import type { ParamIssue } from './params';
import { signupLink } from './notices';

/**
 * Why a call failed. The agent reasons (stamped by AgentClient on every error it throws) plus what
 * only a search meets: the keyless refusals, a key that cannot be sent, a refused connection, a redirect,
 * and `unexpected` (an error that is not the client's own).
 */
export type FailureReason =
  | AgentErrorReason
  | 'keyless-quota'
  | 'keyless-refused'
  | 'invalid-key'
  | 'insecure-transport'
  | 'redirect'
  | 'unexpected';

/**
 * What the user can do: set (or replace) the key, fix the call's input, wait until `until`, retry now,
 * diagnose the connection, refresh what is shown, start again (a new job), or nothing that would help.
 */
export type NextStep = 'set-key' | 'fix-input' | 'wait' | 'retry' | 'diagnose' | 'refresh' | 'start-again' | 'none';

export const NEXT_STEPS: readonly NextStep[] = [
  'set-key',
  'fix-input',
  'wait',
  'retry',
  'diagnose',
  'refresh',
  'start-again',
  'none',
];

export interface Failure {
  reason: FailureReason;
  next: NextStep;
  /** The client's message (it never holds the key); every surface may quote it. */
  message: string;
  /** Epoch ms from when trying again can help (a Retry-After, a quota's reset); absent when unknown. */
  until?: number;
  /** Whether `until` is the service's own reset time (a keyless quota, a wait beyond the client's ceiling) or now plus the Retry-After. */
  untilFrom?: 'reset' | 'retry-after';
  /** The wait the service asked for, in ms. */
  retryAfterMs?: number;
  /** The client's error kind (`http`, `network`, …) and the HTTP status, when there was one. */
  kind?: string;
  status?: number;
  /** The service's own `error` text, as it came (redacted by the client). */
  error?: string;
  /** Input errors: every field with its bound, as the validator worded it. */
  issues?: ParamIssue[];
  /** A 400 whose details named the fields (the message lists them). */
  serviceNamedFields?: true;
  /** The `External-Request-Id` of the failed request. */
  requestId?: string;
  /** Keyless quota: what is used up. */
  quota?: 'requests' | 'credits';
  /** Keyless refusals: the service's own link to create a key (checked again here: it came from the network). */
  signupUrl?: string;
  /** A busy thread: the run that is still going. */
  runId?: string;
}

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  kind?: unknown;
  status?: unknown;
  error?: unknown;
  retryAfterMs?: unknown;
  resetAt?: unknown;
  issues?: unknown;
  details?: unknown;
  requestId?: unknown;
  quota?: unknown;
  signupUrl?: unknown;
  runId?: unknown;
}

const KINDS: ReadonlySet<string> = new Set([
  'http',
  'network',
  'timeout',
  'aborted',
  'invalid-response',
  'validation',
  'response-too-large',
  'retry-after-too-long',
  'invalid-key',
  'insecure-transport',
  'redirect',
  'keyless-quota',
  'keyless-refused',
]);

/** The reason of an error no AgentClient stamped: from its kind and status alone (search, the doctor, the watcher). */
function classify(kind: string | undefined, status: number | undefined, name: unknown): FailureReason {
  if (kind === undefined) return name === 'AbortError' ? 'cancelled' : 'unexpected';
  switch (kind) {
    case 'aborted':
      return 'cancelled';
    case 'timeout':
      return 'timeout';
    case 'network':
      return 'network';
    case 'invalid-response':
    case 'response-too-large':
      return 'invalid-response';
    case 'validation':
      return 'invalid-input';
    case 'retry-after-too-long':
      return 'rate-limit';
    case 'keyless-quota':
    case 'keyless-refused':
    case 'invalid-key':
    case 'insecure-transport':
    case 'redirect':
      return kind;
    default:
      // 408: the service timed out waiting on its side.
      return status === 408 ? 'service' : statusReason(status);
  }
}

/** Waits with a known end say `wait`; a rate limit without one says `retry` (after a moment). */
const waitOrRetry = (f: Omit<Failure, 'next'>): NextStep =>
  f.kind === 'retry-after-too-long' || f.retryAfterMs !== undefined ? 'wait' : 'retry';

/** The next step per reason: the one rule every surface follows. */
const NEXT: Record<FailureReason, NextStep | ((f: Omit<Failure, 'next'>) => NextStep)> = {
  'job-may-exist': 'refresh',
  'not-created': waitOrRetry,
  'invalid-input': 'fix-input',
  'invalid-job-id': 'fix-input',
  'invalid-snapshot-id': 'fix-input',
  'invalid-schema': 'fix-input',
  'blocked-url': 'fix-input',
  'snapshot-not-found': 'fix-input',
  'no-trace': 'none',
  'no-snapshots': 'none',
  'no-job-list': 'none',
  'zero-data-retention': 'none',
  'not-found': 'none',
  'already-finished': 'refresh',
  'already-cancelled': 'refresh',
  'exchange-not-enabled': 'refresh',
  auth: 'set-key',
  payment: 'none',
  forbidden: 'none',
  'rate-limit': waitOrRetry,
  cancelled: 'none',
  timeout: 'diagnose',
  network: 'diagnose',
  service: 'retry',
  'invalid-response': 'retry',
  other: 'none',
  'thread-not-found': 'start-again',
  'thread-busy': 'wait',
  'thread-expired': 'start-again',
  'threads-disabled': 'start-again',
  // The run still waits: what is shown again is the terms as they are now, to agree to again.
  'terms-not-accepted': 'refresh',
  'key-unverified': 'none',
  'key-required': 'set-key',
  'keyless-quota': 'set-key',
  'keyless-refused': 'set-key',
  // A key that cannot be sent: replacing it is the way out. A connection the client refuses, or a redirect: the
  // diagnosis names the setting.
  'invalid-key': 'set-key',
  'insecure-transport': 'diagnose',
  redirect: 'diagnose',
  unexpected: 'retry',
};

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** Any thrown value as a Failure. `now` turns a Retry-After into `until`. */
export function failureOf(e: unknown, now = Date.now()): Failure {
  const err = (e !== null && typeof e === 'object' ? e : {}) as ErrorLike;
  const kind = typeof err.kind === 'string' && KINDS.has(err.kind) ? err.kind : undefined;
  const status = num(err.status);
  // A stamped `other` defers to the kind: a key that cannot be sent is the same failure on every call.
  const stamped = reasonOf(e);
  const reason: FailureReason =
    stamped !== undefined && stamped !== 'other' ? stamped : classify(kind, status, err.name);
  const retryAfterMs = num(err.retryAfterMs);
  const resetAt = num(err.resetAt);
  const until = resetAt ?? (retryAfterMs !== undefined ? now + retryAfterMs : undefined);
  const issues = Array.isArray(err.issues)
    ? (err.issues as ParamIssue[]).map((i) => ({ field: String(i.field), message: String(i.message) }))
    : undefined;
  const signupUrl = signupLink(err.signupUrl);
  const f: Omit<Failure, 'next'> = {
    reason,
    message: str(err.message) ?? String(e),
    ...(until !== undefined
      ? { until, untilFrom: resetAt !== undefined ? ('reset' as const) : ('retry-after' as const) }
      : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(kind !== undefined ? { kind } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(str(err.error) !== undefined ? { error: str(err.error) } : {}),
    ...(issues ? { issues } : {}),
    ...(Array.isArray(err.details) && err.details.length > 0 ? { serviceNamedFields: true as const } : {}),
    ...(str(err.requestId) !== undefined ? { requestId: str(err.requestId) } : {}),
    ...(err.quota === 'requests' || err.quota === 'credits' ? { quota: err.quota } : {}),
    ...(signupUrl ? { signupUrl } : {}),
    ...(str(err.runId) !== undefined ? { runId: str(err.runId) } : {}),
  };
  const next = NEXT[reason];
  return { ...f, next: typeof next === 'string' ? next : next(f) };
}
