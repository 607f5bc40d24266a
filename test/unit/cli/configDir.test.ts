// The CLI's folders follow each platform's convention, chosen by configDir / stateDir(env,
// platform, home) whatever platform the test runs on. Its state (the last threads, the watches) lives in the
// state folder; a file an older version left in the config folder is still read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  cacheDir,
  configDir,
  lastThread,
  readStateFile,
  rememberThread,
  stateDir,
  stateFileToRead,
} from '../../../src/cli/cliState';
import { runWatchCommand } from '../../../src/cli/watchCommand';
import { findRepoRoot } from '../../../sandbox/serverParts';

test('configDir on Windows: %APPDATA%\\devindex, else the roaming folder under the profile; XDG is not Windows', () => {
  assert.equal(
    configDir({ APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }, 'win32', 'C:\\Users\\me'),
    'C:\\Users\\me\\AppData\\Roaming\\devindex',
  );
  assert.equal(configDir({}, 'win32', 'C:\\Users\\me'), 'C:\\Users\\me\\AppData\\Roaming\\devindex');
  assert.equal(
    configDir({ APPDATA: '\\\\server\\profiles\\me\\AppData\\Roaming' }, 'win32', 'C:\\Users\\me'),
    '\\\\server\\profiles\\me\\AppData\\Roaming\\devindex',
    'a roaming profile on a share',
  );
  assert.equal(
    configDir({ APPDATA: 'C:/Users/me/AppData/Roaming' }, 'win32', 'C:\\Users\\me'),
    'C:\\Users\\me\\AppData\\Roaming\\devindex',
    'written with / it still comes out in Windows form',
  );
  assert.equal(configDir({ XDG_CONFIG_HOME: '/x', APPDATA: 'C:\\A' }, 'win32', 'C:\\Users\\me'), 'C:\\A\\devindex');
});

test('configDir on macOS: ~/Library/Application Support/devindex', () => {
  assert.equal(configDir({}, 'darwin', '/Users/me'), '/Users/me/Library/Application Support/devindex');
  assert.equal(
    configDir({ XDG_CONFIG_HOME: '/x' }, 'darwin', '/Users/me'),
    '/Users/me/Library/Application Support/devindex',
  );
});

test('configDir on Linux: $XDG_CONFIG_HOME/devindex when absolute, else ~/.config/devindex', () => {
  assert.equal(configDir({}, 'linux', '/home/me'), '/home/me/.config/devindex');
  assert.equal(configDir({ XDG_CONFIG_HOME: '/x/cfg' }, 'linux', '/home/me'), '/x/cfg/devindex');
  assert.equal(configDir({ XDG_CONFIG_HOME: '' }, 'linux', '/home/me'), '/home/me/.config/devindex');
  assert.equal(
    configDir({ XDG_CONFIG_HOME: 'rel/cfg' }, 'linux', '/home/me'),
    '/home/me/.config/devindex',
    'a relative XDG_CONFIG_HOME is ignored (XDG spec)',
  );
  assert.equal(configDir({ XDG_CONFIG_HOME: '/x' }, 'freebsd', '/home/me'), '/x/devindex');
});

test('DEVINDEX_CONFIG_DIR overrides every platform', () => {
  for (const p of ['win32', 'darwin', 'linux'] as const)
    assert.equal(
      configDir({ DEVINDEX_CONFIG_DIR: '/tmp/d', APPDATA: 'C:\\A', XDG_CONFIG_HOME: '/x' }, p, '/h'),
      '/tmp/d',
    );
});

