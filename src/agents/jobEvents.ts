// The agent jobs' functional core: what each event does to the jobs a window knows, as a pure function of the jobs
// before and the event, plus the effects the shell (jobStore.ts) carries out. Every job is built here (newJob), and
// every merge of two views of a job happens here (mergeJobs, jobChanges). Editor-free; no I/O, no clock.
import { isTerminalStatus } from '../api/agent/agentConstants';
import type { AgentListEntry } from '../api/agent/agentSchemas';
import type { AgentSubmitParams } from '../api/agent/submitSchema';
import type { AgentSubmitResult } from './agentBackend';
import { type AgentJob, isActive } from './jobModel';

export type JobsView = ReadonlyMap<string, AgentJob>;

export type JobEvent =
  /** This window started a run (built by submittedJob); its record was written before it is shown (start() waits for it). */
  | { type: 'submitted'; job: AgentJob }
  /** An approval was answered and the service started the thread's next turn (`said`: the answer, as its prompt). */
  | { type: 'turn'; said: string; threadId: string; res: AgentSubmitResult; now: number }
  /** A run this window did not start is followed (the turn a busy thread says is still running). */
  | { type: 'tracked'; id: string; prompt?: string; threadId?: string; now: number }
  /** The trace or the status record was read: this window's view of the job, merged with the stored one (undefined: removed elsewhere). */
  | { type: 'observed'; job: AgentJob; merged: AgentJob | undefined }
  /** One entry of the service's job list; `removed`: this editor removed it (a tombstone). */
  | { type: 'listed'; entry: AgentListEntry; removed: boolean; now: number }
  /** What storage holds now (other windows' writes): their jobs, and the ids they removed. */
  | {
      type: 'synced';
      stored: readonly AgentJob[];
      removed: ReadonlySet<string>;
      starting: ReadonlySet<string>;
      follow: boolean;
    }
  /** The user answered a waiting run's approval: its record says so at once (and which run took over), before a poll. */
  | {
      type: 'answered';
      id: string;
      decision: 'approve' | 'decline';
      callIds?: string[];
      always?: boolean;
      byRunId: string;
    }
  /** A change this window shows before it is stored (a cancel asked for, or taken back). */
  | { type: 'marked'; id: string; patch: Partial<AgentJob> }
  /** The user removed a job in this window. */
  | { type: 'removed'; id: string };

export type JobEffect =
  | { kind: 'persist'; id: string }
  | { kind: 'follow'; id: string }
  | { kind: 'pollSoon'; id: string }
  | { kind: 'forget'; id: string }
  | { kind: 'tombstone'; id: string }
  | { kind: 'changed'; id: string }
  /** Jobs were added or removed (the tree rebuilds). */
  | { kind: 'structural' };

export interface Reduced {
  jobs: JobsView;
  effects: JobEffect[];
}

/** The next jobs and the effects of one event; `jobs` is never changed (a job that changes is a new object). */
export function reduceJobs(jobs: JobsView, e: JobEvent): Reduced {
  switch (e.type) {
    case 'submitted': {
      const effects: JobEffect[] = [{ kind: 'structural' }, { kind: 'follow', id: e.job.id }];
      return { jobs: withJob(jobs, e.job), effects };
    }
    case 'turn':
      return added(
        jobs,
        newJob({
          id: e.res.id,
          prompt: e.said,
          now: e.now,
          origin: 'user',
          ...threadOf({ threadId: e.threadId }, e.res),
        }),
        true,
      );
    case 'tracked': {
      const existing = jobs.get(e.id);
      if (existing) return { jobs, effects: isActive(existing) ? [{ kind: 'pollSoon', id: e.id }] : [] };
      return added(
        jobs,
        newJob({
          id: e.id,
          prompt: e.prompt ?? '',
          now: e.now,
          origin: 'service',
          ...(e.threadId ? { threadId: e.threadId } : {}),
        }),
        true,
      );
    }
    case 'observed': {
      if (!jobs.has(e.job.id)) return { jobs, effects: [] };
      if (!e.merged) return dropped(jobs, [e.job.id]);
      return { jobs: withJob(jobs, e.merged), effects: [] };
    }
    case 'marked': {
      const job = jobs.get(e.id);
      if (!job) return { jobs, effects: [] };
      return { jobs: withJob(jobs, { ...job, ...e.patch }), effects: [{ kind: 'changed', id: e.id }] };
    }
    case 'answered':
      return answered(jobs, e);
    case 'listed':
      return listed(jobs, e.entry, e.removed, e.now);
    case 'synced':
      return synced(jobs, e);
    case 'removed': {
      if (!jobs.has(e.id)) return { jobs, effects: [] };
      const next = new Map(jobs);
      next.delete(e.id);
      return {
        jobs: next,
        effects: [{ kind: 'forget', id: e.id }, { kind: 'tombstone', id: e.id }, { kind: 'structural' }],
      };
    }
  }
}

