// The agent service's shapes and constants (sandbox/agent/service.ts puts the parts together): a job,
// a thread, an approval, the errors the service answers with, and the context its parts share.
import { BLOCKED_HOSTS, ENGINE_2, ENGINE_2_PRODUCTION, type Outcome, type PlannedEvent } from './engine';
import type { PaidCall } from './paidCalls';
import type { TermsAcceptances, TermsProvider } from './exchange';
import type { Exchange, Mode, SubmitOptions } from './validate';
import type { Wire } from '../serverParts';
import type { PendingApproval, ProductionStatusBody } from './wireTypes';

/** The spec wire's trace body: as production's, but its events are not held to the SDK's union. */
export interface SpecTraceBody {
  success: true;
  id: string;
  events: unknown[];
  creditsUsed: number;
  activeBrowserSessions?: unknown[];
}

/** A run's outcome from its `run.finished` event; undefined for any other event (or none). */
export function outcomeOf(e: PlannedEvent | undefined): Outcome | undefined {
  return e?.body.type === 'run.finished' ? e.body.outcome : undefined;
}

/** Production's gateway answer when the agent back end refuses a request (e.g. `requireApproval` outside chat mode). */
export const PASSTHROUGH_ERROR = 'Failed to passthrough agent request.';

/** `NO-RECORD` answers: `{ success: false, error }` without the record. */
export const NO_RECORD_ERRORS = {
  snapshot: 'The snapshot could not be read (the sandbox leaves it out: NO-RECORD in the prompt).',
  thread: 'The thread record could not be read (the sandbox leaves it out: NO-RECORD in a prompt of the thread).',
} as const;

/**
 * A follow-up turn: omitted `mode`, `urls`, `schema` and exchange settings carry over from the previous turn (addendum,
 * late November 2026).
 */
export function inherit(prev: SubmitOptions, next: SubmitOptions): SubmitOptions {
  const { approve: _a, decline: _d, ...carried } = prev.exchange ?? {};
  const exchange: Exchange | undefined = prev.exchange || next.exchange ? { ...carried, ...next.exchange } : undefined;
  return {
    ...next,
    ...(next.mode === undefined && prev.mode !== undefined ? { mode: prev.mode } : {}),
    ...(next.urls === undefined && prev.urls !== undefined ? { urls: prev.urls } : {}),
    ...(next.schema === undefined && prev.schema !== undefined ? { schema: prev.schema } : {}),
    ...(exchange ? { exchange } : {}),
  };
}

/** The message of a chat turn that ended waiting for providers' terms. */
export function termsMessage(terms: readonly TermsProvider[]): string {
  return `## Waiting for terms\n\nThe answer would use ${terms.map((p) => p.name).join(' and ')}. Read their terms (terms/show), accept them (terms/accept) if you agree, then approve to continue; or decline to go on without them.\n`;
}

/** A list row's `targetHint`: the first start URL's host, else the start of the prompt. */
export function targetHintOf(o: SubmitOptions): string {
  const first = o.urls?.[0];
  if (first) {
    try {
      return new URL(first).hostname;
    } catch {
      /* validated before */
    }
  }
  return o.prompt.trim().replace(/\s+/g, ' ').slice(0, 60);
}

/** `origin`: the address the request came to (`http://127.0.0.1:PORT`), for production's absolute `next`. */
export interface AgentRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  team: string;
  origin?: string;
  /** The `x-request-id` header (Exchange calls read it to make a retry safe). */
  retryId?: string;
}
export interface AgentReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Snapshot ids are path segments: letters, digits, `_` and `-`, 1 to 128 characters. */
export const SNAPSHOT_ID_RE = /^[A-Za-z0-9_-]{1,128}$/;
/** Every id with this prefix is a job from before the second-generation engine, visible to every team. */
export const LEGACY_PREFIX = '00000000-';
export const LEGACY_LISTED_ID = '00000000-0000-4000-8000-000000000001';
export const PAGE_SIZE = 20;
export const MAX_JOBS_PER_TEAM = 500;
export const DAY = 24 * 60 * 60 * 1000;

export const AGENT_ERRORS = {
  invalidJobId: 'Invalid job ID format. Job ID must be a valid UUID.',
  invalidSnapshotId: 'Invalid snapshot ID',
  traceEngine: `Trace is only available for ${ENGINE_2} extracts`,
  snapshotEngine: `Snapshots are only available for ${ENGINE_2} extracts`,
  /** The production wire names the engine as the service does (addendum: "names the engine `Spark 2`"). */
  traceEngineProduction: `Trace is only available for ${ENGINE_2_PRODUCTION} extracts`,
  snapshotEngineProduction: `Snapshots are only available for ${ENGINE_2_PRODUCTION} extracts`,
  zeroDataRetention: 'Your team has zero data retention enabled. This is not supported on extract.',
  notFound: 'Agent job not found',
  snapshotNotFound: 'Snapshot not found',
  alreadyFinished: 'Agent already finished',
  alreadyCancelled: 'Agent is already cancelled',
  invalidThreadId: 'Invalid thread ID format. Thread ID must be a valid UUID.',
} as const;

