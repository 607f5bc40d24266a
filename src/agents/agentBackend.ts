// The calls the job store needs from the service, and nothing else; `AgentClient` (api/agent/agentClient.ts)
// satisfies it structurally. The wire types are imported as types only, so this feature adds no zod or undici to
// the bundle that loads it: the client itself is handed in (lazily) by the wiring.
import type { AgentListAll } from '../api/agent/agentClient';
import type { AgentJobRecord, AgentSnapshot, AgentTrace } from '../api/agent/agentSchemas';
import type { ExchangeCall } from '../api/agent/exchangeSchemas';
import type { AgentSubmitParams } from '../api/agent/submitSchema';

/** What a start answers: the run id, and (production) the thread it opened or continued. */
export interface AgentSubmitResult {
  id: string;
  response?: { threadId?: string | null; threadTurn?: number | null };
}
/** A snapshot as the client returns it: an answer without one is thrown (AgentClient.snapshot). */
export type AgentSnapshotResponse = AgentSnapshot & { snapshot: string };

/** What the job store calls. Every method rejects with an error carrying a `reason` (AgentClient's AgentError). */
export interface AgentBackend {
  /** Never retried by the client once the job may exist (`JobMayExistError`). */
  submit(
    params: AgentSubmitParams,
    opts?: { signal?: AbortSignal; extraModels?: readonly string[] },
  ): Promise<AgentSubmitResult>;
  /**
   * The caller's answer to a run that waits (`pendingApproval`): the next turn of its thread, with
   * `exchange.approve` (all calls, or `callIds`; `always` where the service allows it) or `decline`.
   */
  answerApproval?(a: {
    threadId: string;
    approvalId: string;
    decision: 'approve' | 'decline';
    callIds?: string[];
    always?: boolean;
  }): Promise<AgentSubmitResult>;
  /** Runs `terms/accept` Exchange calls: only after the user explicitly agreed to those terms. */
  acceptTerms?(calls: readonly ExchangeCall[]): Promise<unknown>;
  status(jobId: string): Promise<AgentJobRecord>;
  cancel(jobId: string): Promise<unknown>;
  trace(jobId: string): Promise<AgentTrace>;
  snapshot(jobId: string, snapshotId: string): Promise<AgentSnapshotResponse>;
  /** The job list, following `next` only on the configured service, up to a page bound. */
  listAll(o?: { maxPages?: number }): Promise<AgentListAll>;
}
