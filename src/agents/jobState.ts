// How a job and an agent look: state, icon, description, contextValue, and the words of the
// end-of-run notification. vscode-free: icons are codicon ids and theme colour ids that the node
// classes turn into ThemeIcons.
import type { AgentJob } from './jobModel';
import { isTerminalStatus } from './jobModel';
import type { AgentNode } from '../api/agentTrace';

export type JobState =
  | 'running' | 'cancelling' | 'completed' | 'failed' | 'cancelled' | 'refused'
  | 'credit_limit_reached' | 'not_found' | 'expired' | 'unknown';

export type AgentState = JobState | 'parent_finished';

export interface IconSpec { id: string; color?: string }

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
export function jobState(job: AgentJob): JobState {
  if (job.expired) return 'expired';
  if (job.notFound) return 'not_found';
  const byOutcome = job.outcome !== undefined ? outcomeState(job.outcome, job.errorCode) : undefined;
  if (byOutcome) return byOutcome;
  // A status this client does not know is not terminal: keep showing (and polling) it as running.
  if (!isTerminalStatus(job.status)) return job.cancelRequested || job.status === 'cancelling' ? 'cancelling' : 'running';
  if (job.status === 'completed') return 'completed';
  if (job.status === 'cancelled') return 'cancelled';
  if (job.status === 'failed') return failureFromMessage(job.errorCode, job.error);
  return 'unknown';
}

function outcomeState(outcome: string, code: string | undefined): JobState | undefined {
  const s = OUTCOME_STATES[outcome];
  if (s === 'failed' && code && OUTCOME_STATES[code] && OUTCOME_STATES[code] !== 'completed') return OUTCOME_STATES[code];
  return s;
}

function failureFromMessage(code: string | undefined, message: string | undefined): JobState {
  if (code && OUTCOME_STATES[code] && OUTCOME_STATES[code] !== 'completed') return OUTCOME_STATES[code];
  const m = message ?? '';
  if (/credit/i.test(m)) return 'credit_limit_reached';
  if (/cancel/i.test(m)) return 'cancelled';
  if (/refus|declin/i.test(m)) return 'refused';
  return 'failed';
}

/**
 * How an agent ended, from its `agent.finished` event; the system agent, which reports the run's own
 * end instead, from its `run.finished`.
 */
export function agentState(node: AgentNode, jobRunning: boolean): AgentState {
  const finished = node.events.find((e) => e.type === 'agent.finished') ?? node.events.find((e) => e.type === 'run.finished');
  if (!finished) return jobRunning ? 'running' : 'unknown';
  const code = finished.error?.code;
  if (code === 'parent_finished') return 'parent_finished';
  const outcome = finished.outcome;
  return (outcome !== undefined ? outcomeState(outcome, code) : undefined) ?? (code ? failureFromMessage(code, undefined) : 'completed');
}

const ICONS: Record<AgentState, IconSpec> = {
  running: { id: 'sync~spin' },
  cancelling: { id: 'loading~spin', color: 'charts.orange' },
  completed: { id: 'pass', color: 'testing.iconPassed' },
  failed: { id: 'error', color: 'testing.iconFailed' },
  cancelled: { id: 'circle-slash', color: 'disabledForeground' },
  refused: { id: 'thumbsdown', color: 'charts.orange' },
  credit_limit_reached: { id: 'credit-card', color: 'charts.yellow' },
  not_found: { id: 'question', color: 'disabledForeground' },
  expired: { id: 'history', color: 'disabledForeground' },
  parent_finished: { id: 'debug-step-out', color: 'disabledForeground' },
  unknown: { id: 'circle-large-outline' },
};

export function stateIcon(state: AgentState): IconSpec {
  return ICONS[state];
}

const STATE_WORDS: Record<AgentState, string> = {
  running: 'running',
  cancelling: 'cancelling',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  refused: 'refused',
  credit_limit_reached: 'credit limit reached',
  not_found: 'not found',
  expired: 'expired',
  parent_finished: 'stopped: parent finished',
  unknown: 'unknown',
};

// `cancelling` is not in the addendum but the sandbox (and likely the service) reports it after a cancel.
const KNOWN_STATUSES = new Set(['processing', 'cancelling', 'completed', 'failed', 'cancelled']);

/** A date as the rows and notifications show it: `Nov 24, 2026, 14:05`. */
export function shortDate(iso: string | undefined): string | undefined {
  const t = iso ? Date.parse(iso) : NaN;
  if (!Number.isFinite(t)) return undefined;
  return new Date(t).toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });
}

