// What every check of the diagnosis shares: its input, the run's context (what earlier checks found),
// the shape of a result, and the words the findings use (a wait, the quota left, a quoted service text).
// No vscode import.
import type { HttpResponse } from '../api/transport';
import type { NetworkOptions } from '../api/network';
import { headerValue } from '../api/transport';
import type { Redact } from '../api/redact';
import type { DeprecationNotice } from '../api/notices';
import type { Finding, Fix, Surface } from './findings';
import { withoutControls } from '../words/controls';
import { durationWords } from '../words/duration';

export interface DoctorInput {
  /** As configured: it may not even be a URL (that is the first finding). */
  baseUrl: string;
  apiKey?: string;
  /** Proxy and certificate settings (`env` holds HTTPS_PROXY, NO_PROXY, NODE_EXTRA_CA_CERTS). */
  network?: NetworkOptions;
  allowInsecureHttp?: boolean;
  /** Which names the fixes use: variables and flags (cli) or settings and commands (editor). */
  surface: Surface;
}

type TimedCheck = 'dns' | 'proxyConnect' | 'tls' | 'service' | 'key';

export interface DoctorOptions {
  signal?: AbortSignal;
  /** Per-check time limits in ms (defaults in DEFAULT_TIMEOUTS). */
  timeouts?: Partial<Record<TimedCheck, number>>;
  /** The whole run's limit in ms (default TOTAL_LIMIT_MS); every check gets at most what is left. */
  totalMs?: number;
  /** This machine's clock (tests move it to check the skew finding). */
  now?: () => number;
}

export interface Context {
  input: DoctorInput;
  opts: DoctorOptions;
  redact: Redact;
  surface: Surface;
  deadline: number;
  url?: URL;
  proxy?: { url: URL; display: string; source: string; token?: string; strictSSL: boolean };
  ca?: string[];
  caBroken?: boolean;
  tunnel?: import('node:net').Socket;
  /** The first check that leaves the network checks without a path to the service. */
  blocked?: string;
  serviceDate?: { dateMs: number; localMs: number };
  /** The `External-Request-Id` of the request the running check sent (its finding names it when it is a problem). */
  requestId?: string;
  /** Deprecations and service warnings the running check's request met. */
  notices: DeprecationNotice[];
}

export type Result = Omit<Finding, 'check' | 'title'>;
export const ok = (found: string, fix?: Fix): Result => ({ status: 'ok', found, ...(fix ? { fix } : {}) });
export const problem = (found: string, fix: Fix): Result => ({ status: 'problem', found, fix });
export const skipped = (found: string): Result => ({ status: 'skipped', found });

/** The keyless quota left, when the service says it (RateLimit / X-RateLimit headers). */
export function quotaOf(h: HttpResponse['headers']): string | undefined {
  const remaining = headerValue(h, 'x-ratelimit-remaining') ?? headerValue(h, 'ratelimit-remaining');
  const limit = headerValue(h, 'x-ratelimit-limit') ?? headerValue(h, 'ratelimit-limit');
  const combined = headerValue(h, 'ratelimit');
  const r = remaining ?? (combined ? /\br=(\d+)|remaining=(\d+)/.exec(combined)?.slice(1).find(Boolean) : undefined);
  if (r === undefined || !/^\d{1,9}$/.test(r.trim())) return undefined;
  return `${r.trim()}${limit && /^\d{1,9}$/.test(limit.trim()) ? ` of ${limit.trim()}` : ''}`;
}

export function humanWait(ms: number): string {
  return durationWords(ms, { largest: 'h' });
}

export function printable(s: string): string {
  return withoutControls(s, { lines: 'join', replaceWith: ' ' });
}

/** Each timed check's own limit in ms. */
const DEFAULT_TIMEOUTS: Record<TimedCheck, number> = {
  dns: 3000,
  proxyConnect: 4000,
  tls: 4000,
  service: 6000,
  key: 4000,
};

/** The time a check may take: its own limit, or what is left of the whole run. */
export function budget(cx: Context, id: TimedCheck): number {
  return Math.max(1, Math.min(cx.opts.timeouts?.[id] ?? DEFAULT_TIMEOUTS[id], cx.deadline - Date.now()));
}
