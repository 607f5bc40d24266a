import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('devIndex.search.open', () => vscode.commands.executeCommand('workbench.view.extension.devIndex')),
  );
}

export function deactivate(): void {}
