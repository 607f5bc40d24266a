// Pure: a result's version statements against the installed version, per ecosystem (semver for npm, Cargo
// and Go with its `v`; PEP 440 for Python), as badges and one summary line. No vscode, no fs. An installed
// or mentioned version that the ecosystem's rules cannot read gives no badge: never a wrong one.
import type * as Pep440 from '@renovatebot/pep440';
import type { Range, SemVer } from 'semver';

// semver and pep440 are required on the first comparison, not when the module loads: dist/core.js holds this
// module for the version badges, and the first search of all, usually not scoped to a dependency, should not
// compile and run them (semver builds its regular expressions as it loads; the first search's load).
// semver's functions come from their own modules: the package's index loads every function and range helper
// (about 8 KB more in dist/core.js), and esbuild cannot drop them from a CommonJS package.
interface Semver {
  SemVer: typeof import('semver/classes/semver');
  Range: typeof import('semver/classes/range');
}
let semverFns: Semver | undefined;
function semver(): Semver {
  return (semverFns ??= {
    SemVer: require('semver/classes/semver') as Semver['SemVer'],
    Range: require('semver/classes/range') as Semver['Range'],
  });
}
let pep440Lib: typeof Pep440 | undefined;
const pep440 = (): typeof Pep440 => (pep440Lib ??= require('@renovatebot/pep440') as typeof Pep440);
import { findVersionMentions, type MentionKind, type VersionMention } from './versionMentions';

/** The package ecosystems whose versions are compared (and whose dependencies src/deps/ resolves). */
export type Ecosystem = 'npm' | 'go' | 'cargo' | 'pypi';

/** What the search knows about the dependency it is scoped to. */
export interface InstalledDependency {
  ecosystem: Ecosystem;
  name: string;
  slug: string;
  /** Absent: version unknown (then no badge, and the words say so). */
  version?: string;
}

type Verdict =
  | 'newer-fix' // fixed in a version newer than yours: the likely answer
  | 'included-fix' // fixed in a version yours includes
  | 'affects-yours' // the statement's versions include yours
  | 'affects-other' // the statement's versions do not include yours
  | 'newer-release' // a release newer than yours
  | 'included-release';

export interface VersionBadge {
  kind: MentionKind;
  verdict: Verdict;
  /** The version (or range) the text states, as written: `2.1.0`, `2.0.x`, `2.0+`, `2.0.0–2.0.3`. */
  stated: string;
  installed: string;
  /** The view's words: `Fixed in 2.1.0 · you have 2.0.3`. */
  label: string;
  /** The CLI's and the model's words: `fixed in 2.1.0 · newer than your 2.0.3`. */
  text: string;
  /** The sentence it came from (the tooltip). */
  sentence: string;
  /** The fix is newer than yours (or a statement says yours is affected): shown highlighted. */
  highlight: boolean;
}

interface Scheme {
  valid(v: string): boolean;
  cmp(a: string, b: string): number;
  inRange(v: string, m: VersionMention): boolean | undefined;
  /** The release line (`2.5` of `2.5.1`): a backport list has one fix per line. */
  line(v: string): string;
}

/**
 * A "since X" statement bounded by a fix the same result states (`regression in 2.4.0` + `fixed in 2.5.1`):
 * the fix of the installed version's release line, else the first fix above the installed version, else the last fix.
 */
function until(m: VersionMention, fixes: readonly string[], mine: string, scheme: Scheme): string | undefined {
  if (m.kind !== 'affects' || m.bound !== 'since' || !scheme.valid(m.version)) return undefined;
  const after = fixes.filter((f) => scheme.valid(f) && scheme.cmp(f, m.version) > 0).sort((a, b) => scheme.cmp(a, b));
  return (
    after.find((f) => scheme.line(f) === scheme.line(mine)) ??
    after.find((f) => scheme.cmp(f, mine) > 0) ??
    after.at(-1)
  );
}

