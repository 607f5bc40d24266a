// Exchange calls of the production wire: `POST /v2/scrape { alexandria: [ <call> ] }` serving `terms/show` and
// `terms/accept` (addendum, "Accepting terms"), and the providers whose terms gate a run. Only a `terms/accept` call
// with `confirmed: true` records an acceptance.
import { randomUUID } from 'node:crypto';
import type { AgentSkippedProvider, AgentTermsGate, AgentTermsRequiredAction, AlexandriaScrapeResult } from 'firecrawl';
import type { ProductionScrapeBody } from './wireTypes';

export interface TermsProvider extends AgentTermsGate {
  /** The terms text `terms/show` answers. */
  text: string;
  /** The digest `terms/show` answers (the catalog's `digest` may be null: then only `terms/show` knows it). */
  shownDigest: string;
  /**
   * How its `terms/accept` is answered besides success: `changed`, a failed result inside a 200 (the terms
   * changed since they were shown); `unavailable`, a 503 for each new `x-request-id` (the same id again
   * succeeds); `unverified`, the 403 for a key that must be verified before it runs provider tools.
   */
  accept?: 'changed' | 'unavailable' | 'unverified';
  /** The prompt word that makes a run ask for this provider's terms alone. */
  trigger?: string;
}

/** The gated providers of the sandbox. `globex-news` publishes no digest in its catalog entry. */
export const TERMS_PROVIDERS: readonly TermsProvider[] = [
  {
    provider: 'acme-data',
    name: 'Acme Data',
    logo: 'https://example.com/devindex-sandbox/logos/acme-data.png',
    capability: 'companies/lookup',
    adds: 'company size and funding for each finding',
    version: '2026-10-01',
    digest: 'sha256:5d0c3a7e9b1f2468ace0135792468ace0135792468ace0135792468ace01357',
    url: 'https://example.com/devindex-sandbox/terms/acme-data',
    text: 'Acme Data terms of use (sandbox): the data is for evaluation only.',
    shownDigest: 'sha256:5d0c3a7e9b1f2468ace0135792468ace0135792468ace0135792468ace01357',
  },
  {
    provider: 'globex-news',
    name: 'Globex News',
    capability: 'articles/search',
    adds: 'recent news articles about the topic',
    version: '3',
    digest: null,
    url: 'https://example.com/devindex-sandbox/terms/globex-news',
    text: 'Globex News terms of use (sandbox): quote at most one paragraph per article.',
    shownDigest: 'sha256:0b9e8d7c6a5f4e3d2c1b0a99887766554433221100ffeeddccbbaa9988776655',
  },
  {
    provider: 'initech-maps',
    name: 'Initech Maps',
    capability: 'places/search',
    adds: 'opening hours of each place',
    version: '7',
    digest: 'sha256:1f2e3d4c5b6a79881f2e3d4c5b6a79881f2e3d4c5b6a79881f2e3d4c5b6a7988',
    url: 'https://example.com/devindex-sandbox/terms/initech-maps',
    text: 'Initech Maps terms of use (sandbox).',
    shownDigest: 'sha256:1f2e3d4c5b6a79881f2e3d4c5b6a79881f2e3d4c5b6a79881f2e3d4c5b6a7988',
    accept: 'changed',
    trigger: 'TERMS-CHANGED',
  },
  {
    provider: 'umbrella-weather',
    name: 'Umbrella Weather',
    capability: 'forecast/daily',
    version: '2',
    digest: 'sha256:a1b2c3d4e5f60718a1b2c3d4e5f60718a1b2c3d4e5f60718a1b2c3d4e5f60718',
    url: 'https://example.com/devindex-sandbox/terms/umbrella-weather',
    text: 'Umbrella Weather terms of use (sandbox).',
    shownDigest: 'sha256:a1b2c3d4e5f60718a1b2c3d4e5f60718a1b2c3d4e5f60718a1b2c3d4e5f60718',
    accept: 'unavailable',
    trigger: 'TERMS-UNAVAILABLE',
  },
  {
    provider: 'hooli-people',
    name: 'Hooli People',
    capability: 'people/lookup',
    version: '1',
    digest: 'sha256:99aa88bb77cc66dd99aa88bb77cc66dd99aa88bb77cc66dd99aa88bb77cc66dd',
    url: 'https://example.com/devindex-sandbox/terms/hooli-people',
    text: 'Hooli People terms of use (sandbox).',
    shownDigest: 'sha256:99aa88bb77cc66dd99aa88bb77cc66dd99aa88bb77cc66dd99aa88bb77cc66dd',
    accept: 'unverified',
    trigger: 'TERMS-UNVERIFIED',
  },
];
export const SKIPPED_PROVIDER = TERMS_PROVIDERS[0]!;

/** The providers an `APPROVAL-TERMS` run asks for: the one its prompt's trigger names, else the first two. */
export function termsAsked(prompt: string): TermsProvider[] {
  const named = TERMS_PROVIDERS.filter((p) => p.trigger !== undefined && prompt.includes(p.trigger));
  return named.length ? named : TERMS_PROVIDERS.slice(0, 2);
}

