// vscode-free: one lazily built dependency index per folder. `peek` never waits: it answers from what
// is resolved (or undefined, starting the resolution in the background); `get` waits for it.
import { DependencyIndex, resolveFolder, type ResolveOptions } from './resolver';

interface Entry {
  index?: DependencyIndex;
  pending?: Promise<DependencyIndex>;
  generation: number;
}

export class DependencyCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly options: () => ResolveOptions,
    private readonly onResolved: (root: string, index: DependencyIndex) => void = () => undefined,
    private readonly resolve: typeof resolveFolder = resolveFolder,
  ) {}

  /** The folder's index if it is resolved; otherwise undefined, and its resolution starts (not awaited). */
  peek(root: string): DependencyIndex | undefined {
    const e = this.entries.get(root);
    if (e?.index) return e.index;
    if (!e?.pending) void this.get(root).catch(() => undefined);
    return undefined;
  }

  /** The folder's index, resolving it first when needed (one resolution at a time per folder). */
  get(root: string): Promise<DependencyIndex> {
    const e = this.entries.get(root) ?? { generation: 0 };
    this.entries.set(root, e);
    if (e.index) return Promise.resolve(e.index);
    if (e.pending) return e.pending;
    const generation = e.generation;
    const p = this.resolve(root, this.options()).then(
      (folder) => {
        const index = new DependencyIndex(folder);
        if (e.generation === generation) {
          e.index = index;
          e.pending = undefined;
          this.onResolved(root, index);
        }
        return index;
      },
      (err: unknown) => {
        if (e.generation === generation) e.pending = undefined;
        throw err;
      },
    );
    e.pending = p;
    return p;
  }

  /** A manifest or lockfile changed: the next peek or get reads the folder again (a resolution under way is dropped). */
  invalidate(root?: string): void {
    for (const [k, e] of this.entries) {
      if (root !== undefined && k !== root) continue;
      e.generation++;
      e.index = undefined;
      e.pending = undefined;
    }
  }

  roots(): string[] {
    return [...this.entries.keys()];
  }
}

/**
 * The folder whose dependencies a file uses: the workspace folder that holds it (the deepest), else, for
 * a file outside every workspace folder, the nearest ancestor folder the caller says has a manifest.
 * With `sep` `\\` the paths are Windows paths: compared without regard to case (`c:\\w` holds `C:\\w\\x.ts`),
 * and a drive's root is `C:\\` (as `path.win32.dirname` names it), never `C:`.
 */
export function rootForFile(
  filePath: string,
  workspaceRoots: readonly string[],
  hasManifest: (dir: string) => boolean,
  sep = '/',
): string | undefined {
  const windows = sep === '\\';
  const key = (p: string) => (windows ? p.toLowerCase() : p);
  const file = key(filePath);
  const inside = workspaceRoots
    .filter((r) => {
      const k = key(r);
      return file === k || file.startsWith(k.endsWith(sep) ? k : k + sep);
    })
    .sort((a, b) => b.length - a.length)[0];
  if (inside) return inside;
  const parts = filePath.split(sep);
  for (let i = parts.length - 1; i > 0; i--) {
    const dir = parts.slice(0, i).join(sep) || sep;
    const named = windows && /^[A-Za-z]:$/.test(dir) ? dir + sep : dir;
    if (hasManifest(named)) return named;
  }
  return undefined;
}
