import * as vscode from 'vscode';
import { ApiKeyStore, checkKeyInput } from './apiKeyStore';
import type { KeyCheck } from './verifyKey';
import { log } from '../log';

interface AuthDeps {
  /** One cheap authenticated request with the candidate key (src/auth/verifyKey.ts, through core()). */
  verify(key: string): Promise<KeyCheck>;
}

/**
 * `Set API Key` / `Clear API Key`. A key passed as an argument (tests, other commands) skips the prompt,
 * not the checks. The key is checked with the service before it is said to work: a 401 keeps the old key
 * and says this one was refused; no conclusive answer (offline, timeout, 5xx) saves it and says it will be
 * checked by the next request.
 */
export function registerAuthCommands(context: vscode.ExtensionContext, keys: ApiKeyStore, deps: AuthDeps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('devIndex.auth.setKey', async (given?: unknown) => {
      let key = typeof given === 'string' ? given : undefined;
      if (key === undefined) {
        key = await vscode.window.showInputBox({
          title: 'Developer Index: Set API Key',
          prompt: "The key is kept in VS Code's secret storage and sent only to the configured service address.",
          password: true,
          ignoreFocusOut: true,
          validateInput: checkKeyInput,
        });
        if (key === undefined) return false;
      }
      const problem = checkKeyInput(key);
      if (problem) {
        void vscode.window.showErrorMessage(`Developer Index: ${problem}`);
        return false;
      }
      const check = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: 'Developer Index: checking the API key…' },
        () =>
          deps.verify(key.trim()).catch((e: unknown): KeyCheck => ({
            outcome: 'unchecked',
            reason: e instanceof Error ? e.message : String(e),
          })),
      );
      if (check.outcome === 'refused') {
        log().warn('API key refused by the service (HTTP 401); not saved');
        // Not awaited: the command answers now (false: not saved); "Save Anyway" is for a key meant for another address.
        void vscode.window
          .showErrorMessage(
            `Developer Index: the service refused this API key (HTTP 401: ${check.message}). ` +
              `It was not saved; check that you copied the whole key.`,
            'Set API Key',
            'Save Anyway',
          )
          .then(async (pick) => {
            if (pick === 'Set API Key') void vscode.commands.executeCommand('devIndex.auth.setKey');
            if (pick === 'Save Anyway') {
              await keys.set(key);
              log().info('API key set although the service refused it (stored in secret storage)');
              void vscode.window.showWarningMessage(
                'Developer Index: API key saved as you asked, although the service refused it: ' +
                  'requests will fail with HTTP 401 until it is replaced.',
              );
            }
          });
        return false;
      }
      await keys.set(key);
      if (check.outcome === 'accepted') {
        log().info('API key set (stored in secret storage; the service accepted it)');
        void vscode.window.showInformationMessage(
          "Developer Index: API key saved and accepted by the service. Searches now use your plan's rate limits.",
        );
      } else {
        log().warn(`API key set (stored in secret storage) but not checked: ${check.reason}`);
        void vscode.window.showWarningMessage(
          `Developer Index: API key saved, but the service could not be reached to check it ` +
            `(${check.reason}). It will be checked by the next request.`,
        );
      }
      return true;
    }),
    vscode.commands.registerCommand('devIndex.auth.clearKey', async () => {
      await keys.clear();
      log().info('API key cleared');
      void vscode.window.showInformationMessage(
        'Developer Index: API key removed. Search still works without a key, at lower rate limits.',
      );
      return true;
    }),
  );
}
