#!/usr/bin/env node
// One build for every bundle: the extension (activation entry + lazily loaded core), the webview,
// the CLI, the sandbox, and (with --tests) every test and bench file under out/.
import * as esbuild from 'esbuild';
import {
  copyFileSync,
  existsSync,
  readFileSync,
  mkdirSync,
  readdirSync,
  renameSync,
  statSync,
  rmSync,
  writeFileSync,
  watch as watchFiles,
} from 'node:fs';
import { join, relative, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserBundleProblems, webBundle } from './webBuild.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const watch = args.has('--watch');
const withTests = args.has('--tests');
const production = args.has('--production');
// --test-surface: keep the test surface (__DEVINDEX_TEST_SURFACE__) in a --production build. Only the e2e tier's
// package asks for it, so that DEVINDEX_TEST_TIMING (src/testHooks/timing.ts) applies there; `npm run package` never does.
const testSurface = args.has('--test-surface');
const quiet = args.has('--quiet');
// --costs: what each package (and each src/ folder) adds to the extension's bundles, from esbuild's metafile.
const costs = args.has('--costs');
// --only=PREFIX (repeatable): bundle only the test/bench files under these paths (and skip the product
// bundles unless --bundles), so one person's half-written test does not break another's build.
const only = process.argv
  .slice(2)
  .filter((a) => a.startsWith('--only='))
  .map((a) => a.slice(7));
const productBundles = only.length === 0 || args.has('--bundles');

/**
 * The activation bundle must not pull in the core: src/extension.ts's `require('./core.js')` (and
 * features.js) stays a runtime require of `./core.js` beside dist/extension.js. Bundles without this plugin (the
 * tests, the bench) resolve it to src/core.ts.
 */
const coreExternal = {
  name: 'core-external',
  setup(build) {
    build.onResolve({ filter: /^\.\/(core|features)\.js$/ }, (a) =>
      a.importer.endsWith(join('src', 'extension.ts')) ? { path: a.path, external: true } : undefined,
    );
    // The editor's MCP and rules setup edits files through `devindex setup`'s own bundle.
    build.onResolve({ filter: /^\.\/cli-setup\.js$/ }, (a) =>
      a.importer.endsWith(join('src', 'mcpSetup', 'editorFiles.ts'))
        ? { path: './cli-setup.js', external: true }
        : undefined,
    );
  },
};

/**
 * dist/core.js holds what a search needs; dist/features.js the rest (src/features.ts). A module of ours that
 * both use is bundled once, in dist/core.js: features.js takes it at run time from core.js's `__shared` table
 * (one ApiError class, one log channel, one client, whichever bundle loaded first). Packages (zod, semver) are
 * not shared: each bundle keeps only the parts it uses, and no instance of theirs crosses between bundles.
 * @param shared absolute paths of the core's own modules (src/) that dist/core.js has
 * @param used filled with the shared modules features.js imports (the keys core.js must export)
 */
function coreShared(shared, used) {
  return {
    name: 'core-shared',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, async (a) => {
        if (a.namespace === 'core-shared') return { path: './core.js', external: true };
        if (a.pluginData === 'core-shared') return undefined;
        const r = await build.resolve(a.path, {
          resolveDir: a.resolveDir,
          kind: a.kind,
          importer: a.importer,
          pluginData: 'core-shared',
        });
        if (r.errors.length || !shared.has(r.path)) return undefined;
        const key = relative(root, r.path).replace(/\\/g, '/');
        used.add(key);
        return { path: key, namespace: 'core-shared' };
      });
      build.onLoad({ filter: /.*/, namespace: 'core-shared' }, (a) => ({
        contents: `module.exports = require('./core.js').__shared[${JSON.stringify(a.path)}];`,
        loader: 'js',
        resolveDir: root,
      }));
    },
  };
}