// Parsed once per distinct text: a check compares the same few versions thousands of times. Versions carry
// the ranges' option, or semver parses them again at every range test.
const OPTIONS = { includePrerelease: true };
const parsedSemver = new Map<string, SemVer | null>();
const parsedRanges = new Map<string, Range | null>();

/** `make(text)`'s value, kept per text; null when it throws (semver's word for unreadable). */
function parsedOnce<T>(kept: Map<string, T | null>, text: string, make: (text: string) => T): T | undefined {
  let v = kept.get(text);
  if (v === undefined) {
    try {
      v = make(text);
    } catch {
      v = null;
    }
    if (kept.size >= 10_000) kept.clear();
    kept.set(text, v);
  }
  return v ?? undefined;
}

const rangeOf = (text: string): Range | undefined =>
  parsedOnce(parsedRanges, text, (t) => new (semver().Range)(t, OPTIONS));

/** `2.1` -> `2.1.0`, `v2` -> `2.0.0`; undefined when semver cannot read it. */
const semverOf = (v: string): SemVer | undefined =>
  parsedOnce(parsedSemver, v, (text) => {
    const s = text.replace(/^v/i, '');
    const full = /^\d+$/.test(s)
      ? `${s}.0.0`
      : /^\d+\.\d+$/.test(s)
        ? `${s}.0`
        : /^(\d+\.\d+)(-.*)$/.test(s)
          ? s.replace(/^(\d+\.\d+)(-.*)$/, '$1.0$2')
          : s;
    return new (semver().SemVer)(full, OPTIONS);
  });

const SEMVER: Scheme = {
  valid: (v) => semverOf(v) !== undefined,
  cmp: (a, b) => semverOf(a)!.compare(semverOf(b)!),
  inRange(v, m) {
    const mine = semverOf(v)!;
    if (m.bound === 'range' && m.upto) {
      const [lo, hi] = [semverOf(m.version), semverOf(m.upto)];
      return lo && hi ? mine.compare(lo) >= 0 && mine.compare(hi) <= 0 : undefined;
    }
    if (m.bound === 'range') {
      // `1.2.x` / `2.x` against a release: its parts decide, as semver's range would. semver's Range.test walks
      // comparator sets, which a check pays at every "affects" statement; a pre-release still goes to it.
      const x = /^(\d+)(?:\.(\d+))?\.x$/.exec(m.version);
      if (x && !mine.prerelease.length)
        return mine.major === Number(x[1]) && (x[2] === undefined || mine.minor === Number(x[2]));
      return rangeOf(m.version)?.test(mine);
    }
    const at = semverOf(m.version);
    if (!at) return undefined;
    return m.bound === 'since' ? mine.compare(at) >= 0 : mine.compare(at) === 0;
  },
  line: (v) => {
    const s = semverOf(v)!;
    return `${s.major}.${s.minor}`;
  },
};

const PEP440: Scheme = {
  valid: (v) => pep440().valid(v) !== null,
  cmp: (a, b) => pep440().compare(a, b),
  inRange(v, m) {
    if (m.bound === 'range' && m.upto)
      return pep440().valid(m.version) && pep440().valid(m.upto)
        ? pep440().gte(v, m.version) && pep440().lte(v, m.upto)
        : undefined;
    if (m.bound === 'range') {
      const spec = `==${m.version.replace(/\.x$/i, '.*')}`;
      return pep440().validRange(spec) ? pep440().satisfies(v, spec) : undefined;
    }
    if (!pep440().valid(m.version)) return undefined;
    return m.bound === 'since' ? pep440().gte(v, m.version) : pep440().eq(v, m.version);
  },
  line: (v) => `${pep440().major(v)}.${pep440().minor(v)}`,
};

function schemeOf(e: Ecosystem): Scheme {
  return e === 'pypi' ? PEP440 : SEMVER;
}

