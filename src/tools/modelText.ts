// The text a language model reads back from a tool, shared by the editor's language-model tools and
// `devindex mcp`: results with kind, provenance, link, license and passages, then the coverage notes
// in plain words; errors that say what happened and how to fix the call. Bounded by a size budget
// that shortens passages before it drops results, and says what it cut. No vscode import.
import type { AgentJobRecord, AgentSnapshot, AgentTrace, PendingApproval, TraceEvent } from '../api/agent/agentSchemas';
import { ApiError } from '../api/errors';
import { approvalWords, callWords, isWaiting, paidWords, skippedWords, termsName } from '../api/agent/runOutcome';
import { untilWords } from '../api/waitWords';
import { noticeWords, requestIdWords, type DeprecationNotice } from '../api/notices';
import type { ParamIssue } from '../api/params';
import { clean, scrubSecret } from './text';
import { grouped } from '../api/grouped';

export type Surface = 'editor' | 'mcp';

export const DEFAULT_MAX_CHARS = 12_000;
export const MIN_MAX_CHARS = 2_000;
export const MAX_MAX_CHARS = 200_000;

/** A budget within the bounds; anything else gives the default. */
export function clampBudget(v: unknown): number {
  return typeof v === 'number' && Number.isInteger(v) && v >= MIN_MAX_CHARS && v <= MAX_MAX_CHARS ? v : DEFAULT_MAX_CHARS;
}

export { clean, scrubSecret };

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function shorten(text: string, cap: number): { text: string } {
  if (text.length <= cap) return { text };
  const slice = text.slice(0, cap);
  const at = slice.lastIndexOf(' ');
  return { text: `${(at > cap * 0.6 ? slice.slice(0, at) : slice).trimEnd()} […]` };
}
export { searchAnswer, searchText } from './searchAnswer';

/** Input problems found before anything was sent: every field, with its bound, and what to do. */
export function issuesText(issues: readonly ParamIssue[], what = 'input'): string {
  return [
    `Invalid ${what}; nothing was sent. Fix these fields and call the tool again:`,
    ...issues.map((i) => `- ${i.field}: ${clean(i.message)}`),
  ].join('\n');
}

function keyAdvice(surface: Surface): string {
  return surface === 'editor'
    ? 'Ask the user to run "Developer Index: Set API Key" with a valid key (or "Developer Index: Clear API Key": search works without a key, at a lower rate limit). Do not ask the user to paste the key into the chat.'
    : 'Set DEVINDEX_API_KEY in the MCP server\'s environment to a valid key (or unset it: search works without a key, at a lower rate limit), then restart the server. Never put the key in a tool call.';
}

function keylessWayOut(surface: Surface, signupUrl?: string): string {
  const set = surface === 'editor'
    ? 'ask the user to run "Developer Index: Set API Key". Do not ask the user to paste the key into the chat.'
    : 'ask the user to set DEVINDEX_API_KEY in the MCP server\'s environment and restart it. Never put the key in a tool call.';
  // The service's own sign-up link for this caller (checked: https, a plain host): the model hands it over as it is.
  return signupUrl
    ? `give the user this link, exactly as it is, to create an API key: ${signupUrl} . Then ${set}`
    : set;
}

/** Deprecation notices and service warnings for a model to pass on (notices.ts computes them; this only words them). */
export function noticesText(notices: readonly DeprecationNotice[], now = Date.now()): string {
  return notices.map((n) => `Service notice (tell the user; the answer above is complete): ${noticeWords(n, now)}${n.requestId ? ` (${requestIdWords(n.requestId)})` : ''}.`).join('\n');
}

function addressAdvice(surface: Surface): string {
  return surface === 'editor' ? 'the setting devIndex.baseUrl' : 'DEVINDEX_BASE_URL';
}

/**
 * Any failure as text for a model: what happened, then what to do. Validation problems list every
 * field and bound; 401 says how the key is set (never the key); 429 and network failures say when
 * and whether to try again.
 */
export function errorText(e: unknown, o: { surface: Surface; op: string; secret?: string }): string {
  const text = errorTextRaw(e, o);
  return scrubSecret(clean(text), o.secret);
}

