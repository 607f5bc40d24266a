// The imports of src/ read from the sources, for the house tests of its shape (circles, layers).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Every .ts file under `dir` (declaration files left out). */
export function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [p] : [];
  });
}

function target(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec.replace(/\.js$/, ''));
  for (const c of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) if (existsSync(c)) return c;
  return undefined;
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\sfrom\s*['"](\.{1,2}\/[^'"]+)['"]|import\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)|^import\s+['"](\.{1,2}\/[^'"]+)['"]|\brequire\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/gm;

/**
 * Every relative import, export-from, import() and require() of a file that names a source file (type-only
 * imports too; `./core.js` is read as `./core.ts`), each with the specifier as written.
 */
export function importsOf(file: string, text: string): Array<{ spec: string; file: string }> {
  const out: Array<{ spec: string; file: string }> = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3] ?? m[4]!;
    const t = target(file, spec);
    if (t) out.push({ spec, file: t });
  }
  return out;
}
