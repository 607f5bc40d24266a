// Pure: the version statements of a result's title and passages ("fixed in 2.1.0", "4.0.2 is out and includes
// the patch", "broken since 2.0", a release pull request's title). No vscode, no fs. Each version is read with
// the words before and after it (versionPhrases.ts); another product's version ("Node 20") never counts.
import * as P from './versionPhrases';
import { Sentences } from './sentences';

export type MentionKind = 'fixed' | 'affects' | 'released';

export interface VersionMention {
  kind: MentionKind;
  /** The version as the text wrote it, without a leading `v`: `2.1.0`, `2.1`, `2.0.x`, `2.x`. */
  version: string;
  /**
   * How the version bounds the statement: `at` (this version: a fix, a release, an affected version),
   * `since` (this one and later: "since 3.0", "regression in 2.0.0"), `range` (`2.0.x`, or `upto` set).
   */
  bound: 'at' | 'since' | 'range';
  /** The end of an "A through B" range (inclusive). */
  upto?: string;
  /** The sentence the statement is in (for a tooltip), at most 300 characters. */
  sentence: string;
  /** Offset of the statement in the text. */
  index: number;
}

interface FindOptions {
  /** The package's names as a text may write them (`@acme/widgets`, `widgets`, `acme/widgets`): allowed between phrase and version. */
  names?: readonly string[];
  /** The text is a result's title (a release pull request's title counts as `released`). */
  title?: boolean;
  /** False: each mention's `sentence` is left empty (the fixes check shows none, and finding them costs). */
  sentences?: boolean;
}

/**
 * A version: `v2`, `2.1`, `2.1.0`, `1.4.9.2`, `2.1.0-beta.1`, `2.1.0rc1`, `1.3.4.RELEASE`, `2.1.0.0d`, `2.0.x`, `2.x`.
 * A bare `2` needs the `v`.
 */
const VERSION =
  String.raw`(?:[vV]\d+(?:\.(?:\d+|[xX*])){0,3}|\d+(?:\.(?:\d+|[xX*])){1,3})(?:-?(?:alpha|beta|rc|pre|` +
  String.raw`dev|post|a|b)\.?\d*|(?:-(?!\d+\.\d)[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)+|\.(?:RELEASE|Final|` +
  String.raw`GA|SP\d*|M\d+|RC\d*|CR\d+)\b|(?<=\d\.\d+\.\d+)[a-wyz](?![\w.]))?(?:\+[0-9A-Za-z.]+)?`;
