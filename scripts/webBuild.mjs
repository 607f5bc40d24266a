// Issue 24: the web extension's bundle (package.json `browser`), kept beside build.mjs so that its
// options, its host modules and its check are one import there and one import in the unit test.
import { builtinModules } from 'node:module';
import { join, relative, resolve } from 'node:path';

/**
 * The host (house style 15: one code base, the host chosen at the entry point). Modules import the host-neutral
 * src/host/<part>.ts, which re-exports src/host/node/<part>.ts; the web bundle resolves every module in src/host/node/
 * to the file of the same name in src/host/browser/ (src/host/host.ts checks both provide the same exports).
 */
export const NODE_HOST = 'src/host/node/';
export const BROWSER_HOST = 'src/host/browser/';

export function browserHostPlugin(root) {
  const nodeDir = join(root, NODE_HOST);
  return {
    name: 'browser-host',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (a) => {
        const abs = resolve(a.resolveDir, a.path);
        if (!abs.startsWith(nodeDir)) return undefined;
        const file = abs.endsWith('.ts') ? abs : `${abs}.ts`;
        return { path: join(root, BROWSER_HOST, relative(nodeDir, file)) };
      });
    },
  };
}

/** esbuild options for dist/web/extension.js: browser platform, CommonJS (VS Code's web worker host loads it so), vscode external. */
export function webBundle(root, production) {
  return {
    entryPoints: ['src/web/extension.ts'],
    outfile: 'dist/web/extension.js',
    bundle: true,
    platform: 'browser',
    format: 'cjs',
    target: 'es2022',
    external: ['vscode'],
    plugins: [browserHostPlugin(root)],
    metafile: true,
    absWorkingDir: root,
    sourcemap: production ? false : 'linked',
    minify: production,
    logLevel: 'warning',
    legalComments: 'none',
  };
}

const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** What must never be in the web bundle: a Node built-in import, undici, or a host module the plugin should have swapped. */
export function browserBundleProblems(metafile) {
  const problems = [];
  for (const [file, input] of Object.entries(metafile.inputs)) {
    if (/node_modules[\\/]undici[\\/]/.test(file)) problems.push(`${file} (undici)`);
    if (file.replace(/\\/g, '/').includes(NODE_HOST)) problems.push(`${file} (a Node host module)`);
    for (const imp of input.imports) if (BUILTINS.has(imp.path)) problems.push(`${file} imports ${imp.path}`);
  }
  for (const out of Object.values(metafile.outputs))
    for (const imp of out.imports ?? [])
      if (imp.path !== 'vscode') problems.push(`the bundle requires ${imp.path} at run time`);
  return [...new Set(problems)];
}
