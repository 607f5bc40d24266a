// Issue 24 §5: the CLI keeps its state (the last threads, the watches) in each platform's config folder,
// chosen by configDir(env, platform, home) whatever platform the test runs on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { configDir, lastThread, rememberThread } from '../../../src/cli/cliState';
import { findRepoRoot } from '../../../sandbox/server';

test('configDir on Windows: %APPDATA%\\devindex, else the roaming folder under the profile; XDG is not Windows', () => {
  assert.equal(configDir({ APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }, 'win32', 'C:\\Users\\me'), 'C:\\Users\\me\\AppData\\Roaming\\devindex');
  assert.equal(configDir({}, 'win32', 'C:\\Users\\me'), 'C:\\Users\\me\\AppData\\Roaming\\devindex');
  assert.equal(configDir({ APPDATA: '\\\\server\\profiles\\me\\AppData\\Roaming' }, 'win32', 'C:\\Users\\me'), '\\\\server\\profiles\\me\\AppData\\Roaming\\devindex', 'a roaming profile on a share');
  assert.equal(configDir({ APPDATA: 'C:/Users/me/AppData/Roaming' }, 'win32', 'C:\\Users\\me'), 'C:\\Users\\me\\AppData\\Roaming\\devindex', 'written with / it still comes out in Windows form');
  assert.equal(configDir({ XDG_CONFIG_HOME: '/x', APPDATA: 'C:\\A' }, 'win32', 'C:\\Users\\me'), 'C:\\A\\devindex');
});

test('configDir on macOS: ~/Library/Application Support/devindex', () => {
  assert.equal(configDir({}, 'darwin', '/Users/me'), '/Users/me/Library/Application Support/devindex');
  assert.equal(configDir({ XDG_CONFIG_HOME: '/x' }, 'darwin', '/Users/me'), '/Users/me/Library/Application Support/devindex');
});

test('configDir on Linux: $XDG_CONFIG_HOME/devindex when absolute, else ~/.config/devindex', () => {
  assert.equal(configDir({}, 'linux', '/home/me'), '/home/me/.config/devindex');
  assert.equal(configDir({ XDG_CONFIG_HOME: '/x/cfg' }, 'linux', '/home/me'), '/x/cfg/devindex');
  assert.equal(configDir({ XDG_CONFIG_HOME: '' }, 'linux', '/home/me'), '/home/me/.config/devindex');
  assert.equal(configDir({ XDG_CONFIG_HOME: 'rel/cfg' }, 'linux', '/home/me'), '/home/me/.config/devindex', 'a relative XDG_CONFIG_HOME is ignored (XDG spec)');
  assert.equal(configDir({ XDG_CONFIG_HOME: '/x' }, 'freebsd', '/home/me'), '/x/devindex');
});

test('DEVINDEX_CONFIG_DIR overrides every platform', () => {
  for (const p of ['win32', 'darwin', 'linux'] as const) assert.equal(configDir({ DEVINDEX_CONFIG_DIR: '/tmp/d', APPDATA: 'C:\\A', XDG_CONFIG_HOME: '/x' }, p, '/h'), '/tmp/d');
});

test('the last thread is stored in configDir(env)', () => {
  const xdg = fs.mkdtempSync(path.join(os.tmpdir(), 'devindex-cfg-'));
  const env = { XDG_CONFIG_HOME: xdg };
  assert.equal(rememberThread(env, 'http://s', { threadId: 't1', jobId: 'j1', at: '2026-11-25T00:00:00Z' }), undefined);
  if (process.platform !== 'win32' && process.platform !== 'darwin') assert.ok(fs.existsSync(path.join(xdg, 'devindex', 'last-thread.json')));
  assert.ok(fs.existsSync(path.join(configDir(env), 'last-thread.json')));
  assert.equal(lastThread(env, 'http://s')?.threadId, 't1');
});

test('no CLI module finds a home or config folder of its own: every store goes through configDir', () => {
  const cli = path.join(findRepoRoot(__dirname) ?? '.', 'src', 'cli');
  const files = fs.readdirSync(cli).filter((f) => f.endsWith('.ts'));
  assert.ok(files.includes('watchCommand.ts') && files.includes('cliState.ts'));
  for (const f of files) {
    const text = fs.readFileSync(path.join(cli, f), 'utf8');
    if (f === 'cliState.ts') continue;
    assert.doesNotMatch(text, /\bhomedir\s*\(|\benv\.(?:XDG_CONFIG_HOME|APPDATA|LOCALAPPDATA|USERPROFILE|HOME)\b|\benv\[['"](?:XDG_CONFIG_HOME|APPDATA|LOCALAPPDATA|USERPROFILE|HOME)['"]\]|['"](?:\.config|Application Support|AppData)['"]/, `${f} picks a folder itself`);
  }
  assert.match(fs.readFileSync(path.join(cli, 'watchCommand.ts'), 'utf8'), /import \{ configDir \} from '\.\/cliState'/);
});
