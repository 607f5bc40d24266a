// Features side (dist/features.js): Check Dependencies for Fixes in the editor. One check at a time (a new one cancels
// the one running), its progress in the view, the report as rows and as information diagnostics on the manifest
// lines, a Quick Fix that reveals a row, and (only when the user turned it on) a check again when a lockfile changes.
import * as vscode from 'vscode';
import { failureOf } from '../api/failure';
import { editorWords } from '../words/failureWords';
import { fixDiagnostics } from './fixDiagnostics';
import { summaryLine } from './fixRows';
import { DependencyNode, FixNode, FixesTree, type FixesNode } from './fixesTree';
import type { FixesOutcome, FixesProgress } from '../fixes/report';

export const FIXES_VIEW = 'devIndex.fixes';
const DIAGNOSTIC_SOURCE = 'Developer Index';
const RUNNING_KEY = 'devIndex.fixes.running';
const MANIFEST_SELECTOR = '**/{package.json,pyproject.toml,requirements*.txt,go.mod,Cargo.toml}';
const LOCKFILE_GLOB =
  '{package-lock.json,npm-shrinkwrap.json,yarn.lock,pnpm-lock.yaml,go.sum,Cargo.lock,poetry.lock,uv.lock,Pipfile.lock}';
/** Lockfiles change in bursts (an install writes several): one check after the burst. */
const LOCKFILE_SETTLE_MS = 2000;

interface FixesPorts {
  /** The engine over the folder (a path, or a URI string where the folder is not on disk). */
  check(folder: string, o: { signal: AbortSignal; onProgress(p: FixesProgress): void }): Promise<FixesOutcome>;
  /** The folder to check when the command names none (the active editor's workspace folder, else the first). */
  folder(): vscode.Uri | undefined;
  checkOnLockfileChange(): boolean;
  openExternal(url: string): Promise<boolean>;
  log(line: string): void;
}

type TreeView = Pick<vscode.TreeView<FixesNode>, 'reveal' | 'visible'> & { message?: string | undefined };

