// Where the CLI keeps its files and what it remembers between runs: the last thread started per service address
// (`devindex agent start --continue`). State lives in the user's state folder, readable by the user alone; files an
// older version left in the config folder are still read.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, posix, win32 } from 'node:path';

const CONFIG_DIR_ENV = 'DEVINDEX_CONFIG_DIR';
const STATE_DIR_ENV = 'DEVINDEX_STATE_DIR';
const FILE = 'last-thread.json';
const MAX_REMEMBERED = 20;

/** The user's home folder (`devindex setup` finds each client's file under it: src/mcpSetup/clientFiles.ts). */
export function userHome(): string {
  return homedir();
}

/** `value` when it is an absolute POSIX path: a relative XDG_* variable is ignored, as the XDG specification says. */
const absoluteXdg = (value: string | undefined): string | undefined =>
  value && posix.isAbsolute(value) ? value : undefined;

/**
 * The CLI's config folder, by each platform's convention: `%APPDATA%\\devindex` on Windows (else
 * `<home>\\AppData\\Roaming\\devindex`), `~/Library/Application Support/devindex` on macOS,
 * `$XDG_CONFIG_HOME/devindex` elsewhere (default `~/.config/devindex`). `DEVINDEX_CONFIG_DIR` overrides it.
 * Versions before the state folder kept the last threads and the watches here; they are still read from
 * here when the state folder has none (stateFileToRead). Each platform's own path rules apply whatever
 * platform this runs on, so every convention can be tested anywhere.
 */
export function configDir(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
  home = homedir(),
): string {
  if (env[CONFIG_DIR_ENV]) return env[CONFIG_DIR_ENV]!;
  if (platform === 'win32') return win32.join(env.APPDATA || win32.join(home, 'AppData', 'Roaming'), 'devindex');
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support', 'devindex');
  return posix.join(absoluteXdg(env.XDG_CONFIG_HOME) ?? posix.join(home, '.config'), 'devindex');
}

/**
 * The CLI's state folder (the last threads, the watches: what it remembers, not what the user configures),
 * by each platform's convention: `%LOCALAPPDATA%\\devindex` on Windows (else `<home>\\AppData\\Local\\devindex`:
 * state stays on this machine, not in the roaming profile), `~/Library/Application Support/devindex` on
 * macOS (the same folder as the config), `$XDG_STATE_HOME/devindex` elsewhere (default
 * `~/.local/state/devindex`). `DEVINDEX_STATE_DIR` overrides it; without it, a `DEVINDEX_CONFIG_DIR` keeps
 * the state in that one folder too, as it did before there was a state folder.
 */
export function stateDir(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
  home = homedir(),
): string {
  if (env[STATE_DIR_ENV]) return env[STATE_DIR_ENV]!;
  if (env[CONFIG_DIR_ENV]) return env[CONFIG_DIR_ENV]!;
  if (platform === 'win32') return win32.join(env.LOCALAPPDATA || win32.join(home, 'AppData', 'Local'), 'devindex');
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support', 'devindex');
  return posix.join(absoluteXdg(env.XDG_STATE_HOME) ?? posix.join(home, '.local', 'state'), 'devindex');
}

/**
 * The CLI's cache folder (V8's compiled code of the command bundles: src/cli/compileCache.ts), by each
 * platform's convention: `%LOCALAPPDATA%\\devindex\\Cache` on Windows (else under `<home>\\AppData\\Local`),
 * `~/Library/Caches/devindex` on macOS, `$XDG_CACHE_HOME/devindex` elsewhere (default `~/.cache/devindex`).
 * It is the user's own folder, never a shared temporary one another user could write into. Anything in it
 * may be deleted at any time.
 */
export function cacheDir(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
  home = homedir(),
): string {
  if (platform === 'win32')
    return win32.join(env.LOCALAPPDATA || win32.join(home, 'AppData', 'Local'), 'devindex', 'Cache');
  if (platform === 'darwin') return posix.join(home, 'Library', 'Caches', 'devindex');
  return posix.join(absoluteXdg(env.XDG_CACHE_HOME) ?? posix.join(home, '.cache'), 'devindex');
}

/** Joins with the platform's own separator (a Windows folder gets `\\` whatever platform runs this). */
const joinFor = (platform: NodeJS.Platform, dir: string, name: string): string =>
  platform === 'win32' ? win32.join(dir, name) : posix.join(dir, name);

/**
 * The file to read a state file `name` from: the state folder's, unless only the config folder has one
 * (left there by an older version), then that one, so nothing is lost. Writes always go to the state
 * folder (writeStateFile); from then on its copy is the one read.
 */
export function stateFileToRead(
  env: NodeJS.ProcessEnv,
  name: string,
  platform: NodeJS.Platform = process.platform,
  home = homedir(),
  exists: (file: string) => boolean = existsSync,
): string {
  const current = joinFor(platform, stateDir(env, platform, home), name);
  if (exists(current)) return current;
  const old = joinFor(platform, configDir(env, platform, home), name);
  return old !== current && exists(old) ? old : current;
}

/** A state file's text (see stateFileToRead), or undefined when there is none or it cannot be read. */
export function readStateFile(env: NodeJS.ProcessEnv, name: string): string | undefined {
  try {
    return readFileSync(stateFileToRead(env, name), 'utf8');
  } catch {
    return undefined;
  }
}

/** Writes a state file into the state folder (made for the user alone), through a temporary file and a rename. */
export function writeStateFile(env: NodeJS.ProcessEnv, name: string, text: string): void {
  const dir = stateDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = join(dir, `${name}.${process.pid}.tmp`);
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, join(dir, name));
}

interface LastThread {
  threadId: string;
  jobId: string;
  at: string;
}

type Store = Record<string, LastThread>;

function read(env: NodeJS.ProcessEnv): Store {
  try {
    const v: unknown = JSON.parse(readStateFile(env, FILE) ?? '{}');
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    const out: Store = {};
    for (const [k, t] of Object.entries(v as Record<string, unknown>)) {
      const r = t as Partial<LastThread> | null;
      if (r && typeof r.threadId === 'string' && typeof r.jobId === 'string' && typeof r.at === 'string')
        out[k] = { threadId: r.threadId, jobId: r.jobId, at: r.at };
    }
    return out;
  } catch {
    return {};
  }
}

/** The last thread started against this service address, if any. */
export function lastThread(env: NodeJS.ProcessEnv, baseUrl: string): LastThread | undefined {
  return read(env)[baseUrl];
}

/** Remembers a thread for `--continue`. Failing to write is not an error for the command: it returns why. */
export function rememberThread(env: NodeJS.ProcessEnv, baseUrl: string, t: LastThread): string | undefined {
  try {
    const store = read(env);
    delete store[baseUrl];
    store[baseUrl] = t;
    const kept = Object.fromEntries(Object.entries(store).slice(-MAX_REMEMBERED));
    writeStateFile(env, FILE, `${JSON.stringify(kept, null, 2)}\n`);
    return undefined;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
  }
}