/** src/core.ts, plus (when features.js shares modules with it) the `__shared` table of those modules' namespaces. */
function coreEntry(used) {
  const keys = [...used].sort();
  const contents = [
    `export * from './src/core';`,
    ...keys.map((k, i) => `import * as m${i} from './${k}';`),
    `export const __shared = { ${keys.map((k, i) => `${JSON.stringify(k)}: m${i}`).join(', ')} };`,
  ].join('\n');
  return { stdin: { contents, resolveDir: root, sourcefile: 'dist-core-entry.ts', loader: 'ts' } };
}

/**
 * undici compiles its HTTP parser from one of two WebAssembly builds: the SIMD one, which every Node
 * 20+ on x64 and arm64 runs, and a plain one it falls back to. The fallback (70 KB) is kept out of the
 * bundles that load the client and copied beside them, so it loads only where SIMD is missing.
 */
const llhttpFallback = {
  name: 'llhttp-fallback-external',
  setup(build) {
    build.onResolve({ filter: /llhttp-wasm\.js$/ }, (a) =>
      a.importer.includes(`undici${'/'}lib`) || a.importer.includes('undici\\lib')
        ? { path: './llhttp-wasm.js', external: true }
        : undefined,
    );
  },
};

/**
 * undici's HTTP/2 client is used only when a dispatcher is built with `allowH2` (ours never are), but undici
 * requires it, and with it Node's http2 module, as it loads: 4 ms of every start on Node 20, 7 to 12 ms on
 * Node 24 (`devindex mcp`'s spawn to first answer; also the editor's first search). Here it is
 * required on its first use instead. The build fails if undici's line changes, so that this is looked at again.
 */
const H2_REQUIRE = "const connectH2 = require('./client-h2.js')";
const http2OnDemand = {
  name: 'undici-http2-on-demand',
  setup(build) {
    build.onLoad({ filter: /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/ }, (a) => {
      const text = readFileSync(a.path, 'utf8');
      if (!text.includes(H2_REQUIRE))
        throw new Error(`undici's ${a.path} no longer has "${H2_REQUIRE}": see http2OnDemand in scripts/build.mjs`);
      return {
        loader: 'js',
        resolveDir: dirname(a.path),
        contents: text.replace(
          H2_REQUIRE,
          "let h2Client\nconst connectH2 = (client, socket) => (h2Client ??= require('./client-h2.js'))(client, socket)",
        ),
      };
    });
  },
};

/**
 * The editor reads lockfiles in a worker thread (dist/lockfiles.js), so the parsers (yaml, @yarnpkg/parsers, smol-toml)
 * stay out of dist/core.js: there the resolver's in-thread reader (src/deps/lockfileRead.ts) is swapped for the one
 * that posts to the worker (src/deps/lockfileThread.ts, same exports). `devindex mcp` is long-lived like the editor and
 * does the same (its spawn to first answer; a 30 MB lockfile never holds a wait's progress). The one-shot
 * CLI commands keep the in-thread reader.
 */
const lockfilesInWorker = {
  name: 'lockfiles-in-worker',
  setup(build) {
    build.onResolve({ filter: /^\.\/lockfileRead$/ }, (a) =>
      a.importer.endsWith(join('src', 'deps', 'resolver.ts'))
        ? { path: join(root, 'src', 'deps', 'lockfileThread.ts') }
        : undefined,
    );
  },
};

/**
 * `devindex mcp` never asks its client for input (MCP elicitation), the one thing the SDK's server checks with ajv:
 * the server is given its own validator (src/cli/mcp.ts), and the SDK's ajv provider is left out of the bundle
 * (ajv, ajv-formats and fast-uri: 130 KB, about 10 ms of every spawn). Constructing the stand-in throws.
 */
const mcpWithoutAjv = {
  name: 'mcp-without-ajv',
  setup(build) {
    build.onResolve({ filter: /ajv-provider\.js$/ }, (a) =>
      /[\\/]@modelcontextprotocol[\\/]sdk[\\/]/.test(a.importer)
        ? { path: 'ajv-provider', namespace: 'mcp-without-ajv' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'mcp-without-ajv' }, () => ({
      loader: 'js',
      contents:
        'export class AjvJsonSchemaValidator { constructor() { throw new Error("devindex mcp is built without ajv: give the server a jsonSchemaValidator"); } }',
    }));
  },
};

