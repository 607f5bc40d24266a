// `devindex agent start`'s flags that set a field of the submission: one table (flag, field, how the
// value is read) from which the parser's options and the submission are built. The field's checks and
// bounds are the submission schema's (src/api/agent/submitSchema.ts): the client runs them before sending.
import { readFileSync } from 'node:fs';
import type { AgentSchemaParam, AgentSubmitParams, PAID_CALL_SETTINGS } from '../api/agent/submitSchema';
import { numberFlag, splitList, type CliOptions } from './common';
import { UsageError } from './cliBase';

type Exchange = NonNullable<AgentSubmitParams['exchange']>;
type Read = 'text' | 'list' | 'number' | 'on' | 'schemaFile';

/** A submission field, or (`exchange.…`) one of the paid-call settings. */
export type FlagField =
  | Exclude<keyof AgentSubmitParams, 'prompt' | 'exchange' | 'origin' | 'integration'>
  | `exchange.${(typeof PAID_CALL_SETTINGS)[number]}`;

/** Flag → the field it sets and how its value is read. `prompt` is the positional; `origin` and `integration` are the client's own. */
export const SUBMIT_FLAGS: Readonly<Record<string, { field: FlagField; read: Read }>> = {
  urls: { field: 'urls', read: 'list' },
  schema: { field: 'schema', read: 'schemaFile' },
  'max-credits': { field: 'maxCredits', read: 'number' },
  model: { field: 'model', read: 'text' },
  effort: { field: 'effort', read: 'text' },
  'strict-urls': { field: 'strictConstrainToURLs', read: 'on' },
  mode: { field: 'mode', read: 'text' },
  thread: { field: 'threadId', read: 'text' },
  toolkits: { field: 'exchange.toolkits', read: 'list' },
  'max-calls': { field: 'exchange.maxCalls', read: 'number' },
  'require-approval': { field: 'exchange.requireApproval', read: 'on' },
  'on-terms': { field: 'exchange.onTermsRequired', read: 'text' },
};

/** The parser's options for SUBMIT_FLAGS. */
export const SUBMIT_FLAG_OPTIONS: CliOptions = Object.fromEntries(
  Object.entries(SUBMIT_FLAGS).map(([flag, f]) => [
    flag,
    f.read === 'on' ? { type: 'boolean' } : f.read === 'list' ? { type: 'string', multiple: true } : { type: 'string' },
  ]),
);

function readSchema(file: string): AgentSchemaParam {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(
      `--schema ${file}: cannot read the file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--schema ${file}: not valid JSON (${(e as Error).message})`);
  }
  if (v === null || typeof v === 'boolean') return v;
  if (typeof v !== 'object' || Array.isArray(v))
    throw new UsageError(
      `--schema ${file}: must hold a JSON Schema (a JSON object, true, false or null), not ${Array.isArray(v) ? 'an array' : typeof v}`,
    );
  return v as Record<string, unknown>;
}

function valueOf(read: Read, v: unknown): unknown {
  switch (read) {
    case 'list':
      return splitList(v as string[] | undefined);
    case 'number':
      return numberFlag(v as string | undefined);
    case 'on':
      return v === true ? true : undefined;
    case 'schemaFile':
      return typeof v === 'string' ? readSchema(v) : undefined;
    default:
      return typeof v === 'string' ? v : undefined;
  }
}

/**
 * The submission the flags describe, as typed: nothing is checked here but the schema file's JSON; the
 * client checks every field and bound (and requireApproval's need of chat mode) before sending.
 */
export function submitParamsFrom(prompt: string, values: Record<string, unknown>): AgentSubmitParams {
  const params: Record<string, unknown> = { prompt };
  const exchange: Record<string, unknown> = {};
  for (const [flag, { field, read }] of Object.entries(SUBMIT_FLAGS)) {
    const v = valueOf(read, values[flag]);
    if (v === undefined) continue;
    if (field.startsWith('exchange.')) exchange[field.slice('exchange.'.length)] = v;
    else params[field] = v;
  }
  if (Object.keys(exchange).length) params.exchange = exchange as Exchange;
  return params as unknown as AgentSubmitParams;
}
