// Pure: the installed packages that stack frames, paths, import specifiers and problem messages point into.
// No vscode import.
import type { Ecosystem } from '../versions/versionCompare';

/** A package named by an ecosystem's own key: npm and Cargo names, Go module paths, Python distribution/import names. */
export interface PackageRef {
  ecosystem: Ecosystem;
  name: string;
}

export const refKey = (r: PackageRef): string => {
  const name =
    r.ecosystem === 'pypi'
      ? r.name.toLowerCase().replace(/[-_.]+/g, '-')
      : r.ecosystem === 'cargo'
        ? r.name.replace(/_/g, '-')
        : r.name;
  return `${r.ecosystem}:${name}`;
};

// eslint-disable-next-line no-control-regex
export const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007/g;

/**
 * The package a path points into, from the layouts package managers install to: `node_modules/<pkg>`
 * (pnpm's nested `.pnpm/.../node_modules/<pkg>` too: the last one wins), Python `site-packages/<top>`,
 * Cargo `registry/src/<index>/<crate>-<version>`, Go `pkg/mod/<module>@<version>` or another GOMODCACHE.
 * `/` and `\` alike (Windows paths, UNC shares, both mixed).
 */
export function packageOfPath(path: string): PackageRef | undefined {
  const p = path.replace(/\\/g, '/');
  const nm = p.lastIndexOf('/node_modules/');
  if (nm >= 0 || p.startsWith('node_modules/')) {
    const rest = p.slice(nm >= 0 ? nm + '/node_modules/'.length : 'node_modules/'.length).split('/');
    const name = rest[0]?.startsWith('@') ? (rest[1] ? `${rest[0]}/${rest[1]}` : undefined) : rest[0];
    if (name && name !== '.pnpm' && name !== '.bin' && !name.startsWith('.')) return { ecosystem: 'npm', name };
    return undefined;
  }
  const sp = /\/(?:site|dist)-packages\/([A-Za-z0-9_.-]+)/.exec(p);
  if (sp) {
    const top = sp[1]!.replace(/\.py$/, '');
    if (/\.(dist|egg)-info$/.test(top) || top === '__pycache__') return undefined;
    return { ecosystem: 'pypi', name: top };
  }
  const cargo = /\/registry\/src\/[^/]+\/([A-Za-z0-9_-]+?)-(\d+\.\d+\.\d+[^/]*)\//.exec(p);
  if (cargo) return { ecosystem: 'cargo', name: cargo[1]! };
  const gomod = /\/pkg\/mod\/(.+?)@v[^/]+/.exec(p) ?? goModCache(p);
  if (gomod) return { ecosystem: 'go', name: gomod[1]!.replace(/!([a-z])/g, (_, c: string) => c.toUpperCase()) };
  return undefined;
}

/**
 * A module in a GOMODCACHE that is not under `pkg/mod` (`%LOCALAPPDATA%\gomod\github.com\o\r@v1.2.3\`,
 * `~/.cache/gomod/...`). The cache stores module paths in lower case (`!x` for `X`), so the module is a run of
 * lower-case segments before the `@v` one; it starts at the last segment there that looks like a host.
 */
function goModCache(p: string): [string, string] | undefined {
  const at = /\/([a-z0-9._~!-]+)@v\d[^/]*\//.exec(p);
  if (!at) return undefined;
  const before = p.slice(0, at.index).split('/');
  const run: string[] = [];
  for (let i = before.length - 1; i >= 0 && /^[a-z0-9._~!-]+$/.test(before[i]!); i--) run.unshift(before[i]!);
  let host = run.length - 1;
  while (host >= 0 && !/^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}$/.test(run[host]!)) host--;
  return host < 0 ? undefined : [at[0], [...run.slice(host), at[1]!].join('/')];
}

/**
 * A frame's path as the file system names it: a `file:` URL (`file:///C:/p/x.js`, `file://server/share/x.js`,
 * `file:///home/u/x.js`) becomes a path with its escapes decoded; anything else is returned as it is.
 */
export function pathOfFrame(path: string): string {
  const m = /^file:\/\/([^/]*)(\/.*)?$/i.exec(path);
  if (!m) return path;
  let rest = m[2] ?? '/';
  try {
    rest = decodeURIComponent(rest);
  } catch {
    /* a stray %: keep it as written */
  }
  if (m[1] && m[1].toLowerCase() !== 'localhost') return `//${m[1]}${rest}`;
  return /^\/[A-Za-z]:(?:[\\/]|$)/.test(rest) ? rest.slice(1) : rest;
}

