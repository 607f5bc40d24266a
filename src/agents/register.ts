// Activation side of the agent jobs feature (dist/extension.js): the Agent Jobs view, the `devindex-agent:` scheme and
// the command ids. The feature itself (agentsFeature.ts, in dist/features.js) is built on first use: the view shown,
// a command run, a key change while jobs are stored, or at activation when a stored job is still running.
import * as vscode from 'vscode';
import { AGENT_SCHEME } from './agentDocuments';
import { DisposableStore } from './emitter';
import { globalStateRecords } from '../storage/globalStateRecords';
import type { RecordStorage } from '../storage/sharedRecords';
import { storedJobs } from './jobRepository';
import { AGENT_COMMAND_IDS, type AgentCommandId, JOBS_VIEW } from './agentCommandIds';
import type * as AgentsModule from './agentsFeature';
import type { AgentsDeps, AgentsFeature } from './agentsFeature';
import type { TreeNode } from './jobsTreeProvider';

const JOBS_VIEW_ID = JOBS_VIEW;

/** What the wiring uses: the command handlers (by id) and the key-change hook. */
interface AgentsRegistration {
  commands: Record<AgentCommandId, (...args: unknown[]) => Promise<unknown>>;
  /** Re-read the job list and resume jobs stopped by a rejected key. */
  onKeyChanged(): void;
  /** Whether the feature has been built (tests, the activation bench). */
  loaded(): boolean;
}

/** What the feature is built from: the entry's dist/features.js on the desktop (loaded then), bundled in the browser. */
export type AgentsCode = Pick<typeof AgentsModule, 'createAgentsFeature' | 'notifyEnds' | 'notifyWaiting'>;

/** Registers the view, the scheme and the commands; the feature is built from `code()` on first use. */
export function registerAgents(
  context: { subscriptions: vscode.Disposable[]; globalState: RecordStorage },
  deps: AgentsDeps,
  code: () => AgentsCode,
): AgentsRegistration {
  const owned = new DisposableStore();
  // The view's one change emitter: created with the view, fired by the tree provider once the feature is built.
  const changed = owned.register(new vscode.EventEmitter<TreeNode | undefined>());
  let feature: AgentsFeature | undefined;
  let listed = false;
  let disposed = false;

  const reveal = async (jobId: string): Promise<void> => {
    // The view may be collapsed (it starts so while there are no jobs): open and expand it first.
    if (!view.visible) await vscode.commands.executeCommand(`${JOBS_VIEW_ID}.focus`).then(undefined, () => undefined);
    const node = load().tree.revealTarget(jobId);
    if (node) await view.reveal(node, { select: true, focus: false, expand: false });
  };
  // The service's job list (with a key) is read the first time the tree is shown, so a window that never looks at it
  // makes no request.
  const listOnce = (): void => {
    if (listed || !feature) return;
    listed = true;
    void feature.store.refresh();
  };
  const load = (): AgentsFeature => {
    if (feature) return feature;
    const c = code();
    const f = (feature = c.createAgentsFeature(globalStateRecords(context.globalState), deps, reveal, changed));
    owned.register(f);
    owned.register(c.notifyEnds(f, reveal));
    owned.register(c.notifyWaiting(f, reveal));
    f.store.setHidden(!view.visible);
    if (view.visible) listOnce();
    return f;
  };

  const rows: vscode.TreeDataProvider<TreeNode> = {
    onDidChangeTreeData: changed.event,
    getTreeItem: (n) => load().tree.getTreeItem(n),
    getChildren: (n) => load().tree.getChildren(n),
    getParent: (n) => load().tree.getParent(n),
  };
  const view = owned.register(
    vscode.window.createTreeView(JOBS_VIEW_ID, { treeDataProvider: rows, showCollapseAll: true }),
  );
  owned.register(
    view.onDidChangeVisibility((e) => {
      if (e.visible) load();
      feature?.store.setHidden(!e.visible);
      if (e.visible) listOnce();
    }),
  );
  owned.register(
    vscode.workspace.registerTextDocumentContentProvider(AGENT_SCHEME, {
      provideTextDocumentContent: (uri, token) => load().content.provideTextDocumentContent(uri, token),
    }),
  );
  // A job still running when the window closed resumes polling, as it always did: right after activation, so that
  // activation itself never waits for dist/features.js (a shown view asks for its rows then too).
  if (view.visible || storedJobs(context.globalState, true)) {
    const soon = setTimeout(() => {
      if (!disposed) load();
    }, 0);
    owned.register({
      dispose: () => {
        disposed = true;
        clearTimeout(soon);
      },
    });
  }
  context.subscriptions.push(owned);

  const commands = Object.fromEntries(
    AGENT_COMMAND_IDS.map((id) => [
      id,
      (...a: unknown[]) => (load().commands[id] as (...args: unknown[]) => Promise<unknown>)(...a),
    ]),
  ) as AgentsRegistration['commands'];
  return {
    commands,
    onKeyChanged: () => {
      if (feature || storedJobs(context.globalState, false)) load().onKeyChanged();
    },
    loaded: () => feature !== undefined,
  };
}
