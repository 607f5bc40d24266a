// Pure: problem messages and terminal text -> a search query without the noise that defeats search, and the
// installed packages that stack frames, paths and import specifiers point into. No vscode import.
import { selectionToQuery } from '../search/selectionQuery';
import type { Ecosystem } from '../versions/versionCompare';

/** A package named by an ecosystem's own key: npm and Cargo names, Go module paths, Python distribution/import names. */
export interface PackageRef {
  ecosystem: Ecosystem;
  name: string;
}

export const refKey = (r: PackageRef): string =>
  `${r.ecosystem}:${r.ecosystem === 'pypi' ? r.name.toLowerCase().replace(/[-_.]+/g, '-') : r.ecosystem === 'cargo' ? r.name.replace(/_/g, '-') : r.name}`;

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007/g;

/** Path characters: anything but whitespace, quotes, brackets and the separators messages put around paths. */
const P = String.raw`[^\s'"\`()<>\[\]{},;]`;
const ABS_POSIX = new RegExp(String.raw`(?:file:\/\/)?(?<![\w.~-])(?:~)?\/(?:${P}+\/)*${P}*`, 'g');
// A drive letter (`C:\`, `C:/`) or a UNC share (`\\server\share\`).
const ABS_WINDOWS = new RegExp(
  String.raw`(?:(?<![\w])[A-Za-z]:[\\/]|(?<![\w\\])\\\\(?=[^\\\s]))(?:${P}+[\\/])*${P}*`,
  'g',
);
const QUOTED_WINDOWS = /(['"`])((?:[A-Za-z]:[\\/]|\\\\(?=[^\\\s]))[^'"`\n]*?)\1/g;
const REL_WITH_LINE = new RegExp(
  String.raw`(?<![\w/])(?:\.{1,2}[\\/])?(?:${P}+[\\/])*(${P}+\.[A-Za-z0-9]{1,6})(?=[:(]\d)`,
  'g',
);

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

/** `http://127.0.0.1:8080/...`, `http://localhost:3000`, `http://[::1]:5173`: a developer's own machine, never what to search for. */
function isLoopbackWithPort(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (!u.port) return false;
  const h = u.hostname.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || /^127\./.test(h) || h === '[::1]' || h === '0.0.0.0';
}

/** The short name a path leaves in a query: an installed package's name, else the file's own name. */
function pathReplacement(path: string): string {
  const ref = packageOfPath(path);
  if (ref) return ref.name;
  const clean = path
    .replace(/^file:\/\//, '')
    .replace(/(?:[:(]\d+(?:[:,]\d+)?\)?)*:?$/, '')
    .replace(/[\\/]+$/, '');
  const base = clean.split(/[\\/]/).pop() ?? '';
  return /\.[A-Za-z0-9]{1,6}$/.test(base) ? base : '';
}

/** The line between two tracebacks of a Python exception chain (`raise … from …`, or an exception while handling another). */
const PY_CHAIN =
  /^(?:The above exception was the direct cause of the following exception|During handling of the above exception, another exception occurred):?$/;
const PY_FRAME = /^\s*File "[^"]+", line \d+/;

/**
 * A Python traceback's parts, most telling first: the last traceback's exception (the one that reached the
 * user: `requests.exceptions.ConnectionError: …`), then each earlier one of the chain back to the first
 * cause, then what came before the first traceback. Each part keeps its frames (cleaned away later).
 * Undefined for text without a Python frame.
 */
function pythonPartsLastFirst(lines: readonly string[]): string[][] | undefined {
  if (!lines.some((l) => PY_FRAME.test(l))) return undefined;
  const sections: string[][] = [[]];
  for (const l of lines) {
    if (PY_CHAIN.test(l.trim())) sections.push([]);
    else sections[sections.length - 1]!.push(l);
  }
  const exceptions: string[][] = [];
  const rest: string[][] = [];
  for (const sec of sections) {
    let last = -1;
    sec.forEach((l, i) => {
      if (PY_FRAME.test(l)) last = i;
    });
    if (last < 0) {
      exceptions.push(sec);
      rest.push([]);
      continue;
    }
    // The frame's source line and its caret markers belong to the frame.
    let end = last + 1;
    if (end < sec.length && /^\s{4,}\S/.test(sec[end]!)) end++;
    while (end < sec.length && /^\s*[\^~]+\s*$/.test(sec[end]!)) end++;
    exceptions.push(sec.slice(end));
    rest.push(sec.slice(0, end));
  }
  return [...exceptions.reverse(), ...rest.reverse()];
}

/** Stack-frame lines (Node, Python, Go, Rust backtraces, rustc's source excerpts) that are location, not message. */
function isFrameLine(line: string, state: { goroutine: boolean; pyFrame: boolean }): boolean {
  if (state.pyFrame) {
    state.pyFrame = false;
    if (/^\s{4,}\S/.test(line) && !/^\s*File "/.test(line)) return true; // the source line under a Python frame
  }
  if (/^\s*at\s+\S/.test(line)) return true; // Node, Rust backtrace `at /path:1:2`
  if (/^\s*File "[^"]+", line \d+/.test(line)) {
    state.pyFrame = true;
    return true;
  }
  if (/^Traceback \(most recent call last\):?$/.test(line.trim())) return true;
  if (PY_CHAIN.test(line.trim())) return true;
  if (/^goroutine \d+ \[[^\]]*\]:$/.test(line.trim())) {
    state.goroutine = true;
    return true;
  }
  if (state.goroutine) {
    if (line.trim() === '') {
      state.goroutine = false;
      return true;
    }
    return true;
  }
  if (/^\s*-->\s/.test(line) || /^\s*\d*\s*\|/.test(line) || /^\s*\.\.\.\s*$/.test(line)) return true; // rustc excerpts
  if (/^\s*\d+:\s+(?:0x[0-9a-f]+\s+-\s+)?[\w:<>$.]+(?:::h[0-9a-f]{16})?$/.test(line)) return true; // Rust backtrace symbol
  if (/^stack backtrace:$/.test(line.trim()) || /^note: run with `RUST_BACKTRACE/.test(line.trim())) return true;
  if (/^\[signal [^\]]+\]$/.test(line.trim()) || /^exit status \d+$/.test(line.trim())) return true;
  if (/^\s*\^+\s*$/.test(line) || /^\s*~+\s*$/.test(line)) return true; // caret markers
  if (/^Node\.js v\d+/.test(line.trim())) return true;
  if (/^\d+ {2,}\S/.test(line)) return true; // tsc's numbered source excerpt
  return false;
}

/**
 * The query for a problem message or a terminal selection: ANSI escapes, stack frames, absolute paths
 * (an installed package's path becomes its name; any other, its file name), line:column, hex addresses,
 * long hashes, UUIDs, long numbers and timestamps removed; whitespace folded; cut at 400 characters.
 * Error codes (`TS2307`, `E0432`, `no-unused-vars`) and quoted identifiers stay: they are what matches.
 * A Python traceback too long for one query puts its final exception first (then the chain's earlier ones).
 */
export function cleanMessage(text: string): string {
  const lines = text.replace(ANSI, '').replace(/\r\n?/g, '\n').split('\n');
  const whole = selectionToQuery(cleanLines(lines));
  if (!whole.cut) return whole.query;
  // Too long: a cut keeps the start, and a Python traceback says what went wrong last (a chain's final
  // exception last of all), so its parts go most telling first.
  const parts = pythonPartsLastFirst(lines);
  return parts ? selectionToQuery(parts.map(cleanLines).filter(Boolean).join(' ')).query : whole.query;
}

/** cleanMessage's noise removal, before whitespace is folded and the query cut. */
function cleanLines(input: readonly string[]): string {
  const state = { goroutine: false, pyFrame: false };
  const raw = [...input];
  // A source excerpt under a caret line (Node's and tsc's pretty output): drop the excerpt and its `file:line` header.
  for (let i = 0; i < raw.length; i++) {
    if (!/^\s*[\^~]+\s*$/.test(raw[i]!)) continue;
    raw[i - 1] = '';
    if (i >= 2 && /^\S+:\d+$/.test(raw[i - 2]!.trim())) raw[i - 2] = '';
  }
  const lines = raw.filter((l) => !isFrameLine(l, state));
  let s = lines.join('\n');
  // Whole URLs stay (a service's address or a documentation link is often the point); set aside so the path
  // rules below cannot cut them to `https:`. Noise only: a local file URL, or loopback with a port.
  const urls: string[] = [];
  s = s.replace(/\b(?:https?|wss?|ftp):\/\/[^\s'"`<>]+/gi, (raw) => {
    const u = raw.replace(/[.,;:!?)\]}]+$/, '');
    const tail = raw.slice(u.length);
    if (isLoopbackWithPort(u)) return ` ${tail}`;
    urls.push(u);
    return `\u0000${urls.length - 1}\u0000${tail}`;
  });
  s = s
    .replace(/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, ' ')
    // A quoted Windows path is read up to its closing quote: folders with spaces (`C:\Program Files\…`) are common there.
    .replace(QUOTED_WINDOWS, (_m, q: string, path: string) => `${q}${pathReplacement(path)}${q}`)
    .replace(ABS_WINDOWS, (m) => ` ${pathReplacement(m)} `)
    .replace(ABS_POSIX, (m) => (m === '/' ? m : ` ${pathReplacement(m)} `))
    .replace(REL_WITH_LINE, (_m, base: string) => base)
    .replace(/(\.[A-Za-z0-9]{1,6})(?::\d+){1,2}\b/g, '$1') // file.ts:12:5
    .replace(/(\.[A-Za-z0-9]{1,6})\(\d+,\d+\)/g, '$1') // file.ts(12,5)
    .replace(/\[\s*(?:Ln\s*)?\d+\s*[,:]\s*(?:Col\s*)?\d+\s*\]/gi, ' ') // [12, 5]
    .replace(/\b(?:line|ln|col|column)\s+\d+\b/gi, ' ')
    .replace(/\b\d+:\d+\b(?!:)/g, ' ') // leftover 12:5
    .replace(/\+0x[0-9a-f]+\b/gi, ' ')
    .replace(/\b0x[0-9a-f]{4,}\b/gi, ' ')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, ' ')
    .replace(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{12,}\b/gi, ' ') // git/sha hashes
    // opaque ids, tokens; not a CamelCase name (`Http2ConnectionPrefaceException`), which is the point of a message
    .replace(/\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Z])(?=[A-Za-z0-9_-]*[a-z])[A-Za-z0-9_-]{24,}\b/g, (t) =>
      /^(?:[A-Z][a-z0-9]+)+$/.test(t) ? t : ' ',
    )
    .replace(/\bh[0-9a-f]{16}\b/g, ' ') // Rust symbol hashes
    .replace(/(?<![\w.])\d{6,}(?![\w.])/g, ' ') // pids, timestamps, request ids
    .replace(/\(\s+\)/g, ' ')
    .replace(/(['"`])\s+([^'"`\s]+)\s+\1/g, '$1$2$1')
    .replace(/\s+([,:;)]|\.(?![\w/]))/g, '$1')
    .replace(/(^|\s)[,:;]+(?=\s|$)/g, '$1')
    // eslint-disable-next-line no-control-regex
    .replace(/\u0000(\d+)\u0000/g, (_m, i: string) => urls[Number(i)] ?? ' ');
  return s.replace(/\s+/gu, ' ').trim();
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
