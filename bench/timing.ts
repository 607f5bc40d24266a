// Helpers the benches share: timed calls and their median and 95th percentile, and a server started
// in its own process.
import { spawn, type ChildProcess } from 'node:child_process';

export function stats(samples: number[]): { median: number; p95: number } {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return { median: q(0.5), p95: q(0.95) };
}

/** One call's time in ms. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/** Calls `fn` `n` times one after another and pushes each call's time in ms into `into`. */
export async function time(fn: () => Promise<unknown>, n: number, into: number[]): Promise<void> {
  for (let i = 0; i < n; i++) into.push(await timed(fn));
}

/** A duration in µs, right-aligned. */
export const fmt = (ms: number): string => `${(ms * 1000).toFixed(0).padStart(6)} µs`;

export interface Server {
  child: ChildProcess;
  url: string;
}

/** Starts `node <args>` and resolves with its URL once it prints `listening on http://127.0.0.1:<port>`. */
export function spawnServer(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Server> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('server did not start within 10 s'));
    }, 10_000);
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1] as string });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited ${code}`));
    });
  });
}
