// Pure: problem messages and terminal text -> a search query without the noise that defeats search (stack frames,
// paths, addresses, hashes). No vscode import.
import { selectionToQuery } from '../search/selectionQuery';
import { ANSI, packageOfPath } from './packageRefs';

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