/** The service's answers to Exchange calls that are not per-result (addendum, December 2026). */
export const EXCHANGE_ERRORS = {
  unavailable: 'Provider request unavailable. Retry with the same x-request-id.',
  unverified: 'Verify this API key before executing provider tools.',
  unverifiedCode: 'AGENT_INDEX_ONLY',
  keyless: 'An API key is required for provider tools.',
} as const;
/** The failed result of a `terms/accept` whose terms changed since they were shown. */
export const TERMS_CHANGED = { code: 'terms_changed', message: 'Terms changed', status: 409 } as const;

/** The SDK's `AgentTermsGate` of a provider (no `text`, no `shownDigest`). */
export function gateOf(p: TermsProvider): AgentTermsGate {
  return {
    provider: p.provider,
    name: p.name,
    ...(p.logo ? { logo: p.logo } : {}),
    ...(p.capability ? { capability: p.capability } : {}),
    ...(p.adds ? { adds: p.adds } : {}),
    version: p.version,
    digest: p.digest,
    url: p.url,
  } satisfies AgentTermsGate;
}

export function skippedOf(p: TermsProvider): AgentSkippedProvider {
  return {
    provider: p.provider,
    name: p.name,
    ...(p.capability ? { capability: p.capability } : {}),
    ...(p.adds ? { adds: p.adds } : {}),
    reason: 'terms_required',
    version: p.version,
    termsUrl: p.url,
  } satisfies AgentSkippedProvider;
}

/** `exchange.requiresAction` for a terms approval: per provider the ready `terms/show` and `terms/accept` calls. */
export function requiresActionOf(approvalId: string, providers: readonly TermsProvider[]): AgentTermsRequiredAction {
  return {
    type: 'accept_terms',
    approvalId,
    providers: providers.map((p) => ({
      provider: p.provider,
      name: p.name,
      ...(p.capability ? { capability: p.capability } : {}),
      ...(p.adds ? { adds: p.adds } : {}),
      version: p.version,
      digest: p.digest,
      url: p.url,
      show: { provider: 'firecrawl', capability: 'terms/show', options: { provider: p.provider } },
      accept: {
        provider: 'firecrawl',
        capability: 'terms/accept',
        options: { provider: p.provider, version: p.version, digest: p.digest, confirmed: true },
      },
    })),
  } satisfies AgentTermsRequiredAction;
}

/** Accepted terms per team: `team → provider → version`. */
export type TermsAcceptances = Map<string, Map<string, string>>;

export function hasAccepted(store: TermsAcceptances, team: string, p: TermsProvider): boolean {
  return store.get(team)?.get(p.provider) === p.version;
}

/** The SDK sends at most this many calls (`ALEXANDRIA_MAX_CALLS` of its `scrapeAlexandria`). */
export const MAX_ALEXANDRIA_CALLS = 10;