/**
 * Size budgets of the production bundles, in KB: the build fails when one is passed. They hold today's sizes with a
 * little room (activation goal 60 KB; core goal 450 KB, met since the dependency index and the problem-message
 * cleaning went to features, which only the dependency commands use; features: the rest, loaded on first use;
 * `npm run bench` prints them).
 */
const BUDGETS_KB = {
  'dist/extension.js': 51,
  'dist/core.js': 447,
  'dist/features.js': 351,
  'dist/webview.js': 150,
  'dist/lockfiles.js': 240,
  'dist/cli.js': 12,
  'dist/cli-search.js': 620,
  'dist/cli-agent.js': 446,
  'dist/cli-doctor.js': 400,
  'dist/cli-mcp.js': 612,
  'dist/cli-watch.js': 620,
  'dist/cli-fixes.js': 634,
  'dist/cli-setup.js': 60,
};
// The web extension (one file: activation, client, zod, the lockfile parsers, tools).
BUDGETS_KB['dist/web/extension.js'] = 960;

/**
 * The CLI's entry only dispatches: each command is its own bundle, required when it runs, so `devindex
 * mcp` never parses the agent command's code and `devindex search` never parses the MCP SDK.
 */
const CLI_COMMANDS = {
  './searchCommand': './cli-search.js',
  './agentCommand': './cli-agent.js',
  './mcp': './cli-mcp.js',
  './doctorCommand': './cli-doctor.js',
  './watchCommand': './cli-watch.js',
  './fixesCommand': './cli-fixes.js',
  './setupCommand': './cli-setup.js',
};
const cliCommandsExternal = {
  name: 'cli-commands-external',
  setup(build) {
    build.onResolve(
      { filter: /^\.\/(searchCommand|agentCommand|mcp|doctorCommand|watchCommand|fixesCommand|setupCommand)$/ },
      (a) =>
        a.importer.endsWith(join('src', 'cli', 'main.ts')) ? { path: CLI_COMMANDS[a.path], external: true } : undefined,
    );
  },
};

const node = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: quiet ? 'error' : 'warning',
  absWorkingDir: root,
  legalComments: 'none',
  // The test hooks (src/testHooks/: shorter durations; key access under a host tier) only outside --production builds.
  define: { __DEVINDEX_TEST_SURFACE__: production && !testSurface ? 'false' : 'true' },
};

const bundles = [
  {
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode'],
    plugins: [coreExternal],
    ...node,
    metafile: true,
  },
  { entryPoints: ['src/deps/lockfileWorker.ts'], outfile: 'dist/lockfiles.js', ...node, metafile: true },
  {
    entryPoints: ['src/webview/app/main.ts'],
    outfile: 'dist/webview.js',
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
    sourcemap: production ? false : 'linked',
    minify: production,
    logLevel: 'warning',
    absWorkingDir: root,
    metafile: true,
  },
  {
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
    plugins: [cliCommandsExternal],
    ...node,
    metafile: true,
  },
  {
    entryPoints: ['src/cli/searchCommand.ts'],
    outfile: 'dist/cli-search.js',
    ...node,
    plugins: [llhttpFallback, http2OnDemand],
    metafile: true,
  },
  {
    entryPoints: ['src/cli/agentCommand.ts'],
    outfile: 'dist/cli-agent.js',
    ...node,
    plugins: [llhttpFallback, http2OnDemand],
    metafile: true,
  },
  {
    entryPoints: ['src/cli/doctorCommand.ts'],
    outfile: 'dist/cli-doctor.js',
    ...node,
    plugins: [llhttpFallback, http2OnDemand],
    metafile: true,
  },
  {
    entryPoints: ['src/cli/mcp.ts'],
    outfile: 'dist/cli-mcp.js',
    ...node,
    plugins: [llhttpFallback, http2OnDemand, lockfilesInWorker, mcpWithoutAjv],
    metafile: true,
  },
  {
    entryPoints: ['src/cli/watchCommand.ts'],
    outfile: 'dist/cli-watch.js',
    ...node,
    plugins: [llhttpFallback, http2OnDemand],
    metafile: true,
  },
  {
    entryPoints: ['src/cli/fixesCommand.ts'],
    outfile: 'dist/cli-fixes.js',
    ...node,
    plugins: [llhttpFallback, http2OnDemand],
    metafile: true,
  },
  // `devindex setup` (files only: jsonc-parser, no client); the editor's setup commands load it too.
  // jsonc-parser's `main` is a UMD build whose requires esbuild cannot follow: its ES module build is bundled.
  {
    entryPoints: ['src/cli/setupCommand.ts'],
    outfile: 'dist/cli-setup.js',
    ...node,
    mainFields: ['module', 'main'],
    metafile: true,
  },
  { entryPoints: ['sandbox/main.ts'], outfile: 'dist/sandbox.js', ...node },
  webBundle(root, production),
].filter((b) => productBundles && existsSync(join(root, b.entryPoints[0])));
const coreOptions = {
  outfile: 'dist/core.js',
  external: ['vscode'],
  ...node,
  plugins: [llhttpFallback, http2OnDemand, lockfilesInWorker],
  metafile: true,
};
const featuresOptions = {
  entryPoints: ['src/features.ts'],
  outfile: 'dist/features.js',
  external: ['vscode'],
  ...node,
  metafile: true,
};

