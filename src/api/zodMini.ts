// zod/mini set up as classic zod is: English messages, and objects parsed by zod's compiled fast path. Every module
// of ours that builds a zod/mini schema imports this one first, so dist/core.js (zod/mini only) words its issues as
// classic zod does: "Invalid input: expected string, received undefined".
import { $constructor, $ZodObjectJIT, type $ZodLooseShape, type $ZodObjectDef, type $loose } from 'zod/v4/core';
import { config, unknown, ZodMiniType, type ZodMiniObject } from 'zod/mini';
import { en } from 'zod/locales';

// zod's global setting, shared by both forms; classic zod sets English on import, zod/mini only when told to.
config(en());

// zod/mini's objects use zod's generic parser; classic zod's use `$ZodObjectJIT` (a parser generated per shape, with
// a generic fallback where eval is not allowed): about 70 µs instead of 190 for a k=100 x 5 answer. Built from zod's
// own parts, as zod/mini and classic zod each build theirs.
const ZodMiniFastObject = /* @__PURE__ */ $constructor(
  'ZodMiniFastObject',
  (inst: ZodMiniType & { shape?: unknown }, def: $ZodObjectDef) => {
    $ZodObjectJIT.init(inst as never, def);
    ZodMiniType.init(inst, def as never);
    inst.shape = def.shape;
  },
);

/** zod/mini's `looseObject`, parsed by zod's compiled object parser: the same output, issues and messages. */
export function fastLooseObject<S extends $ZodLooseShape>(shape: S): ZodMiniObject<S, $loose> {
  return new ZodMiniFastObject({ type: 'object', shape, catchall: unknown() } as never) as unknown as ZodMiniObject<
    S,
    $loose
  >;
}
