// A submission to the agent service: the checks the service and its gateway make, a follow-up or an
// approval's answer in a thread, and the plan of the new run (its events, paid calls and approvals).
import { randomUUID } from 'node:crypto';
import {
  MAGIC,
  SLOW_FACTOR,
  applyCreditLimit,
  applyInternalFailure,
  basePlan,
  chatPlan,
  type PlannedEvent,
} from './engine';
import {
  answerPlan,
  approvalCalls,
  approvalPoint,
  finishEarly,
  inlinePaidCalls,
  insertCalls,
  type PaidCall,
} from './paidCalls';
import { SKIPPED_PROVIDER, gateOf, hasAccepted, termsAsked, type TermsProvider } from './exchange';
import { validateSubmit, type Mode, type SubmitOptions } from './validate';
import type { RunRecords } from './runRecords';
import {
  AGENT_ERRORS,
  DAY,
  MAX_JOBS_PER_TEAM,
  PASSTHROUGH_ERROR,
  THREAD_ERRORS,
  ZDR_PRODUCTION,
  fail,
  inherit,
  isBlocked,
  termsMessage,
  threadError,
  type AgentReply,
  type AgentRequest,
  type Answer,
  type Approval,
  type ExchangeRun,
  type Job,
  type ServiceContext,
  type Thread,
} from './serviceTypes';
import type { PendingApproval, ProductionSubmitBody } from './wireTypes';

