// Validation of the agent submit body, answering with zod-style issues in `details` as the service does. Where the
// service's bounds are the client's, a field is checked with the client's own submission schema
// (src/api/agent/submitSchema.ts); the words stay the service's (spec and addendum).

import type { AgentExchangeOptions, AgentWebhookEvent } from 'firecrawl';
import { jsonSchemaProblem } from './jsonSchema';
import type { Wire } from '../serverParts';
import {
  AGENT_EFFORTS,
  AGENT_MODELS,
  AGENT_MODES,
  DEFAULT_AGENT_MODEL,
  EXCHANGE_MAX_CALLS,
  EXCHANGE_MAX_TOOLKITS,
  PROMPT_MAX_LENGTH,
  type AgentEffort,
  type AgentMode,
} from '../../src/api/agent/agentConstants';
import { AgentExchangeSchema, isHttpUrl, SUBMIT_SHAPE } from '../../src/api/agent/submitSchema';

export const PROMPT_MAX = PROMPT_MAX_LENGTH;
export const DEFAULT_MAX_CREDITS = 2500;
export const DEFAULT_MODEL = DEFAULT_AGENT_MODEL;
export const EFFORTS = AGENT_EFFORTS;
export type Effort = AgentEffort;
/** Production: the current model, and retired names that run on it (their records report `spark-2`). */
export const MODELS = AGENT_MODELS;
/** Production's named integrations; any other `integration` must start with `_`. */
export const INTEGRATIONS = [
  'dify',
  'zapier',
  'pipedream',
  'raycast',
  'langchain',
  'crewai',
  'llamaindex',
  'n8n',
  'camelai',
  'make',
  'flowise',
  'metagpt',
  'relevanceai',
];
/** The names the service's own clients send (production from late August 2026 accepts them too). */
export const CLIENT_INTEGRATIONS = [
  'cli',
  'mcp',
  'js-sdk',
  'python-sdk',
  'go-sdk',
  'rust-sdk',
  'java-sdk',
  'ruby-sdk',
  'php-sdk',
  'elixir-sdk',
  'dotnet-sdk',
  'playground',
  'dashboard',
];
export const MODES = AGENT_MODES;
export type Mode = AgentMode;
export const MAX_EXCHANGE_CALLS = EXCHANGE_MAX_CALLS.max;

/** The `exchange` of a submit body (production): tool calls the run may make, and approval follow-ups. */
export type Exchange = AgentExchangeOptions;
/** `exchange.toolkits` holds at most this many names (addendum, late November 2026). */
export const MAX_TOOLKITS = EXCHANGE_MAX_TOOLKITS;
export const WEBHOOK_EVENTS = [
  'started',
  'action',
  'completed',
  'failed',
  'cancelled',
] as const satisfies readonly AgentWebhookEvent[];
const THREAT_MODES = ['off', 'manual-only', 'normal', 'zscaler'];

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
  /** Production only: a follow-up turn in this thread (a UUID). */
  threadId?: string;
  /** Production only; the record reports `extract` when it was not sent. */
  mode?: Mode;
  exchange?: Exchange;
}

export interface Issue {
  code: string;
  path: Array<string | number>;
  message: string;
}

const KNOWN = new Set([
  'prompt',
  'urls',
  'schema',
  'maxCredits',
  'model',
  'effort',
  'strictConstrainToURLs',
  'origin',
  'integration',
]);
/** The production wire also knows the thread, mode and exchange fields; the spec wire refuses them as unknown. */
const KNOWN_PRODUCTION = new Set([
  ...KNOWN,
  'threadId',
  'mode',
  'exchange',
  'webhook',
  'threatProtection',
  'auditMetadata',
]);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A present value the client's schema for that field refuses. */
function refused(field: { safeParse(v: unknown): { success: boolean } }, v: unknown): boolean {
  return v !== undefined && !field.safeParse(v).success;
}
const EXCHANGE_SHAPE = AgentExchangeSchema.shape;

export type SubmitCheck =
  | { ok: true; value: SubmitOptions }
  | { ok: false; issues: Issue[] }
  /** Production's answer to a schema that is not a valid JSON Schema. */
  | { ok: false; invalidSchema: string }
  /**
   * The agent back end refuses it and the gateway answers 500 `Failed to passthrough agent request.` (`requireApproval`
   * outside chat mode).
   */
  | { ok: false; passthrough: true };

