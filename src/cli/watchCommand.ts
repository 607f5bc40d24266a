// `devindex watch add|list|check|remove`: saved dependency-scoped searches, kept in the user's
// state folder (cliState.stateDir; an older version's file in the config folder is still read), re-run by
// `check` (for a cron job or CI), which prints what is new.
import { randomUUID } from 'node:crypto';
import { validateSearchParams, DEPENDENCY_PASSAGES } from '../api/params';
import { validationError } from '../api/errors';
import { resolveDependencies } from '../deps/dependencyScope';
import { resolveFolder } from '../deps/resolver';
import type { InstalledDependency } from '../versions/versionCompare';
import {
  checkWatch,
  describeWatch,
  MAX_WATCHES,
  newWatch,
  parseWatches,
  withInstalled,
  type Watch,
} from '../deps/watch';
import { readStateFile, writeStateFile } from './cliState';
import {
  BASE_URL_ENV,
  createClientFromEnv,
  DEFAULT_BASE_URL,
  parseCliArgs,
  printError,
  resolveBaseUrl,
  retryPrinter,
} from './common';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, sanitizeForTerminal, UsageError, type CliIo } from './cliBase';
import { parseSearchArgs, type SearchClientLike, type SearchCommandDeps } from './searchCommand';

const WATCH_USAGE = `Usage: devindex watch <add|list|check|remove> ...

Watch for a fix: save a search and be told what is new.

  devindex watch add "<query>" [--dependency NAME]... [search options]
      save the search (query, scope, installed version); its current results count as seen
  devindex watch list             the watches, with the last check and the number of new results
  devindex watch check [--base-url URL]
                                  run every watch once and print what is new (for a cron job or CI)
  devindex watch remove ID        forget a watch

Search options are those of devindex search (see devindex search --help). At most ${MAX_WATCHES} watches.
A watch remembers the service it was added against (--base-url, else DEVINDEX_BASE_URL, else
${DEFAULT_BASE_URL}) and check runs it there. check --base-url URL (or DEVINDEX_BASE_URL) checks
the watches added against URL and names the others as skipped.
Stored in the user's state folder (DEVINDEX_STATE_DIR overrides it).
Exit codes: 0 success, 1 service or network error (check: any watch failed), 2 invalid input.
`;

const FILE = 'watches.json';

function load(env: NodeJS.ProcessEnv): Watch[] {
  try {
    return parseWatches(JSON.parse(readStateFile(env, FILE) ?? '{}') as unknown);
  } catch {
    return [];
  }
}

function save(env: NodeJS.ProcessEnv, watches: Watch[]): void {
  writeStateFile(env, FILE, `${JSON.stringify({ version: 1, watches }, null, 2)}\n`);
}

const clean = sanitizeForTerminal;

export async function runWatchCommand(
  argv: string[],
  io: CliIo,
  deps: SearchCommandDeps & { now?: () => number } = {},
): Promise<number> {
  const [sub, ...rest] = argv;
  const now = deps.now ?? Date.now;
  if (!sub || sub === '--help' || sub === '-h' || sub === 'help') {
    io.out(WATCH_USAGE);
    return sub ? EXIT_OK : EXIT_USAGE;
  }
  try {
    switch (sub) {
      case 'add':
        return await add(rest, io, deps, now());
      case 'list': {
        const ws = load(io.env);
        if (!ws.length) io.out('No watches. Add one with: devindex watch add "<query>" --dependency NAME\n');
        for (const w of ws) io.out(`${w.id}  ${clean(describeWatch(w, now()))}\n`);
        return EXIT_OK;
      }
      case 'check':
        return await check(rest, io, deps, now);
      case 'remove': {
        const id = rest[0];
        if (!id || rest.length > 1)
          throw new UsageError('watch remove needs one watch id (devindex watch list shows them)');
        const ws = load(io.env);
        const left = ws.filter((w) => w.id !== id);
        if (left.length === ws.length)
          throw new UsageError(`no watch ${JSON.stringify(id)} (devindex watch list shows the ids)`);
        save(io.env, left);
        io.out(`Removed watch ${clean(id)}.\n`);
        return EXIT_OK;
      }
      default:
        throw new UsageError(`unknown watch subcommand ${JSON.stringify(sub)} (add, list, check, remove)`);
    }
  } catch (e) {
    return printError(io, e, 'devindex watch');
  }
}

