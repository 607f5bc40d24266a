// Deep JSON never overflows the stack: JSON.parse is iterative in V8, but JSON.stringify, structured
// cloning and most recursive walks are not. Responses nested deeper than MAX_JSON_DEPTH are refused by
// the client; every formatter that prints a value from the network is bounded as well.

/** Far deeper than any real response (agent results included), far below the stack's limit. */
export const MAX_JSON_DEPTH = 128;

export const TOO_DEEP = 'response too deeply nested';

/** Whether the JSON text nests arrays and objects deeper than `max` (a linear scan; strings are skipped). */
export function jsonNestingExceeds(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i += 2;
        else if (d === 0x22) break;
        else i++;
      }
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
    i++;
  }
  return false;
}

/** Depth of a JSON-like value, counted iteratively, stopping once it passes `max`. */
export function valueDepthExceeds(v: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[v, 0]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (x === null || typeof x !== 'object') continue;
    if (d + 1 > max) return true;
    for (const y of Array.isArray(x) ? x : Object.values(x as Record<string, unknown>)) {
      if (y !== null && typeof y === 'object') stack.push([y, d + 1]);
    }
  }
  return false;
}

/**
 * JSON.stringify that cannot overflow: values nested deeper than `maxDepth` are replaced by the string
 * "[nested deeper than N levels]". The common case (shallow) is plain JSON.stringify.
 */
export function boundedJson(v: unknown, space?: number, maxDepth = MAX_JSON_DEPTH): string {
  if (!valueDepthExceeds(v, maxDepth)) return JSON.stringify(v, null, space) ?? 'undefined';
  return JSON.stringify(prune(v, maxDepth, 0), null, space) ?? 'undefined';
}

function prune(v: unknown, max: number, d: number): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (d >= max) return `[nested deeper than ${max} levels]`;
  if (Array.isArray(v)) return v.map((x) => prune(x, max, d + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = prune(x, max, d + 1);
  return out;
}
