// Pure: which of a folder's dependencies a check covers: the direct ones, every one (`all`), or those named.
import { normalizePythonName } from '../deps/manifests';
import type { WorkspaceDependencies, WorkspaceDependency } from './report';

export type Selection =
  | { ok: true; dependencies: WorkspaceDependency[] }
  | { ok: false; unknown: string[]; known: string[]; message: string };

function sameName(d: WorkspaceDependency, wanted: string): boolean {
  const w = wanted.trim();
  if (d.name === w) return true;
  if (d.ecosystem === 'pypi') return normalizePythonName(d.name) === normalizePythonName(w);
  if (d.ecosystem === 'cargo') return d.name.replace(/_/g, '-') === w.replace(/_/g, '-');
  return d.name.toLowerCase() === w.toLowerCase();
}

/** Named ones are looked for among every dependency (a transitive one may be named without `all`). */
export function selectDependencies(
  input: WorkspaceDependencies,
  opts: { all?: boolean; dependencies?: readonly string[] },
): Selection {
  const names = (opts.dependencies ?? []).map((n) => n.trim()).filter(Boolean);
  if (!names.length) return { ok: true, dependencies: input.dependencies.filter((d) => opts.all === true || d.direct) };
  const unknown = names.filter((n) => !input.dependencies.some((d) => sameName(d, n)));
  if (unknown.length) {
    const known = [...new Set(input.dependencies.filter((d) => d.direct).map((d) => d.name))];
    const some = known.slice(0, 12);
    const listed = known.length
      ? `it has ${some.join(', ')}${known.length > some.length ? ` and ${known.length - some.length} more` : ''}`
      : 'no package.json, go.mod, Cargo.toml, Python manifest or virtual environment there lists any dependency';
    return {
      ok: false,
      unknown,
      known,
      message:
        `${unknown.join(', ')} ${unknown.length === 1 ? 'is not a dependency' : 'are not dependencies'} ` +
        `of ${input.folder} (${listed})`,
    };
  }
  return { ok: true, dependencies: input.dependencies.filter((d) => names.some((n) => sameName(d, n))) };
}
