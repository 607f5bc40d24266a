// One tokenizer for the index, the passage scorer and the reranker, so that a term means the same
// thing in every stage.

const STOP = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'can',
  'do',
  'does',
  'for',
  'from',
  'how',
  'i',
  'if',
  'in',
  'into',
  'is',
  'it',
  'its',
  'me',
  'my',
  'of',
  'on',
  'or',
  'so',
  'that',
  'the',
  'this',
  'to',
  'was',
  'what',
  'when',
  'where',
  'which',
  'why',
  'with',
  'you',
  'your',
]);

const SPLIT = /[^\p{L}\p{N}_]+/u;

/** Lower-cased word tokens without stop words; identifiers split on punctuation (`a.b()` -> a, b). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const t of text.toLowerCase().split(SPLIT)) if (t && !STOP.has(t)) out.push(t);
  return out;
}

export function processTerm(term: string): string | null {
  const t = term.toLowerCase();
  return t && !STOP.has(t) ? t : null;
}