function statedWords(m: VersionMention, fixedIn?: string): string {
  if (fixedIn) return `≥${m.version} <${fixedIn}`;
  if (m.upto) return `${m.version}–${m.upto}`;
  return m.bound === 'since' ? `${m.version}+` : m.version;
}

/**
 * One statement against the installed version; undefined when either version is unreadable. `fixes`: the fix
 * versions the same result states, which end a "since" statement's range.
 */
export function compareMention(
  m: VersionMention,
  dep: InstalledDependency,
  fixes: readonly string[] = [],
): VersionBadge | undefined {
  const mine = dep.version;
  if (!mine) return undefined;
  const scheme = schemeOf(dep.ecosystem);
  if (!scheme.valid(mine)) return undefined;
  const fixedIn = until(m, fixes, mine, scheme);
  const stated = statedWords(m, fixedIn);
  // Built field by field: V8 copies a spread object here about fifty times slower, and a check badges
  // every statement of twenty results for each of its dependencies.
  const badge = (verdict: Verdict, label: string, text: string, highlight: boolean): VersionBadge => ({
    kind: m.kind,
    stated,
    installed: mine,
    sentence: m.sentence,
    verdict,
    label,
    text,
    highlight,
  });
  if (m.kind === 'affects') {
    const inside = fixedIn ? scheme.inRange(mine, m) && scheme.cmp(mine, fixedIn) < 0 : scheme.inRange(mine, m);
    if (inside === undefined) return undefined;
    return inside
      ? badge('affects-yours', `Affects ${stated} · yours`, `affects ${stated} · includes your ${mine}`, true)
      : badge('affects-other', `Affects ${stated} · not your ${mine}`, `affects ${stated} · not your ${mine}`, false);
  }
  if (m.bound !== 'at' || !scheme.valid(m.version)) return undefined;
  const c = scheme.cmp(m.version, mine);
  if (m.kind === 'fixed') {
    return c > 0
      ? badge(
          'newer-fix',
          `Fixed in ${stated} · you have ${mine}`,
          `fixed in ${stated} · newer than your ${mine}`,
          true,
        )
      : badge(
          'included-fix',
          `Fixed in ${stated} · included in your ${mine}`,
          `fixed in ${stated} · included in your ${mine}`,
          false,
        );
  }
  return c > 0
    ? badge(
        'newer-release',
        `Released ${stated} · newer than your ${mine}`,
        `released ${stated} · newer than your ${mine}`,
        true,
      )
    : badge(
        'included-release',
        `Released ${stated} · included in your ${mine}`,
        `released ${stated} · included in your ${mine}`,
        false,
      );
}

/** Most telling first. */
const RANK: Record<Verdict, number> = {
  'newer-fix': 0,
  'affects-yours': 1,
  'newer-release': 2,
  'included-fix': 3,
  'included-release': 4,
  'affects-other': 5,
};

/** The names a text may call the dependency by: `@acme/widgets`, `widgets`, `acme/widgets`, `acme-widgets`. */
export function namesOf(dep: { name: string; slug?: string }): string[] {
  const out = new Set<string>([dep.name]);
  const last = dep.name.split('/').pop()!;
  if (last.length >= 3) out.add(last);
  if (dep.name.startsWith('@')) out.add(dep.name.slice(1).replace('/', '-'));
  if (dep.slug) {
    out.add(dep.slug);
    const repo = dep.slug.split('/')[1]!;
    if (repo.length >= 3) out.add(repo);
  }
  return [...out];
}

/**
 * A result's badges against the installed version: one per distinct statement (kind and version), most
 * telling first (a newer fix, then yours affected, ...). A fix in a version yours includes is dropped when
 * the same result states a newer fix (a backport list: the newer one is what matters).
 */
export function resultBadges(
  title: string | undefined,
  passages: readonly string[],
  dep: InstalledDependency,
): VersionBadge[] {
  const names = namesOf(dep);
  return mentionBadges(
    [
      ...(title ? findVersionMentions(title, { names, title: true }) : []),
      ...passages.flatMap((p) => findVersionMentions(p, { names })),
    ],
    dep,
  );
}

