// "Set Up MCP for Another Agent…" and "Add Agent Rules for Developer Index…" inside a real extension host (the
// answers passed as the commands' arguments stand in for the pickers and the confirmation): the VS Code entry
// merged into this workspace's .vscode/mcp.json with the user's comments, trailing commas, odd strings and other
// servers kept byte for byte, the launcher in the extension's global storage as its command, no key in any
// file; an unparseable file left alone; an older version's entry (pointing into a removed extension folder)
// repaired with one notice; the launcher surviving an update (its extension folder removed); the rules blocks.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, type DevIndexExtensionApi, env } from './hostSupport';

interface SetupResult {
  client: string;
  action: 'written' | 'unchanged' | 'shown' | 'cancelled';
  file?: string;
  text?: string;
  reason?: string;
}
interface Launch {
  command: string;
  args: string[];
}
interface MaintainResult {
  launch: Launch;
  repaired: Array<{ file: string; servers: string[] }>;
  problems: Array<{ file: string; reason: string }>;
  notice?: string;
}
interface McpHandle {
  maintained: Promise<MaintainResult | undefined>;
  maintain(o?: { cli?: string; dir?: string; notify?: (m: string) => void }): Promise<MaintainResult>;
}

/** Runs the launcher the way an MCP client would start it (command + args), with `--version` instead of `mcp`. */
function runLauncher(launch: Launch): { code: number | null; out: string; err: string } {
  const r = spawnSync(launch.command, [...launch.args, '--version'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: os.homedir() },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('MCP setup', function () {
  this.timeout(90_000);
  let a: DevIndexExtensionApi;
  let mcp: McpHandle;
  let folder: string;
  const saved = new Map<string, string | undefined>();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'devindex-host-mcp-'));

  /** Remembers a workspace file's bytes (or its absence) to put back after the suite. */
  function keep(file: string): string {
    if (!saved.has(file)) saved.set(file, fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined);
    return file;
  }

  before(async () => {
    a = await api();
    mcp = (a as unknown as { mcp: McpHandle }).mcp;
    await a.apiKey.set(env('DEVINDEX_TEST_KEY'));
    const f = vscode.workspace.workspaceFolders?.[0];
    assert.ok(f, 'the host tests open a workspace');
    folder = f.uri.fsPath;
  });

  after(async () => {
    for (const [file, text] of saved) {
      if (text === undefined) fs.rmSync(file, { force: true });
      else fs.writeFileSync(file, text);
    }
    fs.rmSync(tmp, { recursive: true, force: true });
    await a.apiKey.clear();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the commands are contributed under their titles', () => {
    const cmds = (
      vscode.extensions.getExtension('devindex.devindex')!.packageJSON as {
        contributes: { commands: Array<{ command: string; title: string }> };
      }
    ).contributes.commands;
    assert.equal(cmds.find((c) => c.command === 'devIndex.mcp.setup')?.title, 'Set Up MCP for Another Agent…');
    assert.equal(
      cmds.find((c) => c.command === 'devIndex.mcp.setupRules')?.title,
      'Add Agent Rules for Developer Index…',
    );
  });

  it("activation wrote the launcher into the extension's global storage, and it starts this build", async () => {
    const done = await mcp.maintained;
    assert.ok(done, 'the activation run finished');
    assert.ok(done.launch.command.endsWith(`${path.sep}devindex-mcp`), done.launch.command);
    assert.ok(!/devindex\.devindex-\d/.test(done.launch.command), 'not inside a versioned extension folder');
    const r = runLauncher(done.launch);
    assert.equal(r.err, '');
    assert.match(r.out, /^devindex \d+\.\d+\.\d+/);
  });

  it("merges the VS Code entry into .vscode/mcp.json: the user's comments, trailing commas, odd strings and other servers kept byte for byte; no key", async () => {
    const file = keep(path.join(folder, '.vscode', 'mcp.json'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const mine = [
      '{',
      '  // my servers (hand-written)',
      '  "servers": {',
      '    "other": { "command": "x", "args": ["a, }", "// not a comment"] }, /* keep */',
      '  },',
      '  "inputs": [',
      '    { "id": "other-key", "type": "promptString", },',
      '  ],',
      '}',
      '',
    ];
    fs.writeFileSync(file, mine.join('\n'));
    const r = await vscode.commands.executeCommand<SetupResult>('devIndex.mcp.setup', {
      client: 'vscode',
      scope: 'workspace',
      answer: 'write',
    });
    assert.equal(r.action, 'written', r.reason);
    assert.equal(r.file, file);
    const text = fs.readFileSync(file, 'utf8');
    // Every line of the user's file is still there, unchanged and in order; what was added is our entry only.
    let at = 0;
    for (const line of mine.slice(0, -1)) {
      const found = text.indexOf(`${line}\n`, at);
      assert.ok(found >= at, `kept: ${line}`);
      at = found + line.length + 1;
    }
    const again = await vscode.commands.executeCommand<SetupResult>('devIndex.mcp.setup', {
      client: 'vscode',
      scope: 'workspace',
      answer: 'write',
    });
    assert.equal(again.action, 'unchanged');
    assert.equal(fs.readFileSync(file, 'utf8'), text, 'a second run: one entry, same bytes');
    assert.equal(text.split('"devindex"').length - 1, 1);
    assert.match(text, /"command": "[^"]+devindex-mcp",\n\s+"args": \[\n\s+"mcp"\n\s+\]/);
    assert.match(text, /"DEVINDEX_API_KEY": "\$\{input:devindex-api-key\}"/);
    assert.match(text, /"DEVINDEX_BASE_URL": "[^"]+"/);
    assert.ok(!text.includes(env('DEVINDEX_TEST_KEY')), 'no key in the file');
  });

  it('leaves an unparseable mcp.json as it is and shows the entry with the reason', async () => {
    const file = keep(path.join(folder, '.vscode', 'mcp.json'));
    const broken = '{\n  "servers": { "other": { "command": "x" \n';
    fs.writeFileSync(file, broken);
    const r = await vscode.commands.executeCommand<SetupResult>('devIndex.mcp.setup', {
      client: 'vscode',
      scope: 'workspace',
      answer: 'write',
    });
    assert.equal(r.action, 'shown');
    assert.match(r.reason!, /not valid JSON with comments/);
    assert.match(r.text!, /was left as it is: it is not valid JSON with comments .* Add this entry by hand\./);
    assert.equal(fs.readFileSync(file, 'utf8'), broken);
  });

  it("repairs an older version's entry that points into a removed extension folder, with one notice", async () => {
    const file = keep(path.join(folder, '.vscode', 'mcp.json'));
    const gone = path.join(tmp, 'extensions', 'devindex.devindex-0.0.1', 'dist', 'cli.js');
    const before = `{\n  // added by Developer Index 0.0.1\n  "servers": {\n    "devindex": {"type": "stdio", "command": "node", "args": [${JSON.stringify(gone)}, "mcp"], "env": {"DEVINDEX_API_KEY": "\${input:devindex-api-key}"}}\n  }\n}\n`;
    fs.writeFileSync(file, before);
    const notices: string[] = [];
    const r = await mcp.maintain({ notify: (m) => notices.push(m) });
    assert.deepEqual(r.repaired, [{ file, servers: ['devindex'] }]);
    assert.equal(notices.length, 1);
    assert.match(
      notices[0]!,
      new RegExp(
        `updated the MCP server entry in ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: it pointed into an extension folder that an update removed`,
      ),
    );
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(
      text.startsWith(
        '{\n  // added by Developer Index 0.0.1\n  "servers": {\n    "devindex": {"type": "stdio", "command": ',
      ),
      "the comment and the entry's other fields stay",
    );
    assert.match(text, /"env": \{"DEVINDEX_API_KEY": "\$\{input:devindex-api-key\}"\}\}\n {2}\}\n\}\n$/);
    const server = (JSON.parse(text.replace(/^\s*\/\/.*$/m, '')) as { servers: { devindex: Launch } }).servers.devindex;
    assert.equal(server.command, r.launch.command);
    assert.deepEqual(server.args, [...r.launch.args, 'mcp']);
    assert.match(
      runLauncher({ command: server.command, args: server.args.slice(0, -1) }).out,
      /^devindex /,
      'the repaired entry starts',
    );
    const second: string[] = [];
    assert.deepEqual((await mcp.maintain({ notify: (m) => second.push(m) })).repaired, []);
    assert.deepEqual(second, [], 'no second notice');
  });

  it('the launcher survives an update: the extension folder that wrote it removed, the newer one runs', async () => {
    const dist = path.join(vscode.extensions.getExtension('devindex.devindex')!.extensionPath, 'dist');
    const install = (version: string): string => {
      const d = path.join(tmp, 'extensions', `devindex.devindex-${version}`, 'dist');
      fs.mkdirSync(d, { recursive: true });
      for (const f of fs.readdirSync(dist))
        if (/^(cli(-\w+)?|lockfiles|llhttp-wasm)\.js$/.test(f)) fs.copyFileSync(path.join(dist, f), path.join(d, f));
      return path.join(d, 'cli.js');
    };
    const store = path.join(tmp, 'globalStorage');
    const r = await mcp.maintain({ cli: install('0.1.0'), dir: store, notify: () => undefined });
    assert.equal(r.launch.command, path.join(store, 'devindex-mcp'));
    install('0.1.1');
    fs.rmSync(path.join(tmp, 'extensions', 'devindex.devindex-0.1.0'), { recursive: true });
    const ran = runLauncher(r.launch);
    assert.equal(ran.err, '');
    assert.match(ran.out, /^devindex \d+\.\d+\.\d+/);
    fs.rmSync(path.join(tmp, 'extensions'), { recursive: true });
    const none = runLauncher(r.launch);
    assert.equal(none.code, 1);
    assert.match(none.err, /^devindex: no installed Developer Index build was found in .* Reinstall the extension/);
  });

  it('shows a Claude Code entry (nothing written), with the key by reference only', async () => {
    const r = await vscode.commands.executeCommand<SetupResult>('devIndex.mcp.setup', { client: 'claude' });
    assert.equal(r.action, 'shown');
    assert.equal(r.file, undefined);
    assert.match(r.text!, /claude mcp add-json --scope user devindex/);
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
    assert.match(shown, /devindex-mcp/, 'the shown document holds the entry');
    assert.ok(!shown.includes(env('DEVINDEX_TEST_KEY')));
  });

  it("Add Agent Rules: the marked blocks in AGENTS.md and a Cursor rule, the user's text kept, a second run changes nothing", async () => {
    const agents = keep(path.join(folder, 'AGENTS.md'));
    const rule = path.join(folder, '.cursor', 'rules', 'devindex.mdc');
    const hadCursor = fs.existsSync(path.join(folder, '.cursor'));
    keep(rule);
    const mine = saved.get(agents) ?? '# House rules\n\nRun the linter.\n';
    fs.writeFileSync(agents, mine);
    try {
      const r = await vscode.commands.executeCommand<{
        action: string;
        results: Array<{ target: string; action: string }>;
      }>('devIndex.mcp.setupRules', { targets: ['agents', 'cursor'] });
      assert.deepEqual(
        r.results.map((x) => [x.target, x.action]),
        [
          ['agents', 'written'],
          ['cursor', 'written'],
        ],
      );
      const text = fs.readFileSync(agents, 'utf8');
      assert.ok(text.startsWith(mine), "the user's text stays first, as it was");
      assert.match(
        text,
        /<!-- devindex:begin -->\n## Developer index search\n[\s\S]*"dependency": "undici"[\s\S]*<!-- devindex:end -->\n$/,
      );
      assert.match(fs.readFileSync(rule, 'utf8'), /^---\ndescription: .*\nglobs:\nalwaysApply: false\n---\n/);
      const again = await vscode.commands.executeCommand<{ results: Array<{ action: string }> }>(
        'devIndex.mcp.setupRules',
        { targets: ['agents', 'cursor'] },
      );
      assert.deepEqual(
        again.results.map((x) => x.action),
        ['unchanged', 'unchanged'],
      );
    } finally {
      if (!hadCursor) fs.rmSync(path.join(folder, '.cursor'), { recursive: true, force: true });
    }
  });
});
