// Node: the fixes check's answers on disk in the user's cache folder. A run writes one file (its answers and the
// fresh ones it read), then removes the files it read: two runs at once each keep their own file and lose nothing,
// and the folder holds a file or two. A file missing, unreadable, corrupt or of another format reads as empty.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, promises as fsp, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { readText } from '../deps/resolver';
import { CACHE_TTL_MS, FIXES_K, FIXES_PASSAGES, FIXES_QUERY, type FixesCache, type FixesCacheKey } from './check';

/** Bumped when what a cached answer means changes (the verdict rules, the file's shape); other formats read as empty. */
const FORMAT = 1;
/**
 * Up to this size the file is written synchronously (a check of a few hundred dependencies), as readText reads it:
 * it holds the thread for well under a millisecond, where each trip through libuv's pool (readdir, open, write,
 * rename, remove) made the check wait a fraction of one.
 */
const SYNC_MAX_CHARS = 256 * 1024;

const Kind = z.enum(['issue', 'pull_request']);
const Base = { id: z.string(), url: z.string(), title: z.string(), kind: Kind };
const EntrySchema = z.object({
  key: z.string(),
  at: z.number(),
  fixes: z.array(z.object({ ...Base, fixedIn: z.string() })),
  affecting: z.array(z.object({ ...Base, affects: z.string() })),
});
const FileSchema = z.object({ format: z.literal(FORMAT), entries: z.array(EntrySchema) });
type Entry = z.infer<typeof EntrySchema>;

/** The key as one string: the search's own terms are part of it, so a changed query never reads an old answer. */
function cacheKeyText(k: FixesCacheKey): string {
  const key = [FIXES_QUERY, FIXES_K, FIXES_PASSAGES, k.service, k.ecosystem, k.name, k.repository, k.installed];
  return createHash('sha256').update(JSON.stringify(key)).digest('base64url');
}

const isCacheFile = (name: string) => name.startsWith('fixes-') && name.endsWith('.json');

async function readEntries(file: string): Promise<Entry[]> {
  const text = await readText(file);
  if (text === undefined) return [];
  try {
    const r = FileSchema.safeParse(JSON.parse(text));
    return r.success ? r.data.entries : [];
  } catch {
    return [];
  }
}

function cacheFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter(isCacheFile);
  } catch {
    return [];
  }
}

/** The cache in `dir` (created for the user alone on the first write). */
export function fileFixesCache(dir: string): FixesCache {
  // Read once, on the first call: the files seen then are the ones this run's write replaces.
  let loaded: Promise<{ entries: Map<string, Entry>; files: string[] }> | undefined;
  // A run asks for each key twice (get, then save): hashed once.
  const keyTexts = new Map<string, string>();
  const keyText = (k: FixesCacheKey) => {
    const plain = JSON.stringify([k.service, k.ecosystem, k.name, k.repository, k.installed]);
    let t = keyTexts.get(plain);
    if (t === undefined) keyTexts.set(plain, (t = cacheKeyText(k)));
    return t;
  };
  const load = () =>
    (loaded ??= (async () => {
      const files = cacheFiles(dir);
      const entries = new Map<string, Entry>();
      for (const list of await Promise.all(files.map((f) => readEntries(join(dir, f)))))
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
      const kept = [...entries.values()].filter((e) => e.at <= newest && newest - e.at < CACHE_TTL_MS);
      const text = `${JSON.stringify({ format: FORMAT, entries: kept })}\n`;
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
          rmSync(join(dir, f), { force: true });
        } catch {
          /* another run removed or replaced it */
        }
      loaded = Promise.resolve({ entries, files: [name] });
    },
  };
}
