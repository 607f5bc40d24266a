// What `devindex agent` prints: a job record, a thread, a trace, what a waiting run asks for, and the end
// of a followed run, in the same words as the editor (src/api/agent/runOutcome.ts), every string from
// the service sanitised for the terminal.
import { isFoldedEvent, orderEvents, summarizeEvent } from '../agentRun/agentTrace';
import { RETIRED_AGENT_MODELS } from '../api/agent/agentConstants';
import { type AgentSubmitParams } from '../api/agent/submitSchema';
import { type AgentJobRecord, type AgentThread, type TraceEvent } from '../api/agent/agentSchemas';
import { type PendingApproval } from '../api/agent/exchangeSchemas';
import type { RunFacts } from '../agentRun/runState';
import {
  approvalWords,
  callWords,
  endMessage,
  estimateWords,
  jobState,
  paidWords,
  skippedWords,
  termsName,
} from '../agentRun/runOutcome';
import { isWaiting } from '../agentRun/approval';
import { boundedJson } from '../api/jsonDepth';
import { sanitizeForTerminal } from './cliBase';

const clean = (s: string) => sanitizeForTerminal(s);

/** A value quoted for a POSIX shell, so a printed command can be pasted as it is. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function formatJob(job: AgentJobRecord, jobId?: string): string {
  // A run with an unanswered approval waits for the caller, whatever its status says: said first.
  const waiting = isWaiting(job) ? (job.pendingApproval ?? undefined) : undefined;
  const status = waiting ? `waiting for your approval (the service's status: ${clean(job.status)})` : clean(job.status);
  const lines = [...(job.id ? [`id:           ${clean(job.id)}`] : []), `status:       ${status}`];
  if (job.threadId)
    lines.push(`thread:       ${clean(job.threadId)}${job.threadTurn !== undefined ? `, turn ${job.threadTurn}` : ''}`);
  if (job.mode) lines.push(`mode:         ${clean(job.mode)}`);
  if (job.creditsUsed !== undefined)
    lines.push(
      `credits used: ${job.creditsUsed}` +
        (job.status === 'cancelled' && job.creditsUsed > 0 ? ' (spent before the cancel took effect)' : ''),
    );
  if (job.model)
    lines.push(`model:        ${clean(job.model)}${RETIRED_AGENT_MODELS.has(job.model) ? ' (a retired name)' : ''}`);
  if (job.effort) lines.push(`effort:       ${clean(job.effort)}`);
  if (job.expiresAt)
    lines.push(`expires:      ${clean(job.expiresAt)} (the service forgets the job then; keep the result before)`);
  if (job.error) lines.push(`error:        ${clean(job.error)}`);
  if (job.data !== undefined && job.data !== null)
    lines.push(
      'data:',
      ...clean(boundedJson(job.data, 2))
        .split('\n')
        .map((l) => `  ${l}`),
    );
  if (job.partial !== undefined && job.partial !== null)
    lines.push(`partial result: kept by the service (print it with devindex agent status ${jobId ?? 'JOB'} --partial)`);
  if (waiting) lines.push(...approvalLines(waiting, job.threadId));
  lines.push(...exchangeLines(job.exchange ?? undefined));
  if (typeof job.message === 'string' && job.message) lines.push('answer:', ...answerLines(job.message));
  if (job.suggestions?.length) lines.push(...suggestionLines(job.suggestions, job.threadId));
  return `${lines.join('\n')}\n`;
}

/** The chat answer (markdown) as it came, each line sanitised and indented. */
function answerLines(answer: string): string[] {
  return clean(answer)
    .replace(/\s+$/, '')
    .split('\n')
    .map((l) => `  ${l}`);
}

/** The service's follow-ups, one per line with the command that asks it. */
function suggestionLines(
  suggestions: ReadonlyArray<{ label?: string; prompt: string }>,
  threadId: string | undefined,
): string[] {
  const ask = threadId ? `devindex agent start --thread ${shellQuote(threadId)}` : 'devindex agent start';
  return [
    'suggested follow-ups:',
    ...suggestions.map(
      (x) =>
        `  ${clean(x.label ?? x.prompt).replace(/\s+/g, ' ')}: ${ask} ${shellQuote(clean(x.prompt).replace(/\s+/g, ' '))}`,
    ),
  ];
}

/** What a waiting run asks for (each call with its estimate and the sum, or each provider's terms), and the commands that answer it. */
export function approvalLines(p: PendingApproval, threadId: string | undefined): string[] {
  const thread = threadId ? `--thread ${shellQuote(threadId)}` : '--thread THREAD';
  const id = shellQuote(clean(p.id));
  const lines = [`waiting for:  ${clean(approvalWords(p))}`];
  if (p.reason) lines.push(`  why: ${clean(p.reason).replace(/\s+/g, ' ')}`);
  for (const c of p.calls) {
    const input = c.input === undefined ? '' : ` ${clean(boundedJson(c.input, 0)).slice(0, 200)}`;
    lines.push(`  call ${clean(c.id ?? '?')}: ${clean(callWords(c))}${input}`);
  }
  const est = estimateWords(p.calls);
  if (p.calls.length > 1 && est) lines.push(`  in all: ${est}`);
  for (const t of p.terms) lines.push(`  ${clean(termsName(t))}${t.url ? `: ${clean(t.url)}` : ''}`);
  if (p.kind === 'terms') {
    lines.push(`  agree:   read the terms above, then: devindex agent start ${thread} --approve ${id} --accept-terms`);
  } else {
    lines.push(
      `  approve: devindex agent start ${thread} --approve ${id}${p.calls.length > 1 ? ' [--calls ID,ID]' : ''} [--always]`,
    );
  }
  lines.push(`  decline: devindex agent start ${thread} --decline ${id}`);
  return lines;
}

