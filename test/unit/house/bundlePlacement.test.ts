// A module's header says which bundle it is in ("Activation side (dist/extension.js)", "Core side
// (dist/core.js)", "Features side (dist/features.js)"), and that must stay true as imports change. Builds the three
// entries in memory (the development define; dist/ is left alone) and reads esbuild's metafile: a Core side module is
// in dist/core.js, a Features side module is in dist/features.js and not in dist/core.js (the build takes what both use
// from dist/core.js), an Activation side module is in dist/extension.js.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, it } from 'node:test';
import { build } from 'esbuild';

const root = join(__dirname, '..', '..', '..', '..');
const CLAIM = /\b(Activation|Core|Features) side \(dist\/(extension|core|features)\.js\b/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The claim in a file's leading comment, if it makes one. */
function claimOf(text: string): 'extension' | 'core' | 'features' | undefined {
  const header = text
    .split('\n')
    .filter((_, i, all) => all.slice(0, i + 1).every((x) => x.startsWith('//')))
    .join(' ');
  return CLAIM.exec(header)?.[2] as 'extension' | 'core' | 'features' | undefined;
}

async function inputsOf(entry: string): Promise<Set<string>> {
  const r = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: root,
    external: ['vscode', '../../core.js', '../../features.js', './cli-setup.js', './llhttp-wasm.js', './lockfiles.js'],
    define: { __DEVINDEX_TEST_SURFACE__: 'true' },
  });
  return new Set(Object.keys(r.metafile!.inputs).map((p) => p.split(sep).join('/')));
}

describe("house rule: a module's header names the bundle it is in", () => {
  it('finds the claims it is meant to find', () => {
    assert.equal(claimOf('// Core side (dist/core.js): the client.\nimport x;'), 'core');
    assert.equal(
      claimOf('// The tools. Features side (dist/features.js, loaded on first use): builds\n// more'),
      'features',
    );
    assert.equal(claimOf('// A header.\n// Activation side (dist/extension.js): registers.\nimport x;'), 'extension');
    assert.equal(claimOf('import x;\n// Core side (dist/core.js)'), undefined, 'only the leading comment counts');
  });

  it('every claim in src/ holds', async () => {
    const [extension, core, features] = await Promise.all(
      ['src/extension.ts', 'src/core.ts', 'src/features.ts'].map(inputsOf),
    );
    const problems: string[] = [];
    let claims = 0;
    for (const f of sources(join(root, 'src'))) {
      const claim = claimOf(readFileSync(f, 'utf8'));
      if (!claim) continue;
      claims += 1;
      const rel = relative(root, f).split(sep).join('/');
      if (claim === 'extension' && !extension.has(rel))
        problems.push(`${rel} says dist/extension.js but the activation bundle does not hold it`);
      if (claim === 'core' && !core.has(rel)) problems.push(`${rel} says dist/core.js but it is not in the core`);
      if (claim === 'features' && (!features.has(rel) || core.has(rel)))
        problems.push(
          `${rel} says dist/features.js but it is ${core.has(rel) ? 'in dist/core.js' : 'not in dist/features.js'}`,
        );
    }
    assert.ok(claims >= 10, `the headers were read (${claims} claims)`);
    assert.deepEqual(problems, []);
  });
});
