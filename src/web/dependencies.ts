// The browser's dependency search: manifests and lockfiles read through workspace.fs (github.dev's vscode-vfs
// folders included) by the desktop's pure parsers (deps/manifestDependencies.ts); the pick and the search are the
// desktop's. Also the fixes check's dependency list there.
import * as vscode from 'vscode';
import { config } from '../config';
import type { WorkspaceDependencies } from '../fixes/report';
import { workspaceDependencies } from '../fixesView/manifestLines';
import { manifestDependencies, NOT_INSTALLED_HERE } from '../deps/manifestDependencies';
import type { DependencyRow } from '../deps/dependencyPick';
import type { FolderDependencies } from '../deps/resolver';
import type { InstalledDependency } from '../versions/versionCompare';
import { pickFolder } from '../search/workspaceRepos';

/** `folder`: a URI string (or a path, read as a file URI). */
export async function resolveManifests(
  folder: string,
  opts: { maxDependencies: number; lockfileMaxBytes?: number },
): Promise<FolderDependencies> {
  const root = /^[a-z][a-z0-9+.-]*:/i.test(folder) ? vscode.Uri.parse(folder) : vscode.Uri.file(folder);
  return manifestDependencies(
    root.toString(),
    async (name, maxBytes) => {
      const uri = vscode.Uri.joinPath(root, name);
      try {
        const st = await vscode.workspace.fs.stat(uri);
        if (st.size > maxBytes) return undefined;
        return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
      } catch {
        return undefined;
      }
    },
    opts,
  );
}

/** `devIndex.deps.searchDependency({ folder?, pick?, query? })` in the browser: `{ rows, repos? }` as on the desktop. */
export async function searchDependency(arg?: unknown): Promise<{ rows: DependencyRow[]; repos?: string[] }> {
  const a = (arg && typeof arg === 'object' ? arg : {}) as { folder?: unknown; pick?: unknown; query?: unknown };
  const given =
    typeof a.folder === 'string' ? vscode.Uri.parse(a.folder) : a.folder instanceof vscode.Uri ? a.folder : undefined;
  const folder = await pickFolder(given);
  if (!folder) {
    void vscode.window.showInformationMessage(
      "Search a Dependency's Issues: open a folder (or a repository in github.dev) first.",
    );
    return { rows: [] };
  }
  const resolved = await resolveManifests(folder.uri.toString(), { maxDependencies: config.maxDependencies() });
  const rows: DependencyRow[] = resolved.deps.map((d) => ({
    name: d.name,
    ecosystem: d.ecosystem,
    ...(d.slug ? { slug: d.slug } : {}),
    ...(d.version ? { version: d.version } : {}),
    ...(d.reason ? { reason: d.reason } : {}),
  }));
  let chosen: DependencyRow[];
  if (Array.isArray(a.pick)) {
    const names = new Set(a.pick.filter((n): n is string => typeof n === 'string'));
    chosen = rows.filter((r) => names.has(r.name) && r.slug);
  } else {
    if (!rows.length) {
      void vscode.window.showInformationMessage(
        `No package.json, go.mod or Cargo.toml in ${folder.name} lists a dependency.`,
      );
      return { rows };
    }
    const items = rows.map((r) => ({
      label: r.name,
      description: `${r.ecosystem}${r.version ? ` ${r.version}` : ''}`,
      detail: r.slug ?? NOT_INSTALLED_HERE,
      row: r,
    }));
    const picked = await vscode.window.showQuickPick(items, {
      canPickMany: true,
      title: "Search which dependencies' issues?",
      placeHolder: 'Dependencies with a known GitHub repository can be searched',
    });
    chosen = (picked ?? []).map((p) => p.row).filter((r) => r.slug);
    if (picked?.length && !chosen.length)
      void vscode.window.showInformationMessage(
        `Those dependencies are ${NOT_INSTALLED_HERE}, so their repositories are unknown.`,
      );
  }
  if (!chosen.length) return { rows };
  const repos = [...new Set(chosen.map((r) => r.slug!))];
  const installed: InstalledDependency[] = chosen.map((r) => ({
    ecosystem: r.ecosystem as InstalledDependency['ecosystem'],
    name: r.name,
    slug: r.slug!,
    ...(r.version ? { version: r.version } : {}),
  }));
  const query = typeof a.query === 'string' && a.query.trim() ? a.query.trim() : 'bug';
  await vscode.commands.executeCommand('devIndex.search.run', {
    query,
    repos,
    types: ['issue', 'pull_request', 'readme'],
    installed,
  });
  return { rows, repos };
}

/** The fixes check's dependency list: each dependency placed on its manifest line by the engine's line scans. */
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
