// The agent commands. Each takes its dependencies and the tree node (or a job id) it was invoked on; from the palette,
// without a node, it asks which job. createAgentsFeature (agentsFeature.ts) maps them to command ids.
import * as vscode from 'vscode';
import { isCheckedSubmit, TOOL_SUBMIT_FIELDS, type AgentSubmitParams } from '../api/agent/submitSchema';
import { agentDocumentUri } from './agentContentProvider';
import { describeAgentError, errorReason, mayExistWords } from '../words/failureWords';
import { EventNode } from './eventNode';
import type { AgentJob } from './jobModel';
import type { ShowNotification } from './jobNotifier';
import { hasAnswer, hasDataResult, hasPartialResult, jobState, shortDate, shortLabel, stateWords } from './jobState';
import type { JobStore } from './jobStore';
import { type AskInput, askStartJob, draftFrom, emptyDraft, fieldOfIssues, type StartDraft } from './startJobInput';
import {
  type ApproveInput,
  type FollowUpInput,
  type JobTarget,
  pickJob,
  type PickJobInput,
  vscodeAsk,
} from './agentInputs';

export interface AgentCommandContext {
  store: JobStore;
  /** Shows the job in the tree (opens and expands the Agent Jobs view, selects the job). */
  reveal(jobId: string): Promise<void>;
  defaultMaxCredits(): number;
  /** `devIndex.agent.extraModels`: model names newer than this build. */
  extraModels(): string[];
  hasKey(): Promise<boolean>;
  /** What the user typed last, kept across invocations until a submission succeeds. */
  draft: StartDraft;
  /** One step of the start flow (default: vscodeAsk). */
  ask?: AskInput;
  /** Which job, when a command is run from the palette (default: vscodePickJob). */
  pick?: PickJobInput;
  /** Ask a Follow-up…'s input: the typed text or a suggestion's prompt (default: vscodeFollowUp). */
  followUp?: FollowUpInput;
  /** How the user answers an approval (Approve…); default: vscodeApprove. */
  approve?: ApproveInput;
  /** Messages with buttons (thread errors, approvals); default: the editor's notifications. */
  show?: ShowNotification;
  /** Follow-up text typed per thread, kept until it has been sent. */
  followUps: Map<string, string>;
}

export const REFRESH_JOB_LIST = 'Refresh Job List';
export const EDIT_AND_RETRY = 'Edit and Retry';
const SET_KEY = 'Set API Key';

/** Start Agent Job…: asks (or takes `args`), submits once, shows the job. Resolves with its id. */
export async function startJob(
  deps: AgentCommandContext,
  args?: AgentSubmitParams,
  prefill?: StartDraft,
): Promise<string | undefined> {
  if (!(await deps.hasKey())) {
    if (args) throw new Error('Agent jobs need an API key: set one with "Developer Index: Set API Key".');
    const choice = await vscode.window.showWarningMessage('Agent jobs need an API key.', SET_KEY);
    if (choice === SET_KEY) await vscode.commands.executeCommand('devIndex.auth.setKey');
    if (!(await deps.hasKey())) return undefined;
  }
  if (prefill) Object.assign(deps.draft, prefill);
  let params: AgentSubmitParams | undefined;
  if (args) {
    // A tool's start arrives checked (validateAgentSubmit's body) and goes on as it is; any other is built
    // here and checked, once, by the client (its messages name the field and the bound).
    params = isCheckedSubmit(args) ? args : submissionOf(args, deps.defaultMaxCredits());
    // Other features get the job id without any prompt; errors reject with the client's message.
    const job = await deps.store.start(params);
    warnIfUnsaved(deps, job.id);
    void deps.reveal(job.id);
    return job.id;
  }
  let errors: ReturnType<typeof fieldOfIssues> = {};
  for (let attempt = 0; attempt < 5; attempt++) {
    params = await askStartJob(deps.ask ?? vscodeAsk, deps.draft, deps.defaultMaxCredits(), errors, deps.extraModels());
    if (!params) return undefined;
    try {
      const request = params;
      const job = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Starting the agent job…', cancellable: true },
        (_p, token) => {
          const ac = new AbortController();
          token.onCancellationRequested(() => ac.abort());
          return deps.store.start(request, { signal: ac.signal });
        },
      );
      Object.assign(deps.draft, emptyDraft());
      warnIfUnsaved(deps, job.id);
      void deps.reveal(job.id);
      return job.id;
    } catch (e) {
      const reason = errorReason(e);
      if (reason === 'job-may-exist') {
        // Never resubmit here: a second submission could be a second billed run.
        const choice = await vscode.window.showWarningMessage(mayExistWords('job'), REFRESH_JOB_LIST);
        if (choice === REFRESH_JOB_LIST) await refreshJobs(deps);
        return undefined;
      }
      if (reason === 'cancelled') return undefined;
      const issues = fieldOfIssues(reason === 'invalid-input' ? issuesOf(e) : undefined);
      if (Object.keys(issues).length === 0) {
        const choice = await vscode.window.showErrorMessage(
          `Could not start the agent job: ${describeAgentError(e)}`,
          EDIT_AND_RETRY,
        );
        if (choice !== EDIT_AND_RETRY) return undefined;
        errors = {};
      } else {
        // Back to the steps with every value kept and the rejected field's message on its step.
        errors = issues;
      }
    }
  }
  return undefined;
}

