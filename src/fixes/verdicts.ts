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
  // Plain loops and exec(), not matchAll and arrays of pairs: this runs for every result of every dependency of a
  // check, mostly before the JIT has optimised it, where iterators cost the most (and the most to compile).
  let out = '';
  let a0 = -1;
  let b0 = -1;
  VERSIONISH.lastIndex = 0;
  for (let m = VERSIONISH.exec(text); m; m = VERSIONISH.exec(text)) {
    let a = m.index > BEFORE ? m.index - BEFORE : 0;
    while (a > 0 && !isSpace(text.charCodeAt(a - 1))) a--;
    let b = m.index + AFTER < text.length ? m.index + AFTER : text.length;
    while (b < text.length && !isSpace(text.charCodeAt(b))) b++;
    if (a0 >= 0 && a <= b0) {
      if (b > b0) b0 = b;
      continue;
    }
    if (a0 >= 0) out += (out ? SEPARATOR : '') + text.slice(a0, b0);
    a0 = a;
    b0 = b;
  }
  if (a0 >= 0) out += (out ? SEPARATOR : '') + text.slice(a0, b0);
  return out;
}

/** White space as a regular expression's `\s` reads it. */
function isSpace(c: number): boolean {
  if (c === 32 || (c >= 9 && c <= 13) || c === 160) return true;
  if (c < 0x1680) return false;
  return (
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Dotted numbers compared part by part (`2.4.9` < `2.5.1`); only to order fixes a result states, all of them newer. */
function byParts(a: string, b: string): number {
  const x = a.split(/[.+-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : NaN));
  const y = b.split(/[.+-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : NaN));
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const p = x[i] ?? 0;
    const q = y[i] ?? 0;
    if (Number.isNaN(p) || Number.isNaN(q)) return a.localeCompare(b);
    if (p !== q) return p - q;
  }
  return 0;
}

/** The first (lowest) newer fix: the smallest step up that has it. */
function firstNewerFix(badges: readonly VersionBadge[]): string | undefined {
  let first: string | undefined;
  for (const b of badges)
    if (b.verdict === 'newer-fix' && (first === undefined || byParts(b.stated, first) < 0)) first = b.stated;
  return first;
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
  const kept: (typeof results)[number][] = [];
  for (const r of results)
    if ((r.type === 'issue' || r.type === 'pull_request') && !seen.has(r.id)) {
      seen.add(r.id);
      kept.push(r);
    }
  // One scan for the whole answer (the version logic's cost is mostly per call), split back by offset.
  // A title is scanned as text: its release form ("Release 2.1.0") is never a fix, so title mode adds nothing here.
  const starts: number[] = [];
  let joined = '';
  for (let n = 0; n < kept.length; n++) {
    const r = kept[n]!;
    let text = r.title ?? '';
    for (const p of r.passages) text += `\n${p.text}`;
    if (n > 0) joined += SEPARATOR;
    starts.push(joined.length);
    joined += versionStretches(text);
  }
  // Filled by push, not kept.map: map's array has other element kinds when kept is empty, and that deoptimised
  // this function (a second TurboFan compile in every check of a few dozen dependencies).
  const byResult: VersionMention[][] = [];
  for (let n = 0; n < kept.length; n++) byResult.push([]);
  let i = 0;
  for (const m of findVersionMentions(joined, { names: namesOf(installed), sentences: false })) {
    while (i + 1 < starts.length && m.index >= starts[i + 1]!) i++;
    byResult[i]!.push(m);
  }
  for (let n = 0; n < kept.length; n++) {
    if (!byResult[n]!.length) continue;
    const r = kept[n]!;
    const badges = mentionBadges(byResult[n]!, installed);
    const title = r.title ?? r.url;
    const kind = r.type as ResultKind;
    const fixedIn = firstNewerFix(badges);
    if (fixedIn) {
      fixes.push({ id: r.id, url: r.url, title, kind, fixedIn });
      continue;
    }
    let affects: VersionBadge | undefined;
    let fixStated = false;
    for (const b of badges) {
      if (!affects && b.verdict === 'affects-yours') affects = b;
      if (b.kind === 'fixed') fixStated = true;
    }
    if (affects && !fixStated) affecting.push({ id: r.id, url: r.url, title, kind, affects: affects.stated });
  }
  fixes.sort((a, b) => byParts(a.fixedIn, b.fixedIn));
  return { fixes, affecting };
}
