// One trace event: icon per type, one-line summary, time. `artifact.updated` events with a snapshot
// carry the `snapshot` part in their contextValue for Open Snapshot.
import * as vscode from 'vscode';
import { eventKey } from '../agentRun/agentTrace';
import type { TraceEvent } from '../api/agent/agentSchemas';
import { agentCommandId } from './agentCommandIds';
import { eventAccessibleLabel, eventRow, type SnapshotRef } from './eventSummary';
import { themeIcon } from './jobNode';

export class EventNode extends vscode.TreeItem {
  readonly kind = 'event' as const;
  readonly snapshot?: SnapshotRef;

  constructor(
    readonly jobId: string,
    readonly event: TraceEvent,
    readonly finished?: TraceEvent,
  ) {
    const s = eventRow(event, finished);
    super(s.text, vscode.TreeItemCollapsibleState.None);
    this.id = `job:${jobId}/event:${eventKey(event)}`;
    this.description = s.time;
    this.iconPath = themeIcon(s.icon);
    this.snapshot = s.snapshot;
    this.contextValue = ['event', event.type, ...(s.snapshot ? ['snapshot'] : [])].join(';');
    const md = new vscode.MarkdownString(undefined, false);
    md.isTrusted = false;
    md.appendCodeblock(JSON.stringify(finished ? [event, finished] : event, null, 2), 'json');
    this.tooltip = md;
    this.accessibilityInformation = { label: eventAccessibleLabel(event, finished) };
    if (s.snapshot) {
      this.command = { command: agentCommandId('openSnapshot'), title: 'Open Snapshot', arguments: [this] };
    }
  }
}
