// Checks of the tools' inputs that name the field and the bound, and the answer budget. No vscode import.
import { show, type ParamIssue } from '../api/params';
import { charsForTokens } from './tokens';
import type { ToolDeps } from './toolTypes';

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
