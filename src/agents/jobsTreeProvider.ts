// The Agent Jobs tree. Job nodes are kept per job and updated in place, so a store change refreshes
// only that job's row (and its children if expanded); structural changes refresh the root.
import * as vscode from 'vscode';
import { groupByAgent } from '../api/agentTrace';
import { AgentNode } from './agentNode';
import { DisposableStore } from './disposables';
import { EventNode } from './eventNode';
import { mergeToolCalls } from './eventSummary';
import { JobNode } from './jobNode';
import { jobState } from './jobState';
import type { JobStore } from './jobStore';
import { ErrorNode, LoadingNode, NoEventsNode, NoTraceNode } from './placeholderNodes';

export type TreeNode = JobNode | AgentNode | EventNode | LoadingNode | ErrorNode | NoTraceNode | NoEventsNode;

export class JobsTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly nodes = new Map<string, JobNode>();
  private readonly emitter = new vscode.EventEmitter<TreeNode | undefined>();
  private readonly disposables = new DisposableStore();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(private readonly store: JobStore) {
    this.disposables.register(this.emitter);
    this.disposables.register(store.onDidChangeJob((id) => this.onStoreChange(id)));
  }

  private onStoreChange(id: string | undefined): void {
    if (id === undefined) {
      this.emitter.fire(undefined);
      return;
    }
    const node = this.nodes.get(id);
    const job = this.store.get(id);
    if (!node || !job) return;
    node.update(job);
    this.emitter.fire(node);
  }

  /** The node of a job, e.g. to reveal it from a notification. */
  jobNode(id: string): JobNode | undefined {
    const job = this.store.get(id);
    if (!job) return undefined;
    let node = this.nodes.get(id);
    if (!node) {
      node = new JobNode(id, job);
      this.nodes.set(id, node);
    }
    return node;
  }

  getTreeItem(element: TreeNode): vscode.TreeItem {
    return element;
  }

  getParent(element: TreeNode): TreeNode | undefined {
    return element instanceof JobNode ? undefined : this.nodes.get(element.jobId);
  }

  getChildren(element?: TreeNode): TreeNode[] {
    if (!element) {
      const jobs = this.store.jobs();
      for (const id of [...this.nodes.keys()]) if (!this.store.get(id)) this.nodes.delete(id);
      return jobs.map((j) => this.jobNode(j.id)!);
    }
    if (element instanceof JobNode) return this.jobChildren(element.jobId);
    if (element instanceof AgentNode) {
      const running = isRunning(this.store, element.jobId);
      return [
        ...element.agent.children.map((c) => new AgentNode(element.jobId, c, running)),
        ...mergeToolCalls(element.agent.events).map((r) => new EventNode(element.jobId, r.event, r.finished)),
      ];
    }
    return [];
  }

  private jobChildren(jobId: string): TreeNode[] {
    const job = this.store.get(jobId);
    if (!job) return [];
    const out: TreeNode[] = [];
    if (job.pollError) out.push(new ErrorNode(jobId, job.pollError));
    const load = this.store.traceLoad(jobId);
    if (load.state === 'unavailable') return [...out, new NoTraceNode(jobId)];
    if (load.state === 'error') out.push(new ErrorNode(jobId, load.message));
    const events = this.store.events(jobId);
    if (events.length === 0) {
      if (load.state === 'unloaded' && !job.notFound) {
        // Read once on expand (after a reload, or a job from the list); polling reads it for running jobs.
        if (!this.store.isPolling(jobId)) void this.store.loadTrace(jobId);
        return [...out, new LoadingNode(jobId)];
      }
      if (load.state === 'loading') return [...out, new LoadingNode(jobId)];
      if (load.state === 'loaded') out.push(new NoEventsNode(jobId));
      return out;
    }
    const running = isRunning(this.store, jobId);
    return [...out, ...groupByAgent(events).map((a) => new AgentNode(jobId, a, running))];
  }

  dispose(): void {
    this.disposables.dispose();
    this.nodes.clear();
  }
}

/** Agents without their final event show as running while the job runs or its late events are still read. */
function isRunning(store: JobStore, jobId: string): boolean {
  const job = store.get(jobId);
  return job !== undefined && (jobState(job) === 'running' || jobState(job) === 'cancelling' || store.isPolling(jobId));
}
