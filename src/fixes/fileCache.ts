// Node: the fixes check's answers kept on disk, one small file per key (a hash of it) in the user's cache
// folder, so that two runs at once never overwrite each other's answers. Written through a temporary file and
// a rename; a file that is missing, unreadable, corrupt or for another key reads as absent (then rewritten).
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { FIXES_K, FIXES_PASSAGES, FIXES_QUERY, type CachedCheck, type FixesCache, type FixesCacheKey } from './check';

/** Bumped when what a cached answer means changes (the verdict rules, the entry's shape). */
const FORMAT = 1;

const Kind = z.enum(['issue', 'pull_request']);
const Base = { id: z.string(), url: z.string(), title: z.string(), kind: Kind };
const EntrySchema = z.object({
  format: z.literal(FORMAT),
  key: z.string(),
  at: z.number(),
  fixes: z.array(z.object({ ...Base, fixedIn: z.string() })),
  affecting: z.array(z.object({ ...Base, affects: z.string() })),
});

/** The key as one string: the search's own terms are part of it, so a changed query never reads an old answer. */
function cacheKeyText(k: FixesCacheKey): string {
  return JSON.stringify([
    FORMAT,
    FIXES_QUERY,
    FIXES_K,
    FIXES_PASSAGES,
    k.service,
    k.ecosystem,
    k.name,
    k.repository,
    k.installed,
  ]);
}

/** The cache in `dir` (created for the user alone on the first write). */
export function fileFixesCache(dir: string): FixesCache & { fileOf(key: FixesCacheKey): string } {
  const fileOf = (key: FixesCacheKey) =>
    join(dir, `${createHash('sha256').update(cacheKeyText(key)).digest('hex').slice(0, 40)}.json`);
  let made: Promise<unknown> | undefined;
  return {
    fileOf,
    async get(key) {
      let text: string;
      try {
        text = await fsp.readFile(fileOf(key), 'utf8');
      } catch {
        return undefined;
      }
      try {
        const r = EntrySchema.safeParse(JSON.parse(text));
        if (!r.success || r.data.key !== cacheKeyText(key)) return undefined;
        return { at: r.data.at, fixes: r.data.fixes, affecting: r.data.affecting };
      } catch {
        return undefined;
      }
    },
    // Asynchronous (mcpSetup/files.ts's writeAtomic is synchronous): a check writes one file per answer while
    // its other searches are in flight, and a synchronous write would hold them all up.
    async set(key, value: CachedCheck) {
      await (made ??= fsp.mkdir(dir, { recursive: true, mode: 0o700 }));
      const file = fileOf(key);
      const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      try {
        await fsp.writeFile(tmp, `${JSON.stringify({ format: FORMAT, key: cacheKeyText(key), ...value })}\n`, {
          mode: 0o600,
        });
        await fsp.rename(tmp, file);
      } catch (e) {
        await fsp.rm(tmp, { force: true });
        throw e;
      }
    },
  };
}
