import * as vscode from 'vscode';
import { ApiKeyStore, checkKeyInput } from './apiKeyStore';
import { log } from '../log';

/** `Set API Key` / `Clear API Key`. A key passed as an argument (tests, other commands) skips the prompt. */
export function registerAuthCommands(context: vscode.ExtensionContext, keys: ApiKeyStore): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('devIndex.auth.setKey', async (given?: unknown) => {
      let key = typeof given === 'string' ? given : undefined;
      if (key === undefined) {
        key = await vscode.window.showInputBox({
          title: 'Developer Index: Set API Key',
          prompt: 'The key is kept in VS Code\'s secret storage and sent only to the configured service address.',
          password: true,
          ignoreFocusOut: true,
          validateInput: checkKeyInput,
        });
        if (key === undefined) return false;
      }
      const problem = checkKeyInput(key);
      if (problem) {
        void vscode.window.showErrorMessage(problem);
        return false;
      }
      await keys.set(key);
      log().info('API key set (stored in secret storage)');
      void vscode.window.showInformationMessage('Developer Index: API key saved. Searches now use your plan\'s rate limits.');
      return true;
    }),
    vscode.commands.registerCommand('devIndex.auth.clearKey', async () => {
      await keys.clear();
      log().info('API key cleared');
      void vscode.window.showInformationMessage('Developer Index: API key removed. Search still works without a key, at lower rate limits.');
      return true;
    }),
  );
}
