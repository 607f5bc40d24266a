// Restricted Mode (package.json `capabilities.untrustedWorkspaces`): the only process the editor
// side runs in a workspace folder is `git config`, to read the folder's remotes when the Git extension has
// not. Run with the folder as its working directory, `git` could be a program the folder itself holds
// (Windows looks for an executable in the working directory before PATH), so it is not run in a folder the
// user has not trusted. Reading manifests and installed packages' package.json runs nothing, and stays.
// vscode-free, so the unit tier checks the rule.

/** Whether the editor may run `git config` in a workspace folder with this URI scheme. */
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
