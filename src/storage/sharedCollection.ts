// One kind of record shared across windows (agent jobs, watches), one key per record, never a whole list: a window
// writes only what it changed, merged with what another window wrote since; a removal leaves a tombstone (where the
// kind has them) so no late write brings the record back. Over SharedRecords. Editor-free.
import type { SharedRecords } from './sharedRecords';

interface RecordKind<T> {
  /** Record keys: `<prefix><id>`. */
  prefix: string;
  /** Tombstone keys: `<tombstonePrefix><id>`; without one, a removed record is simply absent. */
  tombstonePrefix?: string;
  /** A stored value read back; anything not understood is undefined. */
  read(raw: unknown, id: string): T | undefined;
  /** What is stored for a value (defaults to the value itself). */
  wrap?(value: T): unknown;
  /** Two windows' views of one record, combined (the second is this window's). */
  merge(stored: T, mine: T): T;
}

export class SharedCollection<T> {
  constructor(
    readonly records: SharedRecords,
    private readonly kind: RecordKind<T>,
  ) {}

  key(id: string): string {
    return this.kind.prefix + id;
  }

  /** Ids of the records present (tombstoned ones left out). */
  ids(): string[] {
    const removed = this.removed();
    const out: string[] = [];
    for (const k of this.records.keys()) {
      if (!k.startsWith(this.kind.prefix)) continue;
      const id = k.slice(this.kind.prefix.length);
      if (!removed.has(id)) out.push(id);
    }
    return out;
  }

  /** Ids with a tombstone. */
  removed(): Set<string> {
    const out = new Set<string>();
    const p = this.kind.tombstonePrefix;
    if (p) for (const k of this.records.keys()) if (k.startsWith(p)) out.add(k.slice(p.length));
    return out;
  }

  isRemoved(id: string): boolean {
    const p = this.kind.tombstonePrefix;
    return p !== undefined && this.records.get(p + id) !== undefined;
  }

  read(id: string): T | undefined {
    return this.kind.read(this.records.get(this.key(id)), id);
  }

  /**
   * This window's view merged with the stored record: undefined when the record was removed (a tombstone, or
   * with `mustExist` no record at all), so a removed record is never written back.
   */
  merged(id: string, mine: T, opts: { mustExist?: boolean } = {}): T | undefined {
    if (this.isRemoved(id)) return undefined;
    const stored = this.read(id);
    if (!stored) return opts.mustExist ? undefined : mine;
    return this.kind.merge(stored, mine);
  }

  /** Queues the write of a value (as is: merge first with merged()). */
  write(id: string, value: T): void {
    this.records.write(this.key(id), this.wrap(value));
  }

  /** Writes a value and resolves once it has landed (rejects when storage refuses it). */
  put(id: string, value: T): Promise<void> {
    return this.records.put(this.key(id), this.wrap(value));
  }

  /** Removes a record for every window: its tombstone (with the given content) first, then the record. */
  remove(id: string, tombstone?: unknown, opts: { keepRecord?: boolean } = {}): Promise<void> {
    const p = this.kind.tombstonePrefix;
    if (p && tombstone !== undefined) this.records.write(p + id, tombstone);
    if (opts.keepRecord) return Promise.resolve();
    return this.records.put(this.key(id), undefined);
  }

  private wrap(value: T): unknown {
    return this.kind.wrap ? this.kind.wrap(value) : value;
  }
}
