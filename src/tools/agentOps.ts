// The agent job tools for both surfaces: start, status, wait, cancel, answer an approval, read a snapshot, list.
// The agent client is loaded on the first agent call, so a search-only session never loads it. No vscode import.
import type { AgentSubmitParams } from '../api/agent/submitSchema';
import { show, type ParamIssue } from '../api/params';
import type { AgentTrace, TraceEvent } from '../api/agent/agentSchemas';
import { isWaiting } from '../agentRun/approval';
import { approvalWords } from '../agentRun/runOutcome';
import { followRun } from '../agentRun/runEngine';
import { DEFAULT_POLL_TIMING } from '../agentRun/pollSchedule';
import { systemClock } from '../api/retry';
import {
  budgetOf,
  DEFAULT_LIST_JOBS,
  DEFAULT_WAIT_SECONDS,
  intIn,
  isRecord,
  MAX_LIST_JOBS,
  MAX_MAX_TOKENS,
  MAX_WAIT_SECONDS,
  MIN_MAX_TOKENS,
  MIN_WAIT_SECONDS,
  unknownFields,
} from './toolInputs';
import { TOOL_NAMES, type ToolName } from './names';
import { clean, errorText, jobStartedText, jobStatusText, snapshotText } from './modelText';
import { issuesText } from '../words/failureWords';
import type { AgentOps, ApprovalAnswer, ToolDeps, ToolOutcome, ToolProgress } from './toolTypes';
import type { ToolSubmitParams } from '../api/agent/submitSchema';
import { progressLine, waitHeadline } from './waitText';

/** What each agent tool is doing, for its failure's words. */
export const AGENT_OPS: Record<string, string> = {
  [TOOL_NAMES.startAgentJob]: 'Starting the agent job',
  [TOOL_NAMES.agentJobStatus]: 'Reading the agent job',
  [TOOL_NAMES.cancelAgentJob]: 'Cancelling the agent job',
  [TOOL_NAMES.readSnapshot]: 'Reading the snapshot',
  [TOOL_NAMES.waitForAgentJob]: 'Waiting for the agent job',
  [TOOL_NAMES.listAgentJobs]: 'Listing the agent jobs',
  [TOOL_NAMES.answerApproval]: "Answering the agent job's approval",
};

async function needKey(deps: ToolDeps, op: string): Promise<ToolOutcome | undefined> {
  if (!deps.hasKey || (await deps.hasKey())) return undefined;
  const how =
    deps.surface === 'editor'
      ? 'Ask the user to run "Developer Index: Set API Key" (search works without a key; agent jobs do not).'
      : "Set DEVINDEX_API_KEY in the MCP server's environment and restart it (search works without a key; agent jobs do not).";
  return { isError: true, text: `${op} needs an API key, and none is set. ${how}` };
}

function startRequestOf(input: Record<string, unknown>, deps: ToolDeps): ToolSubmitParams {
  const maxCredits = input.maxCredits ?? deps.defaultMaxCredits?.();
  const req: Record<string, unknown> = { prompt: input.prompt };
  for (const [k, v] of Object.entries({ ...input, maxCredits })) if (v !== undefined) req[k] = v;
  return req as unknown as ToolSubmitParams;
}