/**
 * The badges of one result's statements, found already (resultBadges finds them in its title and passages;
 * the fixes check finds a whole answer's at once and splits them by result).
 */
export function mentionBadges(mentions: readonly VersionMention[], dep: InstalledDependency): VersionBadge[] {
  // Plain loops: a check runs this for every result of every dependency, mostly before the JIT has optimised it.
  const seen = new Set<string>();
  const out: VersionBadge[] = [];
  const fixes: string[] = [];
  for (const m of mentions) if (m.kind === 'fixed' && m.bound === 'at') fixes.push(m.version);
  for (const m of mentions) {
    const b = compareMention(m, dep, fixes);
    if (!b) continue;
    const key = `${b.kind}:${b.stated}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(b);
  }
  out.sort((a, b) => RANK[a.verdict] - RANK[b.verdict]);
  // A backport list: the fix of your own release line decides. Included there: the other lines' newer fixes
  // are not yours to take. Otherwise a newer fix is the answer and older lines' fixes are noise.
  let newer = false;
  let included = false;
  for (const b of out) {
    if (b.verdict === 'newer-fix') newer = true;
    else if (b.verdict === 'included-fix') included = true;
  }
  if (!newer || !included) return out;
  const scheme = schemeOf(dep.ecosystem);
  const ownLine = dep.version && scheme.valid(dep.version) ? scheme.line(dep.version) : undefined;
  const includedHere = out.some(
    (b) => b.verdict === 'included-fix' && scheme.valid(b.stated) && scheme.line(b.stated) === ownLine,
  );
  return out.filter((b) => b.verdict !== (includedHere ? 'newer-fix' : 'included-fix'));
}

/** The versions of every mention in a result without comparing (for `--json` when the installed version is unknown). */
export function resultMentions(
  title: string | undefined,
  passages: readonly string[],
  dep: { name: string; slug?: string },
): VersionMention[] {
  const names = namesOf(dep);
  return [
    ...(title ? findVersionMentions(title, { names, title: true }) : []),
    ...passages.flatMap((p) => findVersionMentions(p, { names })),
  ];
}

/**
 * The line above the results: "2 results mention a fix newer than your @acme/widgets 2.0.3 (2.1.0)." Says
 * what the badges say; undefined when no result has a badge.
 */
export function versionSummary(
  badges: ReadonlyArray<readonly VersionBadge[]>,
  dep: InstalledDependency,
): string | undefined {
  if (!dep.version) return undefined;
  const scheme = schemeOf(dep.ecosystem);
  const newer = badges.filter((bs) => bs.some((b) => b.verdict === 'newer-fix'));
  const affected = badges.filter((bs) => bs.some((b) => b.verdict === 'affects-yours'));
  const included = badges.filter((bs) => bs.some((b) => b.verdict === 'included-fix'));
  const n = (k: number) => `${k} result${k === 1 ? '' : 's'}`;
  const mentions = (k: number) => (k === 1 ? 'mentions' : 'mention');
  if (newer.length) {
    const versions = [
      ...new Set(newer.flatMap((bs) => bs.filter((b) => b.verdict === 'newer-fix').map((b) => b.stated))),
    ].sort((a, b) => scheme.cmp(a, b));
    return (
      `${n(newer.length)} ${mentions(newer.length)} a fix newer than ` +
      `your ${dep.name} ${dep.version} (${versions.slice(0, 3).join(', ')}${versions.length > 3 ? ', …' : ''}).`
    );
  }
  if (affected.length)
    return (
      `${n(affected.length)} ${affected.length === 1 ? 'says' : 'say'} ` +
      `your ${dep.name} ${dep.version} is affected; none mentions a newer fix.`
    );
  if (included.length)
    return `${n(included.length)} ${mentions(included.length)} a fix your ${dep.name} ${dep.version} already includes.`;
  return undefined;
}
