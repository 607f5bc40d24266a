// Issue 24: the web extension's bundle (package.json `browser`), kept beside build.mjs so that its
// options, its host modules and its check are one import there and one import in the unit test.
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';

/**
 * Node's module -> the browser's, swapped in the web bundle only (house style 15: one code base, the
 * host chosen at the entry point). Each pair has the same exports.
 */
export const HOST_MODULES = {
  'src/api/hostTransport.ts': 'src/api/fetchTransport.ts',      // undici (proxies, CAs) -> fetch
  'src/lazy.ts': 'src/web/lazy.ts',                             // require('./core.js') -> bundled in
  'src/search/gitConfigRemotes.ts': 'src/web/gitConfigRemotes.ts', // `git config` process -> none
  'src/deps/folderLookup.ts': 'src/web/folderLookup.ts',        // node:fs resolver -> workspace.fs manifests
};

export function browserHostPlugin(root) {
  const map = new Map(Object.entries(HOST_MODULES).map(([from, to]) => [join(root, from), join(root, to)]));
  return {
    name: 'browser-host',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (a) => {
        const abs = resolve(a.resolveDir, a.path);
        const to = map.get(abs) ?? map.get(`${abs}.ts`);
        return to ? { path: to } : undefined;
      });
    },
  };
}

/** esbuild options for dist/web/extension.js: browser platform, CommonJS (VS Code's web worker host loads it so), vscode external. */
export function webBundle(root, production) {
  return {
    entryPoints: ['src/web/extension.ts'], outfile: 'dist/web/extension.js', bundle: true, platform: 'browser', format: 'cjs',
    target: 'es2022', external: ['vscode'], plugins: [browserHostPlugin(root)], metafile: true, absWorkingDir: root,
    sourcemap: production ? false : 'linked', minify: production, logLevel: 'warning', legalComments: 'none',
    // The test surface (src/testGate.ts) in development builds only, as in the Node bundles: the browser tier's worker
    // host turns it on with the worker global `__devindexTestMode`; a --production build drops it.
    define: { __DEVINDEX_TEST_SURFACE__: production ? 'false' : 'true' },
  };
}

const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** What must never be in the web bundle: a Node built-in import, undici, or a host module the plugin should have swapped. */
export function browserBundleProblems(metafile) {
  const problems = [];
  for (const [file, input] of Object.entries(metafile.inputs)) {
    if (/node_modules[\\/]undici[\\/]/.test(file)) problems.push(`${file} (undici)`);
    if (Object.keys(HOST_MODULES).some((m) => file.replace(/\\/g, '/').endsWith(m))) problems.push(`${file} (a Node host module)`);
    for (const imp of input.imports) if (BUILTINS.has(imp.path)) problems.push(`${file} imports ${imp.path}`);
  }
  for (const out of Object.values(metafile.outputs)) for (const imp of out.imports ?? []) if (imp.path !== 'vscode') problems.push(`the bundle requires ${imp.path} at run time`);
  return [...new Set(problems)];
}
