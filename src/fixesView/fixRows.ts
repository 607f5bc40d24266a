// vscode-free: the Dependency Fixes view's rows from a fixes report (labels, descriptions, accessible labels,
// tooltips, contextValue parts). The tree provider (fixesTree.ts) only turns them into TreeItems.
import type { AffectingIssue, CheckedDependency, FixesOutcome, LackedFix } from '../fixes/report';

/** What every row of the view says: `contextValue` is matched with `viewItem =~ /…/` in package.json. */
interface RowText {
  key: string;
  label: string;
  description: string;
  accessible: string;
  tooltip: string;
  contextValue: string;
}

export interface DependencyRow extends RowText {
  dep: CheckedDependency;
}

export interface FixRow extends RowText {
  /** `fix`: fixed in a version newer than the installed one; `affecting`: affects it, not fixed yet. */
  state: 'fix' | 'affecting';
  fix: LackedFix | AffectingIssue;
  dep: CheckedDependency;
}

export interface NoteRow {
  key: 'skipped' | 'unchecked' | 'none';
  label: string;
  accessible: string;
  tooltip: string;
  contextValue: string;
}

const stopWords: Record<string, string> = {
  'rate-limited': 'the search quota ran out',
  cancelled: 'cancelled',
  'time-limit': 'out of time',
  failed: 'a search failed',
};

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The newer of two versions by their numeric parts (display only: which fixes are lacking is the engine's call). */
function newer(a: string, b: string): string {
  const parts = (v: string) => v.replace(/^v/i, '').split(/[.+-]/);
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = Number(pa[i] ?? 0);
    const y = Number(pb[i] ?? 0);
    if (Number.isNaN(x) || Number.isNaN(y)) return a;
    if (x !== y) return x > y ? a : b;
  }
  return a;
}

/** The version that carries every fix listed (the newest fixed-in), if any states one. */
export function neededVersion(dep: CheckedDependency): string | undefined {
  return dep.fixes
    .map((f) => f.fixedIn)
    .reduce<string | undefined>((a, v) => (!v ? a : !a ? v : newer(a, v)), undefined);
}

function countWords(dep: CheckedDependency): string {
  const parts: string[] = [];
  if (dep.fixes.length) parts.push(plural(dep.fixes.length, 'fix', 'fixes'));
  if (dep.affecting.length) parts.push(`${plural(dep.affecting.length, 'open bug')} affecting it`);
  return parts.join(', ');
}

function dependencyRow(dep: CheckedDependency): DependencyRow {
  const to = neededVersion(dep);
  const versions = to ? `${dep.installed} → ${to}` : dep.installed;
  const counts = countWords(dep);
  const lacks = dep.fixes.length
    ? `${dep.installed} installed lacks ${plural(dep.fixes.length, 'fix', 'fixes')}${to ? `, all in ${to}` : ''}`
    : `${dep.installed} installed`;
  const open = dep.affecting.length ? `; ${plural(dep.affecting.length, 'known bug')} affecting it, not fixed yet` : '';
  return {
    key: `${dep.ecosystem}:${dep.name}`,
    label: dep.name,
    description: `${versions} · ${counts}`,
    accessible: `${dep.name}: ${lacks}${open}`,
    tooltip:
      `${dep.name} (${dep.ecosystem}, ${dep.repository})\n${lacks}${open}` +
      (dep.manifest ? `\nDeclared in ${dep.manifest.file}, line ${dep.manifest.line}` : ''),
    contextValue: ['dependency', dep.fixes.length ? 'fixes' : '', dep.affecting.length ? 'affecting' : '']
      .filter(Boolean)
      .join(';'),
    dep,
  };
}