function added(jobs: JobsView, job: AgentJob, follow: boolean): Reduced {
  const effects: JobEffect[] = [{ kind: 'persist', id: job.id }, { kind: 'structural' }];
  if (follow && isActive(job)) effects.push({ kind: 'follow', id: job.id });
  return { jobs: withJob(jobs, job), effects };
}

function dropped(jobs: JobsView, ids: readonly string[]): Reduced {
  const next = new Map(jobs);
  const effects: JobEffect[] = [];
  for (const id of ids) if (next.delete(id)) effects.push({ kind: 'forget', id });
  if (effects.length) effects.push({ kind: 'structural' });
  return { jobs: effects.length ? next : jobs, effects };
}

function withJob(jobs: JobsView, job: AgentJob): JobsView {
  const next = new Map(jobs);
  next.set(job.id, job);
  return next;
}

function answered(jobs: JobsView, e: Extract<JobEvent, { type: 'answered' }>): Reduced {
  const job = jobs.get(e.id);
  const p = job?.pendingApproval;
  if (!job || !p) return { jobs, effects: [] };
  const approved = e.decision === 'approve';
  const all = p.kind === 'calls' ? p.calls.flatMap((c) => (c.id ? [c.id] : [])) : [];
  const resolution = {
    approved,
    callIds: approved && p.kind === 'calls' ? (e.callIds ?? all) : [],
    always: e.always === true,
    byRunId: e.byRunId,
  };
  return {
    jobs: withJob(jobs, { ...job, pendingApproval: { ...p, resolution } }),
    effects: [
      { kind: 'persist', id: e.id },
      { kind: 'changed', id: e.id },
    ],
  };
}

/** A listed job is added (a run that ended before this editor saw it is history, not news), or a known one's status moves on. */
function listed(jobs: JobsView, item: AgentListEntry, removed: boolean, now: number): Reduced {
  if (typeof item?.id !== 'string' || typeof item.status !== 'string' || removed) return { jobs, effects: [] };
  const existing = jobs.get(item.id);
  if (existing) {
    if (existing.status === item.status || existing.notFound || isTerminalStatus(existing.status))
      return { jobs, effects: [] };
    return {
      jobs: withJob(jobs, { ...existing, status: item.status }),
      effects: [
        { kind: 'persist', id: item.id },
        { kind: 'changed', id: item.id },
        { kind: 'pollSoon', id: item.id },
      ],
    };
  }
  const o = item.options;
  return added(
    jobs,
    newJob({
      id: item.id,
      prompt: typeof o?.prompt === 'string' ? o.prompt : '',
      now: parseTime(item.createdAt) ?? now,
      origin: 'service',
      status: item.status,
      model: o?.model ?? undefined,
      effort: o?.effort ?? undefined,
      urls: o?.urls ?? undefined,
      ...(typeof o?.threadId === 'string' ? { threadId: o.threadId } : {}),
      ...(typeof o?.threadTurn === 'number' ? { threadTurn: o.threadTurn } : {}),
      ...(typeof o?.mode === 'string' ? { mode: o.mode } : {}),
      notified: isTerminalStatus(item.status),
    }),
    true,
  );
}

/** Other windows' writes: jobs they started appear, jobs they removed go, what they learned is merged in. */
function synced(jobs: JobsView, e: Extract<JobEvent, { type: 'synced' }>): Reduced {
  const gone = [...e.removed].filter((id) => jobs.has(id));
  let { jobs: next, effects } = dropped(jobs, gone);
  let structural = effects.length > 0;
  effects = effects.filter((x) => x.kind !== 'structural');
  for (const stored of e.stored) {
    if (e.starting.has(stored.id)) continue;
    const mine = next.get(stored.id);
    if (!mine) {
      next = withJob(next, stored);
      if (e.follow && isActive(stored)) effects.push({ kind: 'follow', id: stored.id });
      structural = true;
      continue;
    }
    const merged = mergeJobs(mine, stored);
    if (JSON.stringify(merged) === JSON.stringify(mine)) continue;
    next = withJob(next, merged);
    effects.push({ kind: 'changed', id: stored.id });
  }
  if (structural) effects.push({ kind: 'structural' });
  return { jobs: next, effects };
}