/** The job runs, but storage refused its record (quota, full disk): the user learns that a reload would lose it here. */
function warnIfUnsaved(deps: AgentCommandContext, id: string): void {
  if (!deps.store.isUnsaved(id)) return;
  void vscode.window.showWarningMessage(
    `The agent job ${id} started, but the editor could not save it in its storage yet ` +
      `(saving is retried; see the Developer Index log). Until it is saved, ` +
      `closing this window loses it here: Refresh the job list to find it again.`,
  );
}

/** Start Again…: the start flow filled with a job's prompt, URLs, model and effort; a higher ceiling after a credit limit. */
export async function startAgain(deps: AgentCommandContext, target?: JobTarget): Promise<string | undefined> {
  const job = await pickJob(deps, target, 'Start which job again?');
  if (!job) return undefined;
  const higher =
    jobState(job) === 'credit_limit_reached' && job.maxCredits !== undefined ? job.maxCredits * 2 : job.maxCredits;
  return startJob(
    deps,
    undefined,
    draftFrom({
      prompt: job.prompt,
      urls: job.urls,
      maxCredits: higher,
      model: job.model,
      effort: job.effort,
      mode: job.mode,
    }),
  );
}

/** The submission a caller's args describe: the fields a start takes, the default ceiling when none is given. */
function submissionOf(args: AgentSubmitParams, defaultMaxCredits: number): AgentSubmitParams {
  const a = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  const fields: Record<string, unknown> = { prompt: a.prompt, maxCredits: a.maxCredits ?? defaultMaxCredits };
  for (const k of TOOL_SUBMIT_FIELDS) if (a[k] !== undefined && k !== 'maxCredits') fields[k] = a[k];
  if (Array.isArray(a.urls) && a.urls.length === 0) delete fields.urls;
  return fields as unknown as AgentSubmitParams;
}

function issuesOf(e: unknown): Array<{ field: string; message: string }> | undefined {
  const o = e as { issues?: unknown; details?: unknown };
  const list = Array.isArray(o.issues) ? o.issues : Array.isArray(o.details) ? o.details : undefined;
  return list?.flatMap((i: unknown) => {
    if (!i || typeof i !== 'object') return [];
    const r = i as { field?: unknown; path?: unknown; message?: unknown };
    const field = typeof r.field === 'string' ? r.field : Array.isArray(r.path) ? r.path.join('.') : '';
    return field ? [{ field, message: typeof r.message === 'string' ? r.message : `${field} was rejected` }] : [];
  });
}

export async function cancelJob(deps: AgentCommandContext, target?: JobTarget): Promise<void> {
  const job = await pickJob(deps, target, 'Cancel which running agent job?', isLive, 'No agent job is running.');
  if (!job) return;
  if (!isLive(job)) {
    void vscode.window.showInformationMessage(
      `Only a running job can be cancelled; this one is ${stateWords(jobState(job), job.status)}.`,
    );
    return;
  }
  try {
    const r = await deps.store.cancel(job.id);
    if (r === 'already-finished')
      void vscode.window.showInformationMessage('The job had already finished; its final state is being read.');
    if (r === 'already-cancelled')
      void vscode.window.showInformationMessage(
        'The job is already being cancelled; it will show as cancelled shortly.',
      );
  } catch (e) {
    void vscode.window.showErrorMessage(`Could not cancel the agent job: ${describeAgentError(e)}`);
  }
}

export async function refreshJobs(deps: AgentCommandContext): Promise<void> {
  const { listError } = await deps.store.refresh();
  if (listError !== undefined)
    void vscode.window.showWarningMessage(`Could not read the job list: ${describeAgentError(listError)}`);
}

