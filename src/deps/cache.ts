// vscode-free: a folder's dependency index (lookups by package reference), one built lazily per folder. `peek` never
// waits: it answers from what is resolved (or starts the resolution in the background); `get` waits for it.
import { normalizePythonName, slugFromGoModule } from './manifests';
import { refKey, type PackageRef } from './packageRefs';
import { resolveFolder, type Dependency, type FolderDependencies, type ResolveOptions } from './resolver';

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

/** Lookup tables over a folder's dependencies (built once per resolution). */
export class DependencyIndex {
  private readonly byKey = new Map<string, Dependency>();
  private readonly goModules: Dependency[];

  constructor(readonly folder: FolderDependencies) {
    for (const d of folder.deps) {
      this.byKey.set(refKey(d), d);
      for (const imp of d.imports ?? [])
        if (!this.byKey.has(refKey({ ecosystem: 'pypi', name: imp })))
          this.byKey.set(refKey({ ecosystem: 'pypi', name: imp }), d);
    }
    this.goModules = folder.deps.filter((d) => d.ecosystem === 'go').sort((a, b) => b.name.length - a.name.length);
  }

  /** The dependency a reference names; a Go package path maps to its module (longest go.mod prefix), else by the module path rule. */
  lookup(ref: PackageRef): Dependency | undefined {
    if (ref.ecosystem === 'go') {
      const mod = this.goModules.find((d) => ref.name === d.name || ref.name.startsWith(`${d.name}/`));
      if (mod) return mod;
      const s = slugFromGoModule(ref.name);
      return s.ok ? { ecosystem: 'go', name: ref.name, slug: s.slug, from: 'module path' } : undefined;
    }
    if (ref.ecosystem === 'pypi') return this.byKey.get(`pypi:${normalizePythonName(ref.name)}`);
    return this.byKey.get(refKey(ref));
  }

  /** The first reference that resolves to a slug, with its dependency. */
  firstResolved(refs: readonly PackageRef[]): Dependency | undefined {
    for (const r of refs) {
      const d = this.lookup(r);
      if (d?.slug) return d;
    }
    return undefined;
  }
}
