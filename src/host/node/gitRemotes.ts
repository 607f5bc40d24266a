// Node's git remotes: `git config` reads the remotes of a folder on disk.
import type * as ChildProcess from 'node:child_process';
import { remotesFromConfigOutput, type NamedRemote } from '../../search/repoSlug';

/** `git config` itself reads the remotes when the Git extension has not opened the repository (yet, or at all). */
export function remotesFromGitConfig(folder: string): Promise<NamedRemote[]> {
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
