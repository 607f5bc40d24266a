// The editor's own inputs for the agent commands (agentCommands.ts): the follow-up pick, the "which job?" pick,
// the start flow's steps, the approval modals and the messages with buttons. Tests inject their own instead.
import * as vscode from 'vscode';
import type { PendingApproval } from '../api/agent/exchangeSchemas';
import { callName, callWords, estimateWords, termsName } from '../agentRun/runOutcome';
import type { AgentJob } from './jobModel';
import type { ShowNotification } from './jobNotifier';
import { jobState, shortLabel, stateWords } from './jobState';
import type { ApprovalChoice, JobStore } from './jobStore';
import { termsLink } from './placeholderNodes';
import { type AskInput, BACK, type InputStep, type PickStep } from './startJobInput';

/** A suggestion of the service, offered as a pick. */
interface FollowUpSuggestion {
  label?: string;
  prompt: string;
}
export type FollowUpInput = (o: {
  title: string;
  suggestions: FollowUpSuggestion[];
  value: string;
  validationMessage?: string;
}) => Promise<string | undefined>;

export const vscodeShow: ShowNotification = (severity, text, buttons) =>
  severity === 'error'
    ? vscode.window.showErrorMessage(text, ...buttons)
    : severity === 'warning'
      ? vscode.window.showWarningMessage(text, ...buttons)
      : vscode.window.showInformationMessage(text, ...buttons);

/**
 * The default follow-up input: a quick pick whose first item is what the user types ("Ask: …") and
 * whose other items are the service's suggestions; a suggestion sends its prompt. The typed text is
 * kept (`onText`) even when the pick is dismissed.
 */
export function vscodeFollowUp(onText: (text: string) => void): FollowUpInput {
  return (o) =>
    new Promise((resolve) => {
      type Item = vscode.QuickPickItem & { prompt?: string; typed?: boolean };
      const qp = vscode.window.createQuickPick<Item>();
      qp.title = o.title;
      qp.placeholder =
        o.validationMessage ??
        (o.suggestions.length
          ? 'Type a follow-up, or pick one the service suggests'
          : 'Type a follow-up question or instruction');
      qp.ignoreFocusOut = true;
      qp.matchOnDetail = true;
      qp.value = o.value;
      const suggestions: Item[] = o.suggestions.map((x) => ({
        label: `$(lightbulb) ${x.label ?? shortLabel(x.prompt, 60)}`,
        detail: x.prompt,
        prompt: x.prompt,
        alwaysShow: true,
      }));
      const refresh = (): void => {
        const typed = qp.value.trim();
        qp.items = [
          ...(typed
            ? [
                {
                  label: `$(comment-discussion) Ask: ${shortLabel(typed, 80)}`,
                  description: 'your follow-up',
                  prompt: qp.value,
                  typed: true,
                  alwaysShow: true,
                },
              ]
            : []),
          ...(suggestions.length
            ? [{ label: 'suggested by the service', kind: vscode.QuickPickItemKind.Separator } as Item]
            : []),
          ...suggestions,
        ];
      };
      refresh();
      let done = false;
      const finish = (v: string | undefined): void => {
        if (done) return;
        done = true;
        resolve(v);
        qp.dispose();
      };
      qp.onDidChangeValue((v) => {
        onText(v);
        refresh();
      });
      qp.onDidAccept(() => finish(qp.selectedItems[0]?.prompt ?? (qp.value.trim() ? qp.value : undefined)));
      qp.onDidHide(() => finish(undefined));
      qp.show();
    });
}

/** A row of the "which job?" pick. */
interface JobPickItem extends vscode.QuickPickItem {
  job: AgentJob;
}
export type PickJobInput = (items: JobPickItem[], title: string) => Thenable<JobPickItem | undefined>;

export const vscodePickJob: PickJobInput = (items, title) =>
  vscode.window.showQuickPick(items, { title, matchOnDetail: true });

const backButton = (): vscode.QuickInputButton => vscode.QuickInputButtons.Back;

/**
 * What a step's pick and input box share: the title and step count, kept open when focus moves, Back from step 2
 * on; Back and hiding (Escape) end the step.
 */
function frameStep(
  input: vscode.QuickInput & Pick<vscode.InputBox, 'buttons' | 'onDidTriggerButton'>,
  s: Pick<InputStep, 'title' | 'step' | 'totalSteps'>,
  finish: (v: typeof BACK | undefined, dispose: () => void) => void,
): void {
  input.title = s.title;
  input.step = s.step;
  input.totalSteps = s.totalSteps;
  input.ignoreFocusOut = true;
  input.buttons = s.step > 1 ? [backButton()] : [];
  input.onDidTriggerButton(() => finish(BACK, () => input.dispose()));
  input.onDidHide(() => finish(undefined, () => input.dispose()));
}

/** The default step: an input box or a quick pick, Back from step 2 on, value kept, validation live. */
export const vscodeAsk: AskInput = (step) =>
  new Promise((resolve) => {
    let done = false;
    const finish = (v: string | typeof BACK | undefined, dispose: () => void): void => {
      if (done) return;
      done = true;
      resolve(v);
      dispose();
    };
    if (step.type === 'pick') {
      const s = step as PickStep;
      const qp = vscode.window.createQuickPick<vscode.QuickPickItem & { value: string }>();
      frameStep(qp, s, finish);
      qp.placeholder = s.initialError ?? s.placeHolder;
      qp.items = s.items.map((i) => ({ label: i.label, description: i.description, value: i.value }));
      const current = qp.items.find((i) => i.value === s.value);
      if (current) qp.activeItems = [current];
      qp.onDidAccept(() => finish(qp.selectedItems[0]?.value ?? s.value, () => qp.dispose()));
      qp.show();
      return;
    }
    const t = step as InputStep;
    const box = vscode.window.createInputBox();
    frameStep(box, t, finish);
    box.prompt = t.prompt;
    box.value = t.value;
    box.placeholder = t.placeHolder;
    box.validationMessage = t.initialError;
    box.onDidChangeValue((v) => {
      box.validationMessage = t.validate(v);
    });
    box.onDidAccept(() => {
      const problem = t.validate(box.value);
      if (problem) box.validationMessage = problem;
      else finish(box.value, () => box.dispose());
    });
    box.show();
  });