export function submitting(c: ServiceContext, records: RunRecords): { submit(r: AgentRequest): AgentReply } {
  const { speed, now, wire, production, jobs, threads, termsAccepted } = c;
  const { answerable, latestRun, view } = records;

  function submit(r: AgentRequest): AgentReply {
    const v = validateSubmit(r.body, wire);
    if (!v.ok) {
      if ('invalidSchema' in v)
        return {
          status: 400,
          body: { success: false, code: 'BAD_REQUEST', error: `Invalid JSON schema: ${v.invalidSchema}` },
        };
      if ('passthrough' in v) return fail(500, PASSTHROUGH_ERROR);
      return fail(400, 'Bad Request', v.issues);
    }
    let options = v.value;
    if (options.prompt.includes(MAGIC.zeroDataRetention))
      return fail(400, production ? ZDR_PRODUCTION : AGENT_ERRORS.zeroDataRetention);
    if (!production) return { status: 200, body: { success: true, id: create(r.team, options).id } };

    // Production: what the back end and the gateway refuse, then the thread.
    if (options.prompt.includes(MAGIC.invalidSchema)) {
      return {
        status: 400,
        body: {
          code: 'BAD_REQUEST',
          error:
            'Invalid schema: the extraction back end cannot use this schema (a sandbox refusal, asked for by INVALID_SCHEMA in the prompt).',
        },
      };
    }
    const blocked = (options.urls ?? []).find(isBlocked);
    if (blocked !== undefined) {
      return {
        status: 403,
        body: {
          success: false,
          code: 'URL_BLOCKED_BY_THREAT_PROTECTION',
          error: `The URL ${blocked} is blocked by threat protection.`,
        },
      };
    }
    const started = (job: Job): AgentReply => ({
      status: 200,
      body: { success: true, id: job.id, threadId: job.threadId, threadTurn: job.turn } satisfies ProductionSubmitBody,
    });
    if (options.threadId === undefined) return started(create(r.team, options));
    if (c.state.threadsDisabled) return threadError(THREAD_ERRORS.disabled);
    const thread = threads.get(options.threadId);
    if (!thread || thread.team !== r.team) return threadError(THREAD_ERRORS.notFound);
    if (now() >= thread.expiresAt) return threadError(THREAD_ERRORS.expired);
    const latest = latestRun(thread);
    if (latest) options = inherit(latest.options, options);
    const answer = options.exchange?.approve ?? options.exchange?.decline;
    if (answer) {
      const pending = latest ? answerable(latest, view(latest)) : undefined;
      if (!latest || !pending) return threadError(THREAD_ERRORS.exchangeNotEnabled);
      if (answer.approvalId !== pending.id) {
        return {
          status: 400,
          body: {
            success: false,
            code: 'invalid_approval',
            error: `No pending approval with approvalId ${answer.approvalId.slice(0, 100)} in this thread.`,
          },
        };
      }
      const approve = options.exchange?.approve;
      const ap = latest.approval!;
      if (approve && ap.pending.kind === 'terms') {
        const missing = ap.terms.filter((p) => !hasAccepted(termsAccepted, r.team, p));
        if (missing.length) {
          return {
            status: 400,
            body: {
              success: false,
              code: 'terms_not_accepted',
              error: `Accept the terms of ${missing.map((p) => `${p.name} (${p.provider}, version ${p.version})`).join(' and ')} with a terms/accept call before approving: the user must agree to them first.`,
            },
          };
        }
      }
      return started(
        answerApproval(
          latest,
          thread,
          options,
          approve ? { callIds: approve.callIds, always: approve.always === true } : undefined,
        ),
      );
    }
    // A turn whose cancel was accepted has ended for its thread, though its run still winds down.
    if (latest && !view(latest).finished && !latest.cancelRequested)
      return threadError(THREAD_ERRORS.busy, { runId: latest.id });
    return started(create(r.team, options, thread));
  }

  /**
   * The caller answered the approval of the thread's latest run (`approve` undefined: declined). The
   * answer is the next turn of the thread: a new run that makes the approved calls (or, for terms, the
   * now accepted providers' calls). A waiting `calls` run ends now (`completed`); the approval's
   * `resolution` names the new run.
   */
  function answerApproval(
    job: Job,
    thread: Thread,
    options: SubmitOptions,
    approve: { callIds?: string[] | undefined; always: boolean } | undefined,
  ): Job {
    const ap = job.approval!;
    const t = now();
    if (ap.waits && ap.state === 'waiting') {
      const at = (t - job.createdAt) * speed;
      job.events = finishEarly(job.events, ap.pauseAt, Math.max(ap.pauseAt, at - 300), job.id);
      if (job.mode === 'chat')
        job.message = `This turn stopped to ask for approval of ${ap.calls.length} paid calls; the next turn of the thread carries on with the answer.\n`;
    }
    ap.state = 'answered';
    let answer: Answer;
    if (ap.pending.kind === 'terms') {
      const made = approve
        ? ap.terms.map((p): PaidCall => ({
            id: `call_${randomUUID().replace(/-/g, '').slice(0, 12)}`,
            provider: p.provider,
            capability: p.capability ?? 'data/read',
            input: { topic: job.options.prompt.slice(0, 60) },
            creditsEstimate: 15,
            credits: 15,
          }))
        : [];
      answer = {
        made,
        declined: [],
        skipped: approve ? [] : ap.terms,
        note: approve
          ? `The terms of ${ap.terms.map((p) => p.name).join(' and ')} were accepted; their data is in this answer.`
          : `The terms of ${ap.terms.map((p) => p.name).join(' and ')} were declined, so the answer was written without them.`,
      };
    } else {
      const ids = approve ? (approve.callIds ?? ap.calls.map((c) => c.id)) : [];
      const made = ap.calls.filter((c) => ids.includes(c.id));
      const declined = ap.calls.filter((c) => !ids.includes(c.id));
      const names = (list: PaidCall[]) => list.map((c) => `\`${c.provider}/${c.capability}\``).join(', ');
      answer = {
        made,
        declined,
        skipped: [],
        note: [
          made.length ? `Approved calls made: ${names(made)}.` : '',
          declined.length ? `The calls were declined and not made: ${names(declined)}.` : '',
        ]
          .filter(Boolean)
          .join(' '),
      };
      if (approve?.always) for (const c of made) thread.always.add(`${c.provider}/${c.capability}`);
    }
    const next = create(job.team, options, thread, answer);
    ap.pending.resolution = {
      approved: approve !== undefined,
      callIds: ap.pending.kind === 'terms' ? [] : answer.made.map((c) => c.id),
      always: ap.pending.kind === 'terms' ? false : approve?.always === true,
      byRunId: next.id,
    };
    return next;
  }

  function create(team: string, options: SubmitOptions, thread?: Thread, answer?: Answer): Job {
    const id = randomUUID();
    // Strictly increasing creation times keep `before` paging exact even under a frozen test clock.
    const createdAt = Math.max(now(), c.state.lastCreatedAt + 1);
    c.state.lastCreatedAt = createdAt;
    const mode: Mode = production ? (options.mode ?? 'extract') : 'extract';
    let t = thread;
    if (!t) {
      t = { id: randomUUID(), team, createdAt, expiresAt: createdAt + DAY, runs: [], always: new Set() };
      if (production) threads.set(t.id, t);
    }
    const settings = options.exchange;
    const x: ExchangeRun = {
      ...(settings?.toolkits ? { toolkits: settings.toolkits } : {}),
      ...(settings?.requireApproval !== undefined ? { requireApproval: settings.requireApproval } : {}),
      ...(settings?.onTermsRequired ? { onTermsRequired: settings.onTermsRequired } : {}),
      paid: [],
      skipped: [],
    };
    let events: PlannedEvent[];
    let data: Record<string, unknown>;
    let message: string | undefined;
    let approval: Approval | undefined;
    if (answer) {
      const plan = answerPlan(id, { mode, made: answer.made, declined: answer.declined, note: answer.note });
      events = plan.events;
      data = plan.data;
      if (mode === 'chat') message = plan.message;
      x.paid = answer.made;
      x.skipped = answer.skipped;
    } else {
      const chat = mode === 'chat' ? chatPlan(id, options) : undefined;
      const base = chat ? { events: chat.events, data: {} } : basePlan(id, options);
      if (chat) message = chat.message;
      data = base.data;
      if (options.prompt.includes(MAGIC.slow)) for (const e of base.events) e.at *= SLOW_FACTOR;
      events = applyCreditLimit(base.events, id, options.maxCredits);
      if (options.prompt.includes(MAGIC.internal)) events = applyInternalFailure(events, id, options.maxCredits);
      const planned = production ? planExchange(id, team, options, t, events, x) : undefined;
      if (planned) {
        events = planned.events;
        approval = planned.approval;
      }
      // A chat turn that ended asking for terms did not write its answer: its message says what it waits for.
      if (chat && approval && !approval.waits) message = termsMessage(approval.terms);
    }
    t.runs.push(id);
    t.expiresAt = createdAt + DAY;
    const used =
      production &&
      (settings !== undefined ||
        approval !== undefined ||
        x.paid.length > 0 ||
        x.skipped.length > 0 ||
        answer !== undefined);
    const job: Job = {
      id,
      team,
      createdAt,
      expiresAt: createdAt + DAY,
      options,
      events,
      data,
      cancelRequested: false,
      threadId: t.id,
      turn: t.runs.length,
      mode,
      ...(message !== undefined ? { message } : {}),
      ...(approval ? { approval } : {}),
      ...(used ? { exchange: x } : {}),
      noRecord: production && options.prompt.includes(MAGIC.noRecord),
    };
    jobs.set(id, job);
    const mine = [...jobs.values()].filter((j) => j.team === team);
    if (mine.length > MAX_JOBS_PER_TEAM) jobs.delete(mine[0]!.id);
    return job;
  }

  /**
   * The paid calls and approvals a new run plans (production wire), at the point where it would start
   * finalizing; a run cut before it (credit ceiling, crash, refusal) neither calls nor asks.
   * - `APPROVAL-TERMS`: the turn ends there waiting for two providers' terms (always asks, even after they were accepted).
   * - `APPROVAL` / `APPROVAL-OLD`, or `PAID-CALLS` with `requireApproval`: the run waits there for two calls
   *   (calls approved with `always` earlier in the thread are made without asking).
   * - `PAID-CALLS`: two calls are made; `acme-data` is skipped unless the team accepted its terms, or
   *   (`onTermsRequired: "ask"`) the turn ends asking for them.
   */
  function planExchange(
    id: string,
    team: string,
    o: SubmitOptions,
    thread: Thread,
    events: PlannedEvent[],
    x: ExchangeRun,
  ): { events: PlannedEvent[]; approval?: Approval } | undefined {
    const point = approvalPoint(events);
    if (point === undefined || o.prompt.includes(MAGIC.refuse)) return undefined;
    const approvalId = randomUUID();
    const reasonTerms = (ps: readonly TermsProvider[]) =>
      `The answer would use ${ps.map((p) => p.name).join(' and ')}, whose data terms your team has not accepted.`;
    if (o.prompt.includes(MAGIC.approvalTerms)) {
      const terms = termsAsked(o.prompt);
      x.onTermsRequired = 'ask';
      x.skipped = terms;
      return {
        events: finishEarly(events, point, point, id),
        approval: {
          pending: {
            id: approvalId,
            reason: reasonTerms(terms),
            kind: 'terms',
            calls: [],
            terms: terms.map(gateOf),
            resolution: null,
          },
          pauseAt: point,
          waits: false,
          calls: [],
          terms,
          state: 'waiting',
        },
      };
    }
    const paidCalls = o.prompt.includes(MAGIC.paidCalls);
    const asks = o.prompt.includes(MAGIC.approval) || (paidCalls && x.requireApproval === true);
    if (!asks && !paidCalls) return undefined;
    const candidates = (asks && !paidCalls ? approvalCalls(o.prompt) : inlinePaidCalls()).slice(
      0,
      o.exchange?.maxCalls ?? 30,
    );
    const remembered = asks ? candidates.filter((c) => thread.always.has(`${c.provider}/${c.capability}`)) : candidates;
    const held = candidates.filter((c) => !remembered.includes(c));
    x.paid = remembered;
    x.toolkits ??= [...new Set(candidates.map((c) => c.provider))];
    let planned = insertCalls(events, point, id, remembered);
    const after = point + remembered.length * 600;
    if (held.length) {
      const old = o.prompt.includes(MAGIC.approvalOld);
      const total = held.reduce((s, c) => s + (c.creditsEstimate ?? 0), 0);
      const unknown = held.filter((c) => c.creditsEstimate === null).length;
      const pending: PendingApproval = {
        id: approvalId,
        reason: `${held.length === 1 ? 'A paid call needs' : `${held.length} paid calls need`} your approval (about ${total} credits estimated${unknown ? `; ${unknown === 1 ? 'one estimate is' : `${unknown} estimates are`} unknown` : ''}).`,
        ...(old ? {} : { kind: 'calls' as const }),
        calls: held.map(({ credits: _credits, ...c }) => c),
        resolution: null,
      };
      return {
        events: planned,
        approval: { pending, pauseAt: after, waits: true, calls: held, terms: [], state: 'waiting' },
      };
    }
    if (!paidCalls || hasAccepted(termsAccepted, team, SKIPPED_PROVIDER)) return { events: planned };
    x.skipped = [SKIPPED_PROVIDER];
    if (x.onTermsRequired !== 'ask') return { events: planned };
    planned = finishEarly(planned, after, after, id);
    return {
      events: planned,
      approval: {
        pending: {
          id: approvalId,
          reason: reasonTerms([SKIPPED_PROVIDER]),
          kind: 'terms',
          calls: [],
          terms: [gateOf(SKIPPED_PROVIDER)],
          resolution: null,
        },
        pauseAt: after,
        waits: false,
        calls: [],
        terms: [SKIPPED_PROVIDER],
        state: 'waiting',
      },
    };
  }

  return { submit };
}
