// The MCP launcher, what every written entry runs so that it outlives updates (an extension's versioned folder is
// deleted after an update): kept in a stable place (global storage or the CLI's config folder), rewritten on each
// activation, it starts the newest installed build it finds. Pure text here; writing is in setupKit.ts.
import type { Launch } from './entries';
import {
  LAUNCHER_JS,
  LAUNCHER_SH,
  launchFor,
  launcherStamp,
  MIN_NODE_MAJOR,
  type LauncherTargets,
} from './launcherStamp';

// Two files:
// - `devindex-mcp.cjs`, a JavaScript launcher in syntax every Node parses (no const, no arrows): it says in
//   words when this Node is too old, picks the newest `<prefix>-<version>/dist/cli.js` in the extensions
//   folder (skipping what VS Code marked obsolete), else the build that wrote it, and runs it in this process.
// - `devindex-mcp`, a POSIX sh launcher (Linux, macOS) that the entry names as its command: it finds `node`
//   (DEVINDEX_NODE, PATH, then the usual install places: a Dock-started app's PATH lacks Homebrew's), says in
//   words when there is none, and execs the JavaScript launcher. On Windows the entry runs
//   `node <folder>\devindex-mcp.cjs` instead: a `.cmd` file cannot be spawned without a shell (Node refuses it
//   since 18.20.2 / 20.12.2), and `cmd /c "<path with spaces>"` depends on quoting that clients do not do; a
//   missing node there is the client's own "spawn node ENOENT".
interface LauncherFile {
  name: string;
  text: string;
  mode: number;
}

const js = (v: unknown): string => JSON.stringify(v);

/** The JavaScript launcher's text. */
function launcherJs(t: LauncherTargets): string {
  return `${launcherStamp(t)}
// Developer Index MCP launcher: written by the Developer Index extension or \`devindex setup mcp\`, and
// rewritten by them; edits here are lost. It starts the newest installed devindex build.
'use strict';
var MIN = ${MIN_NODE_MAJOR};
var version = String(process.versions && process.versions.node);
if (!(Number(version.split('.')[0]) >= MIN)) {
  process.stderr.write('devindex: this Node.js (' + version + ', ' + process.execPath + ') is too old for the Developer Index MCP server, which needs Node.js ' + MIN + ' or later. Install a newer Node.js (https://nodejs.org), or set DEVINDEX_NODE to one in the MCP entry\\'s environment.\\n');
  process.exit(1);
}
var fs = require('fs');
var path = require('path');
var SCAN = ${js(t.scan ?? null)};
var FALLBACK = ${js(t.fallback)};
function parts(name) {
  var m = /^(\\d+)\\.(\\d+)\\.(\\d+)/.exec(name);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}
function newer(a, b) {
  for (var i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return false;
}
function newest() {
  if (!SCAN) return null;
  var names;
  try { names = fs.readdirSync(SCAN.dir); } catch (e) { return null; }
  var obsolete = {};
  try { obsolete = JSON.parse(fs.readFileSync(path.join(SCAN.dir, '.obsolete'), 'utf8')) || {}; } catch (e) { obsolete = {}; }
  var best = null;
  var bestVersion = null;
  var head = SCAN.prefix.toLowerCase() + '-';
  for (var i = 0; i < names.length; i++) {
    var name = names[i];
    if (name.toLowerCase().indexOf(head) !== 0 || obsolete[name]) continue;
    var v = parts(name.slice(head.length));
    var cli = path.join(SCAN.dir, name, 'dist', 'cli.js');
    if (!v || !fs.existsSync(cli)) continue;
    if (!bestVersion || newer(v, bestVersion)) { best = cli; bestVersion = v; }
  }
  return best;
}
var cli = newest() || (fs.existsSync(FALLBACK) ? FALLBACK : null);
if (!cli) {
  process.stderr.write('devindex: no installed Developer Index build was found' + (SCAN ? ' in ' + SCAN.dir : '') + ' or at ' + FALLBACK + '. Reinstall the extension, or run "devindex setup mcp" again.\\n');
  process.exit(1);
}
var args = process.argv.slice(2);
var main = require(cli);
if (main && typeof main.runAsEntry === 'function') {
  process.argv = [process.argv[0], cli].concat(args);
  main.runAsEntry();
} else {
  // A build older than the launcher: run it as its own process.
  var child = require('child_process').spawn(process.execPath, [cli].concat(args), { stdio: 'inherit' });
  ['SIGINT', 'SIGTERM', 'SIGHUP'].forEach(function (s) { process.on(s, function () { child.kill(s); }); });
  child.on('exit', function (code, signal) { process.exitCode = code === null ? 1 : code; if (signal) process.kill(process.pid, signal); });
}
`;
}

/** A string as one sh word (single quotes). */
function shWord(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The POSIX sh launcher's text: finds node and execs the JavaScript launcher beside it. */
function launcherSh(jsPath: string): string {
  return `#!/bin/sh
# Developer Index MCP launcher: written by the Developer Index extension or \`devindex setup mcp\`, and
# rewritten by them; edits here are lost. Finds Node.js and starts the newest installed devindex build.
node="\${DEVINDEX_NODE:-}"
if [ -z "$node" ]; then node=$(command -v node 2>/dev/null); fi
for c in /opt/homebrew/bin/node /usr/local/bin/node "$HOME/.volta/bin/node" /usr/bin/node; do
  if [ -z "$node" ] && [ -x "$c" ]; then node=$c; fi
done
if [ -z "$node" ] || [ ! -x "$node" ] && ! command -v "$node" >/dev/null 2>&1; then
  echo "devindex: Node.js was not found (looked at DEVINDEX_NODE, PATH, /opt/homebrew/bin, /usr/local/bin, ~/.volta/bin, /usr/bin). The Developer Index MCP server needs Node.js ${MIN_NODE_MAJOR} or later: install it (https://nodejs.org), or set DEVINDEX_NODE to its path in the MCP entry's environment." >&2
  exit 127
fi
exec "$node" ${shWord(jsPath)} "$@"
`;
}

/** The launcher files for a folder, and how an entry runs them on this platform. */
export function launcherFiles(
  dir: string,
  t: LauncherTargets,
  platform: NodeJS.Platform,
  join: (...p: string[]) => string,
): { files: LauncherFile[]; launch: Launch } {
  const files: LauncherFile[] = [{ name: LAUNCHER_JS, text: launcherJs(t), mode: 0o644 }];
  if (platform !== 'win32') files.push({ name: LAUNCHER_SH, text: launcherSh(join(dir, LAUNCHER_JS)), mode: 0o755 });
  return { files, launch: launchFor(dir, platform, join) };
}
