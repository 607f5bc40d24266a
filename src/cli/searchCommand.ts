// `devindex search "<query>" [flags]`: one developer search, printed for a terminal or as JSON.
import type { CallOptions, ClientOptions } from '../api/client';
import type { CoverageNote } from '../api/coverage';
import type { SearchParams } from '../api/params';
import { validateSearchParams, DEPENDENCY_PASSAGES } from '../api/params';
import { validationError } from '../api/errors';
import { licenseLabel, passageLink, provenance } from '../api/results';
import { displayTitle, type SearchResponse } from '../api/schemas';
import { searchAndCompare, type SearchRun } from '../search/session/searchRun';
import { dependencyOfResult, installedWords, resolveDependencies } from '../deps/dependencyScope';
import { resolveFolder } from '../deps/resolver';
import { resultMentions, type InstalledDependency } from '../versions/versionCompare';
import {
  booleanFlag,
  createClientFromEnv,
  jsonForTerminal,
  numberFlag,
  parseCliArgs,
  printError,
  retryPrinter,
  splitList,
  type CliOptions,
} from './common';
import { EXIT_OK, EXIT_USAGE, sanitizeForTerminal, UsageError, type CliIo } from './cliBase';
import { capPassageLines, moreLinesNotice } from './passageCap';

const SEARCH_USAGE = `Usage: devindex search "<query>" [options]

Search the developer index: documentation pages, issues, pull requests and READMEs.

Options:
  --k N                 number of results, 1 to 100 (default 10)
  --types LIST          comma-separated: doc, issue, pull_request, readme (default all)
  --repos LIST          comma-separated owner/repo slugs (scopes issues, pull requests, READMEs)
  --sources LIST        comma-separated documentation source ids, at most 20 (scopes doc results)
  --skills only         search only indexed agent-skill files
  --passages N          matched passages per result, 1 to 5 (default 1)
  --language L          repository primary language
  --topic T             repository topic; repeat it or use a comma list for several
                        (at most 8; a repository with any of them matches)
  --license L           repository license
  --min-stars N         at least N stars (N >= 0)
  --max-stars N         at most N stars (N >= 0)
  --archived true|false include or exclude archived repositories
  --fork true|false     include or exclude forks
  --dependency NAME     scope to this dependency's repository, resolved from the current folder
                        (package.json and node_modules or its lockfile, go.mod, Cargo.toml and
                        Cargo.lock, a Python virtual environment); repeatable. Each result says
                        how its version statements compare with the installed version.
                        With it, --passages defaults to 3 (statements are often further down).
  --base-url URL        service address (else DEVINDEX_BASE_URL, else https://api.firecrawl.dev)
  --json                print the validated response as JSON (whole passages; the terminal form
                        shows at most 40 lines of each, never cut inside a code block)
  -h, --help            show this help

Repository filters (language, topic, license, stars, archived, fork) sent without --sources
return no documentation results; add --sources to keep them.

Environment: DEVINDEX_API_KEY (optional; raises rate limits), DEVINDEX_BASE_URL.
Exit codes: 0 success, 1 service or network error, 2 invalid input (nothing is sent).
`;

const OPTIONS: CliOptions = {
  k: { type: 'string' },
  types: { type: 'string', multiple: true },
  repos: { type: 'string', multiple: true },
  sources: { type: 'string', multiple: true },
  skills: { type: 'string' },
  passages: { type: 'string' },
  language: { type: 'string' },
  topic: { type: 'string', multiple: true },
  license: { type: 'string' },
  'min-stars': { type: 'string' },
  'max-stars': { type: 'string' },
  archived: { type: 'string' },
  fork: { type: 'string' },
  'base-url': { type: 'string' },
  json: { type: 'boolean' },
  dependency: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
};

/** What the command needs from a client; tests pass a fake. */
export interface SearchClientLike {
  search(params: SearchParams, opts?: CallOptions): Promise<SearchResponse>;
  close(): Promise<void>;
}

