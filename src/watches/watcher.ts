// The editor's Watch for a Fix service, without the editor: watches in the shared storage (one record each, so two
// windows never overwrite each other), re-run at most every 6 hours by the window holding the lease, paused while
// offline or over a limit; only searches are sent, never an agent run. vscode-free (editor.ts gives it its ports).
import type { SearchParams } from '../api/params';
import type { SearchResponse } from '../api/schemas';
import type { Timers } from '../agents/jobPoller';
import type { RecordStorage } from '../storage/sharedRecords';
import type { InstalledDependency } from '../versions/versionCompare';
import {
  checkWatch,
  MAX_WATCHES,
  mergeWatch,
  newWatch,
  parseWatch,
  recompare,
  type Watch,
  type WatchNews,
  WATCH_INTERVAL_MS,
} from '../deps/watch';
import { holds, LEASE_KEY, LEASE_RENEW_MS, leaseStep } from './lease';
import { SharedCollection } from '../storage/sharedCollection';
import { SharedRecords } from '../storage/sharedRecords';
import { afterFailure, BETWEEN_CHECKS_MS, dueWatches } from './schedule';

export const WATCH_KEY_PREFIX = 'devIndex.watch/';

/** What the service tells the user (the editor shell shows it as a notification). */
export type WatchEvent =
  | { kind: 'news'; watch: Watch; news: WatchNews[] }
  | { kind: 'fixIncluded'; watch: Watch; text: string }
  | { kind: 'vanished'; watch: Watch; repos: string[] };

interface WatchServiceDeps {
  storage: RecordStorage;
  /** One search (never an agent run); rejects with the client's ApiError. */
  search(params: SearchParams, signal: AbortSignal): Promise<SearchResponse>;
  /** The dependencies' installed versions in a folder now (undefined: the folder cannot say). */
  readInstalled?(folder: string, names: string[]): Promise<InstalledDependency[] | undefined>;
  notify(e: WatchEvent): void;
  log(m: string): void;
  timers: Timers;
  /** This window's id in the lease. */
  owner: string;
  newId?: () => string;
  /** The product's lease and interval unless a caller shortens them. */
  leaseTtlMs?: number;
  renewMs?: number;
  intervalMs?: number;
  betweenMs?: number;
  /** How long after taking the lease it is read back (another window may have taken it in the same instant). */
  settleMs?: number;
}

export class WatchService {
  private timer: unknown;
  private running = false;
  private disposed = false;
  private pausedUntil = 0;
  private offlineRuns = 0;
  private holder = false;
  private fingerprint = '';
  private readonly listeners = new Set<() => void>();
  private readonly abort = new AbortController();
  /** Watches being checked in this window right now (the view shows them as checking). */
  readonly checking = new Set<string>();

  /**
   * One storage write at a time (the late-watch flake). VS Code's globalState sends each write as the
   * whole object and answers it with the stored object, which replaces this window's copy: the first lease take's
   * answer, arriving after a new watch was set locally, removed the watch from this window (the e2e log: "written
   * but is not in this window's storage right after (0 watches there)"), so the view never listed it and the next
   * lease renewal wrote it away. A write that starts after the previous one is answered sees that answer first.
   * No retry: a refused write rejects, and the caller (the user's command) hears of it.
   */
  private readonly records: SharedRecords;
  private readonly watches: SharedCollection<Watch>;

  constructor(private readonly deps: WatchServiceDeps) {
    this.records = new SharedRecords(deps.storage, { onLog: deps.log, logPrefix: 'watch' });
    this.watches = new SharedCollection<Watch>(this.records, {
      prefix: WATCH_KEY_PREFIX,
      read: (raw) => parseWatch(raw),
      merge: mergeWatch,
    });
  }

  private store(key: string, value: unknown): Promise<void> {
    return this.records.put(key, value);
  }

  onDidChange(fn: () => void): { dispose(): void } {
    this.listeners.add(fn);
    return { dispose: () => this.listeners.delete(fn) };
  }

