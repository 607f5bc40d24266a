// What the store keeps about a job, and how it is persisted (globalState in the editor, a Map in
// tests). Trace events themselves are not persisted: they are re-read on demand; what survives a
// reload is how far the trace had been read and how the run ended.
import { isTerminalStatus } from '../api/agent/agentConstants';
import type { RunFacts, TraceProgress } from '../agentRun/runState';
import { isWaiting } from '../agentRun/approval';

export type { TraceProgress };

/** A job as the editor keeps it: what the run engine knows about the run, plus the editor's own facts. */
export interface AgentJob extends RunFacts {
  id: string;
  prompt: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Started from this editor, or found in the service's job list. */
  origin: 'user' | 'service';
  urls?: string[];
  notFound?: boolean;
  /** The service answered 404 after `expiresAt`: only what is kept locally is left. */
  expired?: boolean;
  /** What is kept in this editor's storage (see KeptResult), so it still opens after expiry. */
  kept?: { result: boolean; partial: boolean; answer?: boolean };
  /** A failure that stopped polling (key rejected, no permission...); cleared by Refresh. */
  pollError?: string;
  /** The end-of-run notification has been shown (so a reload does not show it again). */
  notified?: boolean;
}

/** Where jobs are kept: the shared records' storage (globalState in the editor, a Map in tests). */

/** The format-1 list of every job under one key (read once and moved into one record per job). */
export const STORAGE_KEY = 'devIndex.agent.jobs';
/** One key per kept result: `devIndex.agent.result/<jobId>`. */
export const RESULT_KEY_PREFIX = 'devIndex.agent.result/';
/** Results larger than this (as JSON text) are not kept locally; they can be opened until the job expires. */
export const MAX_KEPT_RESULT_CHARS = 2 * 1024 * 1024;

/** A finished job's result and partial result as the service last gave them, kept until the job is removed. */
export interface KeptResult {
  jobId: string;
  status: string;
  data?: unknown;
  partial?: unknown;
  /** A chat run's answer (markdown): the record's `message`. */
  message?: string;
  error?: string;
  creditsUsed?: number;
  expiresAt?: string;
  /** Epoch ms. */
  savedAt: number;
}

export function readKeptResult(raw: unknown, jobId: string): KeptResult | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  if (r.jobId !== jobId || typeof r.status !== 'string' || typeof r.savedAt !== 'number') return undefined;
  return {
    jobId,
    status: r.status,
    data: r.data,
    partial: r.partial,
    savedAt: r.savedAt,
    error: typeof r.error === 'string' ? r.error : undefined,
    message: typeof r.message === 'string' ? r.message : undefined,
    creditsUsed: typeof r.creditsUsed === 'number' ? r.creditsUsed : undefined,
    expiresAt: typeof r.expiresAt === 'string' ? r.expiresAt : undefined,
  };
}
const FORMAT = 1;

interface PersistedJobs {
  format: number;
  jobs: AgentJob[];
  removed: string[];
}

export function serializeJobs(jobs: Iterable<AgentJob>, removed: Iterable<string>): PersistedJobs {
  return { format: FORMAT, jobs: [...jobs].map((j) => ({ ...j, trace: { ...j.trace } })), removed: [...removed] };
}

/** Reads what an earlier session stored; anything malformed is dropped rather than trusted. */
export function deserializeJobs(raw: unknown): { jobs: AgentJob[]; removed: string[] } {
  if (raw === null || typeof raw !== 'object') return { jobs: [], removed: [] };
  const o = raw as Partial<PersistedJobs>;
  if (o.format !== FORMAT) return { jobs: [], removed: [] };
  const jobs = Array.isArray(o.jobs) ? o.jobs.map(readJob).filter((j): j is AgentJob => j !== undefined) : [];
  const removed = Array.isArray(o.removed) ? o.removed.filter((x): x is string => typeof x === 'string') : [];
  return { jobs, removed };
}

