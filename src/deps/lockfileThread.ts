// Node, vscode-free: lockfiles read in a worker thread (dist/lockfiles.js, entry lockfileWorker.ts), so that reading and
// scanning a 30 MB lockfile never holds the extension host's event loop. dist/core.js uses this module in place of
// lockfileRead.ts (scripts/build.mjs, plugin lockfiles-in-worker): the parsers stay out of the core bundle.
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { Versions } from './lockfiles';
import type { LockfileReader, LockfileRequest } from './lockfileRead';
import type { LockfileWorkerAnswer, LockfileWorkerRequest } from './lockfileWorker';

/** The worker's bundle, beside dist/core.js (the package check reads this literal: it must ship in the .vsix). */
export const LOCKFILE_WORKER = './lockfiles.js';

interface LockfileThreadLimits {
  /** An idle worker ends after this long (a 30 MB lockfile's text is not kept in memory). */
  idleMs: number;
  /** A request that takes longer ends the worker; its versions stay unknown. */
  timeoutMs: number;
}

/** One worker, started on the first request, shared by every request, ended when idle. */
export class LockfileThread {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: Versions | undefined) => void; timer: NodeJS.Timeout }>();
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly file: string,
    private readonly limits: LockfileThreadLimits = { idleMs: 10_000, timeoutMs: 60_000 },
  ) {}

  /** Whether a worker is running (tests). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** Like lockfileRead's reader; a worker that fails, exits or times out answers undefined (versions unknown). */
  readonly read: LockfileReader = (req: LockfileRequest) =>
    new Promise<Versions | undefined>((resolve) => {
      clearTimeout(this.idle);
      let w: Worker;
      try {
        w = this.start();
      } catch {
        resolve(undefined);
        return;
      }
      const id = this.nextId++;
      const timer = setTimeout(() => this.fail(w), this.limits.timeoutMs);
      this.pending.set(id, { resolve, timer });
      w.ref();
      w.postMessage({ id, req } satisfies LockfileWorkerRequest);
    });

  /** Ends the worker; requests under way answer undefined. */
  async close(): Promise<void> {
    clearTimeout(this.idle);
    const w = this.worker;
    this.worker = undefined;
    this.settleAll();
    if (w) await w.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    // node:worker_threads on the first lockfile read, not when dist/core.js loads (the first search's load).
    const w = new (require('node:worker_threads') as typeof import('node:worker_threads')).Worker(this.file);
    w.on('message', (a: LockfileWorkerAnswer) => {
      const p = this.pending.get(a.id);
      if (!p) return;
      this.pending.delete(a.id);
      clearTimeout(p.timer);
      p.resolve(a.versions ? new Map(a.versions) : undefined);
      if (this.pending.size === 0) this.rest(w);
    });
    w.on('error', () => this.fail(w));
    w.on('exit', () => this.fail(w));
    this.worker = w;
    return w;
  }

  /** Nothing pending: the worker no longer keeps the process alive, and ends after idleMs. */
  private rest(w: Worker): void {
    w.unref();
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      if (this.worker === w && this.pending.size === 0) void this.close();
    }, this.limits.idleMs);
    this.idle.unref();
  }

  private fail(w: Worker): void {
    if (this.worker !== w) return;
    this.worker = undefined;
    this.settleAll();
    void w.terminate();
  }

  private settleAll(): void {
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.resolve(undefined);
    }
    this.pending.clear();
  }
}

let shared: LockfileThread | undefined;

/** The editor's reader: the shared worker beside this bundle (same name and signature as lockfileRead.ts's). */
export const readLockfileVersions: LockfileReader = (req) => {
  shared ??= new LockfileThread(join(__dirname, LOCKFILE_WORKER));
  return shared.read(req);
};
