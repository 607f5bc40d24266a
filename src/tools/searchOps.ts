// The search tools for every surface (the editor's tools, `devindex mcp`, `@devindex`): devIndex_search, scoped to
// a dependency or the workspace and run through the session's one order of search, badges and summary
// (search/session/searchRun.ts), and devIndex_readMore. No vscode import.
import { DEPENDENCY_PASSAGES, show, validateSearchParams, type ParamIssue, type SearchParams } from '../api/params';
import type { SearchResponse } from '../api/schemas';
import { installedWords, resolveDependencies } from '../deps/dependencyScope';
import type { InstalledDependency, VersionBadge } from '../versions/versionCompare';
import { searchAndCompare } from '../search/session/searchRun';
import { MAX_MAX_TOKENS, MIN_MAX_TOKENS } from './toolInputs';
import { errorText } from './modelText';
import { issuesText } from '../words/failureWords';
import { HANDLE_PATTERN, MORE_MAX_ENTRIES, sharedMoreCache, type MoreCache } from './moreCache';
import { readMoreText, searchAnswer } from './searchAnswer';
import { heldPassages } from './moreCache';
import { budgetOf, intIn, unknownFields } from './toolInputs';
import type { ToolDeps, ToolOutcome } from './toolTypes';

/** What a failed search is called in the error text. */
export const SEARCH_OP = 'The search';

/** `have`: the handles of earlier answers the model still holds, or the issue that names the bound. */
function handlesIn(input: Record<string, unknown>, issues: ParamIssue[]): string[] | undefined {
  const v = input.have;
  if (v === undefined) return undefined;
  const ok =
    Array.isArray(v) && v.length <= MORE_MAX_ENTRIES && v.every((h) => typeof h === 'string' && HANDLE_PATTERN.test(h));
  if (ok) return [...new Set(v as string[])];
  issues.push({
    field: 'have',
    message:
      `have must be a list of at most ${MORE_MAX_ENTRIES} handles, ` +
      `each the text after "answer:" or "more:" in a devIndex_search answer ("m" and 12 ` +
      `hexadecimal digits); got ${show(v)}`,
  });
  return undefined;
}

function ttlWords(cache: MoreCache): string {
  return cache.ttlMs >= 120_000
    ? `${Math.round(cache.ttlMs / 60_000)} minutes`
    : `${Math.round(cache.ttlMs / 1000)} seconds`;
}

/**
 * A search as every surface of the tools runs it (the language-model tool, `devindex mcp`, the `@devindex` chat
 * participant): `dependency` scopes it to that dependency's repository (or `resolved`, a dependency the caller
 * already looked up), `scope: "workspace"` to the workspace's repositories, the parameters checked, the client
 * called; each result from the dependency's repository gets its version badges. Input problems (with `issues`, the
 * caller's own) come back as an error outcome; a failed request throws, as the client does.
 */
export interface ScopedSearch {
  params: SearchParams;
  response: SearchResponse;
  /** Lines an answer starts with (the workspace scope). */
  header: string[];
  /** The dependency it was scoped to, with its installed version. */
  dep?: InstalledDependency;
  /** Per result: its badges against `dep` (undefined: not from the dependency's repository). Only with `dep`. */
  badges?: Array<VersionBadge[] | undefined>;
  /** The summary line against `dep` (none without an installed version or a newer fix). */
  summary?: string;
}