export async function start(
  input: Record<string, unknown>,
  deps: ToolDeps,
  signal?: AbortSignal,
): Promise<ToolOutcome> {
  const op = AGENT_OPS[TOOL_NAMES.startAgentJob]!;
  const request = startRequestOf(input, deps);
  const mod = await deps.agentModule();
  // The fields a model may set, and (approvals are answered with devIndex_answerApproval, which never accepts terms) the exchange's.
  const START_FIELDS: readonly string[] = mod.TOOL_SUBMIT_FIELDS;
  const START_EXCHANGE_FIELDS: readonly string[] = mod.TOOL_EXCHANGE_FIELDS;
  const unknownKeys = Object.keys(input).filter((k) => !START_FIELDS.includes(k));
  const v = mod.validateAgentSubmit(request as AgentSubmitParams, { extraModels: deps.extraModels?.() ?? [] });
  const exchangeKeys = isRecord(input.exchange)
    ? Object.keys(input.exchange).filter((k) => !START_EXCHANGE_FIELDS.includes(k))
    : [];
  const issues = [
    ...unknownKeys.map((k) => ({
      field: k,
      message: `${k} is not an agent job field (known: ${START_FIELDS.join(', ')})`,
    })),
    ...exchangeKeys.map((k) => ({
      field: `exchange.${k}`,
      message:
        `exchange.${k} cannot be set when starting a job ` +
        `(known: ${START_EXCHANGE_FIELDS.join(', ')}); answer an approval with ` +
        `devIndex_answerApproval`,
    })),
    ...(v.ok ? [] : v.issues),
  ];
  if (issues.length || !v.ok) return { isError: true, text: issuesText(issues, 'agent job') };
  const missingKey = await needKey(deps, op);
  if (missingKey) return missingKey;
  try {
    // The checked body goes on (through the editor's start command, or to the client), not checked again.
    let id: string | undefined;
    if (deps.start) id = await deps.start(v.body);
    else id = (await (await deps.agent()).submit(v.body, { signal })).id;
    if (!id)
      return {
        isError: true,
        text:
          `${op} did not happen: the job was not submitted (the API key may be missing, ` +
          `or the user dismissed the request). Nothing was billed.`,
      };
    return { isError: false, text: jobStartedText(id, request.maxCredits, { surface: deps.surface }) };
  } catch (e) {
    return { isError: true, text: errorText(e, { surface: deps.surface, op }) };
  }
}

/** The ids a job tool was given, checked, then the key it needs: the ids, or the outcome that says what is wrong. */
async function jobInput(
  input: Record<string, unknown>,
  deps: ToolDeps,
  tool: ToolName,
  withSnapshot = false,
): Promise<{ jobId: string; snapshotId: string } | ToolOutcome> {
  const mod = await deps.agentModule();
  const known = withSnapshot ? ['jobId', 'snapshotId'] : ['jobId'];
  const issues: ParamIssue[] = Object.keys(input)
    .filter((k) => !known.includes(k))
    .map((k) => ({ field: k, message: `${k} is not a field of this tool (known: ${known.join(', ')})` }));
  const j = mod.validateJobId(input.jobId);
  if (j) issues.push(j);
  if (withSnapshot) {
    const s = mod.validateSnapshotId(input.snapshotId);
    if (s) issues.push(s);
  }
  if (issues.length) return { isError: true, text: issuesText(issues) };
  const missingKey = await needKey(deps, AGENT_OPS[tool]!);
  if (missingKey) return missingKey;
  return { jobId: input.jobId as string, snapshotId: (input.snapshotId as string | undefined) ?? '' };
}

export async function status(
  input: Record<string, unknown>,
  deps: ToolDeps,
  signal?: AbortSignal,
): Promise<ToolOutcome> {
  const ids = await jobInput(input, deps, TOOL_NAMES.agentJobStatus);
  if ('isError' in ids) return ids;
  const mod = await deps.agentModule();
  const client = await deps.agent();
  const job = await client.status(ids.jobId, { signal });
  let trace: { trace?: Awaited<ReturnType<AgentOps['trace']>>; unavailable?: string } = {};
  try {
    trace = { trace: await client.trace(ids.jobId, {}, { signal }) };
  } catch (e) {
    trace = {
      unavailable:
        mod.agentErrorReason(e) === 'no-trace'
          ? 'this job predates traces.'
          : `not available (${e instanceof Error ? e.message : String(e)}).`,
    };
  }
  return {
    isError: false,
    text: jobStatusText(ids.jobId, job, trace, { surface: deps.surface, maxChars: deps.maxChars() }),
  };
}

export async function cancel(
  input: Record<string, unknown>,
  deps: ToolDeps,
  signal?: AbortSignal,
): Promise<ToolOutcome> {
  const ids = await jobInput(input, deps, TOOL_NAMES.cancelAgentJob);
  if ('isError' in ids) return ids;
  const mod = await deps.agentModule();
  try {
    await (await deps.agent()).cancel(ids.jobId, { signal });
    return {
      isError: false,
      text:
        `Cancellation of agent job ${ids.jobId} was requested. ` +
        `It stops shortly and ends as cancelled; the credits it spent before the cancel took ` +
        `effect may still be charged. Call devIndex_agentJobStatus to see its final state and credits.`,
    };
  } catch (e) {
    const reason = mod.agentErrorReason(e);
    if (reason === 'already-finished')
      return {
        isError: false,
        text: `Agent job ${ids.jobId} had already finished, so there was nothing to cancel. Read its result with devIndex_agentJobStatus.`,
      };
    if (reason === 'already-cancelled')
      return {
        isError: false,
        text: `Agent job ${ids.jobId} is already being cancelled. Call devIndex_agentJobStatus to see its final state.`,
      };
    throw e;
  }
}