function fixRow(dep: CheckedDependency, fix: LackedFix | AffectingIssue): FixRow {
  const lacked = 'fixedIn' in fix;
  const where = lacked ? `fixed in ${fix.fixedIn}` : `affects ${fix.affects}`;
  const kind = fix.kind === 'pull_request' ? 'pull request' : 'issue';
  const title = fix.title || fix.id;
  return {
    key: `${dep.ecosystem}:${dep.name}:${fix.id}`,
    label: title,
    description: `${where} · ${kind}`,
    accessible: `${lacked ? 'Fix you lack' : 'Known bug, not fixed yet'}: ${title}, ${where}, ${kind}`,
    tooltip:
      `${title}\n${fix.url}\n` +
      (lacked
        ? `Fixed in ${fix.fixedIn}; ${dep.installed} installed`
        : `Affects ${fix.affects}; ${dep.installed} installed, no fix stated yet`),
    contextValue: ['fix', lacked ? 'lacked' : 'affecting', 'link'].join(';'),
    state: lacked ? 'fix' : 'affecting',
    fix,
    dep,
  };
}

/** A dependency's children: the fixes it lacks, then the known bugs that affect it. */
export function fixRows(dep: CheckedDependency): FixRow[] {
  return [...dep.fixes, ...dep.affecting].map((f) => fixRow(dep, f));
}

function listed(items: ReadonlyArray<{ name: string; reason: string }>, max: number): string {
  const shown = items.slice(0, max).map((i) => `${i.name} (${i.reason})`);
  return items.length > max ? `${shown.join(', ')} and ${items.length - max} more` : shown.join(', ');
}

/** The view's rows: one per dependency with something to tell, then one line for the skipped, one for the unchecked. */
export function reportRows(outcome: FixesOutcome): { dependencies: DependencyRow[]; notes: NoteRow[] } {
  const { report, stop } = outcome;
  const dependencies = report.dependencies
    .filter((d) => d.fixes.length || d.affecting.length)
    .map(dependencyRow)
    .sort((a, b) => b.dep.fixes.length - a.dep.fixes.length || a.label.localeCompare(b.label));
  const notes: NoteRow[] = [];
  if (!dependencies.length && !report.unchecked.length) {
    const n = report.dependencies.length;
    notes.push({
      key: 'none',
      label: `No fixes you lack in ${plural(n, 'dependency', 'dependencies')} checked`,
      accessible: `No fixes you lack in ${plural(n, 'dependency', 'dependencies')} checked`,
      tooltip: 'The developer index states no fix in a version newer than the installed one for these dependencies.',
      contextValue: 'note;none',
    });
  }
  if (report.skipped.length) {
    const line = `Skipped ${plural(report.skipped.length, 'dependency', 'dependencies')}: ${listed(report.skipped, 3)}`;
    notes.push({
      key: 'skipped',
      label: line,
      accessible: line,
      tooltip: report.skipped.map((s) => `${s.name}: ${s.reason}`).join('\n'),
      contextValue: 'note;skipped',
    });
  }
  if (report.unchecked.length) {
    const quota = stop?.reason === 'rate-limited' && (stop.keyless === true || stop.signupUrl !== undefined);
    const line = `Not checked (${stop ? stopWords[stop.reason] : 'not answered'}): ${listed(report.unchecked, 3)}`;
    notes.push({
      key: 'unchecked',
      label: line,
      accessible: quota ? `${line}. Set an API key to check them` : line,
      tooltip:
        `${stop ? `${stop.message}\n` : ''}${report.unchecked.map((s) => `${s.name}: ${s.reason}`).join('\n')}` +
        (quota ? '\nSet an API key (or get one free) and check again: the next check searches only these.' : ''),
      contextValue: quota ? 'note;unchecked;quota' : 'note;unchecked',
    });
  }
  return { dependencies, notes };
}

/** The view's message above the rows: what was checked and what it cost. */
export function summaryLine({ report }: FixesOutcome, folderName: string): string {
  const lacking = report.dependencies.filter((d) => d.fixes.length).length;
  const checked = report.dependencies.length;
  const lackWords = lacking
    ? `${plural(lacking, 'dependency', 'dependencies')} with fixes you lack`
    : 'no fixes you lack';
  return (
    `${folderName}: ${lackWords} ` +
    `(${plural(checked, 'dependency', 'dependencies')} checked, ${plural(report.searches, 'search', 'searches')})`
  );
}
