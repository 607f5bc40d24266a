// The MCP tests' connection: `devindex mcp` started over stdio by the SDK's own client, its stderr kept.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { findRepoRoot } from '../../sandbox/serverParts';

export interface McpSession {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
}

/**
 * Starts `node <cli> mcp <args>` with exactly `env` (nothing else of this process's environment, PATH aside)
 * and connects a client named `name` to it.
 */
export async function connectMcp(o: {
  cli: string;
  args?: string[];
  env: Record<string, string>;
  name: string;
}): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [o.cli, 'mcp', ...(o.args ?? [])],
    env: { PATH: process.env.PATH ?? '', ...o.env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => {
    err += String(d);
  });
  const client = new Client({ name: o.name, version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => err };
}

/** The built CLI (dist/cli.js), which the MCP tests start; fails when it was not built. */
export function builtCli(): string {
  const root = findRepoRoot(__dirname);
  assert.ok(root, 'repository root');
  const cli = join(root, 'dist', 'cli.js');
  assert.ok(existsSync(cli), 'dist/cli.js exists (build with --bundles)');
  return cli;
}
