// Features side (dist/features.js, loaded on first use): the editor half of "search from where the question starts".
// Providers answer from DependencyCache without waiting; resolution and the index's echo run in the background.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DevIndexClient } from '../api/client';
import type { RepositoryEcho } from '../api/schemas';
import { config } from '../config';
import { log } from '../log';
import { DependencyCache, rootForFile } from './cache';
import { cleanMessage } from './messages';
import {
  framesInText,
  packagesInText,
  packagesOfProblem,
  type PackageRef,
  type ProblemArgs,
  type ProblemFacts,
} from './packageRefs';
import { dependencyAtPath, installedNpmDependency } from './installLocation';
import type { DependencyIndex } from './cache';
import { MANIFEST_GLOB, MANIFEST_NAMES } from './manifests';
import type { Dependency } from './resolver';
import { importAt } from './importAt';
import { installedOf, pickRow, showDependencyPick, type DependencyRow } from './dependencyPick';
import { installedChipLabel } from '../words/viewWords';
import type { InstalledDependency } from '../versions/versionCompare';

const REPO_TYPES = ['issue', 'pull_request', 'readme'] as const;
interface DependencySearchPorts {
  /** Runs a search in the Search view (`devIndex.search.run` with a request object). */
  run(request: { query: string; repos?: string[]; types?: string[]; installed?: InstalledDependency[] }): Promise<void>;
  /** One cheap search with `repos` set, for the echo (k=1, repository types). */
  echo(slugs: string[]): Promise<RepositoryEcho[]>;
  maxDependencies(): number;
}

export class DependencySearch implements vscode.Disposable {
  readonly cache: DependencyCache;
  private readonly disposables: vscode.Disposable[] = [];
  /** File folder -> the root whose dependencies it uses (null: none), found off the provider path. */
  private readonly rootOfDir = new Map<string, string | null>();
  private readonly echoes = new Map<string, { echo: RepositoryEcho; at: number }>();
  private readonly watched = new Map<string, vscode.Disposable>();

