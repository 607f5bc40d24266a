// The agent jobs feature, built on first use by agents/register.ts: the store, the tree rows, the documents, the
// command handlers and the notifications. Features side (dist/features.js); its contributions are in package.json.
import * as vscode from 'vscode';
import type { AgentBackend } from './agentBackend';
import { AgentContentProvider } from './agentContentProvider';
import { byId, type ById } from './agentCommandIds';
import {
  type AgentCommandContext,
  cancelJob,
  copyJobId,
  openAnswer,
  openResult,
  openSnapshot,
  openTrace,
  refreshJobs,
  removeJob,
  startAgain,
  startJob,
} from './agentCommands';
import { answerApproval, askFollowUp } from './threadCommands';
import type { AgentSubmitParams } from '../api/agent/submitSchema';
import type { ApproveInput, FollowUpInput, PickJobInput } from './agentInputs';
import { DisposableStore } from './emitter';
import type { EventNode } from './eventNode';
import type { RecordStorage } from '../storage/sharedRecords';
import { notifyJobEnds, type ShowNotification, vscodeNotification } from './jobNotifier';
import { approvalWords, jobState, shortLabel, SHOW_IN_TREE } from './jobState';
import { JobStore } from './jobStore';
import type { Timers } from './jobPoller';
import { JobsTreeProvider, type TreeNode } from './jobsTreeProvider';
import type { PollTiming } from '../agentRun/pollSchedule';
import { type AskInput, emptyDraft } from './startJobInput';
import { config } from '../config';

export interface AgentsDeps {
  /** Called on the first request; lets the wiring load the client bundle lazily. */
  backend: () => AgentBackend | Promise<AgentBackend>;
  /** Agent endpoints need a key: without one, Start asks for it and the job list is not read. */
  hasKey: () => Promise<boolean>;
  /** `devIndex.agent.defaultMaxCredits`. */
  defaultMaxCredits: () => number;
  /** `devIndex.agent.extraModels` (read from the configuration when not given). */
  extraModels?: () => string[];
  log?: (message: string) => void;
  /** Tests only. */
  timers?: Timers;
  timing?: PollTiming;
  /**
   * Tests only: the start flow's steps, the "which job?" pick, the follow-up input, the Approve
   * confirmation and the messages with buttons instead of the editor's own.
   */
  ui?: {
    ask?: AskInput;
    pick?: PickJobInput;
    followUp?: FollowUpInput;
    approve?: ApproveInput;
    show?: ShowNotification;
  };
  /**
   * How long the trace may bring nothing new before the status record is read (default 30 s). A run
   * that waits for an approval says so only in its status, and its trace goes quiet while it waits.
   */
  statusEveryMs?: number;
}

/** The status read while the trace is quiet: how soon a run that waits for an approval shows as waiting. */
export const EDITOR_STATUS_EVERY_MS = 15_000;

export type { AgentCommandId } from './agentCommandIds';

/** The handlers by the command table's keys (agentCommandTable.ts); `commands` has them by command id. */
interface AgentHandlers {
  /**
   * Also accepts `{ prompt, urls?, maxCredits?, model?, effort?, schema? }` and resolves with the job id without any
   * prompt (other features start jobs through it).
   */
  start: (args?: AgentSubmitParams) => Promise<string | undefined>;
  cancel: (target?: string | { jobId: string }) => Promise<void>;
  refresh: () => Promise<void>;
  openResult: (target?: string | { jobId: string }) => Promise<void>;
  openPartialResult: (target?: string | { jobId: string }) => Promise<void>;
  startAgain: (target?: string | { jobId: string }) => Promise<string | undefined>;
  openSnapshot: (target?: EventNode | { jobId: string; snapshotId: string; kind?: string }) => Promise<void>;
  openTrace: (target?: string | { jobId: string }) => Promise<void>;
  copyJobId: (target?: string | { jobId: string }) => Promise<void>;
  remove: (target?: string | { jobId: string }) => Promise<void>;
  /** Resolves with the new turn's job id (undefined when nothing was sent). */
  followUp: (target?: string | { jobId: string }) => Promise<string | undefined>;
  openAnswer: (target?: string | { jobId: string }) => Promise<void>;
  approve: (target?: string | { jobId: string }) => Promise<void>;
  decline: (target?: string | { jobId: string }) => Promise<void>;
}

export interface AgentsFeature extends vscode.Disposable {
  store: JobStore;
  tree: JobsTreeProvider;
  content: AgentContentProvider;
  commands: ById<AgentHandlers>;
  /** Re-read the job list and resume jobs stopped by a rejected key. */
  onKeyChanged(): void;
}

/**
 * The feature without registering anything with the editor: store, tree provider, content provider
 * and command handlers, over the storage it is given. registerAgents() adds the view, the scheme and the notification.
 */