const NODE_BUILTINS = new Set([
  'assert',
  'async_hooks',
  'buffer',
  'child_process',
  'cluster',
  'console',
  'constants',
  'crypto',
  'dgram',
  'diagnostics_channel',
  'dns',
  'domain',
  'events',
  'fs',
  'http',
  'http2',
  'https',
  'inspector',
  'module',
  'net',
  'os',
  'path',
  'perf_hooks',
  'process',
  'punycode',
  'querystring',
  'readline',
  'repl',
  'stream',
  'string_decoder',
  'sys',
  'timers',
  'tls',
  'trace_events',
  'tty',
  'url',
  'util',
  'v8',
  'vm',
  'wasi',
  'worker_threads',
  'zlib',
  'vscode',
]);

/** A bare import specifier's npm package (`@scope/name/sub` -> `@scope/name`); undefined for relative, absolute and built-in ones. */
export function npmPackageOfSpecifier(spec: string): string | undefined {
  const s = spec.trim();
  if (!s || /^[./~#]/.test(s) || /^[a-z]+:/i.test(s)) return undefined;
  const parts = s.split('/');
  const name = s.startsWith('@') ? (parts[1] ? `${parts[0]}/${parts[1]}` : undefined) : parts[0];
  if (!name || NODE_BUILTINS.has(name) || !/^(?:@[a-z0-9~][\w.~-]*\/)?[a-z0-9~][\w.~-]*$/i.test(name)) return undefined;
  return name;
}

function addUnique(out: PackageRef[], r: PackageRef | undefined): void {
  if (r && !out.some((o) => refKey(o) === refKey(r))) out.push(r);
}

const PATHISH = /(?:[A-Za-z]:)?[\\/]?(?:[^\s'"`()<>[\]{},;]+[\\/])+[^\s'"`()<>[\]{},;:]+/g;

/**
 * The path of a frame line whose form says where its path starts and ends, so a path with spaces
 * (`C:\Users\Ana Lima\...`, `C:\Program Files\...`) is read whole: Node's and Rust's `at <fn> (<path>:1:2)`
 * and `at <path>:1:2`, Python's `File "<path>", line 3`, rustc's `--> <path>:1:2`, Rust's `panicked at <path>:1:2:`,
 * and a Go frame's tab-indented `<path>.go:88 +0x1c`.
 */
function wholeFramePath(line: string): string | undefined {
  const m =
    /^\s*File "([^"]+)", line \d+/.exec(line) ??
    /^\s*at (?:[^()]*\()?(.+?):\d+:\d+\)?\s*$/.exec(line) ??
    /^\s*--> (.+?):\d+:\d+\s*$/.exec(line) ??
    /\bpanicked at (.+?):\d+:\d+:?\s*$/.exec(line) ??
    /^\t(.+?\.go):\d+(?: \+0x[0-9a-f]+)?\s*$/.exec(line);
  return m?.[1];
}

/**
 * The installed packages a stack trace or terminal text points into, innermost first: frames' paths
 * (Node, Rust, Go module cache, Python site-packages: Python prints the innermost frame last) and
 * Go frames' function names (`github.com/o/r/pkg.(*T).M`).
 */
export function packagesInText(text: string): PackageRef[] {
  const out: PackageRef[] = [];
  for (const f of framesInText(text)) addUnique(out, f.ref);
  return out;
}

/** Each path or Go frame in the text that points into an installed package, innermost first (paths kept). */
export function framesInText(text: string): Array<{ ref: PackageRef; path?: string }> {
  const out: Array<{ ref: PackageRef; path?: string }> = [];
  const lines = text.replace(ANSI, '').split(/\r?\n/);
  const python = lines.some((l) => /^\s*File "[^"]+", line \d+/.test(l));
  for (const line of python ? [...lines].reverse() : lines) {
    if (/\bnode:internal\b/.test(line)) continue;
    // A frame's whole path when its line says where it ends and it is absolute; else each path-like run.
    const whole = wholeFramePath(line);
    const wholeRef =
      whole !== undefined && /^(?:[A-Za-z]:[\\/]|[\\/]|file:)/i.test(whole) ? packageOfPath(whole) : undefined;
    if (wholeRef) out.push({ ref: wholeRef, path: pathOfFrame(whole!) });
    else {
      for (const m of line.matchAll(PATHISH)) {
        const ref = packageOfPath(m[0]);
        if (ref) out.push({ ref, path: pathOfFrame(m[0]) });
      }
    }
    // A Go frame's function: `<import path>.<func>(` or `<import path>.(*T).M(`; the path ends at the last `/` segment's first dot.
    const goFrame = /^((?:github\.com|golang\.org|gopkg\.in)(?:\/[\w-]+(?:\.[\w-]+)*)*?\/[\w-]+)\.[\w(*)]/.exec(
      line.trim(),
    );
    if (goFrame && /\)\s*$/.test(line.trim()) && !/\/pkg\/mod\//.test(line))
      out.push({ ref: { ecosystem: 'go', name: goFrame[1]! } });
  }
  return out;
}

/** What the editor knows about a problem, in plain values. */
/** A problem as the code action hands it to its command: the facts and the document's URI. */
export type ProblemArgs = ProblemFacts & { uri?: string };

export interface ProblemFacts {
  message: string;
  /** The document's language id (`typescript`, `go`, `rust`, `python`, ...). */
  languageId: string;
  /** The text under the problem's range (often the import specifier itself, quotes included). */
  rangeText?: string;
  /** The text of the problem's line (to find an import statement around the range). */
  lineText?: string;
  /** Paths of the problem's related information and of the file itself. */
  relatedPaths?: string[];
}

function fromModuleName(languageId: string, name: string): PackageRef | undefined {
  const n = name.trim();
  if (/^(?:github\.com|golang\.org|gopkg\.in)\//.test(n) || languageId === 'go') {
    return /^[\w.-]+\.[a-z]{2,}\//.test(n) ? { ecosystem: 'go', name: n } : undefined;
  }
  if (languageId === 'rust') {
    const crate = n.split('::')[0]!;
    return /^[A-Za-z_][\w-]*$/.test(crate) && !['crate', 'self', 'super', 'std', 'core', 'alloc'].includes(crate)
      ? { ecosystem: 'cargo', name: crate }
      : undefined;
  }
  if (languageId === 'python') {
    const top = n.split('.')[0]!;
    return /^[A-Za-z_]\w*$/.test(top) ? { ecosystem: 'pypi', name: top } : undefined;
  }
  const pkg = npmPackageOfSpecifier(n);
  return pkg ? { ecosystem: 'npm', name: pkg } : undefined;
}

/**
 * The packages a problem points into, most specific first: the import specifier under its range (or on its
 * line), a module the message quotes (`Cannot find module 'x'`, `Module '"x"'`, `Import "x" could not be
 * resolved`, ``unresolved import `x::y` ``, `could not import github.com/o/r`), then paths into installed
 * packages in the message and the related information.
 */
export function packagesOfProblem(p: ProblemFacts): PackageRef[] {
  const out: PackageRef[] = [];
  const quoted = p.rangeText ? /^\s*(['"`])([^'"`\s]+)\1\s*$/.exec(p.rangeText) : null;
  if (quoted) addUnique(out, fromModuleName(p.languageId, quoted[2]!));
  if (p.lineText) {
    const imp =
      /\b(?:from|import|require\s*\(|import\s*\()\s*(['"`])([^'"`\s]+)\1/.exec(p.lineText) ??
      /^\s*(?:import|use|extern crate)\s+()([\w.:]+)/.exec(p.lineText) ??
      /^\s*from\s+()([\w.]+)\s+import\b/.exec(p.lineText);
    if (imp) addUnique(out, fromModuleName(p.languageId, imp[2]!));
  }
  const m = p.message;
  const patterns = [
    /[Mm]odule '"([^"]+)"'/g, // TS2305: Module '"x"' has no exported member
    /(?:module|package|declaration file for module)\s+['"`]([^'"`]+)['"`]/gi,
    /Import "([^"]+)" could not be resolved/g,
    /No module named '([^']+)'/g,
    /unresolved import `([^`]+)`/g,
    /undeclared crate or module `([^`]+)`/g,
    /(?:could not import|no required module provides package|cannot find package)\s+"?([\w.-]+\.[a-z]{2,}\/[^\s"():]+)/g,
    /\b((?:github\.com|golang\.org\/x|gopkg\.in)(?:\/[\w.-]+)+)/g,
  ];
  for (const re of patterns) for (const x of m.matchAll(re)) addUnique(out, fromModuleName(p.languageId, x[1]!));
  for (const r of packagesInText(m)) addUnique(out, r);
  for (const path of p.relatedPaths ?? []) addUnique(out, packageOfPath(path));
  return out;
}
