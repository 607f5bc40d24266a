// JSON Schema checks of the submit body's `schema`, as production answers them (addendum: `null`,
// `true`, `false` and `{}` accepted; a number, an empty string, an OpenAPI-style or wrapped schema,
// an unknown `format`, a vendor keyword or an `$async` schema refused). The service compiles the
// schema with Ajv in its default (strict) mode; so does this, rather than hand-written rules.
import Ajv from 'ajv';

/** The formats of the JSON Schema specification: known (not checked), so only other names are unknown. */
const STANDARD_FORMATS = [
  'date-time', 'date', 'time', 'duration', 'email', 'idn-email', 'hostname', 'idn-hostname', 'ipv4', 'ipv6',
  'uri', 'uri-reference', 'iri', 'iri-reference', 'uuid', 'uri-template', 'json-pointer', 'relative-json-pointer', 'regex',
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
    const validate = a.compile(schema as Record<string, unknown>);
    a.removeSchema(schema as Record<string, unknown>);
    return typeof validate === 'function' ? undefined : 'the schema did not compile';
  } catch (e) {
    return String((e as Error).message ?? e).replace(/\s+/g, ' ').slice(0, 300);
  }
}