/** One job as stored; anything malformed is dropped rather than trusted. */
export function readJob(v: unknown): AgentJob | undefined {
  if (v === null || typeof v !== 'object') return undefined;
  const j = v as Record<string, unknown>;
  if (typeof j.id !== 'string' || typeof j.status !== 'string') return undefined;
  const s = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);
  const n = (x: unknown): number | undefined => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);
  const b = (x: unknown): boolean | undefined => (typeof x === 'boolean' ? x : undefined);
  const t = (j.trace ?? {}) as Record<string, unknown>;
  return {
    id: j.id,
    prompt: s(j.prompt) ?? '',
    createdAt: n(j.createdAt) ?? 0,
    origin: j.origin === 'service' ? 'service' : 'user',
    status: j.status,
    model: s(j.model),
    effort: s(j.effort),
    urls: Array.isArray(j.urls) ? j.urls.filter((u): u is string => typeof u === 'string') : undefined,
    maxCredits: n(j.maxCredits),
    creditsUsed: n(j.creditsUsed),
    outcome: s(j.outcome),
    errorCode: s(j.errorCode),
    error: s(j.error),
    notFound: b(j.notFound),
    expiresAt: s(j.expiresAt),
    expired: b(j.expired),
    finalRead: b(j.finalRead),
    hasPartial: b(j.hasPartial),
    kept: readKept(j.kept),
    threadId: s(j.threadId),
    threadTurn: n(j.threadTurn),
    mode: s(j.mode),
    suggestions: readSuggestions(j.suggestions),
    pendingApproval: readPendingApproval(j.pendingApproval),
    exchange: readExchange(j.exchange),
    cancelRequested: b(j.cancelRequested),
    pollError: s(j.pollError),
    notified: b(j.notified),
    trace: {
      eventCount: n(t.eventCount) ?? 0,
      lastEventId: s(t.lastEventId),
      lastEventAt: s(t.lastEventAt),
      finished: t.finished === true,
      unavailable: b(t.unavailable),
    },
  };
}

function readKept(v: unknown): AgentJob['kept'] {
  if (v === null || typeof v !== 'object') return undefined;
  const k = v as Record<string, unknown>;
  return { result: k.result === true, partial: k.partial === true, ...(k.answer === true ? { answer: true } : {}) };
}

const MAX_SUGGESTIONS = 10;
const MAX_SUGGESTION_CHARS = 2_000;

/** The service's follow-up suggestions as stored: strings only, a few, each bounded. */
function readSuggestions(v: unknown): AgentJob['suggestions'] {
  if (!Array.isArray(v)) return undefined;
  const out = v
    .flatMap((x: unknown) => {
      if (x === null || typeof x !== 'object') return [];
      const r = x as Record<string, unknown>;
      if (typeof r.prompt !== 'string' || !r.prompt.trim()) return [];
      return [
        {
          prompt: r.prompt.slice(0, MAX_SUGGESTION_CHARS),
          ...(typeof r.label === 'string' && r.label ? { label: r.label.slice(0, 200) } : {}),
        },
      ];
    })
    .slice(0, MAX_SUGGESTIONS);
  return out.length ? out : undefined;
}

/**
 * A stored pending approval. What is stored is the wire schema's own output (PendingApprovalSchema in
 * agentSchemas.ts), so this only checks it is still that shape and drops what is not (zod stays out of
 * the activation bundle). Records kept before 0.2 carry the id as `approvalId`, calls as
 * `{ id, name, arguments }` and one `terms` object: they are read into today's shape, so a job waiting
 * across the update still waits.
 */
