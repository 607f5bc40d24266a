import * as vscode from 'vscode';
import { oneLine } from './logLine';

export { oneLine };

/** What callers may use of the channel; every message goes through `oneLine`. */
export type DevIndexLog = Pick<vscode.LogOutputChannel, 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'show' | 'onDidChangeLogLevel' | 'logLevel'>;

let channel: vscode.LogOutputChannel | undefined;
let wrapped: DevIndexLog | undefined;

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
