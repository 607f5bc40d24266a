// Node: the fixes check's answers on disk in the user's cache folder. A run writes one file (its answers and the
// fresh ones it read), then removes the files it read: two runs at once each keep their own file and lose nothing,
// and the folder holds a file or two. A file missing, unreadable, corrupt or of another format reads as empty.
import { randomBytes } from 'node:crypto';
import { mkdirSync, promises as fsp, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { readText } from '../deps/resolver';
import { FIXES_K, FIXES_PASSAGES, FIXES_QUERY, isFresh, type FixesCache, type FixesCacheKey } from './check';

/** Bumped when what a cached answer means changes (the verdict rules, the file's shape); other formats read as empty. */
const FORMAT = 2;
/**
 * Up to this size the file is written synchronously (a check of a few hundred dependencies), as readText reads it:
 * it holds the thread for well under a millisecond, where each trip through libuv's pool (readdir, open, write,
 * rename, remove) made the check wait a fraction of one.
 */
const SYNC_MAX_CHARS = 256 * 1024;
/** The search every answer in a file came from: a file of another query, `k` or `passages` reads as empty. */
const SEARCH = { query: FIXES_QUERY, k: FIXES_K, passages: FIXES_PASSAGES };

const Kind = z.enum(['issue', 'pull_request']);
const Base = { id: z.string(), url: z.string(), title: z.string(), kind: Kind };
const EntrySchema = z.object({
  key: z.string(),
  at: z.number(),
  fixes: z.array(z.object({ ...Base, fixedIn: z.string() })),
  affecting: z.array(z.object({ ...Base, affects: z.string() })),
});
type Entry = z.infer<typeof EntrySchema>;
const HeaderSchema = z.object({
  format: z.literal(FORMAT),
  search: z.object({ query: z.literal(SEARCH.query), k: z.literal(SEARCH.k), passages: z.literal(SEARCH.passages) }),
  entries: z.array(z.unknown()),
});

/** The key as one string (no part holds a line break: a service address, an ecosystem, a package name, a slug, a version). */
const keyText = (k: FixesCacheKey): string =>
  `${k.service}\n${k.ecosystem}\n${k.name}\n${k.repository}\n${k.installed}`;

const isCacheFile = (name: string) => name.startsWith('fixes-') && name.endsWith('.json');

/**
 * A file's answers still fresh at `now`. Each entry is validated only once its time says it is fresh: a day after
 * a run, every answer in its file is stale, and none is worth the schema's walk.
 */
async function readEntries(file: string, now: number): Promise<Entry[]> {
  const text = await readText(file);
  if (text === undefined) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  const header = HeaderSchema.safeParse(json);
  if (!header.success) return [];
  const out: Entry[] = [];
  for (const raw of header.data.entries) {
    const at = (raw as { at?: unknown } | null)?.at;
    if (typeof at !== 'number' || !isFresh(at, now)) continue;
    const r = EntrySchema.safeParse(raw);
    if (r.success) out.push(r.data);
  }
  return out;
}

function cacheFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter(isCacheFile);
  } catch {
    return [];
  }
}

/** The cache in `dir` (created for the user alone on the first write); `now` says which answers it read are fresh. */
export function fileFixesCache(dir: string, now: () => number = Date.now): FixesCache {
  // Read once, on the first call: the files seen then are the ones this run's write replaces.
  let loaded: Promise<{ entries: Map<string, Entry>; files: string[] }> | undefined;
  const load = () =>
    (loaded ??= (async () => {
      const files = cacheFiles(dir);
      const at = now();
      const entries = new Map<string, Entry>();
      for (const list of await Promise.all(files.map((f) => readEntries(join(dir, f), at))))
        for (const e of list) if ((entries.get(e.key)?.at ?? -Infinity) < e.at) entries.set(e.key, e);
      return { entries, files };
    })());
  return {
    async get(key) {
      const e = (await load()).entries.get(keyText(key));
      return e && { at: e.at, fixes: e.fixes, affecting: e.affecting };
    },
    async save(answers) {
      if (!answers.length) return;
      const { entries, files } = await load();
      for (const { key, value } of answers) {
        const k = keyText(key);
        entries.set(k, { key: k, ...value });
      }
      const newest = Math.max(...answers.map((a) => a.value.at));
      const kept = [...entries.values()].filter((e) => isFresh(e.at, newest));
      const text = `${JSON.stringify({ format: FORMAT, search: SEARCH, entries: kept })}\n`;
      const name = `fixes-${process.pid}-${randomBytes(6).toString('hex')}.json`;
      const tmp = join(dir, `${name}.tmp`);
      try {
        if (text.length <= SYNC_MAX_CHARS) {
          mkdirSync(dir, { recursive: true, mode: 0o700 });
          writeFileSync(tmp, text, { mode: 0o600 });
          renameSync(tmp, join(dir, name));
        } else {
          await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
          await fsp.writeFile(tmp, text, { mode: 0o600 });
          await fsp.rename(tmp, join(dir, name));
        }
      } catch (e) {
        await fsp.rm(tmp, { force: true });
        throw e;
      }
      // What they held is in the new file; a file another run wrote since this one read is not among them.
      for (const f of files)
        try {
          unlinkSync(join(dir, f));
        } catch {
          /* another run removed or replaced it */
        }
      loaded = Promise.resolve({ entries, files: [name] });
    },
  };
}
