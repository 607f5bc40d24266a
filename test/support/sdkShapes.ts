// Wire fixtures typed against the service's own SDK (`firecrawl`, a dev dependency): a field the SDK
// does not declare, or one of the wrong type, fails `tsc`. The values are the shapes of the addendum's
// last section ("Exact shapes as of late November 2026"), written out as the service sends them.
// Where production is newer than the SDK, the extra fields are declared below with the addendum's words.
import type {
  AgentExchangeSummary,
  AgentStatusResponse,
  AgentTermsRequiredAction,
  AgentThreadResponse,
  AgentThreadRun,
  PendingApproval,
  PendingCallsApproval,
  PendingTermsApproval,
  AgentSnapshotResponse,
} from 'firecrawl';

/** Production fields on a status record the SDK 4.42.0 does not declare (addendum, "Agent responses"). */
export interface ProductionStatusExtras {
  /** What a credit-limited run gathered; present until the job expires. */
  partial?: unknown;
  partialSchemaValid?: boolean;
  /** `credit_limit_reached` names the ceiling. */
  stopReason?: string;
}
export type ProductionStatus = AgentStatusResponse & ProductionStatusExtras;

export const APPROVAL_ID = '7b1c2d3e-4f50-4a61-8b72-9c8d7e6f5a41';
export const THREAD_ID = '0f1e2d3c-4b5a-4697-8877-665544332211';
export const RUN_ID = '11111111-2222-4333-8444-555555555555';
export const NEXT_RUN_ID = '11111111-2222-4333-8444-666666666666';

/** A `calls` approval: two paid calls, one without an estimate (the SDK allows `null`). */
export const CALLS_APPROVAL = {
  id: APPROVAL_ID,
  reason: 'The answer needs two paid calls.',
  kind: 'calls',
  calls: [
    {
      id: 'call_1',
      provider: 'github',
      capability: 'search_issues',
      input: { q: 'retry backoff', repo: 'undici/undici' },
      creditsEstimate: 5,
    },
    {
      id: 'call_2',
      provider: 'stackexchange',
      capability: 'search',
      input: { q: 'undici retry' },
      more: [{ page: 2 }],
      creditsEstimate: null,
    },
  ],
  resolution: null,
} satisfies PendingCallsApproval;

/** An older `calls` record: written before terms offers existed, so `kind` is absent. */
export const OLD_CALLS_APPROVAL = {
  id: APPROVAL_ID,
  reason: 'Approve the call.',
  calls: [{ id: 'call_1', provider: 'github', capability: 'get_issue', input: { number: 42 }, creditsEstimate: 2 }],
  resolution: null,
} satisfies PendingCallsApproval;

/** A `terms` approval ("ask" mode): `calls` always empty, `terms` an array. */
export const TERMS_APPROVAL = {
  id: APPROVAL_ID,
  reason: 'A provider that would help needs its data terms accepted.',
  kind: 'terms',
  calls: [],
  terms: [
    {
      provider: 'crunchbase',
      name: 'Crunchbase',
      capability: 'company_lookup',
      adds: 'funding rounds',
      version: '2026-10',
      digest: 'sha256:ab12',
      url: 'https://firecrawl.dev/terms/crunchbase',
    },
  ],
  resolution: null,
} satisfies PendingTermsApproval;

/** The same calls approval once answered (by the thread's next turn). */
export const RESOLVED_APPROVAL = {
  ...CALLS_APPROVAL,
  resolution: { approved: true, callIds: ['call_1'], always: false, byRunId: NEXT_RUN_ID },
} satisfies PendingApproval;

export const REQUIRES_ACTION = {
  type: 'accept_terms',
  approvalId: APPROVAL_ID,
  providers: [
    {
      provider: 'crunchbase',
      name: 'Crunchbase',
      capability: 'company_lookup',
      adds: 'funding rounds',
      version: '2026-10',
      digest: 'sha256:ab12',
      url: 'https://firecrawl.dev/terms/crunchbase',
      show: { provider: 'firecrawl', capability: 'terms/show', options: { provider: 'crunchbase' } },
      accept: {
        provider: 'firecrawl',
        capability: 'terms/accept',
        options: { provider: 'crunchbase', version: '2026-10', digest: 'sha256:ab12', confirmed: true },
      },
    },
  ],
} satisfies AgentTermsRequiredAction;