  private changed(): void {
    this.fingerprint = this.fingerprintNow();
    for (const fn of [...this.listeners]) {
      try {
        fn();
      } catch (e) {
        this.deps.log(`watch: a listener failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  private fingerprintNow(): string {
    return JSON.stringify(
      this.records
        .keys()
        .filter((k) => k.startsWith(WATCH_KEY_PREFIX))
        .sort()
        .map((k) => [k, this.records.get(k)]),
    );
  }

  /** Every watch in the shared storage, oldest first. */
  list(): Watch[] {
    const out = this.watches.ids().flatMap((id) => this.watches.read(id) ?? []);
    return out.sort((a, b) => a.createdAt - b.createdAt).slice(0, MAX_WATCHES);
  }

  get(id: string): Watch | undefined {
    return this.watches.read(id);
  }

  /** Whether this window runs the background checks now. */
  isHolder(): boolean {
    return this.holder && holds(this.records.get(LEASE_KEY), this.deps.owner, this.deps.timers.now());
  }

  /** Saves a watch of a search that just ran; its results count as seen. Throws past the cap. */
  async add(
    params: SearchParams,
    installed: InstalledDependency[],
    response: SearchResponse,
    folder?: string,
  ): Promise<Watch> {
    if (this.list().length >= MAX_WATCHES)
      throw new Error(`There are already ${MAX_WATCHES} watches, the most kept. Remove one first.`);
    const id = (this.deps.newId ?? (() => globalThis.crypto.randomUUID().slice(0, 8)))();
    const w = newWatch(id, params, installed, response, this.deps.timers.now(), folder);
    await this.watches.put(id, w);
    // Never seen since writes are one at a time (store()); said in the log and written once more if it comes back.
    if (!this.get(id)) {
      this.deps.log(
        `watch: ${id} was written but is not in this window's storage right after (${this.list().length} watches there); written again`,
      );
      await this.watches.put(id, w);
    }
    this.changed();
    return w;
  }

  async remove(id: string): Promise<boolean> {
    if (!this.get(id)) return false;
    await this.watches.remove(id);
    this.changed();
    return true;
  }

  /** The user opened the watch's search: its new results are seen. */
  async markSeen(id: string): Promise<void> {
    const w = this.get(id);
    if (w && w.newCount) await this.write({ ...w, newCount: 0 });
  }

  /** Writes a watch merged with what another window may have written since; a removed watch stays removed. */
  private async write(w: Watch): Promise<boolean> {
    const merged = this.watches.merged(w.id, w, { mustExist: true });
    if (!merged) return false;
    await this.watches.put(w.id, merged);
    this.changed();
    return true;
  }

  /** Check Now: one watch at once, in this window, lease or not (the user asked). Rejects with the search's error. */
  async checkNow(id: string): Promise<{ news: WatchNews[]; vanished: string[]; fixIncluded?: string }> {
    const w = this.get(id);
    if (!w) throw new Error('That watch was removed (in this or another window).');
    return this.checkOne(w, 'now');
  }

  private async checkOne(
    w0: Watch,
    why: 'now' | 'background',
  ): Promise<{ news: WatchNews[]; vanished: string[]; fixIncluded?: string }> {
    this.checking.add(w0.id);
    this.changed();
    try {
      let w = await this.reread(w0);
      let response: SearchResponse;
      try {
        response = await this.deps.search(w.params, this.abort.signal);
      } catch (e) {
        if (this.disposed) throw e;
        const reason = e instanceof Error ? e.message : String(e);
        const next = afterFailure(e, this.deps.timers.now(), this.offlineRuns);
        if (next.action === 'pause' && why === 'background') {
          if (next.why === 'offline') this.offlineRuns += 1;
          this.pausedUntil = next.until;
          this.deps.log(
            `watch: background checks wait until ${new Date(next.until).toISOString()} (${next.why}: ${reason})`,
          );
        } else {
          // The service refused this search (or the user's Check Now failed): recorded; the next turn is in 6 hours.
          w = {
            ...w,
            lastError: reason.slice(0, 200),
            ...(why === 'background' ? { lastCheck: this.deps.timers.now() } : {}),
          };
          await this.write(w);
        }
        throw e;
      }
      this.offlineRuns = 0;
      const before = w;
      const c = checkWatch(w, response, this.deps.timers.now());
      if (!(await this.write(c.watch))) return { news: [], vanished: [] };
      if (c.news.length) this.deps.notify({ kind: 'news', watch: c.watch, news: c.news });
      if (c.vanished.length && !(before.vanished ?? []).length)
        this.deps.notify({ kind: 'vanished', watch: c.watch, repos: c.vanished });
      if (c.fixIncluded && !before.fixIncluded)
        this.deps.notify({ kind: 'fixIncluded', watch: c.watch, text: c.fixIncluded });
      return { news: c.news, vanished: c.vanished, ...(c.fixIncluded ? { fixIncluded: c.fixIncluded } : {}) };
    } finally {
      this.checking.delete(w0.id);
      this.changed();
    }
  }

  /** The installed version as the folder says now (a watch made from a dependency search remembers its folder). */
  private async reread(w: Watch): Promise<Watch> {
    if (!w.folder || !w.installed.length || !this.deps.readInstalled) return w;
    const installed = await this.deps
      .readInstalled(
        w.folder,
        w.installed.map((d) => d.name),
      )
      .catch(() => undefined);
    if (!installed?.length) return w;
    const r = recompare(w, installed);
    if (!r.changed) return w;
    await this.write(r.watch);
    if (r.fixIncluded && !w.fixIncluded) this.deps.notify({ kind: 'fixIncluded', watch: r.watch, text: r.fixIncluded });
    return r.watch;
  }

  /**
   * A manifest or lockfile changed in `folder` (or anywhere, without one): every watch of that folder compares
   * its fix statements again with the installed version, without a search. Resolves with the watches that
   * now include a fix.
   */
  async installedChanged(folder?: string): Promise<Watch[]> {
    const out: Watch[] = [];
    for (const w of this.list()) {
      if (!w.folder || (folder !== undefined && !samePath(w.folder, folder))) continue;
      const next = await this.reread(w);
      if (next.fixIncluded) out.push(next);
    }
    return out;
  }

  /** Starts the lease loop (a constructor never starts a timer). */
  resume(): void {
    if (this.disposed || this.timer !== undefined) return;
    this.fingerprint = this.fingerprintNow();
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.disposed) return;
    this.timer = this.deps.timers.setTimeout(() => {
      this.timer = undefined;
      void this.tick();
    }, ms);
  }