test('stateDir on Windows: %LOCALAPPDATA%\\devindex (state stays on this machine), else the local folder under the profile', () => {
  assert.equal(
    stateDir(
      { LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local', APPDATA: 'C:\\Users\\me\\AppData\\Roaming' },
      'win32',
      'C:\\Users\\me',
    ),
    'C:\\Users\\me\\AppData\\Local\\devindex',
  );
  assert.equal(
    stateDir({ APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }, 'win32', 'C:\\Users\\me'),
    'C:\\Users\\me\\AppData\\Local\\devindex',
    'not the roaming folder',
  );
  assert.equal(
    stateDir({ LOCALAPPDATA: 'D:/profiles/me/Local' }, 'win32', 'C:\\Users\\me'),
    'D:\\profiles\\me\\Local\\devindex',
  );
  assert.equal(
    stateDir({ XDG_STATE_HOME: '/x' }, 'win32', 'C:\\Users\\me'),
    'C:\\Users\\me\\AppData\\Local\\devindex',
    'XDG is not Windows',
  );
});

test('stateDir on macOS: ~/Library/Application Support/devindex, the config folder', () => {
  assert.equal(stateDir({}, 'darwin', '/Users/me'), '/Users/me/Library/Application Support/devindex');
  assert.equal(stateDir({ XDG_STATE_HOME: '/x' }, 'darwin', '/Users/me'), configDir({}, 'darwin', '/Users/me'));
});

test('stateDir on Linux: $XDG_STATE_HOME/devindex when absolute, else ~/.local/state/devindex; not the config folder', () => {
  assert.equal(stateDir({}, 'linux', '/home/me'), '/home/me/.local/state/devindex');
  assert.equal(
    stateDir({ XDG_STATE_HOME: '/x/state', XDG_CONFIG_HOME: '/x/cfg' }, 'linux', '/home/me'),
    '/x/state/devindex',
  );
  assert.equal(stateDir({ XDG_STATE_HOME: '' }, 'linux', '/home/me'), '/home/me/.local/state/devindex');
  assert.equal(
    stateDir({ XDG_STATE_HOME: 'rel/state' }, 'linux', '/home/me'),
    '/home/me/.local/state/devindex',
    'a relative XDG_STATE_HOME is ignored (XDG spec)',
  );
  assert.equal(
    stateDir({ XDG_CONFIG_HOME: '/x/cfg' }, 'linux', '/home/me'),
    '/home/me/.local/state/devindex',
    'XDG_CONFIG_HOME is not where state goes',
  );
  assert.equal(stateDir({ XDG_STATE_HOME: '/x' }, 'freebsd', '/home/me'), '/x/devindex');
});

test('DEVINDEX_STATE_DIR overrides every platform; without it a DEVINDEX_CONFIG_DIR keeps the state in that one folder, as before', () => {
  for (const p of ['win32', 'darwin', 'linux'] as const) {
    assert.equal(
      stateDir(
        { DEVINDEX_STATE_DIR: '/tmp/s', DEVINDEX_CONFIG_DIR: '/tmp/d', LOCALAPPDATA: 'C:\\L', XDG_STATE_HOME: '/x' },
        p,
        '/h',
      ),
      '/tmp/s',
    );
    assert.equal(
      stateDir({ DEVINDEX_CONFIG_DIR: '/tmp/d', LOCALAPPDATA: 'C:\\L', XDG_STATE_HOME: '/x' }, p, '/h'),
      '/tmp/d',
    );
  }
});

test("cacheDir by each platform's convention: %LOCALAPPDATA%\\devindex\\Cache, ~/Library/Caches/devindex, $XDG_CACHE_HOME/devindex (else ~/.cache/devindex)", () => {
  assert.equal(
    cacheDir({ LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local', XDG_CACHE_HOME: '/x' }, 'win32', 'C:\\Users\\me'),
    'C:\\Users\\me\\AppData\\Local\\devindex\\Cache',
  );
  assert.equal(cacheDir({}, 'win32', 'C:\\Users\\me'), 'C:\\Users\\me\\AppData\\Local\\devindex\\Cache');
  assert.equal(cacheDir({ XDG_CACHE_HOME: '/x' }, 'darwin', '/Users/me'), '/Users/me/Library/Caches/devindex');
  assert.equal(cacheDir({}, 'linux', '/home/me'), '/home/me/.cache/devindex');
  assert.equal(
    cacheDir({ XDG_CACHE_HOME: '/x/cache', XDG_STATE_HOME: '/x/state' }, 'linux', '/home/me'),
    '/x/cache/devindex',
  );
  assert.equal(
    cacheDir({ XDG_CACHE_HOME: 'rel' }, 'linux', '/home/me'),
    '/home/me/.cache/devindex',
    'a relative XDG_CACHE_HOME is ignored (XDG spec)',
  );
  assert.notEqual(cacheDir({ DEVINDEX_STATE_DIR: '/s' }, 'linux', '/home/me'), '/s', 'a cache is not state');
});

test("which file is read: the state folder's; an older version's in the config folder only when the state folder has none", () => {
  const env = { XDG_CONFIG_HOME: '/c', XDG_STATE_HOME: '/s' };
  const has =
    (...files: string[]) =>
    (f: string) =>
      files.includes(f);
  assert.equal(
    stateFileToRead(env, 'watches.json', 'linux', '/h', has('/s/devindex/watches.json', '/c/devindex/watches.json')),
    '/s/devindex/watches.json',
  );
  assert.equal(
    stateFileToRead(env, 'watches.json', 'linux', '/h', has('/c/devindex/watches.json')),
    '/c/devindex/watches.json',
  );
  assert.equal(
    stateFileToRead(env, 'watches.json', 'linux', '/h', has()),
    '/s/devindex/watches.json',
    'neither: the new place',
  );
  const win = { APPDATA: 'C:\\U\\AppData\\Roaming', LOCALAPPDATA: 'C:\\U\\AppData\\Local' };
  assert.equal(
    stateFileToRead(
      win,
      'last-thread.json',
      'win32',
      'C:\\U',
      has('C:\\U\\AppData\\Roaming\\devindex\\last-thread.json'),
    ),
    'C:\\U\\AppData\\Roaming\\devindex\\last-thread.json',
  );
  assert.equal(
    stateFileToRead(win, 'last-thread.json', 'win32', 'C:\\U', has()),
    'C:\\U\\AppData\\Local\\devindex\\last-thread.json',
  );
});

test('the last thread is stored in the state folder, not the config folder', () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'devindex-cfg-'));
  try {
    const env = { DEVINDEX_STATE_DIR: path.join(base, 'state'), XDG_CONFIG_HOME: path.join(base, 'config') };
    assert.equal(
      rememberThread(env, 'http://s', { threadId: 't1', jobId: 'j1', at: '2026-11-25T00:00:00Z' }),
      undefined,
    );
    assert.ok(fs.existsSync(path.join(base, 'state', 'last-thread.json')));
    assert.ok(!fs.existsSync(path.join(base, 'config')), 'nothing written to the config folder');
    assert.equal(lastThread(env, 'http://s')?.threadId, 't1');
    if (process.platform !== 'win32' && process.platform !== 'darwin') {
      const xdg = { XDG_STATE_HOME: path.join(base, 'xdg-state'), XDG_CONFIG_HOME: path.join(base, 'xdg-config') };
      assert.equal(
        rememberThread(xdg, 'http://s', { threadId: 't2', jobId: 'j2', at: '2026-11-25T00:00:00Z' }),
        undefined,
      );
      assert.ok(fs.existsSync(path.join(base, 'xdg-state', 'devindex', 'last-thread.json')));
      assert.equal(stateDir(xdg), path.join(base, 'xdg-state', 'devindex'));
    }
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
});

test("an existing user's files in the old config folder are kept: the last thread and the watches are read from there, then written to the state folder", async () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'devindex-migrate-'));
  try {
    const oldDir = path.join(base, 'config', 'devindex');
    const newDir = path.join(base, 'state', 'devindex');
    // Both folders by their platform default (no DEVINDEX_* override), as an existing user on Linux has them.
    const env = { XDG_CONFIG_HOME: path.join(base, 'config'), XDG_STATE_HOME: path.join(base, 'state') };
    if (process.platform === 'win32' || process.platform === 'darwin') return; // the XDG variables are Linux's
    fs.mkdirSync(oldDir, { recursive: true });
    fs.writeFileSync(
      path.join(oldDir, 'last-thread.json'),
      JSON.stringify({ 'http://s': { threadId: 'old-thread', jobId: 'j0', at: '2026-11-01T00:00:00Z' } }),
    );
    const watch = {
      id: 'w0ld0001',
      params: { query: 'retry after', repos: ['fetchline/fetchline'] },
      createdAt: 1,
      seen: ['issue:fetchline/fetchline#1'],
      newCount: 0,
    };
    fs.writeFileSync(path.join(oldDir, 'watches.json'), JSON.stringify({ version: 1, watches: [watch] }));
    assert.equal(lastThread(env, 'http://s')?.threadId, 'old-thread', 'read from the config folder');
    const out: string[] = [];
    const io = {
      out: (s: string) => {
        out.push(s);
      },
      err: (s: string) => {
        out.push(s);
      },
      env,
    };
    assert.equal(await runWatchCommand(['list'], io, { now: () => 2 }), 0);
    assert.match(out.join(''), /^w0ld0001 {2}"retry after" in fetchline\/fetchline/, out.join(''));
    // A write goes to the state folder and keeps what was read; the old files stay where they were.
    assert.equal(
      rememberThread(env, 'http://t', { threadId: 'new-thread', jobId: 'j1', at: '2026-11-25T00:00:00Z' }),
      undefined,
    );
    const written = JSON.parse(fs.readFileSync(path.join(newDir, 'last-thread.json'), 'utf8')) as Record<
      string,
      { threadId: string }
    >;
    assert.deepEqual(Object.fromEntries(Object.entries(written).map(([k, v]) => [k, v.threadId])), {
      'http://s': 'old-thread',
      'http://t': 'new-thread',
    });
    assert.equal(lastThread(env, 'http://s')?.threadId, 'old-thread');
    assert.ok(fs.existsSync(path.join(oldDir, 'last-thread.json')));
    out.length = 0;
    assert.equal(await runWatchCommand(['remove', 'w0ld0001'], io, { now: () => 3 }), 0, out.join(''));
    assert.deepEqual(
      (JSON.parse(fs.readFileSync(path.join(newDir, 'watches.json'), 'utf8')) as { watches: unknown[] }).watches,
      [],
    );
    out.length = 0;
    assert.equal(await runWatchCommand(['list'], io, { now: () => 4 }), 0);
    assert.match(out.join(''), /^No watches\./, "the state folder's file wins once it exists");
    assert.equal(readStateFile(env, 'nothing.json'), undefined);
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
});

