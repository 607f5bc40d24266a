// Pure: the import specifier under a position of a line (TypeScript/JavaScript, Go, Python, Rust). No vscode import.
import { npmPackageOfSpecifier, type PackageRef } from './packageRefs';

interface ImportHit {
  ref: PackageRef;
  start: number;
  end: number;
}

const JS_LANGS = new Set(['typescript', 'typescriptreact', 'javascript', 'javascriptreact', 'vue', 'svelte', 'astro']);

/** The package whose specifier spans `character` on `line`, with the specifier's columns. */
export function importAt(line: string, character: number, languageId: string): ImportHit | undefined {
  if (JS_LANGS.has(languageId)) {
    const re = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*|\bexport\s+\*\s+from\s*)(['"`])([^'"`\n]+)\1/g;
    for (const m of line.matchAll(re)) {
      const start = m.index + m[0].length - m[2]!.length - 1;
      const end = start + m[2]!.length;
      if (character < start - 1 || character > end + 1) continue;
      const name = npmPackageOfSpecifier(m[2]!);
      return name ? { ref: { ecosystem: 'npm', name }, start, end } : undefined;
    }
    return undefined;
  }
  if (languageId === 'go') {
    const m = /^(\s*(?:import\s+)?(?:[\w.]+\s+)?)"([^"]+)"/.exec(line);
    if (!m) return undefined;
    const start = m[1]!.length + 1;
    const end = start + m[2]!.length;
    if (character < start - 1 || character > end || !/^[\w.-]+\.[a-z]{2,}\//.test(m[2]!)) return undefined;
    return { ref: { ecosystem: 'go', name: m[2]! }, start, end };
  }
  if (languageId === 'python') {
    const m = /^(\s*(?:from|import)\s+)([A-Za-z_][\w.]*)/.exec(line);
    if (!m) return undefined;
    const start = m[1]!.length;
    const end = start + m[2]!.length;
    if (character < start || character > end) return undefined;
    return { ref: { ecosystem: 'pypi', name: m[2]!.split('.')[0]! }, start, end };
  }
  if (languageId === 'rust') {
    const m = /^(\s*(?:pub\s+)?(?:use|extern\s+crate)\s+)([A-Za-z_]\w*)/.exec(line);
    if (!m || ['crate', 'self', 'super', 'std', 'core', 'alloc'].includes(m[2]!)) return undefined;
    const start = m[1]!.length;
    const end = start + m[2]!.length;
    if (character < start || character > end) return undefined;
    return { ref: { ecosystem: 'cargo', name: m[2]! }, start, end };
  }
  return undefined;
}
