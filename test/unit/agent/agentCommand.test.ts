// `devindex agent start --wait` polling schedule and exit codes, against a scripted fake client and
// a fake clock: no network, no real sleeping.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DevIndexClient, RequestSpec } from '../../../src/api/client';
import { ApiError } from '../../../src/api/errors';
import { runAgentCommand } from '../../../src/cli/agentCommand';

const ID = '123e4567-e89b-42d3-a456-426614174000';
const orch = { id: 'o', role: 'orchestrator', name: 'orchestrator' };
const sub = { id: 's', role: 'subagent', name: 'helper', parentId: 'o' };

interface Scripted { at: number; event: Record<string, unknown> }
interface Scenario { events: Scripted[]; finishAt: number; outcome?: string; noTrace?: boolean }

function harness(sc: Scenario) {
  const clock = { t: 0 };
  const sleeps: number[] = [];
  const calls: Array<{ method: string; path: string; t: number }> = [];
  let seq = 0;
  const fake = {
    settings: { baseUrl: 'https://api.example.com' },
    async request<T>(spec: RequestSpec<T>): Promise<T> {
      calls.push({ method: spec.method, path: spec.path, t: clock.t });
      if (spec.method === 'POST') return spec.schema.parse({ success: true, id: ID });
      if (spec.path.endsWith('/trace')) {
        if (sc.noTrace) throw new ApiError({ kind: 'http', status: 400, error: 'Trace is only available for FORGE-2 extracts', message: 'x' });
        const visible = sc.events.filter((e) => e.at <= clock.t).map((e) => e.event);
        return spec.schema.parse({ success: true, id: ID, events: visible });
      }
      const done = clock.t >= sc.finishAt;
      const failed = done && sc.outcome && sc.outcome !== 'succeeded';
      return spec.schema.parse({
        success: true, id: ID, status: done ? (failed ? 'failed' : 'completed') : 'processing',
        ...(done && !failed ? { data: { items: [1, 2] }, creditsUsed: 42 } : {}),
        ...(failed ? { creditsUsed: 0, error: `run ended: ${sc.outcome}` } : {}),
      });
    },
    async close() {},
  } as unknown as DevIndexClient;
  let out = '';
  let err = '';
  const io = { out: (s: string) => { out += s; }, err: (s: string) => { err += s; }, env: { DEVINDEX_API_KEY: 'k' } };
  const go = (args: string[], wait: Record<string, number> = {}) => runAgentCommand(['start', 'task', '--wait', ...args], io, {
    createClient: () => fake,
    now: () => clock.t,
    sleep: async (ms) => { sleeps.push(ms); clock.t += ms; },
    wait,
  });
  const ev = (agent: object, type: string, extra: object = {}) => ({ eventId: `e${++seq}`, producerSequence: seq, agent, type, occurredAt: new Date(Date.UTC(2025, 0, 1) + seq * 1000).toISOString(), ...extra });
  return { clock, sleeps, calls, go, ev, output: () => out, errors: () => err };
}

test('--wait: fast at first, backs off while quiet, fast again on news, grace after run.finished, then stops', async () => {
  const h = harness({ events: [], finishAt: 31_000 });
  const sc: Scripted[] = [
    { at: 0, event: h.ev(orch, 'run.started') },
    { at: 20_000, event: h.ev(sub, 'progress.reported', { phase: 'working', message: 'busy' }) },
    { at: 31_000, event: h.ev(orch, 'run.finished', { outcome: 'succeeded', error: null }) },
    { at: 32_000, event: h.ev(sub, 'agent.finished', { outcome: 'cancelled', error: { code: 'parent_finished', retryable: false } }) },
  ];
  const h2 = harness({ events: sc, finishAt: 31_000 });
  const code = await h2.go([]);
  assert.equal(code, 0, h2.errors());
  const s = h2.sleeps;
  assert.equal(s[0], 1000);
  const quiet = s.slice(0, s.findIndex((_, i) => i > 0 && s[i]! < s[i - 1]!));
  for (let i = 1; i < quiet.length; i++) assert.ok(quiet[i]! > quiet[i - 1]!, `backoff grows: ${s.join(', ')}`);
  assert.ok(s.every((x) => x <= 15_000));
  const newsAt = h2.calls.find((c) => c.path.endsWith('/trace') && c.t >= 20_000)!.t;
  const idx = h2.calls.filter((c) => c.path.endsWith('/trace') && c.t <= newsAt).length - 1;
  assert.equal(s[idx], 1000, 'back to fast after a new event');
  const last = h2.calls.at(-1)!.t;
  const finishSeen = h2.calls.find((c) => c.path.endsWith('/trace') && c.t >= 31_000)!.t;
  assert.ok(last - finishSeen >= 2000 && last - finishSeen <= 3000, `grace of about 2 s after run.finished (${last - finishSeen})`);
  assert.match(h2.output(), /parent_finished/, 'a late event within the grace period is printed');
  assert.match(h2.output(), /Completed \(42 credits\)/);
  assert.ok(h2.calls.length < 30, `bounded: ${h2.calls.length} requests`);
  assert.equal(h2.calls.filter((c) => c.method === 'POST').length, 1);
});

test('--wait: a long quiet run is polled no faster than the cap allows', async () => {
  const h = harness({ events: [], finishAt: 600_000 });
  const code = await h.go([]);
  assert.equal(code, 0);
  assert.ok(h.sleeps.includes(15_000));
  const traces = h.calls.filter((c) => c.path.endsWith('/trace')).length;
  assert.ok(traces < 60, `${traces} trace polls over 10 minutes`);
});

test('--wait: a failed run exits 1 and says why', async () => {
  const h = harness({ events: [], finishAt: 0 });
  const sc: Scripted[] = [{ at: 0, event: h.ev(orch, 'run.finished', { outcome: 'credit_limit_reached', error: { code: 'credit_limit_reached', retryable: false } }) }];
  const h2 = harness({ events: sc, finishAt: 0, outcome: 'credit_limit_reached' });
  assert.equal(await h2.go(['--max-credits', '10']), 1);
  assert.match(h2.output(), /credit ceiling \(maxCredits 10\).*--max-credits.*not billed/s);
});

test('--wait: gives up after maxWaitMs with exit 1, the job keeps running', async () => {
  const h = harness({ events: [], finishAt: Infinity });
  assert.equal(await h.go([], { maxWaitMs: 60_000 }), 1);
  assert.match(h.errors(), /still running/);
  assert.ok(h.clock.t <= 60_000 + 15_000);
});

test('--wait on a job without a trace follows the status only', async () => {
  const h = harness({ events: [], finishAt: 5000, noTrace: true });
  assert.equal(await h.go([]), 0);
  assert.equal(h.calls.filter((c) => c.path.endsWith('/trace')).length, 1);
  assert.match(h.errors(), /no trace/);
});