export function validateSubmit(body: unknown, wire: Wire = 'spec'): SubmitCheck {
  if (!isPlainObject(body)) {
    return { ok: false, issues: [{ code: 'invalid_type', path: [], message: 'Request body must be a JSON object' }] };
  }
  const issues: Issue[] = [];
  const known = wire === 'production' ? KNOWN_PRODUCTION : KNOWN;
  const unknownKeys = Object.keys(body).filter((k) => !known.has(k));
  if (unknownKeys.length)
    issues.push({
      code: 'unrecognized_keys',
      path: [],
      message: `Unrecognized key(s) in object: ${unknownKeys.map((k) => `'${k}'`).join(', ')}`,
    });

  const { prompt, urls, schema, maxCredits, model, effort, strictConstrainToURLs, origin, integration } = body;
  if (prompt === undefined) issues.push({ code: 'invalid_type', path: ['prompt'], message: 'prompt is required' });
  else if (typeof prompt !== 'string')
    issues.push({ code: 'invalid_type', path: ['prompt'], message: 'prompt must be a string' });
  else if (prompt.trim().length === 0)
    issues.push({ code: 'too_small', path: ['prompt'], message: 'prompt must not be empty' });
  else if (prompt.length > PROMPT_MAX)
    issues.push({
      code: 'too_big',
      path: ['prompt'],
      message: `prompt must be at most ${PROMPT_MAX} characters (got ${prompt.length})`,
    });

  if (urls !== undefined) {
    if (!Array.isArray(urls))
      issues.push({ code: 'invalid_type', path: ['urls'], message: 'urls must be an array of absolute http(s) URLs' });
    else
      urls.forEach((u, i) => {
        if (typeof u !== 'string' || !isHttpUrl(u))
          issues.push({
            code: 'invalid_string',
            path: ['urls', i],
            message: `urls[${i}] must be an absolute http(s) URL`,
          });
      });
  }
  const schemaProblem = wire === 'production' ? jsonSchemaProblem(schema) : undefined;
  if (wire === 'spec' && schema !== undefined && !isPlainObject(schema))
    issues.push({ code: 'invalid_type', path: ['schema'], message: 'schema must be a JSON Schema object' });
  if (refused(SUBMIT_SHAPE.maxCredits, maxCredits)) {
    issues.push({ code: 'too_small', path: ['maxCredits'], message: 'maxCredits must be a positive number' });
  }
  if (model !== undefined && (typeof model !== 'string' || model.length === 0 || model.length > 100)) {
    issues.push({ code: 'invalid_type', path: ['model'], message: 'model must be a string of 1 to 100 characters' });
  }
  if (
    wire === 'production' &&
    typeof model === 'string' &&
    model.length > 0 &&
    !(MODELS as readonly string[]).includes(model)
  ) {
    issues.push({
      code: 'invalid_enum_value',
      path: ['model'],
      message: `Invalid enum value. Expected ${MODELS.map((m) => `'${m}'`).join(' | ')}, received '${model.slice(0, 100)}'`,
    });
  }
  if (refused(SUBMIT_SHAPE.effort, effort)) {
    issues.push({
      code: 'invalid_enum_value',
      path: ['effort'],
      message: `effort must be one of ${EFFORTS.join(', ')}`,
    });
  }
  if (refused(SUBMIT_SHAPE.strictConstrainToURLs, strictConstrainToURLs)) {
    issues.push({
      code: 'invalid_type',
      path: ['strictConstrainToURLs'],
      message: 'strictConstrainToURLs must be a boolean',
    });
  }
  if (refused(SUBMIT_SHAPE.origin, origin))
    issues.push({ code: 'invalid_type', path: ['origin'], message: 'origin must be a string' });
  if (integration !== undefined && typeof integration !== 'string')
    issues.push({ code: 'invalid_type', path: ['integration'], message: 'integration must be a string' });
  else if (
    wire === 'production' &&
    typeof integration === 'string' &&
    !INTEGRATIONS.includes(integration) &&
    !CLIENT_INTEGRATIONS.includes(integration) &&
    !integration.startsWith('_')
  ) {
    issues.push({
      code: 'custom',
      path: ['integration'],
      message: 'Invalid integration: use one of the named integrations or a value starting with "_"',
    });
  }

  const { threadId, mode, exchange, webhook, threatProtection, auditMetadata } = body;
  if (webhook !== undefined) issues.push(...webhookIssues(webhook));
  if (threatProtection !== undefined) issues.push(...threatProtectionIssues(threatProtection));
  if (
    auditMetadata !== undefined &&
    !(isPlainObject(auditMetadata) && typeof auditMetadata.username === 'string' && auditMetadata.username.length > 0)
  ) {
    issues.push({
      code: 'invalid_type',
      path: ['auditMetadata', 'username'],
      message: 'auditMetadata must be an object with a username string',
    });
  }
  if (refused(SUBMIT_SHAPE.threadId, threadId)) {
    issues.push({ code: 'invalid_string', path: ['threadId'], message: 'threadId must be a UUID' });
  }
  if (refused(SUBMIT_SHAPE.mode, mode)) {
    issues.push({
      code: 'invalid_enum_value',
      path: ['mode'],
      message: `Invalid enum value. Expected 'extract' | 'chat', received ${JSON.stringify(mode)?.slice(0, 100)}`,
    });
  }
  if (exchange !== undefined) issues.push(...exchangeIssues(exchange));
  if (
    isPlainObject(exchange) &&
    (exchange.approve !== undefined || exchange.decline !== undefined) &&
    threadId === undefined
  ) {
    issues.push({
      code: 'custom',
      path: ['threadId'],
      message: `exchange.${exchange.approve !== undefined ? 'approve' : 'decline'} answers a turn of a thread: threadId is required with it`,
    });
  }

  if (issues.length) return { ok: false, issues };
  if (schemaProblem !== undefined) return { ok: false, invalidSchema: schemaProblem };
  if (isPlainObject(exchange) && exchange.requireApproval === true && mode !== 'chat')
    return { ok: false, passthrough: true };
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
      ...(threadId !== undefined ? { threadId: (threadId as string).toLowerCase() } : {}),
      ...(mode !== undefined ? { mode: mode as Mode } : {}),
      ...(exchange !== undefined ? { exchange: exchange as Exchange } : {}),
    },
  };
}

