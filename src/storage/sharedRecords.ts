// Records shared by every window of the editor (globalState), in one write queue that agent jobs and watches both
// use: writes go one at a time, in order, so an older value never lands after a newer one; reads see this window's
// own writes at once. A refused write is retried after 1, 2, 4 … s (at most every 60 s). Editor-free; tests use a Map.

/** What the records live in: globalState in the editor (see globalStateRecords.ts), a Map in tests. */
export interface RecordStorage {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
  /** Every key (globalState has it): how a window finds the records other windows wrote. */
  keys(): readonly string[];
}

interface RetryTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The first retry of a refused write, and the longest wait between two. */
export const SAVE_RETRY_FIRST_MS = 1_000;
export const SAVE_RETRY_MAX_MS = 60_000;

interface SharedRecordsOptions {
  /** Without timers a refused write is logged and dropped (reads fall back to what storage holds). */
  timers?: RetryTimers;
  onLog?: (message: string) => void;
  /** How the log names what a key holds ("agent job 42"). */
  describe?: (key: string) => string;
  /** The log lines' prefix ("agent jobs"). */
  logPrefix?: string;
}

const noop = (): void => undefined;

export class SharedRecords {
  /** Values written but not landed yet: reads see this window's own writes at once. */
  private readonly pending = new Map<string, unknown>();
  /** Keys whose newest value storage refused: failed attempts so far, and the armed retry. */
  private readonly failing = new Map<string, { attempts: number; timer?: unknown }>();
  /** Callers waiting to learn whether a key's newest value landed (true) or was refused once (false). */
  private readonly waiters = new Map<string, Array<(landed: boolean) => void>>();
  private writes: Promise<void> = Promise.resolve();
  private disposed = false;

  constructor(
    private readonly storage: RecordStorage,
    private readonly opts: SharedRecordsOptions = {},
  ) {}

  keys(): readonly string[] {
    const all = new Set(this.storage.keys());
    for (const [k, v] of this.pending) {
      if (v === undefined) all.delete(k);
      else all.add(k);
    }
    return [...all];
  }

  get<T>(key: string): T | undefined {
    return (this.pending.has(key) ? this.pending.get(key) : this.storage.get<T>(key)) as T | undefined;
  }

  /** Queues a write (undefined deletes); a refusal is handled here (retried, or logged and dropped). */
  write(key: string, value: unknown): void {
    this.put(key, value).catch(noop);
  }

  /** Queues a write and resolves once it has landed; rejects with storage's error when this attempt is refused. */
  put(key: string, value: unknown): Promise<void> {
    this.pending.set(key, value);
    return this.attempt(key, value);
  }

  /** Resolves once every write so far has been tried (a refused one is retried later). */
  flush(): Promise<void> {
    return this.writes;
  }

  /** Resolves true once this window's newest value of a key has landed, false as soon as storage has refused it. */
  saved(key: string): Promise<boolean> {
    if (!this.pending.has(key)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const list = this.waiters.get(key) ?? [];
      list.push(resolve);
      this.waiters.set(key, list);
    });
  }

  /** Storage has refused this key's newest value and a retry is pending. */
  isRefused(key: string): boolean {
    return this.failing.has(key) && this.pending.has(key);
  }

  /**
   * The window is closing: the armed retries stop, and each value storage refused is tried once more now
   * (a job started just before the window closed would otherwise be lost). Resolves once those have been tried.
   */
  dispose(): Promise<void> {
    if (this.disposed) return this.writes;
    this.disposed = true;
    const refused = [...this.failing.keys()];
    for (const f of this.failing.values()) if (f.timer !== undefined) this.opts.timers?.clearTimeout(f.timer);
    this.failing.clear();
    for (const key of refused) if (this.pending.has(key)) this.attempt(key, this.pending.get(key)).catch(noop);
    for (const [key] of this.waiters) this.tell(key, false);
    return this.writes;
  }

  private attempt(key: string, value: unknown): Promise<void> {
    const run = this.writes.then(() => this.land(key, value));
    this.writes = run.catch(noop);
    return run;
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
      throw e;
    }
    if (!this.isNewest(key, value)) return;
    this.pending.delete(key);
    const f = this.failing.get(key);
    if (f) {
      this.failing.delete(key);
      if (f.timer !== undefined) this.opts.timers?.clearTimeout(f.timer);
      this.log(`saved ${this.describe(key)} after ${f.attempts + 1} attempts`);
    }
    this.tell(key, true);
  }

  private refused(key: string, e: unknown): void {
    const f = this.failing.get(key) ?? { attempts: 0 };
    f.attempts++;
    this.tell(key, false);
    const timers = this.opts.timers;
    if (!timers || this.disposed) {
      this.log(`could not save ${this.describe(key)}: ${String(e)}`);
      if (!timers) this.pending.delete(key);
      return;
    }
    this.failing.set(key, f);
    if (f.timer !== undefined) return;
    const delay = Math.min(SAVE_RETRY_FIRST_MS * 2 ** (f.attempts - 1), SAVE_RETRY_MAX_MS);
    this.log(
      `could not save ${this.describe(key)} (attempt ${f.attempts}): ${String(e)}; trying again in ${delay / 1000} s`,
    );
    f.timer = timers.setTimeout(() => {
      f.timer = undefined;
      if (this.disposed) return;
      if (!this.pending.has(key)) {
        this.failing.delete(key);
        return;
      }
      this.attempt(key, this.pending.get(key)).catch(noop);
    }, delay);
  }

  private tell(key: string, landed: boolean): void {
    const list = this.waiters.get(key);
    if (!list) return;
    this.waiters.delete(key);
    for (const resolve of list) resolve(landed);
  }

  private describe(key: string): string {
    return this.opts.describe?.(key) ?? key;
  }

  private log(m: string): void {
    this.opts.onLog?.(`${this.opts.logPrefix ?? 'storage'}: ${m}`);
  }
}
