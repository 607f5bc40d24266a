// Where agent jobs are kept: one storage key per job, one tombstone key per removed job, one key per
// kept result. Several windows share the storage (globalState), so nothing is ever written as a
// whole list: a window writes only the jobs it changed, merged with what another window may have
// written since (operations: add, update, remove with a tombstone), so no window can drop or
// resurrect another's job. A record in a newer format than this build's is read as far as it is
// understood and never written. vscode-free; tests use a Map.
import { isTerminalStatus } from '../api/agent/agentConstants';
import {
  type AgentJob, deserializeJobs, isActive, type JobStorage, type KeptResult, readJob, readKeptResult, RESULT_KEY_PREFIX, STORAGE_KEY,
} from './jobModel';
import type { Timers } from './jobPoller';

export const JOB_KEY_PREFIX = 'devIndex.agent.job/';
export const TOMBSTONE_KEY_PREFIX = 'devIndex.agent.removed/';
/** The format of one job record; a record with a higher one was written by a newer build. */
export const JOB_RECORD_FORMAT = 2;

export interface PruneLimits {
  /** Tombstones older than this are forgotten (their job cannot come back from a list older than that). */
  tombstoneMaxAgeMs: number;
  tombstoneMaxCount: number;
  /** Jobs found in the service's list (not started here) that ended, kept at most this long and this many. */
  listedMaxAgeMs: number;
  listedMaxCount: number;
}

export const DEFAULT_PRUNE: Readonly<PruneLimits> = Object.freeze({
  tombstoneMaxAgeMs: 30 * 24 * 3600_000,
  tombstoneMaxCount: 500,
  listedMaxAgeMs: 14 * 24 * 3600_000,
  listedMaxCount: 100,
});

/**
 * A write that storage refused (quota, a full disk) is tried again after 1, 2, 4 … s, at most every
 * 60 s, for as long as the window lives: only the newest value of a key is retried, so an older one
 * can never land after it.
 */
export const SAVE_RETRY_FIRST_MS = 1_000;
export const SAVE_RETRY_MAX_MS = 60_000;

interface JobRecord { format: number; job: AgentJob; updatedAt: number }
interface Tombstone { format: number; removedAt: number }

/**
 * What two windows know about one job, combined: every fact only ever grows (more events read, the
 * end seen, the result kept, the notification shown), so the merge keeps the furthest of each.
 */
export function mergeJobs(stored: AgentJob, mine: AgentJob): AgentJob {
  const ended = (j: AgentJob): boolean => isTerminalStatus(j.status);
  // The second view wins for plain fields (a cleared polling error stays cleared); the end of a run,
  // once either view has it, is never undone.
  const base = ended(stored) && !ended(mine) ? { ...stored, ...mine, ...pickEnd(stored) } : { ...stored, ...mine };
  return {
    ...base,
    notified: stored.notified === true || mine.notified === true || undefined,
    finalRead: stored.finalRead === true || mine.finalRead === true || undefined,
    hasPartial: stored.hasPartial === true || mine.hasPartial === true || undefined,
    expired: stored.expired === true || mine.expired === true || undefined,
    kept: stored.kept || mine.kept
      ? {
        result: stored.kept?.result === true || mine.kept?.result === true, partial: stored.kept?.partial === true || mine.kept?.partial === true,
        ...(stored.kept?.answer === true || mine.kept?.answer === true ? { answer: true } : {}),
      }
      : undefined,
    creditsUsed: mine.creditsUsed ?? stored.creditsUsed,
    // A pending approval is the second view's: its absence there means the run went on (answered, or
    // read again without one), and a spread would bring the first view's back.
    pendingApproval: mine.pendingApproval,
    trace: {
      ...stored.trace, ...mine.trace,
      eventCount: Math.max(stored.trace.eventCount, mine.trace.eventCount),
      finished: stored.trace.finished || mine.trace.finished,
      unavailable: stored.trace.unavailable === true || mine.trace.unavailable === true || undefined,
    },
  };
}

