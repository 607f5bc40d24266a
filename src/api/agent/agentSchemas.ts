// Wire schemas of the agent endpoints (addendum, "Agent operations"), tolerant of what is "observed, may change":
// unknown fields pass, enum values are plain strings, a field of the wrong type is dropped rather than the record,
// and an event that is not even an object is kept as an `unknown` event.
import * as z from 'zod';
import { ExchangeSummarySchema, listOf, PendingApprovalSchema, soft } from './exchangeSchemas';

/** Thread fields (newer service): kept when present, never a reason to refuse a record. */
const threadFields = {
  threadId: soft(z.string()),
  threadTurn: soft(z.number()),
};

/**
 * A follow-up the service proposes after a turn (`suggestions`). The SDK allows an empty `prompt`:
 * then the label is what is sent. Entries with neither are dropped.
 */
const SuggestionSchema = z
  .looseObject({
    label: soft(z.string()),
    prompt: z.string().catch(''),
  })
  .transform((s, ctx) => {
    const prompt = s.prompt.trim() ? s.prompt : (s.label ?? '');
    if (!prompt.trim()) {
      ctx.addIssue({ code: 'custom', message: 'a suggestion with neither prompt nor label' });
      return z.NEVER;
    }
    return { ...s, prompt };
  });
export type AgentSuggestion = z.output<typeof SuggestionSchema>;

const suggestions = listOf(SuggestionSchema);

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
export const CancelResponseSchema = z
  .looseObject({ success: soft(z.boolean()) })
  .optional()
  .transform((v) => v ?? {});
export type AgentCancelResponse = z.infer<typeof CancelResponseSchema>;

const TraceErrorSchema = z.looseObject({
  code: z.string(),
  source: soft(z.string()),
  retryable: soft(z.boolean()),
  message: soft(z.string()),
});
export type TraceError = z.infer<typeof TraceErrorSchema>;

const ArtifactSchema = z.looseObject({
  kind: z.string().catch('unknown'),
  artifactId: soft(z.string()),
  path: soft(z.string()),
  snapshotId: soft(z.string()),
  change: soft(z.string()),
  changedFields: soft(z.array(z.string())),
  itemCount: soft(z.number()),
});

const EventAgentSchema = z.looseObject({
  id: z.string(),
  role: z.string().catch('unknown'),
  name: soft(z.string()),
  parentId: z
    .string()
    .nullish()
    .catch(undefined)
    .transform((v) => v ?? undefined),
});
export type EventAgent = z.infer<typeof EventAgentSchema>;

const TraceEventSchema = z.looseObject({
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

const EventsSchema = z
  .array(z.unknown())
  .catch([])
  .transform((list) => list.map(parseTraceEvent));

const LiveSessionSchema = z.looseObject({
  id: z.string(),
  liveViewUrl: soft(z.string()),
  viewport: z.unknown().optional(),
});

export const TraceResponseSchema = z.looseObject({
  success: soft(z.boolean()),
  id: soft(z.string()),
  events: EventsSchema.optional().transform((v) => v ?? []),
  creditsUsed: soft(z.number()),
  activeBrowserSessions: soft(
    z.array(z.unknown()).transform((l) =>
      l.flatMap((s) => {
        const p = LiveSessionSchema.safeParse(s);
        return p.success ? [p.data] : [];
      }),
    ),
  ),
});
export type AgentTrace = z.infer<typeof TraceResponseSchema>;

/**
 * `snapshot` is a string (JSON text for json artifacts); anything else is turned into JSON text. The
 * SDK declares it optional: a body without it (`{ success: false, error }`) is an answer to show
 * (`snapshot` undefined, `error` kept), not an invalid response.
 */
export const SnapshotResponseSchema = z.looseObject({
  success: soft(z.boolean()),
  id: soft(z.string()),
  snapshotId: soft(z.string()),
  error: soft(z.string()),
  snapshot: z
    .unknown()
    .transform((v) => (v === undefined ? undefined : typeof v === 'string' ? v : JSON.stringify(v, null, 2)))
    .optional(),
});
export type AgentSnapshot = z.infer<typeof SnapshotResponseSchema>;

const ListEntrySchema = z.looseObject({
  id: z.string(),
  createdAt: soft(z.union([z.string(), z.number()])),
  status: z.string().catch('unknown'),
  options: soft(
    z.looseObject({
      prompt: soft(z.string()),
      urls: soft(z.array(z.string()).nullable()),
      schema: z.unknown().optional(),
      model: soft(z.string().nullable()),
      effort: soft(z.string().nullable()),
      mode: soft(z.string().nullable()),
      threadId: soft(z.string().nullable()),
      threadTurn: soft(z.number().nullable()),
    }),
  ),
  settings: soft(
    z.looseObject({
      label: soft(z.string().nullable()),
      starred: soft(z.boolean()),
      hidden: soft(z.boolean()),
    }),
  ),
  ...threadFields,
});
export type AgentListEntry = z.infer<typeof ListEntrySchema>;

const entries = listOf(ListEntrySchema);

/**
 * Production lists the jobs under `agents`; the older shape (and the specification wire of the
 * sandbox) under `jobs`. Both read into `agents`. Jobs without an id cannot be acted on and are left
 * out; every other row is kept.
 */
export const ListResponseSchema = z
  .looseObject({
    success: soft(z.boolean()),
    agents: entries.optional(),
    jobs: entries.optional(),
    next: soft(z.string().nullable()),
  })
  .transform(({ jobs, agents, ...rest }) => ({ ...rest, agents: agents ?? jobs ?? [] }));
export type AgentList = z.infer<typeof ListResponseSchema>;

/**
 * One turn of a thread (`GET /v2/agent/threads/{id}`). Thread runs say how they ended in `status`
 * directly: `processing`, `succeeded`, `failed`, `cancelled`, `refused`, `credit_limit_reached`.
 */
const ThreadRunSchema = z.looseObject({
  id: soft(z.string()),
  turn: z.number().catch(0),
  mode: soft(z.string().nullable()),
  prompt: soft(z.string()),
  status: z.string().catch('unknown'),
  createdAt: soft(z.union([z.string(), z.number()])),
  finishedAt: soft(z.string().nullable()),
  creditsUsed: soft(z.number().nullable()),
  message: soft(z.string().nullable()),
  data: z.unknown().optional(),
  error: soft(z.string().nullable()),
  stopReason: soft(z.string().nullable()),
  suggestions: suggestions.nullable().optional(),
  pendingApproval: soft(PendingApprovalSchema.nullable()),
  exchange: soft(ExchangeSummarySchema.nullable()),
});
export type AgentThreadRun = z.infer<typeof ThreadRunSchema>;

/**
 * `thread` is optional in the SDK (`AgentThreadResponse`): a body without it (`{ success: false,
 * error }`) is read as an answer with `thread` undefined and its `error` kept.
 */
export const ThreadResponseSchema = z.looseObject({
  success: soft(z.boolean()),
  error: soft(z.string()),
  thread: soft(
    z.looseObject({
      id: z.string(),
      status: z.string().catch('unknown'),
      createdAt: soft(z.union([z.string(), z.number()])),
      updatedAt: soft(z.union([z.string(), z.number()])),
      expiresAt: soft(z.string()),
      runs: listOf(ThreadRunSchema).transform((l) => [...l].sort((a, b) => a.turn - b.turn)),
    }),
  ),
});
export type AgentThread = NonNullable<z.infer<typeof ThreadResponseSchema>['thread']>;