async function add(argv: string[], io: CliIo, deps: SearchCommandDeps, now: number): Promise<number> {
  const parsed = parseSearchArgs(argv);
  if (parsed.help) {
    io.out(WATCH_USAGE);
    return EXIT_OK;
  }
  const watches = load(io.env);
  if (watches.length >= MAX_WATCHES)
    throw new UsageError(`already ${MAX_WATCHES} watches, the most kept; remove one first (devindex watch remove ID)`);
  const folder = deps.cwd ?? process.cwd();
  let installed: InstalledDependency[] = [];
  if (parsed.dependencies.length) {
    const r = await resolveDependencies(resolveFolder, folder, parsed.dependencies, { maxDependencies: 5000 });
    if (!r.ok) {
      io.err(`devindex watch: ${clean(r.message)}\n`);
      return EXIT_USAGE;
    }
    installed = r.deps.map(({ versionFrom: _from, ...d }) => d);
    parsed.params.repos = [...new Set([...(parsed.params.repos ?? []), ...installed.map((d) => d.slug)])];
    parsed.params.passages ??= DEPENDENCY_PASSAGES;
  }
  const v = validateSearchParams(parsed.params);
  if (!v.ok) {
    printError(io, validationError(v.issues), 'devindex watch');
    return EXIT_USAGE;
  }
  const baseUrl = resolveBaseUrl(parsed.baseUrl, io.env);
  const client = (deps.createClient ?? createClientFromEnv)(io, baseUrl, deps.clientOptions ?? {});
  try {
    const res = await client.search(v.params, { onRetry: retryPrinter(io), signal: io.signal });
    const w: Watch = {
      ...newWatch(randomUUID().slice(0, 8), v.params, installed, res, now, installed.length ? folder : undefined),
      baseUrl,
    };
    save(io.env, [...load(io.env), w]);
    io.out(
      `Watching ${clean(describeWatch(w, now))}\nid ${w.id}: ${res.results.length} current ` +
        `result${res.results.length === 1 ? ' counts' : 's count'} as seen; ` +
        `devindex watch check prints what is new.\n`,
    );
    return EXIT_OK;
  } finally {
    await client.close();
  }
}

/** Two spellings of one service address (`http://h:1` and `http://h:1/`) are the same service. */
function sameService(a: string, b: string): boolean {
  const norm = (u: string) => {
    try {
      return new URL(u).href.replace(/\/+$/, '');
    } catch {
      return u;
    }
  };
  return norm(a) === norm(b);
}

async function check(argv: string[], io: CliIo, deps: SearchCommandDeps, now: () => number): Promise<number> {
  const { values, positionals } = parseCliArgs(argv, {
    'base-url': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(WATCH_USAGE);
    return EXIT_OK;
  }
  if (positionals.length)
    throw new UsageError(`watch check takes no arguments (got ${JSON.stringify(positionals[0]!.slice(0, 100))})`);
  const flag = values['base-url'] as string | undefined;
  // A service named for this run (flag, else the environment) is the one checked, as for every command.
  const chosen = flag !== undefined || io.env[BASE_URL_ENV]?.trim() ? resolveBaseUrl(flag, io.env) : undefined;
  const watches = load(io.env);
  if (!watches.length) {
    io.out('No watches.\n');
    return EXIT_OK;
  }
  let failed = 0;
  const clients = new Map<string, SearchClientLike>();
  const clientFor = (service: string): SearchClientLike => {
    let c = clients.get(service);
    if (!c) {
      c = (deps.createClient ?? createClientFromEnv)(io, service, deps.clientOptions ?? {});
      clients.set(service, c);
    }
    return c;
  };
  const updated: Watch[] = [];
  try {
    for (const w0 of watches) {
      let w = w0;
      // The ids a watch has seen are its own service's: another service's results would all look new.
      if (chosen && w.baseUrl && !sameService(w.baseUrl, chosen)) {
        io.out(`${w.id}  skipped: added against ${clean(w.baseUrl)}; check it with --base-url ${clean(w.baseUrl)}\n`);
        continue;
      }
      // The installed version may have changed since the watch was made: read the folder again.
      if (w.folder && w.installed.length) {
        const r = await resolveDependencies(
          resolveFolder,
          w.folder,
          w.installed.map((d) => d.name),
          { maxDependencies: 5000 },
        ).catch(() => undefined);
        if (r?.ok)
          w = withInstalled(
            w,
            r.deps.map(({ versionFrom: _from, ...d }) => d),
          );
      }
      try {
        const res = await clientFor(chosen ?? w.baseUrl ?? DEFAULT_BASE_URL).search(w.params, {
          onRetry: retryPrinter(io),
          signal: io.signal,
        });
        const c = checkWatch(w, res, now());
        updated.push(c.watch);
        io.out(`${w.id}  ${clean(describeWatch(c.watch, now()))}\n`);
        for (const n of c.news)
          io.out(
            `  ${n.reason === 'new' ? 'new' : 'now fixed'}: ${clean(n.title)}\n` +
              `    ${clean(n.url)}${n.badge ? `\n    ${clean(n.badge)}` : ''}\n`,
          );
        if (!c.news.length) io.out('  nothing new\n');
        for (const repo of c.vanished)
          io.out(`  ${clean(repo)} is no longer in the index: this watch cannot find anything new there\n`);
        if (c.fixIncluded)
          io.out(
            `  your installed version now includes the fix (${clean(c.fixIncluded)}); ` +
              `remove the watch with: devindex watch remove ${w.id}\n`,
          );
      } catch (e) {
        if (io.signal?.aborted) throw e;
        failed++;
        const reason = e instanceof Error ? e.message : String(e);
        updated.push({ ...w, lastError: reason.slice(0, 200) });
        io.err(`devindex watch: ${w.id} failed: ${clean(reason)}\n`);
      }
    }
  } finally {
    // Keep what was checked even when interrupted; watches not reached stay as they were.
    const byId = new Map(updated.map((w) => [w.id, w]));
    save(
      io.env,
      load(io.env).map((w) => byId.get(w.id) ?? w),
    );
    await Promise.all([...clients.values()].map((c) => c.close()));
  }
  return failed ? EXIT_FAILURE : EXIT_OK;
}
