// Activation side (dist/extension.js): the Dependency Fixes view and its commands. The feature (engine, rows,
// diagnostics) is in dist/features.js, built on the first command; until then the view is empty and shows its
// welcome text with the Check button, so opening the view loads nothing and sends nothing.
import * as vscode from 'vscode';
import type { FixesFeature } from './fixesFeature';
import type { FixesNode } from './fixesTree';

/** Mirrors FIXES_VIEW in fixesFeature.ts (the activation bundle does not load it). */
const VIEW = 'devIndex.fixes';

const FIXES_COMMANDS = {
  check: 'devIndex.fixes.check',
  cancel: 'devIndex.fixes.cancel',
  openFix: 'devIndex.fixes.openFix',
  copyLink: 'devIndex.fixes.copyLink',
  watch: 'devIndex.fixes.watch',
  searchDependency: 'devIndex.fixes.searchDependency',
  reveal: 'devIndex.fixes.reveal',
} as const;

export function registerFixes(
  context: vscode.ExtensionContext,
  build: (view: vscode.TreeView<FixesNode>) => FixesFeature,
): { loaded(): FixesFeature | undefined } {
  let feature: FixesFeature | undefined;
  const changed = new vscode.EventEmitter<FixesNode | undefined>();
  const rows: vscode.TreeDataProvider<FixesNode> = {
    onDidChangeTreeData: changed.event,
    getTreeItem: (n) => n,
    getChildren: (n) => feature?.tree.getChildren(n) ?? [],
    getParent: (n) => feature?.tree.getParent(n),
  };
  const view = vscode.window.createTreeView(VIEW, { treeDataProvider: rows, showCollapseAll: true });
  const load = (): FixesFeature => {
    if (!feature) {
      feature = build(view);
      context.subscriptions.push(
        feature,
        feature.tree.onDidChangeTreeData((e) => changed.fire(e)),
      );
    }
    return feature;
  };
  const reg = (id: string, fn: (...a: unknown[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, fn));
  context.subscriptions.push(view, changed);
  reg(FIXES_COMMANDS.check, (folder?: unknown) => load().check(folder instanceof vscode.Uri ? folder : undefined));
  reg(FIXES_COMMANDS.cancel, () => feature?.cancel() ?? false);
  reg(FIXES_COMMANDS.openFix, (node?: unknown) => load().openFix(node));
  reg(FIXES_COMMANDS.copyLink, (node?: unknown) => load().copyLink(node));
  reg(FIXES_COMMANDS.watch, (node?: unknown) => load().watch(node));
  reg(FIXES_COMMANDS.searchDependency, (node?: unknown) => load().searchDependency(node));
  reg(FIXES_COMMANDS.reveal, (key?: unknown) => load().reveal(key));
  return { loaded: () => feature };
}
