// Edits one property of a user's JSON-with-comments file (mcp.json and its cousins) and leaves every other byte as
// it was: comments, formatting, trailing commas, other servers. Parsed with jsonc-parser (as VS Code reads
// settings.json); pure, no file access, no vscode.
import {
  createScanner,
  findNodeAtLocation,
  getNodeValue,
  parseTree,
  printParseErrorCode,
  type Node,
  type ParseError,
} from 'jsonc-parser';

// jsonc-parser's `modify` reformats the whole object around an edit (with formatting options) or inserts one compact
// line (without), so the edits are computed from its parse tree: a replaced value spans exactly the old value's
// bytes; a new property goes on its own line before the closing brace, with a comma added after the last one.
/** jsonc-parser's SyntaxKind.CommaToken (a const enum, which isolated modules cannot read). */
const COMMA_TOKEN = 5;

type JsonPath = Array<string | number>;

interface Edit {
  offset: number;
  length: number;
  content: string;
}

/** How the file is laid out: its indent unit and line ending (new text follows them). */
interface Layout {
  indent: string;
  eol: string;
}

function layoutOf(text: string): Layout {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const m = /^([ \t]+)\S/m.exec(text);
  const indent = !m ? '  ' : m[1]!.startsWith('\t') ? '\t' : m[1]!.length >= 2 && m[1]!.length <= 8 ? m[1]! : '  ';
  return { indent, eol };
}

/** The text read, or why it cannot be edited (which then is never written). */
export type Parsed = { ok: true; root: Node | undefined; text: string } | { ok: false; reason: string };

function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

/** Parses with comments and trailing commas allowed; any other error, or a top level that is not an object, is a reason. */
export function parseJsonc(text: string): Parsed {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  if (errors.length) {
    const e = errors[0]!;
    return {
      ok: false,
      reason: `it is not valid JSON with comments (${printParseErrorCode(e.error)} at ${lineCol(text, e.offset)})`,
    };
  }
  if (root && root.type !== 'object')
    return {
      ok: false,
      reason: `its top level is ${root.type === 'array' ? 'an array' : `a ${root.type}`}, not an object`,
    };
  return { ok: true, root, text };
}

function indentAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** Whether only blanks stand between the start of the line and `offset`. */
function startsLine(text: string, offset: number): boolean {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*$/.test(text.slice(start, offset));
}

/** `value` as JSON laid out like the file, its later lines indented to follow a line indented by `base`. */
function pretty(value: unknown, base: string, layout: Layout): string {
  return JSON.stringify(value, null, layout.indent).split('\n').join(`${layout.eol}${base}`);
}

/** The end of the comma that follows `offset` (after blanks and comments only), or -1. */
function commaAfter(text: string, offset: number): number {
  // With trivia ignored the scanner skips blanks, line breaks and comments.
  const s = createScanner(text, true);
  s.setPosition(offset);
  return s.scan() === COMMA_TOKEN ? s.getTokenOffset() + s.getTokenLength() : -1;
}

/**
 * Edits that add `item` (a property `"key": value`, or an array element) as the last child of `container`.
 * A file that ends its last child with a comma gets one after the new child too (its style).
 */
function appendChild(text: string, container: Node, item: (base: string) => string, layout: Layout): Edit[] {
  const close = container.offset + container.length - 1;
  const last = container.children?.at(-1);
  const closeIndent = indentAt(text, close);
  const comma = last ? commaAfter(text, last.offset + last.length) : -1;
  const trailing = comma >= 0 ? ',' : '';
  if (startsLine(text, close)) {
    // The closing bracket is alone on its line: the new child goes on a line of its own just above it,
    // after any comment that ends the last child's line.
    const base = last && startsLine(text, last.offset) ? indentAt(text, last.offset) : closeIndent + layout.indent;
    const lineStart = text.lastIndexOf('\n', close - 1) + 1;
    const edits: Edit[] = [];
    if (last && comma < 0) edits.push({ offset: last.offset + last.length, length: 0, content: ',' });
    edits.push({ offset: lineStart, length: 0, content: `${base}${item(base)}${trailing}${layout.eol}` });
    return edits;
  }
  if (!last) {
    // An empty object or array on one line: opened onto lines of their own (a comment inside is kept).
    if (/\S/.test(text.slice(container.offset + 1, close)))
      return [
        {
          offset: close,
          length: 0,
          content: `${/\s/.test(text[close - 1]!) ? '' : ' '}${item(closeIndent + layout.indent)} `,
        },
      ];
    return [
      {
        offset: container.offset + 1,
        length: close - container.offset - 1,
        content: `${layout.eol}${closeIndent}${layout.indent}${item(closeIndent + layout.indent)}${layout.eol}${closeIndent}`,
      },
    ];
  }
  // The last child and the closing bracket share a line: the new child follows the last one on that line.
  const base = indentAt(text, last.offset);
  return comma >= 0
    ? [{ offset: comma, length: 0, content: ` ${item(base)},` }]
    : [{ offset: last.offset + last.length, length: 0, content: `, ${item(base)}` }];
}

