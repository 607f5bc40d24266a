// The launcher's names, the first line that says which launcher a file is, and how an entry runs it: the
// small part of launcher.ts that activation needs (the launcher's text is written from dist/cli-setup.js,
// only when this stamp differs from the file's first line).
import type { Launch } from './entries';

export const LAUNCHER_JS = 'devindex-mcp.cjs';
export const LAUNCHER_SH = 'devindex-mcp';
/** The oldest Node the CLI runs on (its bundles target node20). */
export const MIN_NODE_MAJOR = 20;
/** Raised when the launcher's text changes, so that activation writes it again. */
const LAUNCHER_FORMAT = 1;

/** Where the launcher looks for builds: a folder of `<prefix>-<version>` folders, and the build that wrote it. */
export interface LauncherTargets {
  /** The extensions folder and the extension's folder prefix (`devindex.devindex`), when the CLI runs from one. */
  scan?: { dir: string; prefix: string };
  /** The `dist/cli.js` that wrote the launcher: used when the scan finds nothing. */
  fallback: string;
}

/** The JavaScript launcher's first line: its format and its targets. */
export function launcherStamp(t: LauncherTargets): string {
  return `// devindex-launcher ${LAUNCHER_FORMAT} ${JSON.stringify({ scan: t.scan ?? null, fallback: t.fallback })}`;
}

/**
 * How an entry runs the launcher in `dir`: the sh launcher itself on Linux and macOS (it finds node and says so
 * when there is none), `node <dir>/devindex-mcp.cjs` on Windows (launcher.ts says why).
 */
export function launchFor(dir: string, platform: NodeJS.Platform, join: (...p: string[]) => string): Launch {
  return platform === 'win32'
    ? { command: 'node', args: [join(dir, LAUNCHER_JS)] }
    : { command: join(dir, LAUNCHER_SH), args: [] };
}

/**
 * The extensions folder and prefix when `cli` is `<extensions>/<publisher.name>-<version>/dist/cli.js`
 * (an installed extension), else undefined (a development checkout, an npm install).
 */
export function scanFor(cli: string, sep: '/' | '\\' = '/'): LauncherTargets['scan'] {
  const parts = cli.split(/[\\/]/);
  const folder = parts.at(-3);
  const m = folder ? /^([a-z0-9][a-z0-9-]*\.[a-z0-9][a-z0-9-]*)-\d+\.\d+\.\d+/i.exec(folder) : null;
  if (!m || parts.at(-2) !== 'dist' || parts.at(-1) !== 'cli.js') return undefined;
  return { dir: parts.slice(0, -3).join(sep), prefix: m[1]! };
}

/**
 * A path an older entry of ours named: `<…>/devindex.devindex-<version>/dist/cli.js` (the bundled CLI inside this
 * extension's folder, package.json's publisher.name as VS Code names it). Another extension's CLI is never taken for ours.
 */
export const VERSIONED_CLI = /[\\/]devindex\.devindex-\d+\.\d+\.\d+[^\\/]*[\\/]dist[\\/]cli\.js$/i;
