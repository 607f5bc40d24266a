// What the CLI remembers between runs: the last thread it started, per service address, so that
// `devindex agent start --continue` can ask a follow-up in it. Kept in the user's config folder
// (never in the project), readable by the user alone.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, posix, win32 } from 'node:path';

export const CONFIG_DIR_ENV = 'DEVINDEX_CONFIG_DIR';
const FILE = 'last-thread.json';
const MAX_REMEMBERED = 20;

/**
 * The CLI's config folder (the last threads, the watches), by each platform's convention: `%APPDATA%\\devindex`
 * on Windows (else `<home>\\AppData\\Roaming\\devindex`), `~/Library/Application Support/devindex` on macOS,
 * `$XDG_CONFIG_HOME/devindex` elsewhere (default `~/.config/devindex`; a relative XDG_CONFIG_HOME is ignored, as
 * the XDG specification says). `DEVINDEX_CONFIG_DIR` overrides it. Each platform's own path rules apply
 * whatever platform this runs on, so every convention can be tested anywhere.
 */
export function configDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  if (env[CONFIG_DIR_ENV]) return env[CONFIG_DIR_ENV]!;
  if (platform === 'win32') return win32.join(env.APPDATA || win32.join(home, 'AppData', 'Roaming'), 'devindex');
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support', 'devindex');
  const xdg = env.XDG_CONFIG_HOME && posix.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : undefined;
  return posix.join(xdg ?? posix.join(home, '.config'), 'devindex');
}

export interface LastThread { threadId: string; jobId: string; at: string }

type Store = Record<string, LastThread>;

function read(dir: string): Store {
  try {
    const v: unknown = JSON.parse(readFileSync(join(dir, FILE), 'utf8'));
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    const out: Store = {};
    for (const [k, t] of Object.entries(v as Record<string, unknown>)) {
      const r = t as Partial<LastThread> | null;
      if (r && typeof r.threadId === 'string' && typeof r.jobId === 'string' && typeof r.at === 'string') out[k] = { threadId: r.threadId, jobId: r.jobId, at: r.at };
    }
    return out;
  } catch {
    return {};
  }
}

/** The last thread started against this service address, if any. */
export function lastThread(env: NodeJS.ProcessEnv, baseUrl: string): LastThread | undefined {
  return read(configDir(env))[baseUrl];
}

/** Remembers a thread for `--continue`. Failing to write is not an error for the command: it returns why. */
export function rememberThread(env: NodeJS.ProcessEnv, baseUrl: string, t: LastThread): string | undefined {
  const dir = configDir(env);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const store = read(dir);
    delete store[baseUrl];
    store[baseUrl] = t;
    const kept = Object.fromEntries(Object.entries(store).slice(-MAX_REMEMBERED));
    const tmp = join(dir, `${FILE}.${process.pid}.tmp`);
    writeFileSync(tmp, `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, join(dir, FILE));
    return undefined;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
  }
}
