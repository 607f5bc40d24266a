// Pure: one dependency's search results read as fixes its installed version lacks and issues that affect it
// with no fix stated yet, by the version logic every surface shares (src/versions/versionCompare.ts).
import type { SearchResult } from '../api/schemas';
import { mentionBadges, namesOf, type VersionBadge } from '../versions/versionCompare';
import { findVersionMentions, type VersionMention } from '../versions/versionMentions';
import type { AffectingIssue, LackedFix, ResultKind, WorkspaceDependency } from './report';

/** Between two results' texts: a line break (sentences end there) and a NUL no statement's pattern crosses. */
const SEPARATOR = '\n\u0000\n';
const VERSIONISH = /\bv\d|\d\.[\dxX*]/g;
/** A statement's phrase, filler and package name stand at most this far before its version; a list runs on after it. */
const BEFORE = 120;
const AFTER = 60;

/**
 * Only the stretches of `text` around something that looks like a version, each cut at white space: a
 * statement needs a version, and the version logic's cost grows with the text it scans (a check reads
 * twenty results of three passages for every dependency).
 */
export function versionStretches(text: string): string {
  const spans: Array<[number, number]> = [];
  for (const m of text.matchAll(VERSIONISH)) {
    let a = Math.max(0, m.index - BEFORE);
    while (a > 0 && !/\s/.test(text[a - 1]!)) a--;
    let b = Math.min(text.length, m.index + AFTER);
    while (b < text.length && !/\s/.test(text[b]!)) b++;
    const last = spans.at(-1);
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else spans.push([a, b]);
  }
  return spans.map(([a, b]) => text.slice(a, b)).join(SEPARATOR);
}

/** Dotted numbers compared part by part (`2.4.9` < `2.5.1`); only to order fixes a result states, all of them newer. */
function byParts(a: string, b: string): number {
  const x = a.split(/[.+-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : NaN));
  const y = b.split(/[.+-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : NaN));
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const [p, q] = [x[i] ?? 0, y[i] ?? 0];
    if (Number.isNaN(p) || Number.isNaN(q)) return a.localeCompare(b);
    if (p !== q) return p - q;
  }
  return 0;
}

/** The first (lowest) newer fix: the smallest step up that has it. */
function firstNewerFix(badges: readonly VersionBadge[]): string | undefined {
  return badges
    .filter((b) => b.verdict === 'newer-fix')
    .map((b) => b.stated)
    .sort(byParts)[0];
}

type Versioned = Pick<WorkspaceDependency, 'ecosystem' | 'name'> & { repository: string; installed: string };

/**
 * A fix you lack: an issue or pull request stating a fix newer than the installed version. Affecting: one
 * stating the installed version is affected and stating no fix at all. A fix you have, a release
 * announcement alone, or no statement: neither. Each result once (by id), lowest fix first.
 */
export function resultVerdicts(
  results: readonly Pick<SearchResult, 'id' | 'url' | 'title' | 'type' | 'passages'>[],
  dep: Versioned,
): { fixes: LackedFix[]; affecting: AffectingIssue[] } {
  const fixes: LackedFix[] = [];
  const affecting: AffectingIssue[] = [];
  const seen = new Set<string>();
  const installed = { ecosystem: dep.ecosystem, name: dep.name, slug: dep.repository, version: dep.installed };
  const kept = results.filter(
    (r) => (r.type === 'issue' || r.type === 'pull_request') && !seen.has(r.id) && seen.add(r.id),
  );
  // One scan for the whole answer (the version logic's cost is mostly per call), split back by offset.
  // A title is scanned as text: its release form ("Release 2.1.0") is never a fix, so title mode adds nothing here.
  const texts = kept.map((r) => versionStretches([r.title ?? '', ...r.passages.map((p) => p.text)].join('\n')));
  const starts: number[] = [];
  let at = 0;
  for (const t of texts) {
    starts.push(at);
    at += t.length + SEPARATOR.length;
  }
  const byResult: VersionMention[][] = kept.map(() => []);
  let i = 0;
  for (const m of findVersionMentions(texts.join(SEPARATOR), { names: namesOf(installed) })) {
    while (i + 1 < starts.length && m.index >= starts[i + 1]!) i++;
    byResult[i]!.push(m);
  }
  for (const [n, r] of kept.entries()) {
    if (!byResult[n]!.length) continue;
    const badges = mentionBadges(byResult[n]!, installed);
    const [id, url, title, kind] = [r.id, r.url, r.title ?? r.url, r.type as ResultKind];
    const fixedIn = firstNewerFix(badges);
    if (fixedIn) {
      fixes.push({ id, url, title, kind, fixedIn });
      continue;
    }
    const affects = badges.find((b) => b.verdict === 'affects-yours');
    if (affects && !badges.some((b) => b.kind === 'fixed'))
      affecting.push({ id, url, title, kind, affects: affects.stated });
  }
  fixes.sort((a, b) => byParts(a.fixedIn, b.fixedIn));
  return { fixes, affecting };
}
