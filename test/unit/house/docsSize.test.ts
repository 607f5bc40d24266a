// Docs a newcomer can hold: docs/ARCHITECTURE.md and docs/TESTING.md stay at most 400 lines, ARCHITECTURE's map is
// the layer test's LAYERS row for row (read from layers.test.ts's text, so that its tests do not run twice here), and
// every link between the docs names a file that exists and one of its headings.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { findRepoRoot } from '../../../sandbox/serverParts';
import { anchorsOf } from '../../support/markdown';

const root = findRepoRoot(__dirname) ?? '.';
const read = (...p: string[]) => readFileSync(join(root, ...p), 'utf8');

interface Row {
  layer: string;
  paths: string[];
}

/** The rows of LAYERS in test/unit/house/layers.test.ts, bottom first. */
function layersOf(source: string): Row[] {
  const start = source.indexOf('export const LAYERS');
  const block = source.slice(start, source.indexOf('];\n', start));
  return [...block.matchAll(/\{\s*layer: '([^']+)',\s*paths: \[([^\]]*)\]/g)].map((m) => ({
    layer: m[1]!,
    paths: [...m[2]!.matchAll(/'([^']+)'/g)].map((p) => p[1]!),
  }));
}

/** The rows of the table under "## The map": the first cell is the layer, the second its paths in backticks. */
function mapRowsOf(markdown: string): Row[] {
  const start = markdown.indexOf('\n## The map\n');
  if (start < 0) return [];
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  return section
    .split('\n')
    .filter((l) => l.startsWith('|') && !/^\|\s*(Layer\s*\||-)/.test(l))
    .map((l) => l.split('|').map((c) => c.trim()))
    .map((cells) => ({ layer: cells[1]!, paths: [...cells[2]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!) }));
}

/** Where the map differs from LAYERS, in words: a missing, extra or misplaced row, or a row's paths. */
function mapDifferences(map: readonly Row[], layers: readonly Row[]): string[] {
  const out: string[] = [];
  const names = map.map((r) => r.layer);
  for (const l of layers) if (!names.includes(l.layer)) out.push(`the map has no row '${l.layer}'`);
  for (const r of map)
    if (!layers.some((l) => l.layer === r.layer)) out.push(`the map's row '${r.layer}' is not in LAYERS`);
  const common = layers.map((l) => l.layer).filter((n) => names.includes(n));
  const mapOrder = names.filter((n) => common.includes(n));
  if (common.join() !== mapOrder.join())
    out.push(`the map's rows are in the order ${mapOrder.join(' < ')}, LAYERS ${common.join(' < ')}`);
  for (const l of layers) {
    const r = map.find((m) => m.layer === l.layer);
    if (r && [...r.paths].sort().join() !== [...l.paths].sort().join())
      out.push(`row '${l.layer}': the map says ${r.paths.join(', ')}; LAYERS says ${l.paths.join(', ')}`);
  }
  return out;
}

describe('house: docs a newcomer can hold', () => {
  for (const f of ['ARCHITECTURE.md', 'TESTING.md'])
    it(`docs/${f} is at most 400 lines`, () => {
      const lines = read('docs', f).replace(/\n$/, '').split('\n').length;
      assert.ok(lines <= 400, `docs/${f} has ${lines} lines: the detail belongs in the code's own headers`);
    });

  const layers = layersOf(read('test', 'unit', 'house', 'layers.test.ts'));

  it("ARCHITECTURE's map has the rows of LAYERS, bottom first, with the same paths", () => {
    assert.ok(layers.length >= 10 && layers[0]!.paths.length > 0, `read ${layers.length} rows of LAYERS`);
    const map = mapRowsOf(read('docs', 'ARCHITECTURE.md'));
    assert.deepEqual(mapDifferences(map, layers), []);
  });

  it('a map without a row, with a row of its own, out of order or with other paths is told apart', () => {
    const rows = [
      { layer: 'a', paths: ['a/'] },
      { layer: 'b', paths: ['b.ts', 'c/'] },
      { layer: 'c', paths: ['d/'] },
    ];
    const table = (rs: Row[]) =>
      ['# X', '', '## The map', '', '| Layer | Paths | What |', '|---|---|---|']
        .concat(rs.map((r) => `| ${r.layer} | ${r.paths.map((p) => `\`${p}\``).join(', ')} | words |`))
        .concat(['', '## Next', '| z | `z/` | not the map |'])
        .join('\n');
    assert.deepEqual(mapRowsOf(table(rows)), rows);
    assert.deepEqual(mapDifferences(mapRowsOf(table(rows)), rows), []);
    assert.deepEqual(mapDifferences(mapRowsOf(table([rows[0]!, rows[2]!])), rows), ["the map has no row 'b'"]);
    assert.deepEqual(mapDifferences(mapRowsOf(table([...rows, { layer: 'd', paths: [] }])), rows), [
      "the map's row 'd' is not in LAYERS",
    ]);
    assert.deepEqual(mapDifferences(mapRowsOf(table([rows[1]!, rows[0]!, rows[2]!])), rows), [
      "the map's rows are in the order b < a < c, LAYERS a < b < c",
    ]);
    assert.deepEqual(mapDifferences(mapRowsOf(table([rows[0]!, { layer: 'b', paths: ['b.ts'] }, rows[2]!])), rows), [
      "row 'b': the map says b.ts; LAYERS says b.ts, c/",
    ]);
    assert.equal(mapRowsOf('# No map here\n| a | `a/` |').length, 0);
  });

  it('links between the docs name an existing file and heading', () => {
    const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md'));
    assert.ok(docs.includes('ARCHITECTURE.md') && docs.includes('TESTING.md'), docs.join(', '));
    const problems: string[] = [];
    let checked = 0;
    for (const f of docs) {
      const text = read('docs', f).replace(/```[^]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s:]+\.md(?:#[^)\s]*)?)\)/g)) {
        const [file, anchor] = target!.split('#') as [string, string | undefined];
        const abs = join(root, 'docs', dirname(f), file);
        checked++;
        if (!existsSync(abs)) problems.push(`docs/${f}: ${target}: no file`);
        else if (anchor !== undefined && !anchorsOf(readFileSync(abs, 'utf8')).has(anchor))
          problems.push(`docs/${f}: ${target}: no heading #${anchor}`);
      }
    }
    assert.ok(checked > 0, 'no link between the docs was read');
    assert.deepEqual(problems, []);
  });
});
