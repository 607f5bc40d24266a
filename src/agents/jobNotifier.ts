// The notification when a run ends: why, in plain words, with the next step as buttons (Open Result or Open Answer
// first; Start Again… after a refusal, a failure or a credit limit, with Open Partial Result when there is one).
import * as vscode from 'vscode';
import type { Disposable } from './emitter';
import type { AgentJob } from './jobModel';
import {
  ASK_FOLLOW_UP,
  editorEndMessage,
  endActions,
  type EndMessage,
  jobState,
  OPEN_ANSWER,
  OPEN_PARTIAL,
  OPEN_RESULT,
  SHOW_IN_TREE,
  START_AGAIN,
} from './jobState';

interface EndActions {
  reveal(jobId: string): Thenable<void> | void;
  openResult(jobId: string, which: 'result' | 'partial'): Thenable<unknown> | void;
  openAnswer?(jobId: string): Thenable<unknown> | void;
  followUp?(jobId: string): Thenable<unknown> | void;
  startAgain(jobId: string): Thenable<unknown> | void;
}

/** Shows one notification and resolves with the button chosen (undefined when dismissed). */
export type ShowNotification = (
  severity: EndMessage['severity'],
  text: string,
  buttons: string[],
) => Thenable<string | undefined>;

export const vscodeNotification: ShowNotification = (severity, text, buttons) =>
  severity === 'error'
    ? vscode.window.showErrorMessage(text, ...buttons)
    : severity === 'warning'
      ? vscode.window.showWarningMessage(text, ...buttons)
      : vscode.window.showInformationMessage(text, ...buttons);

export function notifyJobEnds(
  onDidEndJob: (l: (job: AgentJob) => void) => Disposable,
  act: EndActions,
  show: ShowNotification = vscodeNotification,
): Disposable {
  return onDidEndJob((job) => {
    const state = jobState(job);
    const msg = editorEndMessage(job, state);
    if (!msg) return;
    void Promise.resolve(show(msg.severity, msg.text, endActions(job, state))).then(async (choice) => {
      if (choice === SHOW_IN_TREE) await act.reveal(job.id);
      if (choice === OPEN_RESULT) await act.openResult(job.id, 'result');
      if (choice === OPEN_PARTIAL) await act.openResult(job.id, 'partial');
      if (choice === START_AGAIN) await act.startAgain(job.id);
      if (choice === OPEN_ANSWER) await act.openAnswer?.(job.id);
      if (choice === ASK_FOLLOW_UP) await act.followUp?.(job.id);
    });
  });
}
