import * as vscode from 'vscode';
import { mayRunGitIn } from './gitTrust';
import type { Host, NamedRemote } from '../host/host';
import { remotesOfVfsUri } from './repoSlug';

interface GitRemote {
  name: string;
  fetchUrl?: string;
  pushUrl?: string;
}
interface GitRepository {
  rootUri: vscode.Uri;
  state: { remotes: GitRemote[] };
}
interface GitApi {
  repositories: GitRepository[];
  getRepository(uri: vscode.Uri): GitRepository | null;
}

/** The built-in Git extension's API (version 1), when it is there and enabled. */
async function gitApi(): Promise<GitApi | undefined> {
  const ext = vscode.extensions.getExtension<{ getAPI(v: 1): GitApi; enabled?: boolean }>('vscode.git');
  if (!ext) return undefined;
  try {
    const exports = ext.isActive ? ext.exports : await ext.activate();
    if (exports.enabled === false) return undefined;
    return exports.getAPI(1);
  } catch {
    return undefined;
  }
}

/** The remotes of the repository that holds `folder`. */
export async function remotesOf(folder: vscode.Uri, host: Host): Promise<NamedRemote[]> {
  // github.dev / vscode.dev (and Remote Repositories on the desktop): the URI names the repository, no git needed.
  if (folder.scheme === 'vscode-vfs') return remotesOfVfsUri(folder);
  const api = await gitApi();
  const repo = api?.getRepository(folder) ?? undefined;
  if (repo && repo.state.remotes.length) {
    return repo.state.remotes
      .map((r) => ({ name: r.name, url: r.fetchUrl ?? r.pushUrl ?? '' }))
      .filter((r) => r.url !== '');
  }
  // Not in Restricted Mode (gitTrust.ts): the Git extension is off there too, so an untrusted folder has no remotes.
  return mayRunGitIn(folder.scheme, vscode.workspace.isTrusted) ? host.remotesFromGitConfig(folder.fsPath) : [];
}

/** Which workspace folder to scope to: the only one, or the user's pick with the active editor's folder first. */
export async function pickFolder(given?: vscode.Uri): Promise<vscode.WorkspaceFolder | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  // A folder passed in (by another command or a test) need not be open in the workspace.
  if (given)
    return (
      vscode.workspace.getWorkspaceFolder(given) ?? {
        uri: given,
        name: given.path.split('/').filter(Boolean).pop() ?? given.path,
        index: -1,
      }
    );
  if (folders.length <= 1) return folders[0];
  const active = vscode.window.activeTextEditor?.document.uri;
  const current = active ? vscode.workspace.getWorkspaceFolder(active) : undefined;
  const ordered = current ? [current, ...folders.filter((f) => f !== current)] : [...folders];
  const pick = await vscode.window.showQuickPick(
    ordered.map((f) => ({ label: f.name, description: f === current ? 'active editor' : f.uri.fsPath, folder: f })),
    {
      title: 'Developer Index: Search in which repository?',
      placeHolder: 'Workspace folder whose git remotes scope the search',
    },
  );
  return pick?.folder;
}