/** The job a submission started. */
export function submittedJob(request: AgentSubmitParams, res: AgentSubmitResult, now: number): AgentJob {
  return newJob({
    id: res.id,
    prompt: request.prompt,
    now,
    origin: 'user',
    model: request.model,
    effort: request.effort,
    urls: request.urls,
    maxCredits: request.maxCredits,
    ...threadOf(request, res),
  });
}

/** The one place a job is built: a new run is processing, its trace not read yet. */
function newJob(
  f: Partial<AgentJob> & { id: string; prompt: string; now: number; origin: AgentJob['origin'] },
): AgentJob {
  const { now, ...fields } = f;
  return { status: 'processing', ...fields, createdAt: now, trace: { eventCount: 0, finished: false } };
}

/** The thread a start opened or continued, and the mode asked for. */
function threadOf(request: Pick<AgentSubmitParams, 'threadId' | 'mode'>, res: AgentSubmitResult): Partial<AgentJob> {
  const threadId = res.response?.threadId ?? request.threadId;
  const turn = res.response?.threadTurn;
  return {
    ...(threadId ? { threadId } : {}),
    ...(typeof turn === 'number' ? { threadTurn: turn } : {}),
    ...(request.mode ? { mode: request.mode } : {}),
  };
}

function parseTime(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string') {
    const t = Date.parse(v);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

/**
 * What two windows know about one job, combined: every fact only ever grows (more events read, the
 * end seen, the result kept, the notification shown), so the merge keeps the furthest of each.
 */
export function mergeJobs(stored: AgentJob, mine: AgentJob): AgentJob {
  const ended = (j: AgentJob): boolean => isTerminalStatus(j.status);
  // The second view wins for plain fields (a cleared polling error stays cleared); the end of a run,
  // once either view has it, is never undone.
  const base = ended(stored) && !ended(mine) ? { ...stored, ...mine, ...pickEnd(stored) } : { ...stored, ...mine };
  return {
    ...base,
    notified: stored.notified === true || mine.notified === true || undefined,
    finalRead: stored.finalRead === true || mine.finalRead === true || undefined,
    hasPartial: stored.hasPartial === true || mine.hasPartial === true || undefined,
    expired: stored.expired === true || mine.expired === true || undefined,
    kept:
      stored.kept || mine.kept
        ? {
            result: stored.kept?.result === true || mine.kept?.result === true,
            partial: stored.kept?.partial === true || mine.kept?.partial === true,
            ...(stored.kept?.answer === true || mine.kept?.answer === true ? { answer: true } : {}),
          }
        : undefined,
    creditsUsed: mine.creditsUsed ?? stored.creditsUsed,
    // A pending approval is the second view's: its absence there means the run went on (answered, or
    // read again without one), and a spread would bring the first view's back.
    pendingApproval: mine.pendingApproval,
    trace: {
      ...stored.trace,
      ...mine.trace,
      eventCount: Math.max(stored.trace.eventCount, mine.trace.eventCount),
      finished: stored.trace.finished || mine.trace.finished,
      unavailable: stored.trace.unavailable === true || mine.trace.unavailable === true || undefined,
    },
  };
}

/** What one read changed of a job (before to after): the fields that differ, as after has them. */
export function jobChanges(before: AgentJob, after: AgentJob): Partial<AgentJob> {
  const a = before as unknown as Record<string, unknown>;
  const b = after as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) out[k] = b[k];
  return out as Partial<AgentJob>;
}

function pickEnd(j: AgentJob): Partial<AgentJob> {
  const end: Partial<AgentJob> = { status: j.status };
  for (const k of ['outcome', 'errorCode', 'error', 'creditsUsed', 'expiresAt'] as const)
    if (j[k] !== undefined) (end as Record<string, unknown>)[k] = j[k];
  return end;
}
