// The dependency fixture workspace of the host and e2e tiers: a package.json whose packages
// are installed in a small node_modules with varied `repository` fields, a go.mod, and a TypeScript file
// with an import problem. The packages point at repositories the sandbox corpus indexes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const pkg = (name, fields, files = {}) => ({
  [`node_modules/${name}/package.json`]: JSON.stringify(
    { name, version: '1.0.0', main: 'index.js', ...fields },
    null,
    2,
  ),
  [`node_modules/${name}/index.js`]: 'module.exports = {};\n',
  ...Object.fromEntries(Object.entries(files).map(([p, t]) => [`node_modules/${name}/${p}`, t])),
});

/** Every file of the fixture, path -> text. */
export const DEPS_FIXTURE_FILES = {
  'package.json': JSON.stringify(
    {
      name: 'deps-fixture',
      version: '0.0.0',
      private: true,
      dependencies: {
        fetchline: '^2.1.0',
        'keel-schema': '^2.3.1',
        trialrun: '^1.0.0',
        '@orbit-editor/webview-toolkit': '^0.9.0',
        shapeshift: '^1.0.0',
        'gitlab-only': '^1.0.0',
        'no-repository': '^1.0.0',
        'not-installed': '^1.0.0',
      },
    },
    null,
    2,
  ),
  // object with url (git+https, .git suffix) and types, so it imports cleanly
  // Installed versions: fetchline 3.2.0 is older than the corpus's fix (3.3.0, fetchline#472),
  // keel-schema 2.6.0 newer than its fix (2.5.1, keel-schema#925).
  ...pkg(
    'fetchline',
    {
      version: '3.2.0',
      repository: { type: 'git', url: 'git+https://github.com/fetchline/fetchline.git' },
      types: 'index.d.ts',
    },
    { 'index.d.ts': 'export declare function fetchJson(url: string): Promise<unknown>;\n' },
  ),
  // github: shorthand, JavaScript only (no types): TS7016 under strict is the fixture's import problem
  ...pkg('keel-schema', { version: '2.6.0', repository: 'github:keelhq/keel-schema' }),
  // git+ssh form
  ...pkg('trialrun', { repository: 'git+ssh://git@github.com/trialrun/trialrun.git' }),
  // scoped package, owner/repo shorthand inside an object with a directory
  ...pkg('@orbit-editor/webview-toolkit', {
    repository: { type: 'git', url: 'orbit-editor/webview-toolkit', directory: 'packages/toolkit' },
  }),
  // no repository: homepage fallback (a repository the index does not have)
  ...pkg('shapeshift', { homepage: 'https://github.com/harborlight/shapeshift#readme' }),
  ...pkg('gitlab-only', { repository: 'gitlab:acme/gitlab-only' }),
  ...pkg('no-repository', {}),
  'go.mod':
    'module example.com/depsfixture\n\ngo 1.22\n\nrequire (\n\tgithub.com/gridworks/tollgate/v2 v2.1.0\n\tgolang.org/x/net v0.20.0 // indirect\n)\n\nrequire gitlab.com/acme/thing v1.0.0\n',
  'tsconfig.json': JSON.stringify(
    {
      compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', noEmit: true, skipLibCheck: true },
      include: ['src'],
    },
    null,
    2,
  ),
  'src/app.ts':
    "import { fetchJson } from 'fetchline';\nimport { schema } from 'keel-schema';\n\nexport const both = [fetchJson, schema];\n",
};

/** Writes the fixture into `dir` (created). */
export function writeDepsFixture(dir) {
  for (const [p, text] of Object.entries(DEPS_FIXTURE_FILES)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  return dir;
}
