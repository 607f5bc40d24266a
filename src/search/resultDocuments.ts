// Open as Markdown: a read-only virtual document per result, served by a content provider on the
// extension's own scheme, so it is named after the result and never asks to be saved.
import * as vscode from 'vscode';
import { withoutControls } from '../words/controls';

export const RESULT_SCHEME = 'devindex-result';
/** The internal command the view's Open as Markdown runs (not in package.json: no palette entry). */
export const OPEN_DOCUMENT_COMMAND = 'devIndex.search.openDocument';
const MAX_KEPT = 50;

/** A file-name-safe form of a result's title (the document's tab name). */
function documentName(title: string): string {
  const name = withoutControls(title, { lines: 'join', replaceWith: ' ' })
    .replace(/[\\/:*?"<>|#%]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
  return name || 'Result';
}

export class ResultDocuments implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.docs.get(uri.toString()) ??
      '# This result is no longer available\n\nRun the search again, then Open as Markdown.\n'
    );
  }

  /** Shows `markdown` as a read-only document named after `title`; `id` tells two results of the same title apart. */
  async open(id: string, title: string, markdown: string): Promise<vscode.Uri> {
    const uri = vscode.Uri.from({
      scheme: RESULT_SCHEME,
      path: `/${documentName(title)}.md`,
      query: `id=${encodeURIComponent(id.slice(0, 500))}`,
    });
    const key = uri.toString();
    this.docs.delete(key);
    this.docs.set(key, markdown);
    while (this.docs.size > MAX_KEPT) this.docs.delete(this.docs.keys().next().value as string);
    this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'markdown') await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    await vscode.window.showTextDocument(doc, { preview: true });
    return uri;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
