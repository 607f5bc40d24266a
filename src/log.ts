import * as vscode from 'vscode';

let channel: vscode.LogOutputChannel | undefined;

/** The one `Developer Index` log channel. Callers never pass a key; request lines carry method, path, status, attempts and time only. */
export function log(): vscode.LogOutputChannel {
  channel ??= vscode.window.createOutputChannel('Developer Index', { log: true });
  return channel;
}

export function disposeLog(): void {
  channel?.dispose();
  channel = undefined;
}
