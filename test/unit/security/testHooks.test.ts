// src/testHooks/hooks.ts: what a test build hands the product. Driven only under a host tier (DEVINDEX_TEST_KEY),
// the timing in the product's own option names, and the Search view's messages recorded without changing them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type * as vscode from 'vscode';
import { createTestHooks } from '../../../src/testHooks/hooks';

/** A webview whose members read private state, as the editor's does: the recorder must call them on the object itself. */
class FakeWebview {
  #html = '';
  #listeners: Array<(m: unknown) => void> = [];
  readonly posted: unknown[] = [];
  get html(): string {
    return this.#html;
  }
  set html(v: string) {
    this.#html = v;
  }
  postMessage(m: unknown): Promise<boolean> {
    this.posted.push(m);
    return Promise.resolve(true);
  }
  onDidReceiveMessage(l: (m: unknown) => void): { dispose(): void } {
    this.#listeners.push(l);
    return { dispose: () => undefined };
  }
  fire(m: unknown): void {
    for (const l of this.#listeners) l(m);
  }
}

describe('test hooks', () => {
  it('are driven only with DEVINDEX_TEST_KEY (the host tiers set it; code-server is never given it)', () => {
    assert.equal(createTestHooks({}).driven, false);
    assert.equal(createTestHooks({ DEVINDEX_TEST_KEY: 'k' }).driven, true);
  });

  it("carry DEVINDEX_TEST_TIMING in the product's option names, and its problems", () => {
    const h = createTestHooks({
      DEVINDEX_TEST_TIMING: JSON.stringify({
        leaseTtlMs: 8_000,
        leaseRenewMs: 2_000,
        watchFirstBeatMs: 1_000,
        retryUnitMs: 10,
        agentStatusEveryMs: 1_000,
        nonsense: 1,
      }),
    });
    assert.deepEqual(h.watch, { leaseTtlMs: 8_000, renewMs: 2_000, firstBeatMs: 1_000 });
    assert.deepEqual(h.backoff, { unitMs: 10 });
    assert.deepEqual(h.agents, { statusEveryMs: 1_000 });
    assert.match(h.problems.join(), /DEVINDEX_TEST_TIMING\.nonsense is not a timing field/);
    const none = createTestHooks({});
    assert.deepEqual([none.watch, none.backoff, none.agents, none.problems], [{}, undefined, {}, []]);
  });

  it("record the Search view's messages both ways while driven, and hand the view a message as its webview would", async () => {
    const h = createTestHooks({ DEVINDEX_TEST_KEY: 'k' });
    const webview = new FakeWebview();
    const view = h.observeView({ webview, visible: true } as unknown as vscode.WebviewView);
    view.webview.html = '<p>view</p>';
    assert.equal(webview.html, '<p>view</p>', 'a write reaches the webview itself');
    const got: unknown[] = [];
    view.webview.onDidReceiveMessage((m) => got.push(m));
    await view.webview.postMessage({ type: 'keyState', hasKey: false });
    webview.fire({ type: 'ready' });
    assert.equal(h.fromWebview !== undefined, true);
    h.fromWebview!({ type: 'getKey', url: 'https://example.com/k' });
    assert.deepEqual(webview.posted, [{ type: 'keyState', hasKey: false }]);
    assert.deepEqual(got, [{ type: 'ready' }, { type: 'getKey', url: 'https://example.com/k' }]);
    assert.deepEqual(
      h.viewMessages.map((m) => [m.to, (m.message as { type: string }).type]),
      [
        ['webview', 'keyState'],
        ['extension', 'ready'],
        ['extension', 'getKey'],
      ],
    );
    assert.equal(view.visible, true);
  });

  it('leave the view untouched when not driven', () => {
    const h = createTestHooks({});
    const view = { webview: new FakeWebview() } as unknown as vscode.WebviewView;
    assert.equal(h.observeView(view), view);
  });
});
