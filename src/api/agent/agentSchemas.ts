// Wire schemas of the agent endpoints (addendum, "Agent operations"). Everything beyond the
// specification is "observed, may change", so these are tolerant: unknown fields pass through, enum
// values are plain strings kept as they came, a field of the wrong type is dropped rather than
// failing the whole record, and an event that is not even an object is kept as an `unknown` event.
import * as z from 'zod';

/** Optional, and dropped (undefined) when present with an unexpected type. */
function soft<T extends z.ZodType>(s: T) {
  return s.optional().catch(undefined);
}

export {
  KNOWN_JOB_STATUSES, KNOWN_EVENT_TYPES, KNOWN_OUTCOMES, KNOWN_ERROR_CODES, isTerminalStatus,
} from './agentConstants';

/** Thread fields (newer service): kept when present, never a reason to refuse a record. */
const threadFields = {
  threadId: soft(z.string()),
  threadTurn: soft(z.number()),
};

/** A follow-up the service proposes after a turn (`suggestions`). Entries without a prompt are dropped. */
export const SuggestionSchema = z.looseObject({
  label: soft(z.string()),
  prompt: z.string().min(1),
});
export type AgentSuggestion = z.infer<typeof SuggestionSchema>;

const suggestions = z.array(z.unknown()).catch([]).transform((l) => l.flatMap((s) => {
  const p = SuggestionSchema.safeParse(s);
  return p.success ? [p.data] : [];
}));

/** One tool call a waiting run asks the caller to approve. `id` or `callId`, `name` or `toolName`. */
export const ApprovalCallSchema = z.looseObject({
  id: soft(z.string()),
  callId: soft(z.string()),
  name: soft(z.string()),
  toolName: soft(z.string()),
  toolkit: soft(z.string()),
  arguments: z.unknown().optional(),
}).transform((c) => ({ ...c, id: c.id ?? c.callId, name: c.name ?? c.toolName }));
export type ApprovalCall = z.infer<typeof ApprovalCallSchema>;

/**
 * The run waits for the caller (`pendingApproval`): tool calls to approve (`kind: calls`) or terms
 * to accept (`kind: terms`). Any other kind is kept as it came and shown raw.
 */
export const PendingApprovalSchema = z.looseObject({
  kind: z.string().catch('unknown'),
  approvalId: z.string().min(1),
  calls: soft(z.array(z.unknown()).transform((l) => l.flatMap((c) => {
    const p = ApprovalCallSchema.safeParse(c);
    return p.success ? [p.data] : [];
  }))),
  terms: soft(z.looseObject({ name: soft(z.string()), url: soft(z.string()), text: soft(z.string()) })),
  message: soft(z.string()),
  expiresAt: soft(z.string()),
});
export type PendingApproval = z.infer<typeof PendingApprovalSchema>;

/** The exchange summary of a run that may call tools through the service. */
export const ExchangeSummarySchema = z.looseObject({
  enabled: soft(z.boolean()),
  toolkits: soft(z.array(z.string())),
  maxCalls: soft(z.number()),
  callsUsed: soft(z.number()),
});
export type ExchangeSummary = z.infer<typeof ExchangeSummarySchema>;

export const SubmitResponseSchema = z.looseObject({
  success: soft(z.boolean()),
  id: z.string().min(1),
  ...threadFields,
});
export type AgentSubmitResponse = z.infer<typeof SubmitResponseSchema>;

/**
 * The status record. Production sends no `id`; `partial` holds what a run gathered before it stopped
 * early (its credit ceiling); after `expiresAt` every agent endpoint answers 404 for the job.
 */
export const AgentJobRecordSchema = z.looseObject({
  success: soft(z.boolean()),
  id: soft(z.string()),
  status: z.string(),
  data: z.unknown().optional(),
  partial: z.unknown().optional(),
  partialSchemaValid: soft(z.boolean()),
  stopReason: soft(z.string().nullable()),
  creditsUsed: soft(z.number()),
  error: soft(z.string().nullable()),
  expiresAt: soft(z.string()),
  model: soft(z.string()),
  effort: soft(z.string().nullable()),
  ...threadFields,
  /** `extract` (data) or `chat` (an answer in words, in `message`; `data` is null). */
  mode: soft(z.string()),
  message: soft(z.string().nullable()),
  suggestions: suggestions.optional(),
  pendingApproval: soft(PendingApprovalSchema.nullable()),
  exchange: soft(ExchangeSummarySchema.nullable()),
});
export type AgentJobRecord = z.infer<typeof AgentJobRecordSchema>;

/** Cancel answers `{ success: true }`; an empty body is accepted as well. */
export const CancelResponseSchema = z.looseObject({ success: soft(z.boolean()) }).optional().transform((v) => v ?? {});
export type AgentCancelResponse = z.infer<typeof CancelResponseSchema>;

export const TraceErrorSchema = z.looseObject({
  code: z.string(),
  source: soft(z.string()),
  retryable: soft(z.boolean()),
  message: soft(z.string()),
});
export type TraceError = z.infer<typeof TraceErrorSchema>;

export const ArtifactSchema = z.looseObject({
  kind: z.string().catch('unknown'),
  artifactId: soft(z.string()),
  path: soft(z.string()),
  snapshotId: soft(z.string()),
  change: soft(z.string()),
  changedFields: soft(z.array(z.string())),
  itemCount: soft(z.number()),
});
export type Artifact = z.infer<typeof ArtifactSchema>;

