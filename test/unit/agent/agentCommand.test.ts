// `devindex agent start --wait` on the run engine (the editor's schedule and words), against a
// scripted fake client and a fake clock: no network, no real sleeping.
import { parse } from 'zod/mini';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DevIndexClient, RequestSpec } from '../../../src/api/client';
import { ApiError } from '../../../src/api/errors';
import { DEFAULT_POLL_TIMING } from '../../../src/agentRun/pollSchedule';
import { runAgentCommand } from '../../../src/cli/agentCommand';
import { finalWords } from '../../../src/cli/agentFormat';

const ID = '123e4567-e89b-42d3-a456-426614174000';
const orch = { id: 'o', role: 'orchestrator', name: 'orchestrator' };
const sub = { id: 's', role: 'subagent', name: 'helper', parentId: 'o' };

interface Scripted {
  at: number;
  event: Record<string, unknown>;
}
interface Scenario {
  events: Scripted[];
  finishAt: number;
  outcome?: string;
  noTrace?: boolean;
}

function harness(sc: Scenario) {
  const clock = { t: 0 };
  const sleeps: number[] = [];
  const calls: Array<{ method: string; path: string; t: number }> = [];
  let seq = 0;
  const fake = {
    settings: { baseUrl: 'https://api.example.com' },
    async request<T>(spec: RequestSpec<T>): Promise<T> {
      calls.push({ method: spec.method, path: spec.path, t: clock.t });
      if (spec.method === 'POST') return parse(spec.schema, { success: true, id: ID });
      if (spec.path.endsWith('/trace')) {
        if (sc.noTrace)
          throw new ApiError({
            kind: 'http',
            status: 400,
            error: 'Trace is only available for FORGE-2 extracts',
            message: 'x',
          });
        const visible = sc.events.filter((e) => e.at <= clock.t).map((e) => e.event);
        return parse(spec.schema, { success: true, id: ID, events: visible });
      }
      const done = clock.t >= sc.finishAt;
      const failed = done && sc.outcome && sc.outcome !== 'succeeded';
      return parse(spec.schema, {
        success: true,
        id: ID,
        status: done ? (failed ? 'failed' : 'completed') : 'processing',
        ...(done && !failed ? { data: { items: [1, 2] }, creditsUsed: 42 } : {}),
        ...(failed ? { creditsUsed: 0, error: `run ended: ${sc.outcome}` } : {}),
      });
    },
    async close() {},
  } as unknown as DevIndexClient;
  let out = '';
  let err = '';
  const io = {
    out: (s: string) => {
      out += s;
    },
    err: (s: string) => {
      err += s;
    },
    env: { DEVINDEX_API_KEY: 'k' },
  };
  const go = (args: string[], o: { maxWaitMs?: number } = {}) =>
    runAgentCommand(['start', 'task', '--wait', ...args], io, {
      createClient: () => fake,
      now: () => clock.t,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock.t += ms;
      },
      ...o,
    });
  const ev = (agent: object, type: string, extra: object = {}) => ({
    eventId: `e${++seq}`,
    producerSequence: seq,
    agent,
    type,
    occurredAt: new Date(Date.UTC(2025, 0, 1) + seq * 1000).toISOString(),
    ...extra,
  });
  return { clock, sleeps, calls, go, ev, output: () => out, errors: () => err };
}

