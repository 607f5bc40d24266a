// `devindex setup mcp` end to end: the real dist/cli.js writes an entry, and the official MCP client starts
// exactly what the entry says (the launcher in the CLI's config folder, its arguments and environment, the
// key's reference expanded the way the client does) against the sandbox, and searches. The key's value
// (set in DEVINDEX_API_KEY for every run) is in no written file. Then an update with real builds: the CLI
// copied into a versioned extension folder writes the entry, a newer copy is installed and the old folder
// removed, and the same entry still starts a server that answers. Build with --bundles first.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parse } from 'jsonc-parser';
import { startSandbox } from '../../sandbox/server';
import { findRepoRoot, type Sandbox } from '../../sandbox/serverParts';

const KEY = `sandbox-setup-key-${process.pid}-marker`;
let sb: Sandbox;
let dist: string;
let root: string;

before(async () => {
  const repo = findRepoRoot(__dirname);
  assert.ok(repo, 'repository root');
  dist = join(repo, 'dist');
  assert.ok(existsSync(join(dist, 'cli-setup.js')), 'dist/cli-setup.js exists (build with --bundles)');
  sb = await startSandbox({ port: 0, keys: [KEY], quiet: true });
  root = mkdtempSync(join(tmpdir(), 'devindex-setup-http-'));
});

after(async () => {
  await sb.close();
  rmSync(root, { recursive: true, force: true });
});

function env(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: join(root, 'home'),
    DEVINDEX_CONFIG_DIR: join(root, 'cfg'),
    DEVINDEX_API_KEY: KEY,
    DEVINDEX_BASE_URL: sb.url,
  };
}

function setup(cli: string, args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [cli, 'setup', 'mcp', ...args], { encoding: 'utf8', env: env(), cwd: root });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

interface Server {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** What the client does with the entry's env: `${input:…}` after asking the user, `${env:X}` / `${X}` from its own environment. */
function expand(e: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(e)) {
    out[k] = v
      .replace(/\$\{input:devindex-api-key\}/, KEY)
      .replace(/\$\{(?:env:)?(\w+)\}/g, (_, name: string) => env()[name] ?? '');
  }
  return out;
}

/** Starts the entry as an MCP client would, searches, lists agent jobs (which needs the key), and closes. */
async function searchThrough(server: Server): Promise<string> {
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: { PATH: process.env.PATH ?? '', ...expand(server.env) },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => {
    err += String(d);
  });
  const client = new Client({ name: 'devindex-setup-test', version: '1.0.0' });
  try {
    await client.connect(transport);
    const r = await client.callTool({ name: 'devIndex_search', arguments: { query: 'retry on 429', k: 3 } });
    const text = (r.content as Array<{ text?: string }>)[0]?.text ?? '';
    assert.notEqual(r.isError, true, text);
    const jobs = await client.callTool({ name: 'devIndex_listAgentJobs', arguments: {} });
    assert.notEqual(
      jobs.isError,
      true,
      `the key reached the server by reference: ${(jobs.content as Array<{ text?: string }>)[0]?.text}`,
    );
    return text;
  } finally {
    await client.close();
    assert.ok(!err.includes(KEY), "the key is not in the server's log");
  }
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (lstatSync(p).isDirectory()) walk(p);
      else out.push(p);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

test('the entry written for VS Code starts a server that answers a search; a second run leaves one entry', async () => {
  const file = join(root, 'project', '.vscode', 'mcp.json');
  const cli = join(dist, 'cli.js');
  const r = setup(cli, ['--client', 'vscode', '--file', file]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /VS Code asks for the key once/);
  const text = readFileSync(file, 'utf8');
  assert.equal(setup(cli, ['--client', 'vscode', '--file', file]).code, 0);
  assert.equal(readFileSync(file, 'utf8'), text);
  const v = parse(text) as { servers: Record<string, Server>; inputs: Array<{ id: string }> };
  assert.deepEqual(Object.keys(v.servers), ['devindex']);
  assert.deepEqual(
    v.inputs.map((i) => i.id),
    ['devindex-api-key'],
  );
  const server = v.servers.devindex!;
  assert.equal(server.command, join(root, 'cfg', 'devindex-mcp'));
  assert.equal(server.env.DEVINDEX_BASE_URL, sb.url);
  assert.match(await searchThrough(server), /^Developer index: \d+ results? for "retry on 429"/);
});

test("--print writes nothing; the key's value is in no written file", () => {
  const before = filesUnder(root).sort();
  const r = setup(join(dist, 'cli.js'), ['--client', 'cursor', '--print']);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(filesUnder(root).sort(), before);
  assert.ok(before.length >= 3, before.join(', '));
  for (const f of before) assert.ok(!readFileSync(f, 'latin1').includes(KEY), `the key is in ${relative(root, f)}`);
  assert.ok(!r.out.includes(KEY));
});

test('an update: the old extension folder removed, the entry it wrote still starts a server that answers', async () => {
  const exts = join(root, 'extensions');
  const install = (version: string): string => {
    const d = join(exts, `devindex.devindex-${version}`, 'dist');
    mkdirSync(d, { recursive: true });
    for (const f of readdirSync(dist))
      if (/^(cli(-\w+)?|lockfiles|llhttp-wasm)\.js$/.test(f)) copyFileSync(join(dist, f), join(d, f));
    return join(d, 'cli.js');
  };
  const oldCli = install('0.1.0');
  const file = join(root, 'home', '.cursor', 'mcp.json');
  const r = setup(oldCli, ['--client', 'cursor']);
  assert.equal(r.code, 0, r.err);
  const server = (parse(readFileSync(file, 'utf8')) as { mcpServers: Record<string, Server> }).mcpServers.devindex!;
  assert.ok(
    !server.args.some((a) => a.includes('devindex.devindex-0.1.0')),
    'the entry names the launcher, not the versioned folder',
  );
  install('0.1.1');
  rmSync(join(exts, 'devindex.devindex-0.1.0'), { recursive: true });
  assert.match(await searchThrough(server), /^Developer index: \d+ results? for "retry on 429"/);
  for (const f of filesUnder(root))
    if (!f.startsWith(exts)) assert.ok(!readFileSync(f, 'latin1').includes(KEY), `the key is in ${relative(root, f)}`);
});