/**
 * Approve or decline what a waiting job asks for, as the user decided. Terms are never accepted here:
 * a `terms` approval is approved only by the user (the tree, or the CLI's --accept-terms).
 */
export async function answerApproval(
  input: Record<string, unknown>,
  deps: ToolDeps,
  signal?: AbortSignal,
): Promise<ToolOutcome> {
  const op = AGENT_OPS[TOOL_NAMES.answerApproval]!;
  const known = ['jobId', 'decision', 'callIds', 'always'];
  const mod = await deps.agentModule();
  const issues: ParamIssue[] = Object.keys(input)
    .filter((k) => !known.includes(k))
    .map((k) => ({ field: k, message: `${k} is not a field of this tool (known: ${known.join(', ')})` }));
  const j = mod.validateJobId(input.jobId);
  if (j) issues.push(j);
  if (input.decision !== 'approve' && input.decision !== 'decline')
    issues.push({ field: 'decision', message: `decision must be approve or decline; got ${show(input.decision)}` });
  if (
    input.callIds !== undefined &&
    (!Array.isArray(input.callIds) || input.callIds.some((c) => typeof c !== 'string' || !c))
  )
    issues.push({ field: 'callIds', message: 'callIds must be a list of call ids (from devIndex_agentJobStatus)' });
  if (input.always !== undefined && typeof input.always !== 'boolean')
    issues.push({ field: 'always', message: `always must be true or false; got ${show(input.always)}` });
  if (issues.length) return { isError: true, text: issuesText(issues) };
  const missingKey = await needKey(deps, op);
  if (missingKey) return missingKey;
  const jobId = input.jobId as string;
  const answer: ApprovalAnswer = {
    decision: input.decision as ApprovalAnswer['decision'],
    ...(input.callIds ? { callIds: input.callIds as string[] } : {}),
    ...(input.always !== undefined ? { always: input.always as boolean } : {}),
  };
  const client = await deps.agent();
  const job = await client.status(jobId, { signal });
  const p = job.pendingApproval ?? undefined;
  if (!p || !isWaiting(job) || !job.threadId) {
    return {
      isError: true,
      text:
        `Agent job ${jobId} is not waiting for an approval (status ${clean(job.status)}); ` +
        `nothing was sent. Call devIndex_agentJobStatus to see where it is.`,
    };
  }
  if (p.kind === 'terms' && answer.decision === 'approve') {
    return {
      isError: true,
      text:
        `Agent job ${jobId} waits for the user to accept data terms (${clean(approvalWords(p))}). ` +
        `Only the user can accept them: show them the terms and let them agree in the Agent Jobs ` +
        `view or with devindex agent start --thread ${job.threadId} --approve ${p.id} ` +
        `--accept-terms. Nothing was sent.`,
    };
  }
  const unknownCalls = (answer.callIds ?? []).filter((id) => !p.calls.some((c) => c.id === id));
  if (unknownCalls.length)
    return {
      isError: true,
      text: issuesText([
        {
          field: 'callIds',
          message:
            `${unknownCalls.map((c) => show(c)).join(', ')} ${unknownCalls.length === 1 ? 'is not a call' : 'are not calls'} ` +
            `of this approval (its calls: ${p.calls.map((c) => c.id ?? '?').join(', ')})`,
        },
      ]),
    };
  const next = (await client.answerApproval({ threadId: job.threadId, approvalId: p.id, ...answer }, { signal })).id;
  await deps.onAnswered?.(next);
  const which = answer.callIds ? `${answer.callIds.length} of the calls` : 'the calls';
  const said =
    answer.decision === 'approve' ? `Approved ${which}${answer.always ? ' (always, in this thread)' : ''}` : 'Declined';
  return {
    isError: false,
    text:
      `${said} for agent job ${jobId}. The thread goes on as agent job ${next}; ` +
      `call devIndex_waitForAgentJob with that jobId to follow it.`,
  };
}