/** State in words; a status value this client does not know is shown raw beside it. */
export function stateWords(state: AgentState, rawStatus?: string): string {
  const words = STATE_WORDS[state];
  return rawStatus !== undefined && !KNOWN_STATUSES.has(rawStatus) ? `${words} (${rawStatus})` : words;
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

export function creditsText(job: AgentJob): string | undefined {
  if (job.creditsUsed === undefined && job.maxCredits === undefined) return undefined;
  const used = job.creditsUsed ?? 0;
  // A cancelled run may still be billed for what it did before the cancel took effect.
  if (jobState(job) === 'cancelled' && used > 0) return `${used} credits spent`;
  return job.maxCredits !== undefined ? `${used} / ${job.maxCredits} credits` : `${used} credits`;
}

/** Whether a partial result can be opened (from the service, or kept here). */
export function hasPartialResult(job: AgentJob): boolean {
  return job.hasPartial === true || job.kept?.partial === true;
}

/** Whether a result can be opened: a completed run, or an expired one whose result is kept here. */
export function hasResult(job: AgentJob): boolean {
  const state = jobState(job);
  return state === 'completed' || (state === 'expired' && job.kept?.result === true);
}

export function jobDescription(job: AgentJob): string {
  const state = jobState(job);
  if (state === 'expired') {
    const on = shortDate(job.expiresAt);
    const kept = job.kept?.result ? 'result kept' : job.kept?.partial ? 'partial result kept' : 'nothing kept';
    return [`expired${on ? ` on ${on}` : ''}`, kept].join(' · ');
  }
  const parts = [stateWords(state, job.status)];
  const credits = creditsText(job);
  if (credits) parts.push(credits);
  if (hasPartialResult(job)) parts.push('partial result');
  return parts.join(' · ');
}

/** Matched in package.json with e.g. `viewItem =~ /;cancellable(;|$)/`. */
export function jobContextValue(job: AgentJob): string {
  const state = jobState(job);
  const parts = ['job', state];
  if (state === 'running') parts.push('cancellable');
  if (hasResult(job)) parts.push('result');
  if (hasPartialResult(job)) parts.push('partial');
  if (!job.notFound && !job.expired && !job.trace.unavailable) parts.push('trace');
  return parts.join(';');
}

export const OPEN_RESULT = 'Open Result';
export const OPEN_PARTIAL = 'Open Partial Result';
export const SHOW_IN_TREE = 'Show in Tree';
export const START_AGAIN = 'Start Again…';

/** The buttons of the end notification, most useful first. */
export function endActions(job: AgentJob, state: JobState = jobState(job)): string[] {
  switch (state) {
    case 'completed': return [OPEN_RESULT, SHOW_IN_TREE];
    case 'credit_limit_reached': return hasPartialResult(job) ? [OPEN_PARTIAL, START_AGAIN] : [START_AGAIN, SHOW_IN_TREE];
    case 'refused':
    case 'failed': return [START_AGAIN, SHOW_IN_TREE];
    case 'cancelled': return hasPartialResult(job) ? [OPEN_PARTIAL, SHOW_IN_TREE] : [SHOW_IN_TREE];
    case 'expired': return hasResult(job) ? [OPEN_RESULT] : hasPartialResult(job) ? [OPEN_PARTIAL] : [];
    default: return [SHOW_IN_TREE];
  }
}


export interface EndMessage { severity: 'info' | 'warning' | 'error'; text: string }

/** The notification shown once when a run ends, in plain words and with the next step. */
export function endMessage(job: AgentJob, state: JobState = jobState(job)): EndMessage | undefined {
  const name = `"${shortLabel(job.prompt, 40)}"`;
  const detail = job.error ? ` ${sentence(job.error)}` : '';
  switch (state) {
    case 'completed':
      return { severity: 'info', text: `Agent job ${name} completed${job.creditsUsed !== undefined ? ` using ${job.creditsUsed} credits` : ''}.` };
    case 'credit_limit_reached': {
      const ceiling = job.maxCredits !== undefined ? `its credit ceiling of ${job.maxCredits} credits` : 'its credit ceiling';
      const partial = hasPartialResult(job) ? ' What it gathered so far is in its partial result.' : '';
      return {
        severity: 'warning',
        text: `Agent job ${name} stopped: it reached ${ceiling}.${partial} Failed runs are not billed. To let it go further, start it again with a higher ceiling (the default is the setting devIndex.agent.defaultMaxCredits).`,
      };
    }
    case 'cancelled': {
      const spent = job.creditsUsed !== undefined && job.creditsUsed > 0
        ? ` It used ${job.creditsUsed} credits before it stopped.` : ' Cancelled runs are not billed.';
      return { severity: 'info', text: `Agent job ${name} was cancelled.${spent}` };
    }
    case 'refused':
      return { severity: 'warning', text: `The agent declined job ${name}.${detail} Refused runs are not billed; rephrase the prompt and start it again.` };
    case 'failed':
      return { severity: 'error', text: `Agent job ${name} failed with an internal error.${detail} Failed runs are not billed; starting it again may succeed.` };
    case 'not_found':
      return { severity: 'warning', text: `Agent job ${name} was not found on the service: it may have expired or belong to another team.` };
    case 'expired': {
      const on = shortDate(job.expiresAt);
      const kept = job.kept?.result || job.kept?.partial ? ' Its result is kept in this editor and still opens.' : ' Nothing of it was kept in this editor.';
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
