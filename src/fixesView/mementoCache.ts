// vscode-free: the editor's fixes cache in globalState (both hosts: the browser has no cache folder), one record
// for every window, answers older than the engine's day dropped on write and at most MAX_ENTRIES kept.
import { CACHE_TTL_MS, type CachedCheck, type FixesCache, type FixesCacheKey } from '../fixes/check';

export const FIXES_CACHE_KEY = 'devIndex.fixesCache';
const MAX_ENTRIES = 2000;

interface Store {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

const keyOf = (k: FixesCacheKey): string => JSON.stringify([k.service, k.ecosystem, k.name, k.repository, k.installed]);

function isCheck(v: unknown): v is CachedCheck {
  const c = v as CachedCheck | undefined;
  return !!c && typeof c.at === 'number' && Array.isArray(c.fixes) && Array.isArray(c.affecting);
}

export function mementoCache(store: Store, now: () => number = Date.now): FixesCache {
  const all = (): Record<string, unknown> => {
    const v = store.get<unknown>(FIXES_CACHE_KEY);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  };
  return {
    async get(key) {
      const v = all()[keyOf(key)];
      return isCheck(v) ? v : undefined;
    },
    async save(answers) {
      const t = now();
      const fresh = answers.map(({ key, value }) => [keyOf(key), value] as const);
      const renewed = new Set(fresh.map(([k]) => k));
      const kept = Object.entries(all())
        .filter(([k, v]) => !renewed.has(k) && isCheck(v) && t - v.at < CACHE_TTL_MS)
        .sort((a, b) => (b[1] as CachedCheck).at - (a[1] as CachedCheck).at)
        .slice(0, Math.max(0, MAX_ENTRIES - fresh.length));
      await store.update(FIXES_CACHE_KEY, { ...Object.fromEntries(kept), ...Object.fromEntries(fresh) });
    },
  };
}
