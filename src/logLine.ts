// Pure (no vscode): what one log entry may look like.

/**
 * One log entry is one line: line breaks (which could forge further entries, e.g. from a webview's
 * `log` message or a server's error text) become a visible `⏎`, other control characters are dropped,
 * and the entry is bounded.
 */
export function oneLine(s: unknown): string {
  // eslint-disable-next-line no-control-regex
  return String(s).replace(/\r\n|[\r\n\u2028\u2029\u0085]/g, ' ⏎ ').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '').slice(0, 4000);
}
