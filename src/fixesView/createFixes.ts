// Features side (dist/features.js): the Dependency Fixes feature over the extension's client, key and globalState.
// The folder's dependencies come from the entry (FixesWiring.dependencies), so the web build checks from manifests and
// lockfiles as its dependency search does.
import * as vscode from 'vscode';
import type { DevIndexClient } from '../api/client';
import { systemClock } from '../api/retry';
import { config } from '../config';
import { log } from '../log';
import { checkFixes } from '../fixes/check';
import type { FixesOutcome, FixesProgress, WorkspaceDependencies } from '../fixes/report';
import { FixesFeature } from './fixesFeature';
import type { FixesNode } from './fixesTree';
import { mementoCache } from './mementoCache';

export interface FixesWiring {
  client(): DevIndexClient;
  hasKey(): Promise<boolean>;
  globalState: vscode.Memento;
  openExternal(url: string): Promise<boolean>;
  /** The folder's dependencies with their manifest lines: node:fs on the desktop, workspace.fs in the browser. */
  dependencies(folder: string): Promise<WorkspaceDependencies>;
}

/** Reads the folder's dependencies and checks them (the view's, the tool's and the chat's one way in). */
export async function checkFolder(
  w: FixesWiring,
  folder: string,
  o: { signal?: AbortSignal; onProgress?(p: FixesProgress): void; dependencies?: readonly string[] },
): Promise<FixesOutcome> {
  const input = await w.dependencies(folder);
  const client = w.client();
  return checkFixes(
    input,
    {
      ...(o.signal ? { signal: o.signal } : {}),
      ...(o.onProgress ? { onProgress: o.onProgress } : {}),
      ...(o.dependencies ? { dependencies: o.dependencies } : {}),
    },
    {
      search: (params, opts) => client.search(params, opts),
      cache: mementoCache(w.globalState),
      clock: systemClock,
      service: config.baseUrl(),
      keyless: !(await w.hasKey()),
    },
  );
}

/** The active editor's workspace folder, else the first one. */
function activeFolder(): vscode.Uri | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  return (uri && vscode.workspace.getWorkspaceFolder(uri)?.uri) ?? vscode.workspace.workspaceFolders?.[0]?.uri;
}

export function createFixesFeature(view: vscode.TreeView<FixesNode>, w: FixesWiring): FixesFeature {
  return new FixesFeature(
    {
      check: (folder, o) => checkFolder(w, folder, o),
      folder: activeFolder,
      checkOnLockfileChange: () => config.fixesOnLockfileChange(),
      openExternal: (url) => w.openExternal(url),
      log: (line) => log().info(line),
    },
    view,
  );
}
