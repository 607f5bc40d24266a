// Text hygiene. The one control-character cleaner: untrusted text (a service's error, a page title, a model's words, a
// webview's log message) with its control characters removed before it reaches a terminal, a log, a model
// or a file name. Each surface picks what happens to line breaks. Pure; no vscode, no Node.

interface ControlOptions {
  /**
   * Line breaks: `keep` (the default) keeps line feeds and tabs, a CR LF or a lone CR becomes a line feed;
   * `join` makes the text one line (each run of line breaks and tabs becomes one space, ends trimmed);
   * `mark` makes each line break a visible ` ⏎ ` (a log entry that cannot forge the next one).
   */
  lines?: 'keep' | 'join' | 'mark';
  /**
   * Terminal escape sequences (CSI, OSC with its payload, DCS/APC/PM/SOS strings, their 8-bit forms) go whole, not only
   * their control characters.
   */
  sequences?: boolean;
  /** The bidirectional overrides and isolates that reorder what a line appears to say go too. */
  bidi?: boolean;
  /** What a removed control character becomes: nothing (the default) or a space. */
  replaceWith?: '' | ' ';
  /** At most this many characters (after cleaning). */
  max?: number;
}

const SEQUENCES =
  // eslint-disable-next-line no-control-regex
  /(?:\u001b\[|\u009b)[0-9;?:<=>]*[ -/]*[@-~]|(?:\u001b[\]P^_X]|[\u009d\u0090\u009e\u009f\u0098])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[ -/]*[0-~]?/g;
// Every C0 and C1 control but tab and line feed.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS_AND_BIDI = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `s` without control characters (see ControlOptions for line breaks, sequences and bidi overrides). */
export function withoutControls(s: string, o: ControlOptions = {}): string {
  let t = o.sequences ? s.replace(SEQUENCES, '') : s;
  if (o.lines === 'mark') t = t.replace(/\r\n|[\r\n\u2028\u2029\u0085]/g, ' ⏎ ');
  else if (o.lines === 'join') t = t.replace(/[\r\t\u2028\u2029\u0085]/g, '\n');
  else t = t.replace(/\r\n?/g, '\n');
  t = t.replace(o.bidi ? CONTROLS_AND_BIDI : CONTROLS, o.replaceWith ?? '');
  if (o.lines === 'join') t = t.replace(/\n+/g, ' ').trim();
  return o.max !== undefined ? t.slice(0, o.max) : t;
}

/** Removes a secret wherever it appears: the last guard before text leaves a surface. */
export function scrubSecret(text: string, secret: string | undefined): string {
  return secret && secret.length >= 4 ? text.split(secret).join('[redacted]') : text;
}
