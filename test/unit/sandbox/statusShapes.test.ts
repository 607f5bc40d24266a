// The sandbox's production bodies against the SDK's own declarations, read from
// node_modules/firecrawl/dist/index.d.ts at test time (not from the sandbox's code): for every trigger,
// sampled all along the run on a fake clock, no field the SDK declares optional without `null`
// (`error?: string`, `pendingApproval?: PendingApproval`, …) is ever sent as null. Addendum (late
// November 2026): "Fields are absent rather than `null` in status bodies".
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { createAgentService } from '../../../sandbox/agent/service';
import { type AgentReply } from '../../../sandbox/agent/serviceTypes';

const DTS = readFileSync(join(dirname(require.resolve('firecrawl/package.json')), 'dist', 'index.d.ts'), 'utf8');

/** The top-level members of `interface <name>` (and of the interfaces it extends) declared `name?: T` with no `null` in T and T not `unknown`. */
function optionalNonNull(name: string): string[] {
  const m = new RegExp(`interface ${name}(?: extends ([\\w, ]+))? \\{`).exec(DTS);
  assert.ok(m, `interface ${name} in the SDK`);
  let depth = 1;
  let i = m.index + m[0].length;
  const start = i;
  while (depth > 0) {
    const c = DTS[i++];
    if (c === '{') depth++;
    else if (c === '}') depth--;
  }
  const body = DTS.slice(start, i - 1);
  const out: string[] = [];
  let level = 0;
  for (const line of body.split('\n')) {
    if (level === 0) {
      const f = /^\s+(\w+)\?: (.+?);?$/.exec(line);
      if (f && !/\bnull\b/.test(f[2]!) && f[2] !== 'unknown' && f[2] !== 'never') out.push(f[1]!);
    }
    for (const c of line.replace(/\/\*.*?\*\/|\/\/.*$/g, '')) {
      if (c === '{') level++;
      else if (c === '}') level--;
    }
  }
  for (const parent of m[1]
    ?.split(',')
    .map((x) => x.trim())
    .filter(Boolean) ?? [])
    out.push(...optionalNonNull(parent));
  return out;
}

const FIELDS = {
  status: optionalNonNull('AgentStatusResponse'),
  exchange: optionalNonNull('AgentExchangeSummary'),
  calls: [...optionalNonNull('PendingCallsApproval'), ...optionalNonNull('PendingTermsApproval')],
  call: optionalNonNull('PendingApprovalCall'),
  gate: optionalNonNull('AgentTermsGate'),
  skipped: optionalNonNull('AgentSkippedProvider'),
  threadRun: optionalNonNull('AgentThreadRun'),
  thread: optionalNonNull('AgentThreadResponse'),
  listItem: optionalNonNull('AgentListItem'),
};

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function noNulls(where: string, o: Body | undefined, fields: string[]): void {
  if (o === undefined || o === null) return;
  for (const f of fields)
    assert.ok(!(f in o) || o[f] !== null, `${where}: ${f} is null (the SDK declares it optional, not nullable)`);
}

function checkStatus(where: string, job: Body): void {
  noNulls(where, job, FIELDS.status);
  noNulls(`${where} exchange`, job.exchange, FIELDS.exchange);
  for (const k of job.exchange?.skippedProviders ?? []) noNulls(`${where} skippedProviders[]`, k, FIELDS.skipped);
  const p = job.pendingApproval;
  noNulls(`${where} pendingApproval`, p, FIELDS.calls);
  for (const c of p?.calls ?? []) noNulls(`${where} pendingApproval.calls[]`, c, FIELDS.call);
  for (const g of p?.terms ?? []) noNulls(`${where} pendingApproval.terms[]`, g, FIELDS.gate);
}

const TRIGGERS: Array<[string, Record<string, unknown>]> = [
  ['plain', { prompt: 'plain run' }],
  ['effort', { prompt: 'with effort', effort: 'high' }],
  ['chat', { prompt: 'a question', mode: 'chat' }],
  ['APPROVAL', { prompt: 'APPROVAL calls' }],
  ['APPROVAL-OLD', { prompt: 'APPROVAL-OLD calls' }],
  ['APPROVAL-TERMS', { prompt: 'APPROVAL-TERMS gate' }],
  ['PAID-CALLS', { prompt: 'PAID-CALLS run' }],
  ['PAID-CALLS ask', { prompt: 'PAID-CALLS run', exchange: { onTermsRequired: 'ask' } }],
  ['exchange enabled', { prompt: 'p', exchange: { enabled: true } }],
  ['NO-RECORD', { prompt: 'NO-RECORD run' }],
  ['REFUSE', { prompt: 'REFUSE this' }],
  ['CRASH', { prompt: 'CRASH it' }],
  ['credit ceiling', { prompt: 'expensive', maxCredits: 50 }],
];

describe('sandbox production bodies: no null where the SDK declares an optional field', () => {
  it('the SDK declarations read here hold the fields the addendum names', () => {
    for (const f of ['error', 'message', 'suggestions', 'pendingApproval', 'exchange', 'effort'])
      assert.ok(FIELDS.status.includes(f), f);
    assert.ok(FIELDS.exchange.includes('requiresAction') && FIELDS.exchange.includes('skippedProviders'));
    assert.ok(FIELDS.call.includes('more'));
  });

  for (const [name, body] of TRIGGERS) {
    it(`${name}: status, thread record and list, sampled along the run`, () => {
      const clock = { t: 1_700_000_000_000 };
      const svc = createAgentService({ speed: 1, now: () => clock.t });
      const call = (method: string, path: string, b?: unknown, query = ''): Body =>
        (
          svc.handle({
            method,
            path,
            query: new URLSearchParams(query),
            body: b,
            team: 't',
            origin: 'http://127.0.0.1:1',
          }) as AgentReply
        ).body as Body;
      const s = call('POST', '/v2/agent', body);
      assert.equal(typeof s.id, 'string', JSON.stringify(s));
      const ids: string[] = [s.id];
      for (let step = 0; step < 40; step++) {
        const job = call('GET', `/v2/agent/${s.id}`);
        for (const id of ids)
          checkStatus(`${name} ${id === s.id ? 'run' : 'answer turn'} at ${step}s`, call('GET', `/v2/agent/${id}`));
        const t = call('GET', `/v2/agent/threads/${s.threadId}`, undefined, 'includeData=true');
        noNulls(`${name} thread`, t, FIELDS.thread);
        for (const r of t.thread?.runs ?? []) {
          noNulls(`${name} thread run`, r, FIELDS.threadRun);
          if (r.exchange)
            checkStatus(`${name} thread run`, {
              exchange: r.exchange,
              pendingApproval: r.pendingApproval ?? undefined,
            });
        }
        for (const row of call('GET', '/v2/agent').agents) noNulls(`${name} list row`, row, FIELDS.listItem);
        // Answer a waiting approval once, so the answer turn and the resolution are sampled too.
        if (job.pendingApproval?.resolution === null && job.pendingApproval.kind !== 'terms') {
          const next = call('POST', '/v2/agent', {
            prompt: 'ok',
            threadId: s.threadId,
            exchange: { approve: { approvalId: job.pendingApproval.id } },
          });
          assert.equal(typeof next.id, 'string', JSON.stringify(next));
          ids.push(next.id);
        }
        clock.t += 1000;
      }
      for (const id of ids)
        assert.notEqual(call('GET', `/v2/agent/${id}`).status, 'processing', `${name} finished within 40 s`);
    });
  }
});