/**
 * Builds dist/core.js and dist/features.js together: core alone first, then features with core's modules
 * shared, then core again exporting the modules features uses; exporting them can keep more of core's own
 * code, so the two steps repeat until nothing changes (twice in practice).
 */
async function buildCoreAndFeatures() {
  const ownModules = (meta) =>
    new Set(
      Object.keys(meta.inputs)
        .filter((f) => f.startsWith('src/'))
        .map((f) => join(root, f)),
    );
  let used = new Set();
  let core = await esbuild.build({ ...coreOptions, ...coreEntry(used), write: false });
  for (let round = 0; round < 5; round++) {
    const shared = ownModules(core.metafile);
    const nextUsed = new Set();
    const features = await esbuild.build({
      ...featuresOptions,
      plugins: [llhttpFallback, http2OnDemand, lockfilesInWorker, coreShared(shared, nextUsed)],
      write: false,
    });
    const same = nextUsed.size === used.size && [...nextUsed].every((k) => used.has(k));
    if (same) {
      for (const r of [core, features])
        for (const f of r.outputFiles) {
          mkdirSync(dirname(f.path), { recursive: true });
          writeFileSync(f.path, f.contents);
        }
      return [core, features];
    }
    used = nextUsed;
    core = await esbuild.build({ ...coreOptions, ...coreEntry(used), write: false });
  }
  throw new Error('build: dist/core.js and dist/features.js did not settle on the modules they share');
}

function walk(dir, pred, acc = []) {
  if (!existsSync(dir)) return acc;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'fixtures') walk(p, pred, acc);
    } else if (pred(p)) acc.push(p);
  }
  return acc;
}

if (withTests) {
  if (args.has('--clean')) rmSync(join(root, 'out'), { recursive: true, force: true });
  const isTs = (p) => p.endsWith('.ts') && !p.endsWith('.d.ts');
  const testEntries = [
    ...walk(join(root, 'test'), (p) => isTs(p) && (p.endsWith('.test.ts') || /[\\/](index|run[^\\/]*)\.ts$/.test(p))),
    ...walk(join(root, 'bench'), isTs),
  ].filter((p) => only.length === 0 || only.some((o) => relative(root, p).startsWith(o)));
  if (testEntries.length) {
    bundles.push({
      entryPoints: testEntries.map((p) => relative(root, p)),
      outdir: 'out',
      outbase: '.',
      ...node,
      sourcemap: 'inline',
      minify: false,
      packages: 'external',
      external: ['vscode'],
    });
  }
}

/**
 * Static assets the webview loads next to its bundle: the codicon font and its stylesheet (the css
 * refers to the font by a relative url, so both sit side by side in dist/).
 */
