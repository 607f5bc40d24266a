// "Set Up MCP for Another Agent…" inside a real extension host: the VS Code entry written to this
// workspace's .vscode/mcp.json (the answers passed as the command's arguments stand in for the
// pickers and the confirmation), a Claude Code entry shown, and no key in either, with a key set.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, type DevIndexExtensionApi, env } from './hostSupport';

interface SetupResult { client: string; action: 'written' | 'shown' | 'cancelled'; file?: string; text?: string }

describe('MCP setup', function () {
  this.timeout(60_000);
  let a: DevIndexExtensionApi;
  let file: string;
  let before_: string | undefined;

  before(async () => {
    a = await api();
    await a.apiKey.set(env('DEVINDEX_TEST_KEY'));
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the host tests open a workspace');
    file = path.join(folder.uri.fsPath, '.vscode', 'mcp.json');
    before_ = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  });

  after(async () => {
    if (before_ === undefined) fs.rmSync(file, { force: true });
    else fs.writeFileSync(file, before_);
    await a.apiKey.clear();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the command is contributed under its title', () => {
    const cmds = (vscode.extensions.getExtension('devindex.devindex')!.packageJSON as { contributes: { commands: Array<{ command: string; title: string }> } }).contributes.commands;
    assert.equal(cmds.find((c) => c.command === 'devIndex.mcp.setup')?.title, 'Set Up MCP for Another Agent…');
  });

  it('writes a VS Code mcp.json entry: node + the absolute bundled CLI + mcp, the key as a password input, never the key', async () => {
    const r = await vscode.commands.executeCommand<SetupResult>('devIndex.mcp.setup', { client: 'vscode', scope: 'workspace', answer: 'write' });
    assert.equal(r.action, 'written');
    assert.equal(r.file, file);
    const text = fs.readFileSync(file, 'utf8');
    const json = JSON.parse(text) as { servers: Record<string, { command: string; args: string[]; env: Record<string, string> }>; inputs: Array<{ id: string; password?: boolean }> };
    const server = json.servers.devindex!;
    assert.equal(server.command, 'node');
    assert.ok(path.isAbsolute(server.args[0]!) && server.args[0]!.endsWith(path.join('dist', 'cli.js')), server.args[0]);
    assert.ok(fs.existsSync(server.args[0]!), 'the CLI it names exists');
    assert.equal(server.args[1], 'mcp');
    assert.equal(server.env.DEVINDEX_API_KEY, '${input:devindex-api-key}');
    assert.equal(server.env.DEVINDEX_BASE_URL, a.baseUrl(), 'the editor\'s service address');
    assert.equal(json.inputs.find((i) => i.id === 'devindex-api-key')?.password, true);
    assert.ok(!text.includes(env('DEVINDEX_TEST_KEY')), 'no key in the file');
  });

  it('shows a Claude Code entry (nothing written), with the key by reference only', async () => {
    const r = await vscode.commands.executeCommand<SetupResult>('devIndex.mcp.setup', { client: 'claude' });
    assert.equal(r.action, 'shown');
    assert.equal(r.file, undefined);
    assert.match(r.text!, /claude mcp add-json devindex/);
    assert.match(r.text!, /"DEVINDEX_API_KEY": "\$\{DEVINDEX_API_KEY\}"/);
    assert.ok(!r.text!.includes(env('DEVINDEX_TEST_KEY')), 'no key in the entry');
    const shown = await (async () => {
      for (let i = 0; i < 50; i++) {
        const doc = vscode.window.activeTextEditor?.document;
        if (doc?.getText().includes('claude mcp add-json')) return doc.getText();
        await new Promise((res) => setTimeout(res, 100));
      }
      return '';
    })();
    assert.ok(shown.includes('dist/cli.js') || shown.includes('dist\\\\cli.js'), 'the shown document holds the entry');
    assert.ok(!shown.includes(env('DEVINDEX_TEST_KEY')));
  });
});
