// What the store keeps about a job, and how it is persisted (globalState in the editor, a Map in
// tests). Trace events themselves are not persisted: they are re-read on demand; what survives a
// reload is how far the trace had been read and how the run ended.
import { isTerminalStatus } from '../api/agentConstants';

export interface TraceProgress {
  /** Distinct events read so far. */
  eventCount: number;
  lastEventId?: string;
  lastEventAt?: string;
  /** `run.finished` has been read. */
  finished: boolean;
  /** The job predates the engine that records traces (400 on trace): poll status only. */
  unavailable?: boolean;
}

export interface AgentJob {
  id: string;
  prompt: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Started from this editor, or found in the service's job list. */
  origin: 'user' | 'service';
  /** The service's status: `processing`, `completed`, `failed`, or a newer value shown raw. */
  status: string;
  model?: string;
  urls?: string[];
  maxCredits?: number;
  creditsUsed?: number;
  /** `run.finished` outcome: succeeded, failed, cancelled, refused, credit_limit_reached... */
  outcome?: string;
  /** `error.code` of `run.finished` (spec 7.3). */
  errorCode?: string;
  /** The status record's `error`, or the `run.finished` error message. */
  error?: string;
  notFound?: boolean;
  cancelRequested?: boolean;
  /** A failure that stopped polling (key rejected, no permission...); cleared by Refresh. */
  pollError?: string;
  /** The end-of-run notification has been shown (so a reload does not show it again). */
  notified?: boolean;
  trace: TraceProgress;
}

export interface JobStorage {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export const STORAGE_KEY = 'devIndex.agent.jobs';
const FORMAT = 1;

export interface PersistedJobs { format: number; jobs: AgentJob[]; removed: string[] }

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

function readJob(v: unknown): AgentJob | undefined {
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
    urls: Array.isArray(j.urls) ? j.urls.filter((u): u is string => typeof u === 'string') : undefined,
    maxCredits: n(j.maxCredits),
    creditsUsed: n(j.creditsUsed),
    outcome: s(j.outcome),
    errorCode: s(j.errorCode),
    error: s(j.error),
    notFound: b(j.notFound),
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

export { isTerminalStatus };

/** A job the store should be polling: not ended, not gone, not stopped by a permanent failure. */
export function isActive(job: AgentJob): boolean {
  return !job.notFound && !job.pollError && !isTerminalStatus(job.status);
}
