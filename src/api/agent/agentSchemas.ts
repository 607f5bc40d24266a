// Wire schemas of the agent endpoints (addendum, "Agent operations"). Everything beyond the
// specification is "observed, may change", so these are tolerant: unknown fields pass through, enum
// values are plain strings kept as they came, a field of the wrong type is dropped rather than
// failing the whole record, and an event that is not even an object is kept as an `unknown` event.
import * as z from 'zod';

/** Optional, and dropped (undefined) when present with an unexpected type. */
function soft<T extends z.ZodType>(s: T) {
  return s.optional().catch(undefined);
}

/** A list of objects read item by item: an item that does not parse is left out, never the list. */
function listOf<T extends z.ZodType>(item: T) {
  return z
    .array(z.unknown())
    .catch([])
    .transform((l) =>
      l.flatMap((x) => {
        const p = item.safeParse(x);
        return p.success ? [p.data as z.output<T>] : [];
      }),
    );
}

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

/**
 * A paid call a waiting run holds back (SDK `PendingApprovalCall`): `{ id, provider, capability,
 * input, more?, creditsEstimate }`. A call without an estimate (`null`, or none at all) is still listed.
 */
const ApprovalCallSchema = z.looseObject({
  id: soft(z.string()),
  provider: soft(z.string()),
  capability: soft(z.string()),
  input: z.unknown().optional(),
  more: soft(z.array(z.unknown())),
  creditsEstimate: soft(z.number().nullable()),
});

/** A provider whose data terms a `terms` approval asks the caller to accept (SDK `AgentTermsGate`). */
const TermsGateSchema = z.looseObject({
  provider: soft(z.string()),
  name: soft(z.string()),
  logo: soft(z.string()),
  capability: soft(z.string()),
  adds: soft(z.string()),
  version: soft(z.string()),
  digest: soft(z.string().nullable()),
  url: soft(z.string()),
});

/** How a pending approval was answered (SDK `PendingApprovalBase.resolution`); null while it waits. */
const ApprovalResolutionSchema = z.looseObject({
  approved: z.boolean().catch(false),
  callIds: listOf(z.string()).optional(),
  always: soft(z.boolean()),
  byRunId: soft(z.string()),
});

/**
 * The run waits for the caller (`pendingApproval`, SDK `PendingApproval`, addendum "Exact shapes as
 * of late November 2026"): paid calls to allow (`kind: calls`) or providers' data terms to accept
 * (`kind: terms`). The approval's id is `id` (sent back as `approvalId`); `kind` is missing on
 * older records (then `terms` non-empty means terms, else calls). Any other kind is kept as it came
 * and shown raw. `approvalId` is read as the id only when `id` is missing (records kept by versions
 * of this extension before 0.2, and the sandbox's older shape).
 */
export const PendingApprovalSchema = z
  .looseObject({
    id: soft(z.string().min(1)),
    approvalId: soft(z.string().min(1)),
    kind: soft(z.string()),
    reason: soft(z.string()),
    calls: listOf(ApprovalCallSchema).optional(),
    terms: listOf(TermsGateSchema).optional(),
    resolution: soft(ApprovalResolutionSchema.nullable()),
  })
  .transform((p, ctx) => {
    const id = p.id ?? p.approvalId;
    if (!id) {
      ctx.addIssue({ code: 'custom', message: 'pendingApproval has no id' });
      return z.NEVER;
    }
    const calls = p.calls ?? [];
    const terms = p.terms ?? [];
    const kind = p.kind ?? (terms.length > 0 ? 'terms' : 'calls');
    const { approvalId: _legacy, ...rest } = p;
    return { ...rest, id, kind, calls, terms, resolution: p.resolution ?? null };
  });
export type PendingApproval = z.output<typeof PendingApprovalSchema>;

/** A gated provider a run would have used but did not (SDK `AgentSkippedProvider`). */
const SkippedProviderSchema = z.looseObject({
  provider: soft(z.string()),
  name: soft(z.string()),
  capability: soft(z.string()),
  adds: soft(z.string()),
  reason: soft(z.string()),
  version: soft(z.string()),
  termsUrl: soft(z.string()),
});
export type SkippedProvider = z.infer<typeof SkippedProviderSchema>;

/** An Exchange call as the service hands it over ready to run (`terms/show`, `terms/accept`). */
const ExchangeCallSchema = z.looseObject({
  provider: z.string(),
  capability: z.string(),
  options: soft(z.record(z.string(), z.unknown())),
});
export type ExchangeCall = z.infer<typeof ExchangeCallSchema>;

/**
 * One result of an Exchange call (SDK `AlexandriaScrapeResult`): a success carries `data`; a call that
 * failed carries `error` instead, inside an answer that is still a 200.
 */
export const ExchangeResultSchema = z.looseObject({
  provider: soft(z.string()),
  capability: soft(z.string()),
  data: z.unknown().optional(),
  error: soft(
    z.looseObject({
      code: soft(z.string()),
      message: soft(z.string()),
      status: soft(z.number()),
      chargeId: soft(z.string()),
    }),
  ),
});
export type ExchangeResult = z.infer<typeof ExchangeResultSchema>;

/**
 * The answer to Exchange calls (`POST /v2/scrape` with `alexandria`): the addendum gives
 * `alexandria` and `creditsCost` at the top; the SDK's `AlexandriaScrapeData` nests them in `data`.
 * A result that does not parse is kept as a failed one, so it can never read as a success.
 */
const ExchangeResultsSchema = z.array(ExchangeResultSchema.catch({ error: { message: 'unreadable result' } }));
export const ExchangeAnswerSchema = z.looseObject({
  success: soft(z.boolean()),
  error: soft(z.string()),
  alexandria: soft(ExchangeResultsSchema),
  creditsCost: soft(z.number()),
  data: soft(z.looseObject({ alexandria: soft(ExchangeResultsSchema), creditsCost: soft(z.number()) })),
});
export type ExchangeAnswer = z.infer<typeof ExchangeAnswerSchema>;

/** "ask" mode: terms to accept before the thread goes on (SDK `AgentTermsRequiredAction`). */
const TermsRequiredActionSchema = z.looseObject({
  type: z.string().catch('unknown'),
  approvalId: soft(z.string()),
  providers: listOf(
    TermsGateSchema.and(
      z.looseObject({
        show: soft(ExchangeCallSchema),
        accept: soft(ExchangeCallSchema),
      }),
    ),
  )
    .optional()
    .transform((v) => v ?? []),
});

/** A run's paid tool calls (SDK `AgentExchangeSummary`). */
export const ExchangeSummarySchema = z.looseObject({
  enabled: soft(z.boolean()),
  toolkits: soft(z.array(z.string())),
  requireApproval: soft(z.boolean()),
  onTermsRequired: soft(z.string()),
  paidCalls: soft(z.number()),
  creditsUsed: soft(z.number().nullable()),
  skippedProviders: listOf(SkippedProviderSchema).optional(),
  requiresAction: soft(TermsRequiredActionSchema),
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
