// One rule for "about how many tokens" everywhere a text is written for a model (search answers,
// readMore, job status, the bench): about 4 characters a token, the usual rule of thumb for English
// prose and markdown. No tokenizer vocabulary is shipped; budgets in tokens become budgets in
// characters with the same constant, so what an answer says about its size and what it was cut to agree.
import { grouped } from '../words/duration';

export const CHARS_PER_TOKEN = 4;

/** About how many tokens `text` is (characters / 4, rounded up). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** A token budget as a character budget. */
export function charsForTokens(tokens: number): number {
  return Math.floor(tokens * CHARS_PER_TOKEN);
}

/** "~1,234 tokens" */
export function tokensWords(n: number): string {
  return `~${grouped(n)} tokens`;
}
