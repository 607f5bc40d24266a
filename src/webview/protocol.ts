// The one message protocol between the Search view's webview and the extension, both directions.
// The webview imports it with `import type` only, so zod stays out of dist/webview.js; the extension
// validates every message that comes from the webview with `FromWebviewSchema` before acting on it.
import { z } from 'zod';

// ---- shapes the webview displays (a projection of the wire response, spec 2.1-2.5) ----

/** The search parameters as the form sets them (spec 4.1 names). */
export interface ViewParams {
  query: string; k?: number; types?: string[]; repos?: string[]; sources?: string[];
  skills?: 'only'; passages?: number; language?: string; topic?: string; license?: string;
  min_stars?: number; max_stars?: number; archived?: boolean; fork?: boolean;
}

export interface ViewResult {
  id: string;
  /** Kept as it came: a type this build does not know is shown raw. */
  type: string;
  url: string;
  title?: string;
  host: string;
  passages: string[];
}

export interface ViewNote {
  level: 'info' | 'warning';
  type?: string;
  text: string;
  fix?: { kind: 'drop-repo-filters' | 'add-sources'; label: string };
}

export interface ViewOutcome {
  params: ViewParams;
  results: ViewResult[];
  /** Result type -> coverage value (ok, degraded, unavailable, skipped, or a newer value kept raw). */
  coverage: Record<string, string>;
  reranked?: boolean;
  repos?: Array<{ repo: string; indexed: boolean; types?: { issue?: boolean; pullRequest?: boolean; readme?: boolean } }>;
  sources?: Array<{ source: string; indexed: boolean }>;
  notes: ViewNote[];
  ms: number;
}

export interface ViewIssue { field: string; message: string }

/** What the user can do next about a failed search. */
export type ErrorAction = 'setKey' | 'retry' | 'wait' | 'fix' | 'none';

export interface ViewError {
  message: string;
  action: ErrorAction;
  status?: number;
  /** For action 'wait': how long until a retry may succeed (429 with Retry-After). */
  retryAfterMs?: number;
  issues?: ViewIssue[];
}

export interface ViewDefaults { k: number; passages: number; types: string[] }

/** A fill request from a palette command (`SearchViewProvider.show`). */
export interface FillRequest {
  params: Partial<ViewParams> & { query: string };
  /** True: the filters not named in `params` go back to the defaults; false: they are kept. */
  replaceFilters: boolean;
  run: boolean;
  notice?: string;
}

// ---- extension -> webview ----

export type ToWebview =
  | { type: 'init'; defaults: ViewDefaults; workspaceRepos: string[] }
  /** Whether an API key is set: without one, searches run keyless (lower rate limits) and the view says so. */
  | { type: 'keyState'; hasKey: boolean }
  | { type: 'fill'; fill: FillRequest }
  | { type: 'validation'; requestId: string; issues: ViewIssue[] }
  | { type: 'searchStarted'; requestId: string }
  | { type: 'retrying'; requestId: string; attempt: number; maxAttempts: number; delayMs: number; reason: string; status?: number }
  | { type: 'results'; requestId: string; outcome: ViewOutcome }
  | { type: 'searchError'; requestId: string; error: ViewError }
  | { type: 'searchCancelled'; requestId: string }
  | { type: 'actionDone'; requestId: string; ok: boolean; message: string };

// ---- webview -> extension: untrusted, validated with these schemas ----

const id = z.string().min(1).max(64);
const shortText = z.string().max(512);
/** Generous: the client's validator owns the real bounds and phrases the messages the user sees. */
const text = (max: number) => z.string().max(max);
const count = z.number().finite();

export const ParamsSchema = z.strictObject({
  query: text(20_000),
  k: count.optional(),
  types: z.array(shortText).max(16).optional(),
  repos: z.array(shortText).max(100).optional(),
  sources: z.array(text(1024)).max(100).optional(),
  skills: z.literal('only').optional(),
  passages: count.optional(),
  language: shortText.optional(),
  topic: shortText.optional(),
  license: shortText.optional(),
  min_stars: count.optional(),
  max_stars: count.optional(),
  archived: z.boolean().optional(),
  fork: z.boolean().optional(),
});

/** A passage or a link may be long, but not unbounded. */
const MAX_TEXT = 1_000_000;

export const FromWebviewSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready'), pendingRequestId: id.optional() }),
  z.strictObject({ type: z.literal('validate'), requestId: id, params: ParamsSchema }),
  z.strictObject({ type: z.literal('search'), requestId: id, params: ParamsSchema }),
  z.strictObject({ type: z.literal('cancel'), requestId: id }),
  z.strictObject({ type: z.literal('openLink'), url: text(8192) }),
  z.strictObject({ type: z.literal('copy'), requestId: id, text: text(MAX_TEXT) }),
  z.strictObject({ type: z.literal('insert'), requestId: id, text: text(MAX_TEXT) }),
  z.strictObject({
    type: z.literal('openPassages'), requestId: id,
    title: text(2048), url: text(8192), passages: z.array(text(MAX_TEXT)).max(20),
  }),
  z.strictObject({ type: z.literal('setKey') }),
  z.strictObject({ type: z.literal('log'), message: text(4096) }),
]);

export type FromWebview = z.infer<typeof FromWebviewSchema>;
export type FromWebviewType = FromWebview['type'];
