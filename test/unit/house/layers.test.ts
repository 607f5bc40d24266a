// The house rule of the map (docs/ARCHITECTURE.md, "The map"): src/ is built in layers, and no import climbs to a
// higher one (type-only imports and require() included). The table below is the map's, row for row; every source
// file must fall in one of its rows, so a new folder is placed on the map before it can land.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { findRepoRoot } from '../../../sandbox/serverParts';
import { importsOf, sources } from '../../support/sourceImports';

const src = join(findRepoRoot(__dirname) ?? '.', 'src');

/**
 * Bottom first. A row may import its own row and the rows below it. Paths are folders (ending in `/`) or files,
 * relative to src/; a file takes the row of the longest path that holds it.
 */
export const LAYERS: ReadonlyArray<{ layer: string; paths: readonly string[] }> = [
  { layer: 'text', paths: ['words/duration.ts', 'words/controls.ts', 'words/waitWords.ts'] },
  { layer: 'client', paths: ['api/'] },
  { layer: 'hosts', paths: ['host/'] },
  { layer: 'settings', paths: ['config.ts', 'log.ts', 'logLine.ts'] },
  { layer: 'vocabularies', paths: ['words/', 'versions/', 'agentRun/', 'storage/'] },
  {
    layer: 'features',
    paths: [
      'auth/',
      'deps/',
      'search/',
      'webview/',
      'agents/',
      'watches/',
      'doctor/',
      'walkthrough/',
      'fixes/',
      'fixesView/',
      'testHooks/hooks.ts',
      'testHooks/timing.ts',
    ],
  },
  { layer: 'services', paths: ['services.ts'] },
  { layer: 'tools', paths: ['tools/'] },
  { layer: 'surfaces', paths: ['chat/', 'mcpSetup/'] },
  { layer: 'cli', paths: ['cli/'] },
  {
    layer: 'entries',
    paths: ['extension.ts', 'wiring.ts', 'core.ts', 'features.ts', 'sharedFeatures.ts', 'web/', 'testHooks/surface.ts'],
  },
];

/** The row of a file (a path relative to src/, with `/`), as its index in LAYERS; undefined when no row holds it. */
export function layerOf(path: string): number | undefined {
  let best: { rank: number; length: number } | undefined;
  LAYERS.forEach(({ paths }, rank) => {
    for (const p of paths)
      if ((p.endsWith('/') ? path.startsWith(p) : path === p) && (!best || p.length > best.length))
        best = { rank, length: p.length };
  });
  return best?.rank;
}

/** Every import of `files` that climbs to a higher row, in words: the file, the import as written, both rows. */
export function climbs(files: ReadonlyArray<{ path: string; text: string }>): string[] {
  const found: string[] = [];
  for (const f of files) {
    const from = layerOf(f.path);
    if (from === undefined) continue;
    for (const i of importsOf(join(src, f.path), f.text)) {
      const to = layerOf(relative(src, i.file).replace(/\\/g, '/'));
      if (to !== undefined && to > from)
        found.push(`${f.path} (${LAYERS[from]!.layer}) imports '${i.spec}' (${LAYERS[to]!.layer})`);
    }
  }
  return found;
}

const rel = (f: string) => relative(src, f).replace(/\\/g, '/');

describe('house: layers (the map in docs/ARCHITECTURE.md)', () => {
  it('a file takes the row of the longest path that holds it', () => {
    assert.equal(LAYERS[layerOf('words/duration.ts')!]!.layer, 'text');
    assert.equal(LAYERS[layerOf('words/failureWords.ts')!]!.layer, 'vocabularies');
    assert.equal(LAYERS[layerOf('webview/protocol.ts')!]!.layer, 'features');
    assert.equal(LAYERS[layerOf('webview/searchController.ts')!]!.layer, 'features');
    assert.equal(LAYERS[layerOf('api/agent/agentClient.ts')!]!.layer, 'client');
    assert.equal(layerOf('nowhere/x.ts'), undefined);
  });

  it('an import that climbs is named with its file and its specifier; one down or across is not', () => {
    const found = climbs([
      { path: 'api/client.ts', text: "import type { Host } from '../host/host';" },
      { path: 'versions/versionCompare.ts', text: "import type { Ecosystem } from '../deps/messages';" },
      { path: 'mcpSetup/setupLoader.ts', text: "import type * as SetupBundle from '../cli/setupCommand';" },
      {
        path: 'search/commands.ts',
        text: "import { config } from '../config';\nimport { x } from '../deps/messages';",
      },
    ]);
    assert.deepEqual(found, [
      "api/client.ts (client) imports '../host/host' (hosts)",
      "versions/versionCompare.ts (vocabularies) imports '../deps/messages' (features)",
      "mcpSetup/setupLoader.ts (surfaces) imports '../cli/setupCommand' (cli)",
    ]);
  });

  it('every file of src/ is on the map', () => {
    const files = sources(src).map(rel);
    assert.ok(files.length > 100, `read ${files.length} files under ${src}`);
    assert.deepEqual(
      files.filter((f) => layerOf(f) === undefined),
      [],
      'files in no row of LAYERS (place the folder on the map first)',
    );
  });

  it('no import in src/ climbs to a higher layer', () => {
    const found = climbs(sources(src).map((f) => ({ path: rel(f), text: readFileSync(f, 'utf8') })));
    assert.deepEqual(found, [], `imports that climb a layer:\n${found.join('\n')}`);
  });
});
