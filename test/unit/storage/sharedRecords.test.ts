// The one write queue for records shared across windows: writes land in order, one at a time;
// reads see this window's own writes at once; a refusal is retried with timers, dropped without; and a
// write still refused when the window closes is tried once more.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { SharedCollection } from '../../../src/storage/sharedCollection';
import { SAVE_RETRY_FIRST_MS, SharedRecords } from '../../../src/storage/sharedRecords';
import { ManualClock } from '../agents/manualClock';

class Storage {
  readonly map = new Map<string, unknown>();
  readonly tried: string[] = [];
  inFlight = 0;
  most = 0;
  refuse: (key: string) => boolean = () => false;
  get<T>(key: string): T | undefined {
    return this.map.get(key) as T | undefined;
  }
  keys(): readonly string[] {
    return [...this.map.keys()];
  }
  async update(key: string, value: unknown): Promise<void> {
    this.tried.push(key);
    this.inFlight++;
    this.most = Math.max(this.most, this.inFlight);
    await new Promise((r) => setImmediate(r));
    this.inFlight--;
    if (this.refuse(key)) throw new Error('ENOSPC');
    if (value === undefined) this.map.delete(key);
    else this.map.set(key, value);
  }
}

describe('shared records', () => {
  it('writes go one at a time and in order; reads see a pending write at once, a pending delete too', async () => {
    const s = new Storage();
    s.map.set('gone', 1);
    const r = new SharedRecords(s);
    r.write('a', 1);
    r.write('a', 2);
    r.write('gone', undefined);
    assert.equal(r.get('a'), 2);
    assert.deepEqual([...r.keys()].sort(), ['a']);
    await r.flush();
    assert.equal(s.most, 1);
    assert.deepEqual(s.tried, ['a', 'a', 'gone']);
    assert.equal(s.map.get('a'), 2);
  });

  it('without timers a refused put rejects and reads fall back to what storage holds', async () => {
    const s = new Storage();
    s.map.set('k', 'old');
    s.refuse = () => true;
    const logs: string[] = [];
    const r = new SharedRecords(s, { onLog: (m) => logs.push(m), logPrefix: 'watch' });
    await assert.rejects(r.put('k', 'new'), /ENOSPC/);
    assert.equal(r.get('k'), 'old');
    assert.equal(r.isRefused('k'), false, 'nothing left to retry');
    assert.match(logs.join('\n'), /^watch: could not save k: Error: ENOSPC/);
  });

  it('with timers a refused write is retried; one still refused at dispose is tried once more, then never again', async () => {
    const clock = new ManualClock();
    const s = new Storage();
    let refusals = 1;
    s.refuse = () => refusals-- > 0;
    const r = new SharedRecords(s, { timers: clock });
    r.write('k', 'v');
    await r.flush();
    assert.equal(r.isRefused('k'), true);
    assert.equal(clock.nextAt(), clock.now() + SAVE_RETRY_FIRST_MS);
    await r.dispose();
    assert.equal(s.map.get('k'), 'v', 'landed on dispose, before the retry was due');
    assert.equal(clock.armed, 0, 'the retry timer is gone');
    await clock.advance(10 * SAVE_RETRY_FIRST_MS);
    assert.deepEqual(s.tried, ['k', 'k']);
  });

  it('a collection merges with the stored record, and a tombstone keeps a removed record from coming back', async () => {
    const s = new Storage();
    const r = new SharedRecords(s);
    const col = new SharedCollection<{ id: string; n: number }>(r, {
      prefix: 'rec/',
      tombstonePrefix: 'gone/',
      read: (raw, id) => (raw && typeof raw === 'object' ? { id, n: (raw as { n: number }).n } : undefined),
      merge: (stored, mine) => ({ id: mine.id, n: Math.max(stored.n, mine.n) }),
    });
    col.write('a', { id: 'a', n: 5 });
    assert.deepEqual(col.merged('a', { id: 'a', n: 3 }), { id: 'a', n: 5 });
    assert.equal(col.merged('b', { id: 'b', n: 1 }, { mustExist: true }), undefined);
    await col.remove('a', { at: 1 });
    assert.equal(col.merged('a', { id: 'a', n: 9 }), undefined, 'removed: never written back');
    assert.deepEqual(col.ids(), []);
    assert.deepEqual([...col.removed()], ['a']);
  });
});
