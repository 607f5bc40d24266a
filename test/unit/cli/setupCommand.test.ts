// `devindex setup mcp|rules` in-process over a fake home and project: where each client's entry goes, --print
// writes nothing, an unparseable file is left byte for byte (exit 1, the entry shown with the reason), a
// second run leaves one entry, the key's value is in no file, the file's mode and a symbolic link are kept,
// and an older version's entry is repaired.
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { parse } from 'jsonc-parser';
import { runSetupCommand } from '../../../src/cli/setupCommand';
import { repairFile } from '../../../src/mcpSetup/setupKit';

const KEY = `devindex-key-marker-${process.pid}-do-not-write`;
const roots: string[] = [];
after(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function sandbox(): { root: string; home: string; cwd: string; cfg: string; cli: string } {
  const root = mkdtempSync(join(tmpdir(), 'devindex-setup-'));
  roots.push(root);
  const s = {
    root,
    home: join(root, 'home'),
    cwd: join(root, 'project'),
    cfg: join(root, 'cfg'),
    cli: join(root, 'ext', 'dist', 'cli.js'),
  };
  mkdirSync(s.home, { recursive: true });
  mkdirSync(s.cwd, { recursive: true });
  mkdirSync(join(root, 'ext', 'dist'), { recursive: true });
  writeFileSync(s.cli, '');
  return s;
}

async function cli(
  s: ReturnType<typeof sandbox>,
  argv: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runSetupCommand(
    argv,
    {
      out: (x) => {
        out += x;
      },
      err: (x) => {
        err += x;
      },
      env: { DEVINDEX_CONFIG_DIR: s.cfg, DEVINDEX_API_KEY: KEY, ...env },
    },
    { home: s.home, cwd: s.cwd, cliPath: s.cli, platform: 'linux' },
  );
  return { code, out, err };
}

/** Every file under root with its bytes. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (lstatSync(p).isDirectory()) walk(p);
      else out[relative(root, p)] = readFileSync(p, 'latin1');
    }
  };
  walk(root);
  return out;
}

describe('devindex setup mcp', () => {
  it("writes each client's own file, user or project, with the launcher as the command; one entry after two runs", async () => {
    const s = sandbox();
    const cases: Array<[string[], string, string]> = [
      [['--client', 'vscode'], join(s.home, '.config', 'Code', 'User', 'mcp.json'), 'servers'],
      [['--client', 'vscode', '--project'], join(s.cwd, '.vscode', 'mcp.json'), 'servers'],
      [['--client', 'cursor'], join(s.home, '.cursor', 'mcp.json'), 'mcpServers'],
      [['--client', 'cursor', '--project'], join(s.cwd, '.cursor', 'mcp.json'), 'mcpServers'],
      [['--client', 'windsurf'], join(s.home, '.codeium', 'windsurf', 'mcp_config.json'), 'mcpServers'],
      [['--client', 'claude-desktop'], join(s.home, '.config', 'Claude', 'claude_desktop_config.json'), 'mcpServers'],
      [['--client', 'generic', '--file', 'agent.json'], join(s.cwd, 'agent.json'), 'mcpServers'],
    ];
    for (const [args, file, container] of cases) {
      const first = await cli(s, ['mcp', ...args]);
      assert.equal(first.code, 0, `${args.join(' ')}: ${first.err}`);
      assert.match(first.out, /^Added the devindex MCP server to /);
      const text = readFileSync(file, 'utf8');
      const again = await cli(s, ['mcp', ...args]);
      assert.equal(again.code, 0);
      assert.match(again.out, /already has this devindex MCP server entry; nothing changed/);
      assert.equal(readFileSync(file, 'utf8'), text, 'a second run leaves the file as it is');
      const v = parse(text) as Record<string, Record<string, { command: string; args: string[] }>>;
      assert.deepEqual(Object.keys(v[container]!), ['devindex'], args.join(' '));
      assert.equal(v[container]!.devindex!.command, join(s.cfg, 'devindex-mcp'));
      assert.deepEqual(v[container]!.devindex!.args, ['mcp']);
    }
    assert.ok(
      readFileSync(join(s.cfg, 'devindex-mcp.cjs'), 'utf8').includes(JSON.stringify(s.cli)),
      'the launcher falls back to this build',
    );
    for (const [f, bytes] of Object.entries(snapshot(s.root)))
      assert.ok(!bytes.includes(KEY), `the key's value is in ${f}`);
  });

  it('Claude Code: prints the claude mcp add-json command (user or project scope), edits no file of its own', async () => {
    const s = sandbox();
    const r = await cli(s, ['mcp', '--client', 'claude']);
    assert.equal(r.code, 0);
    assert.match(r.out, /Claude Code keeps its servers in its own state/);
    assert.match(
      r.out,
      /claude mcp add-json --scope user devindex '\{"type":"stdio","command":"[^"]+devindex-mcp","args":\["mcp"\],"env":\{"DEVINDEX_API_KEY":"\$\{DEVINDEX_API_KEY\}"\}\}'/,
    );
    assert.match(
      (await cli(s, ['mcp', '--client', 'claude', '--project'])).out,
      /claude mcp add-json --scope project devindex/,
    );
    assert.deepEqual(Object.keys(snapshot(s.home)), []);
    assert.ok(!r.out.includes(KEY));
  });

  it('--print writes nothing at all (not even the launcher)', async () => {
    const s = sandbox();
    writeFileSync(join(s.cwd, 'x.json'), '{ // mine\n}');
    const before = snapshot(s.root);
    for (const args of [
      ['--client', 'cursor'],
      ['--client', 'vscode', '--project'],
      ['--client', 'generic', '--file', 'x.json'],
    ]) {
      const r = await cli(s, ['mcp', ...args, '--print']);
      assert.equal(r.code, 0);
      assert.match(r.out, /--print: nothing was written\. Without it this goes into /);
      assert.match(r.out, /"devindex"|"command"/);
    }
    assert.deepEqual(snapshot(s.root), before);
  });

  it('an unparseable file is left byte for byte: exit 1, the reason, and the entry to add by hand', async () => {
    const s = sandbox();
    const file = join(s.home, '.cursor', 'mcp.json');
    mkdirSync(join(s.home, '.cursor'));
    const broken = '{\n  // half edited\n  "mcpServers": {\n    "other": { "command": "x", "args": ["a, }"] \n';
    writeFileSync(file, broken);
    const r = await cli(s, ['mcp', '--client', 'cursor']);
    assert.equal(r.code, 1);
    assert.match(
      r.err,
      /^devindex: .*mcp\.json was not changed: it is not valid JSON with comments \(\w+ at line \d+, column \d+\)\. Add this entry by hand:\n$/,
    );
    assert.match(r.out, /"mcpServers": \{\n {4}"devindex": \{/);
    assert.equal(readFileSync(file, 'utf8'), broken);
    assert.deepEqual(readdirSync(join(s.home, '.cursor')), ['mcp.json'], 'no temporary file left beside it');
  });

  it("keeps the file's mode and writes through a symbolic link to its target", async () => {
    const s = sandbox();
    const real = join(s.root, 'dotfiles', 'mcp.json');
    mkdirSync(join(s.root, 'dotfiles'));
    writeFileSync(real, '{\n  "mcpServers": {}\n}\n');
    chmodSync(real, 0o600);
    mkdirSync(join(s.home, '.cursor'));
    symlinkSync(real, join(s.home, '.cursor', 'mcp.json'));
    assert.equal((await cli(s, ['mcp', '--client', 'cursor'])).code, 0);
    assert.ok(lstatSync(join(s.home, '.cursor', 'mcp.json')).isSymbolicLink(), 'still a link');
    assert.equal(statSync(real).mode & 0o777, 0o600);
    assert.match(readFileSync(real, 'utf8'), /"devindex"/);
  });

  it("network settings of this environment go into the entry; a proxy's password does not", async () => {
    const s = sandbox();
    const r = await cli(s, ['mcp', '--client', 'generic', '--print', '--base-url', 'http://127.0.0.1:9'], {
      HTTPS_PROXY: 'http://u:pw-secret@proxy:3128',
      NO_PROXY: 'a,b',
    });
    assert.match(r.out, /"DEVINDEX_BASE_URL": "http:\/\/127\.0\.0\.1:9"/);
    assert.match(r.out, /"HTTPS_PROXY": "http:\/\/proxy:3128"/);
    assert.match(r.out, /"NO_PROXY": "a,b"/);
    assert.ok(!r.out.includes('pw-secret'));
  });

  it('bad input names the option and its values (exit 2), and writes nothing', async () => {
    const s = sandbox();
    const before = snapshot(s.root);
    const cases: Array<[string[], RegExp]> = [
      [['mcp'], /--client is required: one of vscode, cursor, windsurf, claude-desktop, claude, generic/],
      [['mcp', '--client', 'emacs'], /--client must be one of vscode, .*; got "emacs"/],
      [['mcp', '--client', 'cursor', '--project', '--file', 'x'], /--project and --file name two places/],
      [['mcp', '--client', 'windsurf', '--project'], /Windsurf has no project file/],
      [['mcp', '--client', 'cursor', '--base-url', 'ftp://x'], /--base-url must be an absolute http\(s\) URL/],
      [['mcp', '--client', 'cursor', '--nope'], /Unknown option '--nope'/],
      [['frobnicate'], /unknown setup subcommand "frobnicate": mcp or rules/],
      [
        ['rules', '--client', 'claude,vim'],
        /--client takes a comma-separated list of claude, cursor, copilot, agents; got "vim"/,
      ],
    ];
    for (const [argv, re] of cases) {
      const r = await cli(s, argv);
      assert.equal(r.code, 2, argv.join(' '));
      assert.match(r.err, re);
    }
    assert.deepEqual(snapshot(s.root), before);
  });
});

describe('devindex setup rules', () => {
  it('writes the chosen rules under --dir, --print writes nothing, and a second run changes nothing', async () => {
    const s = sandbox();
    writeFileSync(join(s.cwd, 'AGENTS.md'), '# Mine\n');
    const before = snapshot(s.root);
    const printed = await cli(s, ['rules', '--print']);
    assert.equal(printed.code, 0);
    assert.match(printed.out, /Claude Code skill: .*SKILL\.md\n<!-- devindex:begin -->/);
    assert.deepEqual(snapshot(s.root), before);
    const r = await cli(s, ['rules', '--client', 'claude,agents', '--dir', '.']);
    assert.equal(r.code, 0, r.err);
    assert.match(
      r.out,
      /Wrote Claude Code skill in .*\.claude\/skills\/devindex-search\/SKILL\.md\nWrote AGENTS\.md section in .*AGENTS\.md\n/,
    );
    assert.ok(readFileSync(join(s.cwd, 'AGENTS.md'), 'utf8').startsWith('# Mine\n\n<!-- devindex:begin -->'));
    assert.ok(!existsSync(join(s.cwd, '.cursor')));
    assert.match(
      (await cli(s, ['rules', '--client', 'claude,agents'])).out,
      /^Up to date: Claude Code skill in .*\nUp to date: AGENTS\.md section/,
    );
    mkdirSync(join(s.cwd, '.github'));
    writeFileSync(join(s.cwd, '.github', 'copilot-instructions.md'), '<!-- devindex:begin -->\nmine, no end\n');
    const bad = await cli(s, ['rules', '--client', 'copilot']);
    assert.equal(bad.code, 1);
    assert.match(
      bad.err,
      /copilot-instructions\.md was not changed: its <!-- devindex:begin --> and <!-- devindex:end --> markers are not one pair/,
    );
    assert.equal(
      readFileSync(join(s.cwd, '.github', 'copilot-instructions.md'), 'utf8'),
      '<!-- devindex:begin -->\nmine, no end\n',
    );
  });
});

describe("repairing an older version's entry", () => {
  it('points entries whose versioned CLI folder is gone at the launcher; the rest of the file stays', () => {
    const s = sandbox();
    const file = join(s.root, 'mcp.json');
    const kept = join(s.root, 'exts', 'devindex.devindex-0.2.0', 'dist', 'cli.js');
    mkdirSync(join(s.root, 'exts', 'devindex.devindex-0.2.0', 'dist'), { recursive: true });
    writeFileSync(kept, '');
    const gone = join(s.root, 'exts', 'devindex.devindex-0.1.0', 'dist', 'cli.js');
    const before = `{
  // written by 0.1.0
  "servers": {
    "devindex": { "type": "stdio", "command": "node", "args": [${JSON.stringify(gone)}, "mcp", "--tools", "search"], "env": { "DEVINDEX_API_KEY": "\${input:devindex-api-key}" } },
    "still-there": { "command": "node", "args": [${JSON.stringify(kept)}, "mcp"] },
  },
}
`;
    writeFileSync(file, before);
    const r = repairFile(file, { command: '/store/devindex-mcp', args: [] });
    assert.deepEqual(r.repaired, ['devindex']);
    const after = readFileSync(file, 'utf8');
    assert.equal(
      after,
      before.replace(
        '"command": "node", "args": [' + JSON.stringify(gone) + ', "mcp", "--tools", "search"]',
        '"command": "/store/devindex-mcp", "args": [\n      "mcp",\n      "--tools",\n      "search"\n    ]',
      ),
    );
    assert.deepEqual(
      repairFile(file, { command: '/store/devindex-mcp', args: [] }).repaired,
      [],
      'nothing left to repair',
    );
    writeFileSync(file, `{ "servers": { "d": { "args": [${JSON.stringify(gone)}] } `);
    const unparseable = repairFile(file, { command: '/x', args: [] });
    assert.deepEqual(unparseable.repaired, []);
    assert.match(unparseable.reason!, /not valid JSON with comments/);
  });
});
