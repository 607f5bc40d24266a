// The one message protocol between the Search view's webview and the extension, both directions. The webview
// imports it with `import type` only, so zod stays out of dist/webview.js; the extension checks every message
// from the webview with `FromWebviewSchema` before acting on it.
import * as z from 'zod/mini';
import '../api/zodMini';
import type { ParamIssue, SearchParams } from '../api/params';
import type { SearchMessage } from '../search/session/searchSession';

export type { SearchParams } from '../api/params';

// ---- what the webview displays besides a search's messages (those are the session's: SearchMessage) ----

/** One watch of the Watched list (a saved search re-run in the background). */
export interface ViewWatch {
  id: string;
  query: string;
  /** The scope in words: `fetchline/fetchline · 3.2.0 installed`, or the repositories. */
  scope: string;
  /** Epoch ms of the last check (the view says how long ago). */
  lastCheck?: number;
  newCount: number;
  /** Being checked in this window now. */
  checking?: boolean;
  /** Repositories the index no longer has. */
  vanished?: string[];
  /** The installed version now includes a fix the watch reported: `fixed in 3.3.0 · included in your 3.3.0`. */
  fixIncluded?: string;
  lastError?: string;
}

/** The Watched list, and whether the search the view shows can be watched (`canWatch`: its query and scope). */
export interface ViewWatches {
  watches: ViewWatch[];
  max: number;
  canWatch?: { query: string; scope: string };
}

export interface ViewDefaults {
  k: number;
  passages: number;
  types: string[];
}

/** View title commands, forwarded to the webview. */
export type ViewCommand = 'clear' | 'refresh' | 'expandAll' | 'collapseAll';

// ---- extension -> webview ----

export type ToWebview =
  | { type: 'init'; defaults: ViewDefaults; workspaceRepos: string[] }
  /** Whether an API key is set: without one, searches run keyless (lower rate limits) and the view says so. */
  | { type: 'keyState'; hasKey: boolean }
  /** Live validation of the filters as they are typed (never for a search: the client validates those). */
  | { type: 'validation'; requestId: string; issues: ParamIssue[] }
  | SearchMessage
  | { type: 'command'; command: ViewCommand }
  /** The Watched list changed (here, in another window, or a check ran). */
  | ({ type: 'watches' } & ViewWatches);

// ---- webview -> extension: untrusted, validated with these schemas ----

/** Generous: the client's validator owns the real bounds and phrases the messages. */
const text = (max: number) => z.string().check(z.maxLength(max));

/** A passage or a link may be long, but not unbounded. */
const MAX_TEXT = 1_000_000;

/**
 * The schemas of what the view sends, built on the first message rather than when the module loads: dist/core.js
 * holds this module, and a search from the palette, with no view open, never needs them (the first search's
 * load; zod builds about a hundred schema objects here).
 */
function buildSchemas() {
  const id = z.string().check(z.minLength(1), z.maxLength(64));
  const shortText = text(512);
  const count = z.number();
  const ParamsSchema = z.strictObject({
    query: text(20_000),
    k: z.optional(count),
    types: z.optional(z.array(shortText).check(z.maxLength(16))),
    repos: z.optional(z.array(shortText).check(z.maxLength(100))),
    sources: z.optional(z.array(text(1024)).check(z.maxLength(100))),
    skills: z.optional(z.literal('only')),
    passages: z.optional(count),
    language: z.optional(shortText),
    topic: z.optional(z.union([shortText, z.array(shortText).check(z.maxLength(16))])),
    license: z.optional(shortText),
    min_stars: z.optional(count),
    max_stars: z.optional(count),
    archived: z.optional(z.boolean()),
    fork: z.optional(z.boolean()),
  }) satisfies z.core.$ZodType<SearchParams>;

  return z.discriminatedUnion('type', [
    /** `scope`: the form's filters as they are now (what a palette or selection search will use). */
    z.strictObject({ type: z.literal('ready'), pendingRequestId: z.optional(id), scope: z.optional(ParamsSchema) }),
    z.strictObject({ type: z.literal('scope'), params: ParamsSchema }),
    z.strictObject({ type: z.literal('validate'), requestId: id, params: ParamsSchema }),
    /** `keyless`: send no key this once (the 401 box's Search Without Key). */
    z.strictObject({
      type: z.literal('search'),
      requestId: id,
      params: ParamsSchema,
      keyless: z.optional(z.literal(true)),
    }),
    z.strictObject({ type: z.literal('cancel'), requestId: id }),
    z.strictObject({ type: z.literal('openLink'), url: text(8192) }),
    z.strictObject({ type: z.literal('copy'), what: z.enum(['link', 'passage']), text: text(MAX_TEXT) }),
    z.strictObject({ type: z.literal('insert'), text: text(MAX_TEXT) }),
    z.strictObject({
      type: z.literal('openPassages'),
      id: text(2048),
      title: text(2048),
      url: text(8192),
      passages: z.array(text(MAX_TEXT)).check(z.maxLength(20)),
    }),
    z.strictObject({ type: z.literal('setKey') }),
    /** Get a Key: the keyless quota's signup link the view was sent (checked again on this side before it is opened). */
    z.strictObject({ type: z.literal('getKey'), url: text(2048) }),
    z.strictObject({ type: z.literal('diagnose') }),
    z.strictObject({ type: z.literal('log'), message: text(4096) }),
    /** Watch for a Fix on the search the view shows (the extension knows it: nothing is handed back). */
    z.strictObject({ type: z.literal('watch') }),
    z.strictObject({ type: z.literal('watchAction'), action: z.enum(['check', 'remove', 'open']), id }),
  ]);
}

let fromWebview: ReturnType<typeof buildSchemas> | undefined;
/** Every message from the webview, validated before anything reads it. */
export function fromWebviewSchema(): ReturnType<typeof buildSchemas> {
  return (fromWebview ??= buildSchemas());
}

export type FromWebview = z.infer<ReturnType<typeof fromWebviewSchema>>;
