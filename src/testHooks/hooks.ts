// What a test build hands the product: shorter durations, and under a host tier a record of the Search view's
// messages and the slots its exports fill (docs/TESTING.md). Only the desktop entry builds it, where the build keeps
// the test surface; every other module takes it as an optional input and acts as shipped without it.
import type * as vscode from 'vscode';
import type { BackoffTiming } from '../api/retry';
import { DEFAULT_POLL_TIMING, type PollTiming } from '../agentRun/pollSchedule';
import type { IssueReporter } from '../doctor/editor';
import { backoffOf, parseTestTiming, pollTimingOf, TEST_TIMING_ENV } from './timing';

/** The watch durations (the feature's own option names; undefined: the product's). */
export interface WatchTiming {
  leaseTtlMs?: number;
  renewMs?: number;
  intervalMs?: number;
  settleMs?: number;
  betweenMs?: number;
  /** After activation, the first background beat of a window with watches. */
  firstBeatMs?: number;
  /** A window with no watch looks again this often. */
  lookAgainMs?: number;
}

/** A message as it crossed the Search view's webview, oldest first. */
interface ViewMessage {
  to: 'webview' | 'extension';
  message: unknown;
}

export interface TestHooks {
  /** A host tier runs this process (DEVINDEX_TEST_KEY is set; code-server is never given it): the entry exports its surface. */
  readonly driven: boolean;
  /** What is wrong in DEVINDEX_TEST_TIMING, each naming the field and its bound; the rest applies. */
  readonly problems: readonly string[];
  readonly backoff?: Partial<BackoffTiming>;
  readonly watch: WatchTiming;
  readonly agents: { timing?: PollTiming; statusEveryMs?: number };
  /** The Search view's messages both ways (the latest 300), kept while driven. */
  readonly viewMessages: ViewMessage[];
  /** Hands a message to the Search view's provider as if its webview had posted it (undefined before the view resolved). */
  fromWebview?: (message: unknown) => void;
  /** Where checked links go instead of the browser. */
  opener?: (url: string) => unknown;
  /** Where Report an Issue… sends its report instead of VS Code's issue reporter. */
  issueReporter?: IssueReporter;
  /** The deprecation messages shown to the user, newest last (the latest 20). */
  readonly noticesShown: string[];
  /** The webview view the provider is given: the same one, its messages recorded while driven. */
  observeView(view: vscode.WebviewView): vscode.WebviewView;
}

const MAX_MESSAGES = 300;

export function createTestHooks(env: Readonly<Record<string, string | undefined>>): TestHooks {
  const { timing: t, problems } = parseTestTiming(env[TEST_TIMING_ENV]);
  const backoff = backoffOf(t);
  const agentTiming = pollTimingOf(t, DEFAULT_POLL_TIMING);
  const driven = env.DEVINDEX_TEST_KEY !== undefined;
  const only = <V>(key: string, v: V | undefined): Record<string, V> => (v !== undefined ? { [key]: v } : {});
  const hooks: TestHooks = {
    driven,
    problems,
    ...(backoff ? { backoff } : {}),
    watch: {
      ...only('leaseTtlMs', t.leaseTtlMs),
      ...only('renewMs', t.leaseRenewMs),
      ...only('intervalMs', t.watchIntervalMs),
      ...only('settleMs', t.watchSettleMs),
      ...only('betweenMs', t.watchBetweenMs),
      ...only('firstBeatMs', t.watchFirstBeatMs),
      ...only('lookAgainMs', t.watchLookAgainMs),
    },
    agents: { ...only('timing', agentTiming), ...only('statusEveryMs', t.agentStatusEveryMs) },
    viewMessages: [],
    noticesShown: [],
    observeView: (view) => (driven ? observed(view, hooks) : view),
  };
  return hooks;
}

function record(hooks: TestHooks, m: ViewMessage): void {
  hooks.viewMessages.push(m);
  if (hooks.viewMessages.length > MAX_MESSAGES) hooks.viewMessages.shift();
}

/** `view` with its webview's postMessage and onDidReceiveMessage recorded; everything else is the editor's own. */
function observed(view: vscode.WebviewView, hooks: TestHooks): vscode.WebviewView {
  const webview = view.webview;
  const listeners: Array<(m: unknown) => unknown> = [];
  hooks.fromWebview = (message) => {
    record(hooks, { to: 'extension', message });
    for (const l of listeners) l(message);
  };
  const own: Partial<vscode.Webview> = {
    postMessage: (message: unknown) => {
      record(hooks, { to: 'webview', message });
      return webview.postMessage(message);
    },
    onDidReceiveMessage: (listener, thisArg, disposables) => {
      const bound = (m: unknown) => listener.call(thisArg, m);
      listeners.push(bound);
      return webview.onDidReceiveMessage(
        (m: unknown) => {
          record(hooks, { to: 'extension', message: m });
          bound(m);
        },
        undefined,
        disposables,
      );
    },
  };
  return forwarding(view, { webview: forwarding(webview, own) });
}

/**
 * `target` with some members replaced. The rest are read from and written to `target` itself (its methods bound to
 * it), so accessors over private state keep working.
 */
function forwarding<T extends object>(target: T, own: Partial<T>): T {
  return new Proxy(target, {
    get: (t, p) => {
      if (Object.prototype.hasOwnProperty.call(own, p)) return (own as Record<string | symbol, unknown>)[p];
      const v: unknown = Reflect.get(t, p);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
    set: (t, p, v) => Reflect.set(t, p, v),
  });
}
