// An agent submission, declared once: the zod schema is the type every surface builds (AgentSubmitParams), the one
// check a start goes through (validateAgentSubmit: by the tools where a model's input enters, else by AgentClient.submit),
// the palette steps' field checks and the tools' JSON input schema. Each message names the field and the bound.
import * as z from 'zod';
import {
  AGENT_EFFORTS,
  AGENT_MODELS,
  AGENT_MODES,
  AGENT_ON_TERMS,
  DEFAULT_AGENT_MODEL,
  EXCHANGE_MAX_CALLS,
  EXCHANGE_MAX_TOOLKITS,
  isValidIntegration,
  NAMED_INTEGRATIONS,
  PROMPT_MAX_LENGTH,
  RETIRED_AGENT_MODELS,
  UUID_RE,
} from './agentConstants';
import type { ParamIssue } from '../params';
import { grouped } from '../../words/duration';

/** A snapshot's or an approval's id: one safe path segment, letters, digits, `_` and `-`, 1 to 128 characters. */
export const SNAPSHOT_ID_RE = /^[A-Za-z0-9_-]{1,128}$/;
/** A toolkit's name in `exchange.toolkits`. */
const TOOLKIT_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A value as a message quotes it, at most 60 characters. */
export function short(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

export function isHttpUrl(s: string): boolean {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return false;
  }
  return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
}

/** A check's message, from the value it refused (and where it is, for a list's item). */
function says(message: (input: unknown, path: ReadonlyArray<PropertyKey>) => string) {
  return { error: (iss: { input?: unknown; path?: PropertyKey[] }) => message(iss.input, iss.path ?? []) };
}

/** The models this build knows, in words for a model: the default, then the retired names (they still run). */
const RETIRED_MODELS = AGENT_MODELS.filter((m) => RETIRED_AGENT_MODELS.has(m));
const MODEL_WORDS =
  `Default ${DEFAULT_AGENT_MODEL}` + (RETIRED_MODELS.length ? `; retired: ${RETIRED_MODELS.join(', ')}` : '');

function answerSchema(k: 'approve' | 'decline') {
  return z.object(
    {
      approvalId: z.string(says((v) => approvalWords(k, v))).regex(
        SNAPSHOT_ID_RE,
        says((v) => approvalWords(k, v)),
      ),
      callIds: z
        .array(
          z.string(says(() => callIdsWords(k))).min(
            1,
            says(() => callIdsWords(k)),
          ),
          says(() => callIdsWords(k)),
        )
        .optional(),
      always: z.boolean(says((v) => `exchange.${k}.always must be true or false; got ${short(v)}`)).optional(),
    },
    says(() => approvalWords(k, undefined)),
  );
}

function approvalWords(k: string, v: unknown): string {
  return `exchange.${k}.approvalId must be the approval's id (as the run's pendingApproval gives it); got ${short(v)}`;
}
const callIdsWords = (k: string) => `exchange.${k}.callIds must be a list of call ids`;

const toolkitsWords =
  'exchange.toolkits must be a list of toolkit names (letters, digits, ".", "_" or "-", for example github)';
const bool = (field: string) => z.boolean(says((v) => `${field} must be true or false; got ${short(v)}`));

/** The exchange settings that turn paid calls on (`enabled: true` is sent with any of them). */
export const PAID_CALL_SETTINGS = ['toolkits', 'maxCalls', 'requireApproval', 'onTermsRequired'] as const;

/**
 * Paid tool calls through the service's exchange (SDK `AgentExchangeOptions`), and the caller's answer
 * to a pending approval. Any of PAID_CALL_SETTINGS turns paid calls on: `enabled: true` is sent with them.
 */
