// Serves the read-only `devindex-agent:` documents: snapshots, results (kept copies after expiry),
// partial results and raw traces, fetched through the store (so they count against its in-flight bound).
import * as vscode from 'vscode';
import {
  AGENT_SCHEME,
  type AgentDocument,
  agentDocumentPath,
  formatAnswer,
  formatResult,
  formatSnapshot,
  parseAgentDocumentPath,
  prettyJson,
} from './agentDocuments';
import { describeAgentError } from '../words/failureWords';
import type { JobStore } from './jobStore';

export function agentDocumentUri(d: AgentDocument): vscode.Uri {
  return vscode.Uri.from({ scheme: AGENT_SCHEME, path: agentDocumentPath(d) });
}

export class AgentContentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly store: JobStore) {}

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const doc = parseAgentDocumentPath(uri.path);
    if (!doc) return `Not an agent document: ${uri.path}\n`;
    try {
      const text = await this.content(doc);
      return token.isCancellationRequested ? '' : text;
    } catch (e) {
      // The editor shows this text in place of the content: better than an empty tab.
      return `Could not load this document: ${describeAgentError(e)}\n`;
    }
  }

  private async content(doc: AgentDocument): Promise<string> {
    switch (doc.kind) {
      case 'snapshot': {
        const s = await this.store.runs.snapshot(doc.jobId, doc.snapshotId);
        return formatSnapshot(doc.artifactKind, s.snapshot);
      }
      case 'result':
      case 'partial':
        return formatResult(await this.store.runs.result(doc.jobId, doc.kind));
      case 'trace':
        return prettyJson(await this.store.runs.traceResponse(doc.jobId));
      case 'answer': {
        const job = this.store.get(doc.jobId);
        const view = await this.store.runs.result(doc.jobId, 'result');
        // The answer as it was read while the run was followed, when the service has none to give now.
        const message = view.message ?? job?.answer;
        return formatAnswer({ ...view, ...(message !== undefined ? { message } : {}), prompt: job?.prompt });
      }
    }
  }
}
