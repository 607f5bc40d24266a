// The tools an AI agent gets: names, descriptions and input schemas written to teach a model the
// service's rules. One set of definitions for the editor's language-model tools (package.json
// `contributes.languageModelTools` must match them: test/unit/tools/definitions.test.ts checks it)
// and for `devindex mcp`. No vscode import: the CLI bundles this file.
import { AGENT_MODELS, DEFAULT_AGENT_MODEL, RETIRED_AGENT_MODELS } from '../api/agentConstants';
import { LIMITS, RESULT_TYPES } from '../api/params';
import { AGENT_EFFORTS_LIST, PROMPT_LIMIT } from './limits';
import { TOOL_NAMES, type ToolName } from './names';

export { TOOL_NAMES, type ToolName };

/** MCP tool annotations (specification 2025-06-18): hints a client shows and uses to ask for consent. */
export interface ToolAnnotations {
  title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean;
}

export interface ToolDefinition {
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

const REPO_FILTER_WARNING = 'Repository filter. Rule: sending ANY repository filter (language, topic, license, min_stars, max_stars, archived, fork) without `sources` switches the documentation half off, so no `doc` results come back. To keep documentation, leave the repository filters out, or also send `sources`.';

const SEARCH_PROPERTIES: Record<string, unknown> = {
  query: {
    type: 'string', minLength: 1,
    description: 'A natural-language question or search phrase, e.g. "undici retry on 429 Retry-After" or "breaking change in v5 config loading". At least 1 character. Use the words a maintainer or the documentation would use.',
  },
  k: {
    type: 'integer', minimum: LIMITS.k.min, maximum: LIMITS.k.max,
    description: `Number of ranked results, ${LIMITS.k.min} to ${LIMITS.k.max} (default 10). 5 to 10 is usually enough; the answer is cut to a size budget, passages first.`,
  },
  types: {
    type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: [...RESULT_TYPES] },
    description: 'Result kinds to search: `doc` (documentation pages), `issue`, `pull_request`, `readme`. Default: all four. With `repos`, keep at least one of issue, pull_request, readme; with `sources`, keep `doc`.',
  },
  repos: {
    type: 'array', items: { type: 'string', pattern: '^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?/[A-Za-z0-9._-]+$' },
    description: 'GitHub repositories as `owner/repo`. Scopes ONLY the repository half (issues, pull requests, READMEs); documentation results are not limited by it. With `sources` too, results come from either (union, not intersection).',
  },
  sources: {
    type: 'array', maxItems: LIMITS.sources.maxItems,
    items: { type: 'string', minLength: LIMITS.sources.minLength, maxLength: LIMITS.sources.maxLength },
    description: `Documentation source ids (at most ${LIMITS.sources.maxItems}, each ${LIMITS.sources.minLength} to ${LIMITS.sources.maxLength} characters). Scopes ONLY the documentation half (\`doc\`). The answer says which ids are not indexed. Sending sources also keeps \`doc\` results when repository filters are used.`,
  },
  skills: {
    type: 'string', enum: ['only'],
    description: '"only": search just the indexed agent-skill files (SKILL.md instructions written for coding agents). Leave it out for a normal search.',
  },
  passages: {
    type: 'integer', minimum: LIMITS.passages.min, maximum: LIMITS.passages.max,
    description: `Matched passages (markdown, quotable) per result, ${LIMITS.passages.min} to ${LIMITS.passages.max} (default 1).`,
  },
  language: { type: 'string', minLength: 1, description: `Repository primary language, e.g. "TypeScript". ${REPO_FILTER_WARNING}` },
  topic: {
    anyOf: [
      { type: 'string', minLength: 1 },
      { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, maxItems: LIMITS.topics.maxItems },
    ],
    description: `Repository topic, e.g. "http", or up to ${LIMITS.topics.maxItems} topics, e.g. ["http", "retry"]. ${REPO_FILTER_WARNING}`,
  },
  license: { type: 'string', minLength: 1, description: `Repository license, e.g. "MIT". ${REPO_FILTER_WARNING}` },
  min_stars: { type: 'integer', minimum: LIMITS.stars.min, description: `At least this many stars (0 or more). ${REPO_FILTER_WARNING}` },
  max_stars: { type: 'integer', minimum: LIMITS.stars.min, description: `At most this many stars (0 or more). ${REPO_FILTER_WARNING}` },
  archived: { type: 'boolean', description: `true: only archived repositories; false: leave them out. ${REPO_FILTER_WARNING}` },
  fork: { type: 'boolean', description: `true: only forks; false: leave forks out. ${REPO_FILTER_WARNING}` },
};

