// How a job and an agent look: state, icon, description, contextValue, and the words of the
// end-of-run notification. vscode-free: icons are codicon ids and theme colour ids that the node
// classes turn into ThemeIcons.
import {
  approvalWords,
  creditsText,
  endMessage,
  type EndMessage,
  failureFromMessage,
  hasPartialResult,
  hasResult,
  isChat,
  jobState,
  type JobState,
  outcomeState,
  paidWords,
  shortDate,
  shortLabel,
} from '../agentRun/runOutcome';
import { isTerminalStatus } from '../api/agent/agentConstants';
import type { AgentJob } from './jobModel';
import { durationWords } from '../words/duration';

export {
  approvalWords,
  creditsText,
  type EndMessage,
  hasPartialResult,
  isChat,
  jobState,
  type JobState,
  shortDate,
  shortLabel,
};

/**
 * Whether data can be opened (Open Result): a completed data run, or an expired one whose result is kept.
 * A chat run's result is its answer (hasAnswer); runOutcome's hasResult is either.
 */
export function hasDataResult(job: AgentJob): boolean {
  return hasResult(job) && !(isChat(job) && job.kept?.result !== true);
}

/** Whether a chat answer can be opened: a completed chat run, or one whose answer is kept here (also after expiry). */
export function hasAnswer(job: AgentJob): boolean {
  const state = jobState(job);
  return job.kept?.answer === true || (state === 'completed' && isChat(job));
}

/** Whether a follow-up can be asked in the job's thread: the run has ended and the service still has it. */
export function canFollowUp(job: AgentJob): boolean {
  const state = jobState(job);
  return (
    job.threadId !== undefined &&
    !job.expired &&
    !job.notFound &&
    (state === 'completed' ||
      state === 'failed' ||
      state === 'refused' ||
      state === 'cancelled' ||
      state === 'credit_limit_reached')
  );
}

/** The words of a waiting run: "waiting for approval of 2 calls: github.create_issue, github.add_labels". */
export function waitingWords(job: AgentJob): string {
  return job.pendingApproval ? `waiting for ${approvalWords(job.pendingApproval)}` : STATE_WORDS.waiting;
}

/** The editor's end-of-run sentence: runOutcome's endMessage, with the editor's way to raise the ceiling. */
export function editorEndMessage(job: AgentJob, state: JobState = jobState(job)): EndMessage | undefined {
  return endMessage(job, state, {
    raiseCeiling: 'start it again with a higher ceiling (Start Again… offers twice this one)',
  });
}
import type { AgentGroup } from '../agentRun/agentTrace';

export type AgentState = JobState | 'parent_finished';

export interface IconSpec {
  id: string;
  color?: string;
}

/**
 * How an agent ended, from its `agent.finished` event; the system agent, which reports the run's own
 * end instead, from its `run.finished`.
 */
export function agentState(node: AgentGroup, jobRunning: boolean): AgentState {
  const finished =
    node.events.find((e) => e.type === 'agent.finished') ?? node.events.find((e) => e.type === 'run.finished');
  if (!finished) return jobRunning ? 'running' : 'unknown';
  const code = finished.error?.code;
  if (code === 'parent_finished') return 'parent_finished';
  const outcome = finished.outcome;
  return (
    (outcome !== undefined ? outcomeState(outcome, code) : undefined) ??
    (code ? failureFromMessage(code, undefined) : 'completed')
  );
}

