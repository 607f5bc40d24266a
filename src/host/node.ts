// Node's host (the desktop's dist/core.js, src/core.ts): undici (src/api/http.ts) and `git config` in a process.
import type * as ChildProcess from 'node:child_process';
import { HttpTransport } from '../api/http';
import type { Host, NamedRemote } from './host';

/**
 * The remotes in `git config --get-regexp '^remote\..*\.url$'` output: `remote.<name>.url <url>` per line
 * (names may hold dots; Git for Windows may end lines with CRLF; a local remote's path may hold spaces).
 */
export function remotesFromConfigOutput(stdout: string): NamedRemote[] {
  const out: NamedRemote[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const m = /^remote\.(.+)\.url\s+(.+)$/.exec(line.trim());
    if (m) out.push({ name: m[1]!, url: m[2]! });
  }
  return out;
}

/** `git config` itself reads the remotes when the Git extension has not opened the repository (yet, or at all). */
function remotesFromGitConfig(folder: string): Promise<NamedRemote[]> {
  // Required here, not at the top: loading node:child_process (and the net and stream modules under it)
  // took about two thirds of the extension's activation (npm run bench, activation).
  const { execFile } = require('node:child_process') as typeof ChildProcess;
  return new Promise((resolve) => {
    execFile(
      'git',
      ['config', '--get-regexp', '^remote\\..*\\.url$'],
      { cwd: folder, timeout: 5000 },
      (err, stdout) => {
        resolve(err ? [] : remotesFromConfigOutput(stdout));
      },
    );
  });
}

export const nodeHost: Host = {
  createTransport: (o) => new HttpTransport({ network: o.network }),
  remotesFromGitConfig,
};
