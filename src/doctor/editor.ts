// The editor's two surfaces of the diagnosis. Features side (dist/features.js): Diagnose Connection opens the
// findings as a read-only markdown document whose fixes link to the settings they name; Report an
// Issue… hands VS Code's issue reporter the redacted diagnosis, the versions and the log's last lines.
import * as os from 'node:os';
import * as vscode from 'vscode';
import { config } from '../config';
import { recentLogLines } from '../log';
import { OPEN_DOCUMENT_COMMAND } from '../search/resultDocuments';
import { diagnose } from './diagnose';
import { problemCount, type DiagnosisReport } from './findings';
import { renderIssueBody, renderMarkdown, type Versions } from './render';
import { PROXY_ENV_NAMES, secretsRedactor } from './secrets';

export const EXTENSION_ID = 'devindex.devindex';
/** What `workbench.action.openIssueReporter` takes (VS Code's IssueReporterData, the fields used here). */
export interface IssueReport {
  extensionId: string;
  issueTitle: string;
  issueBody: string;
}
export type IssueReporter = (report: IssueReport) => Thenable<unknown> | Promise<unknown>;

export const openIssueReporter: IssueReporter = (report) =>
  vscode.commands.executeCommand('workbench.action.openIssueReporter', report);

interface DoctorEditorDeps {
  apiKey(): Promise<string | undefined>;
}

/** Runs the diagnosis with the editor's settings and key, under a cancellable progress notification. */
async function runEditorDiagnosis(deps: DoctorEditorDeps): Promise<DiagnosisReport> {
  const apiKey = await deps.apiKey();
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: 'Developer Index: diagnosing the connection…',
      cancellable: true,
    },
    (_progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      return diagnose(
        {
          baseUrl: config.baseUrl(),
          ...(apiKey ? { apiKey } : {}),
          network: config.network(),
          allowInsecureHttp: config.allowInsecureHttp(),
          surface: 'editor',
        },
        {
          signal: abort.signal,
          timeouts: {
            service: Math.min(config.requestTimeoutMs(), 6000),
            key: Math.min(config.requestTimeoutMs(), 4000),
          },
        },
      ).finally(() => sub.dispose());
    },
  );
}

interface DiagnosisShown {
  uri: string;
  ok: boolean;
  problems: number;
  markdown: string;
}

/** Developer Index: Diagnose Connection. */
export async function showDiagnosis(deps: DoctorEditorDeps): Promise<DiagnosisShown> {
  const report = await runEditorDiagnosis(deps);
  const markdown = renderMarkdown(report);
  const uri = await vscode.commands.executeCommand<vscode.Uri | undefined>(OPEN_DOCUMENT_COMMAND, {
    id: report.startedAt,
    title: 'Connection diagnosis',
    markdown,
  });
  const n = problemCount(report.findings);
  if (!report.cancelled) {
    const say =
      n === 0
        ? 'Developer Index: every connection check holds.'
        : `Developer Index: ${n} connection problem${n === 1 ? '' : 's'} found; each has its fix in the document.`;
    void vscode.window.setStatusBarMessage(say, 6000);
  }
  return { uri: uri?.toString() ?? '', ok: report.ok, problems: n, markdown };
}

/** Developer Index: Report an Issue…: the redacted diagnosis, versions and log into the issue reporter. */
export async function reportIssue(
  deps: DoctorEditorDeps & { extensionVersion: string; send: IssueReporter },
): Promise<IssueReport> {
  const report = await runEditorDiagnosis(deps);
  const net = config.network();
  const redact = secretsRedactor({
    apiKey: await deps.apiKey(),
    proxyUrls: [net.proxy, ...PROXY_ENV_NAMES.map((n) => process.env[n])],
    proxyAuthorization: net.proxyAuthorization,
  });
  const versions: Versions = {
    extension: deps.extensionVersion,
    vscode: `${vscode.version} (${vscode.env.appName}${vscode.env.remoteName ? `, remote ${vscode.env.remoteName}` : ''})`,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
  // Redacted as a whole too: a log line could quote a proxy URL or a server's echo.
  const body = redact(renderIssueBody(report, versions, recentLogLines(40)));
  const n = problemCount(report.findings);
  const issue: IssueReport = {
    extensionId: EXTENSION_ID,
    issueTitle: n
      ? `Connection: ${report.findings
          .filter((f) => f.status === 'problem')
          .map((f) => f.title)
          .join(', ')}`
      : '',
    issueBody: body,
  };
  try {
    await deps.send(issue);
  } catch (e) {
    // An editor without the issue reporter (some web builds): the same report as a document to copy.
    await vscode.commands.executeCommand(OPEN_DOCUMENT_COMMAND, {
      id: `issue-${report.startedAt}`,
      title: 'Issue report',
      markdown: body,
    });
    void vscode.window.showWarningMessage(
      `Developer Index: the issue reporter could not be opened ` +
        `(${e instanceof Error ? e.message : String(e)}); the report is open as a document to copy ` +
        `into an issue.`,
    );
  }
  return issue;
}
