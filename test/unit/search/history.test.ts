// Search history: one entry per distinct search, newest first, removable; relative times.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type * as vscode from 'vscode';
import { SearchHistory, relativeTime } from '../../../src/search/history';

function memento(): vscode.Memento {
  const data = new Map<string, unknown>();
  return {
    keys: () => [...data.keys()],
    get: (k: string) => data.get(k),
    update: async (k: string, v: unknown) => {
      data.set(k, v);
    },
  } as unknown as vscode.Memento;
}

describe('search history', () => {
  it('merges a repeated search (in any key order) into the newest entry', async () => {
    const h = new SearchHistory(memento());
    await h.add({ query: 'retry', k: 10, passages: 1 }, 1);
    await h.add({ passages: 1, k: 10, query: 'retry' }, 2);
    await h.add({ query: 'retry', k: 10, passages: 1, types: ['doc', 'issue', 'pull_request', 'readme'] }, 3);
    assert.deepEqual(h.entries(), [{ params: { query: 'retry', k: 10, passages: 1 }, at: 3 }]);
    await h.add({ query: 'retry', k: 10, passages: 1, repos: ['a/b'] }, 4);
    assert.equal(h.entries().length, 2, 'another scope is another search');
  });

  it('removes one entry and clears all', async () => {
    const h = new SearchHistory(memento());
    await h.add({ query: 'a' }, 1);
    await h.add({ query: 'b' }, 2);
    await h.remove(1);
    assert.deepEqual(
      h.entries().map((e) => e.params.query),
      ['b'],
    );
    await h.clear();
    assert.deepEqual(h.entries(), []);
  });

  it('says how long ago', () => {
    const now = Date.UTC(2026, 10, 23, 12);
    assert.equal(relativeTime(now - 10_000, now), 'just now');
    assert.equal(relativeTime(now - 5 * 60_000, now), '5 min ago');
    assert.equal(relativeTime(now - 3 * 3_600_000, now), '3 h ago');
    assert.equal(relativeTime(now - 26 * 3_600_000, now), 'yesterday');
    assert.equal(relativeTime(now - 4 * 86_400_000, now), '4 days ago');
    assert.equal(relativeTime(Date.UTC(2026, 0, 2), now), '2026-01-02');
  });
});
