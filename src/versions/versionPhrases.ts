// Pure: the phrase families of a version statement, as people write them in issues and pull requests. Text
// before a version ("fixed again in", "regression introduced by"), text after it ("is out and includes the
// fix", "broke uploads"), and what turns either off (a negation, a workaround, another product's version).

/** Stands for one of the package's own names in the marked text (the rest of the name is NAME_PAD). */
export const NAME = '\x01';
export const NAME_PAD = '\x02';
const N = `${NAME}${NAME_PAD}*`;

/** Words that may stand between a phrase's verb and its preposition: "fixed again in", "the fix for #12 ships in". */
const GAP =
  String.raw`(?:\s+(?:again|now|already|also|finally|properly|officially|indeed|actually|just|` +
  String.raw`probably|definitely|hopefully|then|fully|completely|upstream|#\d+|\(#\d+\)|(?:for|to|from|` +
  String.raw`of)\s+(?:#|gh-)\d+))*`;
/** Words between a phrase and its version besides the package's names ("fixed in the release 2.1.0"). */
const FILLER =
  String.raw`(?:the|version|versions|release|releases|ver\.?|tag|npm|crate|module|package|our|latest|` +
  String.raw`recent|current|new|newest|last|stable|patch|minor|major|update|upgrade|build)`;
/** Markup around a version: emphasis, code, a markdown link whose target is the release tag. */
const MARKUP = String.raw`[\[\`'"(*_=@]*(?:\[[^\]\n]{0,40}\]\([^)\s]*\/(?:releases\/tag|tags?|tree)\/)?`;
const LEAD = String.raw`\s*[:*_]*\s*(?:${FILLER}\s+)*(?:[\`'"*_\[(]*${N}(?:\s+|==|[@:=\`'"-])*(?:${FILLER}\s+)*)?${MARKUP}`;

/** Lead-ins to a fix version; the last word sits right before the version or its lead. */
const FIXED_BEFORE = [
  String.raw`(?:fixed|resolved|addressed|patched|solved|corrected)${GAP}\s+(?:in|on|by|with|via|as\s+of|since|starting\s+(?:in|with|from))`,
  String.raw`(?:fixed|resolved|patched)(?:\s+(?:the\s+)?(?:issue|bug|problem|crash|it|` +
    String.raw`this))?${GAP}\s+and\s+(?:released|published|pushed|shipped|tagged)(?:\s+(?:it|this|` +
    String.raw`the\s+fix))?(?:\s+(?:as|in|with))?`,
  String.raw`(?:bug\s*)?(?:fix|fixes|patch|bugfix|bugfixes)${GAP}\s+(?:(?:is|was|are|were|has\s+been|` +
    String.raw`have\s+been|will\s+be|should\s+be|gets|got)\s+)?(?:(?:now|already|also|finally)\s+)?(?:in|` +
    String.raw`available\s+in|included\s+in|released\s+in|shipped\s+in|landed\s+in|out\s+in|` +
    String.raw`published\s+in|ships\s+in|lands\s+in|goes\s+out\s+in|went\s+into|made\s+it\s+into|part\s+of)`,
  String.raw`(?:released|landed|shipped|published|available|included|out)${GAP}\s+(?:in|as\s+part\s+of|with)`,
  String.raw`backport(?:s|ed|ing)?(?:\s+(?!to\b|into\b|for\b)[\w#.-]+){0,4}?\s+(?:to|into|for)`,
];
/** Fields at a line's start: "- Fixed: 1.2.4", "**Fixed in:** 2.1.0". */
const FIXED_FIELD = String.raw`^[\s>*-]*(?:fixed|patched|resolved)(?:\s+(?:in|versions?))?[*_]*\s*:`;
/** Lead-ins to an affected version. */
const AFFECTS_BEFORE = [
  String.raw`(?:broken|broke|breaks|failing|fails|crashes|crashing|regressed|started|starts|happens|` +
    String.raw`happening|occurs|reproducible|present|exists|panics|hangs)\s+(?:since|from|as\s+of|` +
    String.raw`starting\s+(?:with|from|in)|after\s+(?:upgrading|updating)\s+to)`,
  String.raw`(?:regressions?|regressed|bugs?|issues?|breakage|breaking\s+changes?|` +
    String.raw`(?:memory\s+)?leaks?)\s+(?:introduced\s+)?(?:in|since|from)`,
  String.raw`(?:regressions?|breakage|bugs?)\s+with`,
  String.raw`(?:introduced|caused|triggered)\s+(?:in|with|by)`,
  String.raw`(?:still\s+)?(?:happens|happening|occurs|occurring|reproduces|broken|fails|failing|` +
    String.raw`exists|crashes|panics)\s+(?:on|in|with|under)`,
  String.raw`still\s+(?:there|present|happening|broken|an?\s+(?:issue|problem))(?:\s+even)?\s+(?:on|in|with|after|as\s+of)`,
  String.raw`(?:reproduced|reproducible|seen|observed)\s+(?:on|in|with)`,
  String.raw`(?:after|since|when|back\s+to)\s+(?:(?:the|a|an|our|my)\s+)?(?:${N}\s+)?(?:upgrading|` +
    String.raw`updating|moving|bumping|switching|going|upgraded|updated|bumped|moved|` +
    String.raw`switched)\s+(?:\w+\s+)?to`,
  String.raw`(?:having|had|have|has|seeing|saw|see|getting|got|facing|experiencing|hit|hitting|found|` +
    String.raw`noticed)\s+(?:(?:this|the|that|an?|same|some|similar|these|those)\s+)?(?:(?!no\b|` +
    String.raw`any\b)\w+\s+)?(?:problems?|issues?|trouble|errors?|crash(?:es)?|bugs?|` +
    String.raw`regressions?)\s+(?:with|in|on|using)`,
  String.raw`(?:panics?|crash(?:es)?|errors?|bugs?|leaks?|hangs?|failures?)\s+(?:when|while)\s+(?:using|running|on|with)`,
  String.raw`(?:panics?|crash(?:es)?|exceptions?|segfaults?|failures?)(?:\s+[\w-]+){0,3}?\s+(?:with|in)`,
  String.raw`(?:broken|crash\w*|fail\w*|panic\w*|hang\w*|errors?)(?:\s+[\w-]+){0,3}?\s+since`,
  String.raw`(?:bugs?|(?:memory\s+)?leaks?|regressions?|crash(?:es)?|issues?|problems?)\s+between`,
  String.raw`affect(?:s|ed|ing)?(?:\s+versions?)?`,
  String.raw`affected\s+versions?\s*:?`,
];
const AFFECTS_ANCHORED = [
  String.raw`(?:^|[.!?;:(]\s*)since`,
  String.raw`^[\s>*-]*(?:introduced(?:\s+in)?|affected(?:\s+versions?)?)[*_]*\s*:`,
];
/** An upgrade whose target is a fix or a breakage only by what follows it ("upgrade to 2.1.0, which fixes this"). */
const UPGRADE_BEFORE = String.raw`(?:upgrad\w*|updat\w*|bump\w*)(?:\s+(?:${N}|the\s+\w+|it))?\s+to`;