/**
 * How the user answers a waiting run's approval (injected in tests): for calls, which ones (all when
 * `callIds` is left out) and whether always; for terms, explicit agreement. Undefined: not answered.
 */
export type ApproveInput = (job: AgentJob, p: PendingApproval) => Promise<ApprovalChoice | undefined>;

const APPROVE_BUTTON = 'Approve';
const ALWAYS_BUTTON = 'Approve and Always Allow';
export const OPEN_TERMS = 'Open the Terms';
const AGREE_BUTTON = 'I Agree to These Terms';

/**
 * The default approval step. Calls: with more than one, a pick of the calls (all picked), then a modal
 * with each call's provider, capability, estimate and input, and Approve / Approve and Always Allow.
 * Terms: a modal naming each provider's terms; Open the Terms opens their pages (checked, https) and
 * asks again; only I Agree to These Terms accepts them.
 */
export const vscodeApprove: ApproveInput = async (job, p) => {
  const name = `agent job "${shortLabel(job.prompt, 40)}"`;
  if (p.kind === 'terms') {
    for (;;) {
      const detail = p.terms
        .map((t) => `${termsName(t)}${t.adds ? ` (adds: ${t.adds})` : ''}${t.url ? `\n${t.url}` : ''}`)
        .join('\n\n');
      const choice = await vscode.window.showWarningMessage(
        `To go on, ${name} needs your agreement ` +
          `to ${p.terms.length === 1 ? "a provider's data terms" : `${p.terms.length} providers' data terms`}. ` +
          `Read them before you agree.`,
        { modal: true, detail },
        OPEN_TERMS,
        AGREE_BUTTON,
      );
      if (choice === AGREE_BUTTON) return { acceptTerms: true };
      if (choice !== OPEN_TERMS) return undefined;
      for (const t of p.terms) {
        const link = termsLink(t.url);
        if (link) await vscode.env.openExternal(link);
      }
    }
  }
  let chosen = p.calls;
  if (p.calls.length > 1) {
    const items = p.calls.map((c) => ({
      label: callName(c),
      description: typeof c.creditsEstimate === 'number' ? `about ${c.creditsEstimate} credits` : 'no estimate',
      detail: c.input === undefined ? undefined : shortLabel(JSON.stringify(c.input), 200),
      picked: true,
      call: c,
    }));
    const picked = await vscode.window.showQuickPick(items, {
      canPickMany: true,
      title: `Approve which paid calls of ${name}?`,
      placeHolder: 'Every call is picked; clear the ones to leave out',
    });
    if (!picked || picked.length === 0) return undefined;
    chosen = picked.map((i) => i.call);
  }
  const est = estimateWords(chosen);
  const detail = chosen
    .map((c) => `${callWords(c)}: ${c.input === undefined ? '(no input)' : shortLabel(JSON.stringify(c.input), 300)}`)
    .join('\n');
  const choice = await vscode.window.showWarningMessage(
    `Approve ${chosen.length === 1 ? 'a paid call' : `${chosen.length} paid calls`}${est ? ` (${est})` : ''} for ${name}?`,
    {
      modal: true,
      detail: `${detail}\n\nApprove and Always Allow also allows these calls in this thread's later turns without asking.`,
    },
    APPROVE_BUTTON,
    ALWAYS_BUTTON,
  );
  if (choice !== APPROVE_BUTTON && choice !== ALWAYS_BUTTON) return undefined;
  const all = chosen.length === p.calls.length;
  const ids = chosen.flatMap((c) => (c.id ? [c.id] : []));
  return { ...(all ? {} : { callIds: ids }), ...(choice === ALWAYS_BUTTON ? { always: true } : {}) };
};

/** A command's target: a job id, a tree row, or nothing (from the palette). */
export type JobTarget = string | { jobId: string } | undefined;

/** The job a command works on: the row (or id) it was invoked on, else the user's pick among the eligible ones. */
export async function pickJob(
  deps: { store: Pick<JobStore, 'get' | 'jobs'>; pick?: PickJobInput },
  target: JobTarget,
  title: string,
  eligible: (j: AgentJob) => boolean = () => true,
  none = 'No agent job in the list fits this command.',
): Promise<AgentJob | undefined> {
  const id = typeof target === 'string' ? target : target?.jobId;
  if (id !== undefined) {
    const job = deps.store.get(id);
    if (!job) void vscode.window.showWarningMessage(`Agent job ${id} is not in the list.`);
    return job;
  }
  const jobs = deps.store.jobs().filter(eligible);
  if (jobs.length === 0) {
    void vscode.window.showInformationMessage(none);
    return undefined;
  }
  const picked = await (deps.pick ?? vscodePickJob)(
    jobs.map((j) => ({
      label: shortLabel(j.prompt),
      description: stateWords(jobState(j), j.status),
      detail: j.id,
      job: j,
    })),
    title,
  );
  return picked?.job;
}
