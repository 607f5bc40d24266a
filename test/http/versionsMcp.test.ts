// `devindex mcp`'s devIndex_search with `dependency`, driven by the SDK's own client against
// the sandbox: the server's working folder (or an explicit `folder`) is read, the answer starts with the
// installed version and says per result how its version statements compare; unknown names are tool errors.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startSandbox } from '../../sandbox/server';
import { findRepoRoot, type Sandbox } from '../../sandbox/serverParts';
import { writeVersionsFixture } from './versionsFixture';

let sb: Sandbox;
let folder: string;
const cli = join(findRepoRoot(__dirname) ?? process.cwd(), 'dist', 'cli.js');

async function withServer<T>(
  cwd: string,
  fn: (call: (args: Record<string, unknown>) => Promise<{ text: string; isError: boolean }>) => Promise<T>,
): Promise<T> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp'],
    cwd,
    env: { PATH: process.env.PATH ?? '', DEVINDEX_BASE_URL: sb.url },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'devindex-versions-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    return await fn(async (args) => {
      const r = await client.callTool({ name: 'devIndex_search', arguments: args });
      const content = r.content as Array<{ type: string; text?: string }>;
      return { text: content[0]?.text ?? '', isError: r.isError === true };
    });
  } finally {
    await client.close();
  }
}

before(async () => {
  sb = await startSandbox({ port: 0, quiet: true, keylessRateLimit: 100_000 });
  folder = mkdtempSync(join(tmpdir(), 'devindex-versions-mcp-'));
  writeVersionsFixture(folder);
});
after(async () => {
  await sb.close();
  rmSync(folder, { recursive: true, force: true });
});

test("dependency from the server's working folder: the text starts with the installed version, each result compared", async () => {
  await withServer(folder, async (call) => {
    const r = await call({ query: 'Retry-After ignored per-request timeout 429', dependency: 'fetchline', k: 4 });
    assert.equal(r.isError, false, r.text);
    assert.match(
      r.text,
      /^Installed: fetchline 3\.2\.0 installed \(fetchline\/fetchline\)\. Results from fetchline\/fetchline are compared with version 3\.2\.0\.\n/,
    );
    assert.match(r.text, /\n\d results? mentions? a fix newer than your fetchline 3\.2\.0 \(3\.3\.0\)\.\n/);
    assert.match(r.text, /\n\[1\] fixed in 3\.3\.0 · newer than your 3\.2\.0 \("[^"]*fixed in 3\.3\.0/);
    for (let i = 1; i <= 4; i++)
      assert.match(
        r.text,
        new RegExp(`\\n\\[${i}\\] (fixed|affects|released|states no version|not from)`),
        `result ${i}`,
      );
    assert.match(r.text, /\n\nDeveloper index: 4 results/);
  });
});

test('an explicit folder; unknown names and dependencies without a repository are tool errors that say what to do', async () => {
  await withServer(tmpdir(), async (call) => {
    const ok = await call({
      query: 'coerce drops defaults of nested objects',
      dependency: 'keel-schema',
      folder,
      k: 2,
    });
    assert.equal(ok.isError, false, ok.text);
    assert.match(ok.text, /^Installed: keel-schema 2\.6\.0 installed/);
    assert.match(ok.text, /fixed in 2\.5\.1 · included in your 2\.6\.0/);
    const unknown = await call({ query: 'x', dependency: 'left-pad', folder });
    assert.equal(unknown.isError, true);
    assert.match(
      unknown.text,
      /left-pad is not a dependency of .*its manifests list fetchline, keel-schema, gitlab-only, only-locked.*Call again with one of those names/,
    );
    const gitlab = await call({ query: 'x', dependency: 'gitlab-only', folder });
    assert.equal(gitlab.isError, true);
    assert.match(gitlab.text, /not on GitHub/);
    const relative = await call({ query: 'x', dependency: 'fetchline', folder: 'relative/path' });
    assert.equal(relative.isError, true);
    assert.match(relative.text, /folder must be an absolute path/);
  });
});