export async function scopedSearch(
  input: Record<string, unknown>,
  deps: ToolDeps,
  signal?: AbortSignal,
  issues: ParamIssue[] = [],
  resolved?: InstalledDependency,
): Promise<ScopedSearch | ToolOutcome> {
  const { scope, maxTokens: _maxTokens, dependency, folder, have: _have, ...rest } = input;
  const header: string[] = [];
  // A dependency name scopes the search to its repository and compares the results' versions.
  const dep = resolved ?? (await dependencyScope(dependency, folder, deps));
  if (dep && 'text' in dep) return dep;
  if (dep) {
    const given = Array.isArray(rest.repos) ? rest.repos : [];
    rest.repos = given.includes(dep.slug) ? given : [...given, dep.slug];
    rest.passages ??= DEPENDENCY_PASSAGES;
  }
  if (scope !== undefined) {
    if (!deps.workspaceRepos) {
      issues.push({
        field: 'scope',
        message:
          'scope is only available in the editor (there is no workspace here); pass repos as owner/repo slugs instead',
      });
    } else if (scope !== 'workspace') {
      issues.push({ field: 'scope', message: `scope may only be "workspace"; got ${show(scope)}` });
    } else {
      const ws = await deps.workspaceRepos();
      if (ws.slugs.length === 0) {
        return {
          isError: true,
          text:
            `scope "workspace" cannot be used: ${'reason' in ws ? ws.reason : 'the workspace has no GitHub repository'}. ` +
            `Search without scope, or pass repos as owner/repo slugs.`,
        };
      }
      const given = Array.isArray(rest.repos) ? rest.repos : [];
      rest.repos = [...given, ...ws.slugs.filter((s) => !given.includes(s))];
      header.push(
        `Scope: the workspace's repositories ${ws.slugs.join(', ')} (issues, ` +
          `pull requests and READMEs only; documentation is not limited by it).`,
      );
    }
  }
  // The client's one check, here so that its issues join the tool's own in one answer; the client trusts what it passed.
  const v = validateSearchParams(rest as unknown as SearchParams);
  if (!v.ok) issues.push(...v.issues);
  if (issues.length || !v.ok) return { isError: true, text: issuesText(issues, 'search parameters') };
  // The one order: the search, then each result's badges against the dependency, then its summary.
  const run = await searchAndCompare((p, o) => deps.search(p, o), v.params, { signal }, dep ? [dep] : []);
  if (!dep) return { params: v.params, response: run.response, header };
  return {
    params: v.params,
    response: run.response,
    header,
    dep,
    badges: run.badges,
    ...(run.summaries[0] ? { summary: run.summaries[0] } : {}),
  };
}

export async function searchTool(
  input: Record<string, unknown>,
  deps: ToolDeps,
  signal?: AbortSignal,
): Promise<ToolOutcome> {
  const issues: ParamIssue[] = [];
  const maxTokens = intIn(input, 'maxTokens', MIN_MAX_TOKENS, MAX_MAX_TOKENS, issues);
  const have = handlesIn(input, issues);
  try {
    const run = await scopedSearch(input, deps, signal, issues);
    if ('isError' in run) return run;
    const { response: res, header } = run;
    const lead = run.dep ? versionsLead(run.dep, run.badges ?? [], run.summary) : undefined;
    const budget = budgetOf(maxTokens, deps);
    const cache = deps.moreCache ?? sharedMoreCache;
    const held = heldPassages(have ?? [], cache);
    if (held.unknown.length) {
      header.push(
        `Not known here (kept ${ttlWords(cache)}, the ${MORE_MAX_ENTRIES} most recent, ` +
          `in this process only): ${held.unknown.join(', ')}; passages they sent are sent again in full.`,
      );
    }
    const answer = searchAnswer(run.params, res, {
      maxChars: lead ? Math.max(1000, budget - lead.length - 2) : budget,
      header,
      cache,
      known: held.known,
    });
    return { isError: false, text: lead ? `${lead}\n\n${answer.text}` : answer.text };
  } catch (e) {
    return { isError: true, text: errorText(e, { surface: deps.surface, op: SEARCH_OP }) };
  }
}

export function readMoreTool(input: Record<string, unknown>, deps: ToolDeps): ToolOutcome {
  const issues: ParamIssue[] = [];
  unknownFields(input, ['handle', 'result', 'passages'], issues);
  const handle = input.handle;
  if (typeof handle !== 'string' || !HANDLE_PATTERN.test(handle)) {
    issues.push({
      field: 'handle',
      message:
        `handle must be the text after "more:" (or "answer:") in a devIndex_search answer ("m" ` +
        `and 12 hexadecimal digits); got ${show(handle)}`,
    });
  }
  const result = intIn(input, 'result', 1, 100, issues);
  const passages = intIn(input, 'passages', 1, 5, issues);
  if (issues.length) return { isError: true, text: issuesText(issues) };
  const cache = deps.moreCache ?? sharedMoreCache;
  const kept = cache.get(handle as string);
  if (!kept) {
    return {
      isError: true,
      text:
        `Handle ${handle as string} is unknown or has expired (answers are kept ` +
        `for ${ttlWords(cache)}, the ${MORE_MAX_ENTRIES} most recent, ` +
        `in this server process only). Run devIndex_search again.`,
    };
  }
  if (result !== undefined && result > kept.results.length) {
    return {
      isError: true,
      text: issuesText([
        {
          field: 'result',
          message: `result must be from 1 to ${kept.results.length} (the results of that answer); got ${result}`,
        },
      ]),
    };
  }
  return readMoreText(handle as string, kept, {
    ...(result !== undefined ? { result } : {}),
    ...(passages !== undefined ? { passages } : {}),
  });
}