/** What a run paid for tool calls, and each provider it skipped with its terms and how to include it. */
function exchangeLines(x: AgentJobRecord['exchange']): string[] {
  const lines: string[] = [];
  const paid = paidWords(x ?? undefined);
  if (paid) lines.push(`paid calls:   ${clean(paid)}`);
  for (const sp of x?.skippedProviders ?? []) {
    lines.push(`skipped:      ${clean(skippedWords(sp))}`);
    if (sp.termsUrl) lines.push(`  terms: ${clean(sp.termsUrl)}`);
    lines.push('  to include it next time: accept its terms there, or start with --on-terms ask to be asked');
  }
  return lines;
}

/** A thread's turns, oldest first: turn, status, mode, job id, prompt. */
export function formatThread(t: AgentThread): string {
  const lines = [`thread ${clean(t.id)}: ${clean(t.status)}${t.expiresAt ? `, expires ${clean(t.expiresAt)}` : ''}`];
  if (t.runs.length === 0) lines.push('  no turns');
  for (const r of t.runs) {
    const prompt = clean(r.prompt ?? '').replace(/\s+/g, ' ');
    const shortPrompt = prompt.length > 60 ? `${prompt.slice(0, 59)}…` : prompt;
    lines.push(
      `  turn ${r.turn}  ${clean(r.status).padEnd(20)}  ${clean(r.mode ?? '-').padEnd(7)}  ${clean(r.id ?? '-')}  ${shortPrompt}`,
    );
  }
  lines.push(`Ask a follow-up: devindex agent start --thread ${shellQuote(t.id)} "<prompt>"`);
  return `${lines.join('\n')}\n`;
}

function timeOf(e: TraceEvent): string {
  const t = e.occurredAt ? new Date(e.occurredAt) : undefined;
  return t && !Number.isNaN(t.getTime()) ? t.toISOString().slice(11, 23) : '--:--:--.---';
}

/** Depth of an agent in the parent chain seen so far (0 for the orchestrator and the system agent). */
function depthOf(id: string | undefined, parents: Map<string, string | undefined>): number {
  let d = 0;
  const seen = new Set<string>();
  for (let cur = id ? parents.get(id) : undefined; cur && !seen.has(cur) && d < 10; cur = parents.get(cur)) {
    seen.add(cur);
    d++;
  }
  return d;
}

export function eventLine(e: TraceEvent, parents: Map<string, string | undefined>): string {
  const indent = '  '.repeat(depthOf(e.agent?.id, parents));
  const who = e.agent?.name ?? e.agent?.id ?? '?';
  const snapshot = e.artifact?.snapshotId ? ` (snapshot ${clean(e.artifact.snapshotId)})` : '';
  return `${timeOf(e)}  ${indent}${clean(who)}: ${clean(summarizeEvent(e))}${snapshot}\n`;
}

export function learnAgents(events: TraceEvent[], parents: Map<string, string | undefined>): void {
  for (const e of events) if (e.agent && !parents.has(e.agent.id)) parents.set(e.agent.id, e.agent.parentId);
}

export function formatTrace(events: TraceEvent[]): string {
  if (events.length === 0) return 'No events yet.\n';
  const parents = new Map<string, string | undefined>();
  const ordered = orderEvents(events);
  learnAgents(ordered, parents);
  // usage.recorded is bookkeeping: kept in --json, folded away here.
  return ordered
    .filter((e) => !isFoldedEvent(e))
    .map((e) => eventLine(e, parents))
    .join('');
}

/** The end of a followed run: the words the editor's notification uses, the data when it completed. */
export function finalWords(
  facts: RunFacts,
  submitted: AgentSubmitParams,
  record: AgentJobRecord | undefined,
  id: string,
): string {
  const view = { ...facts, prompt: submitted.prompt };
  const state = jobState(view);
  const ceiling = submitted.maxCredits ?? 2500;
  const msg = endMessage(view, state, { raiseCeiling: `start it again with --max-credits above ${ceiling}` });
  const lines = [clean(msg?.text ?? `The run ended with status ${facts.status}.`)];
  if (msg?.detail) lines.push(`The service said: ${clean(msg.detail)}`);
  if (state === 'completed' && typeof record?.message === 'string' && record.message)
    lines.push(clean(record.message).replace(/\s+$/, ''));
  else if (state === 'completed' && record?.data !== undefined && record.data !== null)
    lines.push(clean(boundedJson(record.data, 2)));
  lines.push(...exchangeLines(record?.exchange ?? facts.exchange));
  if (record?.suggestions?.length)
    lines.push(...suggestionLines(record.suggestions, record.threadId ?? facts.threadId));
  if (facts.threadId)
    lines.push(
      `Ask a follow-up: devindex agent start --thread ${shellQuote(facts.threadId)} "<prompt>" (or --continue)`,
    );
  // Production keeps what the run gathered until the job expires: said last, it is the next step.
  if (state === 'credit_limit_reached' && record?.partial !== undefined && record.partial !== null)
    lines.push(`What it gathered before it stopped is kept: devindex agent status ${id} --partial`);
  return `${lines.join('\n')}\n`;
}
