// A job in the Agent Jobs tree. One instance per job for the life of the provider, updated in place,
// so the provider can refresh exactly this node when the store says the job changed.
import * as vscode from 'vscode';
import type { AgentJob } from './jobModel';
import { creditsText, jobContextValue, jobDescription, jobState, shortLabel, stateIcon, stateWords } from './jobState';

export function themeIcon(spec: { id: string; color?: string }): vscode.ThemeIcon {
  return new vscode.ThemeIcon(spec.id, spec.color ? new vscode.ThemeColor(spec.color) : undefined);
}

/** A job row's label: the prompt cut at a word boundary, short enough that the state beside it stays visible at the default side bar width (300 px; checked in the e2e tier). */
export const JOB_LABEL_CHARS = 22;

export class JobNode extends vscode.TreeItem {
  readonly kind = 'job' as const;

  constructor(readonly jobId: string, job: AgentJob) {
    super(shortLabel(job.prompt, JOB_LABEL_CHARS), vscode.TreeItemCollapsibleState.Collapsed);
    this.id = `job:${jobId}`;
    this.update(job);
  }

  update(job: AgentJob): void {
    const state = jobState(job);
    this.label = shortLabel(job.prompt, JOB_LABEL_CHARS);
    this.description = jobDescription(job, Date.now());
    this.iconPath = themeIcon(stateIcon(state));
    this.contextValue = jobContextValue(job);
    this.tooltip = jobTooltip(job, stateWords(state, job.status));
    this.accessibilityInformation = { label: `Agent job ${shortLabel(job.prompt, 80)}, ${this.description}` };
  }
}

/** Everything in it that came from the prompt or the service goes through appendText (escaped). */
export function jobTooltip(job: AgentJob, state: string): vscode.MarkdownString {
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
  row('Credits', creditsText(job));
  row('Outcome', job.outcome);
  row('Error', job.error);
  row('Polling stopped', job.pollError);
  if (job.trace.unavailable) row('Trace', 'none (job from an older engine)');
  return md;
}
