// Accepting providers' data terms through Exchange calls (`POST /v2/scrape` with `alexandria`): which calls
// may be sent, the digest a `terms/show` supplies when the record has none, and the answer read result by
// result, because the service answers 200 even when the acceptance inside it failed.
import { ApiError } from '../errors';
import { requestIdWords } from '../notices';
import type { ParamIssue } from '../params';
import { AgentError } from './agentFailure';
import type { ExchangeAnswer, ExchangeCall, ExchangeResult } from './exchangeSchemas';

export const SCRAPE_PATH = '/v2/scrape';
const MAX_TERMS_CALLS = 5;

/** What a successful acceptance reports: the providers whose terms were accepted, and what it cost. */
export interface TermsAccepted {
  providers: string[];
  creditsCost?: number;
}

/** The provider whose terms a call shows or accepts (`options.provider`; the call's own provider is the Exchange). */
export const termsProvider = (c: ExchangeCall): string =>
  typeof c.options?.provider === 'string' ? c.options.provider : c.provider;

/** Only the record's own `terms/accept` calls, confirmed by the user, are ever sent. */
export function acceptCallIssues(calls: readonly ExchangeCall[]): ParamIssue[] {
  const issues: ParamIssue[] = [];
  if (calls.length === 0 || calls.length > MAX_TERMS_CALLS)
    issues.push({
      field: 'alexandria',
      message: `between 1 and ${MAX_TERMS_CALLS} terms/accept calls; got ${calls.length}`,
    });
  calls.forEach((c, i) => {
    if (
      c.provider !== 'firecrawl' ||
      c.capability !== 'terms/accept' ||
      c.options?.confirmed !== true ||
      typeof c.options?.provider !== 'string'
    )
      issues.push({
        field: `alexandria[${i}]`,
        message: "only a terms/accept call from the run's requiresAction, with confirmed: true, is sent",
      });
  });
  return issues;
}

/** An accept call without a digest (the catalog may publish none) needs the one `terms/show` answers. */
export function needsDigest(c: ExchangeCall): boolean {
  const d = c.options?.digest;
  return typeof d !== 'string' || d.trim() === '';
}

export function showCallFor(accept: ExchangeCall): ExchangeCall {
  return { provider: 'firecrawl', capability: 'terms/show', options: { provider: termsProvider(accept) } };
}

export function withDigest(accept: ExchangeCall, digest: string): ExchangeCall {
  return { ...accept, options: { ...accept.options, digest } };
}

/** The digest in a `terms/show` result's data (`{ provider, version, digest, url, text, accepted }`). */
export function shownDigest(r: ExchangeResult): string | undefined {
  const data = r.data !== null && typeof r.data === 'object' ? (r.data as Record<string, unknown>) : {};
  const d = data.digest;
  return typeof d === 'string' && d.trim() !== '' ? d : undefined;
}

function termsFailure(message: string, retryId: string, f: { status?: number; code?: string; error?: string }) {
  const e = new ApiError({
    kind: 'http',
    message: `${message} (${requestIdWords(retryId)})`,
    status: f.status,
    code: f.code,
    error: f.error,
    retryable: false,
    attempts: 1,
    requestId: retryId,
  });
  return new AgentError(e, 'terms-not-accepted', e.message);
}

const AGAIN = 'nothing was approved: show the terms again and agree to the version shown';

/**
 * Every result of the answer, one per call in order; throws a `terms-not-accepted` AgentError naming each
 * provider whose result failed or is missing, with the service's own message, code and status.
 */
export function exchangeResults(
  answer: ExchangeAnswer,
  calls: readonly ExchangeCall[],
  retryId: string,
): ExchangeResult[] {
  if (answer.success === false)
    throw termsFailure(`the service refused the terms call: ${answer.error ?? 'no reason given'}; ${AGAIN}`, retryId, {
      error: answer.error,
    });
  const results = answer.data?.alexandria ?? answer.alexandria ?? [];
  type Failed = { provider: string; why: string; error?: ExchangeResult['error'] };
  const failed = calls.flatMap((c, i): Failed[] => {
    const r = results[i];
    if (r === undefined) return [{ provider: termsProvider(c), why: 'the answer holds no result for it' }];
    if (!r.error) return [];
    const detail = [r.error.code, r.error.status !== undefined ? `HTTP ${r.error.status}` : undefined]
      .filter(Boolean)
      .join(', ');
    return [
      {
        provider: termsProvider(c),
        why: `${r.error.message ?? 'no reason given'}${detail ? ` (${detail})` : ''}`,
        error: r.error,
      },
    ];
  });
  if (failed.length === 0) return results.slice(0, calls.length);
  const first = failed[0]!;
  throw termsFailure(
    `the service did not accept the data terms of ${failed.map((f) => `${f.provider}: ${f.why}`).join('; ')}; ${AGAIN}`,
    retryId,
    { status: first.error?.status, code: first.error?.code, error: first.error?.message },
  );
}

/** A `terms/show` answer without a digest: nothing can be accepted, and nothing is sent. */
export function noDigestFailure(accept: ExchangeCall, retryId: string): AgentError {
  return termsFailure(
    `the service's terms/show for ${termsProvider(accept)} returned no digest, ` +
      `so its terms cannot be accepted; nothing was sent or approved`,
    retryId,
    {},
  );
}
