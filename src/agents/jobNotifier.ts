// The notification when a run ends: why, in plain words, with an action to show the job in the tree
// (and, for a credit limit, to open the setting that raises the default ceiling).
import * as vscode from 'vscode';
import type { Disposable } from './emitter';
import type { AgentJob } from './jobModel';
import { endMessage, jobState } from './jobState';

export const SHOW_IN_TREE = 'Show in Tree';
export const OPEN_SETTING = 'Change Default Ceiling';

export function notifyJobEnds(onDidEndJob: (l: (job: AgentJob) => void) => Disposable, reveal: (jobId: string) => Thenable<void> | void): Disposable {
  return onDidEndJob((job) => {
    const state = jobState(job);
    const msg = endMessage(job, state);
    if (!msg) return;
    const actions = state === 'credit_limit_reached' ? [SHOW_IN_TREE, OPEN_SETTING] : [SHOW_IN_TREE];
    const show = msg.severity === 'error' ? vscode.window.showErrorMessage
      : msg.severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    void Promise.resolve(show(msg.text, ...actions)).then(async (choice) => {
      if (choice === SHOW_IN_TREE) await reveal(job.id);
      if (choice === OPEN_SETTING) await vscode.commands.executeCommand('workbench.action.openSettings', 'devIndex.agent.defaultMaxCredits');
    });
  });
}
