// devIndex_fixes for both surfaces: check the input, run the fixes check over the folder (the editor's active
// workspace folder, MCP's `folder` or working folder) and answer with fixesText. No vscode import.
import { show, type ParamIssue } from '../api/params';
import { fixesText } from './fixesText';
import { issuesText } from '../words/failureWords';
import { isAbsoluteFolder } from './searchOps';
import { budgetOf, intIn, unknownFields } from './toolInputs';
import { MAX_MAX_TOKENS, MIN_MAX_TOKENS } from './toolInputs';
import type { ToolDeps, ToolOutcome, ToolProgress } from './toolTypes';

export const FIXES_OP = 'The fixes check';
/** At most this many names in `dependencies` (a check of the whole folder needs none). */
const MAX_FIXES_NAMES = 50;

export async function fixesTool(
  input: Record<string, unknown>,
  deps: ToolDeps,
  signal?: AbortSignal,
  progress?: ToolProgress,
): Promise<ToolOutcome> {
  const issues: ParamIssue[] = [];
  unknownFields(
    input,
    deps.surface === 'mcp' ? ['dependencies', 'folder', 'maxTokens'] : ['dependencies', 'maxTokens'],
    issues,
  );
  const maxTokens = intIn(input, 'maxTokens', MIN_MAX_TOKENS, MAX_MAX_TOKENS, issues);
  const names = input.dependencies;
  if (
    names !== undefined &&
    (!Array.isArray(names) ||
      names.length < 1 ||
      names.length > MAX_FIXES_NAMES ||
      names.some((n) => typeof n !== 'string' || !n.trim() || n.length > 214))
  )
    issues.push({
      field: 'dependencies',
      message: `dependencies must be 1 to ${MAX_FIXES_NAMES} package names of 1 to 214 characters; got ${show(names)}`,
    });
  const given = input.folder;
  if (given !== undefined && (typeof given !== 'string' || !isAbsoluteFolder(given)))
    issues.push({ field: 'folder', message: `folder must be an absolute path; got ${show(given)}` });
  if (issues.length) return { isError: true, text: issuesText(issues, 'fixes parameters') };
  if (!deps.fixes) return { isError: true, text: `${FIXES_OP} is not available here.` };
  const folder = deps.dependencyFolder
    ? await deps.dependencyFolder(given as string | undefined)
    : deps.surface === 'mcp'
      ? ((given as string | undefined) ?? process.cwd())
      : undefined;
  if (!folder)
    return {
      isError: true,
      text: 'No workspace folder is open, so there are no dependencies to check. Ask the user to open the project folder.',
    };
  const outcome = await deps.fixes(folder, {
    ...(signal ? { signal } : {}),
    ...(names ? { dependencies: (names as string[]).map((n) => n.trim()) } : {}),
    ...(progress
      ? {
          onProgress: (p) => {
            if (p.kind === 'checked' && !p.cached) progress(`Checked ${p.done} of ${p.total}: ${p.name}`);
          },
        }
      : {}),
  });
  return { isError: false, text: fixesText(outcome, folder, budgetOf(maxTokens, deps)) };
}