test('no CLI module finds a home, config or state folder of its own: every store goes through cliState', () => {
  const cli = path.join(findRepoRoot(__dirname) ?? '.', 'src', 'cli');
  const files = fs.readdirSync(cli).filter((f) => f.endsWith('.ts'));
  assert.ok(files.includes('watchCommand.ts') && files.includes('cliState.ts'));
  for (const f of files) {
    const text = fs.readFileSync(path.join(cli, f), 'utf8');
    if (f === 'cliState.ts') continue;
    assert.doesNotMatch(
      text,
      /\bhomedir\s*\(|\benv\.(?:XDG_CONFIG_HOME|XDG_STATE_HOME|XDG_CACHE_HOME|APPDATA|LOCALAPPDATA|USERPROFILE|HOME)\b|\benv\[['"](?:XDG_CONFIG_HOME|XDG_STATE_HOME|XDG_CACHE_HOME|APPDATA|LOCALAPPDATA|USERPROFILE|HOME)['"]\]|['"](?:\.config|\.local|\.cache|Caches|Application Support|AppData)['"]/,
      `${f} picks a folder itself`,
    );
    assert.doesNotMatch(
      text,
      /\b(?:readFileSync|writeFileSync)\([^)]*(?:configDir|stateDir)\(/,
      `${f} reads or writes a state file past readStateFile / writeStateFile`,
    );
  }
  assert.match(
    fs.readFileSync(path.join(cli, 'watchCommand.ts'), 'utf8'),
    /import \{ readStateFile, writeStateFile \} from '\.\/cliState'/,
  );
});
