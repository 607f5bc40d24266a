// The commands of a job's thread: Ask a Follow-up… (the thread's next turn) and Approve / Decline (the caller's
// answer to a run that waits). Features side (dist/features.js), with the other agent commands (agentCommands.ts).
import * as vscode from 'vscode';
import { isAgentEffort, isAgentMode } from '../api/agent/agentConstants';
import { type AgentSubmitParams, fieldIssue } from '../api/agent/submitSchema';
import { mayExistWords, describeAgentError, errorReason } from '../words/failureWords';
import { type AgentCommandContext, EDIT_AND_RETRY, REFRESH_JOB_LIST, refreshJobs, startJob } from './agentCommands';
import { type JobTarget, OPEN_TERMS, pickJob, vscodeApprove, vscodeFollowUp, vscodeShow } from './agentInputs';
import { termsLink } from './placeholderNodes';
import type { AgentJob } from './jobModel';
import { canFollowUp, jobState, shortLabel, stateWords } from './jobState';
import type { ApprovalChoice } from './jobStore';
import { draftFrom } from './startJobInput';

const FOLLOW_IT = 'Follow It';
const START_AGAIN_BUTTON = 'Start Again…';

/**
 * Ask a Follow-up…: a new turn in the job's thread. The text is kept per thread until it has been
 * sent (a failed start, a dismissed box, Edit and Retry all find it again). A busy thread offers to
 * follow the turn still running; an expired or unknown thread offers Start Again… with the text.
 */
export async function askFollowUp(deps: AgentCommandContext, target?: JobTarget): Promise<string | undefined> {
  const job = await pickJob(
    deps,
    target,
    'Ask a follow-up to which job?',
    canFollowUp,
    'No finished agent job with a thread is in the list.',
  );
  if (!job) return undefined;
  const threadId = job.threadId;
  if (!threadId || !canFollowUp(job)) {
    void vscode.window.showInformationMessage(
      threadId
        ? `A follow-up can be asked once this run has ended; it is ${stateWords(jobState(job), job.status)}.`
        : 'This job has no thread on the service (it was started before threads, or on a server without them).',
    );
    return undefined;
  }
  const show = deps.show ?? vscodeShow;
  const input = deps.followUp ?? vscodeFollowUp((t) => deps.followUps.set(threadId, t));
  let validationMessage: string | undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    const answer = await input({
      title: `Ask a Follow-up: ${shortLabel(job.prompt, 40)}`,
      suggestions: job.suggestions ?? [],
      value: deps.followUps.get(threadId) ?? '',
      validationMessage,
    });
    if (answer === undefined) return undefined;
    deps.followUps.set(threadId, answer);
    validationMessage = fieldIssue('prompt', answer);
    if (validationMessage) continue;
    const params: AgentSubmitParams = {
      prompt: answer,
      threadId,
      maxCredits: job.maxCredits ?? deps.defaultMaxCredits(),
      ...(job.model ? { model: job.model } : {}),
      ...(isAgentEffort(job.effort) ? { effort: job.effort } : {}),
      ...(isAgentMode(job.mode) ? { mode: job.mode } : {}),
    };
    try {
      const turn = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Asking the follow-up…', cancellable: true },
        (_p, token) => {
          const ac = new AbortController();
          token.onCancellationRequested(() => ac.abort());
          return deps.store.start(params, { signal: ac.signal });
        },
      );
      deps.followUps.delete(threadId);
      void deps.reveal(turn.id);
      return turn.id;
    } catch (e) {
      const reason = errorReason(e);
      if (reason === 'cancelled') return undefined;
      if (reason === 'thread-busy') {
        const runId = busyRunId(e);
        const text =
          'A turn of this thread is still running, so the follow-up was not sent (it is kept for when the turn ends).';
        const choice = await show(
          'warning',
          typeof runId === 'string' ? `${text} Follow the running turn?` : text,
          typeof runId === 'string' ? [FOLLOW_IT] : [],
        );
        if (choice === FOLLOW_IT && typeof runId === 'string') {
          deps.store.track(runId, { threadId });
          await deps.reveal(runId);
        }
        return undefined;
      }
      if (reason === 'thread-expired' || reason === 'thread-not-found' || reason === 'threads-disabled') {
        const choice = await show('warning', describeAgentError(e), [START_AGAIN_BUTTON]);
        if (choice !== START_AGAIN_BUTTON) return undefined;
        deps.followUps.delete(threadId);
        return startJob(
          deps,
          undefined,
          draftFrom({
            prompt: answer,
            urls: job.urls,
            maxCredits: job.maxCredits,
            model: job.model,
            effort: job.effort,
            mode: job.mode,
          }),
        );
      }
      if (reason === 'job-may-exist') {
        const choice = await show('warning', mayExistWords('follow-up'), [REFRESH_JOB_LIST]);
        if (choice === REFRESH_JOB_LIST) await refreshJobs(deps);
        return undefined;
      }
      const choice = await show('error', `Could not ask the follow-up: ${describeAgentError(e)}`, [EDIT_AND_RETRY]);
      if (choice !== EDIT_AND_RETRY) return undefined;
    }
  }
  return undefined;
}

