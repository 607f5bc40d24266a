// Text hygiene every answer for a model goes through: untrusted text as plain lines, and the key
// removed as a last guard. No vscode import.
import { withoutControls } from '../words/controls';

export { scrubSecret } from '../words/controls';

/** Untrusted text as plain lines: control characters (terminal escapes included) removed, newlines kept. */
export function clean(s: string): string {
  return withoutControls(s);
}
