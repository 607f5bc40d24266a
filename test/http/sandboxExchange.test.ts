// The sandbox's paid tool calls ("exchange") and approvals on the production wire, as the addendum's
// last section ("Exact shapes as of late November 2026") and the SDK's declarations describe them:
// a calls approval that waits, a terms approval that ends the turn, the answer as the
// next turn, terms/show and terms/accept as Exchange calls, paid calls with a skipped provider, the
// submit fields production accepts, and bodies without their record. Raw HTTP: the wire is asserted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox } from '../../sandbox/server';
import { type Sandbox } from '../../sandbox/serverParts';
import { keyedCall } from './sandboxHelpers';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Terms acceptances are per team, so each scenario that accepts or relies on none has a key of its own.
const KEYS = {
  calls: 'sbx-x-calls',
  always: 'sbx-x-always',
  terms: 'sbx-x-terms',
  paid: 'sbx-x-paid',
  ask: 'sbx-x-ask',
  scrape: 'sbx-x-scrape',
  submit: 'sbx-x-submit',
  none: 'sbx-x-none',
} as const;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let sb: Sandbox;

function call(
  method: string,
  path: string,
  body: unknown,
  key: string | null,
): Promise<{ status: number; json: Json; text: string }> {
  return keyedCall(sb.url, method, path, body, key);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(key: string, id: string, done: (job: Json) => boolean): Promise<Json> {
  for (let i = 0; i < 200; i++) {
    const r = await call('GET', `/v2/agent/${id}`, undefined, key);
    assert.equal(r.status, 200, r.text);
    if (done(r.json)) return r.json;
    await sleep(25);
  }
  assert.fail(`job ${id} did not reach the state within 5 s`);
}
const finished = (j: Json): boolean => j.status !== 'processing' && j.status !== 'cancelling';
const asking = (j: Json): boolean => j.pendingApproval !== undefined;

async function start(key: string, body: Record<string, unknown>): Promise<Json> {
  const r = await call('POST', '/v2/agent', body, key);
  assert.equal(r.status, 200, r.text);
  return r.json;
}
const thread = async (key: string, threadId: string): Promise<Json> => {
  const r = await call('GET', `/v2/agent/threads/${threadId}`, undefined, key);
  assert.equal(r.status, 200, r.text);
  return r.json.thread;
};
const scrape = (key: string, alexandria: unknown) => call('POST', '/v2/scrape', { alexandria }, key);

describe('sandbox exchange and approvals (production wire)', () => {
  before(async () => {
    sb = await startSandbox({
      port: 0,
      keys: Object.values(KEYS),
      faults: true,
      agentSpeed: 50,
      quiet: true,
      rateLimit: 0,
    });
  });
  after(async () => {
    await sb.close();
  });

  it('APPROVAL: the run waits (processing) with a calls approval { id, reason, kind, calls, resolution: null }', async () => {
    const s = await start(KEYS.calls, { prompt: 'File an APPROVAL issue', exchange: { enabled: true, maxCalls: 5 } });
    const waiting = await until(KEYS.calls, s.id, asking);
    // "A run with a pendingApproval whose resolution is null is waiting for the caller, whatever its status says (usually processing)."
    assert.equal(waiting.status, 'processing');
    const p = waiting.pendingApproval;
    assert.deepEqual(Object.keys(p).sort(), ['calls', 'id', 'kind', 'reason', 'resolution']);
    assert.equal(p.kind, 'calls');
    assert.match(p.id, UUID, "the approval's id is `id` (sent back as approvalId)");
    assert.ok(p.reason.length > 0);
    assert.equal(p.resolution, null);
    assert.equal(p.calls.length, 2);
    // Calls are { id, provider, capability, input, more?, creditsEstimate } (not name / arguments).
    for (const c of p.calls) {
      for (const k of Object.keys(c))
        assert.ok(['id', 'provider', 'capability', 'input', 'more', 'creditsEstimate'].includes(k), k);
      assert.ok(c.id && c.provider && c.capability);
      assert.equal(typeof c.input, 'object');
      assert.ok(c.creditsEstimate === null || typeof c.creditsEstimate === 'number');
    }
    assert.ok(
      p.calls.some((c: Json) => c.creditsEstimate === null),
      'one call has no estimate',
    );
    assert.ok(
      p.calls.some((c: Json) => Array.isArray(c.more)),
      'one call carries more inputs',
    );
    await sleep(200);
    const still = (await call('GET', `/v2/agent/${s.id}`, undefined, KEYS.calls)).json;
    assert.equal(still.status, 'processing', 'it does not progress on its own');
    assert.deepEqual(still.pendingApproval, p);
    assert.equal(still.exchange.enabled, true);
    assert.equal(still.exchange.paidCalls, 0);
    assert.equal(still.exchange.creditsUsed, null, 'no credits figure before the run has finished');

    const plain = await call('POST', '/v2/agent', { prompt: 'next', threadId: s.threadId }, KEYS.calls);
    assert.equal(plain.status, 409);
    assert.equal(plain.json.code, 'thread_busy');
    assert.equal(plain.json.runId, s.id);
    const wrong = await call(
      'POST',
      '/v2/agent',
      { prompt: 'yes', threadId: s.threadId, exchange: { approve: { approvalId: 'nope-123' } } },
      KEYS.calls,
    );
    assert.equal(wrong.status, 400);
    assert.match(wrong.json.error, /nope-123/);
    const both = await call(
      'POST',
      '/v2/agent',
      {
        prompt: 'yes',
        threadId: s.threadId,
        exchange: { approve: { approvalId: p.id }, decline: { approvalId: p.id } },
      },
      KEYS.calls,
    );
    assert.equal(both.status, 400, 'approve and decline exclude each other');

    // "The answer is the next turn of the thread."
    const ok = await call(
      'POST',
      '/v2/agent',
      { prompt: 'Approved.', threadId: s.threadId, exchange: { approve: { approvalId: p.id } } },
      KEYS.calls,
    );
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(Object.keys(ok.json).sort(), ['id', 'success', 'threadId', 'threadTurn']);
    assert.notEqual(ok.json.id, s.id);
    assert.equal(ok.json.threadTurn, 2);
    const answered = await until(KEYS.calls, s.id, finished);
    assert.equal(answered.status, 'completed');
    assert.deepEqual(answered.pendingApproval.resolution, {
      approved: true,
      callIds: p.calls.map((c: Json) => c.id),
      always: false,
      byRunId: ok.json.id,
    });
    const next = await until(KEYS.calls, ok.json.id, finished);
    assert.equal(next.status, 'completed');
    assert.equal(next.threadTurn, 2);
    assert.equal('pendingApproval' in next, false);
    assert.equal(next.exchange.enabled, true);
    assert.equal(next.exchange.paidCalls, 2);
    assert.equal(next.exchange.creditsUsed, 30, '10 estimated + 20 for the call without an estimate');
    const events = (await call('GET', `/v2/agent/${ok.json.id}/trace`, undefined, KEYS.calls)).json.events as Json[];
    for (const c of p.calls) {
      assert.ok(
        events.some((e) => e.type === 'tool_call.started' && e.toolCallId === c.id),
        `the approved call ${c.id} starts`,
      );
      assert.ok(
        events.some((e) => e.type === 'tool_call.finished' && e.toolCallId === c.id),
        `and finishes`,
      );
    }
    assert.ok(!events.some((e) => String(e.type).startsWith('approval')), 'no approval event: the SDK declares none');
    const again = await call(
      'POST',
      '/v2/agent',
      { prompt: 'yes', threadId: s.threadId, exchange: { approve: { approvalId: p.id } } },
      KEYS.calls,
    );
    assert.equal(again.status, 400);
    assert.equal(again.json.code, 'exchange_not_enabled', 'an answered approval is not pending any more');

    const t = await thread(KEYS.calls, s.threadId);
    assert.deepEqual(
      t.runs.map((r: Json) => [r.turn, r.status]),
      [
        [1, 'succeeded'],
        [2, 'succeeded'],
      ],
    );
    assert.equal(t.runs[0].pendingApproval.resolution.byRunId, ok.json.id);
    assert.equal(t.runs[1].pendingApproval, null);
    assert.equal(t.runs[1].exchange.paidCalls, 2);
  });

  it('approving some calls with always: true; a later turn asks only for the rest; decline; a waiting run can be cancelled', async () => {
    const s = await start(KEYS.always, { prompt: 'APPROVAL please', mode: 'chat' });
    const p = (await until(KEYS.always, s.id, asking)).pendingApproval;
    const first = p.calls[0];
    const r = await start(KEYS.always, {
      prompt: 'Only the first, always.',
      threadId: s.threadId,
      exchange: { approve: { approvalId: p.id, callIds: [first.id], always: true } },
    });
    const turn2 = await until(KEYS.always, r.id, finished);
    assert.equal(turn2.mode, 'chat', 'an omitted mode carries over from the previous turn');
    assert.equal(turn2.exchange.paidCalls, 1);
    assert.equal(turn2.exchange.creditsUsed, 10);
    assert.deepEqual((await call('GET', `/v2/agent/${s.id}`, undefined, KEYS.always)).json.pendingApproval.resolution, {
      approved: true,
      callIds: [first.id],
      always: true,
      byRunId: r.id,
    });

    const s3 = await start(KEYS.always, { prompt: 'APPROVAL once more', threadId: s.threadId });
    const p3 = (await until(KEYS.always, s3.id, asking)).pendingApproval;
    assert.deepEqual(
      p3.calls.map((c: Json) => `${c.provider}/${c.capability}`),
      [`${p.calls[1].provider}/${p.calls[1].capability}`],
      'the remembered call is not asked again',
    );
    const d = await start(KEYS.always, {
      prompt: 'No.',
      threadId: s.threadId,
      exchange: { decline: { approvalId: p3.id } },
    });
    assert.equal(d.threadTurn, 4);
    const declined = await until(KEYS.always, d.id, finished);
    assert.equal(declined.exchange.paidCalls, 0);
    assert.match(declined.message, /declined/);
    assert.deepEqual(
      (await call('GET', `/v2/agent/${s3.id}`, undefined, KEYS.always)).json.pendingApproval.resolution,
      { approved: false, callIds: [], always: false, byRunId: d.id },
    );

    const w = await start(KEYS.always, { prompt: 'APPROVAL then cancel' });
    await until(KEYS.always, w.id, asking);
    assert.equal((await call('DELETE', `/v2/agent/${w.id}`, undefined, KEYS.always)).status, 200);
    const cancelled = await until(KEYS.always, w.id, finished);
    assert.equal(cancelled.status, 'cancelled');
    assert.equal('pendingApproval' in cancelled, false, 'a cancelled run waits for nothing');
  });

  it('APPROVAL-OLD: an older record, kind absent on a calls approval', async () => {
    const s = await start(KEYS.calls, { prompt: 'APPROVAL-OLD record' });
    const p = (await until(KEYS.calls, s.id, asking)).pendingApproval;
    assert.equal('kind' in p, false);
    assert.equal(p.calls.length, 2, '"then calls non-empty means calls"');
    assert.equal(p.resolution, null);
  });

  it('APPROVAL-TERMS: the turn ends waiting (completed), a terms approval and exchange.requiresAction with ready show/accept calls', async () => {
    const s = await start(KEYS.terms, { prompt: 'APPROVAL-TERMS for the toolkit' });
    const job = await until(KEYS.terms, s.id, finished);
    assert.equal(
      job.status,
      'completed',
      'a status of completed with an unresolved pendingApproval is waiting, not done',
    );
    const p = job.pendingApproval;
    assert.equal(p.kind, 'terms');
    assert.deepEqual(p.calls, []);
    assert.equal(p.resolution, null);
    assert.ok(Array.isArray(p.terms) && p.terms.length === 2, 'terms is an array');
    for (const g of p.terms) {
      for (const k of ['provider', 'name', 'version', 'url']) assert.equal(typeof g[k], 'string', k);
      assert.ok(g.digest === null || typeof g.digest === 'string');
    }
    assert.ok(
      p.terms.some((g: Json) => g.digest === null),
      'one provider published no digest',
    );
    const x = job.exchange;
    assert.equal(x.onTermsRequired, 'ask');
    assert.equal(x.requiresAction.type, 'accept_terms');
    assert.equal(x.requiresAction.approvalId, p.id);
    assert.deepEqual(
      x.requiresAction.providers.map((q: Json) => q.provider),
      p.terms.map((g: Json) => g.provider),
    );
    for (const q of x.requiresAction.providers) {
      assert.deepEqual(q.show, { provider: 'firecrawl', capability: 'terms/show', options: { provider: q.provider } });
      assert.deepEqual(q.accept, {
        provider: 'firecrawl',
        capability: 'terms/accept',
        options: { provider: q.provider, version: q.version, digest: q.digest, confirmed: true },
      });
    }
    assert.ok(x.skippedProviders.every((k: Json) => k.reason === 'terms_required' && typeof k.termsUrl === 'string'));

    const early = await call(
      'POST',
      '/v2/agent',
      { prompt: 'I agree.', threadId: s.threadId, exchange: { approve: { approvalId: p.id } } },
      KEYS.terms,
    );
    assert.equal(early.status, 400, 'approving before terms/accept');
    assert.equal(early.json.code, 'terms_not_accepted');
    for (const g of p.terms) assert.ok(early.json.error.includes(g.name), `the error names ${g.name}`);

    for (const q of x.requiresAction.providers) {
      const shown = await scrape(KEYS.terms, [q.show]);
      assert.equal(shown.status, 200, shown.text);
      const digest = shown.json.data.alexandria[0].data.digest;
      assert.equal(typeof digest, 'string', 'terms/show answers the digest');
      const accepted = await scrape(KEYS.terms, [{ ...q.accept, options: { ...q.accept.options, digest } }]);
      assert.equal(accepted.status, 200, accepted.text);
    }
    const ok = await call(
      'POST',
      '/v2/agent',
      { prompt: 'I agree.', threadId: s.threadId, exchange: { approve: { approvalId: p.id } } },
      KEYS.terms,
    );
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.threadTurn, 2);
    const rec = (await call('GET', `/v2/agent/${s.id}`, undefined, KEYS.terms)).json;
    assert.deepEqual(rec.pendingApproval.resolution, {
      approved: true,
      callIds: [],
      always: false,
      byRunId: ok.json.id,
    });
    assert.equal('requiresAction' in rec.exchange, false, 'nothing left to accept');
    const next = await until(KEYS.terms, ok.json.id, finished);
    assert.equal(next.exchange.paidCalls, 2, 'the accepted providers are used');
  });

  it('APPROVAL-TERMS in chat mode: the answer is not written; the message says which terms it waits for', async () => {
    const s = await start(KEYS.terms, { prompt: 'APPROVAL-TERMS in words', mode: 'chat' });
    const job = await until(KEYS.terms, s.id, finished);
    assert.equal(job.status, 'completed');
    assert.equal(job.pendingApproval.resolution, null);
    for (const g of job.pendingApproval.terms) assert.ok(job.message.includes(g.name), g.name);
    const events = (await call('GET', `/v2/agent/${s.id}/trace`, undefined, KEYS.terms)).json.events as Json[];
    assert.ok(!events.some((e) => e.type === 'assistant.message'), 'no answer was written');
    assert.ok(events.some((e) => e.type === 'run.finished' && e.outcome === 'succeeded'));
  });

  it('a turn that ended waiting for terms is finished: a plain follow-up is accepted', async () => {
    const s = await start(KEYS.terms, { prompt: 'APPROVAL-TERMS again' });
    await until(KEYS.terms, s.id, finished);
    const f = await call('POST', '/v2/agent', { prompt: 'Never mind, just answer.', threadId: s.threadId }, KEYS.terms);
    assert.equal(f.status, 200, f.text);
    assert.equal(f.json.threadTurn, 2);
  });

  it('POST /v2/scrape: terms/show and terms/accept answer { success, data: { alexandria, creditsCost } }; bad calls are a 400 naming the field', async () => {
    const show = await scrape(KEYS.scrape, {
      provider: 'firecrawl',
      capability: 'terms/show',
      options: { provider: 'acme-data' },
    });
    assert.equal(show.status, 200, show.text);
    assert.equal(show.json.success, true);
    assert.equal(show.json.data.creditsCost, 0);
    const item = show.json.data.alexandria[0];
    assert.equal(item.provider, 'firecrawl');
    assert.equal(item.capability, 'terms/show');
    assert.equal(item.creditsCost, 0);
    for (const k of ['version', 'digest', 'url', 'text']) assert.equal(typeof item.data[k], 'string', k);
    assert.equal(item.data.accepted, false);
    const accept = {
      provider: 'firecrawl',
      capability: 'terms/accept',
      options: { provider: 'acme-data', version: item.data.version, digest: item.data.digest, confirmed: true },
    };
    for (const [bad, field] of [
      [undefined, 'alexandria'],
      [[], 'alexandria'],
      [
        Array.from(
          { length: 11 },
          () => show.json && { provider: 'firecrawl', capability: 'terms/show', options: { provider: 'acme-data' } },
        ),
        'alexandria',
      ],
      [
        [{ provider: 'firecrawl', capability: 'terms/forget', options: { provider: 'acme-data' } }],
        'alexandria.0.capability',
      ],
      [
        [{ provider: 'firecrawl', capability: 'terms/show', options: { provider: 'nobody' } }],
        'alexandria.0.options.provider',
      ],
      [[{ ...accept, options: { ...accept.options, confirmed: false } }], 'alexandria.0.options.confirmed'],
      [[{ ...accept, options: { ...accept.options, version: 'old' } }], 'alexandria.0.options.version'],
      [[{ ...accept, options: { ...accept.options, digest: 'sha256:0' } }], 'alexandria.0.options.digest'],
    ] as const) {
      const r = await call(
        'POST',
        '/v2/scrape',
        bad === undefined ? { url: 'https://example.com' } : { alexandria: bad },
        KEYS.scrape,
      );
      assert.equal(r.status, 400, `${field}: ${r.text}`);
      assert.equal(r.json.success, false);
      assert.ok(
        (r.json.details as Json[]).some((d) => d.path.join('.') === field),
        `${field}: ${r.text}`,
      );
    }
    const keyless = await call('POST', '/v2/scrape', { alexandria: [accept] }, null);
    assert.equal(keyless.status, 403, 'a key is needed');
    assert.equal(keyless.json.error, 'An API key is required for provider tools.');
    const ok = await scrape(KEYS.scrape, [accept]);
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.data.alexandria[0].data.accepted, true);
    assert.equal(
      (
        await scrape(KEYS.scrape, [
          show.json && { provider: 'firecrawl', capability: 'terms/show', options: { provider: 'acme-data' } },
        ])
      ).json.data.alexandria[0].data.accepted,
      true,
    );
  });

  it('PAID-CALLS: a finished run reports its paid calls, credits and the provider it skipped for want of terms', async () => {
    const s = await start(KEYS.paid, { prompt: 'Compare PAID-CALLS downloads' });
    const job = await until(KEYS.paid, s.id, finished);
    assert.equal(job.status, 'completed');
    assert.equal('pendingApproval' in job, false);
    const x = job.exchange;
    assert.equal(x.enabled, true);
    assert.ok(Array.isArray(x.toolkits));
    assert.equal(x.paidCalls, 2);
    assert.equal(x.creditsUsed, 30);
    assert.equal(x.skippedProviders.length, 1);
    const k = x.skippedProviders[0];
    assert.deepEqual(Object.keys(k).sort(), [
      'adds',
      'capability',
      'name',
      'provider',
      'reason',
      'termsUrl',
      'version',
    ]);
    assert.equal(k.reason, 'terms_required');
    assert.match(k.termsUrl, /^https:\/\//);
    assert.equal('requiresAction' in x, false, 'skip mode: no action asked');
    const events = (await call('GET', `/v2/agent/${s.id}/trace`, undefined, KEYS.paid)).json.events as Json[];
    assert.equal(events.filter((e) => e.type === 'tool_call.finished' && /^devdata\//.test(e.toolName)).length, 2);

    const one = await until(
      KEYS.paid,
      (await start(KEYS.paid, { prompt: 'PAID-CALLS once', exchange: { maxCalls: 1 } })).id,
      finished,
    );
    assert.deepEqual([one.exchange.paidCalls, one.exchange.creditsUsed], [1, 10], 'maxCalls bounds the calls');

    const held = await start(KEYS.paid, {
      prompt: 'PAID-CALLS with approval',
      mode: 'chat',
      exchange: { requireApproval: true },
    });
    const p = (await until(KEYS.paid, held.id, asking)).pendingApproval;
    assert.equal(p.kind, 'calls');
    assert.equal(p.calls.length, 2, 'requireApproval holds the paid calls back');
  });

  it('PAID-CALLS with onTermsRequired "ask": the turn ends with a terms approval; once the team accepted, nothing is skipped', async () => {
    const s = await start(KEYS.ask, { prompt: 'PAID-CALLS asking', exchange: { onTermsRequired: 'ask' } });
    const job = await until(KEYS.ask, s.id, finished);
    assert.equal(job.status, 'completed');
    assert.equal(job.pendingApproval.kind, 'terms');
    assert.deepEqual(
      job.pendingApproval.terms.map((g: Json) => g.provider),
      ['acme-data'],
    );
    assert.equal(job.exchange.requiresAction.approvalId, job.pendingApproval.id);
    assert.equal(job.exchange.paidCalls, 2);
    const q = job.exchange.requiresAction.providers[0];
    assert.equal(
      (await scrape(KEYS.ask, [q.accept])).status,
      200,
      'acme-data publishes its digest: the ready accept call works as is',
    );
    const d = await start(KEYS.ask, {
      prompt: 'No thanks.',
      threadId: s.threadId,
      exchange: { decline: { approvalId: job.pendingApproval.id } },
    });
    const declined = await until(KEYS.ask, d.id, finished);
    assert.equal(declined.exchange.paidCalls, 0);
    assert.equal(
      (await call('GET', `/v2/agent/${s.id}`, undefined, KEYS.ask)).json.pendingApproval.resolution.approved,
      false,
    );
    const later = await until(KEYS.ask, (await start(KEYS.ask, { prompt: 'PAID-CALLS after accepting' })).id, finished);
    assert.equal(later.exchange.paidCalls, 2);
    assert.equal('skippedProviders' in later.exchange, false);
  });

  it("submit accepts webhook, threatProtection, auditMetadata and exchange.onTermsRequired; bounds name the field; requireApproval outside chat is production's 500", async () => {
    const full = await call(
      'POST',
      '/v2/agent',
      {
        prompt: 'p',
        webhook: {
          url: 'https://example.com/hook',
          headers: { 'x-a': '1' },
          metadata: { run: 'a' },
          events: ['started', 'action', 'completed', 'failed', 'cancelled'],
        },
        threatProtection: { mode: 'normal', riskScoreThreshold: 70, blacklist: ['*.bad.example'] },
        auditMetadata: { username: 'dev' },
        exchange: { enabled: true, toolkits: ['a', 'b', 'c', 'd', 'e'], maxCalls: 1, onTermsRequired: 'skip' },
      },
      KEYS.submit,
    );
    assert.equal(full.status, 200, full.text);
    assert.equal(
      (await call('POST', '/v2/agent', { prompt: 'p', webhook: 'https://example.com/hook' }, KEYS.submit)).status,
      200,
      'a webhook URL alone',
    );
    for (const [body, field] of [
      [{ prompt: 'p', webhook: { url: 'https://example.com/hook', events: ['page'] } }, 'webhook.events.0'],
      [{ prompt: 'p', webhook: { events: ['started'] } }, 'webhook.url'],
      [{ prompt: 'p', threatProtection: { mode: 'paranoid' } }, 'threatProtection.mode'],
      [{ prompt: 'p', auditMetadata: {} }, 'auditMetadata.username'],
      [{ prompt: 'p', exchange: { toolkits: ['a', 'b', 'c', 'd', 'e', 'f'] } }, 'exchange.toolkits'],
      [{ prompt: 'p', exchange: { onTermsRequired: 'accept' } }, 'exchange.onTermsRequired'],
      [{ prompt: 'x'.repeat(10_001) }, 'prompt'],
    ] as const) {
      const r = await call('POST', '/v2/agent', body, KEYS.submit);
      assert.equal(r.status, 400, field);
      assert.ok(
        (r.json.details as Json[]).some((d) => d.path.join('.') === field),
        `${field}: ${r.text.slice(0, 300)}`,
      );
    }
    assert.equal(
      (await call('POST', '/v2/agent', { prompt: 'x'.repeat(10_000) }, KEYS.submit)).status,
      200,
      '10,000 characters is the bound',
    );
    const noChat = await call('POST', '/v2/agent', { prompt: 'p', exchange: { requireApproval: true } }, KEYS.submit);
    assert.equal(noChat.status, 500);
    assert.deepEqual(noChat.json, { success: false, error: 'Failed to passthrough agent request.' });
    const chat = await start(KEYS.submit, { prompt: 'p', mode: 'chat' });
    await until(KEYS.submit, chat.id, finished);
    const inherited = await call(
      'POST',
      '/v2/agent',
      { prompt: 'q', threadId: chat.threadId, exchange: { requireApproval: true } },
      KEYS.submit,
    );
    assert.equal(inherited.status, 500, 'mode: "chat" must be on the same request, not inherited');
  });

  it('NO-RECORD: a snapshot and the thread record answer { success: false, error } without the record', async () => {
    const s = await start(KEYS.none, { prompt: 'NO-RECORD please' });
    const job = await until(KEYS.none, s.id, finished);
    assert.equal(job.status, 'completed', 'the status itself is whole');
    const events = (await call('GET', `/v2/agent/${s.id}/trace`, undefined, KEYS.none)).json.events as Json[];
    const snap = events.find((e) => e.type === 'artifact.updated').artifact.snapshotId;
    const r = await call('GET', `/v2/agent/${s.id}/snapshots/${snap}`, undefined, KEYS.none);
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.json).sort(), ['error', 'success']);
    assert.equal(r.json.success, false);
    const t = await call('GET', `/v2/agent/threads/${s.threadId}`, undefined, KEYS.none);
    assert.equal(t.status, 200);
    assert.deepEqual(Object.keys(t.json).sort(), ['error', 'success']);
    const plain = await start(KEYS.none, { prompt: 'a plain one' });
    await until(KEYS.none, plain.id, finished);
    assert.equal(
      (await call('GET', `/v2/agent/threads/${plain.threadId}`, undefined, KEYS.none)).json.success,
      true,
      'other threads are whole',
    );
  });
});

