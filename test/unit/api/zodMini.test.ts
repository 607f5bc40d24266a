// The search schemas are zod/mini (dist/core.js's size) with zod's compiled object parser (the client's
// tail). The compiled parser must give what classic zod's looseObject gives: the same output, issues and words.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as classic from 'zod';
import * as mini from 'zod/mini';
import { fastLooseObject } from '../../../src/api/zodMini';
import { SearchResponseSchema } from '../../../src/api/schemas';

const classicSchema = classic.looseObject({
  id: classic.string(),
  n: classic.optional(classic.number()),
  inner: classic.optional(classic.looseObject({ t: classic.string() })),
});
const fastSchema = fastLooseObject({
  id: mini.string(),
  n: mini.optional(mini.number()),
  inner: mini.optional(fastLooseObject({ t: mini.string() })),
});
const miniSchema = mini.looseObject({
  id: mini.string(),
  n: mini.optional(mini.number()),
  inner: mini.optional(mini.looseObject({ t: mini.string() })),
});

const inputs: unknown[] = [
  { id: 'a' },
  { id: 'a', n: 1, extra: { deep: [1] } },
  { id: 'a', n: undefined },
  { id: 'a', inner: { t: 'x', more: 1 } },
  { id: 1 },
  { n: 'x' },
  { id: 'a', inner: { t: 2 } },
  null,
  'text',
  [],
  { id: 'a', ['__proto__']: { polluted: true } },
  Object.assign(Object.create(null) as object, { id: 'a' }),
  { id: 'a', n: Number.NaN },
  { id: 'a', n: Number.POSITIVE_INFINITY },
];

describe("fastLooseObject (zod/mini with zod's compiled object parser)", () => {
  it("gives classic zod's output, issues and messages on every input", () => {
    for (const input of inputs) {
      const c = classicSchema.safeParse(input);
      const f = fastSchema.safeParse(input);
      const m = miniSchema.safeParse(input);
      assert.equal(f.success, c.success, JSON.stringify(input));
      if (c.success && f.success) assert.deepEqual(f.data, c.data);
      else
        assert.deepEqual(
          f.error!.issues.map((i) => [i.path, i.code, i.message]),
          c.error!.issues.map((i) => [i.path, i.code, i.message]),
          JSON.stringify(input),
        );
      // and what zod/mini's own looseObject gives
      assert.deepEqual(
        f.success ? f.data : f.error.issues.map((i) => i.message),
        m.success ? m.data : m.error.issues.map((i) => i.message),
      );
    }
    assert.equal(
      fastSchema.safeParse({ id: 1 }).error!.issues[0]!.message,
      'Invalid input: expected string, received number',
    );
  });

  it("is zod's compiled object parser (the $ZodObjectJIT trait), as the search response and its results use", () => {
    const traits = (s: unknown) => (s as { _zod: { traits: Set<string> } })._zod.traits;
    assert.ok(traits(fastSchema).has('$ZodObjectJIT'));
    assert.ok(
      !traits(miniSchema).has('$ZodObjectJIT'),
      "zod/mini's own looseObject has no compiled parser (why this module exists)",
    );
    assert.ok(traits(SearchResponseSchema).has('$ZodObjectJIT'));
    assert.ok(traits(SearchResponseSchema).has('ZodMiniType'));
  });

  it('returns a fresh object, never the input, so the kind can be set on it', () => {
    const input = { id: 'a', extra: 1 };
    const out = fastSchema.parse(input);
    assert.notEqual(out, input);
    assert.deepEqual(out, input);
  });
});
