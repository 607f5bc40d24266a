// Rows that stand in for content that is not there: loading, an error, a job without a trace.
import * as vscode from 'vscode';
import { agentCommandId } from './agentCommandIds';
import type { AgentJob } from './jobModel';
import type { SkippedProvider } from '../api/agent/exchangeSchemas';
import { approvalWords, callName, callWords, estimateWords, skippedWords, termsName } from '../agentRun/runOutcome';
import { externalUrl } from '../webview/linkPolicy';

abstract class PlaceholderNode extends vscode.TreeItem {
  constructor(
    readonly jobId: string,
    part: string,
    label: string,
    icon: vscode.ThemeIcon,
    tooltip?: string,
  ) {
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
    super(
      jobId,
      'error',
      message,
      new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')),
      `${message}\nRefresh to try again.`,
    );
    this.command = { command: agentCommandId('refresh'), title: 'Refresh' };
  }
}

export class NoTraceNode extends PlaceholderNode {
  readonly kind = 'noTrace' as const;
  constructor(jobId: string) {
    super(
      jobId,
      'noTrace',
      'This job has no trace',
      new vscode.ThemeIcon('circle-slash'),
      'It ran on an engine older than the one that records traces; its status and result are still available.',
    );
  }
}

export class NoEventsNode extends PlaceholderNode {
  readonly kind = 'noEvents' as const;
  constructor(jobId: string) {
    super(jobId, 'noEvents', 'No events yet', new vscode.ThemeIcon('watch'));
  }
}

/** A terms page as a link the user may open: https only, checked by the link policy the Search view uses. */
export function termsLink(raw: string | undefined): vscode.Uri | undefined {
  const safe = externalUrl(raw);
  return safe && safe.startsWith('https://') ? vscode.Uri.parse(safe, true) : undefined;
}

/**
 * The first row under a run that waits for the caller: what it waits for, with Approve and Decline
 * inline (the job row has them too). Its label says the state first; its children list each paid call
 * with its estimate, or each provider's terms with a link that opens only when clicked.
 */
export class ApprovalNode extends vscode.TreeItem {
  readonly kind = 'approval' as const;
  constructor(
    readonly jobId: string,
    readonly job: AgentJob,
  ) {
    const p = job.pendingApproval!;
    const items = p.kind === 'terms' ? p.terms.length : p.calls.length;
    // Short enough for 300 px: the rows under it name each call or provider (the tooltip says it all).
    const what =
      p.kind === 'calls'
        ? `approval of ${p.calls.length === 1 ? 'a paid call' : `${p.calls.length} paid calls`}`
        : p.kind === 'terms'
          ? `your agreement to ${p.terms.length === 1 ? 'data terms' : `${p.terms.length} providers' data terms`}`
          : approvalWords(p);
    super(
      `Waiting for ${what}`,
      items ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
    );
    this.id = `job:${jobId}/approval:${p.id}`;
    this.iconPath = new vscode.ThemeIcon('bell-dot', new vscode.ThemeColor('charts.yellow'));
    const est = p.kind === 'calls' ? estimateWords(p.calls) : undefined;
    this.description = p.kind === 'terms' ? 'Agree or Decline' : `${est ? `${est} · ` : ''}Approve or Decline`;
    this.contextValue = job.threadId ? 'approval;approvable' : 'approval';
    const md = new vscode.MarkdownString(undefined, false);
    md.isTrusted = false;
    md.supportHtml = false;
    md.appendText(`The run waits for ${approvalWords(p)}.`);
    if (p.reason) {
      md.appendMarkdown('\n\n');
      md.appendText(p.reason);
    }
    for (const c of p.calls) {
      md.appendMarkdown('\n\n');
      md.appendText(`${callWords(c)}: ${c.input === undefined ? '(no input)' : JSON.stringify(c.input).slice(0, 400)}`);
    }
    for (const t of p.terms) {
      md.appendMarkdown('\n\n');
      md.appendText(`${termsName(t)}${t.url ? `: ${t.url}` : ''}`);
    }
    this.tooltip = md;
    const how =
      p.kind === 'terms'
        ? 'Read the terms, then Approve to agree, or Decline, from the context menu.'
        : 'Approve or Decline from the context menu.';
    this.accessibilityInformation = { label: `Waiting for your approval: ${approvalWords(p)}. ${how}` };
  }

