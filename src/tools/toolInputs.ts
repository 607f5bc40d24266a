// The tools' input bounds, the checks that name the field and the bound, and the answer budget. About 4 characters
// a token (the usual rule for English prose and markdown; no tokenizer is shipped), so a size and a cut agree.
// No vscode import.
import { show, type ParamIssue } from '../api/params';
import { grouped } from '../words/duration';
import type { ToolDeps } from './toolTypes';

/** Token budgets of the tools' answers: 500 to 50,000 tokens is the 2,000 to 200,000 characters of
 * devIndex.tools.maxResultCharacters. */
export const MIN_MAX_TOKENS = 500;
export const MAX_MAX_TOKENS = 50_000;
/** Fits a normal chat turn: the default 12,000-character budget. */
export const DEFAULT_MAX_TOKENS = 3_000;
export const MIN_WAIT_SECONDS = 1;
export const MAX_WAIT_SECONDS = 600;
export const DEFAULT_WAIT_SECONDS = 60;
export const DEFAULT_LIST_JOBS = 10;
export const MAX_LIST_JOBS = 50;

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

/** An integer input within its bound, or the issue that names the bound. */
export function intIn(
  input: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  issues: ParamIssue[],
): number | undefined {
  const v = input[field];
  if (v === undefined) return undefined;
  if (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max) return v;
  issues.push({ field, message: `${field} must be an integer from ${min} to ${max}; got ${show(v)}` });
  return undefined;
}

export function unknownFields(input: Record<string, unknown>, known: readonly string[], issues: ParamIssue[]): void {
  for (const k of Object.keys(input))
    if (!known.includes(k))
      issues.push({ field: k, message: `${k} is not a field of this tool (known: ${known.join(', ')})` });
}

/** The answer budget in characters: the call's maxTokens (within the caller's cap), else the surface's default. */
export function budgetOf(maxTokens: number | undefined, deps: ToolDeps): number {
  if (maxTokens === undefined) return deps.maxChars();
  const cap = deps.maxCharsCap?.();
  return Math.min(charsForTokens(maxTokens), cap ?? Infinity);
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}
