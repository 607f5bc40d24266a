// Validation of the agent submit body, answering with zod-style issues in `details` like the real
// service does, so clients can be tested against the same shape of failure.

import { jsonSchemaProblem } from './jsonSchema';
import type { Wire } from '../wire';

export const PROMPT_MAX = 10_000;
export const DEFAULT_MAX_CREDITS = 2500;
export const DEFAULT_MODEL = 'spark-2';
export const EFFORTS = ['low', 'medium', 'high'] as const;
export type Effort = (typeof EFFORTS)[number];
/** Production: the current model, and retired names that run on it (their records report `spark-2`). */
export const MODELS = ['spark-2', 'spark-1-pro', 'spark-1-mini'] as const;
/** Production's named integrations; any other `integration` must start with `_`. */
export const INTEGRATIONS = ['dify', 'zapier', 'pipedream', 'raycast', 'langchain', 'crewai', 'llamaindex', 'n8n', 'camelai', 'make', 'flowise', 'metagpt', 'relevanceai'];
export type { Wire };

export interface SubmitOptions {
  prompt: string;
  urls?: string[];
  schema?: Record<string, unknown> | boolean | null;
  maxCredits: number;
  model: string;
  effort?: Effort;
  strictConstrainToURLs?: boolean;
  origin?: string;
  integration?: string;
}

export interface Issue { code: string; path: Array<string | number>; message: string }

const KNOWN = new Set(['prompt', 'urls', 'schema', 'maxCredits', 'model', 'effort', 'strictConstrainToURLs', 'origin', 'integration']);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isHttpUrl(s: string): boolean {
  let u: URL;
  try { u = new URL(s); } catch { return false; }
  return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
}

export type SubmitCheck =
  | { ok: true; value: SubmitOptions }
  | { ok: false; issues: Issue[] }
  /** Production's answer to a schema that is not a valid JSON Schema. */
  | { ok: false; invalidSchema: string };

export function validateSubmit(body: unknown, wire: Wire = 'spec'): SubmitCheck {
  if (!isPlainObject(body)) {
    return { ok: false, issues: [{ code: 'invalid_type', path: [], message: 'Request body must be a JSON object' }] };
  }
  const issues: Issue[] = [];
  const unknownKeys = Object.keys(body).filter((k) => !KNOWN.has(k));
  if (unknownKeys.length) issues.push({ code: 'unrecognized_keys', path: [], message: `Unrecognized key(s) in object: ${unknownKeys.map((k) => `'${k}'`).join(', ')}` });

  const { prompt, urls, schema, maxCredits, model, effort, strictConstrainToURLs, origin, integration } = body;
  if (prompt === undefined) issues.push({ code: 'invalid_type', path: ['prompt'], message: 'prompt is required' });
  else if (typeof prompt !== 'string') issues.push({ code: 'invalid_type', path: ['prompt'], message: 'prompt must be a string' });
  else if (prompt.trim().length === 0) issues.push({ code: 'too_small', path: ['prompt'], message: 'prompt must not be empty' });
  else if (prompt.length > PROMPT_MAX) issues.push({ code: 'too_big', path: ['prompt'], message: `prompt must be at most ${PROMPT_MAX} characters (got ${prompt.length})` });

  if (urls !== undefined) {
    if (!Array.isArray(urls)) issues.push({ code: 'invalid_type', path: ['urls'], message: 'urls must be an array of absolute http(s) URLs' });
    else urls.forEach((u, i) => {
      if (typeof u !== 'string' || !isHttpUrl(u)) issues.push({ code: 'invalid_string', path: ['urls', i], message: `urls[${i}] must be an absolute http(s) URL` });
    });
  }
  const schemaProblem = wire === 'production' ? jsonSchemaProblem(schema) : undefined;
  if (wire === 'spec' && schema !== undefined && !isPlainObject(schema)) issues.push({ code: 'invalid_type', path: ['schema'], message: 'schema must be a JSON Schema object' });
  if (maxCredits !== undefined && (typeof maxCredits !== 'number' || !Number.isFinite(maxCredits) || maxCredits <= 0)) {
    issues.push({ code: 'too_small', path: ['maxCredits'], message: 'maxCredits must be a positive number' });
  }
  if (model !== undefined && (typeof model !== 'string' || model.length === 0 || model.length > 100)) {
    issues.push({ code: 'invalid_type', path: ['model'], message: 'model must be a string of 1 to 100 characters' });
  }
  if (wire === 'production' && typeof model === 'string' && model.length > 0 && !(MODELS as readonly string[]).includes(model)) {
    issues.push({ code: 'invalid_enum_value', path: ['model'], message: `Invalid enum value. Expected ${MODELS.map((m) => `'${m}'`).join(' | ')}, received '${model.slice(0, 100)}'` });
  }
  if (effort !== undefined && !(EFFORTS as readonly unknown[]).includes(effort)) {
    issues.push({ code: 'invalid_enum_value', path: ['effort'], message: `effort must be one of ${EFFORTS.join(', ')}` });
  }
  if (strictConstrainToURLs !== undefined && typeof strictConstrainToURLs !== 'boolean') {
    issues.push({ code: 'invalid_type', path: ['strictConstrainToURLs'], message: 'strictConstrainToURLs must be a boolean' });
  }
  if (origin !== undefined && typeof origin !== 'string') issues.push({ code: 'invalid_type', path: ['origin'], message: 'origin must be a string' });
  if (integration !== undefined && typeof integration !== 'string') issues.push({ code: 'invalid_type', path: ['integration'], message: 'integration must be a string' });
  else if (wire === 'production' && typeof integration === 'string' && !INTEGRATIONS.includes(integration) && !integration.startsWith('_')) {
    issues.push({ code: 'custom', path: ['integration'], message: 'Invalid integration: use one of the named integrations or a value starting with "_"' });
  }

  if (issues.length) return { ok: false, issues };
  if (schemaProblem !== undefined) return { ok: false, invalidSchema: schemaProblem };
  return {
    ok: true,
    value: {
      prompt: prompt as string,
      urls: urls as string[] | undefined,
      schema: schema as SubmitOptions['schema'],
      maxCredits: (maxCredits as number | undefined) ?? DEFAULT_MAX_CREDITS,
      model: (model as string | undefined) ?? DEFAULT_MODEL,
      effort: effort as Effort | undefined,
      strictConstrainToURLs: strictConstrainToURLs as boolean | undefined,
      origin: origin as string | undefined,
      integration: integration as string | undefined,
    },
  };
}
