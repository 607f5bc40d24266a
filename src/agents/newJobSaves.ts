// "Not saved yet", kept in one place: the jobs this window submitted whose first record is being written (not
// shown, nor taken from storage, until it lands or the wait ends), and those shown before it landed (storage
// refused it, or did not answer in time) until a retry lands it. vscode-free.
import type { Timers } from './jobPoller';

/** How long start() waits for storage to take a new job's record before showing the job as not saved. */
export const START_SAVE_WAIT_MS = 10_000;

export interface SaveOutcomes {
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
