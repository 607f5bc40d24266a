// `devindex fixes`: the known bugs a workspace folder's dependencies still have, from one repository-scoped
// search per dependency (src/fixes/check.ts), as text, `--json` or `--sarif`; answers cached for a day.
import { join, resolve } from 'node:path';
import { systemClock, type Clock } from '../api/retry';
import type { ClientOptions } from '../api/client';
import {
  checkConcurrency,
  checkFixes,
  DEFAULT_CONCURRENCY,
  DEFAULT_TIME_LIMIT_MS,
  MAX_CONCURRENCY,
  UnknownDependencyError,
  type FixesCache,
} from '../fixes/check';
import { fileFixesCache } from '../fixes/fileCache';
import type { FixesProgress } from '../fixes/report';
import { fixesSarif } from '../fixes/sarif';
import { readWorkspaceDependencies } from '../fixes/workspace';
import { cacheDir } from './cliState';
import {
  createClientFromEnv,
  jsonForTerminal,
  parseCliArgs,
  printError,
  readApiKey,
  resolveBaseUrl,
  retryPrinter,
} from './common';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, terminalLine, UsageError, type CliIo } from './cliBase';
import { formatFixes } from './fixesFormat';
import type { SearchClientLike } from './searchCommand';

const FIXES_USAGE = `Usage: devindex fixes [options]

The known bugs your dependencies still have: for each dependency whose repository is on GitHub, one
search of its issues and pull requests, whose fix-version statements are set against the version
installed. A fix you lack is one stated in a version newer than yours.

Options:
  --dir PATH           the workspace folder (default: the current one)
  --all                transitive dependencies too (from the lockfile); default: direct ones
                       (dev ones included)
  --dependency NAME    only this dependency; repeatable
  --concurrency N      searches in flight at once, 1 to ${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY})
  --refresh            search again what the cache has (answers are kept for 24 hours)
  --time-limit SECONDS the whole check's limit, 1 to 3600 (default ${DEFAULT_TIME_LIMIT_MS / 1000}); what is left is unchecked
  --fail-on newer      exit 1 when any dependency lacks a fix (a CI gate)
  --json               print the report as JSON
  --sarif              print a SARIF 2.1.0 log (GitHub code scanning)
  --base-url URL       service address (else DEVINDEX_BASE_URL, else https://api.firecrawl.dev)
  -h, --help           show this help

Environment: DEVINDEX_API_KEY (optional; raises rate limits), DEVINDEX_BASE_URL.
Exit codes: 0 the check ran, 1 something was left unchecked (a rate limit, a failure, the time
limit) or --fail-on newer found a fix you lack, 2 invalid input, 130 interrupted (what was
checked is printed).
`;

interface FixesCommandDeps {
  createClient?: (io: CliIo, baseUrlFlag: string | undefined, extra: Partial<ClientOptions>) => SearchClientLike;
  clientOptions?: Partial<ClientOptions>;
  /** The folder read when --dir is not given (default: the process's working folder). */
  cwd?: string;
  cache?: FixesCache;
  clock?: Clock;
  /** Progress lines on stderr (default: when stderr is a terminal). */
  progress?: boolean;
  cargoHome?: string;
}