  constructor(private readonly ports: DependencySearchPorts) {
    this.cache = new DependencyCache(
      () => ({ maxDependencies: ports.maxDependencies() }),
      (root, index) => this.resolved(root, index),
    );
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.rootOfDir.clear();
        this.cache.invalidate();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('devIndex.dependencies.maxDependencies')) this.cache.invalidate();
      }),
    );
  }

  /** Logs a resolution and, the first time, watches that folder's manifests and lockfiles (inside a workspace folder or not). */
  private resolved(root: string, index: DependencyIndex): void {
    log().info(
      `dependencies of ${root}: ${index.folder.deps.filter((d) => d.slug).length} ` +
        `of ${index.folder.deps.length} resolved to a repository in ${Math.round(index.folder.ms)} ` +
        `ms${index.folder.truncated ? ` (bounded at ${index.folder.deps.length} of ${index.folder.total})` : ''}`,
    );
    if (this.watched.has(root)) return;
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(root), MANIFEST_GLOB),
    );
    const changed = () => {
      this.cache.invalidate(root);
      this.rootOfDir.clear();
    };
    const subs = vscode.Disposable.from(
      watcher,
      watcher.onDidChange(changed),
      watcher.onDidCreate(changed),
      watcher.onDidDelete(changed),
    );
    this.watched.set(root, subs);
    this.disposables.push(subs);
  }

  /** The root for a document, from memory only; unknown roots are found in the background. */
  private peekRoot(uri: vscode.Uri): string | undefined {
    if (uri.scheme !== 'file') return undefined;
    const ws = vscode.workspace.getWorkspaceFolder(uri);
    if (ws) return ws.uri.fsPath;
    const dir = path.dirname(uri.fsPath);
    const known = this.rootOfDir.get(dir);
    if (known !== undefined) return known ?? undefined;
    void this.findRoot(uri);
    return undefined;
  }

  /** The root for a document, reading the disk when needed (commands, not providers). */
  async findRoot(uri: vscode.Uri): Promise<string | undefined> {
    if (uri.scheme !== 'file') return undefined;
    const ws = vscode.workspace.getWorkspaceFolder(uri);
    if (ws) return ws.uri.fsPath;
    const dir = path.dirname(uri.fsPath);
    if (this.rootOfDir.has(dir)) return this.rootOfDir.get(dir) ?? undefined;
    const has = new Map<string, boolean>();
    for (let d = dir; ; d = path.dirname(d)) {
      has.set(
        d,
        (
          await Promise.all(
            MANIFEST_NAMES.map((m) =>
              fsp.stat(path.join(d, m)).then(
                () => true,
                () => false,
              ),
            ),
          )
        ).some(Boolean),
      );
      if (has.get(d) || path.dirname(d) === d) break;
    }
    const root = rootForFile(uri.fsPath, [], (d) => has.get(d) === true, path.sep) ?? null;
    this.rootOfDir.set(dir, root);
    return root ?? undefined;
  }

  private async indexFor(uri: vscode.Uri | undefined): Promise<DependencyIndex | undefined> {
    const root = uri ? await this.findRoot(uri) : vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    return root ? this.cache.get(root) : undefined;
  }

  // Providers answer from memory only.
  /** The repository a problem is scoped to, if the document's dependencies are resolved already. */
  scopeOf(uri: vscode.Uri, facts: ProblemFacts): Dependency | undefined {
    const root = this.peekRoot(uri);
    const index = root ? this.cache.peek(root) : undefined;
    return index?.firstResolved(packagesOfProblem(facts));
  }

  hover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const root = this.peekRoot(document.uri);
    const index = root ? this.cache.peek(root) : undefined;
    if (!index) return undefined;
    const line = document.lineAt(position.line).text;
    if (line.length > 2000) return undefined; // a minified line: no import to read, and no time to spend
    const imp = importAt(line, position.character, document.languageId);
    if (!imp) return undefined;
    const dep = index.lookup(imp.ref);
    if (!dep?.slug) return undefined;
    const md = new vscode.MarkdownString(undefined, true);
    const search = encodeURIComponent(
      JSON.stringify([
        { name: dep.name, slug: dep.slug, ecosystem: dep.ecosystem, ...(dep.version ? { version: dep.version } : {}) },
      ]),
    );
    const open = encodeURIComponent(JSON.stringify([dep.slug]));
    md.isTrusted = { enabledCommands: ['devIndex.deps.searchPackage', 'devIndex.deps.openRepository'] };
    md.appendMarkdown(
      `$(search) [Search issues of ${escapeMd(dep.name)}](command:devIndex.deps.searchPackage?${search} ` +
        `"Search the developer index in ${dep.slug}")`,
    );
    md.appendMarkdown(` · $(package) ${escapeMd(dep.version ? `${dep.version} installed` : 'version unknown')}`);
    md.appendMarkdown(
      ` · $(github) [Open ${escapeMd(dep.slug)}](command:devIndex.deps.openRepository?${open} "https://github.com/${dep.slug}")`,
    );
    const echo = this.echoes.get(dep.slug.toLowerCase())?.echo;
    if (echo) md.appendMarkdown(`\n\n${echo.indexed ? 'In the developer index' : 'Not in the developer index yet'}`);
    return new vscode.Hover(md, new vscode.Range(position.line, imp.start, position.line, imp.end));
  }

  /** The code action's command: the cleaned message, scoped to the package the problem points into. */
  async searchProblem(args: ProblemArgs): Promise<{ query: string; repos?: string[] }> {
    const query = cleanMessage(args.message) || args.message.trim().slice(0, 400);
    const uri = args.uri ? vscode.Uri.parse(args.uri) : undefined;
    const index = await this.indexFor(uri);
    const refs = packagesOfProblem(args);
    let dep = index?.firstResolved(refs);
    // Not in the folder's manifest (a monorepo package's own dependency, a transitive import): ask node_modules from the file up.
    for (const r of dep || uri?.scheme !== 'file' ? [] : refs.filter((x) => x.ecosystem === 'npm')) {
      dep = await installedNpmDependency(path.dirname(uri!.fsPath), r.name);
      if (dep) break;
    }
    return this.runScoped(query, dep?.slug ? [dep] : undefined);
  }

  /** Terminal selection (or the given text): cleaned, scoped to the package its frames point into. */
  async searchTerminalText(given?: unknown): Promise<{ query: string; repos?: string[] } | undefined> {
    let text = typeof given === 'string' ? given : await terminalSelection();
    if (!text?.trim() && typeof given !== 'string') {
      // No selection, or a clipboard the editor may not read (a browser without the permission): ask for the text.
      text = await vscode.window.showInputBox({
        title: 'Developer Index: Search for Terminal Text',
        prompt: 'The terminal selection could not be read. Paste the error or stack trace to search for.',
        ignoreFocusOut: true,
      });
    }
    if (!text?.trim()) return undefined;
    const query = cleanMessage(text);
    if (!query) {
      void vscode.window.showInformationMessage(
        'Developer Index: the selection holds only paths, numbers and stack frames; nothing to search for.',
      );
      return undefined;
    }
    const dep = await this.dependencyOfText(text);
    return this.runScoped(query, dep?.slug ? [dep] : undefined);
  }

  /** The first frame (innermost) whose installed package names a repository: read from the install, else the workspace's index. */
  async dependencyOfText(text: string): Promise<Dependency | undefined> {
    const frames = framesInText(text);
    for (const f of frames) {
      const d = f.path ? await dependencyAtPath(f.path, f.ref) : undefined;
      if (d?.slug) return d;
    }
    const refs: PackageRef[] = packagesInText(text);
    for (const f of vscode.workspace.workspaceFolders ?? []) {
      const d = (await this.cache.get(f.uri.fsPath)).firstResolved(refs);
      if (d) return d;
    }
    return undefined;
  }

  private async runScoped(
    query: string,
    deps: ReadonlyArray<Dependency | DependencyRow> | undefined,
  ): Promise<{ query: string; repos?: string[]; installed?: InstalledDependency[] }> {
    const repos = deps ? [...new Set(deps.filter((d) => d.slug).map((d) => d.slug!))] : undefined;
    const installed = deps ? installedOf(deps) : [];
    // `repos` is always named (empty: no scope), so the view never carries an earlier search's scope over.
    const request: { query: string; repos: string[]; types?: string[]; installed?: InstalledDependency[] } = {
      query,
      repos: repos ?? [],
      ...(installed.length ? { installed } : {}),
    };
    if (repos?.length) {
      const types = config.searchDefaults().types;
      // A scope needs a repository type in `types` (rule 3): add them when the defaults hold none.
      if (!types.some((t) => (REPO_TYPES as readonly string[]).includes(t)))
        request.types = [...new Set([...types, ...REPO_TYPES])];
    }
    await this.ports.run(request);
    return request;
  }

  /** Hover link "Search issues of <package>": asks the question, searches issues and pull requests of its repository. */
  async searchPackage(arg: unknown, given?: string): Promise<void> {
    const a = arg as { name?: unknown; slug?: unknown; ecosystem?: unknown; version?: unknown } | undefined;
    if (typeof a?.slug !== 'string' || !/^[\w.-]+\/[\w.-]+$/.test(a.slug)) return;
    const name = typeof a.name === 'string' ? a.name : a.slug;
    const version = typeof a.version === 'string' ? a.version : undefined;
    const ecosystem =
      typeof a.ecosystem === 'string' && ['npm', 'go', 'cargo', 'pypi'].includes(a.ecosystem)
        ? (a.ecosystem as InstalledDependency['ecosystem'])
        : undefined;
    const query =
      given ??
      (
        await vscode.window.showInputBox({
          title: `Developer Index: Search issues of ${version ? `${name} ${version}` : name} (${a.slug})`,
          prompt: 'A question or error message; issues and pull requests of this repository are searched.',
          ignoreFocusOut: true,
          validateInput: (v) => (v.trim() ? undefined : 'query must be at least 1 character'),
        })
      )?.trim();
    if (!query) return;
    await this.ports.run({
      query,
      repos: [a.slug],
      types: ['issue', 'pull_request'],
      ...(ecosystem ? { installed: [{ ecosystem, name, slug: a.slug, ...(version ? { version } : {}) }] } : {}),
    });
  }

  /** The dependencies of a folder (given, else the active editor's, else the first) with the index's echo. */
  async rows(
    folder?: vscode.Uri,
  ): Promise<{ root?: string; rows: DependencyRow[]; truncated: boolean; total: number }> {
    const uri = folder ?? vscode.window.activeTextEditor?.document.uri;
    const root =
      (uri && (folder ? folder.fsPath : await this.findRoot(uri))) ??
      vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!root) return { rows: [], truncated: false, total: 0 };
    const index = await this.cache.get(root);
    const rows = index.folder.deps.map(pickRow);
    return { root, rows, truncated: index.folder.truncated, total: index.folder.total };
  }

  /** Fills `indexed`/`types` from the `repos` echo: one search per 100 unseen slugs, answers kept 10 minutes. */
  async withEcho(rows: DependencyRow[]): Promise<DependencyRow[]> {
    const now = Date.now();
    const slugs = [...new Set(rows.filter((r) => r.slug).map((r) => r.slug!))];
    const missing = slugs.filter((s) => {
      const e = this.echoes.get(s.toLowerCase());
      return !e || now - e.at > 600_000;
    });
    for (let i = 0; i < missing.length; i += 100) {
      for (const e of await this.ports.echo(missing.slice(i, i + 100)))
        this.echoes.set(e.repo.toLowerCase(), { echo: e, at: now });
    }
    return rows.map((r) => {
      const e = r.slug ? this.echoes.get(r.slug.toLowerCase())?.echo : undefined;
      return e
        ? {
            ...r,
            indexed: e.indexed,
            types: { issue: !!e.types?.issue, pullRequest: !!e.types?.pullRequest, readme: !!e.types?.readme },
          }
        : r;
    });
  }

  /**
   * "Search in a Dependency's Repository…": a multi-select pick of the dependencies with their slugs and the
   * echo's indexed flags, then the question; `{ folder, pick: [names], query }` skips the prompts.
   */
  async pickAndSearch(arg?: unknown): Promise<{ rows: DependencyRow[]; repos?: string[] } | undefined> {
    const a = (arg ?? {}) as { folder?: vscode.Uri | string; pick?: string[]; query?: string };
    const folder = typeof a.folder === 'string' ? vscode.Uri.file(a.folder) : a.folder;
    const listed = await this.rows(folder);
    if (!listed.root) {
      void vscode.window.showInformationMessage(
        'Developer Index: open a folder with a package.json, go.mod, ' +
          'Cargo.toml or a Python virtual environment to search its dependencies.',
      );
      return undefined;
    }
    let rows = listed.rows;
    let chosen: DependencyRow[];
    if (a.pick) {
      rows = await this.echoSafely(rows);
      chosen = rows.filter((r) => r.slug && a.pick!.includes(r.name));
    } else {
      chosen = await showDependencyPick(rows, listed, (rs) => this.echoSafely(rs));
    }
    if (!chosen.length) return { rows };
    const repos = [...new Set(chosen.map((r) => r.slug!))];
    const chipLabels = chosen.map((r) =>
      installedChipLabel({ slug: r.slug!, ...(r.version ? { version: r.version } : {}) }),
    );
    const query =
      a.query?.trim() ||
      (
        await vscode.window.showInputBox({
          title: `Developer Index: Search in ${chipLabels.join(', ')}`,
          prompt: 'A question or error message; the repository half is scoped to the picked repositories.',
          ignoreFocusOut: true,
          validateInput: (v) => (v.trim() ? undefined : 'query must be at least 1 character'),
        })
      )?.trim();
    if (!query) return { rows };
    await this.runScoped(query, chosen);
    return { rows, repos };
  }

  private async echoSafely(rows: DependencyRow[]): Promise<DependencyRow[]> {
    try {
      return await this.withEcho(rows);
    } catch (e) {
      log().warn(
        `dependency pick: the index could not say which repositories it has: ${e instanceof Error ? e.message : String(e)}`,
      );
      return rows;
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

function escapeMd(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+!|<>]/g, '\\$&');
}

/** The terminal has no selection API in 1.95: copy it, read the clipboard, put the clipboard back. */
async function terminalSelection(): Promise<string | undefined> {
  const before = await vscode.env.clipboard.readText();
  await vscode.env.clipboard.writeText('');
  await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
  const text = await vscode.env.clipboard.readText();
  await vscode.env.clipboard.writeText(before);
  return text || undefined;
}

/** The service wired to the Search view (`devIndex.search.run`) and the client (the echo). */
export function createDependencySearch(client: () => DevIndexClient): DependencySearch {
  return new DependencySearch({
    run: async (request) => {
      await vscode.commands.executeCommand('devIndex.search.run', request);
    },
    // The cheapest request that brings the echo: one README result.
    echo: async (repos) =>
      (await client().search({ query: 'README', k: 1, passages: 1, types: ['readme'], repos })).repos ?? [],
    maxDependencies: () => config.maxDependencies(),
  });
}
