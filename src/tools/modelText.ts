// The text a model reads back from a tool (the editor's language-model tools and `devindex mcp`): errors that say
// what happened and how to fix the call, notices, agent jobs and snapshots, within a size budget that says what it
// cut. No vscode import.
import type { AgentJobRecord, AgentSnapshot, AgentTrace, TraceEvent } from '../api/agent/agentSchemas';
import type { PendingApproval } from '../api/agent/exchangeSchemas';
import { failureOf } from '../api/failure';
import { modelWords } from '../words/failureWords';
import { approvalWords, callWords, paidWords, skippedWords, termsName } from '../agentRun/runOutcome';
import { isWaiting } from '../agentRun/approval';
import { noticeWords, requestIdWords, type DeprecationNotice } from '../api/notices';
import { withoutControls } from '../words/controls';
import { grouped } from '../words/duration';

/** Untrusted text as plain lines: control characters (terminal escapes included) removed, newlines kept. */
export function clean(s: string): string {
  return withoutControls(s);
}

export type Surface = 'editor' | 'mcp';

export const DEFAULT_MAX_CHARS = 12_000;
export const MIN_MAX_CHARS = 2_000;
export const MAX_MAX_CHARS = 200_000;

/** A budget within the bounds; anything else gives the default. */
export function clampBudget(v: unknown): number {
  return typeof v === 'number' && Number.isInteger(v) && v >= MIN_MAX_CHARS && v <= MAX_MAX_CHARS
    ? v
    : DEFAULT_MAX_CHARS;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function shorten(text: string, cap: number): { text: string } {
  if (text.length <= cap) return { text };
  const slice = text.slice(0, cap);
  const at = slice.lastIndexOf(' ');
  return { text: `${(at > cap * 0.6 ? slice.slice(0, at) : slice).trimEnd()} […]` };
}

/** Deprecation notices and service warnings for a model to pass on (notices.ts computes them; this only words them). */
export function noticesText(notices: readonly DeprecationNotice[], now = Date.now()): string {
  return notices
    .map(
      (n) =>
        `Service notice (tell the user; the answer above is ` +
        `complete): ${noticeWords(n, now)}${n.requestId ? ` (${requestIdWords(n.requestId)})` : ''}.`,
    )
    .join('\n');
}

/**
 * Any failure as text for a model: what happened, then what to do (src/words/failureWords.ts, the
 * model's table). Validation problems list every field and bound; 401 says how the key is set (never
 * the key); 429 and network failures say when and whether to try again.
 */
export function errorText(e: unknown, o: { surface: Surface; op: string; secret?: string }): string {
  return modelWords(failureOf(e), { host: o.surface, op: o.op, secret: o.secret });
}

function eventWords(e: TraceEvent): string | undefined {
  switch (e.type) {
    case 'progress.reported':
      return e.message ? `progress${e.phase ? ` (${e.phase})` : ''}: ${e.message}` : undefined;
    case 'reasoning.summary':
      return e.text ? `reasoning: ${e.text}` : undefined;
    case 'run.finished':
      return `run finished: ${e.outcome ?? 'unknown outcome'}${e.error?.message ? ` (${e.error.message})` : ''}`;
    case 'error.occurred':
      return (
        `error: ${e.error?.code ?? 'unknown'}${e.error?.message ? ` (${e.error.message})` : ''}` +
        (e.error?.retryable ? ', retryable' : '')
      );
    default:
      return undefined;
  }
}

/** A few lines about a trace: how many events, the latest words, the snapshots a model can read. */
export function traceSummary(trace: AgentTrace, o: { surface: Surface }): string {
  const events = trace.events;
  const lines: string[] = [`Trace: ${plural(events.length, 'event')}.`];
  const said = events
    .map(eventWords)
    .filter((s): s is string => !!s)
    .slice(-3);
  if (said.length) lines.push(...said.map((s) => `- ${shorten(clean(s), 300).text}`));
  const snaps = new Map<string, string>();
  for (const e of events) {
    const a = e.artifact;
    if (e.type === 'artifact.updated' && a?.snapshotId)
      snaps.set(a.snapshotId, `${a.kind}${a.artifactId ? ` "${a.artifactId}"` : ''}`);
  }
  if (snaps.size) {
    const list = [...snaps].slice(-5).map(([id, what]) => `${clean(id)} (${clean(what)})`);
    const how =
      o.surface === 'mcp' ? ' (read one with devIndex_readSnapshot)' : ' (open them from the Agent Jobs view)';
    lines.push(`Snapshots${how}: ${list.join(', ')}.`);
  }
  return lines.join('\n');
}

function jsonBlock(v: unknown, maxChars: number): string {
  const text = clean(JSON.stringify(v, null, 2) ?? 'null');
  const s =
    text.length > maxChars
      ? `${text.slice(0, maxChars)}\n… [cut at the size budget: ${grouped(text.length)} characters in all]`
      : text;
  return `\`\`\`json\n${s}\n\`\`\``;
}

/** Status, then result or reason, then the trace summary (or why there is none). */
export function jobStatusText(
  jobId: string,
  job: AgentJobRecord,
  trace: { trace?: AgentTrace; unavailable?: string },
  o: { surface: Surface; maxChars: number },
): string {
  // A run with an unanswered approval waits for the user, whatever its status says: said first.
  const waiting = isWaiting(job) ? (job.pendingApproval ?? undefined) : undefined;
  const lines: string[] = [
    waiting
      ? `Agent job ${jobId}: waiting for the user's approval (the service's status: ${clean(job.status)}).`
      : `Agent job ${jobId}: ${clean(job.status)}.`,
  ];
  if (job.creditsUsed !== undefined)
    lines.push(
      `Credits used: ${job.creditsUsed}` +
        `${job.status === 'cancelled' && job.creditsUsed > 0 ? ' (spent before the cancel took effect)' : ''}.`,
    );
  if (job.model) lines.push(`Model: ${clean(job.model)}.`);
  if (job.expiresAt)
    lines.push(
      `Expires: ${clean(job.expiresAt)} (the service forgets the job then; after that its status, result and snapshots are not found).`,
    );
  if (job.threadId)
    lines.push(
      `Thread: ${clean(job.threadId)}${job.threadTurn !== undefined ? `, turn ${job.threadTurn}` : ''} ` +
        `(start a job with this threadId to ask a follow-up).`,
    );
  if (waiting) {
    lines.push(
      `Waiting for the user: ${clean(approvalWords(waiting))}. ` +
        `It does not go on until the user answers; ${approvalAdvice(o.surface, job.threadId, waiting)}`,
    );
    for (const c of waiting.calls) lines.push(`- call ${clean(c.id ?? '?')}: ${clean(callWords(c))}`);
    for (const t of waiting.terms) lines.push(`- ${clean(termsName(t))}${t.url ? `: ${clean(t.url)}` : ''}`);
  } else if (job.status === 'processing')
    lines.push('Still running: call devIndex_agentJobStatus again in a little while.');
  const paid = paidWords(job.exchange ?? undefined);
  if (paid) lines.push(`Paid tool calls: ${clean(paid)}.`);
  for (const sp of job.exchange?.skippedProviders ?? []) {
    lines.push(
      `${clean(skippedWords(sp))}${sp.termsUrl ? `; its terms: ${clean(sp.termsUrl)}` : ''}. ` +
        `Only the user can accept them; a later job can include it with onTermsRequired "ask".`,
    );
  }
  if (job.error) lines.push(`Reason: ${clean(job.error)}`);
  const partial = (job as Record<string, unknown>).partial;
  const summary = trace.trace
    ? traceSummary(trace.trace, o)
    : trace.unavailable
      ? `Trace: ${clean(trace.unavailable)}`
      : '';
  const follow = job.suggestions?.length
    ? [
        'Suggested follow-ups (start a job with the prompt and this threadId):',
        ...job.suggestions.map((x) => `- ${clean(x.prompt).replace(/\s+/g, ' ').slice(0, 300)}`),
      ].join('\n')
    : '';
  const room = Math.max(500, o.maxChars - lines.join('\n').length - summary.length - follow.length - 200);
  if (typeof job.message === 'string' && job.message) lines.push('Answer:', cutText(clean(job.message), room));
  else if (job.data !== undefined && job.data !== null) lines.push('Result data:', jsonBlock(job.data, room));
  else if (partial !== undefined && partial !== null)
    lines.push('Partial data gathered before it stopped:', jsonBlock(partial, room));
  if (follow) lines.push(follow);
  if (summary) lines.push(summary);
  return lines.join('\n');
}

/**
 * How a waiting run is answered. Terms are the user's alone to accept: the model is told to show the
 * terms and leave the decision to the user. Calls: the user answers, or the model asks with
 * devIndex_answerApproval (the editor asks the user to confirm it).
 */
function approvalAdvice(surface: Surface, threadId: string | undefined, p: PendingApproval): string {
  if (p.kind === 'terms') {
    return surface === 'editor'
      ? 'only the user can accept data terms: show the user the terms below and ask them to read ' +
          "them and agree (or decline) on the job's row in the Agent Jobs view."
      : `only the user can accept data terms: show the user the terms below and ask them to read ` +
          `them; to agree they run devindex agent start --thread ${threadId ?? 'THREAD'} ` +
          `--approve ${p.id} --accept-terms (or --decline ${p.id}).`;
  }
  return surface === 'editor'
    ? "ask the user to Approve or Decline it on the job's row in the Agent Jobs view, " +
        'or call devIndex_answerApproval (the user confirms it).'
    : `ask the user whether to approve; then call devIndex_answerApproval, ` +
        `or the user runs devindex agent start --thread ${threadId ?? 'THREAD'} --approve ${p.id} ` +
        `(or --decline ${p.id}).`;
}

/** Text cut at `max` characters, saying how much there was. */
function cutText(text: string, max: number): string {
  return text.length <= max
    ? text
    : `${text.slice(0, max)}\n(cut at the size budget: ${grouped(text.length)} characters in all)`;
}

export function jobStartedText(jobId: string, maxCredits: number | undefined, o: { surface: Surface }): string {
  const ceiling = maxCredits !== undefined ? ` with a ceiling of ${grouped(maxCredits)} credits` : '';
  const where =
    o.surface === 'editor' ? ' It also appears in the Agent Jobs view, where the user can follow or cancel it.' : '';
  return (
    `Started agent job ${jobId}${ceiling}. It runs asynchronously; ` +
    `call devIndex_agentJobStatus with this jobId to read its progress and, once completed, ` +
    `its result.${where}`
  );
}

export function snapshotText(
  jobId: string,
  snap: AgentSnapshot & { snapshot: string },
  o: { maxChars: number },
): string {
  const body = clean(snap.snapshot);
  const cut = body.length > o.maxChars - 200;
  const shown = cut ? body.slice(0, Math.max(0, o.maxChars - 200)) : body;
  const cutWords = cut ? ` (cut at the size budget: ${grouped(body.length)} characters in all)` : '';
  return `Snapshot ${clean(snap.snapshotId ?? '')} of agent job ${jobId}${cutWords}:\n\`\`\`\n${shown}\n\`\`\``;
}
