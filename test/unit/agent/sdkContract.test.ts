// The SDK as the contract: objects of every variant the service's JS SDK declares, written
// out as the addendum's last section gives them (test/support/sdkShapes.ts, typed with `satisfies`),
// are parsed by this client's schemas, and what a user must see survives. The schema of 0.1 (an
// `approvalId` field, a single `terms` object, calls as `name`/`arguments`) dropped every approval
// here, and refused a thread or snapshot body without its record.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import {
  AgentJobRecordSchema,
  SnapshotResponseSchema,
  ThreadResponseSchema,
} from '../../../src/api/agent/agentSchemas';
import { ExchangeSummarySchema, PendingApprovalSchema } from '../../../src/api/agent/exchangeSchemas';
import { isWaiting, termsAcceptCalls } from '../../../src/agentRun/approval';
import { applyStatus, type RunFacts } from '../../../src/agentRun/runState';
import { approvalWords, endMessage, jobState, paidWords } from '../../../src/agentRun/runOutcome';
import {
  CALLS_APPROVAL,
  ENDED_WAITING_STATUS,
  OLD_CALLS_APPROVAL,
  PAID_EXCHANGE,
  PAID_STATUS,
  REQUIRES_ACTION,
  RESOLVED_APPROVAL,
  SNAPSHOT_WITHOUT_RECORD,
  TERMS_APPROVAL,
  THREAD_BODY,
  THREAD_WITHOUT_RECORD,
  WAITING_STATUS,
} from '../../support/sdkShapes';

const facts = (): RunFacts => ({ status: 'processing', trace: { eventCount: 0, finished: false } });

describe('pendingApproval: every SDK variant', () => {
  it('PendingCallsApproval: the id is `id`, each call keeps provider, capability, input and estimate (null kept)', () => {
    const p = PendingApprovalSchema.parse(CALLS_APPROVAL);
    assert.equal(p.id, CALLS_APPROVAL.id);
    assert.equal(p.kind, 'calls');
    assert.equal(p.reason, 'The answer needs two paid calls.');
    assert.deepEqual(
      p.calls.map((c) => [c.id, c.provider, c.capability, c.creditsEstimate]),
      [
        ['call_1', 'github', 'search_issues', 5],
        ['call_2', 'stackexchange', 'search', null],
      ],
    );
    assert.deepEqual(p.calls[0]!.input, { q: 'retry backoff', repo: 'undici/undici' });
    assert.deepEqual(p.calls[1]!.more, [{ page: 2 }]);
    assert.equal(p.resolution, null);
    assert.equal(isWaiting({ pendingApproval: p }), true);
  });

  it('an older calls record without `kind` is read as calls', () => {
    const p = PendingApprovalSchema.parse(OLD_CALLS_APPROVAL);
    assert.equal(p.kind, 'calls');
    assert.equal(approvalWords(p), 'approval of a paid call (about 2 credits): github get_issue');
  });

  it('PendingTermsApproval: `terms` is an array with name, version, digest and URL', () => {
    const p = PendingApprovalSchema.parse(TERMS_APPROVAL);
    assert.equal(p.kind, 'terms');
    assert.deepEqual(
      p.terms.map((t) => [t.provider, t.name, t.version, t.digest, t.url]),
      [['crunchbase', 'Crunchbase', '2026-10', 'sha256:ab12', 'https://firecrawl.dev/terms/crunchbase']],
    );
    assert.deepEqual(p.calls, []);
  });

  it('a resolution is kept and ends the wait', () => {
    const p = PendingApprovalSchema.parse(RESOLVED_APPROVAL);
    assert.deepEqual(p.resolution, RESOLVED_APPROVAL.resolution);
    assert.equal(isWaiting({ pendingApproval: p }), false);
  });

  it('an unknown kind is kept raw; a call without an estimate or an id is still listed', () => {
    const p = PendingApprovalSchema.parse({
      id: 'a',
      kind: 'budget',
      reason: 'r',
      calls: [{ provider: 'x', capability: 'y', input: {} }],
      resolution: null,
    });
    assert.equal(p.kind, 'budget');
    assert.equal(p.calls.length, 1);
    assert.equal(approvalWords(p), 'the caller (budget)');
  });

  it('an approval without any id is not an approval (nothing could answer it)', () => {
    assert.equal(PendingApprovalSchema.safeParse({ kind: 'calls', calls: [], resolution: null }).success, false);
  });
});