export interface SearchCommandDeps {
  createClient?: (io: CliIo, baseUrlFlag: string | undefined, extra: Partial<ClientOptions>) => SearchClientLike;
  clientOptions?: Partial<ClientOptions>;
  /** The folder `--dependency` names are resolved in (default: the process's working folder). */
  cwd?: string;
}

/** The installed dependency as `--json` shows it. */
type InstalledJson = {
  name: string;
  ecosystem: string;
  repo: string;
  version: string | null;
  versionFrom: string | null;
};

/** Turns argv into SearchParams; throws UsageError for a missing query or unknown flag. */
export function parseSearchArgs(argv: string[]): {
  params: SearchParams;
  json: boolean;
  baseUrl?: string;
  help: boolean;
  dependencies: string[];
} {
  const { values, positionals } = parseCliArgs(argv, OPTIONS);
  const str = (k: string) => values[k] as string | undefined;
  const list = (k: string) => splitList(values[k] as string[] | undefined);
  if (values.help) return { params: { query: '' }, json: false, help: true, dependencies: [] };
  if (positionals.length === 0)
    throw new UsageError('search needs a query: devindex search "<query>" (see devindex search --help)');
  const params: SearchParams = { query: positionals.join(' ') };
  const set = <K extends keyof SearchParams>(k: K, v: SearchParams[K] | undefined) => {
    if (v !== undefined) params[k] = v;
  };
  set('k', numberFlag(str('k')));
  set('types', list('types'));
  set('repos', list('repos'));
  set('sources', list('sources'));
  set('skills', str('skills') as 'only' | undefined);
  set('passages', numberFlag(str('passages')));
  set('language', str('language'));
  const topics = list('topic');
  set('topic', topics && topics.length === 1 ? topics[0] : topics);
  set('license', str('license'));
  set('min_stars', numberFlag(str('min-stars')));
  set('max_stars', numberFlag(str('max-stars')));
  set('archived', booleanFlag(str('archived')));
  set('fork', booleanFlag(str('fork')));
  const dependencies = ((values.dependency as string[] | undefined) ?? []).map((d) => d.trim()).filter(Boolean);
  return { params, json: values.json === true, baseUrl: str('base-url'), help: false, dependencies };
}

export async function runSearchCommand(argv: string[], io: CliIo, deps: SearchCommandDeps = {}): Promise<number> {
  let parsed: ReturnType<typeof parseSearchArgs>;
  try {
    parsed = parseSearchArgs(argv);
  } catch (e) {
    return printError(io, e, 'devindex search');
  }
  if (parsed.help) {
    io.out(SEARCH_USAGE);
    return EXIT_OK;
  }
  let installed: Array<InstalledDependency & { versionFrom?: string }> = [];
  if (parsed.dependencies.length) {
    const folder = deps.cwd ?? process.cwd();
    const r = await resolveDependencies(resolveFolder, folder, parsed.dependencies, { maxDependencies: 5000 });
    if (!r.ok) {
      io.err(`devindex search: ${clean(r.message)}\n`);
      return EXIT_USAGE;
    }
    installed = r.deps;
    parsed.params.repos = [...new Set([...(parsed.params.repos ?? []), ...installed.map((d) => d.slug)])];
    parsed.params.passages ??= DEPENDENCY_PASSAGES;
  }
  // The client's one check, run before a client is built (invalid input builds none); the client trusts what it passed.
  const v = validateSearchParams(parsed.params);
  if (!v.ok) {
    printError(io, validationError(v.issues), 'devindex search');
    return EXIT_USAGE;
  }
  let client: SearchClientLike;
  try {
    client = (deps.createClient ?? createClientFromEnv)(io, parsed.baseUrl, deps.clientOptions ?? {});
  } catch (e) {
    return printError(io, e, 'devindex search');
  }
  try {
    // The session's one order: the search, its coverage notes, the version badges, the summary.
    const run = await searchAndCompare(
      (p, o) => client.search(p, o),
      v.params,
      { onRetry: retryPrinter(io), signal: io.signal },
      installed,
    );
    if (parsed.json) io.out(`${jsonForTerminal(installed.length ? withVersions(run, installed) : run.response, 2)}\n`);
    else io.out(formatSearchResponse(run));
    return EXIT_OK;
  } catch (e) {
    return printError(io, e, 'devindex search');
  } finally {
    await client.close();
  }
}