const TOKEN = new RegExp(VERSION, 'g');
const LIST_SEP = /^[`'"*_\])]*(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+|\s*\/\s*)[`'"*_[(]*$/i;
const RANGE_SEP = /^[`'"*_\])]*(?:\s*(?:-|–|—|\.\.\.?)\s*|\s+(?:through|thru|until|to)\s+)[`'"*_[(]*$/i;
const TRANSITION_SEP = /^[`'"*_\])]*\s*(?:->|→|=>)\s*[`'"*_[(]*$/;
/** A name right before `@` or `-` (`widgets@2.1.0`, `cargo-0.87.0`). */
const NAME_END = new RegExp(`[${P.NAME}${P.NAME_PAD}]$`);
const FROM_BEFORE = new RegExp(String.raw`\bfrom\s*[\`'"]*(?:${P.NAME}${P.NAME_PAD}*[\s@-]*)?$`, 'i');
const HEADING_LINE = new RegExp(
  String.raw`^\s*(?:#{1,6}\s*)?\[?(?:(?:release|version)\s+)?${VERSION}\]?\s*(?:\(\d{4}-\d{2}-\d{2}\)|[-–—]\s*\d{4}-\d{2}-\d{2})?\s*$`,
  'i',
);
/** How far before a version its phrase may start (a phrase, its gap words, the names and markup between). */
const WINDOW = 100;
/** What may stand before a release heading's version on its line: `## `, `[`, "Release ". */
const HEADING_START = /^\s*(?:#{1,6}\s*)?\[?(?:(?:release|version)\s+)?$/i;
const FIX_WORDS = /\b(?:bug\s*fix(?:es)?|fix(?:es|ed)?|patch(?:es|ed)?|resolve[sd]?)\b/i;

interface Token {
  start: number;
  end: number;
  text: string;
}
interface Statement {
  kind: 'fixed' | 'affects';
  /** The words that made it, for its bound. */
  phrase: string;
  /** Where the statement starts (its phrase, or its first version). */
  at: number;
  /** A phrase before the versions (not version-first): another product's version earlier in the sentence can claim it. */
  led: boolean;
}

/** A version that reads as something else: an IP address, a date, a year, a duration, a branch. */
function implausible(v: string, after: string, before: string): boolean {
  const core = v.replace(/^v/i, '');
  const parts = core.split(/[.+-]/);
  const nums = core.split('.').map(Number);
  // Four numbers: an address when every part fits an octet and one is large (10.0.0.1, 192.168.1.10).
  if (
    /^\d+\.\d+\.\d+\.\d+$/.test(core) &&
    nums.every((n) => n <= 255) &&
    (nums[0]! >= 10 || nums.some((n) => n >= 100))
  )
    return true;
  if (/^[-/:]\d/.test(after) || /^\.\d/.test(after)) return true; // 2024-01-05, 12/03, 10:30, a longer dotted run
  if (/\d[-/.]$/.test(before)) return true;
  if (/^\d{4}$/.test(parts[0]!) && Number(parts[0]) >= 1900 && !/^v/i.test(v) && /^\d{1,2}$/.test(parts[1] ?? '')) {
    // 2023.11.3 is a calendar version; 2024.01 is one only where "version" or a backport names it.
    if (parts.length === 2 && !/(?:version\s*|v|backport\w*\s+(?:\S+\s+){0,4}(?:to|into|for)\s+)$/i.test(before))
      return true;
  }
  if (/^[\s`'"*_]*(?:branch|branches|line|series|migration|guide|docs|changelog)\b/i.test(after)) return true;
  if (
    /^[%x×]/i.test(after) ||
    /^\s*(?:%|percent|ms|s\b|seconds?|minutes?|hours?|days?|weeks?|months?|years?|mb|gb|kb|px|times)/i.test(after)
  )
    return true;
  return false;
}

const nameRes = new Map<string, RegExp | undefined>();

/** The text with each of the package's names replaced by NAME and NAME_PAD (same length, so offsets hold). */
function markNames(text: string, names: readonly string[]): string {
  // Most texts never name the package: a substring test spares compiling and running its expression.
  const lower = text.toLowerCase();
  if (!names.some((n) => /[^ -~]/.test(n) || lower.includes(n.trim().toLowerCase()))) return text;
  const key = names.join('\n');
  let re = nameRes.get(key);
  if (!nameRes.has(key)) {
    const alts = names
      .map((n) => n.trim())
      .filter((n) => n.length > 0)
      .sort((a, b) => b.length - a.length)
      .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    re = alts.length
      ? new RegExp(String.raw`(?<![\w@/.-])(?:${alts.join('|')})(?![\w/]|-(?![vV]?\d))`, 'gi')
      : undefined;
    if (nameRes.size >= 32) nameRes.clear(); // one search's dependency at a time; a handful at most
    nameRes.set(key, re);
  }
  return re ? text.replace(re, (m) => P.NAME + P.NAME_PAD.repeat(m.length - 1)) : text;
}

/** A token is a version only where it stands alone: not `go1.13`, `pre-1.8.0`, a path, `#1.2`, another `x@1.2`. */
function standsAlone(marked: string, t: Token): boolean {
  const next = marked.charCodeAt(t.end);
  if (isWordChar(next)) return false;
  if (next === 47 /* / */ && !/^\/[vV]?\d/.test(marked.slice(t.end, t.end + 3))) return false;
  if (t.start === 0) return true;
  const prev = marked.charCodeAt(t.start - 1);
  if (isWordChar(prev) || prev === 46 /* . */ || prev === 35 /* # */) return false;
  if (prev === 45 /* - */ || prev === 64 /* @ */)
    return NAME_END.test(marked.slice(Math.max(0, t.start - 2), t.start - 1));
  if (prev === 47 /* / */)
    return /(?:\/(?:releases\/tag|tags?|tree)|[\dxX*])\/$/.test(marked.slice(Math.max(0, t.start - 14), t.start));
  return true;
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/**
 * A group with nothing that could make it a statement: no lead-in (checked by the caller), the line ends after
 * it, it does not open its line (a heading), and its line names no fix. Most versions in a dump end here.
 */
function bare(marked: string, g: Token[]): boolean {
  const end = g[g.length - 1]!.end;
  const rest = /^[\s`'"*_)\].,;:!?]*(?:\n|$)/.test(marked.slice(end, end + 8));
  if (!rest) return false;
  const ls = marked.lastIndexOf('\n', g[0]!.start - 1) + 1;
  const line = marked.slice(ls, g[0]!.start);
  return !HEADING_START.test(line) && !/fix/i.test(line);
}

/** The lead-ins of each family in one text, by the offset where the version after them starts. */
interface Leads {
  fixed: Map<number, RegExpExecArray>;
  affects: Map<number, RegExpExecArray>;
  upgrade: Map<number, RegExpExecArray>;
}

function statementBefore(marked: string, sentStart: number, g: Token[], leads: Leads): Statement | undefined {
  const start = g[0]!.start;
  const line = marked.slice(sentStart, start);
  for (const kind of ['fixed', 'affects'] as const) {
    const m = leads[kind].get(start);
    if (!m || m.index < sentStart - 2) continue;
    const lead = marked.slice(Math.max(sentStart, m.index - WINDOW), m.index);
    if (P.negated(lead)) continue;
    if (kind === 'fixed' && /^backport/i.test(m[0].trim()) && P.BACKPORT_WISH.test(line)) continue;
    // "The original error … was released as part of 1.3.4": what was released is the bug.
    if (kind === 'fixed' && P.RELEASED_PHRASE.test(m[0].trim()) && P.BUG_SUBJECT.test(lead))
      return { kind: 'affects', phrase: m[0], at: m.index, led: true };
    return { kind, phrase: m[0], at: m.index, led: true };
  }
  if (line.length <= 60 && /fix/i.test(line) && P.HEADING_FIX_LEAD.test(line.replace(/[\s`'"*_]+$/, '')))
    return { kind: 'fixed', phrase: line, at: sentStart, led: true };
  return undefined;
}

function statementAfter(
  marked: string,
  sentStart: number,
  sentEnd: number,
  g: Token[],
  subjectAt: number,
  leads: Leads,
): Statement | undefined {
  const end = g[g.length - 1]!.end;
  const raw = marked.slice(end, Math.min(sentEnd, end + 200));
  const lead = P.AFTER_LEAD.exec(raw)!;
  const after = raw.slice(lead[0].length);
  if (!after) return undefined;
  const affects = P.AFFECTS_AFTER.test(after);
  const fixed = !affects && P.FIXED_AFTER.test(after);
  const clause = !affects && !fixed && (P.UPGRADE_BREAKS.test(after) || P.AFFECTS_AFTER_CLAUSE.test(after));
  if (!affects && !fixed && !clause) return undefined;
  const upgrade = leads.upgrade.get(g[0]!.start);
  const from = Math.max(sentStart, g[0]!.start - WINDOW);
  const before = marked.slice(from, g[0]!.start);
  const at = upgrade && upgrade.index >= sentStart ? upgrade.index : g[0]!.start;
  const phrase = `${lead[1] ?? ''} ${after.slice(0, 40)}`;
  if (affects || fixed) {
    const subject =
      upgrade !== undefined || P.subjectStarts(marked.slice(Math.max(sentStart, subjectAt - WINDOW), subjectAt));
    if (!subject) return undefined;
    return { kind: affects ? 'affects' : 'fixed', phrase, at, led: false };
  }
  if (P.AFTER_UPGRADE.test(before.replace(/[\s`'"]+$/, '')) && P.UPGRADE_BREAKS.test(after))
    return { kind: 'affects', phrase: `after ${phrase}`, at, led: false };
  if ((upgrade || P.CLAUSE_START.test(before)) && P.AFFECTS_AFTER_CLAUSE.test(after))
    return { kind: 'affects', phrase, at, led: false };
  return undefined;
}

/** A release heading ("## 2.1.1", "2.1.1 (2024-09-13)") whose lines below, up to the next release's, name fixes. */
function headingStatement(marked: string, g: Token[]): Statement | undefined {
  const ls = marked.lastIndexOf('\n', g[0]!.start - 1) + 1;
  const le = marked.indexOf('\n', g[0]!.end);
  if (le < 0 || !HEADING_START.test(marked.slice(ls, g[0]!.start))) return undefined;
  if (!HEADING_LINE.test(marked.slice(ls, le))) return undefined;
  const body: string[] = [];
  for (const line of marked.slice(le + 1, le + 600).split('\n')) {
    if (HEADING_LINE.test(line)) break; // the next release; a sub-heading ("### Bug fixes") is part of this one
    if (!/^\s*[-=]{3,}\s*$/.test(line)) body.push(line);
  }
  return FIX_WORDS.test(body.join('\n')) ? { kind: 'fixed', phrase: '', at: ls, led: false } : undefined;
}

/** Another product's version earlier in the sentence on the same line as `v` ("a bug with Go 1.24.0 … fixed in 1.24.1"). */
function claimedByAnother(marked: string, sentStart: number, at: number, v: string): boolean {
  const [major, minor] = v.replace(/^v/i, '').split('.');
  const before = marked.slice(sentStart, at);
  P.FOREIGN.lastIndex = 0;
  for (let m = P.FOREIGN.exec(before); m; m = P.FOREIGN.exec(before)) {
    if (m[2] === major && (major !== '0' || m[3] === minor) && !P.NOT_FOREIGN.test(m[1]!)) return true;
  }
  return false;
}

const norm = (v: string) => v.replace(/^v/i, '').replace(/[X*]/g, 'x');

/** Each statement once (kind, version, range end and offset). */
function addMention(out: VersionMention[], seen: Set<string>, m: VersionMention): void {
  const key = `${m.kind}:${m.version}:${m.upto ?? ''}:${m.index}`;
  if (seen.has(key)) return;
  seen.add(key);
  out.push(m);
}

/**
 * Every version statement in `text`. A statement that names another package (`fixed in react 18.2`) or a
 * runtime (`Node 20`, `HTTP/2`) is left out: only `names` may stand between the phrase and the version.
 */
export function findVersionMentions(text: string, opts: FindOptions = {}): VersionMention[] {
  const out: VersionMention[] = [];
  if (!text) return out;
  const marked = markNames(text, opts.names ?? []);
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(marked); m; m = TOKEN.exec(marked)) {
    const t = { start: m.index, end: m.index + m[0].length, text: m[0] };
    if (standsAlone(marked, t)) tokens.push(t);
  }
  const seen = new Set<string>();
  const inMarked = new Sentences(marked);
  // The names' marks can change a sentence's end ("lib0. Fixed"): the tooltip's sentence is read in the text.
  const withSentences = opts.sentences !== false;
  const inText = marked === text || !withSentences ? inMarked : new Sentences(text);
  const leads: Leads = tokens.length
    ? {
        fixed: P.leadsEndingAt(marked, P.FIXED_LEAD),
        affects: P.leadsEndingAt(marked, P.AFFECTS_LEAD),
        upgrade: P.leadsEndingAt(marked, P.UPGRADE_LEAD),
      }
    : { fixed: new Map(), affects: new Map(), upgrade: new Map() };
  for (let i = 0; i < tokens.length;) {
    // A group: versions joined by a list, a range or a transition ("2.1.0, 2.0.5 and 1.9.9", "2.0.0 - 2.0.3", "A -> B").
    const g = [tokens[i]!];
    const seps: Array<'list' | 'range' | 'transition'> = [];
    for (i++; i < tokens.length; i++) {
      const between = marked.slice(g[g.length - 1]!.end, tokens[i]!.start);
      if (between.length > 16 || between.includes('\n')) break;
      const sep = TRANSITION_SEP.test(between)
        ? 'transition'
        : RANGE_SEP.test(between)
          ? 'range'
          : LIST_SEP.test(between)
            ? 'list'
            : undefined;
      if (!sep) break;
      seps.push(sep);
      g.push(tokens[i]!);
    }
    if (!leads.fixed.has(g[0]!.start) && !leads.affects.has(g[0]!.start) && bare(marked, g)) continue;
    const [sentStart, sentEnd] = inMarked.bounds(g[0]!.start, g[g.length - 1]!.end);
    // "from 1.14.2 to 1.14.3": the statement is about where the upgrade went.
    if (seps[0] === 'range' && FROM_BEFORE.test(marked.slice(sentStart, g[0]!.start))) seps[0] = 'transition';
    const lastTransition = seps.lastIndexOf('transition');
    const members = g.slice(lastTransition + 1);
    const st =
      statementBefore(marked, sentStart, g, leads) ??
      statementAfter(marked, sentStart, sentEnd, g, members[0]!.start, leads) ??
      headingStatement(marked, g);
    if (!st) continue;
    const memberSeps = seps.slice(lastTransition + 1);
    const sentenceText = marked.slice(sentStart, g[0]!.start);
    if (st.kind === 'fixed' && P.WORKAROUND.test(sentenceText)) continue;
    if (st.led && claimedByAnother(marked, sentStart, st.at, members[0]!.text)) continue;
    if (
      /^(?:[.!?;:(]\s*)?since\b/i.test(st.phrase.trim()) &&
      /^\W*\s*(?:was|is|has|have|had|does|did|will|can|are|were)\b/i.test(
        text.slice(g[g.length - 1]!.end, g[g.length - 1]!.end + 16),
      )
    )
      continue; // "Since 14.3.0 was never published": a reason, not a start
    const after = text.slice(g[g.length - 1]!.end, g[g.length - 1]!.end + 12);
    const beforeFirst = text.slice(Math.max(0, members[0]!.start - 40), members[0]!.start);
    if (implausible(members[0]!.text, members.length > 1 ? '' : after, beforeFirst)) continue;
    const sentence = withSentences ? inText.around(st.at, g[g.length - 1]!.end) : '';
    if (st.kind === 'affects' && memberSeps.length === 1 && memberSeps[0] === 'range') {
      if (!implausible(members[1]!.text, after, ''))
        addMention(out, seen, {
          kind: 'affects',
          version: norm(members[0]!.text),
          bound: 'range',
          upto: norm(members[1]!.text),
          sentence,
          index: st.at,
        });
      continue;
    }
    const listed = memberSeps.includes('range') ? 1 : members.length;
    const since = st.kind === 'affects' && P.SINCE_WORDS.test(st.phrase);
    for (let k = 0; k < listed; k++) {
      const version = norm(members[k]!.text);
      const bound = version.endsWith('x') ? 'range' : since ? 'since' : 'at';
      addMention(out, seen, { kind: st.kind, version, bound, sentence, index: st.at });
    }
  }
  if (opts.title) {
    // A release pull request: "Release 2.1.0", "chore(release): v2.1.0", "chore: release widgets@2.1.0", "v2.1.0", "Version 2.1.0".
    const rel = new RegExp(
      String.raw`^\s*(?:(?:chore|build|ci|release)(?:\([\w.-]*\))?!?:\s*)?(?:(?:release|releasing|` +
        String.raw`prepare\s+release|bump\s+version\s+to|version)\s+)?(?:${P.NAME}${P.NAME_PAD}*(?:@|` +
        String.raw`\s+))?v?(${VERSION})\s*(?:\(\d{4}-\d{2}-\d{2}\))?\s*$`,
      'i',
    );
    const m = rel.exec(marked);
    if (m && /release|version|^\s*v\d/i.test(text) && !/x/i.test(m[1]!)) {
      out.push({
        kind: 'released',
        version: m[1]!.replace(/^v/i, ''),
        bound: 'at',
        sentence: text.trim().slice(0, 300),
        index: m.index,
      });
    }
  }
  out.sort((a, b) => a.index - b.index);
  return out;
}
