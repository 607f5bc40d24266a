// Rows that stand in for content that is not there: loading, an error, a job without a trace.
import * as vscode from 'vscode';

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
