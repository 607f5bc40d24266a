// Reading and writing a user's file safely, and finding an older entry's stale path: small and free of
// parsers, so the activation bundle can look for stale entries without loading jsonc-parser
// (dist/cli-setup.js is loaded only when something must be edited).
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { VERSIONED_CLI } from './launcherStamp';

export type Read = { kind: 'missing' } | { kind: 'text'; text: string } | { kind: 'unreadable'; reason: string };

/** A file's text; a missing file is not an error, any other failure is a reason. */
export function readUserFile(file: string): Read {
  try {
    if (existsSync(file) && statSync(file).isDirectory()) return { kind: 'unreadable', reason: 'it is a folder' };
    return { kind: 'text', text: readFileSync(file, 'utf8') };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? { kind: 'missing' }
      : { kind: 'unreadable', reason: `it cannot be read (${code ?? (e as Error).message})` };
  }
}

/**
 * Writes through a temporary file beside the target and a rename, so a crash never leaves half a file. The
 * existing file's mode is kept (a new one gets `mode`); a symbolic link is followed, so a link into a dotfiles
 * repository stays a link and its target is what changes.
 */
export function writeAtomic(file: string, text: string, mode = 0o644): void {
  let target = file;
  let keepMode: number | undefined;
  try {
    if (lstatSync(file).isSymbolicLink()) target = realpathSync(file);
    keepMode = statSync(target).mode & 0o7777;
  } catch {
    /* a new file */
  }
  mkdirSync(dirname(target), { recursive: true });
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  try {
    writeFileSync(tmp, text, { mode: keepMode ?? mode });
    if (keepMode !== undefined) chmodSync(tmp, keepMode);
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** Paths in a file's text that look like an older entry's `<extension>-<version>/dist/cli.js` and no longer exist. */
export function stalePaths(text: string, exists: (p: string) => boolean = existsSync): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/"((?:[^"\\]|\\.)*)"/g)) {
    let s: string;
    try {
      s = JSON.parse(`"${m[1]!}"`) as string;
    } catch {
      continue;
    }
    if (VERSIONED_CLI.test(s) && !exists(s)) out.push(s);
  }
  return out;
}
