// The words of a failure, one table per surface (the terminal, the editor, a language model; the Search view's is
// viewWords.ts), each over a Failure (src/api/failure.ts) computed once. None says the key: each says how to set
// one, and `secret` is scrubbed from whatever is quoted as a last guard. No vscode import.
import { type AgentErrorReason, reasonOf } from '../api/agent/agentReasons';
import { type Failure, failureOf, type FailureReason } from '../api/failure';
import type { ParamIssue } from '../api/params';
import { untilWords } from './waitWords';
import { scrubSecret, withoutControls } from './controls';

export type WordsSurface = 'cli' | 'editor' | 'model';

/** Where the CLI and `devindex mcp` read the key from. */
export const API_KEY_ENV = 'DEVINDEX_API_KEY';
/** The editor's command that sets the key, as the palette shows it. */
export const SET_KEY_COMMAND = '"Developer Index: Set API Key"';

/** A surface's words per reason; `rest` says every reason the table leaves out. */
interface Table<O, R> {
  rest: (f: Failure, o: O) => R;
  own: Partial<Record<FailureReason, (f: Failure, o: O) => R>>;
}
const table = <O, R>(rest: (f: Failure, o: O) => R, own: Table<O, R>['own']): Table<O, R> => ({ rest, own });
const wordsOf = <O, R>(t: Table<O, R>, f: Failure, o: O): R => (t.own[f.reason] ?? t.rest)(f, o);

// ---- the terminal: lines on stderr, each later made one sanitised line ----

/** The CLI's lines for a failure: every issue of an input error, the key's way out of a keyless refusal. */
const issuesOrMessage = (f: Failure) =>
  f.kind === 'validation' && f.issues?.length ? f.issues.map((i) => i.message) : [f.message];
const CLI: Table<void, string[]> = /* @__PURE__ */ table((f) => [f.message], {
  'invalid-input': issuesOrMessage,
  'invalid-job-id': issuesOrMessage,
  'invalid-snapshot-id': issuesOrMessage,
  // No key was sent: the way out is one, never waiting a day. The service's own link to create one comes first.
  'keyless-quota': (f) => keylessCli(f),
  'keyless-refused': (f) => keylessCli(f),
  // The client's advice is editor-neutral; in a terminal the key comes from the environment.
  auth: (f) => [`${f.message} (the key is read from ${API_KEY_ENV})`],
  'invalid-key': (f) => [`${f.message} (the key is read from ${API_KEY_ENV})`],
});

function keylessCli(f: Failure): string[] {
  return [
    f.message,
    f.signupUrl
      ? `create your API key here: ${f.signupUrl} then set ${API_KEY_ENV} to it`
      : `to search with your own key now, set ${API_KEY_ENV} (an API key from the service's dashboard)`,
  ];
}

// ---- the editor: one sentence with the next step ----

const say = (s: string) => () => s;
const quote = (f: Failure) => f.message;

const EDITOR: Table<void, string> = /* @__PURE__ */ table(quote, {
  'job-may-exist': say('The submission may have reached the service, so the job may exist; it was not sent again.'),
  'not-created': (f) => `The service did not create the job. ${f.message}`,
  'invalid-job-id': say('The job id is not a UUID.'),
  'invalid-snapshot-id': say('The snapshot id is not valid.'),
  'no-trace': say('This job has no trace: it predates the engine that records one.'),
  'no-snapshots': say('This job has no snapshots: it predates the engine that records them.'),
  'zero-data-retention': say(
    'Your team has zero data retention enabled, so the service cannot run or show agent jobs for it.',
  ),
  'not-found': say('Agent job not found: it may have expired or belong to another team.'),
  'snapshot-not-found': say('Snapshot not found for this job.'),
  'already-finished': say('The job had already finished; refresh to see how it ended.'),
  'already-cancelled': say('The job is already being cancelled; it will show as cancelled shortly.'),
  auth: say(`The service rejected the API key. Set a valid key with ${SET_KEY_COMMAND}.`),
  payment: say('The account has no credits left or billing is not configured (402).'),
  forbidden: say('The API key lacks permission for agent jobs (403).'),
  'rate-limit': (f) => `The service is rate limiting requests. ${f.message}`,
  cancelled: say('The request was cancelled.'),
  timeout: say('The service did not answer in time.'),
  network: (f) => `Could not reach the service: ${f.message}`,
  service: (f) => `The service failed: ${f.message}`,
  'invalid-response': (f) => `The service's answer could not be read: ${f.message}`,
  'thread-not-found': say(
    "This thread is not on the service (unknown id, or another team's); start a new job instead.",
  ),
  'thread-busy': say('A turn of this thread is still running; follow it, and ask the follow-up when it ends.'),
  'thread-expired': say('This thread has expired on the service; start a new job with the prompt.'),
  'threads-disabled': say('This service has follow-up threads switched off; start a new job with the prompt instead.'),
  'exchange-not-enabled': say('This run is no longer waiting for an approval; refresh it to see where it stands.'),
  'no-job-list': say('This server keeps no job list; jobs started here are still followed.'),
  // The client's message already names each provider, the service's reason and the request id.
  'terms-not-accepted': (f) => `The data terms were not accepted. ${capital(f.message)}.`,
  'key-unverified': say(
    'The service runs provider tools only for a verified API key. ' +
      "Verify this key in the service's dashboard, then answer the approval again.",
  ),
  'key-required': say(
    `Provider tools need an API key. Set one with ${SET_KEY_COMMAND}, then answer the approval again.`,
  ),
});

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The editor's words for a submission that may have created a job (or a follow-up turn): it was not
 * sent again, and the job list is where to look before starting it again.
 */
