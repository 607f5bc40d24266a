// Runs dist/cli.js as a child process for the HTTP tier, asynchronously (a sandbox in the test's own
// process must keep answering, so a blocking spawn would hang it). DEVINDEX_* from the outer
// environment are removed so that a test sees only what it passes.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { findRepoRoot } from '../../sandbox/serverParts';

export const CLI_PATH = join(findRepoRoot(__dirname) ?? process.cwd(), 'dist', 'cli.js');

export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

/**
 * `interrupt`: when to send SIGINT: a delay in ms, or a promise-returning function (e.g. "once the
 * sandbox has seen the request"), so that a slow start on a loaded machine cannot beat the CLI's
 * own SIGINT handler.
 */
export function runCliProcess(
  args: string[],
  env: Record<string, string> = {},
  interrupt?: number | (() => Promise<unknown>),
  opts: { cwd?: string } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const base = { ...process.env };
    delete base.DEVINDEX_API_KEY;
    delete base.DEVINDEX_BASE_URL;
    const child = spawn(process.execPath, [CLI_PATH, ...args], {
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
      env: { ...base, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`cli timed out: ${args.join(' ')}`));
    }, 20_000);
    if (typeof interrupt === 'number') setTimeout(() => child.kill('SIGINT'), interrupt);
    else if (interrupt) interrupt().then(() => child.kill('SIGINT'), reject);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}
