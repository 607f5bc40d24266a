// `@devindex /fixes` (dist/features.js, through participant.ts): the fixes check of the active editor's folder (only
// the dependencies the prompt names, when it names some), every fix and known bug in the references list, the report
// as markdown, and Set API Key (with the service's sign-up link) when the keyless quota stopped it.
import * as vscode from 'vscode';
import type { FixesOutcome } from '../fixes/report';
import { neededVersion } from '../fixesView/fixRows';
import { escapeMarkdown } from './chatText';

const SAFE_LINK = /^https:\/\/[^\s()<>[\]]+$/;
const link = (text: string, url: string) =>
  SAFE_LINK.test(url) ? `[${escapeMarkdown(text)}](${url})` : escapeMarkdown(text);

/** The markdown of an outcome: per dependency its fixes (numbered as in the references), then what was left out. */
function fixesMarkdown(outcome: FixesOutcome, folderName: string): string {
  const { report, stop } = outcome;
  const lacking = report.dependencies.filter((d) => d.fixes.length || d.affecting.length);
  const out: string[] = [
    `**Fixes your dependencies lack** in ${escapeMarkdown(folderName)}: ${report.dependencies.length} ` +
      `checked, ${report.searches} searches of the developer index ` +
      `(${outcome.fromCache} answers from a day's cache).`,
  ];
  if (!lacking.length) out.push('No checked dependency lacks a fix that its repository states.');
  for (const d of lacking) {
    const to = neededVersion(d);
    out.push(
      `\n**${escapeMarkdown(d.name)}** ${escapeMarkdown(d.installed)} ` +
        `installed${to ? ` → ${escapeMarkdown(to)}` : ''} (${escapeMarkdown(d.manifest.file)}, ` +
        `line ${d.manifest.line})`,
    );
    for (const f of d.fixes) out.push(`- ${link(f.title || f.id, f.url)}: fixed in ${escapeMarkdown(f.fixedIn)}`);
    for (const a of d.affecting)
      out.push(`- ${link(a.title || a.id, a.url)}: affects ${escapeMarkdown(a.affects)}, no fix yet`);
  }
  if (report.skipped.length)
    out.push(
      `\nSkipped: ${report.skipped.map((s) => `${escapeMarkdown(s.name)} (${escapeMarkdown(s.reason)})`).join(', ')}.`,
    );
  if (report.unchecked.length)
    out.push(
      `\nNot checked${stop ? ` (${escapeMarkdown(stop.message)})` : ''}: ` +
        `${report.unchecked.map((s) => escapeMarkdown(s.name)).join(', ')}.`,
    );
  return out.join('\n');
}

/** Streams the outcome: references first (every fix's link), then the markdown and the quota's buttons. */
export function streamFixes(stream: vscode.ChatResponseStream, outcome: FixesOutcome, folderName: string): number {
  let n = 0;
  for (const d of outcome.report.dependencies)
    for (const f of [...d.fixes, ...d.affecting]) {
      if (!SAFE_LINK.test(f.url)) continue;
      stream.reference(
        vscode.Uri.parse(f.url, true),
        new vscode.ThemeIcon(f.kind === 'pull_request' ? 'git-pull-request' : 'issues'),
      );
      n++;
    }
  stream.markdown(fixesMarkdown(outcome, folderName));
  const stop = outcome.stop;
  if (stop?.reason === 'rate-limited' && stop.keyless) {
    stream.button({ command: 'devIndex.auth.setKey', title: 'Set API Key' });
    if (stop.signupUrl && SAFE_LINK.test(stop.signupUrl))
      stream.markdown(
        `\n\nNo key yet? [Create one](${stop.signupUrl}), then ask again: the next check searches only what is left.`,
      );
  }
  stream.button({ command: 'devIndex.fixes.check', title: 'Show in Dependency Fixes' });
  return n;
}
