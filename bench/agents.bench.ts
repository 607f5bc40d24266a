// Requests over one agent job's life: the job store's schedule against a fixed 2 s status poll (what
// the official SDK does), with the delay between the end of the run and its detection for both, on a
// fake clock. Two kinds of run:
//   - the sandbox engine's standard run at speed 1 (about 25 s, an event every second or so), served
//     in-process by createAgentService with the fake clock as its `now`;
//   - synthetic runs shaped like real ones (minutes long, long tool calls with nothing to report,
//     a finalizing phase before the end), seeded so the figures repeat.
// Also: the requests made while no job runs (must be 0).
import { JobStore } from '../src/agents/jobStore';
import type { AgentBackend } from '../src/agents/agentBackend';
import { AgentJobSchema, ListResponseSchema, SnapshotResponseSchema, TraceResponseSchema } from '../src/api/agentSchemas';
import { createAgentService } from '../sandbox/agent/service';
import { ev, FakeBackend, ORCH, SYSTEM } from '../test/unit/agents/fakeBackend';
import { ManualClock } from '../test/unit/agents/manualClock';

const FIXED_MS = 2000;

class MemoryStorage {
  private v: unknown;
  get<T>(): T | undefined { return this.v as T | undefined; }
  async update(_k: string, value: unknown): Promise<void> { this.v = value; }
}

interface Outcome { requests: number; latencyMs: number; durationMs: number }

/** The fixed poll: one status request every 2 s from the submit; detected at the first poll at or after the end. */
function fixedPoll(endMs: number, intervalMs = FIXED_MS): Outcome {
  const polls = Math.max(1, Math.ceil(endMs / intervalMs));
  return { requests: polls, latencyMs: polls * intervalMs - endMs, durationMs: endMs };
}

/** Runs one job through the store until it has ended and its schedule stopped. */
async function storeRun(clock: ManualClock, backend: AgentBackend, count: () => number, endAt: () => number | undefined): Promise<Outcome> {
  const store = new JobStore({ backend: () => backend, storage: new MemoryStorage(), timers: clock });
  const t0 = clock.now();
  let detectedAt: number | undefined;
  store.onDidEndJob(() => { detectedAt = clock.now(); });
  const before = count();
  const job = await store.start({ prompt: 'bench run', maxCredits: 5000 });
  for (let i = 0; i < 10_000 && store.isPolling(job.id); i++) await clock.advance(250);
  const end = endAt();
  store.dispose();
  if (detectedAt === undefined || end === undefined) throw new Error('the run was not seen to end');
  // The submit is the same single request in both schemes; only polling is compared.
  return { requests: count() - before - 1, latencyMs: detectedAt - end, durationMs: end - t0 };
}

/** The sandbox engine in-process, answering like the HTTP service would, parsed with the client's schemas. */
function engineBackend(clock: ManualClock): { backend: AgentBackend; count: () => number; endAt: () => number | undefined } {
  const service = createAgentService({ speed: 1, now: () => clock.now() });
  let requests = 0;
  let endAt: number | undefined;
  const call = (method: string, path: string, body?: unknown): unknown => {
    requests++;
    const r = service.handle({ method, path, query: new URLSearchParams(), body, team: 'bench' })!;
    if (r.status >= 400) {
      const error = (r.body as { error?: string } | undefined)?.error;
      throw Object.assign(new Error(error ?? `HTTP ${r.status}`), { kind: 'http', status: r.status, error, retryable: r.status >= 500 || r.status === 429 });
    }
    return r.body;
  };
  const backend: AgentBackend = {
    submit: async (p) => ({ id: (call('POST', '/v2/agent', p) as { id: string }).id }),
    status: async (id) => AgentJobSchema.parse(call('GET', `/v2/agent/${id}`)),
    cancel: async (id) => call('DELETE', `/v2/agent/${id}`),
    trace: async (id) => {
      const t = TraceResponseSchema.parse(call('GET', `/v2/agent/${id}/trace`));
      const fin = t.events.find((e) => e.type === 'run.finished');
      if (fin?.occurredAt) endAt = Date.parse(fin.occurredAt);
      return t;
    },
    snapshot: async (id, s) => SnapshotResponseSchema.parse(call('GET', `/v2/agent/${id}/snapshots/${s}`)),
    list: async () => ListResponseSchema.parse(call('GET', '/v2/agent')),
  };
  return { backend, count: () => requests, endAt: () => endAt };
}

/** A seeded generator (mulberry32) so every run of the bench sees the same synthetic runs. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A run shaped like a real one: a planning burst, then steps that are each a tool call of 5 to 60 s
 * (start and finish events, sometimes a progress message), a finalizing phase of 4 to 8 s with a few
 * events, run.finished, and a late event.
 */