export async function openResult(
  deps: AgentCommandContext,
  target?: JobTarget,
  which: 'result' | 'partial' = 'result',
): Promise<void> {
  const eligible = which === 'result' ? hasDataResult : hasPartialResult;
  const job = await pickJob(
    deps,
    target,
    which === 'result' ? 'Open the result of which job?' : 'Open the partial result of which job?',
    eligible,
    which === 'result'
      ? 'No agent job in the list has a result yet.'
      : 'No agent job in the list has a partial result.',
  );
  if (!job) return;
  if (job.expired) {
    const on = shortDate(job.expiresAt);
    void vscode.window.showInformationMessage(
      `This job expired on the service${on ? ` on ${on}` : ''}; showing the copy kept in this editor.`,
    );
  }
  await showDocument(agentDocumentUri({ kind: which, jobId: job.id, label: documentLabel(job) }));
}

export async function openSnapshot(
  deps: AgentCommandContext,
  target?: EventNode | { jobId: string; snapshotId: string; kind?: string; path?: string },
): Promise<void> {
  const ref =
    target instanceof EventNode
      ? target.snapshot && {
          jobId: target.jobId,
          snapshotId: target.snapshot.snapshotId,
          kind: target.snapshot.kind,
          path: target.snapshot.path ?? target.snapshot.artifactId,
        }
      : target;
  if (!ref) {
    void vscode.window.showInformationMessage(
      'Open Snapshot works on an "artifact updated" event in the Agent Jobs tree.',
    );
    return;
  }
  const job = deps.store.get(ref.jobId);
  const uri = agentDocumentUri({
    kind: 'snapshot',
    jobId: ref.jobId,
    snapshotId: ref.snapshotId,
    artifactKind: ref.kind ?? 'json',
    name: ref.path,
    label: job ? documentLabel(job) : undefined,
  });
  // Markdown is for reading: it opens rendered, in the Markdown preview.
  if (ref.kind === 'markdown') await vscode.commands.executeCommand('markdown.showPreview', uri);
  else await showDocument(uri);
}

export async function openTrace(deps: AgentCommandContext, target?: JobTarget): Promise<void> {
  const job = await pickJob(
    deps,
    target,
    'Open the trace of which job?',
    (j) => !j.trace.unavailable && !j.notFound && !j.expired,
  );
  if (!job) return;
  await showDocument(agentDocumentUri({ kind: 'trace', jobId: job.id, label: documentLabel(job) }));
}

export async function copyJobId(deps: AgentCommandContext, target?: JobTarget): Promise<void> {
  const job = await pickJob(deps, target, 'Copy the id of which job?');
  if (!job) return;
  await vscode.env.clipboard.writeText(job.id);
  vscode.window.setStatusBarMessage(`Copied agent job id ${job.id}`, 3000);
}

export async function removeJob(deps: AgentCommandContext, target?: JobTarget): Promise<void> {
  const job = await pickJob(deps, target, 'Remove which job from the list?');
  if (!job) return;
  if (isLive(job)) {
    const ok = await vscode.window.showWarningMessage(
      'This job is still running. Removing it stops watching it here; it keeps running (and using credits) on the service.',
      { modal: true },
      'Remove',
    );
    if (ok !== 'Remove') return;
  }
  deps.store.remove(job.id);
}

/** Running, or waiting for the caller: the run is going on the service. */
function isLive(j: AgentJob): boolean {
  return jobState(j) === 'running' || jobState(j) === 'waiting';
}

/** Open Answer: a chat run's answer as a read-only markdown document, rendered in the Markdown preview. */
export async function openAnswer(deps: AgentCommandContext, target?: JobTarget): Promise<void> {
  const job = await pickJob(
    deps,
    target,
    'Open the answer of which job?',
    hasAnswer,
    'No agent job in the list has an answer yet.',
  );
  if (!job) return;
  if (job.expired) {
    const on = shortDate(job.expiresAt);
    void vscode.window.showInformationMessage(
      `This job expired on the service${on ? ` on ${on}` : ''}; showing the answer kept in this editor.`,
    );
  }
  await vscode.commands.executeCommand(
    'markdown.showPreview',
    agentDocumentUri({ kind: 'answer', jobId: job.id, label: documentLabel(job) }),
  );
}

/** A job's name in its document tabs (`result — <label>.json`): the prompt, cut at a word boundary. */
function documentLabel(job: AgentJob): string {
  return shortLabel(job.prompt, 35);
}

async function showDocument(uri: vscode.Uri): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: true });
}