/** Production's thread errors (from late August 2026): status, `code` and the plain text. */
export const THREAD_ERRORS = {
  notFound: { status: 404, code: 'thread_not_found', error: 'Agent thread not found.' },
  busy: {
    status: 409,
    code: 'thread_busy',
    error: 'A turn of this agent thread is still running. Wait for it to finish.',
  },
  expired: { status: 410, code: 'thread_expired', error: 'This agent thread has expired. Start a new one.' },
  disabled: { status: 503, code: 'threads_disabled', error: 'Agent threads are disabled on this server.' },
  exchangeNotEnabled: {
    status: 400,
    code: 'exchange_not_enabled',
    error: 'Exchange is not enabled for this run: there is no pending approval to answer.',
  },
} as const;
export const threadError = (
  e: (typeof THREAD_ERRORS)[keyof typeof THREAD_ERRORS],
  extra: Record<string, unknown> = {},
): AgentReply => ({ status: e.status, body: { success: false, code: e.code, error: e.error, ...extra } });

export interface Thread {
  id: string;
  team: string;
  createdAt: number;
  expiresAt: number;
  runs: string[];
  /** `provider/capability` of calls approved with `always: true`: later turns of the thread make them without asking. */
  always: Set<string>;
}

/** A run's approval (production wire): the SDK's `PendingApproval`, whose `resolution` is filled in when the caller answers. */
export interface Approval {
  pending: PendingApproval;
  /** Plan offset (speed 1) where the run asks. */
  pauseAt: number;
  /** `calls`: the run stays `processing` at its pause point until answered. `terms`: the turn ended there (`completed`). */
  waits: boolean;
  calls: PaidCall[];
  terms: TermsProvider[];
  state: 'waiting' | 'answered' | 'cancelled';
}

/** The paid-call side of a run (production wire): what its `exchange` summary reports. */
export interface ExchangeRun {
  toolkits?: string[];
  requireApproval?: boolean;
  onTermsRequired?: 'skip' | 'ask';
  /** Calls in this run's plan, charged when their `tool_call.finished` event has happened. */
  paid: PaidCall[];
  skipped: TermsProvider[];
}

/** What an approval's answer turn does. */
export interface Answer {
  made: PaidCall[];
  declined: PaidCall[];
  skipped: TermsProvider[];
  note: string;
}

export interface Job {
  id: string;
  team: string;
  createdAt: number;
  /** Epoch ms after which every endpoint answers 404 for the job (production wire). */
  expiresAt: number;
  options: SubmitOptions;
  events: PlannedEvent[];
  data: Record<string, unknown>;
  cancelRequested: boolean;
  threadId: string;
  turn: number;
  mode: Mode;
  /** The chat answer (chat mode): `message` once the run completed. */
  message?: string;
  approval?: Approval;
  exchange?: ExchangeRun;
  /** `NO-RECORD`: snapshots and the thread record answer without their record. */
  noRecord: boolean;
}

export type RunStatus = 'processing' | 'cancelling' | 'completed' | 'failed' | 'cancelled';

export interface View {
  visible: PlannedEvent[];
  status: RunStatus;
  finished?: PlannedEvent;
  credits: number;
}

export const fail = (status: number, error: string, details?: unknown): AgentReply => ({
  status,
  body: details === undefined ? { success: false, error } : { success: false, error, details },
});
/** Trace and snapshot relay the upstream error body unchanged, which has no `success`. */
export const relayed = (status: number, error: string, details?: unknown): AgentReply => ({
  status,
  body: details === undefined ? { error } : { error, details },
});

export function legacyRecord(
  id: string,
  createdAt: number,
  wire: Wire,
): ProductionStatusBody | Record<string, unknown> {
  const common = {
    status: 'completed' as const,
    model: 'spark-1',
    creditsUsed: 120,
    data: { items: [{ title: 'Result from the first-generation engine', url: 'https://example.com/legacy' }] },
    expiresAt: new Date(createdAt + 30 * DAY).toISOString(),
  };
  return wire === 'spec'
    ? { success: true, id, ...common }
    : ({ success: true, ...common } satisfies ProductionStatusBody);
}

export interface AgentServiceOptions {
  speed: number;
  now?: () => number;
  /** `production` (default): the shapes the service sends today; `spec`: the specification's. See README.md. */
  wire?: Wire;
  /** The sandbox's test flag (`--faults`): the first-generation fixture job and the control routes exist only then. */
  testMode?: boolean;
  /** Production wire: follow-ups and thread records answer 503 `threads_disabled` (also `POST /__sandbox/agent/threads`). */
  threadsDisabled?: boolean;
}

/** Production's zero-data-retention text: the specification's, then how to reach support (addendum). */
export const ZDR_PRODUCTION = `${'Your team has zero data retention enabled. This is not supported on extract.'} Please contact support@firecrawl.com to enable it for agent runs.`;

/** Whether a start URL's host is one threat protection blocks (or under one). */
export function isBlocked(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return BLOCKED_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));
}

export const DOCS_URL = 'https://docs.firecrawl.dev';

/** The request's own origin for an absolute `next`; anything odd in the Host header falls back to loopback. */
export function safeOrigin(origin: string | undefined): string {
  return origin && /^http:\/\/[A-Za-z0-9.:[\]-]{1,100}$/.test(origin) ? origin : 'http://127.0.0.1';
}

/** What the parts of the agent service share: its settings, its jobs and threads, and what changes while it runs. */
export interface ServiceContext {
  speed: number;
  now: () => number;
  wire: Wire;
  testMode: boolean;
  production: boolean;
  legacyCreatedAt: number;
  jobs: Map<string, Job>;
  threads: Map<string, Thread>;
  /** Terms accepted with `terms/accept`, per team (kept for the life of the service). */
  termsAccepted: TermsAcceptances;
  state: { threadsDisabled: boolean; lastCreatedAt: number };
}
