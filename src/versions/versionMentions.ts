// Pure: the version statements of a result's title and passages ("fixed in 2.1.0", "broken since 2.0",
// "affects 2.x", a release pull request's title). No vscode, no fs. A statement counts only when a known
// phrase leads to the version with nothing between them but "version", "release", "the" or the package's
// own name: so "Node 20", "HTTP/2", "react 18.2.0", dates and addresses never count.

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

export interface FindOptions {
  /** The package's names as a text may write them (`@acme/widgets`, `widgets`, `acme/widgets`): allowed between phrase and version. */
  names?: readonly string[];
  /** The text is a result's title (a release pull request's title counts as `released`). */
  title?: boolean;
}

/** A version: `v2`, `2.1`, `2.1.0`, `2.1.0-beta.1`, `2.1.0rc1`, `2.0.x`, `2.x`. A bare `2` needs the `v`. */
const VERSION = String.raw`(?:v\d+(?:\.(?:\d+|[xX*])){0,3}|\d+(?:\.(?:\d+|[xX*])){1,3})(?:-?(?:alpha|beta|rc|pre|dev|post|a|b)\.?\d*|(?:-[0-9A-Za-z.]+)+)?(?:\+[0-9A-Za-z.]+)?`;
/** What may stand between a phrase and its version besides the package's names. */
const FILLER = String.raw`(?:(?:the|version|versions|release|releases|ver\.?|tag|npm|crate|module|package|our|latest|stable|patch|minor|major)\s+|v(?=\d))*`;

const FIXED = [
  String.raw`(?:has\s+been\s+|was\s+|is\s+|been\s+|got\s+|will\s+be\s+|should\s+be\s+|now\s+)?(?:fixed|resolved|addressed|patched|solved|corrected)\s+(?:in|by|with|as\s+of|since|starting\s+(?:in|with|from))`,
  String.raw`(?:fix(?:es)?|the\s+fix|a\s+fix|patch)\s+(?:is\s+|was\s+|has\s+been\s+|will\s+be\s+)?(?:in|available\s+in|included\s+in|released\s+in|shipped\s+in|landed\s+in|out\s+in|published\s+in)`,
  String.raw`(?:released|landed|shipped|published|available|included|merged\s+into|out)\s+(?:in|as\s+part\s+of|with)`,
  String.raw`backported\s+(?:to|in|into)`,
  String.raw`(?:upgrade|update|bump|upgrading|updating)\s+to(?=\s+(?:\S+\s+)?v?\d[\w.]*\s+(?:to\s+fix|fixes|which\s+fixes|resolves|solves|and\s+(?:it|this)\s+(?:is|was)\s+fixed))`,
];
const AFFECTS = [
  String.raw`(?:broken|broke|breaks|failing|fails|crashes|regressed|started|starts|happens|happening|occurs|reproducible|present|exists)\s+(?:since|from|as\s+of|starting\s+(?:with|from|in)|after\s+(?:upgrading|updating)\s+to)`,
  String.raw`(?:regression|regressions|regressed|bug|issue|breakage|breaking\s+change)\s+(?:introduced\s+)?(?:in|since|from)`,
  String.raw`introduced\s+(?:in|with|by)`,
  String.raw`(?:still\s+)?(?:happens|occurs|reproduces|broken|fails|present|failing|exists)\s+(?:on|in|with|under)`,
  String.raw`(?:reproduced|reproducible|seen|observed)\s+(?:on|in|with)`,
  String.raw`(?:after|since)\s+(?:upgrading|updating|moving|bumping)\s+to`,
  String.raw`affect(?:s|ed|ing)?(?:\s+versions?)?`,
  String.raw`affected\s+versions?\s*:?`,
  String.raw`(?:^|(?<=[\s(]))since`,
];
/** Phrases whose version is a starting point ("broken since 2.0": 2.0 and later). */
const SINCE_WORDS = /\b(?:since|from|as\s+of|starting|regress\w*|introduced|after|started|starts)\b/i;

const LIST_SEP = String.raw`(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s+or\s+|\s*/\s*)`;
const RANGE_SEP = String.raw`(?:\s*(?:-|–|—|\.\.\.?)\s*|\s+(?:through|thru|to|until)\s+)`;