const STATIC_ASSETS = [
  ['node_modules/@vscode/codicons/dist/codicon.css', 'dist/codicon.css'],
  ['node_modules/@vscode/codicons/dist/codicon.ttf', 'dist/codicon.ttf'],
  // undici's parser fallback for a Node without WebAssembly SIMD (see llhttpFallback).
  ['node_modules/undici/lib/llhttp/llhttp-wasm.js', 'dist/llhttp-wasm.js'],
];
if (productBundles) {
  mkdirSync(join(root, 'dist'), { recursive: true });
  // Copied then renamed: a webview or a packaging run reading dist/ meanwhile never sees half a file.
  for (const [from, to] of STATIC_ASSETS) {
    const tmp = join(root, `${to}.${process.pid}.tmp`);
    copyFileSync(join(root, from), tmp);
    renameSync(tmp, join(root, to));
  }
}

if (watch) {
  for (const b of bundles) {
    const ctx = await esbuild.context(b);
    await ctx.watch();
  }
  // dist/core.js and dist/features.js are built as a pair (buildCoreAndFeatures): again after each change under src/.
  if (productBundles) {
    const again = async () => {
      try {
        await buildCoreAndFeatures();
      } catch (e) {
        console.error(String(e));
      }
    };
    await again();
    let timer;
    watchFiles(join(root, 'src'), { recursive: true }, () => {
      clearTimeout(timer);
      timer = setTimeout(again, 100);
    });
  }
  console.log('[watch] build started');
} else {
  const results = [
    ...(await Promise.all(bundles.map((b) => esbuild.build(b)))),
    ...(productBundles ? await buildCoreAndFeatures() : []),
  ];
  // The browser bundle holds no Node built-in and no undici (scripts/webBuild.mjs).
  for (const r of results) {
    if (!r.metafile?.outputs['dist/web/extension.js']) continue;
    const problems = browserBundleProblems(r.metafile);
    if (problems.length) {
      for (const p of problems) console.error(`build: dist/web/extension.js: ${p}`);
      process.exit(1);
    }
  }
  const sizes = {};
  for (const r of results)
    for (const [file, o] of Object.entries(r.metafile?.outputs ?? {})) if (file.endsWith('.js')) sizes[file] = o.bytes;
  if (!quiet) {
    const meta = results[0]?.metafile;
    if (meta)
      for (const [file, o] of Object.entries(meta.outputs))
        if (file.endsWith('.js')) console.log(`built ${file} (${(o.bytes / 1024).toFixed(1)} KB)`);
  }
  if (costs) {
    for (const r of results)
      for (const [file, o] of Object.entries(r.metafile?.outputs ?? {})) {
        if (!/dist\/(extension|core|features|lockfiles)\.js$/.test(file)) continue;
        const by = {};
        for (const [input, v] of Object.entries(o.inputs)) {
          const key = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? input.split('/').slice(0, 2).join('/');
          by[key] = (by[key] ?? 0) + v.bytesInOutput;
        }
        const top = Object.entries(by)
          .sort((a, b) => b[1] - a[1])
          .filter(([, b]) => b >= 1024);
        console.log(
          `${file} ${(o.bytes / 1024).toFixed(1)} KB: ${top.map(([k, b]) => `${k} ${(b / 1024).toFixed(1)}`).join(', ')}`,
        );
      }
  }
  // Budgets hold for what ships (minified, no inline source maps): checked on production builds, not on the
  // e2e tier's --test-surface build (it never ships, and its test surface is what the budget keeps out).
  if (production && !testSurface) {
    const over = Object.entries(BUDGETS_KB).filter(([f, kb]) => sizes[f] !== undefined && sizes[f] > kb * 1024);
    for (const [f, kb] of Object.entries(BUDGETS_KB))
      if (sizes[f] !== undefined && !quiet) console.log(`budget ${f}: ${(sizes[f] / 1024).toFixed(1)} KB of ${kb} KB`);
    if (over.length) {
      for (const [f, kb] of over)
        console.error(
          `build: ${f} is ${(sizes[f] / 1024).toFixed(1)} KB, over its budget of ${kb} KB (scripts/build.mjs BUDGETS_KB)`,
        );
      process.exit(1);
    }
  }
}
