// What each tool does, once, for both surfaces (the editor's language-model tools and `devindex mcp`):
// check the input, call the client, and turn the outcome into text for a model. Nothing here throws
// at the caller: every failure becomes a result marked as an error. No vscode import; the agent client
// is loaded on the first agent call, so a search-only session never loads it.
import type { AgentClient, AgentSubmitParams, ToolSubmitParams } from '../api/agent/agentClient';
import type { CallOptions } from '../api/client';
import type { DeprecationNotice } from '../api/notices';
import { show, validateSearchParams, type ParamIssue, type SearchParams } from '../api/params';
import type { SearchResponse } from '../api/schemas';
import type { AgentTrace, TraceEvent } from '../api/agent/agentSchemas';
import { followRun, type FollowClock } from '../api/agent/runEngine';
import type { PollTiming } from '../api/agent/pollSchedule';
import { DEFAULT_POLL_TIMING } from '../api/agent/pollSchedule';
import { systemClock } from '../api/retry';
import {
  DEFAULT_LIST_JOBS, DEFAULT_WAIT_SECONDS, MAX_LIST_JOBS, MAX_MAX_TOKENS, MAX_WAIT_SECONDS, MIN_MAX_TOKENS, MIN_WAIT_SECONDS,
} from './limits';
import { HANDLE_PATTERN, MORE_MAX_ENTRIES, sharedMoreCache, type MoreCache } from './moreCache';
import { DEPENDENCY_PASSAGES } from '../api/params';
import { dependencyOfResult, installedWords } from '../deps/dependencyScope';
import { resolveDependencies } from '../deps/folderLookup';
import { resultBadges, versionSummary, type InstalledDependency, type VersionBadge } from '../deps/versionCompare';
import { TOOL_NAMES, type ToolName } from './names';
import {
  errorText, issuesText, jobStartedText, jobStatusText, noticesText, scrubSecret, snapshotText, type Surface,
} from './modelText';
import { heldPassages, readMoreText, searchAnswer } from './searchAnswer';
import { clean } from './text';
import { charsForTokens } from './tokens';
import { progressLine, waitHeadline } from './waitText';

export interface ToolOutcome { text: string; isError: boolean }

export type AgentOps = Pick<AgentClient, 'submit' | 'status' | 'cancel' | 'trace' | 'snapshot' | 'listAll' | 'answerApproval'>;
export type AgentModule = typeof import('../api/agent/agentClient');

/** The repositories `scope: "workspace"` stands for, or why there are none. */
export type WorkspaceScope = { slugs: string[] } | { slugs: []; reason: string };

/** A job start as a model asks for it: the submission's fields a model may set (src/api/agent/submitSchema.ts). */
export type StartRequest = ToolSubmitParams;

/** A model's answer to a waiting job (devIndex_answerApproval), as the user decided. */
export interface ApprovalAnswer { decision: 'approve' | 'decline'; callIds?: string[]; always?: boolean }

export interface ToolDeps {
  surface: Surface;
  /** The size budget of one answer, in characters. */
  maxChars(): number;
  /** The key in use, removed from any text as a last guard (it is never put there on purpose). */
  secret?(): Promise<string | undefined> | string | undefined;
  search(params: SearchParams, opts: CallOptions): Promise<SearchResponse>;
  agentModule(): Promise<AgentModule>;
  agent(): Promise<AgentOps>;
  /** Editor: starts through the Agent Jobs feature (so the job is in its tree). Default: AgentClient.submit. */
  start?(request: StartRequest): Promise<string | undefined>;
  /** Editor: after an approval was answered, the Agent Jobs view reads the job list again (the next turn shows). */
  onAnswered?(nextJobId: string): Promise<unknown> | void;
  /** Model names newer than this build that a start may use (devIndex.agent.extraModels, DEVINDEX_AGENT_MODELS). */
  extraModels?(): readonly string[];
  /** The credit ceiling used when the input has none (undefined: the service's default). */
  defaultMaxCredits?(): number | undefined;
  /** Agent tools need a key; undefined means "cannot tell", and the service answers. */
  hasKey?(): Promise<boolean>;
  workspaceRepos?(): Promise<WorkspaceScope>;
  /** The most a call's own `maxTokens` may ask for, in characters (the editor: the caller's token budget). */
  maxCharsCap?(): number | undefined;
  /** Where cut answers are kept for devIndex_readMore (default: this process's one cache). */
  moreCache?: MoreCache;
  /** The wait's clock (tests) and poll timing (tests, DEVINDEX_POLL_MS). */
  clock?: FollowClock;
  pollTiming?: Partial<PollTiming>;
  /**
   * Issue 23: the folder whose manifests `dependency` is read from (`given`: the MCP input's `folder`).
   * Absent: MCP uses `given`, else the server's working folder; the editor has no folder to offer.
   */
  dependencyFolder?(given: string | undefined): Promise<string | undefined>;
  /** Deprecation notices and service warnings not yet told (a NoticeBoard's `take`): added to the answer for the model to pass on. */
  takeNotices?(): DeprecationNotice[];
}