function pickEnd(j: AgentJob): Partial<AgentJob> {
  const end: Partial<AgentJob> = { status: j.status };
  for (const k of ['outcome', 'errorCode', 'error', 'creditsUsed', 'expiresAt'] as const) if (j[k] !== undefined) (end as Record<string, unknown>)[k] = j[k];
  return end;
}

function clean<T extends object>(o: T): T {
  return JSON.parse(JSON.stringify(o)) as T;
}

export class JobRepository {
  /** Jobs read from records of a newer format: shown, never written. */
  private readonly readOnly = new Set<string>();
  private readonly tombstones = new Set<string>();
  private writes: Promise<void> = Promise.resolve();
  /** Values written but not landed yet: reads see this window's own writes at once. */
  private readonly pending = new Map<string, unknown>();
  /** Keys whose newest value storage refused: failed attempts so far, and the armed retry. */
  private readonly failing = new Map<string, { attempts: number; timer?: unknown }>();
  /** Callers waiting to learn whether a key's newest value landed (true) or was refused once (false). */
  private readonly waiters = new Map<string, Array<(landed: boolean) => void>>();
  private disposed = false;

  constructor(
    private readonly storage: JobStorage,
    private readonly now: () => number,
    private readonly onLog?: (m: string) => void,
    private readonly limits: PruneLimits = DEFAULT_PRUNE,
    /** Without timers a refused write is logged and not tried again. */
    private readonly timers?: Pick<Timers, 'setTimeout' | 'clearTimeout'>,
  ) {}

  private keys(): readonly string[] {
    const all = new Set(this.storage.keys());
    for (const [k, v] of this.pending) {
      if (v === undefined) all.delete(k);
      else all.add(k);
    }
    return [...all];
  }

  private get<T>(key: string): T | undefined {
    return (this.pending.has(key) ? this.pending.get(key) : this.storage.get<T>(key)) as T | undefined;
  }

  /** Every job kept, after moving a format-1 list (one key for all jobs) into records. */
  load(): AgentJob[] {
    this.migrate();
    return this.scan().jobs;
  }

  /** What storage holds now: the jobs (tombstoned ones left out) and the removed ids. */
  scan(): { jobs: AgentJob[]; removed: Set<string> } {
    const removed = new Set<string>();
    const jobs: AgentJob[] = [];
    const keys = this.keys();
    for (const k of keys) if (k.startsWith(TOMBSTONE_KEY_PREFIX)) removed.add(k.slice(TOMBSTONE_KEY_PREFIX.length));
    for (const k of keys) {
      if (!k.startsWith(JOB_KEY_PREFIX)) continue;
      const id = k.slice(JOB_KEY_PREFIX.length);
      if (removed.has(id)) continue;
      const job = this.read(id);
      if (job) jobs.push(job);
    }
    for (const id of removed) this.tombstones.add(id);
    return { jobs, removed };
  }

  isRemoved(id: string): boolean {
    return this.tombstones.has(id) || this.get(TOMBSTONE_KEY_PREFIX + id) !== undefined;
  }

  isReadOnly(id: string): boolean {
    return this.readOnly.has(id);
  }

  /** The stored record of one job, if any (and understood). */
  read(id: string): AgentJob | undefined {
    const raw = this.get<unknown>(JOB_KEY_PREFIX + id);
    if (raw === null || typeof raw !== 'object') return undefined;
    const r = raw as Partial<JobRecord>;
    if (typeof r.format !== 'number') return undefined;
    const job = readJob(r.job);
    if (!job || job.id !== id) return undefined;
    if (r.format > JOB_RECORD_FORMAT) this.readOnly.add(id);
    return job;
  }

  /**
   * Writes this window's view of a job, merged with the stored one. Returns the merged job, or
   * undefined when another window removed it (then nothing is written: no resurrection).
   */
  save(job: AgentJob): AgentJob | undefined {
    if (this.isRemoved(job.id)) return undefined;
    if (this.readOnly.has(job.id)) return job;
    const stored = this.read(job.id);
    if (this.readOnly.has(job.id)) return stored ? mergeJobs(stored, job) : job;
    const merged = stored ? mergeJobs(stored, job) : job;
    const record: JobRecord = { format: JOB_RECORD_FORMAT, job: clean(merged), updatedAt: this.now() };
    this.write(JOB_KEY_PREFIX + job.id, record);
    return merged;
  }

