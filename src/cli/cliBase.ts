// The light half of the CLI helpers: what the `devindex` entry needs to parse the global options and
// report a usage error, with no import but the control-character cleaner, so that the entry stays small
// (src/cli/main.ts loads each command's own bundle only when it runs). common.ts re-exports all of it.
import { withoutControls } from '../words/controls';

/**
 * Text goes out as given (callers add the newlines). `signal` fires on Ctrl+C: requests and waits stop.
 * `timeoutMs` is the global `--timeout` (per attempt).
 */
export interface CliIo {
  out(s: string): void;
  err(s: string): void;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export const EXIT_OK = 0;
/** A service or network error. */
export const EXIT_FAILURE = 1;
/** Invalid input: nothing was sent. */
export const EXIT_USAGE = 2;
/** Interrupted with Ctrl+C (128 + SIGINT, as shells report it). */
export const EXIT_INTERRUPTED = 130;

/** Bad command-line input; printed as `devindex: <message>` with exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** `--timeout SECONDS`: per attempt, 1 to 300 (like devIndex.requestTimeoutSeconds). */
const MAX_TIMEOUT_SECONDS = 300;
export function parseTimeoutSeconds(v: string): number {
  const t = v.trim();
  const n = Number(t);
  if (!/^\d+(\.\d+)?$/.test(t) || !(n >= 0.1 && n <= MAX_TIMEOUT_SECONDS)) {
    throw new UsageError(
      `--timeout must be a number of seconds from 0.1 to ${MAX_TIMEOUT_SECONDS} (per attempt); got ${JSON.stringify(v.slice(0, 40))}`,
    );
  }
  return Math.round(n * 1000);
}

/**
 * Removes terminal control sequences from untrusted text (keeps newlines and tabs): CSI, OSC (window
 * title, OSC 8 hyperlinks, OSC 52 clipboard), DCS/APC/PM/SOS strings, their 8-bit C1 forms, every other
 * C0/C1 control, and the bidirectional overrides that reorder what a line appears to say.
 */
export function sanitizeForTerminal(s: string): string {
  return withoutControls(s, { sequences: true, bidi: true });
}

/** Untrusted text as one terminal line: control sequences removed, line breaks become spaces. */
export function terminalLine(s: string): string {
  return withoutControls(s, { sequences: true, bidi: true, lines: 'join' });
}
