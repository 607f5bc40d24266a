// Spawned by activation.bench: one measurement per fresh process, so module caches never flatter a figure.
// Usage: node activationProbe.js <activate|core|full|undici> <repoRoot> (undici: the whole undici package alone, the baseline)
import Module from 'node:module';
import { join } from 'node:path';

const [mode, root] = process.argv.slice(2) as [string, string];

// A stand-in for the `vscode` module: every property is a callable, constructible no-op returning itself.
const anything: unknown = new Proxy(function stub() {}, {
  get: (_t, p) => (p === 'then' ? undefined : p === Symbol.toPrimitive ? () => '' : anything),
  apply: () => anything,
  construct: () => anything as object,
});
// A plain object of namespaces, since bundlers copy a module's own keys when they wrap it.
const vscodeStub = Object.fromEntries(
  [
    'window',
    'commands',
    'workspace',
    'env',
    'extensions',
    'languages',
    'Uri',
    'EventEmitter',
    'ThemeIcon',
    'ThemeColor',
    'TreeItem',
    'MarkdownString',
    'Disposable',
    'ProgressLocation',
    'TreeItemCollapsibleState',
    'ConfigurationTarget',
    'StatusBarAlignment',
    'ViewColumn',
    'l10n',
    'CodeActionKind',
  ].map((k) => [k, anything]),
);
const load = (Module as unknown as { _load: (r: string, ...a: unknown[]) => unknown })._load;
(Module as unknown as { _load: (r: string, ...a: unknown[]) => unknown })._load = function (
  request: string,
  ...rest: unknown[]
) {
  return request === 'vscode' ? vscodeStub : load.call(this, request, ...rest);
};

function packageJson(): unknown {
  try {
    return JSON.parse(require('node:fs').readFileSync(join(root, 'package.json'), 'utf8'));
  } catch {
    return { version: '0.0.0' };
  }
}
const memento = { get: () => undefined, update: async () => undefined, keys: () => [] };
const context = {
  subscriptions: [] as unknown[],
  secrets: {
    get: async () => undefined,
    store: async () => undefined,
    delete: async () => undefined,
    onDidChange: () => ({ dispose() {} }),
  },
  globalState: memento,
  workspaceState: memento,
  extensionUri: anything,
  // What the walkthrough and the MCP setup read at activation (the real host's ExtensionContext.extension).
  extension: { id: 'devindex.devindex', packageJSON: packageJson() },
};

const t0 = process.hrtime.bigint();
if (mode === 'activate' || mode === 'full') {
  const ext = require(join(root, 'dist', 'extension.js')) as { activate(c: unknown): unknown };
  ext.activate(context);
}
if (mode === 'core' || mode === 'full') require(join(root, 'dist', 'core.js'));
if (mode === 'undici') require(join(root, 'node_modules', 'undici'));
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
const coreLoaded = Object.keys(require.cache).some((k) => k.endsWith(join('dist', 'core.js')));
process.stdout.write(JSON.stringify({ ms, coreLoaded }) + '\n');
// Timers an activation starts (polling, storage checks) must not keep the probe alive: one measurement, then exit.
process.exit(0);