  /** Removes a job for every window: a tombstone first, then its record and kept result. */
  remove(id: string): void {
    this.tombstones.add(id);
    const stone: Tombstone = { format: JOB_RECORD_FORMAT, removedAt: this.now() };
    this.write(TOMBSTONE_KEY_PREFIX + id, stone);
    if (!this.readOnly.has(id)) this.write(JOB_KEY_PREFIX + id, undefined);
    this.write(RESULT_KEY_PREFIX + id, undefined);
  }

  kept(id: string): KeptResult | undefined {
    return readKeptResult(this.get(RESULT_KEY_PREFIX + id), id);
  }

  keep(id: string, copy: KeptResult | undefined): void {
    this.write(RESULT_KEY_PREFIX + id, copy);
  }

  /**
   * Forgets tombstones beyond their age and count, and jobs from the service's list that ended
   * beyond theirs (jobs started here are the user's to remove).
   */
  prune(): void {
    const now = this.now();
    const stones: Array<{ id: string; at: number }> = [];
    for (const k of this.keys()) {
      if (!k.startsWith(TOMBSTONE_KEY_PREFIX)) continue;
      const raw = this.get<Partial<Tombstone>>(k);
      if (raw && typeof raw.format === 'number' && raw.format > JOB_RECORD_FORMAT) continue;
      stones.push({ id: k.slice(TOMBSTONE_KEY_PREFIX.length), at: typeof raw?.removedAt === 'number' ? raw.removedAt : 0 });
    }
    stones.sort((a, b) => b.at - a.at);
    stones.forEach((s, i) => {
      if (i < this.limits.tombstoneMaxCount && now - s.at <= this.limits.tombstoneMaxAgeMs) return;
      this.tombstones.delete(s.id);
      this.write(TOMBSTONE_KEY_PREFIX + s.id, undefined);
      if (!this.readOnly.has(s.id)) this.write(JOB_KEY_PREFIX + s.id, undefined);
    });
    const listed = this.scan().jobs.filter((j) => j.origin === 'service' && isTerminalStatus(j.status) && !this.readOnly.has(j.id))
      .sort((a, b) => b.createdAt - a.createdAt);
    listed.forEach((j, i) => {
      if (i < this.limits.listedMaxCount && now - j.createdAt <= this.limits.listedMaxAgeMs) return;
      this.write(JOB_KEY_PREFIX + j.id, undefined);
      this.write(RESULT_KEY_PREFIX + j.id, undefined);
    });
  }

  /** Resolves once every write so far has been tried (a refused one is retried later). */
  flush(): Promise<void> {
    return this.writes;
  }