function apply(text: string, edits: Edit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.offset - a.offset))
    out = out.slice(0, e.offset) + e.content + out.slice(e.offset + e.length);
  return out;
}

/**
 * The text with `value` at `path` (object keys; the last may be new, and so may the objects on the way):
 * an existing value's bytes are replaced, nothing else moves. `text` must have parsed (parseJsonc).
 */
export function setAt(text: string, path: string[], value: unknown): string {
  const layout = layoutOf(text);
  const root = parseTree(text, [], { allowTrailingComma: true, allowEmptyContent: true });
  if (!root) {
    // An empty file, or one with comments only: the object follows what is there.
    const lead = text.trim() === '' ? '' : /\n$/.test(text) ? text : `${text}${layout.eol}`;
    return `${lead}${pretty(nest(path, value), '', layout)}${layout.eol}`;
  }
  const node = findNodeAtLocation(root, path);
  if (node)
    return apply(text, [
      {
        offset: node.offset,
        length: node.length,
        content: pretty(value, indentAt(text, node.parent?.offset ?? node.offset), layout),
      },
    ]);
  // The deepest object on the path that exists gets the rest of the path as one new property.
  let at = root;
  let i = 0;
  for (; i < path.length - 1; i++) {
    const next = findNodeAtLocation(at, [path[i]!]);
    if (!next) break;
    if (next.type !== 'object') throw new Error(`${path.slice(0, i + 1).join('.')} is not an object`);
    at = next;
  }
  const key = path[i]!;
  const rest = nest(path.slice(i + 1), value);
  return apply(
    text,
    appendChild(text, at, (base) => `${JSON.stringify(key)}: ${pretty(rest, base, layout)}`, layout),
  );
}

/** Appends `value` to the array at `path` (which must exist and be an array). */
export function appendTo(text: string, path: string[], value: unknown): string {
  const layout = layoutOf(text);
  const root = parseTree(text, [], { allowTrailingComma: true, allowEmptyContent: true });
  const node = root && findNodeAtLocation(root, path);
  if (!node || node.type !== 'array') throw new Error(`${path.join('.')} is not an array`);
  return apply(
    text,
    appendChild(text, node, (base) => pretty(value, base, layout), layout),
  );
}

/** Replaces the array element at `index` of the array at `path`. */
export function replaceElement(text: string, path: string[], index: number, value: unknown): string {
  const layout = layoutOf(text);
  const root = parseTree(text, [], { allowTrailingComma: true, allowEmptyContent: true });
  const node = root && findNodeAtLocation(root, [...path, index]);
  if (!node) throw new Error(`${path.join('.')}[${index}] does not exist`);
  return apply(text, [
    { offset: node.offset, length: node.length, content: pretty(value, indentAt(text, node.offset), layout) },
  ]);
}

function nest(path: string[], value: unknown): unknown {
  return path.reduceRight<unknown>((v, k) => ({ [k]: v }), value);
}

/** The plain value at `path`, or undefined. */
export function valueAt(text: string, path: JsonPath): unknown {
  const root = parseTree(text, [], { allowTrailingComma: true, allowEmptyContent: true });
  const node = root && findNodeAtLocation(root, path);
  return node ? getNodeValue(node) : undefined;
}

/** The type of the node at `path` ('object', 'array', 'string', …), or undefined when there is none. */
export function typeAt(text: string, path: JsonPath): Node['type'] | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true, allowEmptyContent: true });
  return root ? findNodeAtLocation(root, path)?.type : undefined;
}
