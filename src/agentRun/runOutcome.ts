// How a run ended, in words every surface shares: its state (the service reports cancelled, refused and
// credit-limited runs all as `failed`; the trace's outcome says which), a job's short label, its credits, and the
// sentence said when a run ends. vscode-free and zod-free.
import { isTerminalStatus } from '../api/agent/agentConstants';
import type { RunFacts } from './runState';
import { isWaiting } from './approval';

/** What a surface knows about a run: the engine's facts, the prompt, and what the editor adds. */
export interface RunView extends RunFacts {
  prompt: string;
  notFound?: boolean;
  expired?: boolean;
  kept?: { result: boolean; partial: boolean };
}

export type JobState =
  | 'running'
  | 'waiting'
  | 'cancelling'
  | 'completed'
  | 'failed'
  | 'cancelled'
  | 'refused'
  | 'credit_limit_reached'
  | 'not_found'
  | 'expired'
  | 'unknown';

const OUTCOME_STATES: Record<string, JobState> = {
  succeeded: 'completed',
  completed: 'completed',
  cancelled: 'cancelled',
  refused: 'refused',
  credit_limit_reached: 'credit_limit_reached',
  failed: 'failed',
  internal: 'failed',
};

/**
 * The service reports cancelled, refused and credit-limited runs all as `failed`; the trace's
 * `run.finished` outcome says which. Without a trace, the status record's error message is the only
 * clue, so it is matched loosely.
 */
export function jobState(job: RunView): JobState {
  if (job.expired) return 'expired';
  if (job.notFound) return 'not_found';
  // A run with an unanswered approval waits for the caller, whatever its status or the trace say: a
  // turn can end waiting (`completed` with the approval unresolved), and the answer is its next turn.
  if (isWaiting(job) && !job.cancelRequested) return 'waiting';
  const byOutcome = job.outcome !== undefined ? outcomeState(job.outcome, job.errorCode) : undefined;
  if (byOutcome) return byOutcome;
  // A status this client does not know is not terminal: keep showing (and polling) it as running.
  if (!isTerminalStatus(job.status)) {
    if (job.cancelRequested || job.status === 'cancelling') return 'cancelling';
    return 'running';
  }
  if (job.status === 'completed') return 'completed';
  if (job.status === 'cancelled') return 'cancelled';
  if (job.status === 'failed') return failureFromMessage(job.errorCode, job.error);
  return 'unknown';
}

export function outcomeState(outcome: string, code: string | undefined): JobState | undefined {
  const s = OUTCOME_STATES[outcome];
  if (s === 'failed' && code && OUTCOME_STATES[code] && OUTCOME_STATES[code] !== 'completed')
    return OUTCOME_STATES[code];
  return s;
}

export function failureFromMessage(code: string | undefined, message: string | undefined): JobState {
  if (code && OUTCOME_STATES[code] && OUTCOME_STATES[code] !== 'completed') return OUTCOME_STATES[code];
  const m = message ?? '';
  if (/credit/i.test(m)) return 'credit_limit_reached';
  if (/cancel/i.test(m)) return 'cancelled';
  if (/refus|declin/i.test(m)) return 'refused';
  return 'failed';
}

/** A date as the rows and notifications show it: `Nov 24, 2026, 14:05`. */
export function shortDate(iso: string | undefined): string | undefined {
  const t = iso ? Date.parse(iso) : NaN;
  if (!Number.isFinite(t)) return undefined;
  return new Date(t).toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  });
}