/** zod-style issues of an `exchange` object (production's bounds: `maxCalls` 1 to 30). */
function exchangeIssues(x: unknown): Issue[] {
  const out: Issue[] = [];
  const at = (...p: Array<string | number>): Array<string | number> => ['exchange', ...p];
  if (!isPlainObject(x)) return [{ code: 'invalid_type', path: at(), message: 'exchange must be an object' }];
  const extra = Object.keys(x).filter(
    (k) => !['enabled', 'toolkits', 'maxCalls', 'requireApproval', 'onTermsRequired', 'approve', 'decline'].includes(k),
  );
  if (extra.length)
    out.push({
      code: 'unrecognized_keys',
      path: at(),
      message: `Unrecognized key(s) in object: ${extra.map((k) => `'${k}'`).join(', ')}`,
    });
  if (refused(EXCHANGE_SHAPE.enabled, x.enabled))
    out.push({ code: 'invalid_type', path: at('enabled'), message: 'exchange.enabled must be a boolean' });
  if (refused(EXCHANGE_SHAPE.requireApproval, x.requireApproval))
    out.push({
      code: 'invalid_type',
      path: at('requireApproval'),
      message: 'exchange.requireApproval must be a boolean',
    });
  if (
    x.toolkits !== undefined &&
    !(Array.isArray(x.toolkits) && x.toolkits.every((t) => typeof t === 'string' && t.length > 0))
  ) {
    out.push({ code: 'invalid_type', path: at('toolkits'), message: 'exchange.toolkits must be an array of strings' });
  } else if (Array.isArray(x.toolkits) && x.toolkits.length > MAX_TOOLKITS) {
    out.push({
      code: 'too_big',
      path: at('toolkits'),
      message: `exchange.toolkits may hold at most ${MAX_TOOLKITS} names (got ${x.toolkits.length})`,
    });
  }
  if (refused(EXCHANGE_SHAPE.onTermsRequired, x.onTermsRequired)) {
    out.push({
      code: 'invalid_enum_value',
      path: at('onTermsRequired'),
      message: `exchange.onTermsRequired must be 'skip' or 'ask', received ${JSON.stringify(x.onTermsRequired)?.slice(0, 100)}`,
    });
  }
  if (refused(EXCHANGE_SHAPE.maxCalls, x.maxCalls)) {
    out.push({
      code: 'too_big',
      path: at('maxCalls'),
      message: `exchange.maxCalls must be an integer from ${EXCHANGE_MAX_CALLS.min} to ${MAX_EXCHANGE_CALLS}`,
    });
  }
  for (const k of ['approve', 'decline'] as const) {
    const v = x[k];
    if (v === undefined) continue;
    if (!isPlainObject(v) || typeof v.approvalId !== 'string' || v.approvalId.length === 0) {
      out.push({
        code: 'invalid_type',
        path: at(k, 'approvalId'),
        message: `exchange.${k}.approvalId must be a string`,
      });
      continue;
    }
    if (
      k === 'approve' &&
      v.callIds !== undefined &&
      !(Array.isArray(v.callIds) && v.callIds.every((c) => typeof c === 'string'))
    ) {
      out.push({
        code: 'invalid_type',
        path: at(k, 'callIds'),
        message: 'exchange.approve.callIds must be an array of strings',
      });
    }
    if (k === 'approve' && v.always !== undefined && typeof v.always !== 'boolean')
      out.push({ code: 'invalid_type', path: at(k, 'always'), message: 'exchange.approve.always must be a boolean' });
  }
  if (x.approve !== undefined && x.decline !== undefined)
    out.push({ code: 'custom', path: at(), message: 'exchange may hold approve or decline, not both' });
  return out;
}

