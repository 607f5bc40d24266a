import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeInto, parseJsonc, serverEnv, setupEntry, type SetupClient } from '../../../src/mcpSetup/entries';

const CLI = '/opt/ext/dist/cli.js';
const NET = {
  baseUrl: 'http://127.0.0.1:8080', proxy: 'http://user:secret@proxy.corp:3128', noProxy: ['localhost', '.corp'],
  proxyStrictSSL: false, caFile: '/etc/corp-ca.pem', allowInsecureHttp: true,
};

describe('MCP setup entries', () => {
  it('every client gets node + the absolute CLI path + mcp, the editor\'s network settings, and the key only by reference', () => {
    for (const client of ['vscode', 'claude', 'cursor', 'generic'] as SetupClient[]) {
      const e = setupEntry({ client, node: 'node', cli: CLI, network: NET });
      assert.ok(e.json.includes(`"${CLI}"`), client);
      assert.ok(e.json.includes('"mcp"'), client);
      assert.ok(!e.json.includes('secret'), `${client}: no proxy password`);
      assert.match(e.json, /"HTTPS_PROXY": "http:\/\/proxy\.corp:3128"/);
      assert.match(e.json, /"DEVINDEX_CA_FILE": "\/etc\/corp-ca\.pem"/);
      assert.match(e.json, /"DEVINDEX_PROXY_STRICT_SSL": "0"/);
      assert.match(e.json, /"DEVINDEX_INSECURE_HTTP": "1"/);
      assert.match(e.json, /"NO_PROXY": "localhost,\.corp"/);
      assert.match(e.json, /"DEVINDEX_BASE_URL": "http:\/\/127\.0\.0\.1:8080"/);
      assert.ok(e.notes.some((n) => /user name and password were left out/.test(n)));
    }
    const vs = setupEntry({ client: 'vscode', node: 'node', cli: CLI, network: {} });
    assert.match(vs.json, /"DEVINDEX_API_KEY": "\$\{input:devindex-api-key\}"/);
    assert.match(vs.json, /"password": true/);
    assert.match(setupEntry({ client: 'cursor', node: 'node', cli: CLI, network: {} }).json, /"DEVINDEX_API_KEY": "\$\{env:DEVINDEX_API_KEY\}"/);
    const claude = setupEntry({ client: 'claude', node: 'node', cli: CLI, network: {} });
    assert.match(claude.json, /"DEVINDEX_API_KEY": "\$\{DEVINDEX_API_KEY\}"/);
    assert.match(claude.command!, /^claude mcp add-json devindex '\{"type":"stdio","command":"node","args":\["\/opt\/ext\/dist\/cli\.js","mcp"\]/);
    assert.equal(serverEnv({ baseUrl: 'https://api.firecrawl.dev' }).env.DEVINDEX_BASE_URL, undefined, 'the default address is not written');
  });

  it('merging keeps other servers and inputs, replaces ours, and refuses a file it cannot read', () => {
    const e = setupEntry({ client: 'vscode', node: 'node', cli: CLI, network: {} });
    const existing = `{
      // mine
      "servers": { "other": { "command": "x" }, "devindex": { "command": "old" } },
      "inputs": [ { "id": "other-key", "type": "promptString" }, ],
    }`;
    const merged = JSON.parse(mergeInto(existing, e)!) as { servers: Record<string, { command: string }>; inputs: Array<{ id: string }> };
    assert.equal(merged.servers.other!.command, 'x');
    assert.equal(merged.servers.devindex!.command, 'node');
    assert.deepEqual(merged.inputs.map((i) => i.id), ['other-key', 'devindex-api-key']);
    assert.equal(mergeInto('{ not json', e), undefined);
    assert.deepEqual(parseJsonc('{"a": "// not a comment", /* c */ "b": [1,],}'), { a: '// not a comment', b: [1] });
    assert.ok(mergeInto(undefined, e)!.endsWith('\n'));
  });
});
