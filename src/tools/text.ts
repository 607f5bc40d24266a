// Text hygiene every answer for a model goes through: untrusted text as plain lines, and the key
// removed as a last guard. No vscode import.

/** Untrusted text as plain lines: control characters (terminal escapes included) removed, newlines kept. */
export function clean(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}

/** Removes a secret wherever it appears: the last guard before text reaches a model. */
export function scrubSecret(text: string, secret: string | undefined): string {
  return secret && secret.length >= 4 ? text.split(secret).join('[redacted]') : text;
}
