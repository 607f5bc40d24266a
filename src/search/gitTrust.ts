// Restricted Mode (package.json `capabilities.untrustedWorkspaces`): whether the editor may run `git config` in a
// workspace folder, the only process it runs there, and the words when it may not. vscode-free.

/**
 * Whether the editor may run `git config` in a workspace folder with this URI scheme. With the folder as its working
 * directory, `git` could be a program the folder holds (Windows looks there before PATH), so an untrusted folder's
 * remotes are not read this way. Reading manifests runs nothing, and stays.
 */
export function mayRunGitIn(scheme: string, workspaceTrusted: boolean): boolean {
  return scheme === 'file' && workspaceTrusted;
}

/** What Search in This Repository says when Restricted Mode kept it from reading a local folder's remotes. */
export function restrictedModeWords(folderName: string): string {
  return (
    `Developer Index: "${folderName}" is open in Restricted Mode, where the extension does not run git to read its remotes. ` +
    'Trust the folder (Workspaces: Manage Workspace Trust) to search within its repository.'
  );
}
