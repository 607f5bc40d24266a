// The job store's options and the answers of its user-facing actions (jobStore.ts). vscode-free.
import type { PollTiming } from '../agentRun/pollSchedule';
import type { AgentBackend } from './agentBackend';
import type { Timers } from './jobPoller';
import type { JobStorage } from './jobModel';
import type { PruneLimits } from './jobRepository';

export interface JobStoreOptions {
  /** Called on first use, so the client bundle loads only when a request is made. */
  backend: () => AgentBackend | Promise<AgentBackend>;
  storage: JobStorage;
  timers?: Timers;
  timing?: PollTiming;
  /** Requests the store has in flight at most, over all jobs. */
  maxInFlight?: number;
  /**
   * The trace alone tells progress and the end, so the status record is not polled while the trace
   * answers; only when the trace has brought nothing new for this long is the status read once, as a
   * safety net against a trace that stalls (default 5 minutes).
   */
  statusEveryMs?: number;
  /** Pages of the service's job list read by `refresh()`. */
  maxListPages?: number;
  /** `devIndex.agent.extraModels`: model names newer than this build, accepted at submission. */
  extraModels?: () => readonly string[];
  /** Whether the service's job list can be read (it needs a key). */
  canList?: () => boolean | Promise<boolean>;
  hidden?: boolean;
  onLog?: (message: string) => void;
  /** How often a visible store looks for jobs other windows started or removed (default 5 s). */
  syncEveryMs?: number;
  prune?: PruneLimits;
}

/** How the user answered an approval: which calls (all when left out), always, and agreement to terms. */
export interface ApprovalChoice {
  callIds?: string[];
  always?: boolean;
  /** The user explicitly agreed to the terms a `terms` approval shows. */
  acceptTerms?: boolean;
}

export type CancelResult = 'requested' | 'already-cancelled' | 'already-finished';