export class FixesFeature implements vscode.Disposable {
  readonly tree = new FixesTree();
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('devIndex.fixes');
  private readonly disposables: vscode.Disposable[] = [this.tree, this.diagnostics];
  private running: AbortController | undefined;
  private lockWatch: { folder: string; sub: vscode.Disposable } | undefined;
  private settle: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ports: FixesPorts,
    private readonly view: TreeView,
  ) {
    this.disposables.push(
      vscode.languages.registerCodeActionsProvider(
        { pattern: MANIFEST_SELECTOR },
        { provideCodeActions: (_d, _r, ctx) => this.quickFixes(ctx.diagnostics) },
        { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
      ),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('devIndex.fixes.checkOnLockfileChange') && !ports.checkOnLockfileChange())
          this.stopWatching();
      }),
    );
  }

  /** Runs a check of `folder` (default: the active editor's workspace folder); resolves with the outcome, if any. */
  async check(folder?: vscode.Uri): Promise<FixesOutcome | undefined> {
    const uri = folder ?? this.ports.folder();
    if (!uri) {
      void vscode.window.showInformationMessage('Check Dependencies for Fixes: open a folder with a manifest first.');
      return undefined;
    }
    this.running?.abort();
    const ctl = new AbortController();
    this.running = ctl;
    const name = uri.path.split('/').filter(Boolean).pop() ?? uri.toString();
    this.tree.set({ kind: 'running', line: `Reading the dependencies of ${name}…` });
    this.view.message = undefined;
    void vscode.commands.executeCommand('setContext', RUNNING_KEY, true);
    try {
      const outcome = await vscode.window.withProgress({ location: { viewId: FIXES_VIEW } }, () =>
        this.ports.check(uri.scheme === 'file' ? uri.fsPath : uri.toString(), {
          signal: ctl.signal,
          onProgress: (p) => {
            if (this.running === ctl) this.tree.set({ kind: 'running', line: progressLine(p) });
          },
        }),
      );
      if (this.running !== ctl) return outcome;
      this.tree.set({ kind: 'done', outcome, folder: uri.toString() });
      this.view.message = summaryLine(outcome, name);
      await this.showDiagnostics(uri, outcome);
      this.ports.log(`fixes: ${this.view.message}${outcome.stop ? `; stopped: ${outcome.stop.message}` : ''}`);
      if (this.ports.checkOnLockfileChange()) this.watchLockfiles(uri);
      return outcome;
    } catch (e) {
      if (this.running !== ctl) return undefined;
      const f = failureOf(e);
      this.tree.set(
        f.reason === 'cancelled'
          ? { kind: 'failed', message: 'Check cancelled: nothing was changed' }
          : { kind: 'failed', message: `The check failed: ${editorWords(f)}` },
      );
      return undefined;
    } finally {
      if (this.running === ctl) {
        this.running = undefined;
        void vscode.commands.executeCommand('setContext', RUNNING_KEY, false);
      }
    }
  }

  /** Cancel Check (the view's title button while a check runs). */
  cancel(): boolean {
    if (!this.running) return false;
    this.running.abort();
    return true;
  }

  /** The Quick Fix's target: the dependency's row, shown and selected. */
  async reveal(key: unknown): Promise<boolean> {
    const node = typeof key === 'string' ? this.tree.dependencyNode(key) : undefined;
    if (!node) return false;
    if (!this.view.visible)
      await vscode.commands.executeCommand(`${FIXES_VIEW}.focus`).then(undefined, () => undefined);
    await this.view.reveal(node, { select: true, focus: true, expand: true });
    return true;
  }

  /** Open (the row's click and its menu): the result on GitHub, through the checked opener. */
  openFix(node: unknown): Promise<boolean> {
    return node instanceof FixNode ? this.ports.openExternal(node.row.fix.url) : Promise.resolve(false);
  }

  async copyLink(node: unknown): Promise<string | undefined> {
    if (!(node instanceof FixNode)) return undefined;
    await vscode.env.clipboard.writeText(node.row.fix.url);
    vscode.window.setStatusBarMessage(`$(check) Copied ${node.row.fix.url}`, 3000);
    return node.row.fix.url;
  }

  /** Watch for a Fix: the fix's title searched in the dependency's repository (the Search view shows it), then watched. */
  async watch(node: unknown): Promise<unknown> {
    if (!(node instanceof FixNode)) return undefined;
    const { dep, fix } = node.row;
    await vscode.commands.executeCommand('devIndex.search.run', {
      query: fix.title || fix.id,
      repos: [dep.repository],
      types: ['issue', 'pull_request'],
      installed: [{ ecosystem: dep.ecosystem, name: dep.name, slug: dep.repository, version: dep.installed }],
    });
    return vscode.commands.executeCommand('devIndex.watch.add');
  }

  /** Search in This Dependency: the dependency search's own input box, scoped to its repository and version. */
  searchDependency(node: unknown): Thenable<unknown> | undefined {
    const dep = node instanceof DependencyNode ? node.row.dep : node instanceof FixNode ? node.row.dep : undefined;
    if (!dep) return undefined;
    return vscode.commands.executeCommand('devIndex.deps.searchPackage', {
      name: dep.name,
      slug: dep.repository,
      ecosystem: dep.ecosystem,
      version: dep.installed,
    });
  }

  private quickFixes(diagnostics: readonly vscode.Diagnostic[]): vscode.CodeAction[] {
    return diagnostics
      .filter((d) => d.source === DIAGNOSTIC_SOURCE && typeof d.code === 'string' && d.code.startsWith('fixes:'))
      .map((d) => {
        const key = (d.code as string).slice('fixes:'.length);
        const name = key.slice(key.indexOf(':') + 1);
        const action = new vscode.CodeAction(
          `Show the fixes ${name} lacks (Dependency Fixes)`,
          vscode.CodeActionKind.QuickFix,
        );
        action.diagnostics = [d];
        action.isPreferred = true;
        action.command = { command: 'devIndex.fixes.reveal', title: action.title, arguments: [key] };
        return action;
      });
  }

  private async showDiagnostics(folder: vscode.Uri, outcome: FixesOutcome): Promise<void> {
    const files = new Map<string, string[] | undefined>();
    for (const d of outcome.report.dependencies) {
      if (!d.manifest || files.has(d.manifest.file) || !(d.fixes.length || d.affecting.length)) continue;
      try {
        const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, d.manifest.file));
        files.set(d.manifest.file, new TextDecoder('utf-8').decode(bytes).split(/\r?\n/));
      } catch {
        files.set(d.manifest.file, undefined);
      }
    }
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const f of fixDiagnostics(outcome.report, (file, line) => files.get(file)?.[line])) {
      const d = new vscode.Diagnostic(
        new vscode.Range(f.line, f.start, f.line, f.end),
        f.message,
        vscode.DiagnosticSeverity.Information,
      );
      d.source = DIAGNOSTIC_SOURCE;
      d.code = `fixes:${f.key}`;
      byFile.set(f.file, [...(byFile.get(f.file) ?? []), d]);
    }
    this.diagnostics.clear();
    for (const [file, list] of byFile) this.diagnostics.set(vscode.Uri.joinPath(folder, file), list);
  }

  private watchLockfiles(folder: vscode.Uri): void {
    if (this.lockWatch?.folder === folder.toString()) return;
    this.stopWatching();
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, LOCKFILE_GLOB));
    const changed = () => {
      if (this.settle) clearTimeout(this.settle);
      this.settle = setTimeout(() => {
        this.settle = undefined;
        this.ports.log('fixes: a lockfile changed; checking again (devIndex.fixes.checkOnLockfileChange)');
        void this.check(folder);
      }, LOCKFILE_SETTLE_MS);
    };
    this.lockWatch = {
      folder: folder.toString(),
      sub: vscode.Disposable.from(watcher, watcher.onDidChange(changed), watcher.onDidCreate(changed)),
    };
  }

  private stopWatching(): void {
    this.lockWatch?.sub.dispose();
    this.lockWatch = undefined;
    if (this.settle) clearTimeout(this.settle);
    this.settle = undefined;
  }

  dispose(): void {
    this.running?.abort();
    this.stopWatching();
    for (const d of this.disposables) d.dispose();
  }
}

/** The running row's words. */
export function progressLine(p: FixesProgress): string {
  switch (p.kind) {
    case 'started':
      return `Checking ${p.total} dependencies${p.cached ? ` (${p.cached} from the cache)` : ''}…`;
    case 'checked':
      return `Checked ${p.done} of ${p.total}: ${p.name}${p.fixes ? ` (${p.fixes} ${p.fixes === 1 ? 'fix' : 'fixes'} you lack)` : ''}`;
    case 'stopped':
      return `Stopped after ${p.done} of ${p.total}: ${p.stop.message}`;
  }
}
