// `devindex agent …`: start, follow, cancel and inspect agent jobs from a terminal.
import { AgentClient } from '../api/agent/agentClient';
import { reasonOf } from '../api/agent/agentReasons';
import { type AgentSubmitParams } from '../api/agent/submitSchema';
import { isFoldedEvent } from '../agentRun/agentTrace';
import { DEFAULT_POLL_TIMING, type PollTiming } from '../agentRun/pollSchedule';
import { followRun } from '../agentRun/runEngine';
import { termsAcceptCalls } from '../agentRun/approval';
import { lastThread, rememberThread } from './cliState';
import type { ClientOptions, DevIndexClient } from '../api/client';
import { ApiError } from '../api/errors';
import { AbortedError, systemClock } from '../api/retry';
import {
  createClientFromEnv,
  pollTimingFromEnv,
  jsonForTerminal,
  printError,
  readApiKey,
  retryPrinter,
  splitList,
} from './common';
import { API_KEY_ENV } from '../words/failureWords';
import {
  EXIT_FAILURE,
  EXIT_INTERRUPTED,
  EXIT_OK,
  EXIT_USAGE,
  sanitizeForTerminal,
  UsageError,
  type CliIo,
} from './cliBase';
import { approvalLines, eventLine, finalWords, formatJob, formatThread, formatTrace, learnAgents } from './agentFormat';
import { AGENT_USAGE, parseAgentArgs, type Parsed, submitParamsFrom } from './agentArgs';
import { termsName } from '../agentRun/runOutcome';

/** `--wait` gives up following after this long (the run keeps going on the service). */
const DEFAULT_MAX_WAIT_MS = 60 * 60 * 1000;

