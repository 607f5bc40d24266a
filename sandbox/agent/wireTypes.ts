// The production wire's bodies, typed against the service's own JS SDK (`firecrawl` 4.42.0, a dev dependency): each
// builder in service.ts and exchange.ts ends in `satisfies` one of these, so a guessed field fails `tsc`. Where
// production is newer than the SDK, the extension says which addendum section it follows.
import type {
  AgentExchangeSummary,
  AgentListItem,
  AgentListResponse,
  AgentResponse,
  AgentSnapshotResponse,
  AgentStatusResponse,
  AgentTermsGate,
  AgentThread,
  AgentThreadResponse,
  AgentThreadRun,
  AgentTraceEvent,
  AgentTraceResponse,
  AlexandriaScrapeData,
  AlexandriaScrapeResult,
  PendingApproval,
  PendingApprovalCall,
} from 'firecrawl';

export type {
  AgentExchangeSummary,
  AgentResponse,
  AgentSnapshotResponse,
  AgentTermsGate,
  AgentThreadResponse,
  AlexandriaScrapeResult,
  PendingApproval,
  PendingApprovalCall,
};

/**
 * Status values production sends beyond the SDK's union: `cancelled` (addendum, "What the production
 * service sends today" › Agent responses: "`status` values seen: …, and in newer documentation
 * `cancelled`"). `cancelling` is the sandbox's own (sandbox/agent/README.md: a status a client must
 * tolerate as unknown).
 */
export type ProductionRunStatus = AgentStatusResponse['status'] | 'cancelled' | 'cancelling';

/**
 * `GET /v2/agent/{id}`. Beyond the SDK: `partial`, `partialSchemaValid`, `stopReason` (addendum, "What
 * the production service sends today" › Agent responses, "Status … Fields seen") and the statuses above.
 */
export type ProductionStatusBody = Omit<AgentStatusResponse, 'status'> & {
  status: ProductionRunStatus;
  partial?: unknown;
  partialSchemaValid?: boolean;
  stopReason?: 'credit_limit_reached';
};

/**
 * `POST /v2/agent`: the SDK's declaration, with the thread fields every start answers (addendum, "Agent threads, chat
 * mode and approvals").
 */
export type ProductionSubmitBody = AgentResponse & { threadId: string; threadTurn: number };

/**
 * A row of `GET /v2/agent`. Beyond the SDK: `options.mode`, `options.threadId`, `options.threadTurn`
 * (addendum, "Agent threads, chat mode and approvals": "The list's `options` may carry `mode`,
 * `threadId`, `threadTurn`") and the statuses above.
 */
export type ProductionListItem = Omit<AgentListItem, 'status' | 'options'> & {
  status: ProductionRunStatus;
  options: NonNullable<AgentListItem['options']> & {
    mode?: 'extract' | 'chat';
    threadId?: string;
    threadTurn?: number;
  };
};
/** The list body: the SDK's, with the rows above. */
export type ProductionListBody = Omit<AgentListResponse, 'agents'> & { agents: ProductionListItem[] };

/** A thread run as the SDK declares it (`finishedAt`, `message: string | null`, `pendingApproval`, `exchange`). */
export type ProductionThreadRun = AgentThreadRun;
/**
 * The thread record. Beyond the SDK: `expiresAt` (the sandbox's: when the thread answers 410
 * `thread_expired`, addendum "Agent threads, chat mode and approvals" › Errors).
 */
export type ProductionThread = AgentThread & { expiresAt: string };
export type ProductionThreadBody = Omit<AgentThreadResponse, 'thread'> & { thread?: ProductionThread };

/** Trace events the SDK's union leaves out (addendum, "Agent threads, chat mode and approvals" › Trace). */
export type ProductionExtraEvent = Pick<
  AgentTraceEvent,
  'schemaVersion' | 'eventId' | 'runId' | 'occurredAt' | 'producerSequence' | 'agent'
> &
  (
    | { type: 'assistant.message'; text: string }
    | { type: 'usage.recorded'; usage: { model: string; inputTokens: number; outputTokens: number } }
  );
export type ProductionTraceEvent = AgentTraceEvent | ProductionExtraEvent;
export type ProductionTraceBody = Omit<AgentTraceResponse, 'events'> & { events: ProductionTraceEvent[] };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** What the engine plans for an event: everything but the envelope (`schemaVersion`, ids, time, sequence, agent). */
export type EventBody = DistributiveOmit<
  ProductionTraceEvent,
  'schemaVersion' | 'eventId' | 'runId' | 'occurredAt' | 'producerSequence' | 'agent'
>;

export type SnapshotBody = AgentSnapshotResponse;

/**
 * `POST /v2/scrape` with `alexandria`: the SDK's `scrapeAlexandria` reads `{ success, scrape_id,
 * data: { alexandria, creditsCost } }` (node_modules/firecrawl/dist/index.js) and returns it as
 * `AlexandriaScrapeData`; the addendum ("Exact shapes as of late November 2026" › Accepting terms)
 * says the answer carries `alexandria: [...]` and an integer `creditsCost`.
 */
export interface ProductionScrapeBody {
  success: true;
  scrape_id: string;
  data: Pick<AlexandriaScrapeData, 'alexandria' | 'creditsCost'>;
}

export type ExchangeSummary = AgentExchangeSummary;