test("--wait follows on the engine's schedule: 2 s at first, backing off while quiet, fast on news, a grace read after run.finished", async () => {
  const h = harness({ events: [], finishAt: 31_000 });
  const sc: Scripted[] = [
    { at: 0, event: h.ev(orch, 'run.started') },
    { at: 20_000, event: h.ev(sub, 'progress.reported', { phase: 'working', message: 'busy' }) },
    { at: 31_000, event: h.ev(orch, 'run.finished', { outcome: 'succeeded', error: null }) },
    {
      at: 32_000,
      event: h.ev(sub, 'agent.finished', {
        outcome: 'cancelled',
        error: { code: 'parent_finished', retryable: false },
      }),
    },
  ];
  const h2 = harness({ events: sc, finishAt: 31_000 });
  const code = await h2.go([]);
  assert.equal(code, 0, h2.errors());
  const s = h2.sleeps;
  const T = DEFAULT_POLL_TIMING;
  assert.equal(s[0], T.fastMs, 'the first poll one fast interval after the submit, as in the editor');
  assert.deepEqual(
    s.slice(1, 4),
    [T.fastMs * T.backoff, T.fastMs * T.backoff ** 2, T.fastMs * T.backoff ** 3],
    `backs off by ${T.backoff}: ${s.join(', ')}`,
  );
  assert.ok(s.every((x) => x <= T.maxMs));
  const traces = h2.calls.filter((c) => c.path.endsWith('/trace'));
  const newsPoll = traces.findIndex((c) => c.t >= 20_000);
  assert.equal(traces[newsPoll + 1]!.t - traces[newsPoll]!.t, T.fastMs, 'back to fast after a phase change');
  const finishSeen = traces.find((c) => c.t >= 31_000)!.t;
  const statusReads = h2.calls.filter((c) => c.method === 'GET' && !c.path.endsWith('/trace'));
  assert.deepEqual(
    statusReads.map((c) => c.t),
    [finishSeen],
    'one status read, in the poll that sees the end',
  );
  assert.equal(h2.calls.at(-1)!.t - finishSeen, T.graceMs, 'one grace read for late events');
  assert.match(h2.output(), /parent_finished/, 'a late event within the grace period is printed');
  assert.match(h2.output(), /Agent job "task" completed using 42 credits\.\n/);
  assert.match(h2.output(), /"items"/);
  assert.equal(h2.calls.filter((c) => c.method === 'POST').length, 1);
});

test('--wait: a long quiet run is polled no faster than the backoff ceiling allows', async () => {
  const h = harness({ events: [], finishAt: 600_000 });
  const code = await h.go([]);
  assert.equal(code, 0);
  assert.ok(h.sleeps.includes(DEFAULT_POLL_TIMING.maxMs));
  const traces = h.calls.filter((c) => c.path.endsWith('/trace')).length;
  // At the ceiling for the whole run, plus the few faster polls of the ramp up to it (2, 3, 4.5, 6.75 s).
  const bound = Math.ceil(600_000 / DEFAULT_POLL_TIMING.maxMs) + 5;
  assert.ok(traces <= bound, `${traces} trace polls over 10 minutes (at most ${bound})`);
});

test("--wait: a credit-limited run exits 1 with the editor's words and this surface's way to raise the ceiling", async () => {
  const h = harness({ events: [], finishAt: 0 });
  const sc: Scripted[] = [
    {
      at: 0,
      event: h.ev(orch, 'run.finished', {
        outcome: 'credit_limit_reached',
        error: { code: 'credit_limit_reached', retryable: false },
      }),
    },
  ];
  const h2 = harness({ events: sc, finishAt: 0, outcome: 'credit_limit_reached' });
  assert.equal(await h2.go(['--max-credits', '10']), 1);
  assert.match(
    h2.output(),
    /Agent job "task" stopped at its credit ceiling of 10 credits and is not billed; to let it go further, start it again with --max-credits above 10\./,
  );
});

test('finalWords: a credit-limited run with a partial result says how to print it; without one, nothing about it', () => {
  const facts = {
    status: 'failed',
    outcome: 'credit_limit_reached',
    creditsUsed: 0,
    maxCredits: 50,
    trace: { eventCount: 1, finished: true },
  };
  const withPartial = finalWords(
    facts,
    { prompt: 'p', maxCredits: 50 },
    { status: 'failed', creditsUsed: 0, partial: { items: [1] } },
    'job-1',
  );
  assert.match(withPartial, /\nWhat it gathered before it stopped is kept: devindex agent status job-1 --partial\n$/);
  const without = finalWords(
    facts,
    { prompt: 'p', maxCredits: 50 },
    { status: 'failed', creditsUsed: 0, partial: null } as never,
    'job-1',
  );
  assert.doesNotMatch(without, /--partial/);
});

test('--wait: gives up after maxWaitMs with exit 1, the job keeps running', async () => {
  const h = harness({ events: [], finishAt: Infinity });
  assert.equal(await h.go([], { maxWaitMs: 60_000 }), 1);
  assert.match(h.errors(), /still running/);
  assert.ok(h.clock.t <= 60_000);
});

test('--wait on a job without a trace follows the status only', async () => {
  const h = harness({ events: [], finishAt: 5000, noTrace: true });
  assert.equal(await h.go([]), 0);
  assert.equal(h.calls.filter((c) => c.path.endsWith('/trace')).length, 1);
  assert.match(h.errors(), /no trace/);
});
