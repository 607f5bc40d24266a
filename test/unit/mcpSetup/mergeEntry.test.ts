// Merging our server entry into a user's MCP file keeps every other byte: comments, trailing commas, odd
// strings, other servers, the file's indentation and line endings. Expected texts are written out by hand.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'jsonc-parser';
import { setupEntry, type SetupClient } from '../../../src/mcpSetup/entries';
import { parseJsonc, setAt } from '../../../src/mcpSetup/jsoncEdit';
import { mergeEntry } from '../../../src/mcpSetup/setupKit';

const LAUNCH = { command: '/cfg/devindex-mcp', args: [] };
const entry = (client: SetupClient) => setupEntry({ client, launch: LAUNCH, network: {} });

function merged(existing: string | undefined, client: SetupClient): string {
  const r = mergeEntry(existing, entry(client));
  assert.ok(r.ok, r.ok ? '' : r.reason);
  return r.text;
}

describe("merging the entry into a user's file", () => {
  it('keeps comments, trailing commas, another server\'s odd string ("a, }") and its inline layout byte for byte', () => {
    const before = [
      '{',
      '  // my servers, do not reorder',
      '  "mcpServers": {',
      '    "other": { "command": "x", "args": ["a, }", "/* not a comment */", "// nor this"] }, // keep',
      '    /* block */',
      '  },',
      '}',
      '',
    ].join('\n');
    const after = [
      '{',
      '  // my servers, do not reorder',
      '  "mcpServers": {',
      '    "other": { "command": "x", "args": ["a, }", "/* not a comment */", "// nor this"] }, // keep',
      '    /* block */',
      '    "devindex": {',
      '      "command": "/cfg/devindex-mcp",',
      '      "args": [',
      '        "mcp"',
      '      ],',
      '      "env": {',
      '        "DEVINDEX_API_KEY": "${env:DEVINDEX_API_KEY}"',
      '      }',
      '    },',
      '  },',
      '}',
      '',
    ].join('\n');
    assert.equal(merged(before, 'cursor'), after);
    assert.equal(merged(after, 'cursor'), after, 'a second run changes nothing: one entry');
  });

  it("replaces only our old entry's bytes; adds a comma after the last server when it had none", () => {
    const before =
      '{\n    "mcpServers": {\n        "devindex": {"command": "node", "args": ["/x/devindex.devindex-0.1.0/dist/cli.js", "mcp"]},\n        "z": {"command": "zz"}\n    }\n}';
    const after =
      '{\n    "mcpServers": {\n        "devindex": {\n            "command": "/cfg/devindex-mcp",\n            "args": [\n                "mcp"\n            ],\n            "env": {\n                "DEVINDEX_API_KEY": "${env:DEVINDEX_API_KEY}"\n            }\n        },\n        "z": {"command": "zz"}\n    }\n}';
    assert.equal(merged(before, 'cursor'), after);
    const added = merged('{\n\t"mcpServers": {\n\t\t"z": {"command": "zz"}\n\t}\n}', 'windsurf');
    assert.equal(
      added,
      '{\n\t"mcpServers": {\n\t\t"z": {"command": "zz"},\n\t\t"devindex": {\n\t\t\t"command": "/cfg/devindex-mcp",\n\t\t\t"args": [\n\t\t\t\t"mcp"\n\t\t\t],\n\t\t\t"env": {\n\t\t\t\t"DEVINDEX_API_KEY": "${env:DEVINDEX_API_KEY}"\n\t\t\t}\n\t\t}\n\t}\n}',
    );
  });

  it("VS Code: the server under servers and its password input in inputs, beside the user's own, CRLF kept", () => {
    const before =
      '{\r\n  "inputs": [\r\n    { "id": "other-key", "type": "promptString" }\r\n  ],\r\n  "servers": {}\r\n}\r\n';
    const text = merged(before, 'vscode');
    assert.ok(!/[^\r]\n/.test(text), 'every line ends with CRLF');
    assert.ok(
      text.startsWith(
        '{\r\n  "inputs": [\r\n    { "id": "other-key", "type": "promptString" },\r\n    {\r\n      "type": "promptString",\r\n      "id": "devindex-api-key",',
      ),
      text,
    );
    const v = parse(text) as {
      inputs: Array<{ id: string; password?: boolean }>;
      servers: Record<string, { env: Record<string, string> }>;
    };
    assert.deepEqual(
      v.inputs.map((i) => i.id),
      ['other-key', 'devindex-api-key'],
    );
    assert.equal(v.inputs[1]!.password, true);
    assert.equal(v.servers.devindex!.env.DEVINDEX_API_KEY, '${input:devindex-api-key}');
    assert.equal(merged(text, 'vscode'), text, 'a second run: still one input and one server');
  });

  it('a new file, an empty one, one with comments only, and one with no servers object yet', () => {
    const fresh = merged(undefined, 'cursor');
    assert.equal(
      fresh,
      '{\n  "mcpServers": {\n    "devindex": {\n      "command": "/cfg/devindex-mcp",\n      "args": [\n        "mcp"\n      ],\n      "env": {\n        "DEVINDEX_API_KEY": "${env:DEVINDEX_API_KEY}"\n      }\n    }\n  }\n}\n',
    );
    assert.equal(merged('', 'cursor'), fresh);
    assert.equal(merged('// nothing yet\n', 'cursor'), `// nothing yet\n${fresh}`);
    assert.equal(
      merged('{ "theme": "dark" }', 'cursor'),
      '{ "theme": "dark", "mcpServers": {\n  "devindex": {\n    "command": "/cfg/devindex-mcp",\n    "args": [\n      "mcp"\n    ],\n    "env": {\n      "DEVINDEX_API_KEY": "${env:DEVINDEX_API_KEY}"\n    }\n  }\n} }',
    );
    assert.equal(
      merged('{ "mcpServers": { /* later */ } }', 'claude-desktop'),
      '{ "mcpServers": { /* later */ "devindex": {\n    "command": "/cfg/devindex-mcp",\n    "args": [\n      "mcp"\n    ]\n  } } }',
    );
  });

  it('refuses a file it cannot parse, naming the place, and one whose shape is not a client file', () => {
    const bad = mergeEntry('{\n  "mcpServers": {\n    "other": { "command": "x" \n  }\n', entry('cursor'));
    assert.equal(bad.ok, false);
    assert.match((bad as { reason: string }).reason, /not valid JSON with comments \(\w+ at line \d+, column \d+\)/);
    assert.match(
      (mergeEntry('[1, 2]', entry('cursor')) as { reason: string }).reason,
      /top level is an array, not an object/,
    );
    assert.match(
      (mergeEntry('{"mcpServers": [1]}', entry('cursor')) as { reason: string }).reason,
      /"mcpServers" is not an object/,
    );
    assert.match(
      (mergeEntry('{"inputs": {}}', entry('vscode')) as { reason: string }).reason,
      /"inputs" is not an array/,
    );
    assert.equal(parseJsonc('{"a": 1,}').ok, true, 'a trailing comma is allowed');
  });

  it('keeps a byte order mark in front, outside what is parsed', () => {
    const text = merged('\uFEFF{\n  "mcpServers": {}\n}\n', 'cursor');
    assert.ok(text.startsWith('\uFEFF{\n  "mcpServers": {\n    "devindex": {'), JSON.stringify(text.slice(0, 40)));
    assert.equal(text.split('\uFEFF').length, 2, 'one mark');
  });

  it('setAt on a deeper path leaves siblings and a comment after the last property where they were', () => {
    const before = '{\n  "a": {\n    "b": 1 // one\n  }\n}\n';
    assert.equal(setAt(before, ['a', 'c'], 2), '{\n  "a": {\n    "b": 1, // one\n    "c": 2\n  }\n}\n');
  });
});
