// Where agent jobs are kept: one key per job, per tombstone, per kept result, shared by every window (globalState), so
// a window writes only the jobs it changed, merged with what others wrote; a newer format is read, never written. Also
// the new jobs not saved yet (NewJobSaves). vscode-free (the storage is handed in).
import { isTerminalStatus } from '../api/agent/agentConstants';
import {
  type AgentJob,
  deserializeJobs,
  isActive,
  type KeptResult,
  readJob,
  readKeptResult,
  RESULT_KEY_PREFIX,
  STORAGE_KEY,
} from './jobModel';
import type { RecordStorage } from '../storage/sharedRecords';
import type { Timers } from './jobPoller';
import { mergeJobs } from './jobEvents';
import { SharedCollection } from '../storage/sharedCollection';
import { SharedRecords } from '../storage/sharedRecords';

export const JOB_KEY_PREFIX = 'devIndex.agent.job/';
export const TOMBSTONE_KEY_PREFIX = 'devIndex.agent.removed/';
/** The format of one job record; a record with a higher one was written by a newer build. */
const JOB_RECORD_FORMAT = 2;

export interface PruneLimits {
  /** Tombstones older than this are forgotten (their job cannot come back from a list older than that). */
  tombstoneMaxAgeMs: number;
  tombstoneMaxCount: number;
  /** Jobs found in the service's list (not started here) that ended, kept at most this long and this many. */
  listedMaxAgeMs: number;
  listedMaxCount: number;
}

const DEFAULT_PRUNE: Readonly<PruneLimits> = Object.freeze({
  tombstoneMaxAgeMs: 30 * 24 * 3600_000,
  tombstoneMaxCount: 500,
  listedMaxAgeMs: 14 * 24 * 3600_000,
  listedMaxCount: 100,
});

interface JobRecord {
  format: number;
  job: AgentJob;
  updatedAt: number;
}
interface Tombstone {
  format: number;
  removedAt: number;
}

function clean<T extends object>(o: T): T {
  return JSON.parse(JSON.stringify(o)) as T;
}

export class JobRepository {
  /** Jobs read from records of a newer format: shown, never written. */
  private readonly readOnly = new Set<string>();
  private readonly tombstones = new Set<string>();
  private readonly records: SharedRecords;
  private readonly col: SharedCollection<AgentJob>;

  constructor(
    storage: RecordStorage,
    private readonly now: () => number,
    onLog?: (m: string) => void,
    private readonly limits: PruneLimits = DEFAULT_PRUNE,
    /** Without timers a refused write is logged and not tried again. */
    timers?: Pick<Timers, 'setTimeout' | 'clearTimeout'>,
  ) {
    this.records = new SharedRecords(storage, { timers, onLog, describe: describeKey, logPrefix: 'agent jobs' });
    this.col = new SharedCollection<AgentJob>(this.records, {
      prefix: JOB_KEY_PREFIX,
      tombstonePrefix: TOMBSTONE_KEY_PREFIX,
      read: (raw, id) => this.readRecord(raw, id),
      wrap: (job) => ({ format: JOB_RECORD_FORMAT, job: clean(job), updatedAt: this.now() }) satisfies JobRecord,
      merge: mergeJobs,
    });
  }

  /** Every job kept, after moving a format-1 list (one key for all jobs) into records. */
  load(): AgentJob[] {
    this.migrate();
    return this.scan().jobs;
  }

  /** What storage holds now: the jobs (tombstoned ones left out) and the removed ids. */
  scan(): { jobs: AgentJob[]; removed: Set<string> } {
    const removed = this.col.removed();
    const jobs = this.col.ids().flatMap((id) => this.read(id) ?? []);
    for (const id of removed) this.tombstones.add(id);
    return { jobs, removed };
  }

  isRemoved(id: string): boolean {
    return this.tombstones.has(id) || this.col.isRemoved(id);
  }

  isReadOnly(id: string): boolean {
    return this.readOnly.has(id);
  }

  /** The stored record of one job, if any (and understood). */
  read(id: string): AgentJob | undefined {
    return this.col.read(id);
  }

  private readRecord(raw: unknown, id: string): AgentJob | undefined {
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
    if (this.tombstones.has(job.id)) return undefined;
    if (this.readOnly.has(job.id)) return job;
    const merged = this.col.merged(job.id, job);
    if (!merged || this.readOnly.has(job.id)) return merged;
    this.col.write(job.id, merged);
    return merged;
  }

  /** Removes a job for every window: a tombstone first, then its record and kept result. */
  remove(id: string): void {
    this.tombstones.add(id);
    const stone: Tombstone = { format: JOB_RECORD_FORMAT, removedAt: this.now() };
    this.col.remove(id, stone, { keepRecord: this.readOnly.has(id) }).catch(() => undefined);
    this.records.write(RESULT_KEY_PREFIX + id, undefined);
  }

  kept(id: string): KeptResult | undefined {
    return readKeptResult(this.records.get(RESULT_KEY_PREFIX + id), id);
  }

  keep(id: string, copy: KeptResult | undefined): void {
    this.records.write(RESULT_KEY_PREFIX + id, copy);
  }