describe('sandbox exchange on the spec wire: none of it', () => {
  before(async () => {
    sb = await startSandbox({
      port: 0,
      wire: 'spec',
      keys: [KEYS.calls],
      faults: true,
      agentSpeed: 50,
      quiet: true,
      rateLimit: 0,
    });
  });
  after(async () => {
    await sb.close();
  });

  it('no /v2/scrape, no exchange fields, no triggers', async () => {
    assert.equal(
      (
        await scrape(KEYS.calls, [
          { provider: 'firecrawl', capability: 'terms/show', options: { provider: 'acme-data' } },
        ])
      ).status,
      404,
    );
    const r = await call(
      'POST',
      '/v2/agent',
      { prompt: 'PAID-CALLS APPROVAL-TERMS NO-RECORD', webhook: 'https://example.com/h' },
      KEYS.calls,
    );
    assert.equal(r.status, 400, 'webhook is an unknown key on the spec wire');
    const s = await call('POST', '/v2/agent', { prompt: 'PAID-CALLS APPROVAL-TERMS NO-RECORD' }, KEYS.calls);
    const job = await until(KEYS.calls, s.json.id, finished);
    assert.equal(job.status, 'completed');
    for (const k of ['exchange', 'pendingApproval', 'threadId']) assert.equal(k in job, false, k);
  });
});
