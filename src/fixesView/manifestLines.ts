// vscode-free, Node-free: the browser's dependency list for a fixes check, from the manifest and lockfile lookup
// (src/web/dependencies.ts) and the engine's own line scans (src/fixes/lines.ts); the desktop reads it with
// src/fixes/workspace.ts. Direct dependencies only: the browser has no node_modules to find a transitive one's repository.
import type { Dependency } from '../deps/resolver';
import { cargoTomlLine, goModLine, packageJsonLines, pythonRequirementLine } from '../fixes/lines';
import type { ManifestLocation, WorkspaceDependencies } from '../fixes/report';

const PYTHON_MANIFESTS = ['requirements.txt', 'requirements-dev.txt', 'dev-requirements.txt', 'pyproject.toml'];
const REASONS: Record<string, string> = {
  'no-repository-field': 'its manifest names no repository',
  'not-on-github': 'repository not on GitHub',
  'not-installed': 'not installed here (its repository is named in node_modules, which the browser cannot read)',
};

/** Where `d` is declared; `read` gives a manifest's text (undefined: no such file), `npmLines` package.json's lines. */
async function locate(
  d: Dependency,
  read: (file: string) => Promise<string | undefined>,
  npmLines: (text: string) => Map<string, number>,
): Promise<ManifestLocation> {
  const one = async (file: string, line: (t: string) => number) => {
    const t = await read(file);
    return { file, line: t === undefined ? 1 : line(t) };
  };
  switch (d.ecosystem) {
    case 'npm':
      return one('package.json', (t) => npmLines(t).get(d.name) ?? 1);
    case 'go':
      return one('go.mod', (t) => goModLine(t, d.name));
    case 'cargo':
      return one('Cargo.toml', (t) => cargoTomlLine(t, d.name));
    case 'pypi': {
      const wanted = d.name.toLowerCase().replace(/[-_.]+/g, '-');
      for (const file of PYTHON_MANIFESTS) {
        const t = await read(file);
        const line = t === undefined ? undefined : pythonRequirementLine(t, wanted);
        if (line !== undefined) return { file, line };
      }
      return { file: 'pyproject.toml', line: 1 };
    }
  }
}

export async function workspaceDependencies(
  folder: string,
  deps: readonly Dependency[],
  read: (file: string) => Promise<string | undefined>,
): Promise<WorkspaceDependencies> {
  const texts = new Map<string, Promise<string | undefined>>();
  const once = (f: string) => {
    if (!texts.has(f)) texts.set(f, read(f));
    return texts.get(f)!;
  };
  // package.json's dependency lines found in one pass, not one a dependency.
  let pkg: { text: string; lines: Map<string, number> } | undefined;
  const npmLines = (text: string) => (pkg?.text === text ? pkg : (pkg = { text, lines: packageJsonLines(text) })).lines;
  const dependencies = await Promise.all(
    deps.map(async (d) => ({
      ecosystem: d.ecosystem,
      name: d.name,
      ...(d.version ? { installed: d.version } : {}),
      ...(d.slug
        ? { repository: d.slug }
        : { skipReason: (d.reason && REASONS[d.reason]) ?? 'repository not understood' }),
      manifest: await locate(d, once, npmLines),
      direct: true,
    })),
  );
  return { folder, dependencies };
}
