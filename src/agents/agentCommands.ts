// The agent commands. Each takes its dependencies and the tree node (or a job id) it was invoked on;
// from the palette, without a node, it asks which job. registerAgents() maps them to command ids.
import * as vscode from 'vscode';
import type { AgentSubmitParams } from './agentBackend';
import { agentDocumentUri } from './agentContentProvider';
import { describeAgentError, errorShape, submitMayHaveCreatedJob } from './agentErrors';
import { EventNode } from './eventNode';
import type { AgentJob } from './jobModel';
import { jobState, shortLabel, stateWords } from './jobState';
import type { JobStore } from './jobStore';
import { type AskInput, askStartJob, emptyDraft, fieldOfIssues, parseMaxCredits, parseUrls, type StartDraft, validatePrompt } from './startJobInput';

export interface AgentCommandDeps {
  store: JobStore;
  /** Shows the job in the tree (selects it; the view is opened if needed). */
  reveal(jobId: string): Promise<void>;
  defaultMaxCredits(): number;
  hasKey(): Promise<boolean>;
  /** What the user typed last, kept across invocations until a submission succeeds. */
  draft: StartDraft;
  ask?: AskInput;
}

/** Arguments for Start without input boxes (tests, other features): same checks as the boxes. */
export interface StartJobArgs { prompt: string; urls?: string[]; maxCredits?: number }

type Target = string | { jobId: string } | undefined;

export const REFRESH_JOB_LIST = 'Refresh Job List';
export const EDIT_AND_RETRY = 'Edit and Retry';
export const SET_KEY = 'Set API Key';

/** The default input box: value kept, validation live, and a service error shown on arrival. */
export const vscodeAsk: AskInput = (step) => new Promise((resolve) => {
  const box = vscode.window.createInputBox();
  box.title = step.title;
  box.step = step.step;
  box.totalSteps = step.totalSteps;
  box.prompt = step.prompt;
  box.value = step.value;
  box.placeholder = step.placeHolder;
  box.ignoreFocusOut = true;
  box.validationMessage = step.initialError;
  let done = false;
  const finish = (v: string | undefined): void => {
    if (done) return;
    done = true;
    resolve(v);
    box.dispose();
  };
  box.onDidChangeValue((v) => { box.validationMessage = step.validate(v); });
  box.onDidAccept(() => {
    const problem = step.validate(box.value);
    if (problem) box.validationMessage = problem;
    else finish(box.value);
  });
  box.onDidHide(() => finish(undefined));
  box.show();
});

/** Start Agent Job…: asks (or takes `args`), submits once, shows the job. Resolves with its id. */
export async function startJob(deps: AgentCommandDeps, args?: StartJobArgs): Promise<string | undefined> {
  if (!(await deps.hasKey())) {
    const choice = await vscode.window.showWarningMessage('Agent jobs need an API key.', SET_KEY);
    if (choice === SET_KEY) await vscode.commands.executeCommand('devIndex.auth.setKey');
    if (!(await deps.hasKey())) return undefined;
  }
  let params: AgentSubmitParams | undefined;
  if (args) {
    const problem = checkArgs(args, deps.defaultMaxCredits());
    if (problem) throw new Error(problem);
    params = { prompt: args.prompt, ...(args.urls?.length ? { urls: args.urls } : {}), maxCredits: args.maxCredits ?? deps.defaultMaxCredits() };
  }
  let errors: ReturnType<typeof fieldOfIssues> = {};
  for (let attempt = 0; attempt < 5; attempt++) {
    params ??= await askStartJob(deps.ask ?? vscodeAsk, deps.draft, deps.defaultMaxCredits(), errors);
    if (!params) return undefined;
    try {
      const job = await deps.store.start(params);
      Object.assign(deps.draft, emptyDraft());
      void deps.reveal(job.id);
      return job.id;
    } catch (e) {
      if (submitMayHaveCreatedJob(e)) {
        // Never resubmit here: a second submission could be a second billed run.
        const choice = await vscode.window.showWarningMessage(
          `${describeAgentError(e)} The job may have been created anyway, so it was not sent again. Refresh the job list to look for it before starting it again.`,
          REFRESH_JOB_LIST,
        );
        if (choice === REFRESH_JOB_LIST) await refreshJobs(deps);
        return undefined;
      }
      const issues = fieldOfIssues(errorShape(e).status === 400 || errorShape(e).kind === 'validation' ? issuesOf(e) : undefined);
      if (args || Object.keys(issues).length === 0) {
        if (args) throw e;
        const choice = await vscode.window.showErrorMessage(`Could not start the agent job: ${describeAgentError(e)}`, EDIT_AND_RETRY);
        if (choice !== EDIT_AND_RETRY) return undefined;
        errors = {};
      } else {
        // Back to the boxes with every value kept and the rejected field's message on its step.
        errors = issues;
      }
      params = undefined;
    }
  }
  return undefined;
}