const SCOPE_PROPERTY = {
  type: 'string', enum: ['workspace'],
  description: '"workspace": scope the repository half to the GitHub repositories of the open workspace (its git remotes, upstream first), as the editor\'s "Search in This Repository" does. Added to `repos` if both are given.',
};

// ---- issue 23: `dependency` (and, for MCP, `folder`) on devIndex_search ----
const DEPENDENCY_PROPERTY = {
  type: 'string', minLength: 1, maxLength: 214,
  description: 'A package name from the project\'s manifests (npm, Go module path, Cargo crate or Python distribution), e.g. "fetchline". The search is scoped to that dependency\'s GitHub repository (added to `repos`), and the answer starts with the INSTALLED version (from node_modules or the lockfile, go.mod, Cargo.lock or the virtual environment) and says, per result, how the versions it states ("fixed in 2.1.0", "affects 2.0.x") compare with it: "fixed in 2.1.0 · newer than your 2.0.3" means upgrading to 2.1.0 is the likely answer. An unknown name is an error that lists the names the manifests have.',
};
const FOLDER_PROPERTY = {
  type: 'string', minLength: 1,
  description: 'With `dependency`: the absolute path of the project folder to read the manifests from. Default: the MCP server\'s working folder.',
};

const SEARCH_DESCRIPTION = [
  'Search the developer index: documentation pages, GitHub issues, pull requests and READMEs, ranked together in one call, each with matched passages in markdown and a link to cite.',
  'Use it for how an API behaves, why something breaks, what maintainers said about a bug or a breaking change, or how a library is meant to be used.',
  'Scoping: `repos` limits only issues/pull requests/READMEs; `sources` limits only documentation; both together are a union.',
  'Repository filters (language, topic, license, stars, archived, fork) without `sources` return no documentation at all (by design): read the coverage notes at the end of the answer before concluding that nothing exists.',
  '`skills: "only"` searches indexed agent-skill files.',
].join(' ');

function searchDefinition(withScope: boolean): ToolDefinition {
  const properties = withScope
    ? { query: SEARCH_PROPERTIES.query, scope: SCOPE_PROPERTY, dependency: DEPENDENCY_PROPERTY, ...SEARCH_PROPERTIES }
    : { query: SEARCH_PROPERTIES.query, dependency: DEPENDENCY_PROPERTY, folder: FOLDER_PROPERTY, ...SEARCH_PROPERTIES };
  return {
    name: TOOL_NAMES.search,
    title: 'Search the developer index',
    description: withScope ? `${SEARCH_DESCRIPTION} \`scope: "workspace"\` limits the repository half to the open workspace's repositories.` : SEARCH_DESCRIPTION,
    inputSchema: { type: 'object', properties, required: ['query'], additionalProperties: false },
    annotations: { title: 'Search the developer index', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    spendsCredits: false,
  };
}

const JOB_ID = { type: 'string', description: 'The agent job id (a UUID) returned when the job was started.' };

/** The models this build knows, in words for the model: the current one, then the retired names. */
const RETIRED_MODELS = AGENT_MODELS.filter((m) => RETIRED_AGENT_MODELS.has(m));
const MODEL_WORDS = `\`${DEFAULT_AGENT_MODEL}\` (the default)`
  + (RETIRED_MODELS.length ? `; ${RETIRED_MODELS.map((m) => `\`${m}\``).join(', ')} are retired names that run on \`${DEFAULT_AGENT_MODEL}\`` : '')
  + '. Other names are refused unless the user allows them in the devIndex.agent.extraModels setting.';