export function createAgentsFeature(
  storage: RecordStorage,
  deps: AgentsDeps,
  reveal: (jobId: string) => Promise<void> = async () => {},
  treeChanges?: vscode.EventEmitter<TreeNode | undefined>,
): AgentsFeature {
  const owned = new DisposableStore();
  let keyKnown = false;
  const extraModels = deps.extraModels ?? (() => config.agentExtraModels());
  const store = owned.register(
    new JobStore({
      backend: deps.backend,
      storage,
      timers: deps.timers,
      timing: deps.timing,
      canList: async () => (keyKnown = await deps.hasKey()),
      extraModels,
      onLog: deps.log,
      statusEveryMs: deps.statusEveryMs ?? EDITOR_STATUS_EVERY_MS,
    }),
  );
  store.resume();
  const tree = owned.register(new JobsTreeProvider(store, (id) => store.runs.loadTrace(id), treeChanges));
  const content = new AgentContentProvider(store);
  const cmd: AgentCommandContext = {
    store,
    reveal,
    defaultMaxCredits: deps.defaultMaxCredits,
    extraModels,
    hasKey: deps.hasKey,
    draft: emptyDraft(),
    ask: deps.ui?.ask,
    pick: deps.ui?.pick,
    followUp: deps.ui?.followUp,
    approve: deps.ui?.approve,
    show: deps.ui?.show,
    followUps: new Map(),
  };
  const commands = byId<AgentHandlers>({
    start: (args) => startJob(cmd, args),
    cancel: (t) => cancelJob(cmd, t),
    refresh: () => refreshJobs(cmd),
    openResult: (t) => openResult(cmd, t),
    openPartialResult: (t) => openResult(cmd, t, 'partial'),
    startAgain: (t) => startAgain(cmd, t),
    openSnapshot: (t) => openSnapshot(cmd, t),
    openTrace: (t) => openTrace(cmd, t),
    copyJobId: (t) => copyJobId(cmd, t),
    remove: (t) => removeJob(cmd, t),
    followUp: (t) => askFollowUp(cmd, t),
    openAnswer: (t) => openAnswer(cmd, t),
    approve: (t) => answerApproval(cmd, t, 'approve'),
    decline: (t) => answerApproval(cmd, t, 'decline'),
  });
  return {
    store,
    tree,
    content,
    commands,
    onKeyChanged: () => {
      void deps.hasKey().then((has) => {
        if (has || keyKnown) void store.refresh();
      });
    },
    dispose: () => owned.dispose(),
  };
}

/** The end-of-run notification of each job, its buttons leading to the feature's own commands. */
export function notifyEnds(
  feature: AgentsFeature,
  reveal: (jobId: string) => Promise<void>,
  show?: ShowNotification,
): vscode.Disposable {
  return notifyJobEnds(
    feature.store.onDidEndJob,
    {
      reveal,
      openResult: (id, which) =>
        which === 'partial'
          ? feature.commands['devIndex.agent.openPartialResult'](id)
          : feature.commands['devIndex.agent.openResult'](id),
      openAnswer: (id) => feature.commands['devIndex.agent.openAnswer'](id),
      followUp: (id) => feature.commands['devIndex.agent.followUp'](id),
      startAgain: (id) => feature.commands['devIndex.agent.startAgain'](id),
    },
    show,
  );
}

const APPROVE = 'Approve…';
const DECLINE = 'Decline';

/**
 * Says once per approval (in this window) that a run waits for the caller, with Approve…, Decline
 * and Show in Tree: a run that waits makes no progress until someone answers it.
 */
export function notifyWaiting(
  feature: AgentsFeature,
  reveal: (jobId: string) => Promise<void>,
  show: ShowNotification = vscodeNotification,
): vscode.Disposable {
  const told = new Set<string>();
  return feature.store.onDidChangeJob((id) => {
    const job = id === undefined ? undefined : feature.store.get(id);
    const p = job?.pendingApproval;
    if (!job || !p || jobState(job) !== 'waiting' || told.has(p.id)) return;
    told.add(p.id);
    void Promise.resolve(
      show(
        'warning',
        `Agent job "${shortLabel(job.prompt, 40)}" is waiting for ${approvalWords(p)}.`,
        job.threadId ? [APPROVE, DECLINE, SHOW_IN_TREE] : [SHOW_IN_TREE],
      ),
    ).then(async (choice) => {
      if (choice === SHOW_IN_TREE) await reveal(job.id);
      if (choice === APPROVE) await feature.commands['devIndex.agent.approve'](job.id);
      if (choice === DECLINE) await feature.commands['devIndex.agent.decline'](job.id);
    });
  });
}