export async function snapshot(
  input: Record<string, unknown>,
  deps: ToolDeps,
  signal?: AbortSignal,
): Promise<ToolOutcome> {
  const ids = await jobInput(input, deps, TOOL_NAMES.readSnapshot, true);
  if ('isError' in ids) return ids;
  const snap = await (await deps.agent()).snapshot(ids.jobId, ids.snapshotId, { signal });
  return { isError: false, text: snapshotText(ids.jobId, snap, { maxChars: deps.maxChars() }) };
}

/** Follows a job with the run engine until it ends, waits for the user, or the timeout comes; progress as lines. */
export async function wait(
  input: Record<string, unknown>,
  deps: ToolDeps,
  signal?: AbortSignal,
  progress?: ToolProgress,
): Promise<ToolOutcome> {
  const mod = await deps.agentModule();
  const issues: ParamIssue[] = [];
  unknownFields(input, ['jobId', 'timeoutSeconds', 'maxTokens'], issues);
  const j = mod.validateJobId(input.jobId);
  if (j) issues.push(j);
  const seconds = intIn(input, 'timeoutSeconds', MIN_WAIT_SECONDS, MAX_WAIT_SECONDS, issues) ?? DEFAULT_WAIT_SECONDS;
  const maxTokens = intIn(input, 'maxTokens', MIN_MAX_TOKENS, MAX_MAX_TOKENS, issues);
  if (issues.length) return { isError: true, text: issuesText(issues) };
  const missingKey = await needKey(deps, AGENT_OPS[TOOL_NAMES.waitForAgentJob]!);
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
    const statusBudget = { surface: deps.surface, maxChars: Math.max(500, maxChars - head.length - 1) };
    return { isError: false, text: `${head}\n${jobStatusText(jobId, record, { trace }, statusBudget)}` };
  } catch (e) {
    if (signal?.aborted) {
      return {
        isError: false,
        text:
          `Stopped waiting for agent job ${jobId}: the wait was cancelled. The job goes on; ` +
          `call devIndex_waitForAgentJob or devIndex_agentJobStatus to follow it.`,
      };
    }
    throw e;
  }
}

function when(v: unknown): string {
  const t = typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(t) ? new Date(t).toISOString().replace(/\.\d+Z$/, 'Z') : '?';
}

export async function list(input: Record<string, unknown>, deps: ToolDeps, signal?: AbortSignal): Promise<ToolOutcome> {
  const issues: ParamIssue[] = [];
  unknownFields(input, ['limit'], issues);
  const limit = intIn(input, 'limit', 1, MAX_LIST_JOBS, issues) ?? DEFAULT_LIST_JOBS;
  if (issues.length) return { isError: true, text: issuesText(issues) };
  const missingKey = await needKey(deps, AGENT_OPS[TOOL_NAMES.listAgentJobs]!);
  if (missingKey) return missingKey;
  const client = await deps.agent();
  const all = await client.listAll({ maxPages: Math.ceil(limit / 20) }, { signal });
  const time = (a: { createdAt?: unknown }) => {
    const t =
      typeof a.createdAt === 'number' ? a.createdAt : typeof a.createdAt === 'string' ? Date.parse(a.createdAt) : NaN;
    return Number.isFinite(t) ? t : 0;
  };
  const jobs = [...all.agents].sort((a, b) => time(b) - time(a)).slice(0, limit);
  if (!jobs.length) return { isError: false, text: 'No agent jobs on this account yet.' };
  const lines = jobs.map((a) => {
    const prompt = (a.options?.prompt ?? '').replace(/\s+/g, ' ').trim();
    return `- ${a.id} · ${a.status} · ${when(a.createdAt)} · ${JSON.stringify(prompt.length > 100 ? `${prompt.slice(0, 99)}…` : prompt)}`;
  });
  return {
    isError: false,
    text: [`${jobs.length} most recent agent job${jobs.length === 1 ? '' : 's'}, newest first:`, ...lines].join('\n'),
  };
}