export const AgentExchangeSchema = z.object(
  {
    enabled: bool('exchange.enabled').optional(),
    toolkits: z
      .array(
        z.string(says(() => toolkitsWords)).regex(
          TOOLKIT_RE,
          says(() => toolkitsWords),
        ),
        says(() => toolkitsWords),
      )
      .max(
        EXCHANGE_MAX_TOOLKITS,
        says(
          (v) => `exchange.toolkits names at most ${EXCHANGE_MAX_TOOLKITS} toolkits; got ${(v as unknown[]).length}`,
        ),
      )
      .optional(),
    maxCalls: z
      .number(says((v) => maxCallsWords(v)))
      .int(says((v) => maxCallsWords(v)))
      .min(
        EXCHANGE_MAX_CALLS.min,
        says((v) => maxCallsWords(v)),
      )
      .max(
        EXCHANGE_MAX_CALLS.max,
        says((v) => maxCallsWords(v)),
      )
      .optional(),
    /** Ask before each paid call; needs `mode: "chat"` on the same request. */
    requireApproval: bool('exchange.requireApproval').optional(),
    /** A provider whose terms the team has not accepted: skip it (the service's default) or ask. */
    onTermsRequired: z
      .enum(
        AGENT_ON_TERMS,
        says((v) => `exchange.onTermsRequired must be one of ${AGENT_ON_TERMS.join(', ')}; got ${short(v)}`),
      )
      .optional(),
    approve: answerSchema('approve').optional(),
    decline: answerSchema('decline').optional(),
  },
  says((v) => `exchange must be an object; got ${short(v)}`),
);

function maxCallsWords(v: unknown): string {
  return `exchange.maxCalls must be a whole number from ${EXCHANGE_MAX_CALLS.min} to ${EXCHANGE_MAX_CALLS.max}; got ${short(v)}`;
}

export interface SubmitRules {
  /** Model names accepted beyond AGENT_MODELS (a setting or environment variable, for models newer than this build). */
  extraModels?: readonly string[];
}

/** The submission's fields, each with its checks; `known` are the model names accepted. */
function submitObject(known: readonly string[]) {
  return z.object({
    prompt: z
      .string(says(() => 'prompt is required and must be a string'))
      .min(
        1,
        says(() => 'prompt must not be empty'),
      )
      .refine(
        (s) => s.trim().length > 0,
        says(() => 'prompt must not be empty'),
      )
      .max(
        PROMPT_MAX_LENGTH,
        says((v) => `prompt is ${(v as string).length} characters; the maximum is ${grouped(PROMPT_MAX_LENGTH)}`),
      ),
    urls: z
      .array(
        z.string(says((v, p) => urlWords(v, p))).refine(
          isHttpUrl,
          says((v, p) => urlWords(v, p)),
        ),
        says(() => 'urls must be a list of absolute http(s) URLs'),
      )
      .optional(),
    /** A JSON Schema (an object), `true` / `false`, or `null` (no schema). */
    schema: z
      .union(
        [z.record(z.string(), z.unknown()), z.boolean(), z.null()],
        says(
          (v) =>
            `schema must be a JSON Schema (a JSON object such as {"type":"object"}), true, ` +
            `false or null; got ${Array.isArray(v) ? 'an array' : short(v)}`,
        ),
      )
      .meta({ description: 'Result JSON Schema', toolShown: { type: 'object' } })
      .optional(),
    maxCredits: z
      .number(says((v) => `maxCredits must be a number greater than 0; got ${short(v)}`))
      .positive(says((v) => `maxCredits must be a number greater than 0; got ${short(v)}`))
      .meta({ toolShown: { type: 'integer' } })
      .optional(),
    model: z
      .string(says((v) => `model must be a non-empty string; got ${short(v)}`))
      .refine(
        (s) => s.trim().length > 0,
        says((v) => `model must be a non-empty string; got ${short(v)}`),
      )
      .refine(
        (s) => s.trim().length === 0 || known.includes(s),
        says(
          (v) =>
            `model ${short(v)} is not one the service accepts (${known.join(', ')}); ` +
            `a newer model can be allowed in the settings (devIndex.agent.extraModels, ` +
            `or DEVINDEX_AGENT_MODELS for the CLI)`,
        ),
      )
      .describe(MODEL_WORDS)
      .optional(),
    effort: z
      .enum(
        AGENT_EFFORTS,
        says((v) => `effort must be one of ${AGENT_EFFORTS.join(', ')}; got ${short(v)}`),
      )
      .optional(),
    strictConstrainToURLs: bool('strictConstrainToURLs').optional(),
    origin: z.string(says((v) => `origin must be a string; got ${short(v)}`)).optional(),
    integration: z
      .string(says((v) => integrationWords(v)))
      .refine(
        isValidIntegration,
        says((v) => integrationWords(v)),
      )
      .optional(),
    /** A follow-up turn in this thread (its id, a UUID). */
    threadId: z
      .string(says((v) => threadWords(v)))
      .refine(
        (s) => UUID_RE.test(s),
        says((v) => threadWords(v)),
      )
      .optional(),
    /** `chat`: an answer in words; `extract`: data. Left out, the service's default applies. */
    mode: z
      .enum(
        AGENT_MODES,
        says((v) => `mode must be one of ${AGENT_MODES.join(', ')}; got ${short(v)}`),
      )
      .describe('chat: words; extract: data')
      .optional(),
    exchange: AgentExchangeSchema.meta({
      description: `Paid calls: ${PAID_CALL_SETTINGS.join(', ')}`,
      toolShown: { type: 'object' },
    }).optional(),
  });
}