describe('status records as production sends them', () => {
  it('AgentStatusResponse waiting for calls (processing): waiting, said first, with the estimate', () => {
    const f = facts();
    applyStatus(f, AgentJobRecordSchema.parse(WAITING_STATUS));
    assert.equal(jobState({ ...f, prompt: 'p' }), 'waiting');
    assert.equal(f.pendingApproval?.id, WAITING_STATUS.pendingApproval.id);
  });

  it('a turn that ended waiting (completed, terms unresolved) is waiting, and its requiresAction gives the accept calls', () => {
    const f = facts();
    applyStatus(f, AgentJobRecordSchema.parse(ENDED_WAITING_STATUS));
    assert.equal(f.finalRead, true);
    assert.equal(jobState({ ...f, prompt: 'p' }), 'waiting', 'the pendingApproval is not dropped on a final status');
    assert.deepEqual(termsAcceptCalls(f), [REQUIRES_ACTION.providers[0]!.accept]);
  });

  it('without requiresAction, the accept calls are built from the terms entries (confirmed: true)', () => {
    const p = PendingApprovalSchema.parse(TERMS_APPROVAL);
    assert.deepEqual(termsAcceptCalls({ pendingApproval: p }), [
      {
        provider: 'firecrawl',
        capability: 'terms/accept',
        options: { provider: 'crunchbase', version: '2026-10', digest: 'sha256:ab12', confirmed: true },
      },
    ]);
  });

  it('AgentExchangeSummary: paid calls, credits, skipped providers with their terms URL', () => {
    const x = ExchangeSummarySchema.parse(PAID_EXCHANGE);
    assert.equal(paidWords(x), '2 paid calls, 30 credits');
    assert.deepEqual(
      x.skippedProviders?.map((s) => [s.name, s.reason, s.termsUrl]),
      [['Crunchbase', 'terms_required', 'https://firecrawl.dev/app/terms/crunchbase']],
    );
    assert.equal(
      paidWords(ExchangeSummarySchema.parse({ enabled: true, paidCalls: 1, creditsUsed: null })),
      '1 paid call',
    );
    assert.equal(
      paidWords(ExchangeSummarySchema.parse({ enabled: true, paidCalls: 0, creditsUsed: 0 })),
      undefined,
      'nothing paid, nothing skipped: nothing said',
    );
  });

  it('a finished paid run: the summary reaches the run facts; an empty suggestion prompt sends its label', () => {
    const f = facts();
    const rec = AgentJobRecordSchema.parse(PAID_STATUS);
    applyStatus(f, rec);
    assert.equal(jobState({ ...f, prompt: 'p' }), 'completed');
    assert.equal(paidWords(f.exchange), '2 paid calls, 30 credits');
    assert.deepEqual(rec.suggestions, [{ label: 'Show the fix', prompt: 'Show the fix' }]);
    assert.equal(
      endMessage({ ...f, prompt: 'Which issues mention the backoff?' })?.text,
      'Agent job "Which issues mention the backoff?" completed using 75 credits (2 paid calls, 30 credits). It skipped Crunchbase: its data terms are not accepted.',
    );
  });
});

describe('threads and snapshots', () => {
  it('AgentThreadResponse: runs keep pendingApproval, exchange, finishedAt; updatedAt is read', () => {
    const t = ThreadResponseSchema.parse(THREAD_BODY).thread!;
    assert.equal(t.updatedAt, '2026-11-27T18:01:00.000Z');
    assert.equal(t.runs[0]!.pendingApproval?.id, THREAD_BODY.thread.runs[0]!.pendingApproval!.id);
    assert.equal(t.runs[1]!.finishedAt, '2026-11-27T18:02:00.000Z');
    assert.equal(paidWords(t.runs[1]!.exchange ?? undefined), '2 paid calls, 30 credits');
  });

  it("bodies without their record are answers with the service's words, not invalid responses", () => {
    assert.equal(ThreadResponseSchema.parse(THREAD_WITHOUT_RECORD).error, 'Thread is being archived.');
    const s = SnapshotResponseSchema.parse(SNAPSHOT_WITHOUT_RECORD);
    assert.equal(s.snapshot, undefined);
    assert.equal(s.error, 'Snapshot storage is unavailable.');
  });
});