const START: ToolDefinition = {
  name: TOOL_NAMES.startAgentJob,
  title: 'Start an agent job (spends credits)',
  description: 'Start an autonomous web agent job that browses the web and reports what it found (optionally as JSON matching `schema`). It runs asynchronously and SPENDS CREDITS on the user\'s account, up to `maxCredits`; failed runs are not billed. Returns the job id at once; follow it with devIndex_agentJobStatus. Prefer devIndex_search when the answer is likely in documentation, issues or pull requests.',
  inputSchema: {
    type: 'object',
    properties: {
      prompt: { type: 'string', minLength: 1, maxLength: PROMPT_LIMIT, description: `What the agent should find out, in plain words (1 to ${PROMPT_LIMIT.toLocaleString('en-US')} characters).` },
      urls: { type: 'array', items: { type: 'string', format: 'uri' }, description: 'Optional absolute http(s) pages to start from.' },
      maxCredits: { type: 'integer', minimum: 1, description: 'Credit ceiling for the run (default: the user\'s setting, 2500 unless changed). A run that reaches it stops as failed and is not billed; what it gathered by then comes back as partial data in devIndex_agentJobStatus.' },
      model: { type: 'string', minLength: 1, description: `Optional agent model: ${MODEL_WORDS}` },
      effort: { type: 'string', enum: [...AGENT_EFFORTS_LIST], description: 'Optional effort: low, medium or high.' },
      schema: { type: 'object', description: 'Optional JSON Schema for the shape of the result data, e.g. {"type":"object","properties":{"libraries":{"type":"array"}}}.' },
      mode: { type: 'string', enum: ['chat', 'extract'], description: 'Optional: chat for an answer in words (markdown), extract for data; left out, the service chooses.' },
      threadId: { type: 'string', pattern: '^[0-9a-fA-F-]{36}$', description: 'Optional: ask a follow-up in the thread of an earlier job (the thread id devIndex_agentJobStatus reports).' },
    },
    required: ['prompt'],
    additionalProperties: false,
  },
  annotations: { title: 'Start an agent job (spends credits)', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  spendsCredits: true,
};

const STATUS: ToolDefinition = {
  name: TOOL_NAMES.agentJobStatus,
  title: 'Agent job status',
  description: 'Read an agent job\'s status: processing, completed (with its result data), failed (with the reason, and the partial data a run stopped by its credit ceiling gathered) or cancelled (with the credits it spent before the cancel took effect), the credits used, when the service forgets the job (about 24 hours after it ends; then the job is not found), and a short summary of its trace (latest progress, snapshots). Read-only; call it again later while the job is processing.',
  inputSchema: { type: 'object', properties: { jobId: JOB_ID }, required: ['jobId'], additionalProperties: false },
  annotations: { title: 'Agent job status', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  spendsCredits: false,
};

const CANCEL: ToolDefinition = {
  name: TOOL_NAMES.cancelAgentJob,
  title: 'Cancel an agent job',
  description: 'Cancel a running agent job. It stops shortly and ends as cancelled (older services report it as failed); its work so far is discarded, and the credits it spent before the cancel took effect may still be charged. A job that already finished cannot be cancelled; the answer says so.',
  inputSchema: { type: 'object', properties: { jobId: JOB_ID }, required: ['jobId'], additionalProperties: false },
  annotations: { title: 'Cancel an agent job', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  spendsCredits: false,
};

const SNAPSHOT: ToolDefinition = {
  name: TOOL_NAMES.readSnapshot,
  title: 'Read an agent job snapshot',
  description: 'Read one snapshot of an agent job\'s artifact (for example the partial result as it grows). The snapshot ids are listed by devIndex_agentJobStatus. Read-only.',
  inputSchema: {
    type: 'object',
    properties: { jobId: JOB_ID, snapshotId: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$', description: 'A snapshot id from the job\'s trace (listed by devIndex_agentJobStatus).' } },
    required: ['jobId', 'snapshotId'],
    additionalProperties: false,
  },
  annotations: { title: 'Read an agent job snapshot', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  spendsCredits: false,
};

/** The editor's language-model tools (package.json `contributes.languageModelTools`). */
export const EDITOR_TOOLS: readonly ToolDefinition[] = [searchDefinition(true), START, STATUS, CANCEL];
/** The MCP server's tools: the same operations plus reading a snapshot; no workspace scope in a terminal. */
export const MCP_TOOLS: readonly ToolDefinition[] = [searchDefinition(false), START, STATUS, CANCEL, SNAPSHOT];
