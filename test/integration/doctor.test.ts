// In a real extension host: Diagnose Connection opens its read-only markdown document (fixes
// linked to the settings they name), and Report an Issue… fills the issue reporter's body with the
// redacted diagnosis, the versions and the log's last lines (captured through the test surface).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, closedPort, env } from './hostSupport';

interface Shown {
  uri: string;
  ok: boolean;
  problems: number;
  markdown: string;
}

/** Sets user settings for the duration of `fn`, then puts the previous values back. */
async function withSettings<T>(
  values: Array<[section: string, key: string, value: unknown]>,
  fn: () => Promise<T>,
): Promise<T> {
  const previous = values.map(([section, key]) => vscode.workspace.getConfiguration(section).inspect(key)?.globalValue);
  for (const [section, key, value] of values)
    await vscode.workspace.getConfiguration(section).update(key, value, vscode.ConfigurationTarget.Global);
  try {
    return await fn();
  } finally {
    for (let i = 0; i < values.length; i++) {
      const [section, key] = values[i]!;
      await vscode.workspace.getConfiguration(section).update(key, previous[i], vscode.ConfigurationTarget.Global);
    }
  }
}

describe('Diagnose Connection and Report an Issue…', () => {
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Diagnose Connection opens a read-only markdown document of the findings (the sandbox: all hold)', async () => {
    await api();
    const shown = (await vscode.commands.executeCommand('devIndex.diagnose')) as Shown;
    assert.ok(shown.uri.startsWith('devindex-result:'), shown.uri);
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.toString(), shown.uri, 'the document is the active editor');
    assert.equal(editor.document.languageId, 'markdown');
    const text = editor.document.getText();
    assert.match(text, /^# Developer Index: connection diagnosis/);
    assert.match(text, new RegExp(`Service \`${env('DEVINDEX_SANDBOX_URL').replace(/[.:/]/g, '\\$&')}\``));
    assert.match(text, /## OK: service\n\nreachable: keyless search \(k=1\) answered HTTP 200/);
    assert.equal(shown.ok, true, text);
  });

  it('a base URL where nothing listens: a problem whose fix links to devIndex.baseUrl', async () => {
    await api();
    const port = await closedPort();
    const shown = await withSettings(
      [['devIndex', 'baseUrl', `http://127.0.0.1:${port}`]],
      async () => (await vscode.commands.executeCommand('devIndex.diagnose')) as Shown,
    );
    assert.equal(shown.ok, false);
    assert.match(shown.markdown, /## Problem: service\n\nkeyless search .*connection refused/);
    assert.match(
      shown.markdown,
      /\[devIndex\.baseUrl\]\(command:workbench\.action\.openSettings\?%5B%22devIndex\.baseUrl%22%5D/,
    );
  });

  it('Report an Issue… fills the reporter with the redacted diagnosis, versions and log lines (no key, no proxy password)', async () => {
    const a = await api();
    assert.ok(a.setIssueReporter, 'the test surface has setIssueReporter');
    const previousKey = await a.apiKey.get();
    const password = 'PLANTED-host-proxy-pw-93c1';
    const sent: Array<{ extensionId: string; issueTitle: string; issueBody: string }> = [];
    a.setIssueReporter((r) => {
      sent.push(r);
    });
    try {
      await a.apiKey.set(env('DEVINDEX_TEST_KEY'));
      const port = await closedPort();
      const returned = await withSettings(
        [['http', 'proxy', `http://alice:${password}@127.0.0.1:${port}`]],
        async () => (await vscode.commands.executeCommand('devIndex.reportIssue')) as { issueBody: string },
      );
      assert.equal(sent.length, 1, 'the reporter was called once');
      const r = sent[0]!;
      assert.equal(r.extensionId, 'devindex.devindex');
      assert.equal(returned.issueBody, r.issueBody);
      assert.match(r.issueTitle, /proxy/);
      assert.match(r.issueBody, /### Diagnosis \(Developer Index: Diagnose Connection\)\n\n```\nDiagnosis of /);
      assert.match(
        r.issueBody,
        new RegExp(
          `problem +proxy connection: http://127\\.0\\.0\\.1:${port} \\(from http\\.proxy\\) refused the connection`,
        ),
      );
      assert.match(
        r.issueBody,
        /- Extension: \d+\.\d+\.\d+\n- VS Code: 1\.\d+\.\d+.*\n- Node: v\d+\.\d+\.\d+\n- OS: \S+/,
      );
      assert.match(r.issueBody, /### Log \(last \d+ lines?\)/);
      assert.ok(!r.issueBody.includes(password), 'no proxy password');
      assert.ok(!r.issueBody.includes(env('DEVINDEX_TEST_KEY')), 'no key');
    } finally {
      a.setIssueReporter(undefined);
      if (previousKey) await a.apiKey.set(previousKey);
      else await a.apiKey.clear();
    }
  });
});
