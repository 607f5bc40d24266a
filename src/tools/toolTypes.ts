// The tools' shared types (the operations in toolOps.ts and searchOps.ts, the editor's and MCP's wiring). No vscode import.
import type { AgentClient } from '../api/agent/agentClient';
import type { ToolSubmitParams } from '../api/agent/submitSchema';
import type { CallOptions } from '../api/client';
import type { FollowClock } from '../agentRun/runEngine';
import type { PollTiming } from '../agentRun/pollSchedule';
import type { DeprecationNotice } from '../api/notices';
import type { SearchParams } from '../api/params';
import type { SearchResponse } from '../api/schemas';
import type { FolderResolver } from '../deps/dependencyScope';
import type { MoreCache } from './moreCache';
import type { Surface } from './modelText';
import type { FixesOutcome, FixesProgress } from '../fixes/report';

export interface ToolOutcome {
  text: string;
  isError: boolean;
}

export type AgentOps = Pick<
  AgentClient,
  'submit' | 'status' | 'cancel' | 'trace' | 'snapshot' | 'listAll' | 'answerApproval'
>;
export type AgentModule = typeof import('../api/agent/agentClient').agentModule;

/** The repositories `scope: "workspace"` stands for, or why there are none. */
export type WorkspaceScope = { slugs: string[] } | { slugs: []; reason: string };

/** A job start as a model asks for it: the submission's fields a model may set (src/api/agent/submitSchema.ts). */

/** A model's answer to a waiting job (devIndex_answerApproval), as the user decided. */
export interface ApprovalAnswer {
  decision: 'approve' | 'decline';
  callIds?: string[];
  always?: boolean;
}

export interface ToolDeps {
  surface: Surface;
  /** The size budget of one answer, in characters. */
  maxChars(): number;
  /** The key in use, removed from any text as a last guard (it is never put there on purpose). */
  secret?(): Promise<string | undefined> | string | undefined;
  search(params: SearchParams, opts: CallOptions): Promise<SearchResponse>;
  agentModule(): Promise<AgentModule>;
  agent(): Promise<AgentOps>;
  /** Editor: starts through the Agent Jobs feature (so the job is in its tree). Default: AgentClient.submit. */
  start?(request: ToolSubmitParams): Promise<string | undefined>;
  /** Editor: after an approval was answered, the Agent Jobs view reads the job list again (the next turn shows). */
  onAnswered?(nextJobId: string): Promise<unknown> | void;
  /** Model names newer than this build that a start may use (devIndex.agent.extraModels, DEVINDEX_AGENT_MODELS). */
  extraModels?(): readonly string[];
  /** The credit ceiling used when the input has none (undefined: the service's default). */
  defaultMaxCredits?(): number | undefined;
  /** Agent tools need a key; undefined means "cannot tell", and the service answers. */
  hasKey?(): Promise<boolean>;
  workspaceRepos?(): Promise<WorkspaceScope>;
  /** How a `dependency` is found in its folder: the host's dependency lookup. */
  folderDependencies: FolderResolver;
  /** The most a call's own `maxTokens` may ask for, in characters (the editor: the caller's token budget). */
  maxCharsCap?(): number | undefined;
  /** Where cut answers are kept for devIndex_readMore (default: this process's one cache). */
  moreCache?: MoreCache;
  /** The wait's clock (tests) and poll timing (tests, DEVINDEX_POLL_MS). */
  clock?: FollowClock;
  pollTiming?: Partial<PollTiming>;
  /**
   * The folder whose manifests `dependency` is read from (`given`: the MCP input's `folder`).
   * Absent: MCP uses `given`, else the server's working folder; the editor has no folder to offer.
   */
  dependencyFolder?(given: string | undefined): Promise<string | undefined>;
  /** devIndex_fixes: the fixes check of a folder (only the named dependencies, when given); rejects as the engine does. */
  fixes?(
    folder: string,
    o: { signal?: AbortSignal; dependencies?: readonly string[]; onProgress?(p: FixesProgress): void },
  ): Promise<FixesOutcome>;
  /** Deprecation notices and service warnings not yet told (a NoticeBoard's `take`): added to the answer for the model to pass on. */
  takeNotices?(): DeprecationNotice[];
}

/** One line of progress while a tool runs (MCP progress notifications, the editor's invocation progress). */
export type ToolProgress = (line: string) => void;
