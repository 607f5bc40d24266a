// The tools an AI agent gets: names, descriptions and input schemas written to teach a model the service's rules,
// one set for the editor's language-model tools (package.json `contributes.languageModelTools` matches them) and
// for `devindex mcp`. No vscode import: the CLI bundles this file.
import { submitToolSchema } from '../api/agent/submitSchema';
import { LIMITS, RESULT_TYPES } from '../api/params';
import {
  DEFAULT_LIST_JOBS,
  DEFAULT_MAX_TOKENS,
  DEFAULT_WAIT_SECONDS,
  MAX_LIST_JOBS,
  MAX_MAX_TOKENS,
  MAX_WAIT_SECONDS,
  MIN_MAX_TOKENS,
  MIN_WAIT_SECONDS,
} from './toolInputs';
import { HANDLE_PATTERN, MORE_TTL_MS } from './moreCache';
import { TOOL_NAMES, type ToolName } from './names';

/** MCP tool annotations (specification 2025-06-18): hints a client shows and uses to ask for consent. */
interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

interface ToolDefinition {
  name: ToolName;
  /** Short human title (editor: displayName). */
  title: string;
  /** What the model reads (editor: modelDescription). */
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
  /** Starting it spends credits on the user's account. */
  spendsCredits: boolean;
}

const SEARCH_PROPERTIES: Record<string, unknown> = {
  query: { type: 'string', minLength: 1, description: "Question or phrase, in a maintainer's words" },
  k: { type: 'integer', minimum: LIMITS.k.min, maximum: LIMITS.k.max, description: 'Default 10.' },
  passages: {
    type: 'integer',
    minimum: LIMITS.passages.min,
    maximum: LIMITS.passages.max,
    description: 'Per result (default 1).',
  },
  maxTokens: {
    type: 'integer',
    minimum: MIN_MAX_TOKENS,
    maximum: MAX_MAX_TOKENS,
    description: `Default ${DEFAULT_MAX_TOKENS}.`,
  },
  // Answers the model still holds; toolOps checks the handles and their number.
  have: {
    type: 'array',
    items: { type: 'string' },
    description: 'Handles of answers you hold; their passages are not resent',
  },
  types: { type: 'array', items: { enum: [...RESULT_TYPES] } },
  repos: { type: 'array', items: { type: 'string' }, description: 'owner/repo' },
  sources: {
    type: 'array',
    maxItems: LIMITS.sources.maxItems,
    items: { type: 'string' },
    description: 'Doc source ids',
  },
  skills: { enum: ['only'], description: 'Only agent-skill files.' },
  // Repository filters: the search description says what they do to documentation.
  language: { type: 'string' },
  topic: { type: ['string', 'array'], items: { type: 'string' }, maxItems: LIMITS.topics.maxItems },
  license: { type: 'string' },
  // Their bound (0 and up) is checked with a message that names it (api/params.ts).
  min_stars: { type: 'integer' },
  max_stars: { type: 'integer' },
  archived: { type: 'boolean' },
  fork: { type: 'boolean' },
};

const SCOPE_PROPERTY = { enum: ['workspace'], description: "Add the open workspace's GitHub repositories to repos." };

// ---- `dependency` (and, for MCP, `folder`) on devIndex_search ----
// Short on purpose: the tool list is kept under the service's own (bench/tokens.bench.ts); the bound of 214
// characters and the absolute path are checked by toolOps with messages that name them.
const DEPENDENCY_PROPERTY = { type: 'string', description: 'Package: compares fixes with your installed version' };
const FOLDER_PROPERTY = { type: 'string', description: 'Project dir (default: cwd)' };

const SEARCH_DESCRIPTION = [
  'Docs, GitHub issues, PRs and READMEs in one ranked search; cite id, URL, passage.',
  '`repos` scopes only issues/PRs/READMEs, `sources` only docs; both: a union.',
  'Repo filters (language, topic, license, stars, archived, fork) without `sources` return NO docs.',
  'Ends `answer: <handle>`, or `more: <handle>` if cut (devIndex_readMore).',
].join(' ');