/** The submission's schema; `rules.extraModels` widens the models it accepts. */
function agentSubmitSchema(rules: SubmitRules = {}) {
  return (
    submitObject([...AGENT_MODELS, ...(rules.extraModels ?? [])])
      // Across fields; checked even when a field failed, as each check says something of its own.
      .refine((p) => !(exchangeOf(p)?.requireApproval === true && p.mode !== 'chat'), {
        path: ['exchange', 'requireApproval'],
        when: () => true,
        // The service's gateway turns the back end's refusal into a bare 500, so this is checked here.
        error:
          'exchange.requireApproval needs mode "chat" on the same request ' +
          '(approvals are asked for in a chat); add mode chat or leave requireApproval out',
      })
      .refine((p) => !(exchangeOf(p)?.approve !== undefined && p.threadId === undefined), {
        path: ['threadId'],
        when: () => true,
        error: answerWords('approve'),
      })
      .refine((p) => !(exchangeOf(p)?.decline !== undefined && p.threadId === undefined), {
        path: ['threadId'],
        when: () => true,
        error: answerWords('decline'),
      })
      .refine((p) => !(exchangeOf(p)?.approve !== undefined && exchangeOf(p)?.decline !== undefined), {
        path: ['exchange'],
        when: () => true,
        error: 'exchange cannot both approve and decline',
      })
  );
}

function exchangeOf(p: unknown): Record<string, unknown> | undefined {
  const x = p !== null && typeof p === 'object' ? (p as { exchange?: unknown }).exchange : undefined;
  return x !== null && typeof x === 'object' ? (x as Record<string, unknown>) : undefined;
}
function answerWords(k: 'approve' | 'decline'): string {
  return `exchange.${k} answers a run's approval in its thread, so threadId is required`;
}

function urlWords(v: unknown, path: ReadonlyArray<PropertyKey>): string {
  return `urls[${String(path[path.length - 1])}] ${short(v)} is not an absolute http(s) URL (for example https://example.com/page)`;
}
function integrationWords(v: unknown): string {
  return (
    `integration ${short(v)} is not one of the service's integrations ` +
    `(${[...NAMED_INTEGRATIONS].join(', ')}) and does not start with "_"`
  );
}
function threadWords(v: unknown): string {
  return `threadId ${short(v)} is not a thread id (a UUID, as printed by devindex agent status)`;
}

export type AgentSubmitParams = z.input<ReturnType<typeof agentSubmitSchema>>;
export type AgentExchange = z.input<typeof AgentExchangeSchema>;
/** A JSON Schema (an object), `true` / `false`, or `null` (no schema). */
export type AgentSchemaParam = NonNullable<AgentSubmitParams['schema']> | null;
const SUBMIT_OBJECT = submitObject(AGENT_MODELS);
/** Each field's schema, for a check of one field (the sandbox's, where its bounds are the service's). */
export const SUBMIT_SHAPE = SUBMIT_OBJECT.shape;
/** The submission's fields, in the order they are checked and sent. */
export const SUBMIT_FIELDS = Object.keys(SUBMIT_OBJECT.shape) as Array<keyof AgentSubmitParams>;