export function mayExistWords(what: 'job' | 'follow-up'): string {
  return what === 'job'
    ? 'The start was interrupted after the request was sent, ' +
        'so the job may exist on the service; it was not sent again. ' +
        'Refresh the job list to look for it before starting it again.'
    : 'The follow-up was interrupted after it was sent, so the turn may exist on the service; ' +
        'it was not sent again. Refresh the job list to look for it.';
}

// ---- a language model: what happened, then how to fix the call ----

/** Where the model's words are read: the editor's language-model tools, or `devindex mcp`. */
type ModelCtx = ModelOptions & { now: number };
type ModelHost = 'editor' | 'mcp';
interface ModelOptions {
  host: ModelHost;
  op: string;
}

/** Text for a model: control characters removed, newlines kept. */
const plain = (s: string) => withoutControls(s);

/** Input problems found before anything was sent: every field, with its bound, and what to do. */
export function issuesText(issues: readonly ParamIssue[], what = 'input'): string {
  return [
    `Invalid ${what}; nothing was sent. Fix these fields and call the tool again:`,
    ...issues.map((i) => `- ${i.field}: ${plain(i.message)}`),
  ].join('\n');
}

function keyAdvice(host: ModelHost): string {
  return host === 'editor'
    ? `Ask the user to run ${SET_KEY_COMMAND} with a valid key (or "Developer Index: ` +
        `Clear API Key": search works without a key, at a lower rate limit). ` +
        `Do not ask the user to paste the key into the chat.`
    : `Set ${API_KEY_ENV} in the MCP server's environment to a valid key (or unset it: ` +
        `search works without a key, at a lower rate limit), then restart the server. ` +
        `Never put the key in a tool call.`;
}

function keylessWayOut(host: ModelHost, signupUrl?: string): string {
  const set =
    host === 'editor'
      ? `ask the user to run ${SET_KEY_COMMAND}. Do not ask the user to paste the key into the chat.`
      : `ask the user to set ${API_KEY_ENV} in the MCP server's environment and restart it. Never put the key in a tool call.`;
  // The service's own sign-up link for this caller (checked: https, a plain host): the model hands it over as it is.
  return signupUrl
    ? `give the user this link, exactly as it is, to create an API key: ${signupUrl} . Then ${set}`
    : set;
}

const generic = (f: Failure, o: ModelCtx) => `${o.op} failed: ${f.message}`;
const cancelledModel = (_f: Failure, o: ModelCtx) => `${o.op} was cancelled before it finished; nothing more was done.`;
const unreachable = (f: Failure, o: ModelCtx) =>
  `${o.op} failed: the service could not be reached (${f.message}). What to do: ` +
  `try again in a moment; if it keeps failing, ask the user to check the network ` +
  `and ${o.host === 'editor' ? 'the setting devIndex.baseUrl' : 'DEVINDEX_BASE_URL'}.`;

function rateLimited(f: Failure, o: ModelCtx, now: number): string {
  const long =
    f.retryAfterMs !== undefined && f.retryAfterMs > 90_000 && f.until !== undefined && f.untilFrom === 'reset';
  const wait =
    f.retryAfterMs === undefined
      ? ''
      : long
        ? ` The service asks to wait until ${untilWords(f.until!, now)}.`
        : ` The service asks to wait ${Math.ceil(f.retryAfterMs / 1000)} s.`;
  return (
    `${o.op} was refused: rate limited (HTTP ` +
    `429, ${f.error ?? 'Rate limit exceeded'}).${wait} What to do: ` +
    `wait before calling again${wait ? ' for at least that long' : ' (a minute)'}, ` +
    `and make fewer calls; an API key raises the limit. Do not retry at once.`
  );
}

