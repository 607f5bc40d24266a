// The browser's dependency list for the fixes check: the manifest and lockfile lookup through workspace.fs, each
// dependency placed on its manifest line by the engine's line scans (src/fixesView/manifestLines.ts).
import * as vscode from 'vscode';
import { config } from '../config';
import type { WorkspaceDependencies } from '../fixes/report';
import { workspaceDependencies } from '../fixesView/manifestLines';
import { resolveManifests } from './dependencies';

export async function fixesDependencies(folder: string): Promise<WorkspaceDependencies> {
  const found = await resolveManifests(folder, { maxDependencies: config.maxDependencies() });
  const root = /^[a-z][a-z0-9+.-]*:/i.test(folder) ? vscode.Uri.parse(folder) : vscode.Uri.file(folder);
  return workspaceDependencies(folder, found.deps, async (file) => {
    try {
      return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(root, file)));
    } catch {
      return undefined;
    }
  });
}