/** The fields a language model may set when it starts a job (the tools); the others are the client's own. */
export const TOOL_SUBMIT_FIELDS = [
  'prompt',
  'urls',
  'maxCredits',
  'model',
  'effort',
  'schema',
  'mode',
  'threadId',
  'exchange',
] as const satisfies ReadonlyArray<keyof AgentSubmitParams>;
/** What a start's `exchange` may set: paid calls on. Approvals are answered on their own (devIndex_answerApproval). */
export const TOOL_EXCHANGE_FIELDS = ['enabled', ...PAID_CALL_SETTINGS] as const;
export type ToolSubmitParams = Pick<AgentSubmitParams, (typeof TOOL_SUBMIT_FIELDS)[number]>;

/**
 * The start tools' JSON input schema, from the schema above: its fields for a model, short (no `$schema`;
 * an enum without the `type` it implies; a field marked `toolShown` as that, with its description).
 */
export function submitToolSchema(): Record<string, unknown> {
  const mask = Object.fromEntries(TOOL_SUBMIT_FIELDS.map((k) => [k, true as const])) as {
    [K in (typeof TOOL_SUBMIT_FIELDS)[number]]: true;
  };
  const json = shortened(z.toJSONSchema(SUBMIT_OBJECT.pick(mask))) as { properties: Record<string, unknown> };
  // In TOOL_SUBMIT_FIELDS' order, the order a model reads them in.
  return { ...json, properties: Object.fromEntries(TOOL_SUBMIT_FIELDS.map((k) => [k, json.properties[k]])) };
}

function shortened(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(shortened);
  if (node === null || typeof node !== 'object') return node;
  const { $schema: _schema, toolShown, ...rest } = node as Record<string, unknown>;
  if (toolShown !== undefined)
    return { ...(toolShown as object), ...(rest.description !== undefined ? { description: rest.description } : {}) };
  if (rest.enum !== undefined) delete rest.type;
  return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, shortened(v)]));
}

/** The issues of a failed check, one per field and message; a list item's issue is its list's field. */
function paramIssues(error: z.ZodError): ParamIssue[] {
  const out: ParamIssue[] = [];
  for (const i of error.issues) {
    const field = i.path.filter((k) => typeof k === 'string').join('.');
    if (!out.some((o) => o.field === field && o.message === i.message)) out.push({ field, message: i.message });
  }
  return out;
}

/** The bodies validateAgentSubmit returned: checked once, so AgentClient.submit sends them as they are. */
const checkedBodies = new WeakSet<object>();

/** Whether this is a body validateAgentSubmit returned (the one check a start goes through). */
export function isCheckedSubmit(p: unknown): p is AgentSubmitParams {
  return typeof p === 'object' && p !== null && checkedBodies.has(p);
}

/**
 * Checks a submission against the documented bounds; every message names the field and the bound. The body is
 * frozen and remembered: handed on (a tool's start through the editor's command, the store, the client), it is not
 * checked again.
 */
export function validateAgentSubmit(
  p: AgentSubmitParams,
  rules: SubmitRules = {},
): { ok: true; body: AgentSubmitParams } | { ok: false; issues: ParamIssue[] } {
  const checked = agentSubmitSchema(rules).safeParse(p);
  if (!checked.success) return { ok: false, issues: paramIssues(checked.error) };
  // The body is the caller's own values (never zod's copies), in the schema's order, so it is sent as given.
  const body = inSchemaOrder(p as unknown as Record<string, unknown>);
  const x = body.exchange as AgentExchange | undefined;
  if (x && x.enabled === undefined && PAID_CALL_SETTINGS.some((k) => x[k] !== undefined))
    body.exchange = { enabled: true, ...x };
  checkedBodies.add(Object.freeze(body));
  return { ok: true, body: body as unknown as AgentSubmitParams };
}

/** The submission's fields that are set, in the order they are checked and sent. */
export function inSchemaOrder(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const k of SUBMIT_FIELDS) if (input[k] !== undefined) body[k] = input[k];
  return body;
}

/** One field's check on its own (the start flow's steps, as the user types): the schema's message, or undefined. */
export function fieldIssue(field: keyof typeof SUBMIT_SHAPE, value: unknown): string | undefined {
  const r = SUBMIT_SHAPE[field].safeParse(value);
  return r.success ? undefined : r.error.issues[0]?.message;
}