/** One line of progress while a tool runs (MCP progress notifications, the editor's invocation progress). */
export type ToolProgress = (line: string) => void;


const OPS: Record<string, string> = {
  [TOOL_NAMES.search]: 'The search',
  [TOOL_NAMES.startAgentJob]: 'Starting the agent job',
  [TOOL_NAMES.agentJobStatus]: 'Reading the agent job',
  [TOOL_NAMES.cancelAgentJob]: 'Cancelling the agent job',
  [TOOL_NAMES.readSnapshot]: 'Reading the snapshot',
  [TOOL_NAMES.readMore]: 'Reading the rest of the answer',
  [TOOL_NAMES.waitForAgentJob]: 'Waiting for the agent job',
  [TOOL_NAMES.listAgentJobs]: 'Listing the agent jobs',
  [TOOL_NAMES.answerApproval]: 'Answering the agent job\'s approval',
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** Runs one tool. Never throws: a failure is an outcome with `isError: true`. */
export async function runTool(name: string, input: unknown, deps: ToolDeps, signal?: AbortSignal, progress?: ToolProgress): Promise<ToolOutcome> {
  const op = OPS[name] ?? `Tool ${name}`;
  let secret: string | undefined;
  try {
    secret = await deps.secret?.();
  } catch {
    secret = undefined;
  }
  const finish = (o: ToolOutcome): ToolOutcome => {
    const notices = deps.takeNotices?.() ?? [];
    const text = notices.length ? `${o.text}\n\n${noticesText(notices)}` : o.text;
    return { ...o, text: scrubSecret(text, secret) };
  };
  try {
    if (!isRecord(input)) {
      return finish({ isError: true, text: issuesText([{ field: '(input)', message: `the input must be a JSON object; got ${show(input)}` }]) });
    }
    switch (name) {
      case TOOL_NAMES.search: return finish(await search(input, deps, signal));
      case TOOL_NAMES.startAgentJob: return finish(await start(input, deps, signal));
      case TOOL_NAMES.agentJobStatus: return finish(await status(input, deps, signal));
      case TOOL_NAMES.cancelAgentJob: return finish(await cancel(input, deps, signal));
      case TOOL_NAMES.readSnapshot: return finish(await snapshot(input, deps, signal));
      case TOOL_NAMES.readMore: return finish(readMore(input, deps));
      case TOOL_NAMES.waitForAgentJob: return finish(await wait(input, deps, signal, progress && ((line) => progress(scrubSecret(line, secret)))));
      case TOOL_NAMES.listAgentJobs: return finish(await list(input, deps, signal));
      case TOOL_NAMES.answerApproval: return finish(await answerApproval(input, deps, signal));
      default: return finish({ isError: true, text: `Unknown tool ${JSON.stringify(name)}.` });
    }
  } catch (e) {
    return finish({ isError: true, text: errorText(e, { surface: deps.surface, op, secret }) });
  }
}

/** An integer input within its bound, or the issue that names the bound. */
function intIn(input: Record<string, unknown>, field: string, min: number, max: number, issues: ParamIssue[]): number | undefined {
  const v = input[field];
  if (v === undefined) return undefined;
  if (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max) return v;
  issues.push({ field, message: `${field} must be an integer from ${min} to ${max}; got ${show(v)}` });
  return undefined;
}

function unknownFields(input: Record<string, unknown>, known: readonly string[], issues: ParamIssue[]): void {
  for (const k of Object.keys(input)) if (!known.includes(k)) issues.push({ field: k, message: `${k} is not a field of this tool (known: ${known.join(', ')})` });
}

/** `have`: the handles of earlier answers the model still holds, or the issue that names the bound. */
function handlesIn(input: Record<string, unknown>, issues: ParamIssue[]): string[] | undefined {
  const v = input.have;
  if (v === undefined) return undefined;
  const ok = Array.isArray(v) && v.length <= MORE_MAX_ENTRIES && v.every((h) => typeof h === 'string' && HANDLE_PATTERN.test(h));
  if (ok) return [...new Set(v as string[])];
  issues.push({ field: 'have', message: `have must be a list of at most ${MORE_MAX_ENTRIES} handles, each the text after "answer:" or "more:" in a devIndex_search answer ("m" and 12 hexadecimal digits); got ${show(v)}` });
  return undefined;
}

function ttlWords(cache: MoreCache): string {
  return cache.ttlMs >= 120_000 ? `${Math.round(cache.ttlMs / 60_000)} minutes` : `${Math.round(cache.ttlMs / 1000)} seconds`;
}

/** The answer budget in characters: the call's maxTokens (within the caller's cap), else the surface's default. */
function budgetOf(maxTokens: number | undefined, deps: ToolDeps): number {
  if (maxTokens === undefined) return deps.maxChars();
  const cap = deps.maxCharsCap?.();
  return Math.min(charsForTokens(maxTokens), cap ?? Infinity);
}

/**
 * A search as every surface of the tools runs it (the language-model tool, `devindex mcp`, the `@devindex` chat
 * participant): `dependency` scopes it to that dependency's repository (or `resolved`, a dependency the caller
 * already looked up), `scope: "workspace"` to the workspace's repositories, the parameters checked, the client
 * called; each result from the dependency's repository gets its version badges. Input problems (with `issues`, the
 * caller's own) come back as an error outcome; a failed request throws, as the client does.
 */
export interface ScopedSearch {
  params: SearchParams;
  response: SearchResponse;
  /** Lines an answer starts with (the workspace scope). */
  header: string[];
  /** The dependency it was scoped to, with its installed version. */
  dep?: InstalledDependency;
  /** Per result: its badges against `dep` (undefined: not from the dependency's repository). Only with `dep`. */
  badges?: Array<VersionBadge[] | undefined>;
}

export async function scopedSearch(
  input: Record<string, unknown>, deps: ToolDeps, signal?: AbortSignal, issues: ParamIssue[] = [], resolved?: InstalledDependency,
): Promise<ScopedSearch | ToolOutcome> {
  const { scope, maxTokens: _maxTokens, dependency, folder, have: _have, ...rest } = input;
  const header: string[] = [];
  // Issue 23: a dependency name scopes the search to its repository and compares the results' versions.
  const dep = resolved ?? await dependencyScope(dependency, folder, deps);
  if (dep && 'text' in dep) return dep;
  if (dep) {
    const given = Array.isArray(rest.repos) ? rest.repos : [];
    rest.repos = given.includes(dep.slug) ? given : [...given, dep.slug];
    rest.passages ??= DEPENDENCY_PASSAGES;
  }
  if (scope !== undefined) {
    if (!deps.workspaceRepos) {
      issues.push({ field: 'scope', message: 'scope is only available in the editor (there is no workspace here); pass repos as owner/repo slugs instead' });
    } else if (scope !== 'workspace') {
      issues.push({ field: 'scope', message: `scope may only be "workspace"; got ${show(scope)}` });
    } else {
      const ws = await deps.workspaceRepos();
      if (ws.slugs.length === 0) {
        return { isError: true, text: `scope "workspace" cannot be used: ${'reason' in ws ? ws.reason : 'the workspace has no GitHub repository'}. Search without scope, or pass repos as owner/repo slugs.` };
      }
      const given = Array.isArray(rest.repos) ? rest.repos : [];
      rest.repos = [...given, ...ws.slugs.filter((s) => !given.includes(s))];
      header.push(`Scope: the workspace's repositories ${ws.slugs.join(', ')} (issues, pull requests and READMEs only; documentation is not limited by it).`);
    }
  }
  const v = validateSearchParams(rest as unknown as SearchParams);
  if (!v.ok) issues.push(...v.issues);
  if (issues.length || !v.ok) return { isError: true, text: issuesText(issues, 'search parameters') };
  const response = await deps.search(v.params, { signal });
  if (!dep) return { params: v.params, response, header };
  const badges = response.results.map((r) => (dependencyOfResult([dep], r) ? resultBadges(r.title, r.passages.map((p) => p.text), dep) : undefined));
  return { params: v.params, response, header, dep, badges };
}

async function search(input: Record<string, unknown>, deps: ToolDeps, signal?: AbortSignal): Promise<ToolOutcome> {
  const issues: ParamIssue[] = [];
  const maxTokens = intIn(input, 'maxTokens', MIN_MAX_TOKENS, MAX_MAX_TOKENS, issues);
  const have = handlesIn(input, issues);
  try {
    const run = await scopedSearch(input, deps, signal, issues);
    if ('isError' in run) return run;
    const { response: res, header } = run;
    const lead = run.dep ? versionsLead(run.dep, run.badges ?? []) : undefined;
    const budget = budgetOf(maxTokens, deps);
    const cache = deps.moreCache ?? sharedMoreCache;
    const held = heldPassages(have ?? [], cache);
    if (held.unknown.length) {
      header.push(`Not known here (kept ${ttlWords(cache)}, the ${MORE_MAX_ENTRIES} most recent, in this process only): ${held.unknown.join(', ')}; passages they sent are sent again in full.`);
    }
    const answer = searchAnswer(run.params, res, { maxChars: lead ? Math.max(1000, budget - lead.length - 2) : budget, header, cache, known: held.known });
    return { isError: false, text: lead ? `${lead}\n\n${answer.text}` : answer.text };
  } catch (e) {
    return { isError: true, text: errorText(e, { surface: deps.surface, op: OPS[TOOL_NAMES.search]! }) };
  }
}

async function needKey(deps: ToolDeps, op: string): Promise<ToolOutcome | undefined> {
  if (!deps.hasKey || (await deps.hasKey())) return undefined;
  const how = deps.surface === 'editor'
    ? 'Ask the user to run "Developer Index: Set API Key" (search works without a key; agent jobs do not).'
    : 'Set DEVINDEX_API_KEY in the MCP server\'s environment and restart it (search works without a key; agent jobs do not).';
  return { isError: true, text: `${op} needs an API key, and none is set. ${how}` };
}


function startRequestOf(input: Record<string, unknown>, deps: ToolDeps): StartRequest {
  const maxCredits = input.maxCredits ?? deps.defaultMaxCredits?.();
  const req: Record<string, unknown> = { prompt: input.prompt };
  for (const [k, v] of Object.entries({ ...input, maxCredits })) if (v !== undefined) req[k] = v;
  return req as unknown as StartRequest;
}

async function start(input: Record<string, unknown>, deps: ToolDeps, signal?: AbortSignal): Promise<ToolOutcome> {
  const op = OPS[TOOL_NAMES.startAgentJob]!;
  const request = startRequestOf(input, deps);
  const mod = await deps.agentModule();
  // The fields a model may set, and (approvals are answered with devIndex_answerApproval, which never accepts terms) the exchange's.
  const START_FIELDS: readonly string[] = mod.TOOL_SUBMIT_FIELDS;
  const START_EXCHANGE_FIELDS: readonly string[] = mod.TOOL_EXCHANGE_FIELDS;
  const unknownKeys = Object.keys(input).filter((k) => !START_FIELDS.includes(k));
  const v = mod.validateAgentSubmit(request as AgentSubmitParams, { extraModels: deps.extraModels?.() ?? [] });
  const exchangeKeys = isRecord(input.exchange) ? Object.keys(input.exchange).filter((k) => !START_EXCHANGE_FIELDS.includes(k)) : [];
  const issues = [
    ...unknownKeys.map((k) => ({ field: k, message: `${k} is not an agent job field (known: ${START_FIELDS.join(', ')})` })),
    ...exchangeKeys.map((k) => ({ field: `exchange.${k}`, message: `exchange.${k} cannot be set when starting a job (known: ${START_EXCHANGE_FIELDS.join(', ')}); answer an approval with devIndex_answerApproval` })),
    ...(v.ok ? [] : v.issues),
  ];
  if (issues.length) return { isError: true, text: issuesText(issues, 'agent job') };
  const missingKey = await needKey(deps, op);
  if (missingKey) return missingKey;
  try {
    let id: string | undefined;
    if (deps.start) id = await deps.start(request);
    else id = (await (await deps.agent()).submit(request as AgentSubmitParams, { signal })).id;
    if (!id) return { isError: true, text: `${op} did not happen: the job was not submitted (the API key may be missing, or the user dismissed the request). Nothing was billed.` };
    return { isError: false, text: jobStartedText(id, request.maxCredits, { surface: deps.surface }) };
  } catch (e) {
    if (e instanceof Error && (e as { jobMayExist?: boolean }).jobMayExist) {
      return { isError: true, text: `${errorText(e, { surface: deps.surface, op })}\nDo not start it again right away: the job may exist and be billed.` };
    }
    return { isError: true, text: errorText(e, { surface: deps.surface, op }) };
  }
}

/** The ids a job tool was given, checked, then the key it needs: the ids, or the outcome that says what is wrong. */
async function jobInput(
  input: Record<string, unknown>, deps: ToolDeps, tool: ToolName, withSnapshot = false,
): Promise<{ jobId: string; snapshotId: string } | ToolOutcome> {
  const mod = await deps.agentModule();
  const known = withSnapshot ? ['jobId', 'snapshotId'] : ['jobId'];
  const issues: ParamIssue[] = Object.keys(input).filter((k) => !known.includes(k))
    .map((k) => ({ field: k, message: `${k} is not a field of this tool (known: ${known.join(', ')})` }));
  const j = mod.validateJobId(input.jobId);
  if (j) issues.push(j);
  if (withSnapshot) {
    const s = mod.validateSnapshotId(input.snapshotId);
    if (s) issues.push(s);
  }
  if (issues.length) return { isError: true, text: issuesText(issues) };
  const missingKey = await needKey(deps, OPS[tool]!);
  if (missingKey) return missingKey;
  return { jobId: input.jobId as string, snapshotId: (input.snapshotId as string | undefined) ?? '' };
}

async function status(input: Record<string, unknown>, deps: ToolDeps, signal?: AbortSignal): Promise<ToolOutcome> {
  const ids = await jobInput(input, deps, TOOL_NAMES.agentJobStatus);
  if ('isError' in ids) return ids;
  const mod = await deps.agentModule();
  const client = await deps.agent();
  const job = await client.status(ids.jobId, { signal });
  let trace: { trace?: Awaited<ReturnType<AgentOps['trace']>>; unavailable?: string } = {};
  try {
    trace = { trace: await client.trace(ids.jobId, {}, { signal }) };
  } catch (e) {
    trace = { unavailable: mod.agentErrorReason(e) === 'no-trace' ? 'this job predates traces.' : `not available (${e instanceof Error ? e.message : String(e)}).` };
  }
  return { isError: false, text: jobStatusText(ids.jobId, job, trace, { surface: deps.surface, maxChars: deps.maxChars() }) };
}

async function cancel(input: Record<string, unknown>, deps: ToolDeps, signal?: AbortSignal): Promise<ToolOutcome> {
  const ids = await jobInput(input, deps, TOOL_NAMES.cancelAgentJob);
  if ('isError' in ids) return ids;
  const mod = await deps.agentModule();
  try {
    await (await deps.agent()).cancel(ids.jobId, { signal });
    return { isError: false, text: `Cancellation of agent job ${ids.jobId} was requested. It stops shortly and ends as cancelled; the credits it spent before the cancel took effect may still be charged. Call devIndex_agentJobStatus to see its final state and credits.` };
  } catch (e) {
    const reason = mod.agentErrorReason(e);
    if (reason === 'already-finished') return { isError: false, text: `Agent job ${ids.jobId} had already finished, so there was nothing to cancel. Read its result with devIndex_agentJobStatus.` };
    if (reason === 'already-cancelled') return { isError: false, text: `Agent job ${ids.jobId} is already being cancelled. Call devIndex_agentJobStatus to see its final state.` };
    throw e;
  }
}

/**
 * Approve or decline what a waiting job asks for, as the user decided. Terms are never accepted here:
 * a `terms` approval is approved only by the user (the tree, or the CLI's --accept-terms).
 */
async function answerApproval(input: Record<string, unknown>, deps: ToolDeps, signal?: AbortSignal): Promise<ToolOutcome> {
  const op = OPS[TOOL_NAMES.answerApproval]!;
  const known = ['jobId', 'decision', 'callIds', 'always'];
  const mod = await deps.agentModule();
  const issues: ParamIssue[] = Object.keys(input).filter((k) => !known.includes(k))
    .map((k) => ({ field: k, message: `${k} is not a field of this tool (known: ${known.join(', ')})` }));
  const j = mod.validateJobId(input.jobId);
  if (j) issues.push(j);
  if (input.decision !== 'approve' && input.decision !== 'decline') issues.push({ field: 'decision', message: `decision must be approve or decline; got ${show(input.decision)}` });
  if (input.callIds !== undefined && (!Array.isArray(input.callIds) || input.callIds.some((c) => typeof c !== 'string' || !c))) issues.push({ field: 'callIds', message: 'callIds must be a list of call ids (from devIndex_agentJobStatus)' });
  if (input.always !== undefined && typeof input.always !== 'boolean') issues.push({ field: 'always', message: `always must be true or false; got ${show(input.always)}` });
  if (issues.length) return { isError: true, text: issuesText(issues) };
  const missingKey = await needKey(deps, op);
  if (missingKey) return missingKey;
  const jobId = input.jobId as string;
  const answer: ApprovalAnswer = {
    decision: input.decision as ApprovalAnswer['decision'],
    ...(input.callIds ? { callIds: input.callIds as string[] } : {}), ...(input.always !== undefined ? { always: input.always as boolean } : {}),
  };
  const client = await deps.agent();
  const job = await client.status(jobId, { signal });
  const p = job.pendingApproval ?? undefined;
  if (!p || !mod.isWaiting(job) || !job.threadId) {
    return { isError: true, text: `Agent job ${jobId} is not waiting for an approval (status ${clean(job.status)}); nothing was sent. Call devIndex_agentJobStatus to see where it is.` };
  }
  if (p.kind === 'terms' && answer.decision === 'approve') {
    return { isError: true, text: `Agent job ${jobId} waits for the user to accept data terms (${clean(mod.approvalWords(p))}). Only the user can accept them: show them the terms and let them agree in the Agent Jobs view or with devindex agent start --thread ${job.threadId} --approve ${p.id} --accept-terms. Nothing was sent.` };
  }
  const unknownCalls = (answer.callIds ?? []).filter((id) => !p.calls.some((c) => c.id === id));
  if (unknownCalls.length) return { isError: true, text: issuesText([{ field: 'callIds', message: `${unknownCalls.map((c) => show(c)).join(', ')} ${unknownCalls.length === 1 ? 'is not a call' : 'are not calls'} of this approval (its calls: ${p.calls.map((c) => c.id ?? '?').join(', ')})` }]) };
  const next = (await client.answerApproval({ threadId: job.threadId, approvalId: p.id, ...answer }, { signal })).id;
  await deps.onAnswered?.(next);
  const said = answer.decision === 'approve' ? `Approved ${answer.callIds ? `${answer.callIds.length} of the calls` : 'the calls'}${answer.always ? ' (always, in this thread)' : ''}` : 'Declined';
  return { isError: false, text: `${said} for agent job ${jobId}. The thread goes on as agent job ${next}; call devIndex_waitForAgentJob with that jobId to follow it.` };
}

async function snapshot(input: Record<string, unknown>, deps: ToolDeps, signal?: AbortSignal): Promise<ToolOutcome> {
  const ids = await jobInput(input, deps, TOOL_NAMES.readSnapshot, true);
  if ('isError' in ids) return ids;
  const snap = await (await deps.agent()).snapshot(ids.jobId, ids.snapshotId, { signal });
  return { isError: false, text: snapshotText(ids.jobId, snap, { maxChars: deps.maxChars() }) };
}

function readMore(input: Record<string, unknown>, deps: ToolDeps): ToolOutcome {
  const issues: ParamIssue[] = [];
  unknownFields(input, ['handle', 'result', 'passages'], issues);
  const handle = input.handle;
  if (typeof handle !== 'string' || !HANDLE_PATTERN.test(handle)) {
    issues.push({ field: 'handle', message: `handle must be the text after "more:" (or "answer:") in a devIndex_search answer ("m" and 12 hexadecimal digits); got ${show(handle)}` });
  }
  const result = intIn(input, 'result', 1, 100, issues);
  const passages = intIn(input, 'passages', 1, 5, issues);
  if (issues.length) return { isError: true, text: issuesText(issues) };
  const cache = deps.moreCache ?? sharedMoreCache;
  const kept = cache.get(handle as string);
  if (!kept) {
    return { isError: true, text: `Handle ${handle as string} is unknown or has expired (answers are kept for ${ttlWords(cache)}, the ${MORE_MAX_ENTRIES} most recent, in this server process only). Run devIndex_search again.` };
  }
  if (result !== undefined && result > kept.results.length) {
    return { isError: true, text: issuesText([{ field: 'result', message: `result must be from 1 to ${kept.results.length} (the results of that answer); got ${result}` }]) };
  }
  return readMoreText(handle as string, kept, { ...(result !== undefined ? { result } : {}), ...(passages !== undefined ? { passages } : {}) });
}


/** Follows a job with the run engine until it ends, waits for the user, or the timeout comes; progress as lines. */
async function wait(input: Record<string, unknown>, deps: ToolDeps, signal?: AbortSignal, progress?: ToolProgress): Promise<ToolOutcome> {
  const mod = await deps.agentModule();
  const issues: ParamIssue[] = [];
  unknownFields(input, ['jobId', 'timeoutSeconds', 'maxTokens'], issues);
  const j = mod.validateJobId(input.jobId);
  if (j) issues.push(j);
  const seconds = intIn(input, 'timeoutSeconds', MIN_WAIT_SECONDS, MAX_WAIT_SECONDS, issues) ?? DEFAULT_WAIT_SECONDS;
  const maxTokens = intIn(input, 'maxTokens', MIN_MAX_TOKENS, MAX_MAX_TOKENS, issues);
  if (issues.length) return { isError: true, text: issuesText(issues) };
  const missingKey = await needKey(deps, OPS[TOOL_NAMES.waitForAgentJob]!);
  if (missingKey) return missingKey;
  const jobId = input.jobId as string;
  const client = await deps.agent();
  const events: TraceEvent[] = [];
  let latest: string | undefined;
  try {
    const r = await followRun({
      jobId,
      backend: { trace: (id) => client.trace(id, {}, { signal }), status: (id) => client.status(id, { signal }) },
      clock: deps.clock ?? systemClock,
      timing: { ...DEFAULT_POLL_TIMING, ...deps.pollTiming },
      maxWaitMs: seconds * 1000,
      signal,
      stopWhenWaiting: true,
      onEvents: (added) => {
        events.push(...added);
        for (const e of added) {
          const line = progressLine(e);
          if (!line) continue;
          latest = line;
          progress?.(line);
        }
      },
    });
    const head = waitHeadline(jobId, r.facts, { timedOut: r.timedOut, waiting: r.waiting, seconds, latest });
    if (r.timedOut) return { isError: false, text: head };
    const record = r.record ?? (await client.status(jobId, { signal }));
    const trace = { events } as unknown as AgentTrace;
    const maxChars = budgetOf(maxTokens, deps);
    return { isError: false, text: `${head}\n${jobStatusText(jobId, record, { trace }, { surface: deps.surface, maxChars: Math.max(500, maxChars - head.length - 1) })}` };
  } catch (e) {
    if (signal?.aborted) {
      return { isError: false, text: `Stopped waiting for agent job ${jobId}: the wait was cancelled. The job goes on; call devIndex_waitForAgentJob or devIndex_agentJobStatus to follow it.` };
    }
    throw e;
  }
}

function when(v: unknown): string {
  const t = typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(t) ? new Date(t).toISOString().replace(/\.\d+Z$/, 'Z') : '?';
}

async function list(input: Record<string, unknown>, deps: ToolDeps, signal?: AbortSignal): Promise<ToolOutcome> {
  const issues: ParamIssue[] = [];
  unknownFields(input, ['limit'], issues);
  const limit = intIn(input, 'limit', 1, MAX_LIST_JOBS, issues) ?? DEFAULT_LIST_JOBS;
  if (issues.length) return { isError: true, text: issuesText(issues) };
  const missingKey = await needKey(deps, OPS[TOOL_NAMES.listAgentJobs]!);
  if (missingKey) return missingKey;
  const client = await deps.agent();
  const all = await client.listAll({ maxPages: Math.ceil(limit / 20) }, { signal });
  const time = (a: { createdAt?: unknown }) => {
    const t = typeof a.createdAt === 'number' ? a.createdAt : typeof a.createdAt === 'string' ? Date.parse(a.createdAt) : NaN;
    return Number.isFinite(t) ? t : 0;
  };
  const jobs = [...all.agents].sort((a, b) => time(b) - time(a)).slice(0, limit);
  if (!jobs.length) return { isError: false, text: 'No agent jobs on this account yet.' };
  const lines = jobs.map((a) => {
    const prompt = (a.options?.prompt ?? '').replace(/\s+/g, ' ').trim();
    return `- ${a.id} · ${a.status} · ${when(a.createdAt)} · ${JSON.stringify(prompt.length > 100 ? `${prompt.slice(0, 99)}…` : prompt)}`;
  });
  return { isError: false, text: [`${jobs.length} most recent agent job${jobs.length === 1 ? '' : 's'}, newest first:`, ...lines].join('\n') };
}

// ---------------------------------------------------------------- issue 23: dependency + versions

/** The dependency a search names, resolved in the folder; an error outcome when it cannot scope; undefined when none is named. */
async function dependencyScope(dependency: unknown, folder: unknown, deps: ToolDeps): Promise<InstalledDependency | ToolOutcome | undefined> {
  if (dependency === undefined) {
    return folder === undefined ? undefined : { isError: true, text: issuesText([{ field: 'folder', message: 'folder is only read together with dependency' }], 'search parameters') };
  }
  if (typeof dependency !== 'string' || !dependency.trim() || dependency.length > 214) {
    return { isError: true, text: issuesText([{ field: 'dependency', message: `dependency must be a package name of 1 to 214 characters; got ${show(dependency)}` }], 'search parameters') };
  }
  if (folder !== undefined && (typeof folder !== 'string' || !isAbsoluteFolder(folder))) {
    return { isError: true, text: issuesText([{ field: 'folder', message: `folder must be an absolute path; got ${show(folder)}` }], 'search parameters') };
  }
  const given = folder as string | undefined;
  const root = deps.dependencyFolder ? await deps.dependencyFolder(given) : deps.surface === 'mcp' ? given ?? process.cwd() : undefined;
  if (!root) return { isError: true, text: 'dependency cannot be used: no workspace folder is open. Ask the user to open the project folder, or search with repos as owner/repo slugs.' };
  const r = await resolveDependencies(root, [dependency.trim()], { maxDependencies: 5000 });
  if (!r.ok) {
    const fix = r.reason === 'unknown' ? ' Call again with one of those names, or search with repos as owner/repo slugs.' : ' Search without dependency (or with repos, if you know its repository).';
    return { isError: true, text: `dependency ${JSON.stringify(dependency.trim())} cannot scope the search: ${r.message}.${fix}` };
  }
  return r.deps[0]!;
}

/** The lines the answer starts with: the installed version, then per result how its version statements compare. */
export function versionsLead(dep: InstalledDependency, badges: ReadonlyArray<readonly VersionBadge[] | undefined>): string {
  const lines = [`Installed: ${installedWords(dep)}. Results from ${dep.slug} are compared with ${dep.version ? `version ${dep.version}` : 'nothing: the installed version is unknown (nothing on disk states it), so no statement is compared'}.`];
  const summary = versionSummary(badges.map((b) => b ?? []), dep);
  if (summary) lines.push(summary);
  badges.slice(0, 50).forEach((b, i) => {
    const words = b === undefined ? 'not from this dependency\'s repository' : b.length ? b.map((x) => `${x.text} ("${x.sentence.slice(0, 160)}")`).join('; ') : 'states no version';
    lines.push(`[${i + 1}] ${words}`);
  });
  return lines.join('\n');
}

/**
 * An absolute folder on any host: a POSIX path, a Windows drive or UNC path, or (in the browser) a
 * workspace URI such as `vscode-vfs://github/owner/repo`. Pure, so the browser bundle needs no node:path.
 */
export function isAbsoluteFolder(folder: string): boolean {
  return folder.startsWith('/') || /^[A-Za-z]:[\\/]/.test(folder) || folder.startsWith('\\\\') || /^[a-z][a-z0-9+.-]*:\/\//i.test(folder);
}