function errorTextRaw(e: unknown, o: { surface: Surface; op: string }): string {
  if (!(e instanceof ApiError)) {
    return `${o.op} failed unexpectedly: ${e instanceof Error ? e.message : String(e)}. Try again once; if it fails again, tell the user.`;
  }
  if (e.kind === 'validation' && e.issues?.length) return issuesText(e.issues);
  if (e.kind === 'aborted') return `${o.op} was cancelled before it finished; nothing more was done.`;
  if (e.kind === 'timeout' || e.kind === 'network') {
    return `${o.op} failed: the service could not be reached (${e.message}). What to do: try again in a moment; if it keeps failing, ask the user to check the network and ${addressAdvice(o.surface)}.`;
  }
  if (e.kind === 'keyless-quota') {
    return `${o.op} was refused: ${e.message}. What to do: do not retry until then. The user can add an API key to keep searching now: ${keylessWayOut(o.surface, e.signupUrl)}`;
  }
  if (e.kind === 'keyless-refused') {
    return `${o.op} was refused: ${e.message}. What to do: do not retry; the user can add an API key, which works from any network: ${keylessWayOut(o.surface, e.signupUrl)}`;
  }
  if (e.kind === 'retry-after-too-long' || e.status === 429) {
    const wait = e.retryAfterMs === undefined ? ''
      : e.resetAt !== undefined && e.retryAfterMs > 90_000 ? ` The service asks to wait until ${untilWords(e.resetAt, Date.now())}.`
        : ` The service asks to wait ${Math.ceil(e.retryAfterMs / 1000)} s.`;
    return `${o.op} was refused: rate limited (HTTP 429, ${e.error ?? 'Rate limit exceeded'}).${wait} What to do: wait before calling again${wait ? ' for at least that long' : ' (a minute)'}, and make fewer calls; an API key raises the limit. Do not retry at once.`;
  }
  if (e.status === 401) {
    return `${o.op} was refused: the service did not accept the API key (HTTP 401 ${e.error ?? 'Unauthorized'}). What to do: ${keyAdvice(o.surface)}`;
  }
  if (e.status === 400 && Array.isArray(e.details) && e.details.length) {
    return `${o.op} was rejected as invalid by the service: ${e.message} Fix the named fields and call again.`;
  }
  return `${o.op} failed: ${e.message}`;
}

function eventWords(e: TraceEvent): string | undefined {
  switch (e.type) {
    case 'progress.reported': return e.message ? `progress${e.phase ? ` (${e.phase})` : ''}: ${e.message}` : undefined;
    case 'reasoning.summary': return e.text ? `reasoning: ${e.text}` : undefined;
    case 'run.finished': return `run finished: ${e.outcome ?? 'unknown outcome'}${e.error?.message ? ` (${e.error.message})` : ''}`;
    case 'error.occurred': return `error: ${e.error?.code ?? 'unknown'}${e.error?.message ? ` (${e.error.message})` : ''}${e.error?.retryable ? ', retryable' : ''}`;
    default: return undefined;
  }
}

/** A few lines about a trace: how many events, the latest words, the snapshots a model can read. */
export function traceSummary(trace: AgentTrace, o: { surface: Surface }): string {
  const events = trace.events;
  const lines: string[] = [`Trace: ${plural(events.length, 'event')}.`];
  const said = events.map(eventWords).filter((s): s is string => !!s).slice(-3);
  if (said.length) lines.push(...said.map((s) => `- ${shorten(clean(s), 300).text}`));
  const snaps = new Map<string, string>();
  for (const e of events) {
    const a = e.artifact;
    if (e.type === 'artifact.updated' && a?.snapshotId) snaps.set(a.snapshotId, `${a.kind}${a.artifactId ? ` "${a.artifactId}"` : ''}`);
  }
  if (snaps.size) {
    const list = [...snaps].slice(-5).map(([id, what]) => `${clean(id)} (${clean(what)})`);
    const how = o.surface === 'mcp' ? ' (read one with devIndex_readSnapshot)' : ' (open them from the Agent Jobs view)';
    lines.push(`Snapshots${how}: ${list.join(', ')}.`);
  }
  return lines.join('\n');
}

function jsonBlock(v: unknown, maxChars: number): string {
  const text = clean(JSON.stringify(v, null, 2) ?? 'null');
  const s = text.length > maxChars ? `${text.slice(0, maxChars)}\n… [cut at the size budget: ${grouped(text.length)} characters in all]` : text;
  return `\`\`\`json\n${s}\n\`\`\``;
}