/** What `devindex agent` needs from outside, replaceable in tests (a fake client, a fake clock). */
interface AgentCliDeps {
  createClient?: (io: CliIo, baseUrlFlag: string | undefined, extra: Partial<ClientOptions>) => DevIndexClient;
  clientOptions?: Partial<ClientOptions>;
  /** The run engine's poll timing (the editor's tree uses the same default). */
  timing?: Partial<PollTiming>;
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const clean = (s: string) => sanitizeForTerminal(s);

export async function runAgentCommand(argv: string[], io: CliIo, deps: AgentCliDeps = {}): Promise<number> {
  const cmd = 'devindex agent';
  let parsed: Parsed;
  let submit: AgentSubmitParams | undefined;
  try {
    const p = parseAgentArgs(argv);
    if (p === 'help') {
      io.out(AGENT_USAGE);
      return EXIT_OK;
    }
    parsed = p;
    if (parsed.sub === 'start') submit = submitParamsFrom(parsed);
  } catch (e) {
    return printError(io, e, cmd);
  }
  if (!readApiKey(io.env)) {
    io.err(`${cmd}: agent jobs need an API key; set ${API_KEY_ENV}\n`);
    return EXIT_USAGE;
  }
  let client: DevIndexClient;
  try {
    client = (deps.createClient ?? createClientFromEnv)(io, parsed.baseUrl, deps.clientOptions ?? {});
  } catch (e) {
    return printError(io, e, cmd);
  }
  const agent = new AgentClient(client, { extraModels: splitList(io.env.DEVINDEX_AGENT_MODELS) ?? [] });
  const call = { onRetry: retryPrinter(io), signal: io.signal };
  const out = (v: unknown) => io.out(`${jsonForTerminal(v, 2)}\n`);
  try {
    switch (parsed.sub) {
      case 'start': {
        const baseUrl = client.settings.baseUrl;
        if (parsed.values.continue) {
          const last = lastThread(io.env, baseUrl);
          if (!last)
            throw new UsageError(
              `--continue: no thread started by this CLI on ${baseUrl} is remembered; ` +
                `pass --thread ID (ids come from devindex agent status)`,
            );
          submit!.threadId = last.threadId;
        }
        const approvalId = (parsed.values.approve ?? parsed.values.decline) as string | undefined;
        const approving = parsed.values.approve !== undefined;
        if (approvalId !== undefined && approving) {
          const refused = await acceptTermsIfAsked(
            agent,
            submit!.threadId!,
            approvalId,
            parsed.values['accept-terms'] === true,
            io,
            call,
          );
          if (refused !== undefined) return refused;
        }
        const callIds = splitList(typeof parsed.values.calls === 'string' ? [parsed.values.calls] : undefined);
        const r =
          approvalId !== undefined
            ? await agent.answerApproval(
                {
                  threadId: submit!.threadId!,
                  approvalId,
                  decision: approving ? 'approve' : 'decline',
                  ...(callIds ? { callIds } : {}),
                  ...(parsed.values.always === true ? { always: true } : {}),
                  ...(submit!.prompt ? { prompt: submit!.prompt } : {}),
                },
                call,
              )
            : await agent.submit(submit!, call);
        const threadId = r.response.threadId;
        if (threadId) {
          const why = rememberThread(io.env, baseUrl, { threadId, jobId: r.id, at: new Date().toISOString() });
          if (why && !parsed.json) io.err(`devindex agent: could not remember the thread for --continue (${why})\n`);
        }
        const turn = threadId ? ` (thread ${threadId}, turn ${r.response.threadTurn ?? '?'})` : '';
        const said =
          approvalId !== undefined
            ? `${parsed.values.approve !== undefined ? 'Approved' : 'Declined'} ${approvalId}; agent job ${r.id} goes on${turn}`
            : `Started agent job ${r.id}${turn}`;
        if (!parsed.values.wait) {
          if (parsed.json) out(r.response);
          else io.out(`${said}\nFollow it with: devindex agent status ${r.id}\n`);
          return EXIT_OK;
        }
        io.out(parsed.json ? `${JSON.stringify(r.response)}\n` : `${said}\n`);
        try {
          return await follow(agent, r.id, io, parsed.json, submit!, deps);
        } catch (e) {
          if (!(e instanceof AbortedError) && !(e instanceof ApiError && e.kind === 'aborted')) throw e;
          // Ctrl+C stops the following, not the job: say how to find it again.
          io.err(
            `devindex agent: stopped following job ${r.id}; it keeps running ` +
              `(devindex agent status ${r.id}, or devindex agent cancel ${r.id} to stop it)\n`,
          );
          return EXIT_INTERRUPTED;
        }
      }
      case 'status': {
        const job = await agent.status(parsed.args[0]!, call);
        if (parsed.values.partial) {
          if (job.partial === undefined || job.partial === null) {
            io.err(
              `devindex agent: job ${parsed.args[0]} has no partial result (a run stopped by its credit ceiling has one)\n`,
            );
            return EXIT_FAILURE;
          }
          io.out(
            parsed.json
              ? `${JSON.stringify(job.partial, null, 2)}\n`
              : `${clean(JSON.stringify(job.partial, null, 2))}\n`,
          );
          return EXIT_OK;
        }
        if (parsed.json) out(job);
        else io.out(formatJob(job, parsed.args[0]));
        return EXIT_OK;
      }
      case 'thread': {
        const t = await agent.thread(parsed.args[0]!, { includeData: parsed.json }, call);
        if (parsed.json) out(t);
        else io.out(formatThread(t));
        return EXIT_OK;
      }
      case 'cancel': {
        const r = await agent.cancel(parsed.args[0]!, call);
        if (parsed.json) out(r);
        else
          io.out(
            `Cancel requested for job ${parsed.args[0]}; it stops shortly and then reports that it ` +
              `was cancelled (devindex agent status ${parsed.args[0]}).\n`,
          );
        return EXIT_OK;
      }
      case 'trace': {
        const t = await agent.trace(parsed.args[0]!, parsed.values['live-view'] ? { liveView: true } : {}, call);
        if (parsed.json) {
          out(t);
          return EXIT_OK;
        }
        io.out(formatTrace(t.events));
        if (t.creditsUsed !== undefined) io.out(`credits used: ${t.creditsUsed}\n`);
        for (const s of t.activeBrowserSessions ?? [])
          io.out(`live browser session ${clean(s.id)}${s.liveViewUrl ? `: ${clean(s.liveViewUrl)}` : ''}\n`);
        return EXIT_OK;
      }
      case 'snapshot': {
        const s = await agent.snapshot(parsed.args[0]!, parsed.args[1]!, call);
        if (parsed.json) {
          out(s);
          return EXIT_OK;
        }
        let text = s.snapshot;
        try {
          text = JSON.stringify(JSON.parse(text), null, 2);
        } catch {
          /* markdown or text: printed as it came */
        }
        io.out(`${clean(text).trimEnd()}\n`);
        return EXIT_OK;
      }
      case 'list': {
        const raw = parsed.values.before as string | undefined;
        let before: number | undefined;
        if (raw !== undefined) {
          if (!/^\d{1,16}$/.test(raw.trim()))
            throw new UsageError(
              `--before must be a whole number of epoch milliseconds, 0 or more; got ${JSON.stringify(raw)}`,
            );
          before = Number(raw.trim());
        }
        const page = await agent.list(before === undefined ? {} : { before }, call);
        if (parsed.json) {
          out(page);
          return EXIT_OK;
        }
        if (page.agents.length === 0) io.out('No agent jobs.\n');
        for (const j of page.agents) {
          const prompt = clean(j.options?.prompt ?? '').replace(/\s+/g, ' ');
          const created =
            typeof j.createdAt === 'number' ? new Date(j.createdAt).toISOString() : clean(j.createdAt ?? '-');
          io.out(
            `${created}  ${clean(j.status).padEnd(10)}  ${clean(j.id)}  ${prompt.length > 60 ? `${prompt.slice(0, 59)}…` : prompt}\n`,
          );
        }
        if (page.nextBefore !== undefined) io.out(`More: devindex agent list --before ${page.nextBefore}\n`);
        else if (!page.nextPage.follow && page.nextPage.reason === 'other-origin') {
          io.err(
            `devindex agent: the service's next page is on another address ` +
              `(${clean(page.nextPage.origin ?? '?')}); not followed, ` +
              `so the key is only sent to ${clean(client.settings.baseUrl)}\n`,
          );
        }
        return EXIT_OK;
      }
      default:
        return EXIT_USAGE;
    }
  } catch (e) {
    return printError(io, e, cmd);
  } finally {
    await client.close();
  }
}

/**
 * Before approving: a `terms` approval is answered only with --accept-terms (the user read the terms
 * and agrees); then its terms/accept calls run first. Returns an exit code when it refuses, else undefined.
 * The approval is looked up in the thread; when it cannot be found, the service decides.
 */
async function acceptTermsIfAsked(
  agent: AgentClient,
  threadId: string,
  approvalId: string,
  agreed: boolean,
  io: CliIo,
  call: { signal?: AbortSignal },
): Promise<number | undefined> {
  let run;
  try {
    const t = await agent.thread(threadId, {}, call);
    run = t.runs.find((r) => r.pendingApproval?.id === approvalId);
  } catch {
    run = undefined;
  }
  const p = run?.pendingApproval ?? undefined;
  if (!run || !p || p.kind !== 'terms') {
    if (agreed)
      io.err(
        `devindex agent: --accept-terms: approval ${clean(approvalId)} asks for no terms; approving it as usual\n`,
      );
    return undefined;
  }
  if (!agreed) {
    io.err(
      [
        `devindex agent: approval ${clean(approvalId)} asks you to accept data terms:`,
        ...p.terms.map((t) => `  ${clean(termsName(t))}${t.url ? `: ${clean(t.url)}` : ''}`),
        'Read them; to agree, run the same command with --accept-terms (nothing was sent).',
      ].join('\n') + '\n',
    );
    return EXIT_USAGE;
  }
  const calls = termsAcceptCalls({ pendingApproval: p, exchange: run.exchange ?? undefined });
  try {
    await agent.acceptTerms(calls, call);
  } catch (e) {
    if (reasonOf(e) !== 'terms-not-accepted') throw e;
    // The approval is never sent after a failed acceptance: the run keeps waiting for the terms as they are now.
    printError(io, e, 'devindex agent');
    io.err(
      [
        ...p.terms.flatMap((t) => (t.url ? [`  ${clean(termsName(t))}: ${clean(t.url)}`] : [])),
        `To see the terms as they are now, run: devindex agent start --thread ${clean(threadId)} --approve ${clean(approvalId)}`,
      ].join('\n') + '\n',
    );
    return EXIT_FAILURE;
  }
  io.err(`devindex agent: accepted ${p.terms.map((t) => clean(termsName(t))).join('; ')} for your team\n`);
  return undefined;
}

/**
 * Follows a run through the run engine (the same schedule and reducers as the editor's tree): prints
 * new events as they arrive, then the end in the shared words. 0 only if the run completed.
 */
async function follow(
  agent: AgentClient,
  id: string,
  io: CliIo,
  json: boolean,
  submitted: AgentSubmitParams,
  deps: AgentCliDeps,
): Promise<number> {
  const parents = new Map<string, string | undefined>();
  const sleep = deps.sleep ?? ((ms: number) => systemClock.sleep(ms, io.signal));
  const maxWaitMs = deps.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const r = await followRun({
    jobId: id,
    backend: {
      trace: (j) => agent.trace(j, {}, { signal: io.signal }),
      status: (j) => agent.status(j, { signal: io.signal }),
    },
    clock: { now: deps.now ?? Date.now, sleep: (ms) => sleep(ms) },
    timing: { ...DEFAULT_POLL_TIMING, ...pollTimingFromEnv(io.env), ...deps.timing },
    facts: { maxCredits: submitted.maxCredits },
    maxWaitMs,
    signal: io.signal,
    onEvents: (events) => {
      learnAgents(events, parents);
      for (const e of events)
        if (json || !isFoldedEvent(e)) io.out(json ? `${JSON.stringify(e)}\n` : eventLine(e, parents));
    },
    onNoTrace: () => {
      if (!json)
        io.err(`devindex agent: job ${id} has no trace (it ran on an older engine); following its status only\n`);
    },
    stopWhenWaiting: true,
  });
  if (r.waiting && r.facts.pendingApproval) {
    // Waiting is said first, whatever the status: the run goes on only once someone answers.
    if (json) io.out(`${JSON.stringify(r.record ?? null)}\n`);
    else
      io.out(
        `Agent job ${id} waits for your approval; it goes on only once you ` +
          `answer.\n${approvalLines(r.facts.pendingApproval, r.facts.threadId).join('\n')}\n`,
      );
    return EXIT_FAILURE;
  }
  if (r.timedOut) {
    io.err(
      `devindex agent: job ${id} is still running after ${Math.round(maxWaitMs / 1000)} s; ` +
        `stopped following it (it keeps running: devindex agent status ${id})\n`,
    );
    return EXIT_FAILURE;
  }
  if (json) io.out(`${JSON.stringify(r.record)}\n`);
  else io.out(finalWords(r.facts, submitted, r.record, id));
  return r.facts.status === 'completed' ? EXIT_OK : EXIT_FAILURE;
}