/** Input errors: each field found before sending, or the fields the service named; else the message. */
function inputModel(f: Failure, o: ModelCtx): string {
  if (f.kind === 'validation' && f.issues?.length) return issuesText(f.issues);
  if (f.status === 400 && f.serviceNamedFields)
    return `${o.op} was rejected as invalid by the service: ${f.message} Fix the named fields and call again.`;
  return generic(f, o);
}

/** By the failure's kind, for the reasons whose words follow how the call failed. */
function byKind(f: Failure, o: ModelCtx, now: number): string {
  if (f.kind === 'aborted') return cancelledModel(f, o);
  if (f.kind === 'timeout' || f.kind === 'network') return unreachable(f, o);
  if (f.kind === 'retry-after-too-long' || f.status === 429) return rateLimited(f, o, now);
  return generic(f, o);
}

const MODEL: Table<ModelCtx, string> = /* @__PURE__ */ table((f, o) => generic(f, o), {
  unexpected: (f, o) => `${o.op} failed unexpectedly: ${f.message}. Try again once; if it fails again, tell the user.`,
  cancelled: cancelledModel,
  timeout: unreachable,
  network: unreachable,
  'keyless-quota': (f, o) =>
    `${o.op} was refused: ${f.message}. What to do: do not retry until then. ` +
    `The user can add an API key to keep searching now: ${keylessWayOut(o.host, f.signupUrl)}`,
  'keyless-refused': (f, o) =>
    `${o.op} was refused: ${f.message}. What to do: do not retry; ` +
    `the user can add an API key, which works from any ` +
    `network: ${keylessWayOut(o.host, f.signupUrl)}`,
  'rate-limit': (f, o) => rateLimited(f, o, o.now),
  'not-created': (f, o) => byKind(f, o, o.now),
  // A submission that may have created the job: whatever happened, never start it again at once.
  'job-may-exist': (f, o) =>
    `${byKind(f, o, o.now)}\nDo not start it again right away: the job may exist and be billed.`,
  auth: (f, o) =>
    `${o.op} was refused: the service did not accept the API key (HTTP 401 ${f.error ?? 'Unauthorized'}). What to do: ${keyAdvice(o.host)}`,
  'invalid-input': inputModel,
  'invalid-job-id': inputModel,
  'invalid-snapshot-id': inputModel,
  'invalid-schema': inputModel,
  'terms-not-accepted': (f, o) =>
    `${o.op} failed: ${f.message}. The run still waits for the terms: ` +
    `do not report them as accepted; tell the user to read the current terms and agree to them ` +
    `in the editor or the CLI.`,
  'key-unverified': (f, o) =>
    `${o.op} was refused: ${f.message}. Do not retry: the user must verify the API key in the service's dashboard first.`,
  'key-required': (_f, o) => `${o.op} was refused: provider tools need an API key. What to do: ${keyAdvice(o.host)}`,
});

// ---- one entry per surface ----

interface WordsOptions {
  /** The key, scrubbed from whatever the words quote (the client's messages never hold it; this is the last guard). */
  secret?: string;
}

/** The CLI's lines (each printed as `devindex: <line>` after terminalLine). */
export function cliWords(f: Failure, o: WordsOptions = {}): string[] {
  return wordsOf(CLI, f, undefined).map((l) => scrubSecret(l, o.secret));
}

/** The editor's sentence, with the next step. */
export function editorWords(f: Failure, o: WordsOptions = {}): string {
  return scrubSecret(wordsOf(EDITOR, f, undefined), o.secret);
}

/** What a model reads: what happened, then what to do; control characters removed, the key scrubbed. */
export function modelWords(f: Failure, o: ModelOptions & WordsOptions & { now?: number }): string {
  return scrubSecret(plain(wordsOf(MODEL, f, { host: o.host, op: o.op, now: o.now ?? Date.now() })), o.secret);
}

/** The words of any surface (the tests walk every reason through each). */
export function failureWords(surface: WordsSurface, f: Failure, o: WordsOptions = {}): string {
  return surface === 'cli'
    ? cliWords(f, o).join('\n')
    : surface === 'editor'
      ? editorWords(f, o)
      : modelWords(f, { host: 'editor', op: 'The call', ...o });
}

/** The reason AgentClient stamped on an error (read by shape, so no client bundle loads); from anywhere else `other`. */
export function errorReason(e: unknown): AgentErrorReason {
  return reasonOf(e) ?? 'other';
}

/** An agent failure in the editor's words, with the next step; never the request's details or the key. */
export function describeAgentError(e: unknown): string {
  return editorWords(failureOf(e));
}
