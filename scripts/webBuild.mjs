// The web extension's bundle (package.json `browser`), kept beside build.mjs so that its
// options and its check are one import there and one import in the unit test.
import { builtinModules } from 'node:module';

/**
 * Node's host (src/host/node.ts), which must never be in the web bundle: the web entry builds its code over the
 * browser's host (src/web/core.ts), so nothing swaps a path; the check below fails the build if it is pulled in.
 */
export const NODE_HOST = 'src/host/node.ts';

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