/** A family's phrases as one regular expression over a whole text; each match ends where a version begins. */
const before = (phrases: string[], anchored: string[] = []) =>
  new RegExp(
    String.raw`(?:\b(?:${phrases.join('|')})${anchored.map((a) => `|${a}`).join('')})${LEAD}(?=[vV]?\d)`,
    'gim',
  );
export const FIXED_LEAD = before(FIXED_BEFORE, [FIXED_FIELD]);
export const AFFECTS_LEAD = before(AFFECTS_BEFORE, AFFECTS_ANCHORED);
export const UPGRADE_LEAD = before([UPGRADE_BEFORE]);

/** Where in `text` each match of a family's expression ends (so a version starting there has that lead-in). */
export function leadsEndingAt(text: string, re: RegExp): Map<number, RegExpExecArray> {
  const out = new Map<number, RegExpExecArray>();
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (!out.has(m.index + m[0].length)) out.set(m.index + m[0].length, m);
    if (m[0].length === 0) re.lastIndex++;
  }
  return out;
}
/** "Crash fix (v2.3.1.2)", "Crash fixes 18.0.3": a short heading that names its fix before the version. */
export const HEADING_FIX_LEAD = /(?:^|[\s([])(?:bug|crash|hot|security)?\s*fix(?:es)?\s*[([]?$/i;

/** What may follow a version before its predicate: closing markup, "(or higher)", "release". */
export const AFTER_LEAD =
  /^[\s`'"*_)\]]*(\((?:or\s+(?:higher|later|newer|above)|and\s+(?:up|later|above|newer))\)\s*|\([^()\n]{1,40}\)\s*)?[\s,]*(?:(?:release|version|update|build)\b\s*)?/i;
const BUG = String.raw`(?:bugs?|issues?|errors?|problems?|regressions?|panics?|crash(?:es)?|leaks?|breakage|breaking\s+changes?)\b`;
/** A version-first breakage: "3.2.1 broke uploads", "v0.8.0 is currently broken", "0.40.4 - reproducible". */
export const AFFECTS_AFTER = new RegExp(
  [
    String.raw`^(?:(?:which|that)\s+)?(?:(?:is|was|are|were|has\s+been|seems?\s+to\s+be|` +
      String.raw`looks?\s+to\s+be|appears?\s+to\s+be)\s+)?(?:(?:still|currently|now|also|completely|` +
      String.raw`totally|badly|again|constantly|very)\s+)*(?:broken|buggy|affected|failing|crashing|` +
      String.raw`panicking|unusable|a\s+regression|(?:a\s+)?breaking(?:\s+change)?|breaks?|broke|fails?|` +
      String.raw`failed|crash(?:es|ed)?|panics?|panicked|hangs?|leaks?|regress(?:es|ed)?|reproducible|reproduces)\b`,
    String.raw`^(?:does\s+not|doesn't|did\s+not|didn't|no\s+longer)\s+(?:seem\s+to\s+)?(?:work|build|compile|install|start|run|load)\b`,
    String.raw`^(?:still\s+)?(?:has|have|had|contains?|introduced|introduces|causes?|caused|generates?|` +
      String.raw`triggers?)\s+(?:(?!fix|patch|resolv)\S+\s+){0,3}?\[?${BUG}`,
    String.raw`^(?:looks?|seems?|appears?)\s+to\s+\[?(?:be\s+)?(?:breaking|broken|failing|crashing|panicking)\b`,
    String.raw`^(?:[a-z-]+\s+){0,2}(?:has|have|had)\s+broken\b`,
    String.raw`^[-–—:]\s*(?:[\w-]+\s+){0,2}?(?:still\s+)?(?:reproducible|broken|breaks|fails|failing|crash\w*(?!\s+fix)|affected)\b`,
    String.raw`^(?:and\s+)?(?:got|get|getting|see|saw|hit|hits)\s+(?:an?\s+|the\s+|` +
      String.raw`this\s+)?(?:[\w-]+\s+)?(?:crash|panic|error|exception|failure|segfault)`,
  ].join('|'),
  'i',
);
/** After "in 2.18": "this throws", "it fails". */
export const AFFECTS_AFTER_CLAUSE =
  /^(?:it|this|that)\s+(?:\w+\s+){0,2}?(?:throws?|fails?|breaks?|crash\w*|panics?|errors?|hangs?)\b/i;
/** A version-first fix: "4.0.2 is out and includes the patch", "10.4.0 has been released and contains a fix". */
export const FIXED_AFTER = new RegExp(
  [
    String.raw`^(?:(?:is|was|has\s+been|have\s+been|got|gets|are|were)\s+)?(?:(?:just|now|finally|` +
      String.raw`also)\s+)?(?:(?:released|published|out|shipped|tagged|up|available|live|pushed|` +
      String.raw`uploaded)\b(?:\s+\S+){0,6}?\s*)?(?:(?:to|on)\s+[\w.-]+\s*)?(?:(?:,|and|which|` +
      String.raw`that)\s*)?(?:(?:now|also|finally|then)\s+)*(?:(?:includes?|including|contains?|has|have|` +
      String.raw`brings?|ships?|comes\s+with|with)\s+(?:\S+\s+){0,3}?(?:fix|fixes|fixed|bugfix|bugfixes|` +
      String.raw`bug\s+fix(?:es)?|patch|patches|change|changes)\b|(?:attempts?\s+to\s+|` +
      String.raw`seems?\s+to\s+(?:have\s+)?|should\s+)?(?:fix(?:es|ed)?|resolves?|resolved|solves?|solved|` +
      String.raw`addresses|addressed|corrects?)\b)`,
    String.raw`^(?:,\s*)?(?:which|that|and|to)\s+(?:\S+\s+){0,5}?(?:fix(?:es)?|resolves?|solves?|prevents?|addresses|corrects?)\b`,
    String.raw`^[(:—–-]+\s*(?:\S+\s+){0,3}?(?:bug\s*|crash\s*)?fix(?:es|ed)?\b`,
  ].join('|'),
  'i',
);

/** Where a version-first statement's subject may begin: a sentence start, a conjunction, a release verb. */
const SUBJECT_WORDS =
  String.raw`(?:\s*(?:\b(?:version|release|releases|tag|the|our|current|latest|new|newest|stable|this|` +
  String.raw`that|upgrade|update|build|upgrading|building|using|running|recent)\b|${N}))*`;
const SUBJECT_START = new RegExp(
  String.raw`(?:^|[.!?;:,(\[]|\b(?:and|but|so|that|because|while|which|where|now|then)|\b(?:released?|` +
    String.raw`releasing|published|publish|pushed|push|uploaded|upload|tagged|cut|shipped|ship|prepare|` +
    String.raw`preparing|prepared|bumped|bump|installed|installing|tried|trying)(?:\s+(?:out|` +
    String.raw`up))?(?:\s+(?:for|as|of|to))?|\bto|(?:release|version)\b[^,\n]{0,30},|` +
    String.raw`\bversion\s+of)${SUBJECT_WORDS}\s*$`,
  'i',
);
const SUBJECT_TAIL = new RegExp(String.raw`[\s\`'"(\[*_=@-]*(?:${N}(?:\s+|==|[@:=\`'"-])*)?${MARKUP}$`);

/** `before` (ending at the version) leaves the version as the subject of what follows it. */
export function subjectStarts(before: string): boolean {
  return SUBJECT_START.test(before.replace(SUBJECT_TAIL, ''));
}
/** "After v2.4.0 upgrade getting occasional panics": an upgrade to the version, then a breakage in the sentence. */
export const AFTER_UPGRADE = /\b(?:after|since)\s*$/i;
export const UPGRADE_BREAKS =
  /^(?:upgrade|update)\b(?:\s+\S+){0,6}?\s+(?:crash\w*|panics?|fail\w*|errors?|broken|breaks|hangs?|leaks?)\b/i;
/** `before` ends with "in", "on", "with": the subject of "this throws" is what runs at that version. */
export const CLAUSE_START = /\b(?:in|on|with|using)\s*$/i;

/** A release phrase whose subject is the bug, not its fix: "the error … was released as part of 1.3.4". */
export const RELEASED_PHRASE = /^(?:released|landed|shipped|published|available|included|out)\b/i;
export const BUG_SUBJECT =
  /\b(?:bug|error|regression|issue|problem|crash|leak|breakage)s?\b(?![^,;]*\b(?:fix|fixes|fixed|patch|change|pr)\b)/i;

/** A negation right before a phrase: "not fixed in", "have not been reported to be resolved with". */
const NEGATED = /(?:\b(?:not|never|no\s+longer|cannot|without)|n't)\s+(?:[\w-]+\s+){0,4}$/i;
export const negated = (beforePhrase: string) => NEGATED.test(beforePhrase);
/** A pin or downgrade, which a workaround names, not a fix: "using `x = "=0.11.2"` fixes it". */
export const WORKAROUND =
  /\b(?:work-?around|downgrad\w*|fix(?:ing|ed)?\s+(?:the\s+)?(?:\S+\s+)?version\s+to|pinn(?:ing|ed)|pin\s+to|revert(?:ed|ing)?\s+to|roll(?:ing|ed)?\s+back|stick(?:ing)?\s+(?:with|to))\b|=\s*["'`]?=/i;
/** A question or a wish about a backport, not a backport: "could you backport it to 3.9?". */
export const BACKPORT_WISH = /\b(?:should|could|would|can)\s+(?:we|you|it|this)\b|\bworth\b|\bconsider/i;
/** A phrase's words that start a range of versions rather than one ("broken since 2.0": 2.0 and later). */
export const SINCE_WORDS =
  /\b(?:since|from|as\s+of|starting|regress\w*|introduced|after|started|starts|or\s+higher|or\s+later|and\s+up)\b/i;

/**
 * Another product's version in the sentence ("a bug with Go 1.24.0", "pin pytest version to 7.0.1"): a
 * capitalised word, or a word before "version", that no phrase uses. Group 1 is the word, 2 the major, 3 the minor.
 */
export const FOREIGN =
  /\b([A-Z][\w.+-]*|[a-z][\w.+-]*(?=\s+version\b))(?:\s+version(?:\s+to)?)?[\s`'"]+v?(\d+)\.(\d+)/g;
export const NOT_FOREIGN =
  /^(?:fix\w*|resolv\w*|releas\w*|versions?|ver|v|since|broke\w*|break\w*|regress\w*|affect\w*|backport\w*|introduc\w*|patch\w*|in|on|at|to|from|and|or|the|of|for|with|by|as|upgrad\w*|updat\w*|bump\w*|still|after|before|current|latest|stable|new|our|this|that|tag|issue\w*|bugs?|crash\w*|available|included|landed|shipped|published|merged|reproduc\w*|happens|fails|failing|start\w*|present|exists|observed|seen|between|using|when|while|tested|status|note|notes|changelog)$/i;
