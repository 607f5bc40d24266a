// The house rule: no import circle in src/, type-only imports included (a type both sides need
// moves to the lower module). The graph is read from the sources, so a new circle fails here with its path.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { findRepoRoot } from '../../../sandbox/serverParts';
import { importsOf, sources } from '../../support/sourceImports';

const src = join(findRepoRoot(__dirname) ?? '.', 'src');

/** The circles of a graph, each once, as the path from its first node back to it. */
export function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const seen = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string): void => {
    state.set(n, 'open');
    stack.push(n);
    for (const m of graph.get(n) ?? []) {
      if (state.get(m) === 'open') {
        const loop = stack.slice(stack.indexOf(m));
        const key = [...loop].sort().join('|');
        if (!seen.has(key)) {
          seen.add(key);
          found.push([...loop, m]);
        }
      } else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (const n of graph.keys()) if (!state.has(n)) visit(n);
  return found;
}

describe('import circles', () => {
  it('the finder sees a two-file circle and a three-file circle, type-only imports included', () => {
    const g = new Map<string, string[]>([
      ['a', ['b']],
      ['b', ['a']],
      ['c', ['d']],
      ['d', ['e']],
      ['e', ['c']],
      ['f', ['a']],
    ]);
    assert.deepEqual(
      circles(g).map((c) => c.join('>')),
      ['a>b>a', 'c>d>e>c'],
    );
    const file = join(src, 'deps', 'editor.ts');
    assert.deepEqual(
      importsOf(
        file,
        "import type { X } from './cache';\nexport { y } from './resolver';\nconst m = import('./messages');",
      ).map((p) => relative(src, p.file)),
      [join('deps', 'cache.ts'), join('deps', 'resolver.ts'), join('deps', 'messages.ts')],
    );
  });

  it('src/ has no import circle', () => {
    const files = sources(src);
    assert.ok(files.length > 100, `read ${files.length} files under ${src}`);
    const graph = new Map(files.map((f) => [f, importsOf(f, readFileSync(f, 'utf8')).map((i) => i.file)]));
    const found = circles(graph).map((c) => c.map((f) => relative(src, f)).join(' -> '));
    assert.deepEqual(found, [], `import circles:\n${found.join('\n')}`);
  });
});
