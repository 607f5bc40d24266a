// Helpers shared by `devindex search` and `devindex agent`: argument parsing, the client from the
// environment, error printing and exit codes.
import type { PollTiming } from '../agentRun/pollSchedule';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { DevIndexClient, type ClientOptions } from '../api/client';
import { ApiError } from '../api/errors';
import { HttpTransport } from '../api/http';
import { type NetworkOptions } from '../api/network';
import { failureOf } from '../api/failure';
import { API_KEY_ENV, cliWords } from '../words/failureWords';
import { formatRetryEvent, type RetryEvent } from '../api/retry';
import { boundedJson } from '../api/jsonDepth';
import { ORIGINS } from '../api/version';
import { NoticeOnce, noticeWords, requestIdWords, type DeprecationNotice } from '../api/notices';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_USAGE, terminalLine, UsageError, type CliIo } from './cliBase';

export const DEFAULT_BASE_URL = 'https://api.firecrawl.dev';
export const BASE_URL_ENV = 'DEVINDEX_BASE_URL';
/** `1` lets the key go over plain http to a host that is not loopback (named for what it is). */
export const INSECURE_HTTP_ENV = 'DEVINDEX_INSECURE_HTTP';

export type CliOptions = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs in strict mode, with its errors turned into UsageError. */
export function parseCliArgs(
  argv: string[],
  options: CliOptions,
): { values: Record<string, string | boolean | string[] | boolean[] | undefined>; positionals: string[] } {
  try {
    const r = parseArgs({ args: argv, options, strict: true, allowPositionals: true });
    return {
      values: r.values as Record<string, string | boolean | string[] | boolean[] | undefined>,
      positionals: r.positionals,
    };
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
}

/** The base URL: the --base-url flag, else DEVINDEX_BASE_URL, else the production address. */
export function resolveBaseUrl(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const v = flag ?? (env[BASE_URL_ENV]?.trim() || undefined) ?? DEFAULT_BASE_URL;
  try {
    const u = new URL(v);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw new UsageError(`base URL must be an absolute http(s) URL; got ${JSON.stringify(v.slice(0, 200))}`);
  }
  return v;
}

/** The key from DEVINDEX_API_KEY; undefined when unset or blank (keyless search is allowed). */
export function readApiKey(env: NodeJS.ProcessEnv): string | undefined {
  const k = env[API_KEY_ENV]?.trim();
  return k ? k : undefined;
}

export function createClientFromEnv(
  io: CliIo,
  baseUrlFlag: string | undefined,
  extra: Partial<ClientOptions> & { network?: NetworkOptions } = {},
): DevIndexClient {
  const baseUrl = resolveBaseUrl(baseUrlFlag, io.env);
  const key = readApiKey(io.env);
  const { onNotice, network, ...rest } = extra;
  return new DevIndexClient({
    baseUrl,
    apiKey: () => key,
    origin: ORIGINS.cli,
    // A deprecated endpoint still answers: the answer is printed as usual, the notice once on stderr.
    onNotice: (n) => {
      printNotice(io, n);
      onNotice?.(n);
    },
    // HTTPS_PROXY / HTTP_PROXY / NO_PROXY and NODE_EXTRA_CA_CERTS from this environment.
    transport: new HttpTransport({ network: network ?? { env: io.env } }),
    allowInsecureHttp: io.env[INSECURE_HTTP_ENV]?.trim() === '1',
    ...(io.timeoutMs !== undefined ? { timeoutMs: io.timeoutMs } : {}),
    ...rest,
  });
}

/** Per endpoint and process: one CLI run has one `io` (tests, many). */
const noticesSeen = new WeakMap<CliIo, NoticeOnce>();

/** A deprecation notice or service warning on stderr, once per endpoint in this process: `devindex: notice: …`. */
export function printNotice(io: CliIo, n: DeprecationNotice, now = Date.now()): void {
  let once = noticesSeen.get(io);
  if (!once) noticesSeen.set(io, (once = new NoticeOnce('process')));
  if (!once.first(n, now)) return;
  io.err(
    `devindex: notice: ${terminalLine(noticeWords(n, now))}${n.requestId ? ` (${requestIdWords(n.requestId)})` : ''}\n`,
  );
}

/** Prints retry progress on stderr: `rate limited; retrying in 3 s (attempt 2 of 5)`. */
export function retryPrinter(io: CliIo): (e: RetryEvent) => void {
  return (e) => io.err(`${formatRetryEvent(e)}\n`);
}

export function exitCodeFor(e: unknown): number {
  if (e instanceof UsageError) return EXIT_USAGE;
  if (e instanceof ApiError && e.kind === 'aborted') return EXIT_INTERRUPTED;
  if (e instanceof ApiError && (e.kind === 'validation' || e.kind === 'invalid-key' || e.kind === 'insecure-transport'))
    return EXIT_USAGE;
  return EXIT_FAILURE;
}

/**
 * One line per problem, never a stack trace. An ApiError from the service reads
 * "<service message> (HTTP <status>): <what to do>"; validation errors list every issue.
 */
export function printError(io: CliIo, e: unknown, command = 'devindex'): number {
  // Messages quote the service (its `error`, a page title, a field name): one sanitised line each.
  const line = (s: string) => io.err(`${command}: ${terminalLine(s)}\n`);
  if (e instanceof ApiError) {
    // The CLI's table (src/words/failureWords.ts): every issue of an input error, the key's way out.
    for (const l of cliWords(failureOf(e))) line(l);
  } else if (e instanceof UsageError) {
    line(e.message);
  } else if (e instanceof TypeError) {
    line(e.message);
    return EXIT_USAGE;
  } else {
    line(e instanceof Error ? e.message : String(e));
  }
  return exitCodeFor(e);
}

/**
 * JSON for stdout, bounded in depth (a deep value cannot overflow), with the C1 controls and line
 * separators that JSON.stringify leaves raw escaped (`\u009b` is a CSI to some terminals).
 */
export function jsonForTerminal(v: unknown, space?: number): string {
  return boundedJson(v, space).replace(
    /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** `--flag a,b --flag c` -> ['a', 'b', 'c']; blanks dropped. */
export function splitList(v: string | string[] | undefined): string[] | undefined {
  if (v === undefined) return undefined;
  const all = (Array.isArray(v) ? v : [v])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return all;
}

/**
 * A numeric flag. A value that is not a number is passed on as the string it was, so that the
 * parameter validation reports it with the parameter's bound.
 */
export function numberFlag(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const t = v.trim();
  return /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(t) ? Number(t) : (v as unknown as number);
}

/** `true` / `false`; anything else is passed on so validation names it. */
export function booleanFlag(v: string | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  const t = v.trim().toLowerCase();
  if (t === 'true') return true;
  if (t === 'false') return false;
  return v as unknown as boolean;
}

/**
 * DEVINDEX_POLL_MS: the fastest poll interval of an agent run's follower (tests shorten it; 50 to
 * 60000); the other intervals scale with it. Undefined when unset or out of bounds.
 */
export function pollTimingFromEnv(env: NodeJS.ProcessEnv): Partial<PollTiming> | undefined {
  const n = Number(env.DEVINDEX_POLL_MS);
  if (!Number.isFinite(n) || n < 50 || n > 60_000) return undefined;
  return { fastMs: n, maxMs: n * 4, nearEndMs: n, nearEndMaxMs: n * 2, graceMs: n, waitingMs: n * 4, quietMs: n * 4 };
}