export interface ScrapeReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface ScrapeContext {
  team: string;
  store: TermsAcceptances;
  now: () => number;
  /** The call's `x-request-id` header; the service makes one when it is absent. */
  retryId?: string;
  /** The ids already answered 503 once (an `unavailable` provider's retry with one of them succeeds). */
  unavailableSeen: Set<string>;
}
interface Issue {
  code: string;
  path: Array<string | number>;
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const bad = (issues: Issue[]): ScrapeReply => ({
  status: 400,
  body: { success: false, error: 'Bad Request', details: issues },
});

/**
 * `POST /v2/scrape`: only `{ alexandria: call | call[] }` (plus `timeout`, `integration`, `origin`); anything else is a
 * 400 naming the field.
 */
export function handleScrape(body: unknown, ctx: ScrapeContext): ScrapeReply {
  const retryId = ctx.retryId ?? randomUUID();
  const reply = answerScrape(body, ctx, retryId);
  return { ...reply, headers: { ...reply.headers, 'x-request-id': retryId } };
}

function answerScrape(body: unknown, ctx: ScrapeContext, retryId: string): ScrapeReply {
  const { team, store, now } = ctx;
  if (!isObject(body)) return bad([{ code: 'invalid_type', path: [], message: 'Request body must be a JSON object' }]);
  if (body.alexandria === undefined) {
    return bad([
      {
        code: 'invalid_type',
        path: ['alexandria'],
        message:
          'The sandbox serves only Exchange calls on /v2/scrape: send { alexandria: [ { provider, capability, options } ] }',
      },
    ]);
  }
  const extra = Object.keys(body).filter((k) => !['alexandria', 'timeout', 'integration', 'origin'].includes(k));
  if (extra.length)
    return bad([
      {
        code: 'unrecognized_keys',
        path: [],
        message: `Unrecognized key(s) in object: ${extra.map((k) => `'${k}'`).join(', ')}`,
      },
    ]);
  const calls = Array.isArray(body.alexandria) ? body.alexandria : [body.alexandria];
  if (calls.length === 0)
    return bad([{ code: 'too_small', path: ['alexandria'], message: 'alexandria must hold at least one call' }]);
  if (calls.length > MAX_ALEXANDRIA_CALLS)
    return bad([
      {
        code: 'too_big',
        path: ['alexandria'],
        message: `alexandria may hold at most ${MAX_ALEXANDRIA_CALLS} calls (got ${calls.length})`,
      },
    ]);

  const issues: Issue[] = [];
  const planned: Array<() => AlexandriaScrapeResult> = [];
  const refusals = new Set<TermsProvider['accept']>();
  calls.forEach((c, i) => {
    const at = (...p: Array<string | number>) => ['alexandria', i, ...p];
    if (!isObject(c)) {
      issues.push({
        code: 'invalid_type',
        path: at(),
        message: `alexandria[${i}] must be an object { provider, capability, options }`,
      });
      return;
    }
    const unknown = Object.keys(c).filter((k) => !['provider', 'capability', 'options'].includes(k));
    if (unknown.length)
      issues.push({
        code: 'unrecognized_keys',
        path: at(),
        message: `Unrecognized key(s) in alexandria[${i}]: ${unknown.map((k) => `'${k}'`).join(', ')}`,
      });
    if (c.provider !== 'firecrawl' || (c.capability !== 'terms/show' && c.capability !== 'terms/accept')) {
      issues.push({
        code: 'invalid_enum_value',
        path: at(c.provider !== 'firecrawl' ? 'provider' : 'capability'),
        message: `alexandria[${i}]: the sandbox serves only provider "firecrawl" with capability "terms/show" or "terms/accept"`,
      });
      return;
    }
    const o = c.options;
    if (!isObject(o)) {
      issues.push({
        code: 'invalid_type',
        path: at('options'),
        message: `alexandria[${i}].options must be an object with provider`,
      });
      return;
    }
    const p = TERMS_PROVIDERS.find((x) => x.provider === o.provider);
    if (!p) {
      issues.push({
        code: 'invalid_enum_value',
        path: at('options', 'provider'),
        message: `alexandria[${i}].options.provider must name a provider with terms: ${TERMS_PROVIDERS.map((x) => x.provider).join(', ')}`,
      });
      return;
    }
    if (c.capability === 'terms/show') {
      planned.push(() => ({
        provider: 'firecrawl',
        capability: 'terms/show',
        creditsCost: 0,
        data: {
          provider: p.provider,
          name: p.name,
          version: p.version,
          digest: p.shownDigest,
          url: p.url,
          text: p.text,
          accepted: hasAccepted(store, team, p),
        },
      }));
      return;
    }
    if (o.confirmed !== true)
      issues.push({
        code: 'invalid_literal',
        path: at('options', 'confirmed'),
        message: `alexandria[${i}].options.confirmed must be true: terms are accepted only after the user agreed to them`,
      });
    if (o.version !== p.version)
      issues.push({
        code: 'custom',
        path: at('options', 'version'),
        message: `alexandria[${i}].options.version must be the current terms version of ${p.provider} (${p.version})`,
      });
    const digestOk = o.digest === p.shownDigest || (o.digest === null && p.digest === null);
    if (!digestOk)
      issues.push({
        code: 'custom',
        path: at('options', 'digest'),
        message: `alexandria[${i}].options.digest must be the digest terms/show answers for ${p.provider}`,
      });
    if (p.accept) refusals.add(p.accept);
    if (p.accept === 'changed') {
      planned.push(() => ({ provider: 'firecrawl', capability: 'terms/accept', error: { ...TERMS_CHANGED } }));
      return;
    }
    planned.push(() => {
      let team_ = store.get(team);
      if (!team_) {
        team_ = new Map();
        store.set(team, team_);
      }
      team_.set(p.provider, p.version);
      return {
        provider: 'firecrawl',
        capability: 'terms/accept',
        creditsCost: 0,
        data: {
          provider: p.provider,
          version: p.version,
          digest: p.shownDigest,
          accepted: true,
          acceptedAt: new Date(now()).toISOString(),
        },
      };
    });
  });
  if (issues.length) return bad(issues);
  if (refusals.has('unverified'))
    return {
      status: 403,
      body: { success: false, code: EXCHANGE_ERRORS.unverifiedCode, error: EXCHANGE_ERRORS.unverified },
    };
  if (refusals.has('unavailable') && !ctx.unavailableSeen.has(retryId)) {
    ctx.unavailableSeen.add(retryId);
    return { status: 503, body: { success: false, error: EXCHANGE_ERRORS.unavailable } };
  }
  const results = planned.map((f) => f());
  return {
    status: 200,
    body: {
      success: true,
      scrape_id: randomUUID(),
      data: { alexandria: results, creditsCost: 0 },
    } satisfies ProductionScrapeBody,
  };
}