function checkArgs(a: StartJobArgs, fallback: number): string | undefined {
  if (typeof a.prompt !== 'string') return 'prompt is required';
  const p = validatePrompt(a.prompt);
  if (p) return p;
  const u = parseUrls((a.urls ?? []).join(','));
  if (!u.ok) return u.message;
  const c = parseMaxCredits(a.maxCredits === undefined ? '' : String(a.maxCredits), fallback);
  return c.ok ? undefined : c.message;
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

export async function cancelJob(deps: AgentCommandDeps, target?: Target): Promise<void> {
  const job = await pickJob(deps.store, target, 'Cancel which agent job?', (j) => jobState(j) === 'running');
  if (!job) return;
  if (jobState(job) !== 'running') {
    void vscode.window.showInformationMessage(`Only a running job can be cancelled; this one is ${stateWords(jobState(job), job.status)}.`);
    return;
  }
  try {
    const r = await deps.store.cancel(job.id);
    if (r === 'already-finished') void vscode.window.showInformationMessage('The job had already finished; its final state is being read.');
    if (r === 'already-cancelled') void vscode.window.showInformationMessage('The job is already being cancelled; it will show as cancelled shortly.');
  } catch (e) {
    void vscode.window.showErrorMessage(`Could not cancel the agent job: ${describeAgentError(e)}`);
  }
}

export async function refreshJobs(deps: AgentCommandDeps): Promise<void> {
  const { listError } = await deps.store.refresh();
  if (listError !== undefined) void vscode.window.showWarningMessage(`Could not read the job list: ${describeAgentError(listError)}`);
}

export async function openResult(deps: AgentCommandDeps, target?: Target): Promise<void> {
  const job = await pickJob(deps.store, target, 'Open the result of which job?', (j) => jobState(j) === 'completed');
  if (!job) return;
  await showDocument(agentDocumentUri({ kind: 'result', jobId: job.id }));
}

export async function openSnapshot(_deps: AgentCommandDeps, target?: EventNode | { jobId: string; snapshotId: string; kind?: string }): Promise<void> {
  const ref = target instanceof EventNode
    ? target.snapshot && { jobId: target.jobId, snapshotId: target.snapshot.snapshotId, kind: target.snapshot.kind }
    : target;
  if (!ref) {
    void vscode.window.showInformationMessage('Open Snapshot works on an "artifact updated" event in the Agent Jobs tree.');
    return;
  }
  await showDocument(agentDocumentUri({ kind: 'snapshot', jobId: ref.jobId, snapshotId: ref.snapshotId, artifactKind: ref.kind ?? 'json' }));
}

export async function openTrace(deps: AgentCommandDeps, target?: Target): Promise<void> {
  const job = await pickJob(deps.store, target, 'Open the trace of which job?', (j) => !j.trace.unavailable && !j.notFound);
  if (!job) return;
  await showDocument(agentDocumentUri({ kind: 'trace', jobId: job.id }));
}

export async function copyJobId(deps: AgentCommandDeps, target?: Target): Promise<void> {
  const job = await pickJob(deps.store, target, 'Copy the id of which job?');
  if (!job) return;
  await vscode.env.clipboard.writeText(job.id);
  vscode.window.setStatusBarMessage(`Copied agent job id ${job.id}`, 3000);
}

export async function removeJob(deps: AgentCommandDeps, target?: Target): Promise<void> {
  const job = await pickJob(deps.store, target, 'Remove which job from the list?');
  if (!job) return;
  if (jobState(job) === 'running') {
    const ok = await vscode.window.showWarningMessage(
      'This job is still running. Removing it stops watching it here; it keeps running (and using credits) on the service.',
      { modal: true }, 'Remove',
    );
    if (ok !== 'Remove') return;
  }
  deps.store.remove(job.id);
}

async function showDocument(uri: vscode.Uri): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: true });
}

async function pickJob(store: JobStore, target: Target, title: string, eligible: (j: AgentJob) => boolean = () => true): Promise<AgentJob | undefined> {
  const id = typeof target === 'string' ? target : target?.jobId;
  if (id !== undefined) {
    const job = store.get(id);
    if (!job) void vscode.window.showWarningMessage(`Agent job ${id} is not in the list.`);
    return job;
  }
  const jobs = store.jobs().filter(eligible);
  if (jobs.length === 0) {
    void vscode.window.showInformationMessage('No agent job in the list fits this command.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    jobs.map((j) => ({ label: shortLabel(j.prompt), description: stateWords(jobState(j), j.status), detail: j.id, job: j })),
    { title, matchOnDetail: true },
  );
  return picked?.job;
}

