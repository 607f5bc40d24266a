// Deep JSON never overflows the stack: JSON.parse is iterative in V8, but JSON.stringify, structured
// cloning and most recursive walks are not. Responses nested deeper than MAX_JSON_DEPTH are refused by
// the client; every formatter that prints a value from the network is bounded as well.

/** Far deeper than any real response (agent results included), far below the stack's limit. */
export const MAX_JSON_DEPTH = 128;

export const TOO_DEEP = 'response too deeply nested';

/**
 * Whether a JSON-like value nests arrays and objects deeper than `max` levels (the outermost counts as
 * one). Recursive, but never deeper than `max` + 1 frames, and allocation-free: on a 180 KB search
 * response it costs a few percent of the JSON.parse before it (bench/client.bench.ts).
 */
export function valueDepthExceeds(v: unknown, max = MAX_JSON_DEPTH): boolean {
  return v !== null && typeof v === 'object' && deeper(v, max);
}

function deeper(v: object, left: number): boolean {
  if (left === 0) return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x !== null && typeof x === 'object' && deeper(x, left - 1)) return true;
    }
    return false;
  }
  const o = v as Record<string, unknown>;
  for (const k in o) {
    const x = o[k];
    if (x !== null && typeof x === 'object' && deeper(x, left - 1)) return true;
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