/** A finished run's paid calls, with a provider it skipped because its terms were not accepted. */
export const PAID_EXCHANGE = {
  enabled: true,
  toolkits: ['github'],
  paidCalls: 2,
  creditsUsed: 30,
  skippedProviders: [
    {
      provider: 'crunchbase',
      name: 'Crunchbase',
      capability: 'company_lookup',
      adds: 'funding rounds',
      reason: 'terms_required',
      version: '2026-10',
      termsUrl: 'https://firecrawl.dev/app/terms/crunchbase',
    },
  ],
} satisfies AgentExchangeSummary;

/** A run waiting for calls: status `processing` (the usual case). Fields absent, never null. */
export const WAITING_STATUS = {
  success: true,
  status: 'processing',
  expiresAt: '2026-11-28T18:00:00.000Z',
  creditsUsed: 12,
  threadId: THREAD_ID,
  threadTurn: 1,
  mode: 'chat',
  pendingApproval: CALLS_APPROVAL,
  exchange: { enabled: true, requireApproval: true, paidCalls: 0, creditsUsed: null },
} satisfies ProductionStatus;

/** A turn that ENDED waiting for terms: status `completed`, the approval unresolved. */
export const ENDED_WAITING_STATUS = {
  success: true,
  status: 'completed',
  expiresAt: '2026-11-28T18:00:00.000Z',
  creditsUsed: 20,
  threadId: THREAD_ID,
  threadTurn: 1,
  mode: 'chat',
  message: 'I can add funding rounds once you accept the Crunchbase data terms.',
  pendingApproval: TERMS_APPROVAL,
  exchange: { enabled: true, onTermsRequired: 'ask', paidCalls: 0, creditsUsed: 0, requiresAction: REQUIRES_ACTION },
} satisfies ProductionStatus;

/** A finished run with paid calls and a skipped provider. */
export const PAID_STATUS = {
  success: true,
  status: 'completed',
  expiresAt: '2026-11-28T18:00:00.000Z',
  creditsUsed: 75,
  threadId: THREAD_ID,
  threadTurn: 2,
  mode: 'chat',
  message: 'Two issues mention the retry backoff.',
  suggestions: [{ label: 'Show the fix', prompt: '' }],
  exchange: PAID_EXCHANGE,
} satisfies ProductionStatus;

export const WAITING_THREAD_RUN = {
  id: RUN_ID,
  turn: 1,
  mode: 'chat',
  prompt: 'Which issues mention the retry backoff?',
  status: 'processing',
  createdAt: '2026-11-27T18:00:00.000Z',
  finishedAt: null,
  creditsUsed: 12,
  message: null,
  pendingApproval: CALLS_APPROVAL,
  exchange: { enabled: true, paidCalls: 0, creditsUsed: null },
} satisfies AgentThreadRun;

export const THREAD_BODY = {
  success: true,
  thread: {
    id: THREAD_ID,
    createdAt: '2026-11-27T18:00:00.000Z',
    updatedAt: '2026-11-27T18:01:00.000Z',
    status: 'idle',
    runs: [
      WAITING_THREAD_RUN,
      {
        id: NEXT_RUN_ID,
        turn: 2,
        mode: 'chat',
        prompt: 'Approved.',
        status: 'succeeded',
        createdAt: '2026-11-27T18:01:00.000Z',
        finishedAt: '2026-11-27T18:02:00.000Z',
        creditsUsed: 45,
        message: 'Done.',
        suggestions: null,
        pendingApproval: null,
        exchange: PAID_EXCHANGE,
      },
    ],
  },
} satisfies AgentThreadResponse;

/** Bodies without their record: the SDK declares `thread` and `snapshot` optional. */
export const THREAD_WITHOUT_RECORD = {
  success: false,
  error: 'Thread is being archived.',
} satisfies AgentThreadResponse;
export const SNAPSHOT_WITHOUT_RECORD = {
  success: false,
  error: 'Snapshot storage is unavailable.',
} satisfies AgentSnapshotResponse;
