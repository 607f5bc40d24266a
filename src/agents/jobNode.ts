// A job in the Agent Jobs tree. One instance per job for the life of the provider, updated in place,
// so the provider can refresh exactly this node when the store says the job changed.
import * as vscode from 'vscode';
import type { AgentJob } from './jobModel';
import { callWords, paidWords, skippedWords, termsName } from '../agentRun/runOutcome';
import { isWaiting } from '../agentRun/approval';
import {
  approvalWords,
  creditsText,
  jobAccessibleLabel,
  jobContextValue,
  jobDescription,
  jobState,
  shortLabel,
  stateFirstLabel,
  stateIcon,
  stateWords,
  waitingWords,
} from './jobState';
import { latestTurn, threadDescription, turnNumber } from './threadGroups';

export function themeIcon(spec: { id: string; color?: string }): vscode.ThemeIcon {
  return new vscode.ThemeIcon(spec.id, spec.color ? new vscode.ThemeColor(spec.color) : undefined);
}

/**
 * A job row's label: the prompt cut at a word boundary, short enough that the state beside it stays visible at the
 * default side bar width (300 px).
 */
const JOB_LABEL_CHARS = 22;

export class JobNode extends vscode.TreeItem {
  readonly kind = 'job' as const;

  /** `turn`: the job is a turn of a thread, shown under the thread's row as "n. prompt". */
  constructor(
    readonly jobId: string,
    job: AgentJob,
    readonly turn?: number,
  ) {
    super(shortLabel(job.prompt, JOB_LABEL_CHARS), vscode.TreeItemCollapsibleState.Collapsed);
    this.id = `job:${jobId}`;
    this.update(job);
  }

  update(job: AgentJob, turn = this.turn): void {
    const state = jobState(job);
    const prompt = job.prompt || (job.origin === 'service' ? '(started elsewhere)' : '');
    // A turn sits one level deeper: its number and a shorter prompt keep its state in view at 300 px.
    this.label =
      turn !== undefined ? `${turn}. ${shortLabel(prompt, JOB_LABEL_CHARS - 6)}` : shortLabel(prompt, JOB_LABEL_CHARS);
    const now = Date.now();
    this.description = jobDescription(job, now);
    this.iconPath = themeIcon(stateIcon(state));
    this.contextValue = jobContextValue(job) + (turn !== undefined ? ';turn' : '');
    this.tooltip = jobTooltip(job, state === 'waiting' ? waitingWords(job) : stateWords(state, job.status));
    // The state first, as the row shows it: a screen reader hears what changed before the prompt.
    this.accessibilityInformation = { label: jobAccessibleLabel(job, now, turn) };
  }
}

/**
 * The turns of one thread as one row: the thread's first prompt, the latest turn's state, its turns
 * under it in order. It stands for the latest turn, so the row's actions (Ask a Follow-up…, Open
 * Answer, Approve, Cancel) act on that turn.
 */
export class ThreadNode extends vscode.TreeItem {
  readonly kind = 'thread' as const;
  jobId: string;

  constructor(
    readonly threadId: string,
    public turns: AgentJob[],
  ) {
    super('', vscode.TreeItemCollapsibleState.Expanded);
    this.id = `thread:${threadId}`;
    this.jobId = latestTurn(turns).id;
    this.update(turns);
  }

  update(turns: AgentJob[]): void {
    this.turns = turns;
    const last = latestTurn(turns);
    this.jobId = last.id;
    const state = jobState(last);
    this.label = shortLabel(turns[0]!.prompt, JOB_LABEL_CHARS);
    this.description = threadDescription(turns);
    this.iconPath = themeIcon(stateIcon(state));
    this.contextValue = `${jobContextValue(last)};thread`;
    const md = jobTooltip(last, state === 'waiting' ? waitingWords(last) : stateWords(state, last.status));
    md.appendMarkdown('\n\n');
    md.appendText(
      `${turns.length} turns in this thread; the row's actions act on the latest, turn ${turnNumber(turns, last)}.`,
    );
    this.tooltip = md;
    this.accessibilityInformation = {
      label: stateFirstLabel(this.description, `agent thread ${shortLabel(turns[0]!.prompt, 80)}`),
    };
  }
}

/** Everything in it that came from the prompt or the service goes through appendText (escaped). */
function jobTooltip(job: AgentJob, state: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, false);
  md.isTrusted = false;
  md.supportHtml = false;
  const row = (name: string, value: string | undefined): void => {
    if (value === undefined || value === '') return;
    md.appendMarkdown(`**${name}:** `);
    md.appendText(value);
    md.appendMarkdown('  \n');
  };
  md.appendText(shortLabel(job.prompt, 300));
  md.appendMarkdown('\n\n');
  row('Job ID', job.id);
  row('State', state);
  row('Model', job.model);
  row('Created', job.createdAt ? new Date(job.createdAt).toLocaleString() : undefined);
  row(
    'Thread',
    job.threadId ? `${job.threadId}${job.threadTurn !== undefined ? `, turn ${job.threadTurn}` : ''}` : undefined,
  );
  row('Mode', job.mode === 'chat' ? 'chat (an answer in words)' : job.mode === 'extract' ? 'extract (data)' : job.mode);
  row('Credits', creditsText(job));
  row('Outcome', job.outcome);
  row('Error', job.error);
  row('Polling stopped', job.pollError);
  if (job.trace.unavailable) row('Trace', 'none (job from an older engine)');
  const p = job.pendingApproval;
  if (p) {
    if (isWaiting(job)) row('Waiting for', approvalWords(p));
    if (isWaiting(job)) {
      for (const c of p.calls)
        row(`Call ${callWords(c)}`, c.input === undefined ? '(no input)' : shortLabel(JSON.stringify(c.input), 300));
      for (const t of p.terms) row(termsName(t), t.url);
    } else if (p.resolution) row('Answered', p.resolution.approved ? 'approved' : 'declined');
  }
  row('Paid calls', paidWords(job.exchange));
  for (const sp of job.exchange?.skippedProviders ?? [])
    row('Skipped', `${skippedWords(sp)}${sp.termsUrl ? `; terms: ${sp.termsUrl}` : ''}`);
  if (job.suggestions?.length)
    row('Suggested follow-ups', job.suggestions.map((x) => x.label ?? shortLabel(x.prompt, 60)).join('; '));
  return md;
}
