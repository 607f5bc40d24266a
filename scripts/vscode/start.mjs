#!/usr/bin/env node
// `npm start`: build, start the sandbox service on 127.0.0.1, and open the extension against it,
// on a throw-away profile whose settings point `devIndex.baseUrl` at the sandbox (no key, no
// internet needed):
//   - with a desktop `code` command on PATH: a VS Code window with --extensionDevelopmentPath;
//   - otherwise: the provisioned code-server with the packaged extension installed; open the URL
//     it prints in a browser.
// Ctrl+C stops everything it started.
//   --code-server   use code-server even when `code` is on PATH
//   --port N        code-server's port (default 8080, or a free one if 8080 is taken)
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ProvisionError } from './provision.mjs';
import { Session, build, freePort, root } from './session.mjs';

const argv = process.argv.slice(2);
const forceServer = argv.includes('--code-server');
const wantedPort = argv.includes('--port') ? Number(argv[argv.indexOf('--port') + 1]) : 8080;
const LOCAL_KEY = 'devindex-local-key';
const log = (s) => process.stderr.write(`${s}\n`);

function portFree(port) {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** A desktop VS Code CLI, not the remote CLI that a terminal inside VS Code or code-server provides. */
function desktopCode() {
  if (forceServer || process.env.VSCODE_IPC_HOOK_CLI) return undefined;
  const r = spawnSync('code', ['--version'], { encoding: 'utf8', timeout: 20_000 });
  return r.status === 0 && /^\d+\.\d+\.\d+/.test(r.stdout) ? 'code' : undefined;
}

const session = new Session({ name: 'start', log });
session.closeOnSignals();
try {
  build([]);
  // The demo's team has the license flag, so its results show their licenses.
  const sandboxUrl = await session.startSandbox({ key: LOCAL_KEY, faults: false, extraArgs: ['--license-keyed'] });
  const workspace = session.makeWorkspace();
  const settings = { 'devIndex.baseUrl': sandboxUrl };
  const code = desktopCode();
  let main;
  if (code) {
    const userData = session.folder('user-data');
    writeFileSync(
      session.path('user-data', 'User', 'settings.json'),
      JSON.stringify({ ...settings, 'workbench.startupEditor': 'none' }, null, 2),
    );
    main = session.spawn(
      'code',
      code,
      [
        '--wait',
        '--new-window',
        '--user-data-dir',
        userData,
        '--extensions-dir',
        session.folder('extensions'),
        `--extensionDevelopmentPath=${root}`,
        workspace,
      ],
      { tee: true },
    );
    log(`\nDeveloper Index is running in a new VS Code window against the sandbox at ${sandboxUrl}.`);
  } else {
    const vsix = session.path('devindex.vsix');
    const pack = spawnSync(process.execPath, ['scripts/package.mjs', '--out', vsix], {
      cwd: root,
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (pack.status !== 0) throw new Error(`packaging failed:\n${pack.stdout}${pack.stderr}`);
    const port = (await portFree(wantedPort)) ? wantedPort : await freePort();
    await session.startCodeServer({ vsix, settings, port });
    main = session.children.find((c) => c.name === 'code-server');
    log(`\nDeveloper Index is installed in code-server and pointed at the sandbox (${sandboxUrl}).`);
    log(`Open in a browser:  ${session.workbenchUrl()}`);
    log('(no desktop `code` command on PATH; with one, npm start opens a VS Code window instead)');
  }
  log(
    `Search needs no key. Agent jobs do: run "Developer Index: Set API Key" and enter ${LOCAL_KEY} (the sandbox's key).`,
  );
  // The MCP server against the same sandbox, for a terminal agent (any MCP client that spawns a command).
  log(
    `MCP server for AI agents against this sandbox:\n  DEVINDEX_BASE_URL=${sandboxUrl} DEVINDEX_API_KEY=${LOCAL_KEY} node ${join(root, 'dist', 'cli.js')} mcp`,
  );
  log('Press Ctrl+C to stop.\n');
  const ended = await Promise.race([
    main.exited.then((e) => ({ ...e, name: main.name })),
    session.children.find((c) => c.name === 'sandbox').exited.then((e) => ({ ...e, name: 'sandbox' })),
  ]);
  if (session.stopping) await new Promise(() => {}); // the signal handler stops everything and exits
  log(`[start] ${ended.name} exited (${ended.signal ?? ended.code}); stopping the rest`);
  if (ended.name !== 'code' || ended.code !== 0) {
    const c = session.children.find((x) => x.name === ended.name);
    log(session.logTail(c));
  }
  await session.close();
  process.exit(ended.name === 'code' && ended.code === 0 ? 0 : 1);
} catch (e) {
  log(`[start] ${e instanceof ProvisionError ? e.message : (e?.stack ?? e)}`);
  for (const c of session.children) log(`--- ${c.name} log (tail) ---\n${session.logTail(c)}`);
  await session.close();
  process.exit(1);
}
