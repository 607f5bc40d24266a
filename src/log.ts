import * as vscode from 'vscode';

/** What callers may use of the channel; every message goes through `oneLine`. */
export type DevIndexLog = Pick<vscode.LogOutputChannel, 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'show' | 'onDidChangeLogLevel' | 'logLevel'>;

let channel: vscode.LogOutputChannel | undefined;
let wrapped: DevIndexLog | undefined;

/**
 * One log entry is one line: line breaks (which could forge further entries, e.g. from a webview's
 * `log` message or a server's error text) become a visible `⏎`, other control characters are dropped.
 */
export function oneLine(s: unknown): string {
  // eslint-disable-next-line no-control-regex
  return String(s).replace(/\r\n|[\r\n\u2028\u2029\u0085]/g, ' ⏎ ').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '').slice(0, 4000);
}

/** The one `Developer Index` log channel. Callers never pass a key; request lines carry method, path, status, attempts and time only. */
export function log(): DevIndexLog {
  if (wrapped) return wrapped;
  const c = channel ??= vscode.window.createOutputChannel('Developer Index', { log: true });
  wrapped = {
    trace: (m, ...a) => c.trace(oneLine(m), ...a),
    debug: (m, ...a) => c.debug(oneLine(m), ...a),
    info: (m, ...a) => c.info(oneLine(m), ...a),
    warn: (m, ...a) => c.warn(oneLine(m), ...a),
    error: (m, ...a) => c.error(typeof m === 'string' ? oneLine(m) : m, ...a),
    show: (preserveFocus?: boolean) => c.show(preserveFocus),
    get onDidChangeLogLevel() { return c.onDidChangeLogLevel; },
    get logLevel() { return c.logLevel; },
  } as DevIndexLog;
  return wrapped;
}

export function disposeLog(): void {
  channel?.dispose();
  channel = undefined;
  wrapped = undefined;
}
