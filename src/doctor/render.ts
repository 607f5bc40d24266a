// The three ways a diagnosis is shown: terminal lines (devindex doctor), a markdown document with the
// fixes linked to the settings they name (the editor), and an issue body (Report an Issue…).
import { problemCount, type DiagnosisReport, type Finding } from './findings';

const PAD = 8;

/** One line per check (`ok` / `problem` / `skipped`), the fix under each problem, a summary line. */
export function renderText(r: DiagnosisReport): string {
  const lines = [`Diagnosis of ${r.baseUrl}`, ''];
  for (const f of r.findings) {
    lines.push(`${f.status.padEnd(PAD)}${f.title}: ${f.found}`);
    if (f.fix && f.status !== 'skipped') lines.push(`${' '.repeat(PAD)}fix: ${f.fix.text}`);
  }
  lines.push('', summary(r));
  return `${lines.join('\n')}\n`;
}

export function summary(r: DiagnosisReport): string {
  const n = problemCount(r.findings);
  const took = `${(r.ms / 1000).toFixed(1)} s`;
  if (r.cancelled) return `Cancelled after ${took}; the checks not run are marked skipped.`;
  return n === 0 ? `All checks hold (${took}).` : `${n} problem${n === 1 ? '' : 's'} found (${took}).`;
}

/** The `--json` shape: stable keys, no secrets (the findings were redacted when made). */
export function reportJson(r: DiagnosisReport): object {
  return {
    ok: r.ok,
    cancelled: r.cancelled,
    baseUrl: r.baseUrl,
    startedAt: r.startedAt,
    ms: r.ms,
    problems: problemCount(r.findings),
    findings: r.findings.map((f) => ({
      check: f.check,
      title: f.title,
      status: f.status,
      found: f.found,
      ...(f.fix ? { fix: f.fix.text } : {}),
      ...(f.requestId ? { requestId: f.requestId } : {}),
      ...(f.notices?.length ? { notices: f.notices } : {}),
    })),
  };
}

/** A link that opens the Settings editor on one setting (a `command:` URI, as VS Code's own documents use). */
export function settingLink(id: string): string {
  return `[${id}](command:workbench.action.openSettings?${encodeURIComponent(JSON.stringify([id]))} "Open the setting ${id}")`;
}

function commandLink(id: string, title: string): string {
  return `[${title}](command:${id} "${title}")`;
}

// Words, not emoji: a document read as source, with whatever fonts the machine has, stays legible.
const MARK: Record<Finding['status'], string> = { ok: 'OK', problem: 'Problem', skipped: 'Skipped' };

/** The editor's read-only document: each finding with its status, and each fix with links to what it names. */
export function renderMarkdown(r: DiagnosisReport, o: { links: boolean } = { links: true }): string {
  const n = problemCount(r.findings);
  const out = [
    '# Developer Index: connection diagnosis',
    '',
    `Service \`${r.baseUrl.replace(/`/g, "'")}\` ` +
      `· ${r.startedAt.slice(0, 19).replace('T', ' ')} UTC · ${(r.ms / 1000).toFixed(1)} s · ` +
      `**${r.cancelled ? 'cancelled' : n === 0 ? 'all checks hold' : `${n} problem${n === 1 ? '' : 's'}`}**`,
    '',
  ];
  for (const f of r.findings) {
    out.push(`## ${MARK[f.status]}: ${f.title}`, '', md(f.found), '');
    if (f.fix && f.status !== 'skipped') {
      const links = o.links
        ? [
            ...(f.fix.settings ?? []).map(settingLink),
            ...(f.fix.command ? [commandLink(f.fix.command.id, f.fix.command.title)] : []),
          ]
        : [];
      out.push(`**Fix:** ${md(f.fix.text)}`, '');
      if (links.length) out.push(`Open: ${links.join(' · ')}`, '');
    }
  }
  out.push(
    '---',
    '',
    'Run it again: **Developer Index: Diagnose Connection**. Send it: **Developer Index: ' +
      'Report an Issue…** (the key and proxy credentials are left out).',
    '',
  );
  return out.join('\n');
}

export interface Versions {
  extension: string;
  vscode?: string;
  node: string;
  os: string;
}

/**
 * The request ids of the failures a report describes: each problem finding's, then those of the log
 * lines that record a failed request (` · id a, b · <error>`), newest last, without repeats.
 */
export function failureRequestIds(r: DiagnosisReport, logLines: readonly string[]): string[] {
  const ids = r.findings.filter((f) => f.status === 'problem' && f.requestId).map((f) => f.requestId!);
  for (const l of logLines) {
    // A failed request's line (a warning or an error); a deprecation notice is a warning too, but no failure.
    if (!/\[(warning|error)\]/.test(l) || / service notice: /.test(l)) continue;
    const m = / · id ([0-9a-f-]{8,64}(?:, [0-9a-f-]{8,64})*)/i.exec(l);
    if (m) ids.push(m[1]!.split(', ').pop()!);
    const named = /request id ([0-9a-f-]{8,64})/i.exec(l);
    if (named) ids.push(named[1]!);
  }
  return [...new Set(ids)].slice(-20);
}

/** The body of an issue: the diagnosis, the versions, the log's last lines (all already redacted by the caller). */
export function renderIssueBody(r: DiagnosisReport, versions: Versions, logLines: readonly string[]): string {
  const fence = (s: string) => `\`\`\`\n${s.replace(/```/g, "'''")}\n\`\`\``;
  const ids = failureRequestIds(r, logLines);
  return [
    '### What happened',
    '',
    '<!-- Describe what you did and what you expected. -->',
    '',
    '### Diagnosis (Developer Index: Diagnose Connection)',
    '',
    fence(renderText(r).trimEnd()),
    '',
    '### Request ids of the failures',
    '',
    ids.length
      ? `The service can look these up (External-Request-Id): ${ids.map((id) => `\`${id}\``).join(', ')}`
      : 'None: no request failed.',
    '',
    '### Versions',
    '',
    `- Extension: ${versions.extension}`,
    ...(versions.vscode ? [`- VS Code: ${versions.vscode}`] : []),
    `- Node: ${versions.node}`,
    `- OS: ${versions.os}`,
    '',
    `### Log (last ${logLines.length} line${logLines.length === 1 ? '' : 's'})`,
    '',
    fence(logLines.length ? logLines.join('\n') : '(empty)'),
    '',
  ].join('\n');
}

/**
 * Text that goes into markdown as text: no raw HTML, no links, no code spans or emphasis runs. An
 * underscore inside a word (HTTPS_PROXY) emphasises nothing in CommonMark, so it stays readable.
 */
function md(s: string): string {
  return s.replace(/[\\`*[\]<>]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, (c) => `\\${c}`);
}