  /**
   * Forgets tombstones beyond their age and count, and jobs from the service's list that ended
   * beyond theirs (jobs started here are the user's to remove).
   */
  prune(): void {
    const now = this.now();
    const stones: Array<{ id: string; at: number }> = [];
    for (const id of this.col.removed()) {
      const raw = this.records.get<Partial<Tombstone>>(TOMBSTONE_KEY_PREFIX + id);
      if (raw && typeof raw.format === 'number' && raw.format > JOB_RECORD_FORMAT) continue;
      stones.push({ id, at: typeof raw?.removedAt === 'number' ? raw.removedAt : 0 });
    }
    stones.sort((a, b) => b.at - a.at);
    stones.forEach((s, i) => {
      if (i < this.limits.tombstoneMaxCount && now - s.at <= this.limits.tombstoneMaxAgeMs) return;
      this.tombstones.delete(s.id);
      this.records.write(TOMBSTONE_KEY_PREFIX + s.id, undefined);
      if (!this.readOnly.has(s.id)) this.records.write(JOB_KEY_PREFIX + s.id, undefined);
    });
    const listed = this.scan()
      .jobs.filter((j) => j.origin === 'service' && isTerminalStatus(j.status) && !this.readOnly.has(j.id))
      .sort((a, b) => b.createdAt - a.createdAt);
    listed.forEach((j, i) => {
      if (i < this.limits.listedMaxCount && now - j.createdAt <= this.limits.listedMaxAgeMs) return;
      this.records.write(JOB_KEY_PREFIX + j.id, undefined);
      this.records.write(RESULT_KEY_PREFIX + j.id, undefined);
    });
  }

  /** Resolves once every write so far has been tried (a refused one is retried later). */
  flush(): Promise<void> {
    return this.records.flush();
  }

  /**
   * Whether this window's newest record of a job is in storage: resolves true once it has landed,
   * false as soon as storage has refused it (it is retried in the background).
   */
  saved(id: string): Promise<boolean> {
    return this.records.saved(JOB_KEY_PREFIX + id);
  }

  /** A job whose record storage has refused and that is waiting for a retry. */
  isUnsaved(id: string): boolean {
    return this.records.isRefused(JOB_KEY_PREFIX + id);
  }

  /** The window is closing: retries stop, and each refused write is tried once more. Resolves once tried. */
  dispose(): Promise<void> {
    return this.records.dispose();
  }

  /** The format-1 list (all jobs under one key) becomes one record per job; a newer list is left as it is. */
  private migrate(): void {
    const raw = this.records.get<unknown>(STORAGE_KEY);
    if (raw === undefined || raw === null || typeof raw !== 'object') return;
    const format = (raw as { format?: unknown }).format;
    if (format !== 1) return;
    const { jobs, removed } = deserializeJobs(raw);
    for (const id of removed)
      if (!this.isRemoved(id))
        this.records.write(TOMBSTONE_KEY_PREFIX + id, { format: JOB_RECORD_FORMAT, removedAt: this.now() });
    for (const id of removed) this.tombstones.add(id);
    for (const job of jobs) if (!this.isRemoved(job.id) && !this.read(job.id)) this.col.write(job.id, job);
    this.records.write(STORAGE_KEY, undefined);
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
export function storedJobs(storage: Pick<RecordStorage, 'get' | 'keys'>, activeOnly: boolean): boolean {
  if (storage.get(STORAGE_KEY) !== undefined) return true;
  return storage.keys().some((k) => {
    if (!k.startsWith(JOB_KEY_PREFIX)) return false;
    if (!activeOnly) return true;
    const job = readJob((storage.get(k) as { job?: unknown } | undefined)?.job);
    return job !== undefined && isActive(job);
  });
}

// "Not saved yet", kept in one place: the jobs this window submitted whose first record is being written (not shown,
// nor taken from storage, until it lands or the wait ends), and those shown before it landed until a retry lands it.

/** How long start() waits for storage to take a new job's record before showing the job as not saved. */
const START_SAVE_WAIT_MS = 10_000;

interface SaveOutcomes {
  /** Resolves true once the newest record of the job has landed, false as soon as storage refused it. */
  saved(id: string): Promise<boolean>;
  /** Storage refused the job's record and a retry is pending. */
  isUnsaved(id: string): boolean;
}

export class NewJobSaves {
  private readonly writing = new Set<string>();
  private readonly shownUnsaved = new Set<string>();
  private disposed = false;

  constructor(
    private readonly repo: SaveOutcomes,
    private readonly timers: Pick<Timers, 'setTimeout' | 'clearTimeout'>,
    private readonly landed: (id: string) => void,
  ) {}

  /** Jobs whose first record is being written. */
  get starting(): ReadonlySet<string> {
    return this.writing;
  }

  /** Writes a new job's first record and waits: true once landed, false when refused or not answered within 10 s. */
  async first(id: string, write: () => void): Promise<boolean> {
    this.writing.add(id);
    try {
      write();
      return await new Promise<boolean>((resolve) => {
        const timer = this.timers.setTimeout(() => resolve(false), START_SAVE_WAIT_MS);
        void this.repo.saved(id).then((ok) => {
          this.timers.clearTimeout(timer);
          resolve(ok);
        });
      });
    } finally {
      this.writing.delete(id);
    }
  }

  /** The job is shown before its record landed: said so until a retry lands it (then `landed` tells the tree). */
  shownBeforeSaved(id: string): void {
    this.shownUnsaved.add(id);
    this.tellWhenSaved(id);
  }

  private tellWhenSaved(id: string): void {
    void this.repo.saved(id).then((ok) => {
      if (this.disposed || !this.shownUnsaved.has(id)) return;
      if (!ok) {
        this.tellWhenSaved(id);
        return;
      }
      this.shownUnsaved.delete(id);
      this.landed(id);
    });
  }

  /** Whether the job would not survive a reload yet. */
  isUnsaved(id: string): boolean {
    return this.shownUnsaved.has(id) || this.repo.isUnsaved(id);
  }

  forget(id: string): void {
    this.shownUnsaved.delete(id);
  }

  dispose(): void {
    this.disposed = true;
  }
}