function searchDefinition(withScope: boolean): ToolDefinition {
  const properties = withScope
    ? { query: SEARCH_PROPERTIES.query, scope: SCOPE_PROPERTY, dependency: DEPENDENCY_PROPERTY, ...SEARCH_PROPERTIES }
    : {
        query: SEARCH_PROPERTIES.query,
        dependency: DEPENDENCY_PROPERTY,
        folder: FOLDER_PROPERTY,
        ...SEARCH_PROPERTIES,
      };
  return {
    name: TOOL_NAMES.search,
    title: 'Search the developer index',
    description: SEARCH_DESCRIPTION,
    inputSchema: { type: 'object', properties, required: ['query'], additionalProperties: false },
    annotations: {
      title: 'Search the developer index',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
    spendsCredits: false,
  };
}

const READ_MORE: ToolDefinition = {
  name: TOOL_NAMES.readMore,
  title: 'Read the rest of a search answer',
  description:
    `What a cut devIndex_search answer left out, from memory (no new search), in rank order; ` +
    `\`result: N\` for the rest of result [N] only, with the passages it named as sent before. ` +
    `Handles last ${MORE_TTL_MS / 60_000} minutes.`,
  inputSchema: {
    type: 'object',
    properties: {
      handle: { type: 'string', pattern: HANDLE_PATTERN.source, description: 'The text after `more:` or `answer:`.' },
      result: { type: 'integer', minimum: 1, maximum: LIMITS.k.max },
      passages: {
        type: 'integer',
        minimum: LIMITS.passages.min,
        maximum: LIMITS.passages.max,
        description: 'At most this many passages per result.',
      },
    },
    required: ['handle'],
    additionalProperties: false,
  },
  annotations: {
    title: 'Read the rest of a search answer',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  spendsCredits: false,
};

const JOB_ID = { type: 'string' };

const START: ToolDefinition = {
  name: TOOL_NAMES.startAgentJob,
  title: 'Start an agent job (spends credits)',
  description:
    'Web agent that browses and reports back. SPENDS CREDITS up to `maxCredits` (failed runs ' +
    'free). Returns a job id for devIndex_waitForAgentJob. Docs, issues: devIndex_search.',
  // The submission's own schema (src/api/agent/submitSchema.ts): its fields for a model, its bounds and words.
  // Paid calls are one property in the SDK's shape (AgentExchangeOptions), which keeps the tool list short;
  // the client checks each field and bound with a message that names it, as for maxCredits.
  inputSchema: submitToolSchema(),
  annotations: {
    title: 'Start an agent job (spends credits)',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  spendsCredits: true,
};

const STATUS: ToolDefinition = {
  name: TOOL_NAMES.agentJobStatus,
  title: 'Agent job status',
  description: 'Status: answer or data, failure, credits, progress, snapshots.',
  inputSchema: { type: 'object', properties: { jobId: JOB_ID }, required: ['jobId'], additionalProperties: false },
  annotations: {
    title: 'Agent job status',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  spendsCredits: false,
};

const WAIT: ToolDefinition = {
  name: TOOL_NAMES.waitForAgentJob,
  title: 'Wait for an agent job',
  description:
    "Wait until an agent job ends or waits for the user's approval, reporting progress; " +
    'returns its answer or data, or "still running" at the timeout. ' +
    'Cancelling the wait does not stop the job.',
  inputSchema: {
    type: 'object',
    properties: {
      jobId: JOB_ID,
      timeoutSeconds: {
        type: 'integer',
        minimum: MIN_WAIT_SECONDS,
        maximum: MAX_WAIT_SECONDS,
        description: `Default ${DEFAULT_WAIT_SECONDS}.`,
      },
      maxTokens: { type: 'integer', minimum: MIN_MAX_TOKENS, maximum: MAX_MAX_TOKENS },
    },
    required: ['jobId'],
    additionalProperties: false,
  },
  annotations: {
    title: 'Wait for an agent job',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  spendsCredits: false,
};

const LIST: ToolDefinition = {
  name: TOOL_NAMES.listAgentJobs,
  title: 'List recent agent jobs',
  description: 'Recent agent jobs, newest first: id, status, when, prompt.',
  inputSchema: {
    type: 'object',
    properties: {
      limit: { type: 'integer', minimum: 1, maximum: MAX_LIST_JOBS, description: `Default ${DEFAULT_LIST_JOBS}.` },
    },
    additionalProperties: false,
  },
  annotations: {
    title: 'List recent agent jobs',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  spendsCredits: false,
};

const CANCEL: ToolDefinition = {
  name: TOOL_NAMES.cancelAgentJob,
  title: 'Cancel an agent job',
  description:
    'Cancel a running agent job; its work so far is discarded and the credits spent before the cancel may be charged.',
  inputSchema: { type: 'object', properties: { jobId: JOB_ID }, required: ['jobId'], additionalProperties: false },
  annotations: {
    title: 'Cancel an agent job',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: true,
  },
  spendsCredits: false,
};

const SNAPSHOT: ToolDefinition = {
  name: TOOL_NAMES.readSnapshot,
  title: 'Read an agent job snapshot',
  description: "Read a snapshot of an agent job's artifact (ids listed by devIndex_agentJobStatus).",
  inputSchema: {
    type: 'object',
    properties: { jobId: JOB_ID, snapshotId: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' } },
    required: ['jobId', 'snapshotId'],
    additionalProperties: false,
  },
  annotations: {
    title: 'Read an agent job snapshot',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  spendsCredits: false,
};

const ANSWER: ToolDefinition = {
  name: TOOL_NAMES.answerApproval,
  title: "Answer an agent job's approval",
  description:
    'Approve or decline the paid calls a waiting agent job asks for, ' +
    'only as the user decided. Never accepts data terms: only the user can.',
  inputSchema: {
    type: 'object',
    properties: {
      jobId: JOB_ID,
      decision: { enum: ['approve', 'decline'] },
      callIds: { type: 'array', items: { type: 'string' }, description: 'Only these calls' },
      always: { type: 'boolean' },
    },
    required: ['jobId', 'decision'],
    additionalProperties: false,
  },
  annotations: {
    title: "Answer an agent job's approval",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  spendsCredits: true,
};

function fixesDefinition(withFolder: boolean): ToolDefinition {
  const properties: Record<string, unknown> = {
    dependencies: { type: 'array', items: { type: 'string' }, maxItems: 50, description: 'Only these packages' },
    ...(withFolder ? { folder: FOLDER_PROPERTY } : {}),
    maxTokens: { type: 'integer', minimum: MIN_MAX_TOKENS, maximum: MAX_MAX_TOKENS },
  };
  return {
    name: TOOL_NAMES.fixes,
    title: 'Fixes your dependencies lack',
    description:
      "Per dependency of the project: fixes stated in its repository's issues/PRs for versions " +
      'newer than the installed one, and open bugs affecting it. One search per dependency, cached a day.',
    inputSchema: { type: 'object', properties, additionalProperties: false },
    annotations: {
      title: 'Fixes your dependencies lack',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
    spendsCredits: false,
  };
}

/**
 * The tools of a surface, in the same order on both: the MCP server (`terminal`) adds reading a snapshot and has no
 * workspace scope; the editor's (package.json `contributes.languageModelTools`) are in EDITOR_TOOL_NAMES order.
 */
function toolsFor(terminal: boolean): readonly ToolDefinition[] {
  const snapshot = terminal ? [SNAPSHOT] : [];
  return [
    searchDefinition(!terminal),
    READ_MORE,
    START,
    STATUS,
    WAIT,
    LIST,
    CANCEL,
    ...snapshot,
    ANSWER,
    fixesDefinition(terminal),
  ];
}

export const EDITOR_TOOLS = toolsFor(false);
export const MCP_TOOLS = toolsFor(true);

/**
 * A tool as MCP tools/list sends it, short: the annotations without the repeated title and without
 * the hints the specification already defaults to for that kind of tool; the cost in _meta only
 * where there is one.
 */
export function listedTool(t: ToolDefinition): {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: Record<string, boolean>;
  _meta?: Record<string, unknown>;
} {
  const a = t.annotations;
  const annotations: Record<string, boolean> = { readOnlyHint: a.readOnlyHint };
  if (!a.readOnlyHint && !a.destructiveHint) annotations.destructiveHint = false;
  if (!a.readOnlyHint && a.idempotentHint) annotations.idempotentHint = true;
  if (!a.openWorldHint) annotations.openWorldHint = false;
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema,
    annotations,
    ...(t.spendsCredits ? { _meta: { 'devindex/spendsCredits': true } } : {}),
  };
}