/** `webhook`: a URL, or `{ url, headers?, metadata?, events? }` with events among started, action, completed, failed, cancelled. */
function webhookIssues(w: unknown): Issue[] {
  if (typeof w === 'string')
    return isHttpUrl(w)
      ? []
      : [
          {
            code: 'invalid_string',
            path: ['webhook'],
            message: 'webhook must be an absolute http(s) URL or an object with url',
          },
        ];
  if (!isPlainObject(w))
    return [
      {
        code: 'invalid_type',
        path: ['webhook'],
        message: 'webhook must be an absolute http(s) URL or an object with url',
      },
    ];
  const out: Issue[] = [];
  const extra = Object.keys(w).filter((k) => !['url', 'headers', 'metadata', 'events'].includes(k));
  if (extra.length)
    out.push({
      code: 'unrecognized_keys',
      path: ['webhook'],
      message: `Unrecognized key(s) in object: ${extra.map((k) => `'${k}'`).join(', ')}`,
    });
  if (typeof w.url !== 'string' || !isHttpUrl(w.url))
    out.push({
      code: 'invalid_string',
      path: ['webhook', 'url'],
      message: 'webhook.url must be an absolute http(s) URL',
    });
  for (const k of ['headers', 'metadata'] as const) {
    const v = w[k];
    if (v !== undefined && !(isPlainObject(v) && Object.values(v).every((x) => typeof x === 'string'))) {
      out.push({ code: 'invalid_type', path: ['webhook', k], message: `webhook.${k} must be an object of strings` });
    }
  }
  if (w.events !== undefined) {
    if (!Array.isArray(w.events))
      out.push({
        code: 'invalid_type',
        path: ['webhook', 'events'],
        message: `webhook.events must be an array of ${WEBHOOK_EVENTS.join(', ')}`,
      });
    else
      w.events.forEach((e, i) => {
        if (!(WEBHOOK_EVENTS as readonly unknown[]).includes(e)) {
          out.push({
            code: 'invalid_enum_value',
            path: ['webhook', 'events', i],
            message: `webhook.events[${i}] must be one of ${WEBHOOK_EVENTS.join(', ')}`,
          });
        }
      });
  }
  return out;
}

/** `threatProtection`: the SDK's `ThreatProtectionOptions` (other keys are left to the service). */
function threatProtectionIssues(t: unknown): Issue[] {
  if (!isPlainObject(t))
    return [{ code: 'invalid_type', path: ['threatProtection'], message: 'threatProtection must be an object' }];
  const out: Issue[] = [];
  if (t.mode !== undefined && !THREAT_MODES.includes(t.mode as string))
    out.push({
      code: 'invalid_enum_value',
      path: ['threatProtection', 'mode'],
      message: `threatProtection.mode must be one of ${THREAT_MODES.join(', ')}`,
    });
  if (
    t.riskScoreThreshold !== undefined &&
    !(
      Number.isInteger(t.riskScoreThreshold) &&
      (t.riskScoreThreshold as number) >= 0 &&
      (t.riskScoreThreshold as number) <= 100
    )
  ) {
    out.push({
      code: 'too_big',
      path: ['threatProtection', 'riskScoreThreshold'],
      message: 'threatProtection.riskScoreThreshold must be an integer from 0 to 100',
    });
  }
  for (const k of ['blacklist', 'whitelist', 'blockedTlds'] as const) {
    const v = t[k];
    if (v !== undefined && !(Array.isArray(v) && v.length <= 1000 && v.every((x) => typeof x === 'string'))) {
      out.push({
        code: 'invalid_type',
        path: ['threatProtection', k],
        message: `threatProtection.${k} must be an array of at most 1000 strings`,
      });
    }
  }
  if (t.failurePolicy !== undefined && t.failurePolicy !== 'open' && t.failurePolicy !== 'closed') {
    out.push({
      code: 'invalid_enum_value',
      path: ['threatProtection', 'failurePolicy'],
      message: "threatProtection.failurePolicy must be 'open' or 'closed'",
    });
  }
  return out;
}
