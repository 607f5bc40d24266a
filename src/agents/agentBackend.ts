// The calls the job store needs from the service, and nothing else. `AgentClient` (src/api/agent.ts)
// satisfies this structurally; tests pass a fake. Types only: this file must not pull zod or undici
// into whatever bundle imports the agents feature.
//
// Until src/api/agentSchemas.ts lands, the wire types below are declared locally, shaped after
// ../shared/spec/agent-and-search-addendum.md. They are deliberately loose (index signatures,
// `string` for enums): the feature reads every field defensively, so the zod-inferred types can
// replace them without touching the callers.

export interface AgentSubmitRequest {
  prompt: string;
  urls?: string[];
  schema?: Record<string, unknown>;
  maxCredits?: number;
  model?: string;
  effort?: 'low' | 'medium' | 'high';
  strictConstrainToURLs?: boolean;
}

export interface AgentSubmitResponse { success?: boolean; id: string }

/** `GET /v2/agent/{jobId}`; `status` is `processing`, `completed`, `failed` or something new. */
export interface AgentJobRecord {
  success?: boolean;
  id?: string;
  status: string;
  data?: unknown;
  creditsUsed?: number;
  error?: string;
  expiresAt?: string;
  model?: string;
}

export interface AgentTraceAgent { id: string; role: string; name?: string; parentId?: string | null }

/** The fields every trace event carries; type-specific fields are read defensively by name. */
export interface AgentTraceEvent {
  schemaVersion?: unknown;
  eventId: string;
  runId?: string;
  occurredAt: string;
  producerSequence: number;
  agent: AgentTraceAgent;
  type: string;
}

export interface AgentTraceResponse {
  success?: boolean;
  id?: string;
  events: AgentTraceEvent[];
  creditsUsed?: number;
}

export interface AgentSnapshotResponse { success?: boolean; id?: string; snapshotId: string; snapshot: string }

export interface AgentListJob {
  id: string;
  createdAt?: string | number;
  status: string;
  options?: { prompt?: string; urls?: string[]; model?: string; effort?: string; maxCredits?: number };
}

export interface AgentListResponse { success?: boolean; jobs: AgentListJob[]; next?: string | null }

export interface AgentCallOptions { signal?: AbortSignal }

/** What the job store calls. Every method rejects with an `ApiError`-shaped error (see agentErrors.ts). */
export interface AgentBackend {
  submit(request: AgentSubmitRequest, opts?: AgentCallOptions): Promise<AgentSubmitResponse>;
  status(jobId: string, opts?: AgentCallOptions): Promise<AgentJobRecord>;
  cancel(jobId: string, opts?: AgentCallOptions): Promise<unknown>;
  trace(jobId: string, opts?: AgentCallOptions): Promise<AgentTraceResponse>;
  snapshot(jobId: string, snapshotId: string, opts?: AgentCallOptions): Promise<AgentSnapshotResponse>;
  list(opts?: AgentCallOptions & { before?: number }): Promise<AgentListResponse>;
}
