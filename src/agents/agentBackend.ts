// The calls the job store needs from the service, and nothing else. `AgentClient` (src/api/agent.ts)
// satisfies this structurally; unit tests pass a fake. The wire types are the zod-inferred ones of
// src/api/agentSchemas.ts, imported as types only so this feature adds no zod or undici to the
// bundle that loads it: the client itself is handed in (lazily) by the wiring.
import type { AgentSubmitParams } from '../api/agent';
import type { AgentJob, AgentList, AgentSnapshot, AgentTrace, TraceEvent } from '../api/agentSchemas';

export type { AgentSubmitParams, TraceEvent };
export type AgentJobRecord = AgentJob;
export type AgentTraceResponse = AgentTrace;
export type AgentSnapshotResponse = AgentSnapshot;
export type AgentListResponse = AgentList & { nextBefore?: number };
export type AgentListJob = AgentList['jobs'][number];

/** What the job store calls. Every method rejects with an `ApiError` (src/api/errors.ts). */
export interface AgentBackend {
  /** Never retried by the client once the job may exist (`JobMayExistError`). */
  submit(params: AgentSubmitParams): Promise<{ id: string }>;
  status(jobId: string): Promise<AgentJobRecord>;
  cancel(jobId: string): Promise<unknown>;
  trace(jobId: string): Promise<AgentTraceResponse>;
  snapshot(jobId: string, snapshotId: string): Promise<AgentSnapshotResponse>;
  list(o?: { before?: number }): Promise<AgentListResponse>;
}
