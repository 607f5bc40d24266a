import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SETUP_CLIENTS, serverEnv, setupEntry } from '../../../src/mcpSetup/entries';

const LAUNCH = { command: '/home/u/.config/devindex/devindex-mcp', args: [] };
const NET = {
  baseUrl: 'http://127.0.0.1:8080',
  proxy: 'http://user:secret@proxy.corp:3128',
  noProxy: ['localhost', '.corp'],
  proxyStrictSSL: false,
  caFile: '/etc/corp-ca.pem',
  allowInsecureHttp: true,
};

describe('MCP setup entries', () => {
  it("every client gets the launcher + mcp, the editor's network settings, and the key only by reference", () => {
    for (const client of SETUP_CLIENTS) {
      const e = setupEntry({ client, launch: LAUNCH, network: NET });
      assert.ok(e.json.includes('"command": "/home/u/.config/devindex/devindex-mcp"'), client);
      assert.deepEqual((e.server as { args: string[] }).args, ['mcp'], client);
      assert.ok(!e.json.includes('secret'), `${client}: no proxy password`);
      assert.match(e.json, /"HTTPS_PROXY": "http:\/\/proxy\.corp:3128"/);
      assert.match(e.json, /"DEVINDEX_CA_FILE": "\/etc\/corp-ca\.pem"/);
      assert.match(e.json, /"DEVINDEX_PROXY_STRICT_SSL": "0"/);
      assert.match(e.json, /"DEVINDEX_INSECURE_HTTP": "1"/);
      assert.match(e.json, /"NO_PROXY": "localhost,\.corp"/);
      assert.match(e.json, /"DEVINDEX_BASE_URL": "http:\/\/127\.0\.0\.1:8080"/);
      assert.ok(e.notes.some((n) => /user name and password were left out/.test(n)));
    }
    const vs = setupEntry({ client: 'vscode', launch: LAUNCH, network: {} });
    assert.equal(vs.container, 'servers');
    assert.match(vs.json, /"DEVINDEX_API_KEY": "\$\{input:devindex-api-key\}"/);
    assert.deepEqual(vs.input, {
      type: 'promptString',
      id: 'devindex-api-key',
      description: 'Developer Index API key (leave empty to search without one)',
      password: true,
    });
    for (const c of ['cursor', 'windsurf'] as const) {
      const e = setupEntry({ client: c, launch: LAUNCH, network: {} });
      assert.equal(e.container, 'mcpServers');
      assert.match(e.json, /"DEVINDEX_API_KEY": "\$\{env:DEVINDEX_API_KEY\}"/, c);
    }
    const desktop = setupEntry({ client: 'claude-desktop', launch: LAUNCH, network: {} });
    assert.ok(
      !desktop.json.includes('DEVINDEX_API_KEY'),
      'Claude Desktop expands nothing: no key reference that would be sent as text',
    );
    assert.match(desktop.keyWords, /searches without a key/);
    const claude = setupEntry({ client: 'claude', launch: LAUNCH, network: {} });
    assert.match(claude.json, /"DEVINDEX_API_KEY": "\$\{DEVINDEX_API_KEY\}"/);
    assert.equal(
      claude.command,
      `claude mcp add-json --scope user devindex '{"type":"stdio","command":"/home/u/.config/devindex/devindex-mcp","args":["mcp"],"env":{"DEVINDEX_API_KEY":"\${DEVINDEX_API_KEY}"}}'`,
    );
    assert.match(
      setupEntry({ client: 'claude', launch: LAUNCH, network: {} }, 'project').command!,
      /^claude mcp add-json --scope project devindex /,
    );
    // Windows: node runs the JavaScript launcher; its path stays one argument before mcp.
    const win = setupEntry({
      client: 'cursor',
      launch: { command: 'node', args: ['C:\\Users\\A B\\AppData\\Roaming\\devindex\\devindex-mcp.cjs'] },
      network: {},
    });
    assert.deepEqual((win.server as { args: string[] }).args, [
      'C:\\Users\\A B\\AppData\\Roaming\\devindex\\devindex-mcp.cjs',
      'mcp',
    ]);
    assert.equal(
      serverEnv({ baseUrl: 'https://api.firecrawl.dev' }).env.DEVINDEX_BASE_URL,
      undefined,
      'the default address is not written',
    );
  });

  it('a shell-quoted Claude Code command survives a quote in a path', () => {
    const e = setupEntry({
      client: 'claude',
      launch: { command: "/home/o'brien/.config/devindex/devindex-mcp", args: [] },
      network: {},
    });
    assert.ok(e.command!.includes(`o'\\''brien`), e.command);
  });
});