/** The prompt on one line, cut at a word boundary. */
export function shortLabel(prompt: string, max = 60): string {
  const one = prompt.replace(/\s+/g, ' ').trim();
  if (one.length === 0) return '(no prompt)';
  if (one.length <= max) return one;
  const cut = one.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export function creditsText(job: RunView): string | undefined {
  if (job.creditsUsed === undefined && job.maxCredits === undefined) return undefined;
  const used = job.creditsUsed ?? 0;
  // A cancelled run may still be billed for what it did before the cancel took effect.
  if (jobState(job) === 'cancelled' && used > 0) return `${used} credits spent`;
  return job.maxCredits !== undefined ? `${used} / ${job.maxCredits} credits` : `${used} credits`;
}

/** Whether a partial result can be opened (from the service, or kept here). */
export function hasPartialResult(job: RunView): boolean {
  return job.hasPartial === true || job.kept?.partial === true;
}

/** Whether a result can be opened: a completed run, or an expired one whose result is kept here. */
export function hasResult(job: RunView): boolean {
  const state = jobState(job);
  return state === 'completed' || (state === 'expired' && job.kept?.result === true);
}

/**
 * What is said once when a run ends: `text` is one sentence of ours with the next step; `detail` is
 * the service's own reason (refused, failed), for surfaces with room for it (the CLI prints it, the
 * editor's job row has it in its tooltip). The notification shows `text` alone, so it never says the
 * same thing twice.
 */
export interface EndMessage {
  severity: 'info' | 'warning' | 'error';
  text: string;
  detail?: string;
}

/** The notification shown once when a run ends, in plain words and with the next step. */
interface EndWordsOptions {
  /** How this surface raises the credit ceiling, e.g. "start it again with --max-credits above 50". */
  raiseCeiling?: string;
}

/**
 * The end-of-run vocabulary, said once for every surface: what happened to a run that ended, whether
 * it is billed, and the next step. `endMessage` (the editor's notification, the CLI's last line) makes
 * sentences of it, `endClause` (a model's wait) clauses.
 */
const END_OF_RUN = {
  completed: { did: 'completed' },
  credit_limit_reached: { did: 'stopped at its credit ceiling', next: 'start it again with a higher ceiling' },
  cancelled: { did: 'was cancelled', billed: 'Cancelled runs are not billed.' },
  refused: { did: 'declined', next: 'rephrase the prompt and start it again' },
  failed: { did: 'failed with an internal error', next: 'starting it again may succeed' },
} as const;
const NOT_BILLED = 'not billed';

/** How a run ended, as a clause for a model that waited for it: "it completed", "the agent declined it (not billed; …)". */
export function endClause(state: JobState): string | undefined {
  switch (state) {
    case 'completed':
    case 'cancelled':
      return `it ${END_OF_RUN[state].did}`;
    case 'credit_limit_reached':
      return `it ${END_OF_RUN[state].did} (${NOT_BILLED}; what it gathered is below as partial data, if any)`;
    case 'refused':
      return `the agent ${END_OF_RUN[state].did} it (${NOT_BILLED}; ${END_OF_RUN[state].next})`;
    case 'failed':
      return `it ${END_OF_RUN[state].did} (${NOT_BILLED}; ${END_OF_RUN[state].next})`;
    default:
      return undefined;
  }
}

/** The sentence said once when a run ends, in plain words and with the next step. */
export function endMessage(
  job: RunView,
  state: JobState = jobState(job),
  o: EndWordsOptions = {},
): EndMessage | undefined {
  const name = `"${shortLabel(job.prompt, 40)}"`;
  const detail = job.error ? { detail: sentence(job.error) } : {};
  switch (state) {
    case 'completed': {
      const paid = paidWords(job.exchange);
      const skipped = (job.exchange?.skippedProviders ?? []).map((p) => p.name ?? p.provider ?? 'a provider');
      const skip = skipped.length
        ? ` It skipped ${skipped.join(', ')}: ${skipped.length === 1 ? 'its' : 'their'} data terms are not accepted.`
        : '';
      const credits = job.creditsUsed !== undefined ? ` using ${job.creditsUsed} credits` : '';
      return {
        severity: 'info',
        text: `Agent job ${name} ${END_OF_RUN.completed.did}${credits}${paid ? ` (${paid})` : ''}.${skip}`,
      };
    }
    case 'credit_limit_reached': {
      const raise = o.raiseCeiling ?? END_OF_RUN.credit_limit_reached.next;
      const ceiling =
        job.maxCredits !== undefined ? `its credit ceiling of ${job.maxCredits} credits` : 'its credit ceiling';
      const partial = hasPartialResult(job) ? ', keeping what it gathered as a partial result' : '';
      return {
        severity: 'warning',
        text: `Agent job ${name} stopped at ${ceiling} and is ${NOT_BILLED}${partial}; to let it go further, ${raise}.`,
      };
    }
    case 'cancelled': {
      const spent =
        job.creditsUsed !== undefined && job.creditsUsed > 0
          ? ` It used ${job.creditsUsed} credits before it stopped.`
          : ` ${END_OF_RUN.cancelled.billed}`;
      return { severity: 'info', text: `Agent job ${name} ${END_OF_RUN.cancelled.did}.${spent}` };
    }
    case 'refused':
      return {
        severity: 'warning',
        text: `The agent ${END_OF_RUN.refused.did} job ${name} and it is ${NOT_BILLED}; ${END_OF_RUN.refused.next}.`,
        ...detail,
      };
    case 'failed':
      return {
        severity: 'error',
        text: `Agent job ${name} ${END_OF_RUN.failed.did} and is ${NOT_BILLED}; ${END_OF_RUN.failed.next}.`,
        ...detail,
      };
    case 'not_found':
      return {
        severity: 'warning',
        text: `Agent job ${name} was not found on the service: it may have expired or belong to another team.`,
      };
    case 'expired': {
      const on = shortDate(job.expiresAt);
      const kept =
        job.kept?.result || job.kept?.partial
          ? ' Its result is kept in this editor and still opens.'
          : ' Nothing of it was kept in this editor.';
      return { severity: 'info', text: `Agent job ${name} expired on the service${on ? ` on ${on}` : ''}.${kept}` };
    }
    default:
      return undefined;
  }
}

function sentence(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim().slice(0, 300);
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

type Pending = NonNullable<RunView['pendingApproval']>;
type Call = Pending['calls'][number];
type Terms = Pending['terms'][number];

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A call as people read it: `github search_issues`, or its id when the service named nothing. */
export function callName(c: Call): string {
  const name = [c.provider, c.capability].filter((x): x is string => typeof x === 'string' && x.length > 0).join(' ');
  return name || c.id || 'a call';
}

/** One call with its estimate: `github search_issues (about 5 credits)` or `… (no estimate)`. */
export function callWords(c: Call): string {
  const est = typeof c.creditsEstimate === 'number' ? `about ${plural(c.creditsEstimate, 'credit')}` : 'no estimate';
  return `${callName(c)} (${est})`;
}

/**
 * The sum of the calls' estimates: "about 15 credits"; "at least 10 credits" when some call has no
 * estimate; undefined when none has one.
 */
export function estimateWords(calls: readonly Call[]): string | undefined {
  const known = calls.filter((c) => typeof c.creditsEstimate === 'number');
  if (!known.length) return undefined;
  const sum = known.reduce((n, c) => n + (c.creditsEstimate as number), 0);
  return `${known.length < calls.length ? 'at least' : 'about'} ${plural(sum, 'credit')}`;
}

/** A provider's terms in words: `GitHub data terms, version 2026-10`. */
export function termsName(t: Terms): string {
  return `${t.name ?? t.provider ?? 'a provider'} data terms${t.version ? `, version ${t.version}` : ''}`;
}

/**
 * What a waiting run waits for, in words: "approval of 2 paid calls (about 15 credits): github
 * search_issues, slack post_message", or "acceptance of GitHub data terms, version 3".
 */
export function approvalWords(p: Pending): string {
  if (p.kind === 'calls') {
    const n = p.calls.length;
    if (!n) return 'approval of its paid calls';
    const est = estimateWords(p.calls);
    return `approval of ${n === 1 ? 'a paid call' : `${n} paid calls`}${est ? ` (${est})` : ''}: ${p.calls.map(callName).join(', ')}`;
  }
  if (p.kind === 'terms') {
    if (!p.terms.length) return 'acceptance of data terms';
    return `acceptance of ${p.terms.map(termsName).join('; ')}`;
  }
  return `the caller (${p.kind})`;
}

type Exchange = NonNullable<RunView['exchange']>;

/** What a run paid for tool calls: "2 paid calls, 30 credits"; undefined when it made none and skipped none. */
export function paidWords(x: Exchange | undefined): string | undefined {
  if (!x || x.enabled === false) return undefined;
  const n = typeof x.paidCalls === 'number' ? x.paidCalls : undefined;
  if (n === undefined) return undefined;
  if (n === 0) return x.skippedProviders?.length ? 'no paid calls' : undefined;
  return `${plural(n, 'paid call')}${typeof x.creditsUsed === 'number' ? `, ${plural(x.creditsUsed, 'credit')}` : ''}`;
}

/** A provider a run skipped because its terms were not accepted: what it would have added, and where its terms are. */
export function skippedWords(sp: NonNullable<Exchange['skippedProviders']>[number]): string {
  const name = sp.name ?? sp.provider ?? 'a provider';
  const adds = sp.adds ? ` (it would have added: ${sp.adds})` : '';
  return `${name} was skipped: its data terms${sp.version ? ` (version ${sp.version})` : ''} are not accepted${adds}`;
}

/** Whether a run's result is an answer in words (chat mode) rather than data. */
export function isChat(job: Pick<RunView, 'mode' | 'answer'>): boolean {
  return job.mode === 'chat' || job.answer !== undefined;
}