/** The turn a 409 `thread_busy` names: on the error, or on the ApiError it wraps (AgentError does not copy `runId`). */
function busyRunId(e: unknown): string | undefined {
  for (
    let x: unknown = e, i = 0;
    x !== null && typeof x === 'object' && i < 3;
    x = (x as { cause?: unknown }).cause, i++
  ) {
    const id = (x as { runId?: unknown }).runId;
    if (typeof id === 'string' && id) return id;
  }
  return undefined;
}

/** Approve / Decline: the caller's answer to a waiting run. The answer is the thread's next turn, followed to its end. */
export async function answerApproval(
  deps: AgentCommandContext,
  target: JobTarget,
  decision: 'approve' | 'decline',
): Promise<void> {
  const waiting = (j: AgentJob): boolean => jobState(j) === 'waiting';
  const job = await pickJob(
    deps,
    target,
    decision === 'approve' ? 'Approve what which job waits for?' : 'Decline what which job waits for?',
    waiting,
    'No agent job is waiting for an approval.',
  );
  if (!job) return;
  const p = job.pendingApproval;
  if (!p || !waiting(job)) {
    void vscode.window.showInformationMessage(
      `This job is not waiting for an approval; it is ${stateWords(jobState(job), job.status)}.`,
    );
    return;
  }
  let choice: ApprovalChoice = {};
  if (decision === 'approve') {
    const answered = await (deps.approve ?? vscodeApprove)(job, p);
    if (!answered) return;
    choice = answered;
  }
  try {
    const next = await deps.store.answerApproval(job.id, decision, choice);
    if (next.id !== job.id) void deps.reveal(next.id);
  } catch (e) {
    if (errorReason(e) === 'exchange-not-enabled') {
      void deps.store.refresh();
      void vscode.window.showInformationMessage(describeAgentError(e));
      return;
    }
    if (errorReason(e) === 'terms-not-accepted') {
      await termsNotAccepted(deps, job, p, e);
      return;
    }
    void vscode.window.showErrorMessage(`Could not ${decision} for the agent job: ${describeAgentError(e)}`);
  }
}

const SHOW_TERMS_AGAIN = 'Show the Terms Again';

/**
 * Nothing was approved after a failed acceptance. Show the Terms Again reads the run afresh and asks again
 * (the terms may have changed since they were shown); Open the Terms opens their pages.
 */
async function termsNotAccepted(
  deps: AgentCommandContext,
  job: AgentJob,
  p: NonNullable<AgentJob['pendingApproval']>,
  e: unknown,
): Promise<void> {
  const links = p.terms.flatMap((t) => {
    const link = termsLink(t.url);
    return link ? [link] : [];
  });
  const buttons = [SHOW_TERMS_AGAIN, ...(links.length ? [OPEN_TERMS] : [])];
  const choice = await (deps.show ?? vscodeShow)('error', describeAgentError(e), buttons);
  if (choice === OPEN_TERMS) for (const link of links) await vscode.env.openExternal(link);
  if (choice === SHOW_TERMS_AGAIN) {
    await deps.store.refresh();
    await answerApproval(deps, job.id, 'approve');
  }
}