  /** One row per paid call (provider, capability, estimate) or per provider's terms (name, version, link). */
  children(): ApprovalItemNode[] {
    const p = this.job.pendingApproval!;
    if (p.kind === 'terms')
      return p.terms.map(
        (t, i) =>
          new ApprovalItemNode(
            this.jobId,
            `${p.id}/terms:${i}`,
            termsName(t),
            t.url ? 'open the terms' : undefined,
            'law',
            termsLink(t.url),
            t.adds,
          ),
      );
    return p.calls.map(
      (c, i) =>
        new ApprovalItemNode(
          this.jobId,
          `${p.id}/call:${c.id ?? i}`,
          callName(c),
          typeof c.creditsEstimate === 'number' ? `about ${c.creditsEstimate} credits` : 'no estimate',
          'credit-card',
          undefined,
          c.input === undefined ? undefined : JSON.stringify(c.input).slice(0, 400),
        ),
    );
  }
}

/** A call or a terms entry under a waiting run. A terms row opens its page (checked, https) when clicked. */
export class ApprovalItemNode extends vscode.TreeItem {
  readonly kind = 'approvalItem' as const;
  constructor(
    readonly jobId: string,
    part: string,
    label: string,
    description: string | undefined,
    icon: string,
    link?: vscode.Uri,
    detail?: string,
  ) {
    super(label, vscode.TreeItemCollapsibleState.None);
    this.id = `job:${jobId}/approval:${part}`;
    this.iconPath = new vscode.ThemeIcon(icon);
    if (description) this.description = description;
    this.contextValue = 'approvalItem';
    this.tooltip = [label, detail, link?.toString(true)].filter(Boolean).join('\n');
    this.accessibilityInformation = {
      label: [label, description, link ? `terms at ${link.toString(true)}; press Enter to open them` : undefined]
        .filter(Boolean)
        .join(', '),
    };
    if (link) this.command = { command: 'vscode.open', title: 'Open the Terms', arguments: [link] };
  }
}

/**
 * Under a run that used paid tool calls: what it paid ("2 paid calls, 30 credits"), then one row per
 * provider it skipped because its terms are not accepted, with the terms link and how to include it.
 */
export class PaidCallsNode extends vscode.TreeItem {
  readonly kind = 'paidCalls' as const;
  constructor(
    readonly jobId: string,
    words: string,
  ) {
    super(`Paid calls: ${words}`, vscode.TreeItemCollapsibleState.None);
    this.id = `job:${jobId}/paidCalls`;
    this.iconPath = new vscode.ThemeIcon('credit-card');
    this.contextValue = 'paidCalls';
    this.accessibilityInformation = { label: `Paid calls: ${words}` };
  }
}

export class SkippedProviderNode extends vscode.TreeItem {
  readonly kind = 'skippedProvider' as const;
  constructor(
    readonly jobId: string,
    index: number,
    sp: SkippedProvider,
  ) {
    const link = termsLink(sp.termsUrl);
    super(
      `Skipped ${sp.name ?? sp.provider ?? 'a provider'}: terms not accepted`,
      vscode.TreeItemCollapsibleState.None,
    );
    this.id = `job:${jobId}/skipped:${index}`;
    this.iconPath = new vscode.ThemeIcon('circle-slash');
    this.description = link ? 'open the terms' : undefined;
    this.contextValue = 'skippedProvider';
    const how = SKIPPED_NEXT_TIME;
    this.tooltip = `${skippedWords(sp)}.\n${link ? `Terms: ${link.toString(true)}\n` : ''}${how}`;
    this.accessibilityInformation = {
      label: `${skippedWords(sp)}. ${link ? 'Press Enter to open its terms. ' : ''}${how}`,
    };
    if (link) this.command = { command: 'vscode.open', title: 'Open the Terms', arguments: [link] };
  }
}

/** How a skipped provider is included next time, in the editor's words. */
const SKIPPED_NEXT_TIME =
  'To include it next time, accept its terms (the link), ' +
  'or start the job with "Ask before using providers whose terms are not accepted" on.';