/** The human-readable form: each result (title or url; kind, provenance, license; url; passages with their own links), then the notes. */
function formatSearchResponse(run: SearchRun): string {
  const { response: res, installed, badges, summaries } = run;
  const lines: string[] = [];
  const n = res.results.length;
  installed.forEach((d, i) => {
    lines.push(`Scope: ${clean(installedWords(d))}`);
    const summary = summaries[i];
    if (summary) lines.push(clean(summary));
  });
  if (installed.length) lines.push('');
  lines.push(n === 0 ? 'No results.' : `${n} result${n === 1 ? '' : 's'}${res.reranked ? ' (reranked)' : ''}`);
  res.results.forEach((r, i) => {
    lines.push('');
    lines.push(`${i + 1}. ${clean(displayTitle(r))}`);
    const license = licenseLabel(r);
    lines.push(`   ${[r.type, provenance(r).text, ...(license ? [license] : [])].map(clean).join(' · ')}`);
    if (r.title) lines.push(`   ${clean(r.url)}`);
    for (const b of badges[i] ?? []) lines.push(`   ${clean(b.text)}`);
    for (const p of r.passages) {
      lines.push('');
      // At most 40 lines a passage, never cut inside a fenced block; `--json` has the whole text.
      const capped = capPassageLines(clean(p.text).trimEnd().split('\n'));
      for (const l of capped.lines) lines.push(l ? `     ${l}` : '');
      if (capped.more) lines.push(`     ${moreLinesNotice(capped.more)}`);
      // The passage's own deep link (production's citation_url), when it goes further than the result's URL.
      const link = passageLink(p, r);
      if (link !== r.url) lines.push(`     -> ${clean(link)}`);
    }
  });
  if (run.notes.length) {
    lines.push('');
    for (const note of run.notes) lines.push(formatNote(note));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `--json` with dependencies: `installed` beside the response, and per result `versions` (its statements, compared when
 * the version is known).
 */
function withVersions(
  run: SearchRun,
  installed: ReadonlyArray<InstalledDependency & { versionFrom?: string }>,
): unknown {
  const res = run.response;
  const inst: InstalledJson[] = installed.map((d) => ({
    name: d.name,
    ecosystem: d.ecosystem,
    repo: d.slug,
    version: d.version ?? null,
    versionFrom: d.versionFrom ?? null,
  }));
  return {
    ...res,
    installed: inst,
    results: res.results.map((r, i) => {
      const d = dependencyOfResult(installed, r);
      const compared = run.badges[i];
      if (!d || !compared) return { ...r, versions: [] };
      const versions =
        compared.length || d.version
          ? compared.map((b) => ({
              kind: b.kind,
              stated: b.stated,
              verdict: b.verdict,
              text: b.text,
              sentence: b.sentence,
            }))
          : resultMentions(
              r.title,
              r.passages.map((p) => p.text),
              d,
            ).map((m) => ({
              kind: m.kind,
              stated: m.upto ? `${m.version}–${m.upto}` : m.version,
              verdict: null,
              text: `${m.kind === 'fixed' ? 'fixed in' : m.kind} ${m.version} · installed version unknown`,
              sentence: m.sentence,
            }));
      return { ...r, versions };
    }),
  };
}

function formatNote(n: CoverageNote): string {
  return `${n.level === 'warning' ? 'warning' : 'note'}: ${clean(n.text)}`;
}

function clean(s: string): string {
  return sanitizeForTerminal(s);
}