export const EventAgentSchema = z.looseObject({
  id: z.string(),
  role: z.string().catch('unknown'),
  name: soft(z.string()),
  parentId: z.string().nullish().catch(undefined).transform((v) => v ?? undefined),
});
export type EventAgent = z.infer<typeof EventAgentSchema>;

export const TraceEventSchema = z.looseObject({
  schemaVersion: soft(z.union([z.number(), z.string()])),
  eventId: soft(z.string()),
  runId: soft(z.string()),
  occurredAt: soft(z.string()),
  producerSequence: soft(z.number()),
  agent: soft(EventAgentSchema),
  type: z.string().catch('unknown'),
  outcome: soft(z.string()),
  error: soft(TraceErrorSchema.nullable()),
  artifact: soft(ArtifactSchema),
  phase: soft(z.string()),
  message: soft(z.string()),
  text: soft(z.string()),
  reason: soft(z.string()),
  toolCallId: soft(z.string()),
  toolName: soft(z.string()),
  sessionId: soft(z.string()),
  durationMs: soft(z.number()),
});
export type TraceEvent = z.infer<typeof TraceEventSchema>;

/** One event of whatever shape: never throws; a non-object becomes `{ type: 'unknown', value }`. */
export function parseTraceEvent(raw: unknown): TraceEvent {
  const r = TraceEventSchema.safeParse(raw);
  if (r.success) return r.data;
  return { type: 'unknown', value: raw } as TraceEvent;
}

const EventsSchema = z.array(z.unknown()).catch([]).transform((list) => list.map(parseTraceEvent));

export const LiveSessionSchema = z.looseObject({
  id: z.string(),
  liveViewUrl: soft(z.string()),
  viewport: z.unknown().optional(),
});

export const TraceResponseSchema = z.looseObject({
  success: soft(z.boolean()),
  id: soft(z.string()),
  events: EventsSchema.optional().transform((v) => v ?? []),
  creditsUsed: soft(z.number()),
  activeBrowserSessions: soft(z.array(z.unknown()).transform((l) => l.flatMap((s) => {
    const p = LiveSessionSchema.safeParse(s);
    return p.success ? [p.data] : [];
  }))),
});
export type AgentTrace = z.infer<typeof TraceResponseSchema>;

/** `snapshot` is a string (JSON text for json artifacts); anything else is turned into JSON text. */
export const SnapshotResponseSchema = z.looseObject({
  success: soft(z.boolean()),
  id: soft(z.string()),
  snapshotId: soft(z.string()),
  snapshot: z.unknown().transform((v) => (typeof v === 'string' ? v : JSON.stringify(v ?? null, null, 2))),
});
export type AgentSnapshot = z.infer<typeof SnapshotResponseSchema>;

export const ListEntrySchema = z.looseObject({
  id: z.string(),
  createdAt: soft(z.union([z.string(), z.number()])),
  status: z.string().catch('unknown'),
  options: soft(z.looseObject({
    prompt: soft(z.string()),
    urls: soft(z.array(z.string()).nullable()),
    schema: z.unknown().optional(),
    model: soft(z.string().nullable()),
    effort: soft(z.string().nullable()),
    mode: soft(z.string().nullable()),
    threadId: soft(z.string().nullable()),
    threadTurn: soft(z.number().nullable()),
  })),
  settings: soft(z.looseObject({
    label: soft(z.string().nullable()),
    starred: soft(z.boolean()),
    hidden: soft(z.boolean()),
  })),
  ...threadFields,
});
export type AgentListEntry = z.infer<typeof ListEntrySchema>;

const entries = z.array(z.unknown()).catch([]).transform((l) => l.flatMap((j) => {
  const p = ListEntrySchema.safeParse(j);
  return p.success ? [p.data] : [];
}));

/**
 * Production lists the jobs under `agents`; the older shape (and the specification wire of the
 * sandbox) under `jobs`. Both read into `agents`. Jobs without an id cannot be acted on and are left
 * out; every other row is kept.
 */
export const ListResponseSchema = z.looseObject({
  success: soft(z.boolean()),
  agents: entries.optional(),
  jobs: entries.optional(),
  next: soft(z.string().nullable()),
}).transform(({ jobs, agents, ...rest }) => ({ ...rest, agents: agents ?? jobs ?? [] }));
export type AgentList = z.infer<typeof ListResponseSchema>;


/**
 * One turn of a thread (`GET /v2/agent/threads/{id}`). Thread runs say how they ended in `status`
 * directly: `processing`, `succeeded`, `failed`, `cancelled`, `refused`, `credit_limit_reached`.
 */
export const ThreadRunSchema = z.looseObject({
  id: soft(z.string()),
  turn: z.number().catch(0),
  mode: soft(z.string().nullable()),
  prompt: soft(z.string()),
  status: z.string().catch('unknown'),
  createdAt: soft(z.union([z.string(), z.number()])),
  creditsUsed: soft(z.number()),
  message: soft(z.string().nullable()),
  data: z.unknown().optional(),
  error: soft(z.string().nullable()),
});
export type AgentThreadRun = z.infer<typeof ThreadRunSchema>;

export const ThreadResponseSchema = z.looseObject({
  success: soft(z.boolean()),
  thread: z.looseObject({
    id: z.string(),
    status: z.string().catch('unknown'),
    createdAt: soft(z.union([z.string(), z.number()])),
    expiresAt: soft(z.string()),
    runs: z.array(z.unknown()).catch([]).transform((l) => l.flatMap((r) => {
      const p = ThreadRunSchema.safeParse(r);
      return p.success ? [p.data] : [];
    }).sort((a, b) => a.turn - b.turn)),
  }),
});
export type AgentThread = z.infer<typeof ThreadResponseSchema>['thread'];
