// vscode-free: the editor's dependency list for a check, from the host's dependency lookup (node_modules and the
// registries on the desktop, manifests and lockfiles in the browser) and the line of each name in its manifest.
import type { Dependency } from '../deps/resolver';
import type { WorkspaceDependencies, WorkspaceDependency } from '../fixes/report';
import { findName } from './fixDiagnostics';

/** The manifests that declare a dependency of each ecosystem, the first that names it wins. */
export const DECLARING_MANIFESTS: Record<string, readonly string[]> = {
  npm: ['package.json'],
  go: ['go.mod'],
  cargo: ['Cargo.toml'],
  pypi: ['pyproject.toml', 'requirements.txt', 'requirements-dev.txt', 'requirements/base.txt'],
};

const REASONS: Record<string, string> = {
  'no-repository-field': 'no repository named in its manifest',
  'not-on-github': 'repository not on GitHub',
  invalid: 'repository field not understood',
  'not-installed': 'not installed here',
};

/** The 0-based line that names the dependency, or -1. */
export function declaringLine(lines: readonly string[], dep: { name: string; ecosystem: string }): number {
  return lines.findIndex((l) => findName(l, dep) !== undefined);
}

/** Dependencies with their manifest lines; `read` gives a manifest's lines (undefined: no such file). */
export async function workspaceDependencies(
  folder: string,
  deps: readonly Dependency[],
  read: (file: string) => Promise<string[] | undefined>,
): Promise<WorkspaceDependencies> {
  const files = new Map<string, Promise<string[] | undefined>>();
  const linesOf = (f: string) => {
    if (!files.has(f)) files.set(f, read(f));
    return files.get(f)!;
  };
  const out: WorkspaceDependency[] = [];
  for (const d of deps) {
    let manifest = { file: DECLARING_MANIFESTS[d.ecosystem]?.[0] ?? 'package.json', line: 1 };
    for (const file of DECLARING_MANIFESTS[d.ecosystem] ?? []) {
      const lines = await linesOf(file);
      const i = lines ? declaringLine(lines, d) : -1;
      if (i >= 0) {
        manifest = { file, line: i + 1 };
        break;
      }
    }
    const reason = d.reason ? (REASONS[d.reason] ?? d.reason) : undefined;
    out.push({
      ecosystem: d.ecosystem,
      name: d.name,
      ...(d.version ? { installed: d.version } : {}),
      ...(d.slug ? { repository: d.slug } : {}),
      ...(reason ? { skipReason: reason } : {}),
      manifest,
      direct: true,
    });
  }
  return { folder, dependencies: out };
}