const ICONS: Record<AgentState, IconSpec> = {
  running: { id: 'sync~spin' },
  waiting: { id: 'bell-dot', color: 'charts.yellow' },
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
  waiting: 'waiting for your approval',
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

/** State in words; a status value this client does not know is shown raw beside it. */
export function stateWords(state: AgentState, rawStatus?: string): string {
  const words = STATE_WORDS[state];
  return rawStatus !== undefined && !KNOWN_STATUSES.has(rawStatus) ? `${words} (${rawStatus})` : words;
}

/** How long a run took (or has taken so far): `45 s`, `3 min`, `1 h 5 min`. */
function durationText(job: AgentJob, now: number): string | undefined {
  const end =
    jobState(job) === 'running' || jobState(job) === 'waiting' || jobState(job) === 'cancelling'
      ? now
      : Date.parse(job.trace.lastEventAt ?? '');
  const ms = end - job.createdAt;
  if (!Number.isFinite(ms) || ms < 0 || job.createdAt <= 0) return undefined;
  return durationWords(ms, { upTo: 60, largest: 'h' });
}

/** State first, then duration and credits: `running · 2 min · 7 / 300 credits`. */
export function jobDescription(job: AgentJob, now?: number): string {
  const state = jobState(job);
  if (state === 'expired') {
    const on = shortDate(job.expiresAt);
    const kept = job.kept?.answer
      ? 'answer kept'
      : job.kept?.result
        ? 'result kept'
        : job.kept?.partial
          ? 'partial result kept'
          : 'nothing kept';
    return [`expired${on ? ` on ${on}` : ''}`, kept].join(' · ');
  }
  const parts = [state === 'waiting' ? waitingWords(job) : stateWords(state, job.status)];
  const took = now !== undefined ? durationText(job, now) : undefined;
  if (took) parts.push(took);
  const credits = creditsText(job);
  if (credits) parts.push(credits);
  const paid = paidWords(job.exchange);
  if (paid) parts.push(paid);
  if (hasPartialResult(job)) parts.push('partial result');
  return parts.join(' · ');
}

/** Matched in package.json with e.g. `viewItem =~ /;cancellable(;|$)/`. */
export function jobContextValue(job: AgentJob): string {
  const state = jobState(job);
  const parts = ['job', state];
  // A turn that ended waiting (its status final) has nothing left to cancel: it is answered instead.
  if (state === 'running' || (state === 'waiting' && !isTerminalStatus(job.status))) parts.push('cancellable');
  if (state === 'waiting' && job.threadId) parts.push('approvable');
  if (hasAnswer(job)) parts.push('answer');
  if (hasDataResult(job)) parts.push('result');
  if (hasPartialResult(job)) parts.push('partial');
  if (!job.notFound && !job.expired && !job.trace.unavailable) parts.push('trace');
  if (canFollowUp(job)) parts.push('followup');
  return parts.join(';');
}

export const OPEN_RESULT = 'Open Result';
export const OPEN_PARTIAL = 'Open Partial Result';
export const SHOW_IN_TREE = 'Show in Tree';
export const START_AGAIN = 'Start Again…';
export const OPEN_ANSWER = 'Open Answer';
export const ASK_FOLLOW_UP = 'Ask a Follow-up…';

/** The buttons of the end notification, most useful first. */
export function endActions(job: AgentJob, state: JobState = jobState(job)): string[] {
  switch (state) {
    case 'completed':
      if (hasAnswer(job))
        return canFollowUp(job) ? [OPEN_ANSWER, ASK_FOLLOW_UP, SHOW_IN_TREE] : [OPEN_ANSWER, SHOW_IN_TREE];
      return [OPEN_RESULT, SHOW_IN_TREE];
    case 'credit_limit_reached':
      return hasPartialResult(job) ? [OPEN_PARTIAL, START_AGAIN] : [START_AGAIN, SHOW_IN_TREE];
    case 'refused':
    case 'failed':
      return [START_AGAIN, SHOW_IN_TREE];
    case 'cancelled':
      return hasPartialResult(job) ? [OPEN_PARTIAL, SHOW_IN_TREE] : [SHOW_IN_TREE];
    case 'expired':
      return hasAnswer(job)
        ? [OPEN_ANSWER]
        : hasDataResult(job)
          ? [OPEN_RESULT]
          : hasPartialResult(job)
            ? [OPEN_PARTIAL]
            : [];
    default:
      return [SHOW_IN_TREE];
  }
}

/**
 * A tree row's accessible name, state first: a screen reader says what changed before what
 * it is. `description` is the row's own, state first and ` · `-separated (`running · 2 min · 7 / 300
 * credits`); `what` names the row. `Running: agent job Find the retry docs, 2 min, 7 / 300 credits`.
 */
export function stateFirstLabel(description: string, what: string): string {
  const [state = '', ...rest] = description.split(' · ');
  const head = state ? `${state.charAt(0).toUpperCase()}${state.slice(1)}` : 'Unknown';
  return [`${head}: ${what}`, ...rest].join(', ');
}

/** A job row's accessible name: `Completed: agent job turn 2, <prompt>, 12 s, 7 / 900 credits`. */
export function jobAccessibleLabel(job: AgentJob, now: number, turn?: number): string {
  const prompt = job.prompt || (job.origin === 'service' ? '(started elsewhere)' : '');
  return stateFirstLabel(
    jobDescription(job, now),
    `agent job ${turn !== undefined ? `turn ${turn}, ` : ''}${shortLabel(prompt, 80)}`,
  );
}
