// Wire schemas of the Exchange (addendum, "Paid calls", "Accepting terms"): a waiting run's approval, the calls and
// their results, the terms a provider asks for, and the run's exchange summary. Tolerant as agentSchemas.ts is.
import * as z from 'zod';

/** Optional, and dropped (undefined) when present with an unexpected type. */
export function soft<T extends z.ZodType>(s: T) {
  return s.optional().catch(undefined);
}

/** A list of objects read item by item: an item that does not parse is left out, never the list. */
export function listOf<T extends z.ZodType>(item: T) {
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
const ExchangeResultSchema = z.looseObject({
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
