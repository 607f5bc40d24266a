#!/usr/bin/env node
// For F5 "Extension Tests" (.vscode/launch.json): a throw-away profile in .vscode-test/ (git-ignored)
// whose user settings point devIndex.baseUrl at the sandbox task's fixed port.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './session.mjs';

const url = process.argv[2] ?? 'http://127.0.0.1:3917';
const user = join(root, '.vscode-test', 'f5-user-data', 'User');
mkdirSync(user, { recursive: true });
writeFileSync(
  join(user, 'settings.json'),
  JSON.stringify({ 'devIndex.baseUrl': url, 'workbench.startupEditor': 'none' }, null, 2),
);
console.log(`F5 test profile: ${user} (devIndex.baseUrl = ${url})`);
