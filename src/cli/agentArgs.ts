// `devindex agent`'s arguments: the usage text, each subcommand's options, and `agent start`'s flags, one table (flag,
// field, how the value is read) from which the parser's options and the submission are built. The fields' checks and
// bounds are the submission schema's (src/api/agent/submitSchema.ts): the client runs them before sending.
import { readFileSync } from 'node:fs';
import type { AgentSchemaParam, AgentSubmitParams, PAID_CALL_SETTINGS } from '../api/agent/submitSchema';
import {
  AGENT_EFFORTS,
  AGENT_MODELS,
  AGENT_MODES,
  AGENT_ON_TERMS,
  EXCHANGE_MAX_CALLS,
  EXCHANGE_MAX_TOOLKITS,
} from '../api/agent/agentConstants';
import { numberFlag, parseCliArgs, splitList, type CliOptions } from './common';
import { UsageError } from './cliBase';

type Exchange = NonNullable<AgentSubmitParams['exchange']>;
type Read = 'text' | 'list' | 'number' | 'on' | 'schemaFile';

/** A submission field, or (`exchange.…`) one of the paid-call settings. */
type FlagField =
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
const SUBMIT_FLAG_OPTIONS: CliOptions = Object.fromEntries(
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
function startParamsOf(prompt: string, values: Record<string, unknown>): AgentSubmitParams {
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

export const AGENT_USAGE = `Usage: devindex agent <subcommand> [options]

Subcommands:
  start "<prompt>" [options]     submit an agent job (prints its id)
    --urls LIST                  comma-separated absolute http(s) URLs to start from
    --schema FILE                JSON Schema (a JSON object, true, false or null) for the shape of the result
    --max-credits N              credit ceiling, a positive number (service default 2500)
    --model M                    ${AGENT_MODELS.join(', ')} (service default ${AGENT_MODELS[0]}; the others are
                                 retired names that run on it); more names via DEVINDEX_AGENT_MODELS
    --effort ${AGENT_EFFORTS.join('|')}
    --strict-urls                stay on the given URLs (strictConstrainToURLs)
    --mode ${AGENT_MODES.join('|')}          chat: an answer in words; extract: data (JSON); left out, the
                                 service's default
    --thread ID                  ask a follow-up in that thread (ids come from agent status)
    --continue                   ask a follow-up in the last thread this CLI started on this service
    --toolkits LIST              paid tool calls: the toolkits the run may call (comma-separated, at
                                 most ${EXCHANGE_MAX_TOOLKITS}); any of these four turns paid calls on
    --max-calls N                paid tool calls: at most N (${EXCHANGE_MAX_CALLS.min} to ${EXCHANGE_MAX_CALLS.max})
    --require-approval           paid tool calls: ask before each (needs --mode chat)
    --on-terms ${AGENT_ON_TERMS.join('|')}           a provider whose data terms are not accepted: skip it (the
                                 service's default) or ask you to accept them
    --approve APPROVAL_ID        with --thread or --continue: approve what a waiting run asks for (no
                                 prompt needed); --decline APPROVAL_ID declines it
    --calls ID,ID                with --approve: only these calls (ids from agent status)
    --always                     with --approve: allow these calls in the thread's later turns too
    --accept-terms               with --approve on a terms approval: you have read the terms and agree
                                 to them (they are accepted for your team, then the run goes on)
    --wait                       follow the run, printing events as they arrive (stops, exit 1, when
                                 the run waits for an approval)
  status <jobId> [--partial]     the job record (status, credits, thread, answer, suggestions, what a
                                 waiting run asks for, result); --partial prints only the partial
                                 result of a run stopped by its credit ceiling
  thread <threadId>              the thread's turns, in order
  cancel <jobId>                 ask a running job to stop
  trace <jobId> [--live-view]    the trace, grouped per agent
  snapshot <jobId> <snapshotId>  an artifact snapshot (ids come from artifact.updated events)
  list [--before MS]             your jobs, newest first, 20 a page

Common options:
  --base-url URL   service address (else DEVINDEX_BASE_URL, else https://api.firecrawl.dev)
  --json           machine-readable output (with --wait: one JSON event per line, then the job record)
  -h, --help       show this help

A submission is never sent twice: after a timeout, a gateway error or Ctrl+C once it was sent, the
job may exist, so look for it with "devindex agent list" before starting it again. Jobs expire on
the service about 24 hours after they end (then every command answers "not found").

Environment: DEVINDEX_API_KEY (required for agent jobs), DEVINDEX_BASE_URL,
DEVINDEX_AGENT_MODELS (comma-separated model names newer than this build), DEVINDEX_STATE_DIR (where
the last thread is remembered; default the user's state folder: %LOCALAPPDATA%\\devindex on Windows,
~/Library/Application Support/devindex on macOS, $XDG_STATE_HOME or ~/.local/state/devindex elsewhere;
a DEVINDEX_CONFIG_DIR holds it too when DEVINDEX_STATE_DIR is unset).
Exit codes: 0 success (with --wait: the run completed), 1 service or network error (with --wait:
the run failed, was cancelled or did not finish in time), 2 invalid input (nothing is sent).
`;

const COMMON: CliOptions = {
  'base-url': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};
const START: CliOptions = {
  ...COMMON,
  ...SUBMIT_FLAG_OPTIONS,
  wait: { type: 'boolean' },
  continue: { type: 'boolean' },
  approve: { type: 'string' },
  decline: { type: 'string' },
  calls: { type: 'string' },
  always: { type: 'boolean' },
  'accept-terms': { type: 'boolean' },
};
const SUBCOMMANDS: Record<string, { options: CliOptions; positionals: string[] }> = {
  start: { options: START, positionals: ['prompt'] },
  status: { options: { ...COMMON, partial: { type: 'boolean' } }, positionals: ['jobId'] },
  cancel: { options: COMMON, positionals: ['jobId'] },
  trace: { options: { ...COMMON, 'live-view': { type: 'boolean' } }, positionals: ['jobId'] },
  snapshot: { options: COMMON, positionals: ['jobId', 'snapshotId'] },
  list: { options: { ...COMMON, before: { type: 'string' } }, positionals: [] },
  thread: { options: COMMON, positionals: ['threadId'] },
};

export interface Parsed {
  sub: string;
  values: Record<string, unknown>;
  args: string[];
  json: boolean;
  baseUrl?: string;
}

export function parseAgentArgs(argv: string[]): Parsed | 'help' {
  const [sub, ...rest] = argv;
  if (sub === undefined)
    throw new UsageError(
      `agent needs a subcommand: start, status, cancel, trace, snapshot, list or thread (see devindex agent --help)`,
    );
  if (sub === '-h' || sub === '--help' || sub === 'help') return 'help';
  const spec = SUBCOMMANDS[sub];
  if (!spec)
    throw new UsageError(
      `unknown agent subcommand ${JSON.stringify(sub)}; use start, status, cancel, trace, snapshot, list or thread`,
    );
  const { values, positionals } = parseCliArgs(rest, spec.options);
  if (values.help) return 'help';
  let args = positionals;
  if (sub === 'start') {
    const answering = values.approve !== undefined || values.decline !== undefined;
    if (values.approve !== undefined && values.decline !== undefined)
      throw new UsageError('--approve and --decline cannot be used together');
    if (values.thread !== undefined && values.continue)
      throw new UsageError('--thread and --continue cannot be used together: --continue means the last thread');
    if (answering && values.thread === undefined && !values.continue)
      throw new UsageError(
        '--approve and --decline answer a waiting run in its thread: add --thread ID (or --continue)',
      );
    for (const f of ['calls', 'always', 'accept-terms'] as const) {
      if (values[f] !== undefined && values.approve === undefined)
        throw new UsageError(`--${f} goes with --approve APPROVAL_ID`);
    }
    if (positionals.length === 0 && !answering)
      throw new UsageError('agent start needs a prompt: devindex agent start "<prompt>"');
    args = positionals.length ? [positionals.join(' ')] : [];
  } else if (positionals.length !== spec.positionals.length) {
    const want = spec.positionals.map((p) => `<${p}>`).join(' ');
    throw new UsageError(
      `agent ${sub} takes ${want || 'no arguments'}; got ${positionals.length} argument${positionals.length === 1 ? '' : 's'}`,
    );
  }
  return { sub, values, args, json: values.json === true, baseUrl: values['base-url'] as string | undefined };
}

/** The submission of `agent start`'s prompt and flags. */
export function submitParamsFrom(p: Parsed): AgentSubmitParams {
  return startParamsOf(p.args[0] ?? '', p.values);
}