function readPendingApproval(v: unknown): AgentJob['pendingApproval'] {
  if (v === null || typeof v !== 'object') return undefined;
  const p = v as Record<string, unknown>;
  const id = str(p.id) ?? str(p.approvalId);
  if (!id) return undefined;
  const calls = Array.isArray(p.calls)
    ? recordsOf(p.calls, (r) => {
        const est = r.creditsEstimate;
        // Before 0.2 a call was `{ id, name: 'provider.capability', arguments }`.
        return {
          id: str(r.id),
          provider: str(r.provider),
          capability: str(r.capability) ?? str(r.name),
          ...(r.input !== undefined ? { input: r.input } : r.arguments !== undefined ? { input: r.arguments } : {}),
          ...(typeof est === 'number' || est === null ? { creditsEstimate: est } : {}),
        };
      })
    : [];
  const termsList = Array.isArray(p.terms) ? p.terms : p.terms !== null && typeof p.terms === 'object' ? [p.terms] : [];
  const terms = recordsOf(termsList, (r) => ({ ...termsNames(r), digest: str(r.digest) ?? null, url: str(r.url) }));
  const res =
    p.resolution !== null && typeof p.resolution === 'object' ? (p.resolution as Record<string, unknown>) : undefined;
  return {
    id,
    kind: str(p.kind) ?? (terms.length ? 'terms' : 'calls'),
    reason: str(p.reason),
    calls,
    terms,
    resolution: res
      ? {
          approved: res.approved === true,
          callIds: Array.isArray(res.callIds) ? res.callIds.filter((x): x is string => typeof x === 'string') : [],
          always: res.always === true,
          byRunId: str(res.byRunId),
        }
      : null,
  };
}

/** A stored exchange summary (what a run paid, the providers it skipped): numbers, names and links only. */
function readExchange(v: unknown): AgentJob['exchange'] {
  if (v === null || typeof v !== 'object') return undefined;
  const x = v as Record<string, unknown>;
  const num = (n: unknown): number | undefined => (typeof n === 'number' && Number.isFinite(n) ? n : undefined);
  const skipped = Array.isArray(x.skippedProviders)
    ? recordsOf(x.skippedProviders, (r) => ({ ...termsNames(r), reason: str(r.reason), termsUrl: str(r.termsUrl) }))
    : undefined;
  return {
    ...(typeof x.enabled === 'boolean' ? { enabled: x.enabled } : {}),
    ...(num(x.paidCalls) !== undefined ? { paidCalls: num(x.paidCalls) } : {}),
    ...(x.creditsUsed === null || num(x.creditsUsed) !== undefined
      ? { creditsUsed: x.creditsUsed as number | null }
      : {}),
    ...(skipped ? { skippedProviders: skipped } : {}),
  };
}

function str(x: unknown): string | undefined {
  return typeof x === 'string' ? x : undefined;
}

/** The object entries of a stored list, each read by `read`; anything else in the list is dropped. */
function recordsOf<T>(list: unknown[], read: (r: Record<string, unknown>) => T): T[] {
  return list.flatMap((x) => (x !== null && typeof x === 'object' ? [read(x as Record<string, unknown>)] : []));
}

/** What names a provider's terms, as a pending approval's terms and a run's skipped providers store it. */
function termsNames(r: Record<string, unknown>) {
  return {
    provider: str(r.provider),
    name: str(r.name),
    capability: str(r.capability),
    adds: str(r.adds),
    version: str(r.version),
  };
}

export { isTerminalStatus };

/** A job the store should be polling: not ended, not gone, not stopped by a permanent failure. */
export function isActive(job: AgentJob): boolean {
  // A turn can end waiting for the caller: it is followed (slowly) until the approval is answered.
  return !job.notFound && !job.expired && !job.pollError && (!isTerminalStatus(job.status) || isWaiting(job));
}

/** Whether a job's expiry has passed at `now` (epoch ms). */
export function isPastExpiry(job: Pick<AgentJob, 'expiresAt'>, now: number): boolean {
  const t = job.expiresAt ? Date.parse(job.expiresAt) : NaN;
  return Number.isFinite(t) && now >= t;
}