function syntheticRun(backend: FakeBackend, id: string, seed: number): number {
  const r = rng(seed);
  const t0 = backend.now();
  const events: Array<{ at: number; event: ReturnType<typeof ev> }> = [];
  let seq = 0;
  let t = 300;
  const add = (type: string, extra: Record<string, unknown> = {}): void => { events.push({ at: t, event: ev(type, ORCH, t0 + t, ++seq, extra) }); };
  add('agent.started');
  t += 800; add('progress.reported', { phase: 'planning', message: 'Planning' });
  t += 1500; add('reasoning.summary', { text: 'plan' });
  const steps = 4 + Math.floor(r() * 8);
  for (let i = 0; i < steps; i++) {
    t += 500 + r() * 2000; add('tool_call.started', { toolName: 'navigate' });
    t += 5000 + r() * 55_000; add('tool_call.finished', { toolName: 'navigate' });
    if (r() < 0.5) { t += 300; add('progress.reported', { phase: 'working', message: `step ${i}` }); }
  }
  t += 1000; add('progress.reported', { phase: 'finalizing', message: 'Writing up' });
  const fin = 4000 + r() * 4000;
  const finStart = t;
  while (t < finStart + fin - 1000) { t += 700 + r() * 1300; add('artifact.updated', { artifact: { kind: 'json', artifactId: 'result', change: 'append' } }); }
  t = finStart + fin;
  const end = Math.round(t);
  events.push({ at: end, event: ev('run.finished', SYSTEM, t0 + end, 1, { outcome: 'succeeded', error: null }) });
  events.push({ at: end + 800, event: ev('agent.finished', ORCH, t0 + end + 800, ++seq, { outcome: 'succeeded' }) });
  backend.script({ id, events, endAt: end, endStatus: 'completed', credits: 300 });
  return t0 + end;
}

function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

function report(name: string, mine: Outcome[], fixedPhases: number): void {
  const requests = mean(mine.map((o) => o.requests));
  const latency = mean(mine.map((o) => o.latencyMs));
  const maxLatency = Math.max(...mine.map((o) => o.latencyMs));
  const duration = mean(mine.map((o) => o.durationMs));
  // The fixed poll's phase relative to the end varies from run to run: average over evenly spread phases.
  const fixed = mine.flatMap((o) => Array.from({ length: fixedPhases }, (_, k) => fixedPoll(o.durationMs + (k * FIXED_MS) / fixedPhases)));
  const fixedRequests = mean(fixed.map((o) => o.requests));
  const fixedLatency = mean(fixed.map((o) => o.latencyMs));
  // A fixed poll as slow as this schedule is at noticing the end: interval = 2 x mean latency.
  const equalInterval = Math.max(FIXED_MS, 2 * latency);
  const equalRequests = mean(mine.map((o) => fixedPoll(o.durationMs, equalInterval).requests));
  console.log(`${name}: ${mine.length} run(s), mean length ${(duration / 1000).toFixed(1)} s`);
  console.log(`  schedule     ${requests.toFixed(1)} requests, end detected after ${(latency / 1000).toFixed(2)} s on average (max ${(maxLatency / 1000).toFixed(2)} s)`);
  console.log(`  fixed 2 s    ${fixedRequests.toFixed(1)} requests, end detected after ${(fixedLatency / 1000).toFixed(2)} s on average (max ${(FIXED_MS / 1000).toFixed(2)} s)`);
  console.log(`  ratio        ${(requests / fixedRequests).toFixed(2)}x the fixed 2 s poll (target <= 0.5x)`);
  if (latency > fixedLatency) {
    console.log(`  at equal mean latency: a fixed ${(equalInterval / 1000).toFixed(1)} s poll makes ${equalRequests.toFixed(1)} requests -> ratio ${(requests / equalRequests).toFixed(2)}x`);
  }
}

async function main(): Promise<void> {
  // Nothing running: no timer, no request.
  {
    const clock = new ManualClock();
    const backend = new FakeBackend(() => clock.now());
    const store = new JobStore({ backend: () => backend, storage: new MemoryStorage(), timers: clock });
    await clock.advance(60 * 60_000);
    console.log(`idle: ${backend.calls.length} requests in one hour with no job running (timers armed: ${clock.armed})`);
    store.dispose();
  }

  {
    const runs: Outcome[] = [];
    for (let i = 0; i < 5; i++) {
      const clock = new ManualClock(1_700_000_000_000 + i * 777);
      const e = engineBackend(clock);
      runs.push(await storeRun(clock, e.backend, e.count, e.endAt));
    }
    report('sandbox engine, standard run, speed 1', runs, 8);
  }

  {
    const runs: Outcome[] = [];
    for (let seed = 1; seed <= 40; seed++) {
      const clock = new ManualClock(1_700_000_000_000 + seed * 1000);
      const backend = new FakeBackend(() => clock.now());
      let end: number | undefined;
      const wrapped: AgentBackend = {
        ...backend,
        submit: async (p) => {
          const r = await backend.submit(p);
          end = syntheticRun(backend, r.id, seed);
          return r;
        },
        status: (id) => backend.status(id), cancel: (id) => backend.cancel(id), trace: (id) => backend.trace(id),
        snapshot: (id, s) => backend.snapshot(id, s), list: () => backend.list(),
      };
      runs.push(await storeRun(clock, wrapped, () => backend.calls.length, () => end));
    }
    report('synthetic runs shaped like real ones', runs, 8);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
