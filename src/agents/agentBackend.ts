// The calls the job store needs from the service, and nothing else. `AgentClient` (src/api/agent/agentClient.ts)
// satisfies this structurally; unit tests pass a fake. The wire types are the zod-inferred ones of
// src/api/agent/agentSchemas.ts, imported as types only so this feature adds no zod or undici to the
// bundle that loads it: the client itself is handed in (lazily) by the wiring.
import type { AgentListAll, AgentSubmitParams } from '../api/agent/agentClient';
import type { AgentJobRecord, AgentListEntry, AgentSnapshot, AgentTrace, TraceEvent } from '../api/agent/agentSchemas';

export type { AgentJobRecord, AgentListAll, AgentListEntry, AgentSubmitParams, TraceEvent };
export type AgentTraceResponse = AgentTrace;
/** What a start answers: the run id, and (production) the thread it opened or continued. */
export interface AgentSubmitResult { id: string; response?: { threadId?: string | null; threadTurn?: number | null } }
export type AgentSnapshotResponse = AgentSnapshot;

/** What the job store calls. Every method rejects with an error carrying a `reason` (AgentClient's AgentError). */
export interface AgentBackend {
  /** Never retried by the client once the job may exist (`JobMayExistError`). */
  submit(params: AgentSubmitParams, opts?: { signal?: AbortSignal; extraModels?: readonly string[] }): Promise<AgentSubmitResult>;
  /**
   * The caller's answer to a run that waits (`pendingApproval`): a follow-up in its thread. The service
   * answers with the same run id when it resumes the waiting run (a different id is a new turn).
   */
  answerApproval?(a: { threadId: string; approvalId: string; decision: 'approve' | 'decline'; callIds?: string[] }): Promise<AgentSubmitResult>;
  status(jobId: string): Promise<AgentJobRecord>;
  cancel(jobId: string): Promise<unknown>;
  trace(jobId: string): Promise<AgentTraceResponse>;
  snapshot(jobId: string, snapshotId: string): Promise<AgentSnapshotResponse>;
  /** The job list, following `next` only on the configured service, up to a page bound. */
  listAll(o?: { maxPages?: number }): Promise<AgentListAll>;
}
