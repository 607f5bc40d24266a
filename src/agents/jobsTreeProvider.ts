// The Agent Jobs tree over the store's read model. Nodes are kept per job, so a job's change refreshes only its row
// (and its thread's): the store's one event becomes the view's onDidChangeTreeData, fired here and nowhere else.
import * as vscode from 'vscode';
import { groupByAgent } from '../agentRun/agentTrace';
import { AgentNode } from './agentNode';
import { DisposableStore } from './emitter';
import { EventNode } from './eventNode';
import { mergeToolCalls } from './eventSummary';
import { JobNode, ThreadNode } from './jobNode';
import { jobState } from './jobState';
import type { JobsReadModel } from './jobStore';
import { paidWords } from '../agentRun/runOutcome';
import {
  ApprovalItemNode,
  ApprovalNode,
  ErrorNode,
  LoadingNode,
  NoEventsNode,
  NoTraceNode,
  PaidCallsNode,
  SkippedProviderNode,
} from './placeholderNodes';
import { jobRows, turnNumber } from './threadGroups';

export type TreeNode =
  | ThreadNode
  | JobNode
  | AgentNode
  | EventNode
  | ApprovalNode
  | ApprovalItemNode
  | PaidCallsNode
  | SkippedProviderNode
  | LoadingNode
  | ErrorNode
  | NoTraceNode
  | NoEventsNode;

export class JobsTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly nodes = new Map<string, JobNode>();
  private readonly threads = new Map<string, ThreadNode>();
  /** Job id -> the thread row it is a turn under (as the root was last built). */
  private readonly threadOfJob = new Map<string, ThreadNode>();
  private readonly emitter: vscode.EventEmitter<TreeNode | undefined>;
  private readonly disposables = new DisposableStore();
  readonly onDidChangeTreeData: vscode.Event<TreeNode | undefined>;

  /**
   * `changes`: the view's own emitter when the view was created before this provider (agents/register.ts builds the
   * feature on first use); otherwise one of its own.
   */
  constructor(
    private readonly store: JobsReadModel,
    private readonly loadTrace: (jobId: string) => Promise<void>,
    changes?: vscode.EventEmitter<TreeNode | undefined>,
  ) {
    this.emitter = changes ?? this.disposables.register(new vscode.EventEmitter<TreeNode | undefined>());
    this.onDidChangeTreeData = this.emitter.event;
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
    // The thread row shows its latest turn's state: it changes with the turn.
    const thread = this.threadOfJob.get(id);
    if (thread) {
      const turns = thread.turns.map((t) => this.store.get(t.id) ?? t);
      thread.update(turns);
      this.emitter.fire(thread);
    }
  }

  /** The node of a job, e.g. to reveal it from a notification (a turn's own row under its thread). */
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

  /** The node to reveal for a job: its turn row under its thread, or its own row. */
  revealTarget(id: string): ThreadNode | JobNode | undefined {
    this.rootRows();
    const thread = this.threadOfJob.get(id);
    if (!thread) return this.jobNode(id);
    return this.turnNodes(thread).find((n) => n.jobId === id) ?? thread;
  }

  /** The row a job shows in at the top level: its thread's row, or its own. */
  rowOf(id: string): ThreadNode | JobNode | undefined {
    return this.threadOfJob.get(id) ?? this.jobNode(id);
  }

  private rootRows(): Array<ThreadNode | JobNode> {
    for (const id of [...this.nodes.keys()]) if (!this.store.get(id)) this.nodes.delete(id);
    this.threadOfJob.clear();
    const live = new Set<string>();
    const out = jobRows(this.store.jobs()).map((row) => {
      if (row.kind === 'job') {
        const node = this.jobNode(row.job.id)!;
        // A node built as a turn (its thread lost the other turns): rebuilt as a plain row.
        if (node.turn !== undefined) {
          const plain = new JobNode(row.job.id, row.job);
          this.nodes.set(row.job.id, plain);
          return plain;
        }
        return node;
      }
      live.add(row.threadId);
      let thread = this.threads.get(row.threadId);
      if (thread) thread.update(row.turns);
      else {
        thread = new ThreadNode(row.threadId, row.turns);
        this.threads.set(row.threadId, thread);
      }
      for (const t of row.turns) this.threadOfJob.set(t.id, thread);
      return thread;
    });
    for (const id of [...this.threads.keys()]) if (!live.has(id)) this.threads.delete(id);
    return out;
  }

  private turnNodes(thread: ThreadNode): JobNode[] {
    return thread.turns.map((t) => {
      const job = this.store.get(t.id) ?? t;
      const n = turnNumber(thread.turns, job);
      let node = this.nodes.get(t.id);
      if (!node || node.turn !== n) {
        node = new JobNode(t.id, job, n);
        this.nodes.set(t.id, node);
      } else node.update(job);
      return node;
    });
  }

  getTreeItem(element: TreeNode): vscode.TreeItem {
    return element;
  }

  getParent(element: TreeNode): TreeNode | undefined {
    if (element instanceof ThreadNode) return undefined;
    if (element instanceof JobNode) return element.turn !== undefined ? this.threadOfJob.get(element.jobId) : undefined;
    if (element instanceof ApprovalItemNode) {
      const job = this.store.get(element.jobId);
      return job?.pendingApproval ? new ApprovalNode(element.jobId, job) : this.nodes.get(element.jobId);
    }
    return this.nodes.get(element.jobId);
  }

  getChildren(element?: TreeNode): TreeNode[] {
    if (!element) return this.rootRows();
    if (element instanceof ThreadNode) return this.turnNodes(element);
    if (element instanceof JobNode) return this.jobChildren(element.jobId);
    if (element instanceof ApprovalNode) return element.children();
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
    if (job.pendingApproval && jobState(job) === 'waiting') out.push(new ApprovalNode(jobId, job));
    const paid = paidWords(job.exchange);
    if (paid) out.push(new PaidCallsNode(jobId, paid));
    (job.exchange?.skippedProviders ?? []).forEach((sp, i) => out.push(new SkippedProviderNode(jobId, i, sp)));
    if (job.pollError) out.push(new ErrorNode(jobId, job.pollError));
    const run = this.store.run(jobId);
    const load = run.trace;
    if (load.state === 'unavailable') return [...out, new NoTraceNode(jobId)];
    if (load.state === 'error') out.push(new ErrorNode(jobId, load.message));
    const events = run.events;
    if (events.length === 0) {
      if (load.state === 'unloaded' && !job.notFound) {
        // Read once on expand (after a reload, or a job from the list); polling reads it for running jobs.
        if (!run.polling) void this.loadTrace(jobId);
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
    this.threads.clear();
    this.threadOfJob.clear();
  }
}

/**
 * Agents without their final event show as running while the job runs or its late events are still
 * read, and as waiting (never spinning) while the run waits for an approval.
 */
function isRunning(store: JobsReadModel, jobId: string): boolean | 'waiting' {
  const job = store.get(jobId);
  if (job !== undefined && jobState(job) === 'waiting') return 'waiting';
  return (
    job !== undefined && (jobState(job) === 'running' || jobState(job) === 'cancelling' || store.run(jobId).polling)
  );
}