const OPTIONS = {
  dir: { type: 'string' },
  all: { type: 'boolean' },
  dependency: { type: 'string', multiple: true },
  concurrency: { type: 'string' },
  refresh: { type: 'boolean' },
  'time-limit': { type: 'string' },
  'fail-on': { type: 'string' },
  json: { type: 'boolean' },
  sarif: { type: 'boolean' },
  'base-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function wholeNumber(flag: string, v: string | undefined, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v.trim());
  if (!/^\d+$/.test(v.trim()) || n < min || n > max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}; got ${JSON.stringify(v.slice(0, 40))}`);
  return n;
}

function progressPrinter(io: CliIo): (p: FixesProgress) => void {
  return (p) => {
    if (p.kind === 'started')
      io.err(`Checking ${p.total} dependenc${p.total === 1 ? 'y' : 'ies'} (${p.cached} cached)…\n`);
    else if (p.kind === 'checked' && !p.cached)
      io.err(`  [${p.done}/${p.total}] ${terminalLine(p.name)}: ${p.fixes ? `${p.fixes} fix(es) you lack` : 'none'}\n`);
    else if (p.kind === 'stopped') io.err(`Stopped: ${terminalLine(p.stop.message)}\n`);
  };
}

export async function runFixesCommand(argv: string[], io: CliIo, deps: FixesCommandDeps = {}): Promise<number> {
  let values: Record<string, unknown>;
  let concurrency: number;
  let timeLimitMs: number;
  let baseUrl: string;
  try {
    const parsed = parseCliArgs(argv, OPTIONS);
    values = parsed.values;
    if (values.help) {
      io.out(FIXES_USAGE);
      return EXIT_OK;
    }
    if (parsed.positionals.length)
      throw new UsageError(`fixes takes no arguments; got ${JSON.stringify(parsed.positionals[0]!.slice(0, 40))}`);
    concurrency = checkConcurrency(
      wholeNumber('--concurrency', values.concurrency as string | undefined, 1, MAX_CONCURRENCY),
    );
    timeLimitMs =
      (wholeNumber('--time-limit', values['time-limit'] as string | undefined, 1, 3600) ??
        DEFAULT_TIME_LIMIT_MS / 1000) * 1000;
    const failOn = values['fail-on'] as string | undefined;
    if (failOn !== undefined && failOn !== 'newer')
      throw new UsageError(`--fail-on takes one value, newer; got ${JSON.stringify(failOn.slice(0, 40))}`);
    if (values.json && values.sarif) throw new UsageError('--json and --sarif: choose one');
    baseUrl = resolveBaseUrl(values['base-url'] as string | undefined, io.env);
  } catch (e) {
    return printError(io, e, 'devindex fixes');
  }
  const folder = resolve(deps.cwd ?? process.cwd(), (values.dir as string | undefined) ?? '.');
  const input = await readWorkspaceDependencies(folder, {
    all: values.all === true,
    ...(deps.cargoHome ? { cargoHome: deps.cargoHome } : {}),
  });
  let client: SearchClientLike | undefined;
  const keyless = readApiKey(io.env) === undefined;
  const search: Parameters<typeof checkFixes>[2]['search'] = (params, opts) => {
    client ??= (deps.createClient ?? createClientFromEnv)(
      io,
      values['base-url'] as string | undefined,
      deps.clientOptions ?? {},
    );
    // The check asks for rateLimit 'fail': a 429 stops it and is never retried, so every retry line is worth printing.
    return client.search(params, { ...opts, onRetry: retryPrinter(io) });
  };
  const showProgress = deps.progress ?? process.stderr.isTTY === true;
  const clock = deps.clock ?? deps.clientOptions?.clock ?? systemClock;
  try {
    const outcome = await checkFixes(
      input,
      {
        all: values.all === true,
        dependencies: (values.dependency as string[] | undefined) ?? [],
        concurrency,
        refresh: values.refresh === true,
        timeLimitMs,
        ...(io.signal ? { signal: io.signal } : {}),
        ...(showProgress ? { onProgress: progressPrinter(io) } : {}),
      },
      {
        search,
        cache: deps.cache ?? fileFixesCache(join(cacheDir(io.env), 'fixes'), () => clock.now()),
        clock,
        service: baseUrl,
        keyless,
      },
    );
    if (values.json) io.out(`${jsonForTerminal(outcome.report, 2)}\n`);
    else if (values.sarif) io.out(`${jsonForTerminal(fixesSarif(outcome.report, folder), 2)}\n`);
    else io.out(formatFixes(outcome, keyless));
    if (outcome.stop?.reason === 'cancelled') return EXIT_INTERRUPTED;
    if (outcome.stop) {
      if (values.json || values.sarif) io.err(`devindex fixes: ${terminalLine(outcome.stop.message)}\n`);
      return EXIT_FAILURE;
    }
    if (values['fail-on'] === 'newer' && outcome.report.dependencies.some((d) => d.fixes.length)) return EXIT_FAILURE;
    return EXIT_OK;
  } catch (e) {
    if (e instanceof UnknownDependencyError) {
      io.err(`devindex fixes: ${terminalLine(e.message)}\n`);
      return EXIT_USAGE;
    }
    return printError(io, e, 'devindex fixes');
  } finally {
    await client?.close();
  }
}
