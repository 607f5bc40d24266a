// Where each client keeps its MCP servers, by each platform's rules (tested on any platform).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientFile, knownFiles } from '../../../src/mcpSetup/clientFiles';

const linux = { platform: 'linux' as const, home: '/home/u', env: {}, cwd: '/p' };
const mac = { platform: 'darwin' as const, home: '/Users/u', env: {}, cwd: '/p' };
const win = {
  platform: 'win32' as const,
  home: 'C:\\Users\\u',
  env: { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' },
  cwd: 'C:\\p',
};

describe('client files', () => {
  it('user files per platform', () => {
    assert.deepEqual(clientFile('vscode', 'user', linux), { file: '/home/u/.config/Code/User/mcp.json' });
    assert.deepEqual(clientFile('vscode', 'user', { ...linux, env: { XDG_CONFIG_HOME: '/x' } }), {
      file: '/x/Code/User/mcp.json',
    });
    assert.deepEqual(clientFile('vscode', 'user', { ...linux, env: { XDG_CONFIG_HOME: 'relative' } }), {
      file: '/home/u/.config/Code/User/mcp.json',
    });
    assert.deepEqual(clientFile('vscode', 'user', mac), {
      file: '/Users/u/Library/Application Support/Code/User/mcp.json',
    });
    assert.deepEqual(clientFile('vscode', 'user', win), {
      file: 'C:\\Users\\u\\AppData\\Roaming\\Code\\User\\mcp.json',
    });
    assert.deepEqual(clientFile('cursor', 'user', win), { file: 'C:\\Users\\u\\.cursor\\mcp.json' });
    assert.deepEqual(clientFile('windsurf', 'user', mac), { file: '/Users/u/.codeium/windsurf/mcp_config.json' });
    assert.deepEqual(clientFile('claude-desktop', 'user', mac), {
      file: '/Users/u/Library/Application Support/Claude/claude_desktop_config.json',
    });
    assert.deepEqual(clientFile('claude-desktop', 'user', win), {
      file: 'C:\\Users\\u\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    });
  });

  it('project files where the client has one; none (with the reason) where it has not', () => {
    assert.deepEqual(clientFile('vscode', 'project', linux), { file: '/p/.vscode/mcp.json' });
    assert.deepEqual(clientFile('cursor', 'project', win), { file: 'C:\\p\\.cursor\\mcp.json' });
    assert.match((clientFile('windsurf', 'project', linux) as { none: string }).none, /no project file/);
    assert.match((clientFile('claude', 'user', linux) as { none: string }).none, /run the command below/);
    assert.match((clientFile('generic', 'user', linux) as { none: string }).none, /--file/);
  });

  it('the files an activation looks at for old entries', () => {
    assert.deepEqual(knownFiles(linux, ['/w']), [
      '/home/u/.config/Code/User/mcp.json',
      '/home/u/.cursor/mcp.json',
      '/home/u/.codeium/windsurf/mcp_config.json',
      '/home/u/.config/Claude/claude_desktop_config.json',
      '/w/.vscode/mcp.json',
      '/w/.cursor/mcp.json',
      '/w/.mcp.json',
    ]);
  });
});
