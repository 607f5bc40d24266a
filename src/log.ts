import * as vscode from 'vscode';
import { oneLine } from './logLine';

export { oneLine };

/** What callers may use of the channel; every message goes through `oneLine`. */
type DevIndexLog = Pick<
  vscode.LogOutputChannel,
  'trace' | 'debug' | 'info' | 'warn' | 'error' | 'show' | 'onDidChangeLogLevel' | 'logLevel'
>;

let channel: vscode.LogOutputChannel | undefined;
let wrapped: DevIndexLog | undefined;

/** The last lines written, for Report an Issue… (a LogOutputChannel cannot be read back). */
const RECENT_MAX = 200;
const recent: string[] = [];
function remember(level: string, m: unknown): string {
  const line = oneLine(m);
  recent.push(`${new Date().toISOString()} [${level}] ${line}`);
  if (recent.length > RECENT_MAX) recent.splice(0, recent.length - RECENT_MAX);
  return line;
}

/** The last `n` lines of this session's log (each already one line; the key is never logged, callers redact anyway). */
export function recentLogLines(n = 50): string[] {
  return recent.slice(-Math.max(0, n));
}

/** The one `Developer Index` log channel. Callers never pass a key; request lines carry method, path, status, attempts and time only. */
export function log(): DevIndexLog {
  if (wrapped) return wrapped;
  const c = (channel ??= vscode.window.createOutputChannel('Developer Index', { log: true }));
  wrapped = {
    trace: (m, ...a) => c.trace(remember('trace', m), ...a),
    debug: (m, ...a) => c.debug(remember('debug', m), ...a),
    info: (m, ...a) => c.info(remember('info', m), ...a),
    warn: (m, ...a) => c.warn(remember('warning', m), ...a),
    error: (m, ...a) => {
      const line = remember('error', m instanceof Error ? m.message : m);
      c.error(typeof m === 'string' ? line : m, ...a);
    },
    show: (preserveFocus?: boolean) => c.show(preserveFocus),
    get onDidChangeLogLevel() {
      return c.onDidChangeLogLevel;
    },
    get logLevel() {
      return c.logLevel;
    },
  } as DevIndexLog;
  return wrapped;
}

export function disposeLog(): void {
  channel?.dispose();
  channel = undefined;
  wrapped = undefined;
}