function phraseRe(phrases: string[]): string {
  return `(?:${phrases.join('|')})`;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The sentence around [start, end): from the previous sentence end (a `.!?` before a space, a line break) to the next. */
export function sentenceAround(text: string, start: number, end: number): string {
  let a = start;
  while (a > 0) {
    const c = text[a - 1]!;
    if (c === '\n') break;
    if (/[.!?]/.test(c) && /\s/.test(text[a] ?? '') && !/\d/.test(text[a - 2] ?? '')) break;
    a--;
  }
  let b = end;
  while (b < text.length) {
    const c = text[b]!;
    if (c === '\n') break;
    if (/[.!?]/.test(c) && (b + 1 >= text.length || /\s/.test(text[b + 1]!))) {
      b++;
      break;
    }
    b++;
  }
  let s = text.slice(a, b).replace(/\s+/g, ' ').trim();
  if (s.length > 300) {
    const mid = Math.max(0, start - a - 140);
    s = `${mid > 0 ? '…' : ''}${s.slice(mid, mid + 298).trim()}…`;
  }
  return s;
}

/** A version that reads as something else: an IP address, a date, a year. */
function implausible(v: string, after: string, before: string): boolean {
  const core = v.replace(/^v/i, '');
  const parts = core.split(/[.+-]/);
  if (/^\d+\.\d+\.\d+\.\d+$/.test(core)) return true; // four numbers: an address (or a build number, too rare to be worth a wrong badge)
  if (/^[-/:]\d/.test(after) || /^\.\d/.test(after)) return true; // 2024-01-05, 12/03, 10:30, a longer dotted run
  if (/\d[-/.]$/.test(before)) return true;
  if (
    /^\d{4}$/.test(parts[0]!) &&
    Number(parts[0]) >= 1900 &&
    !/^v/i.test(v) &&
    parts.length <= 3 &&
    /^\d{1,2}$/.test(parts[1] ?? '') &&
    /^(?:\.\d{1,2})?$/.test(core.slice(parts[0]!.length + 1 + (parts[1] ?? '').length))
  ) {
    // 2023.12 / 2023.12.25 are calendar versions only when a phrase said "version"; as plain numbers they are dates.
    return !/version\s*$|v$/i.test(before);
  }
  if (/^\s*(?:branch|line|series|migration|guide|docs|changelog)\b/i.test(after)) return true; // a branch or a document, not a version statement
  if (
    /^[%x×]/i.test(after) ||
    /^\s*(?:%|percent|ms|s\b|seconds?|minutes?|hours?|days?|weeks?|months?|years?|mb|gb|kb|px|times)/i.test(after)
  )
    return true;
  return false;
}

/**
 * Every version statement in `text`. A statement that names another package (`fixed in react 18.2`) or a
 * runtime (`Node 20`, `HTTP/2`) is left out: only `names` may stand between the phrase and the version.
 */
export function findVersionMentions(text: string, opts: FindOptions = {}): VersionMention[] {
  const out: VersionMention[] = [];
  if (!text) return out;
  const names = (opts.names ?? [])
    .filter((n) => n.trim().length > 0)
    .map((n) => escapeRe(n.trim()))
    .sort((a, b) => b.length - a.length);
  const nameRe = names.length
    ? String.raw`(?:[\`'"]?(?:${names.join('|')})(?:@|\s+|[\`'"]\s*|:\s*)(?:${FILLER}))?`
    : '';
  const lead = String.raw`\s*:?\s*(?:${FILLER})${nameRe}[\`'"]?@?`;
  const versionList = String.raw`(${VERSION})((?:${RANGE_SEP}(?:v)?(?:${VERSION}))?)((?:${LIST_SEP}v?(?:${VERSION}))*)`;
  for (const [kind, phrases] of [
    ['fixed', FIXED],
    ['affects', AFFECTS],
  ] as const) {
    const re = new RegExp(String.raw`\b(${phraseRe(phrases)})${lead}${versionList}(?![\w/])`, 'gi');
    for (const m of text.matchAll(re)) {
      const phrase = m[1]!;
      const first = m[2]!;
      const rangeTail = m[3] ?? '';
      const listTail = m[4] ?? '';
      const start = m.index;
      const end = start + m[0].length;
      const after = text.slice(end, end + 12);
      const firstAt = start + m[0].indexOf(first, phrase.length);
      // A list or range after the first version is part of the statement, not a date's or an address's tail.
      if (implausible(first, rangeTail || listTail ? '' : after, text.slice(Math.max(0, firstAt - 12), firstAt)))
        continue;
      const sentence = sentenceAround(text, start, end);
      const norm = (v: string) => v.replace(/^v/i, '').replace(/[X*]/g, 'x');
      if (rangeTail && kind === 'affects') {
        const upto = rangeTail.replace(new RegExp(`^${RANGE_SEP}v?`, 'i'), '');
        if (!implausible(upto, after, ''))
          out.push({ kind, version: norm(first), bound: 'range', upto: norm(upto), sentence, index: start });
        continue;
      }
      const versions = [first, ...[...listTail.matchAll(new RegExp(`v?(${VERSION})`, 'gi'))].map((x) => x[1]!)];
      for (const v of versions) {
        const n = norm(v);
        const bound = /x$/.test(n) ? 'range' : kind === 'affects' && SINCE_WORDS.test(phrase) ? 'since' : 'at';
        out.push({ kind, version: n, bound, sentence, index: start });
      }
    }
  }
  if (opts.title) {
    // A release pull request: "Release 2.1.0", "chore(release): v2.1.0", "chore: release widgets@2.1.0", "v2.1.0", "Version 2.1.0".
    const rel = new RegExp(
      String.raw`^\s*(?:(?:chore|build|ci|release)(?:\([\w.-]*\))?!?:\s*)?(?:(?:release|releasing|prepare\s+release|bump\s+version\s+to|version)\s+)?${nameRe}v?(${VERSION})\s*(?:\(\d{4}-\d{2}-\d{2}\))?\s*$`,
      'i',
    );
    const m = rel.exec(text);
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
