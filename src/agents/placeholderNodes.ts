// Rows that stand in for content that is not there: loading, an error, a job without a trace.
import * as vscode from 'vscode';
import type { AgentJob } from './jobModel';
import { approvalWords } from './jobState';

abstract class PlaceholderNode extends vscode.TreeItem {
  constructor(readonly jobId: string, part: string, label: string, icon: vscode.ThemeIcon, tooltip?: string) {
    super(label, vscode.TreeItemCollapsibleState.None);
    this.id = `job:${jobId}/${part}`;
    this.iconPath = icon;
    this.contextValue = `placeholder;${part}`;
    if (tooltip) this.tooltip = tooltip;
  }
}

export class LoadingNode extends PlaceholderNode {
  readonly kind = 'loading' as const;
  constructor(jobId: string) {
    super(jobId, 'loading', 'Reading the trace…', new vscode.ThemeIcon('loading~spin'));
  }
}

export class ErrorNode extends PlaceholderNode {
  readonly kind = 'error' as const;
  constructor(jobId: string, message: string) {
    super(jobId, 'error', message, new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')), `${message}\nRefresh to try again.`);
    this.command = { command: 'devIndex.agent.refresh', title: 'Refresh' };
  }
}

export class NoTraceNode extends PlaceholderNode {
  readonly kind = 'noTrace' as const;
  constructor(jobId: string) {
    super(jobId, 'noTrace', 'This job has no trace', new vscode.ThemeIcon('circle-slash'),
      'It ran on an engine older than the one that records traces; its status and result are still available.');
  }
}

export class NoEventsNode extends PlaceholderNode {
  readonly kind = 'noEvents' as const;
  constructor(jobId: string) {
    super(jobId, 'noEvents', 'No events yet', new vscode.ThemeIcon('watch'));
  }
}

/**
 * The first row under a run that waits for the caller: what it waits for, with Approve and Decline
 * inline (the job row has them too). Its label says the state first.
 */
export class ApprovalNode extends vscode.TreeItem {
  readonly kind = 'approval' as const;
  constructor(readonly jobId: string, job: AgentJob) {
    const p = job.pendingApproval!;
    super(`Waiting for ${approvalWords(p)}`, vscode.TreeItemCollapsibleState.None);
    this.id = `job:${jobId}/approval:${p.approvalId}`;
    this.iconPath = new vscode.ThemeIcon('bell-dot', new vscode.ThemeColor('charts.yellow'));
    this.description = 'Approve or Decline';
    this.contextValue = job.threadId ? 'approval;approvable' : 'approval';
    const md = new vscode.MarkdownString(undefined, false);
    md.isTrusted = false;
    md.supportHtml = false;
    md.appendText(`The run waits for ${approvalWords(p)}.`);
    for (const c of p.calls ?? []) {
      md.appendMarkdown('\n\n');
      md.appendText(`${c.name ?? c.id ?? 'a call'}: ${c.arguments === undefined ? '(no arguments)' : JSON.stringify(c.arguments).slice(0, 400)}`);
    }
    if (p.terms?.url) { md.appendMarkdown('\n\n'); md.appendText(`Terms: ${p.terms.url}`); }
    this.tooltip = md;
    this.accessibilityInformation = { label: `Waiting for your approval: ${approvalWords(p)}. Approve or Decline from the context menu.` };
  }
}
