// The Dependency Fixes tree (dist/features.js): the rows fixRows.ts builds, as TreeItems, and the view's state
// (nothing checked yet, checking with its progress, a report, a failure). One node class per kind of row.
import * as vscode from 'vscode';
import { fixRows, reportRows, type DependencyRow, type FixRow, type NoteRow } from './fixRows';
import type { FixesOutcome } from '../fixes/report';

/** The TreeItem fields a dependency or a fix row gives its node. */
function rowItem(row: DependencyRow | FixRow): Partial<vscode.TreeItem> {
  return {
    id: row.key,
    description: row.description,
    tooltip: row.tooltip,
    accessibilityInformation: { label: row.accessible },
    contextValue: row.contextValue,
  };
}

type FixesState =
  | { kind: 'idle' }
  | { kind: 'running'; line: string }
  | { kind: 'done'; outcome: FixesOutcome; folder: string }
  | { kind: 'failed'; message: string };

export class DependencyNode extends vscode.TreeItem {
  constructor(readonly row: DependencyRow) {
    super(row.label, vscode.TreeItemCollapsibleState.Expanded);
    Object.assign(this, rowItem(row));
    this.iconPath = new vscode.ThemeIcon(
      row.dep.fixes.length ? 'package' : 'bug',
      new vscode.ThemeColor(row.dep.fixes.length ? 'charts.blue' : 'charts.orange'),
    );
  }
}

export class FixNode extends vscode.TreeItem {
  constructor(readonly row: FixRow) {
    super(row.label, vscode.TreeItemCollapsibleState.None);
    Object.assign(this, rowItem(row));
    this.iconPath = new vscode.ThemeIcon(
      row.state === 'fix' ? (row.fix.kind === 'pull_request' ? 'git-pull-request' : 'pass') : 'issues',
    );
    this.command = { command: 'devIndex.fixes.openFix', title: 'Open', arguments: [this] };
  }
}

class NoteNode extends vscode.TreeItem {
  constructor(readonly row: NoteRow) {
    super(row.label, vscode.TreeItemCollapsibleState.None);
    this.id = `note:${row.key}`;
    this.tooltip = row.tooltip;
    this.accessibilityInformation = { label: row.accessible };
    this.contextValue = row.contextValue;
    this.iconPath = new vscode.ThemeIcon(
      row.key === 'unchecked' ? 'warning' : row.key === 'none' ? 'check' : 'circle-slash',
    );
    if (row.contextValue.includes(';quota'))
      this.command = { command: 'devIndex.auth.setKey', title: 'Set API Key', arguments: [] };
  }
}

/** A row while checking, or after a failure (the view's welcome text covers "nothing checked yet"). */
class StatusNode extends vscode.TreeItem {
  constructor(line: string, running: boolean) {
    super(line, vscode.TreeItemCollapsibleState.None);
    this.id = running ? 'status:running' : 'status:failed';
    this.accessibilityInformation = { label: line };
    this.contextValue = running ? 'status;running' : 'status;failed';
    this.iconPath = new vscode.ThemeIcon(running ? 'loading~spin' : 'error');
  }
}

export type FixesNode = DependencyNode | FixNode | NoteNode | StatusNode;

export class FixesTree implements vscode.TreeDataProvider<FixesNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<FixesNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private state: FixesState = { kind: 'idle' };
  private deps: DependencyNode[] = [];
  private notes: NoteNode[] = [];

  current(): FixesState {
    return this.state;
  }

  set(state: FixesState): void {
    this.state = state;
    if (state.kind === 'done') {
      const rows = reportRows(state.outcome);
      this.deps = rows.dependencies.map((r) => new DependencyNode(r));
      this.notes = rows.notes.map((r) => new NoteNode(r));
    }
    this.emitter.fire(undefined);
  }

  /** A dependency's row by its key (`npm:fetchline`), for the Quick Fix's reveal. */
  dependencyNode(key: string): DependencyNode | undefined {
    return this.deps.find((d) => d.row.key === key);
  }

  getTreeItem(n: FixesNode): vscode.TreeItem {
    return n;
  }

  getParent(n: FixesNode): FixesNode | undefined {
    return n instanceof FixNode ? this.dependencyNode(`${n.row.dep.ecosystem}:${n.row.dep.name}`) : undefined;
  }

  getChildren(n?: FixesNode): FixesNode[] {
    if (n instanceof DependencyNode) return fixRows(n.row.dep).map((r) => new FixNode(r));
    if (n) return [];
    switch (this.state.kind) {
      case 'idle':
        return [];
      case 'running':
        return [new StatusNode(this.state.line, true)];
      case 'failed':
        return [new StatusNode(this.state.message, false)];
      case 'done':
        return [...this.deps, ...this.notes];
    }
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
