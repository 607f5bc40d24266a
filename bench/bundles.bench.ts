// The bundle diet: what zod costs in its classic form (dist/features.js) and in zod/mini (dist/core.js) for the same schema
// features (bench/fixtures/zod/), built as the production bundles are; and that the lockfile parsers stay out of
// dist/core.js (they are in dist/lockfiles.js, the editor's lockfile worker); and what the first search loads since
// the core was split (dist/core.js) against one bundle of the core and the features together, built in this run.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.join(__dirname, '..', '..');
const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;

async function zodBytes(entry: string): Promise<{ zod: number; messages: string }> {
  const r = await esbuild.build({
    entryPoints: [path.join(root, 'bench', 'fixtures', 'zod', entry)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: root,
  });
  const out = Object.values(r.metafile!.outputs)[0]!;
  const zod = Object.entries(out.inputs)
    .filter(([f]) => f.includes('node_modules/zod/'))
    .reduce((a, [, v]) => a + v.bytesInOutput, 0);
  const mod = { exports: {} as { check?: (v: unknown) => unknown[] } };
  new Function('module', 'exports', 'require', r.outputFiles![0]!.text)(mod, mod.exports, require);
  const issues = mod.exports.check!({ s: 1 })[0] as Array<{ message: string }>;
  return { zod, messages: issues[0]!.message };
}

/** The baseline: src/core.ts and src/features.ts in one bundle, as dist/core.js was before the split. */
async function oneBundle(): Promise<number> {
  const r = await esbuild.build({
    stdin: {
      contents: "export * from './src/core'; export * from './src/features';",
      resolveDir: root,
      sourcefile: 'one-core.ts',
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    write: false,
    logLevel: 'silent',
    absWorkingDir: root,
    external: ['vscode', './llhttp-wasm.js'],
    legalComments: 'none',
    define: { __DEVINDEX_TEST_SURFACE__: 'false' },
    plugins: [
      {
        name: 'as-build',
        setup(b) {
          b.onResolve({ filter: /llhttp-wasm\.js$/ }, (a) =>
            a.importer.includes('undici') ? { path: './llhttp-wasm.js', external: true } : undefined,
          );
          b.onResolve({ filter: /^\.\/lockfileRead$/ }, (a) =>
            a.importer.endsWith(path.join('src', 'deps', 'resolver.ts'))
              ? { path: path.join(root, 'src', 'deps', 'lockfileThread.ts') }
              : undefined,
          );
        },
      },
    ],
  });
  return r.outputFiles![0]!.contents.length;
}

async function main(): Promise<void> {
  const classic = await zodBytes('classic.ts');
  const mini = await zodBytes('mini.ts');
  const core = fs.statSync(path.join(root, 'dist', 'core.js')).size;
  const coreText = fs.readFileSync(path.join(root, 'dist', 'core.js'), 'utf8');
  // zod's class names survive minifying: classic zod's string schema is "ZodString", zod/mini's "ZodMiniString".
  const classicInCore = coreText.includes('"ZodString"');
  const miniInCore = coreText.includes('"ZodMiniString"');
  console.log(
    `zod, every feature our schemas use: classic ${kb(classic.zod)}, zod/mini with English messages ${kb(mini.zod)} (${(mini.zod / classic.zod).toFixed(2)}x); same first message: ${classic.messages === mini.messages ? 'yes' : `NO (${classic.messages} / ${mini.messages})`}`,
  );
  const features = fs.statSync(path.join(root, 'dist', 'features.js')).size;
  const one = await oneBundle();
  console.log(
    `${core <= 450 * 1024 ? 'ok  ' : 'MISS'} the first search loads dist/core.js: ${kb(core)}, ${(core / one).toFixed(2)}x one bundle of core and features (${kb(one)}, built in this run); dist/features.js ${kb(features)} loads when agent jobs, the tools, a dependency search or the diagnosis is first used (goal core <= 450 KB: ${core <= 450 * 1024 ? 'met' : 'NOT MET'})`,
  );
  console.log(
    `${!classicInCore && miniInCore ? 'ok  ' : 'MISS'} dist/core.js's schemas: ${miniInCore ? 'zod/mini' : 'no zod/mini'}${classicInCore ? ' and classic zod' : ', no classic zod'} (the search schemas moved to zod/mini; classic zod stays in dist/features.js)`,
  );
  const parsers = ['smol-toml', 'parseSyml', 'js-yaml'].filter((m) => coreText.includes(m));
  const worker = path.join(root, 'dist', 'lockfiles.js');
  console.log(
    `${parsers.length === 0 && fs.existsSync(worker) ? 'ok  ' : 'MISS'} lockfile parsers in dist/core.js: ${parsers.length ? parsers.join(', ') : 'none'}; dist/lockfiles.js ${fs.existsSync(worker) ? kb(fs.statSync(worker).size) : 'MISSING'} (goal: parsers only in the worker: ${parsers.length === 0 && fs.existsSync(worker) ? 'met' : 'NOT MET'})`,
  );
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