  /** One beat: other windows' changes, the lease, and a round when this window holds it. */
  async tick(): Promise<void> {
    if (this.disposed) return;
    try {
      if (this.fingerprintNow() !== this.fingerprint) this.changed();
      await this.takeOrRenew();
      if (this.isHolder() && !this.running && this.deps.timers.now() >= this.pausedUntil) await this.round();
    } catch (e) {
      this.deps.log(`watch: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      if (this.timer === undefined) this.schedule(this.deps.renewMs ?? LEASE_RENEW_MS);
    }
  }

  private async takeOrRenew(): Promise<void> {
    const now = this.deps.timers.now();
    const step = leaseStep(this.records.get(LEASE_KEY), this.deps.owner, now, this.deps.leaseTtlMs);
    if (step.action === 'wait') {
      if (this.holder) this.deps.log(`watch: another window (${step.holder}) runs the background checks now`);
      this.holder = false;
      return;
    }
    await this.store(LEASE_KEY, step.lease);
    if (step.action === 'take') {
      // Two windows may take a free lease in the same instant: read it back once the writes have settled.
      const settle = this.deps.settleMs ?? 2_000;
      if (settle > 0) await new Promise<void>((r) => this.deps.timers.setTimeout(r, settle));
      this.holder = holds(this.records.get(LEASE_KEY), this.deps.owner, this.deps.timers.now());
      if (this.holder) this.deps.log('watch: this window runs the background checks');
    } else this.holder = true;
  }

  /** Checks the watches that are due, one at a time, while the lease is held and nothing pauses the round. */
  private async round(): Promise<void> {
    this.running = true;
    try {
      const interval = this.deps.intervalMs ?? WATCH_INTERVAL_MS;
      for (const w of dueWatches(this.list(), this.deps.timers.now(), interval)) {
        if (this.disposed || !this.isHolder() || this.deps.timers.now() < this.pausedUntil) return;
        // Another window may have checked it (Check Now) or removed it since the list was read.
        const fresh = this.get(w.id);
        if (!fresh || dueWatches([fresh], this.deps.timers.now(), interval).length === 0) continue;
        try {
          await this.checkOne(fresh, 'background');
          this.deps.log(`watch: ${w.id} checked in the background`);
        } catch (e) {
          this.deps.log(
            `watch: ${w.id} (“${w.params.query.slice(0, 60)}”) failed: ${e instanceof Error ? e.message : String(e)}`,
          );
        }
        await new Promise<void>((r) => this.deps.timers.setTimeout(r, this.deps.betweenMs ?? BETWEEN_CHECKS_MS));
      }
    } finally {
      this.running = false;
    }
  }

  /** Stops the loop and gives the lease back, so another window takes over at once. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.abort.abort();
    if (this.timer !== undefined) this.deps.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.listeners.clear();
    if (holds(this.records.get(LEASE_KEY), this.deps.owner, this.deps.timers.now()))
      await this.store(LEASE_KEY, undefined);
    await this.records.dispose();
  }
}

function samePath(a: string, b: string): boolean {
  const n = (p: string) => p.replace(/[\\/]+$/, '');
  return n(a) === n(b) || n(a).startsWith(`${n(b)}/`) || n(b).startsWith(`${n(a)}/`);
}