/** The dependency a search names, resolved in the folder; an error outcome when it cannot scope; undefined when none is named. */
async function dependencyScope(
  dependency: unknown,
  folder: unknown,
  deps: ToolDeps,
): Promise<InstalledDependency | ToolOutcome | undefined> {
  if (dependency === undefined) {
    return folder === undefined
      ? undefined
      : {
          isError: true,
          text: issuesText(
            [{ field: 'folder', message: 'folder is only read together with dependency' }],
            'search parameters',
          ),
        };
  }
  if (typeof dependency !== 'string' || !dependency.trim() || dependency.length > 214) {
    return {
      isError: true,
      text: issuesText(
        [
          {
            field: 'dependency',
            message: `dependency must be a package name of 1 to 214 characters; got ${show(dependency)}`,
          },
        ],
        'search parameters',
      ),
    };
  }
  if (folder !== undefined && (typeof folder !== 'string' || !isAbsoluteFolder(folder))) {
    return {
      isError: true,
      text: issuesText(
        [{ field: 'folder', message: `folder must be an absolute path; got ${show(folder)}` }],
        'search parameters',
      ),
    };
  }
  const given = folder as string | undefined;
  const root = deps.dependencyFolder
    ? await deps.dependencyFolder(given)
    : deps.surface === 'mcp'
      ? (given ?? process.cwd())
      : undefined;
  if (!root)
    return {
      isError: true,
      text:
        'dependency cannot be used: no workspace folder is open. ' +
        'Ask the user to open the project folder, or search with repos as owner/repo slugs.',
    };
  const r = await resolveDependencies(deps.folderDependencies, root, [dependency.trim()], { maxDependencies: 5000 });
  if (!r.ok) {
    const fix =
      r.reason === 'unknown'
        ? ' Call again with one of those names, or search with repos as owner/repo slugs.'
        : ' Search without dependency (or with repos, if you know its repository).';
    return {
      isError: true,
      text: `dependency ${JSON.stringify(dependency.trim())} cannot scope the search: ${r.message}.${fix}`,
    };
  }
  return r.deps[0]!;
}

/** The lines the answer starts with: the installed version, then per result how its version statements compare. */
export function versionsLead(
  dep: InstalledDependency,
  badges: ReadonlyArray<readonly VersionBadge[] | undefined>,
  summary: string | undefined,
): string {
  const comparedWith = dep.version
    ? `version ${dep.version}`
    : 'nothing: the installed version is unknown (nothing on disk states it), so no statement is compared';
  const lines = [`Installed: ${installedWords(dep)}. Results from ${dep.slug} are compared with ${comparedWith}.`];
  if (summary) lines.push(summary);
  badges.slice(0, 50).forEach((b, i) => {
    const words =
      b === undefined
        ? "not from this dependency's repository"
        : b.length
          ? b.map((x) => `${x.text} ("${x.sentence.slice(0, 160)}")`).join('; ')
          : 'states no version';
    lines.push(`[${i + 1}] ${words}`);
  });
  return lines.join('\n');
}

/**
 * An absolute folder on any host: a POSIX path, a Windows drive or UNC path, or (in the browser) a
 * workspace URI such as `vscode-vfs://github/owner/repo`. Pure, so the browser bundle needs no node:path.
 */
export function isAbsoluteFolder(folder: string): boolean {
  return (
    folder.startsWith('/') ||
    /^[A-Za-z]:[\\/]/.test(folder) ||
    folder.startsWith('\\\\') ||
    /^[a-z][a-z0-9+.-]*:\/\//i.test(folder)
  );
}
