// The light half of the CLI helpers: what the `devindex` entry needs to parse the global options and
// report a usage error, with no import at all, so that the entry stays small (src/cli/main.ts loads
// each command's own bundle only when it runs). common.ts re-exports all of it.

/**
 * Text goes out as given (callers add the newlines). `signal` fires on Ctrl+C: requests and waits stop.
 * `timeoutMs` is the global `--timeout` (per attempt).
 */
export interface CliIo { out(s: string): void; err(s: string): void; env: NodeJS.ProcessEnv; signal?: AbortSignal; timeoutMs?: number }

export const EXIT_OK = 0;
/** A service or network error. */
export const EXIT_FAILURE = 1;
/** Invalid input: nothing was sent. */
export const EXIT_USAGE = 2;
/** Interrupted with Ctrl+C (128 + SIGINT, as shells report it). */
export const EXIT_INTERRUPTED = 130;

/** Bad command-line input; printed as `devindex: <message>` with exit code 2. */
export class UsageError extends Error {
  constructor(message: string) { super(message); this.name = 'UsageError'; }
}

/** `--timeout SECONDS`: per attempt, 1 to 300 (like devIndex.requestTimeoutSeconds). */
export const MAX_TIMEOUT_SECONDS = 300;
export function parseTimeoutSeconds(v: string): number {
  const t = v.trim();
  const n = Number(t);
  if (!/^\d+(\.\d+)?$/.test(t) || !(n >= 0.1 && n <= MAX_TIMEOUT_SECONDS)) {
    throw new UsageError(`--timeout must be a number of seconds from 0.1 to ${MAX_TIMEOUT_SECONDS} (per attempt); got ${JSON.stringify(v.slice(0, 40))}`);
  }
  return Math.round(n * 1000);
}

/**
 * Removes terminal control sequences from untrusted text (keeps newlines and tabs): CSI, OSC (window
 * title, OSC 8 hyperlinks, OSC 52 clipboard), DCS/APC/PM/SOS strings, their 8-bit C1 forms, every other
 * C0/C1 control, and the bidirectional overrides that reorder what a line appears to say.
 */
export function sanitizeForTerminal(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/(?:\u001b\[|\u009b)[0-9;?:<=>]*[ -/]*[@-~]|(?:\u001b[\]P^_X]|[\u009d\u0090\u009e\u009f\u0098])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[ -/]*[0-~]?|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '');
}


/** Untrusted text as one terminal line: control sequences removed, line breaks become spaces. */
export function terminalLine(s: string): string {
  return sanitizeForTerminal(s).replace(/[\r\n\t\u2028\u2029]+/g, ' ').trim();
}
