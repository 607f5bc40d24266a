// The text form of `devindex fixes`: per dependency its installed version, the versions that fix something
// and each fix; what was skipped or left unchecked; one summary line; the way out of a rate limit.
import { provenance } from '../api/results';
import { cliWords } from '../words/failureWords';
import type { FixesOutcome, AffectingIssue, LackedFix } from '../fixes/report';
import { sanitizeForTerminal, terminalLine } from './cliBase';

const kindWords = (k: string) => (k === 'pull_request' ? 'pull request' : 'issue');

function numberOf(r: LackedFix | AffectingIssue): string {
  const n = provenance({ id: r.id, url: r.url, type: r.kind }).number;
  return n !== undefined ? ` #${n}` : '';
}

/** The terminal report (every value from the network goes through the terminal cleaner). */
export function formatFixes(outcome: FixesOutcome, keyless: boolean): string {
  const { report, stop } = outcome;
  const lines: string[] = [];
  for (const d of report.dependencies) {
    const where = `${d.repository}, ${d.manifest.file}:${d.manifest.line}`;
    const versions = [...new Set(d.fixes.map((f) => f.fixedIn))];
    lines.push(
      terminalLine(
        versions.length
          ? `${d.name} ${d.installed} → ${versions.join(', ')}  (${where})`
          : `${d.name} ${d.installed}: no fix you lack  (${where})`,
      ),
    );
    for (const f of d.fixes) {
      lines.push(`  ${terminalLine(f.title)}`);
      lines.push(
        `    ${kindWords(f.kind)}${numberOf(f)} · fixed in ${terminalLine(f.fixedIn)} · ${terminalLine(f.url)}`,
      );
    }
    if (d.affecting.length) {
      lines.push('  Known, not fixed yet:');
      for (const a of d.affecting) {
        lines.push(`  ${terminalLine(a.title)}`);
        lines.push(
          `    ${kindWords(a.kind)}${numberOf(a)} · affects ${terminalLine(a.affects)} · ${terminalLine(a.url)}`,
        );
      }
    }
  }
  if (report.skipped.length) {
    lines.push('', 'Skipped (nothing to search):');
    for (const s of report.skipped) lines.push(`  ${terminalLine(s.name)}: ${terminalLine(s.reason)}`);
  }
  if (report.unchecked.length) {
    lines.push('', 'Not checked:');
    for (const u of report.unchecked) lines.push(`  ${terminalLine(u.name)}: ${terminalLine(u.reason)}`);
  }
  const lacking = report.dependencies.filter((d) => d.fixes.length).length;
  const n = report.dependencies.length;
  const affected = report.dependencies.filter((d) => d.affecting.length).length;
  lines.push(
    '',
    `${lacking} of ${n} ${n === 1 ? 'dependency has' : 'dependencies have'} fixes you lack` +
      (affected ? `; ${affected} ${affected === 1 ? 'has' : 'have'} known issues not fixed yet` : '') +
      ` (${report.searches} search${report.searches === 1 ? '' : 'es'}, ${outcome.fromCache} from the cache).`,
  );
  if (stop && stop.reason !== 'cancelled') {
    lines.push('');
    for (const l of stop.failure ? cliWords(stop.failure) : [stop.message]) lines.push(terminalLine(l));
    // The keyless quota's words (failureWords.ts) carry the signup link already; a per-minute limit's do not.
    if (stop.reason === 'rate-limited' && stop.failure?.reason !== 'keyless-quota' && keyless)
      lines.push(
        `An API key raises the limits: ${stop.signupUrl ? `create one at ${terminalLine(stop.signupUrl)}, then ` : ''}set ` +
          `DEVINDEX_API_KEY (in the editor: Developer Index: Set API Key).`,
      );
    if (report.unchecked.length)
      lines.push('Run devindex fixes again to check what was not checked (the rest is cached).');
  }
  return sanitizeForTerminal(`${lines.join('\n')}\n`);
}