/** Status, then result or reason, then the trace summary (or why there is none). */
export function jobStatusText(jobId: string, job: AgentJobRecord, trace: { trace?: AgentTrace; unavailable?: string }, o: { surface: Surface; maxChars: number }): string {
  // A run with an unanswered approval waits for the user, whatever its status says: said first.
  const waiting = isWaiting(job) ? job.pendingApproval ?? undefined : undefined;
  const lines: string[] = [waiting ? `Agent job ${jobId}: waiting for the user's approval (the service's status: ${clean(job.status)}).` : `Agent job ${jobId}: ${clean(job.status)}.`];
  if (job.creditsUsed !== undefined) lines.push(`Credits used: ${job.creditsUsed}${job.status === 'cancelled' && job.creditsUsed > 0 ? ' (spent before the cancel took effect)' : ''}.`);
  if (job.model) lines.push(`Model: ${clean(job.model)}.`);
  if (job.expiresAt) lines.push(`Expires: ${clean(job.expiresAt)} (the service forgets the job then; after that its status, result and snapshots are not found).`);
  if (job.threadId) lines.push(`Thread: ${clean(job.threadId)}${job.threadTurn !== undefined ? `, turn ${job.threadTurn}` : ''} (start a job with this threadId to ask a follow-up).`);
  if (waiting) {
    lines.push(`Waiting for the user: ${clean(approvalWords(waiting))}. It does not go on until the user answers; ${approvalAdvice(o.surface, job.threadId, waiting)}`);
    for (const c of waiting.calls) lines.push(`- call ${clean(c.id ?? '?')}: ${clean(callWords(c))}`);
    for (const t of waiting.terms) lines.push(`- ${clean(termsName(t))}${t.url ? `: ${clean(t.url)}` : ''}`);
  } else if (job.status === 'processing') lines.push('Still running: call devIndex_agentJobStatus again in a little while.');
  const paid = paidWords(job.exchange ?? undefined);
  if (paid) lines.push(`Paid tool calls: ${clean(paid)}.`);
  for (const sp of job.exchange?.skippedProviders ?? []) {
    lines.push(`${clean(skippedWords(sp))}${sp.termsUrl ? `; its terms: ${clean(sp.termsUrl)}` : ''}. Only the user can accept them; a later job can include it with onTermsRequired "ask".`);
  }
  if (job.error) lines.push(`Reason: ${clean(job.error)}`);
  const partial = (job as Record<string, unknown>).partial;
  const summary = trace.trace ? traceSummary(trace.trace, o) : trace.unavailable ? `Trace: ${clean(trace.unavailable)}` : '';
  const follow = job.suggestions?.length
    ? ['Suggested follow-ups (start a job with the prompt and this threadId):', ...job.suggestions.map((x) => `- ${clean(x.prompt).replace(/\s+/g, ' ').slice(0, 300)}`)].join('\n')
    : '';
  const room = Math.max(500, o.maxChars - lines.join('\n').length - summary.length - follow.length - 200);
  if (typeof job.message === 'string' && job.message) lines.push('Answer:', cutText(clean(job.message), room));
  else if (job.data !== undefined && job.data !== null) lines.push('Result data:', jsonBlock(job.data, room));
  else if (partial !== undefined && partial !== null) lines.push('Partial data gathered before it stopped:', jsonBlock(partial, room));
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
      ? 'only the user can accept data terms: show the user the terms below and ask them to read them and agree (or decline) on the job\'s row in the Agent Jobs view.'
      : `only the user can accept data terms: show the user the terms below and ask them to read them; to agree they run devindex agent start --thread ${threadId ?? 'THREAD'} --approve ${p.id} --accept-terms (or --decline ${p.id}).`;
  }
  return surface === 'editor'
    ? 'ask the user to Approve or Decline it on the job\'s row in the Agent Jobs view, or call devIndex_answerApproval (the user confirms it).'
    : `ask the user whether to approve; then call devIndex_answerApproval, or the user runs devindex agent start --thread ${threadId ?? 'THREAD'} --approve ${p.id} (or --decline ${p.id}).`;
}

/** Text cut at `max` characters, saying how much there was. */
function cutText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n(cut at the size budget: ${grouped(text.length)} characters in all)`;
}

export function jobStartedText(jobId: string, maxCredits: number | undefined, o: { surface: Surface }): string {
  const ceiling = maxCredits !== undefined ? ` with a ceiling of ${grouped(maxCredits)} credits` : '';
  const where = o.surface === 'editor' ? ' It also appears in the Agent Jobs view, where the user can follow or cancel it.' : '';
  return `Started agent job ${jobId}${ceiling}. It runs asynchronously; call devIndex_agentJobStatus with this jobId to read its progress and, once completed, its result.${where}`;
}

export function snapshotText(jobId: string, snap: AgentSnapshot & { snapshot: string }, o: { maxChars: number }): string {
  const body = clean(snap.snapshot);
  const cut = body.length > o.maxChars - 200;
  const shown = cut ? body.slice(0, Math.max(0, o.maxChars - 200)) : body;
  return `Snapshot ${clean(snap.snapshotId ?? '')} of agent job ${jobId}${cut ? ` (cut at the size budget: ${grouped(body.length)} characters in all)` : ''}:\n\`\`\`\n${shown}\n\`\`\``;
}
