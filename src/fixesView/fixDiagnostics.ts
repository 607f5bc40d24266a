// vscode-free: the information diagnostics of a fixes report, one per declaring manifest line (package.json,
// pyproject.toml, requirements*.txt, go.mod, Cargo.toml), with the range of the dependency's name on that line.
import { neededVersion } from './fixRows';
import type { CheckedDependency, FixesReport } from '../fixes/report';

interface FixDiagnostic {
  /** The manifest as the report names it. */
  file: string;
  /** 0-based, as the editor counts. */
  line: number;
  start: number;
  end: number;
  message: string;
  /** What the Quick Fix reveals: the dependency's row. */
  key: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where the name sits on a line: quoted (package.json, pyproject's arrays) or a bare word (go.mod, Cargo.toml's key,
 * requirements.txt); Python's names compared as PEP 503 normalises them. Undefined when the line does not name it.
 */
function findName(
  lineText: string,
  dep: { name: string; ecosystem: string },
): { start: number; end: number } | undefined {
  const pypi = dep.ecosystem === 'pypi';
  const pattern = pypi
    ? dep.name
        .split(/[-_.]+/)
        .map(escape)
        .join('[-_.]+')
    : escape(dep.name);
  const m = new RegExp(`(?<![\\w./@-])${pattern}(?![\\w/@-]|\\.\\w)`, pypi ? 'i' : '').exec(lineText);
  return m ? { start: m.index, end: m.index + m[0].length } : undefined;
}

/** The name's range on its line, else the line's text without its indent. */
export function nameRange(lineText: string, dep: { name: string; ecosystem: string }): { start: number; end: number } {
  const found = findName(lineText, dep);
  if (found) return found;
  const start = lineText.length - lineText.trimStart().length;
  return { start, end: Math.max(start, lineText.trimEnd().length) };
}

function diagnosticMessage(dep: CheckedDependency): string {
  const to = neededVersion(dep);
  const parts: string[] = [];
  if (dep.fixes.length) {
    const titles = dep.fixes
      .slice(0, 2)
      .map((f) => f.title || f.id)
      .join('; ');
    parts.push(
      `${dep.name} ${dep.installed} lacks ${dep.fixes.length === 1 ? '1 fix' : `${dep.fixes.length} fixes`}` +
        `${to ? ` (in ${to})` : ''}: ${titles}${dep.fixes.length > 2 ? '; …' : ''}`,
    );
  }
  if (dep.affecting.length)
    parts.push(
      `${dep.affecting.length === 1 ? '1 known bug affects' : `${dep.affecting.length} known bugs affect`} ${dep.installed}, not fixed yet`,
    );
  return parts.join('. ');
}

/** One diagnostic per dependency with fixes or known bugs and a manifest line; `lineOf` reads that line's text. */
export function fixDiagnostics(
  report: FixesReport,
  lineOf: (file: string, line: number) => string | undefined,
): FixDiagnostic[] {
  const out: FixDiagnostic[] = [];
  for (const dep of report.dependencies) {
    if (!dep.manifest || !(dep.fixes.length || dep.affecting.length)) continue;
    const line = Math.max(0, dep.manifest.line - 1);
    const text = lineOf(dep.manifest.file, line);
    if (text === undefined) continue;
    out.push({
      file: dep.manifest.file,
      line,
      ...nameRange(text, dep),
      message: diagnosticMessage(dep),
      key: `${dep.ecosystem}:${dep.name}`,
    });
  }
  return out;
}
