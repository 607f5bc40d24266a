// JSON Schema checks of the submit body's `schema`, as production answers them (addendum: `null`, `true`, `false`
// and `{}` accepted; a number, an empty string, a wrapped schema, an unknown `format` or vendor keyword refused),
// compiled with Ajv in its default strict mode as the service does.
import Ajv from 'ajv';

/** The formats of the JSON Schema specification: known (not checked), so only other names are unknown. */
const STANDARD_FORMATS = [
  'date-time',
  'date',
  'time',
  'duration',
  'email',
  'idn-email',
  'hostname',
  'idn-hostname',
  'ipv4',
  'ipv6',
  'uri',
  'uri-reference',
  'iri',
  'iri-reference',
  'uuid',
  'uri-template',
  'json-pointer',
  'relative-json-pointer',
  'regex',
];

let ajv: Ajv | undefined;

function compiler(): Ajv {
  ajv ??= new Ajv({ formats: Object.fromEntries(STANDARD_FORMATS.map((f) => [f, true])) });
  return ajv;
}

/** undefined when the schema is acceptable; else the reason, as the service words it after "Invalid JSON schema: ". */
export function jsonSchemaProblem(schema: unknown): string | undefined {
  if (schema === null || schema === undefined || typeof schema === 'boolean') return undefined;
  if (typeof schema !== 'object' || Array.isArray(schema)) {
    return `schema must be an object or a boolean, got ${Array.isArray(schema) ? 'an array' : typeof schema === 'string' && schema === '' ? 'an empty string' : typeof schema}`;
  }
  if ((schema as Record<string, unknown>).$async !== undefined) return 'async schemas are not supported';
  try {
    // Compiled fresh each time and never cached: a test sends many schemas, some with the same $id.
    const a = compiler();
    const plain = withoutAnnotations(schema) as Record<string, unknown>;
    const validate = a.compile(plain);
    a.removeSchema(plain);
    return typeof validate === 'function' ? undefined : 'the schema did not compile';
  } catch (e) {
    return String((e as Error).message ?? e)
      .replace(/\s+/g, ' ')
      .slice(0, 300);
  }
}

/**
 * The schema without its `x-*` annotation keywords, at every depth: production accepts them (from
 * late August 2026) while Ajv's strict mode calls them unknown. Other vendor keywords stay refused.
 * Property names are data, not keywords: `properties: { "x-id": … }` keeps its key.
 */
export function withoutAnnotations(v: unknown, depth = 0): unknown {
  if (depth > 200 || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => withoutAnnotations(x, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (k.startsWith('x-')) continue;
    out[k] =
      NAMED_SCHEMAS.has(k) && x !== null && typeof x === 'object' && !Array.isArray(x)
        ? Object.fromEntries(
            Object.entries(x as Record<string, unknown>).map(([name, s]) => [name, withoutAnnotations(s, depth + 1)]),
          )
        : withoutAnnotations(x, depth + 1);
  }
  return out;
}

/** Keywords whose value maps names (never keywords) to schemas. */
const NAMED_SCHEMAS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