  /**
   * Whether this window's newest record of a job is in storage: resolves true once it has landed,
   * false as soon as storage has refused it (it is retried in the background).
   */
  saved(id: string): Promise<boolean> {
    const key = JOB_KEY_PREFIX + id;
    if (!this.pending.has(key)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const list = this.waiters.get(key) ?? [];
      list.push(resolve);
      this.waiters.set(key, list);
    });
  }

  /** A job whose record storage has refused and that is waiting for a retry. */
  isUnsaved(id: string): boolean {
    const key = JOB_KEY_PREFIX + id;
    return this.failing.has(key) && this.pending.has(key);
  }

  /** Stops the retries (the window is closing). */
  dispose(): void {
    this.disposed = true;
    for (const f of this.failing.values()) if (f.timer !== undefined) this.timers?.clearTimeout(f.timer);
    this.failing.clear();
    for (const [key] of this.waiters) this.tell(key, false);
  }

  /** The format-1 list (all jobs under one key) becomes one record per job; a newer list is left as it is. */
  private migrate(): void {
    const raw = this.get<unknown>(STORAGE_KEY);
    if (raw === undefined || raw === null || typeof raw !== 'object') return;
    const format = (raw as { format?: unknown }).format;
    if (format !== 1) return;
    const { jobs, removed } = deserializeJobs(raw);
    for (const id of removed) if (!this.isRemoved(id)) this.write(TOMBSTONE_KEY_PREFIX + id, { format: JOB_RECORD_FORMAT, removedAt: this.now() });
    for (const id of removed) this.tombstones.add(id);
    for (const job of jobs) if (!this.isRemoved(job.id) && !this.read(job.id)) {
      this.write(JOB_KEY_PREFIX + job.id, { format: JOB_RECORD_FORMAT, job: clean(job), updatedAt: this.now() });
    }
    this.write(STORAGE_KEY, undefined);
  }

  private write(key: string, value: unknown): void {
    this.pending.set(key, value);
    this.enqueue(key, value);
  }

  /** Writes are chained so an older value of a key can never land after a newer one. */
  private enqueue(key: string, value: unknown): void {
    this.writes = this.writes.then(() => this.land(key, value));
  }

  private isNewest(key: string, value: unknown): boolean {
    return this.pending.has(key) && this.pending.get(key) === value;
  }

  private async land(key: string, value: unknown): Promise<void> {
    try {
      await this.storage.update(key, value);
    } catch (e) {
      // A newer value of this key is queued already: it is the one worth writing.
      if (this.isNewest(key, value)) this.refused(key, e);
      return;
    }
    if (!this.isNewest(key, value)) return;
    this.pending.delete(key);
    const f = this.failing.get(key);
    if (f) {
      this.failing.delete(key);
      if (f.timer !== undefined) this.timers?.clearTimeout(f.timer);
      this.onLog?.(`agent jobs: saved ${describeKey(key)} after ${f.attempts + 1} attempts`);
    }
    this.tell(key, true);
  }

  private refused(key: string, e: unknown): void {
    const f = this.failing.get(key) ?? { attempts: 0 };
    f.attempts++;
    this.failing.set(key, f);
    this.tell(key, false);
    if (!this.timers || this.disposed) {
      this.onLog?.(`agent jobs: could not save ${describeKey(key)}: ${String(e)}`);
      return;
    }
    if (f.timer !== undefined) return;
    const delay = Math.min(SAVE_RETRY_FIRST_MS * 2 ** (f.attempts - 1), SAVE_RETRY_MAX_MS);
    this.onLog?.(`agent jobs: could not save ${describeKey(key)} (attempt ${f.attempts}): ${String(e)}; trying again in ${delay / 1000} s`);
    f.timer = this.timers.setTimeout(() => {
      f.timer = undefined;
      if (this.disposed) return;
      if (!this.pending.has(key)) {
        this.failing.delete(key);
        return;
      }
      this.enqueue(key, this.pending.get(key));
    }, delay);
  }

  private tell(key: string, landed: boolean): void {
    const list = this.waiters.get(key);
    if (!list) return;
    this.waiters.delete(key);
    for (const resolve of list) resolve(landed);
  }
}

function describeKey(key: string): string {
  if (key.startsWith(JOB_KEY_PREFIX)) return `agent job ${key.slice(JOB_KEY_PREFIX.length)}`;
  if (key.startsWith(TOMBSTONE_KEY_PREFIX)) return `the removal of agent job ${key.slice(TOMBSTONE_KEY_PREFIX.length)}`;
  if (key.startsWith(RESULT_KEY_PREFIX)) return `the kept result of agent job ${key.slice(RESULT_KEY_PREFIX.length)}`;
  return key;
}

/**
 * Whether storage holds job records (with `activeOnly`, one still to be followed), without building the store: the
 * activation side (agents/register.ts) decides from it whether the feature must be built at once. A format-1 list counts
 * (the store migrates it on load).
 */
export function storedJobs(storage: Pick<JobStorage, 'get' | 'keys'>, activeOnly: boolean): boolean {
  if (storage.get(STORAGE_KEY) !== undefined) return true;
  return storage.keys().some((k) => {
    if (!k.startsWith(JOB_KEY_PREFIX)) return false;
    if (!activeOnly) return true;
    const job = readJob((storage.get(k) as { job?: unknown } | undefined)?.job);
    return job !== undefined && isActive(job);
  });
}
