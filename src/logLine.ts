// Pure (no vscode): what one log entry may look like.
import { withoutControls } from './words/controls';

/**
 * One log entry is one line: line breaks (which could forge further entries, e.g. from a webview's
 * `log` message or a server's error text) become a visible `⏎`, other control characters are dropped,
 * and the entry is bounded.
 */
export function oneLine(s: unknown): string {
  return withoutControls(String(s), { lines: 'mark', max: 4000 });
}
