// No command exists only for a test: the host tests look inside the extension through the desktop entry's exports
// (src/testHooks/surface.ts), which only a test build under a host tier returns. The packaged extension
// (scripts/build.mjs --production) and the web bundle hold no test surface at all. Built here in memory with the
// production define, so the dist/ the other tiers use is left alone.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { build, type BuildOptions } from 'esbuild';
import { scriptModule } from '../../support/scriptModule';
import { AGENT_COMMANDS, COMMAND_CATEGORY, menuWhen } from '../../../src/agents/agentCommandTable';

const root = join(__dirname, '..', '..', '..', '..');

/** The commands the host tests once called, now the exports' handles: registered in no build. */
const FORMER_TEST_COMMANDS = [
  'devIndex.search.shownScope',
  'devIndex.search.shownKeylessLine',
  'devIndex.search.getKey',
  'devIndex.search.postedSearch',
  'devIndex.chat.handleForTests',
  'devIndex.chat.followupsForTests',
  'devIndex.tools.invokeWithProgress',
  'devIndex.watch.checkNow',
  'devIndex.watch.remove',
  'devIndex.watch.open',
  'devIndex.watch.list',
  'devIndex.watch.compareInstalled',
];

/** Not in package.json but kept in production, each for a reason. */
const INTERNAL: Record<string, string> = {
  'devIndex.search.openDocument': 'the diagnosis, the issue report and result documents open through it',
};

const node: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  write: false,
  minify: true,
  logLevel: 'silent',
  absWorkingDir: root,
  external: ['vscode', '../../core.js', '../../features.js', './cli-setup.js', './llhttp-wasm.js'],
};

async function bundles(surface: boolean): Promise<Record<string, string>> {
  const define = { __DEVINDEX_TEST_SURFACE__: surface ? 'true' : 'false' };
  const out: Record<string, string> = {};
  for (const entry of ['src/extension.ts', 'src/core.ts', 'src/features.ts']) {
    const r = await build({ ...node, entryPoints: [join(root, entry)], define });
    out[entry] = r.outputFiles![0]!.text;
  }
  {
    // The web bundle exactly as scripts/build.mjs makes it (production, or the development build the browser tier runs).
    const { webBundle } = await scriptModule<{ webBundle(root: string, production: boolean): BuildOptions }>(
      'scripts/webBuild.mjs',
    );
    const r = await build({
      ...webBundle(root, !surface),
      write: false,
      metafile: false,
      logLevel: 'silent',
      sourcemap: false,
    });
    out['src/web/extension.ts'] = r.outputFiles![0]!.text;
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Every command id src/ registers under a literal name (registerCommand('…') or a local reg('…')), and the agent commands' table. */
function registeredIds(): Set<string> {
  const ids = new Set<string>(AGENT_COMMANDS.map((c) => c.id));
  for (const f of sourceFiles(join(root, 'src'))) {
    for (const m of readFileSync(f, 'utf8').matchAll(/(?:registerCommand|\breg)\(\s*'(devIndex\.[\w.]+)'/g))
      ids.add(m[1]!);
  }
  return ids;
}

describe('test-only commands', () => {
  it('no build (production or development, desktop or web) names a former test command', async () => {
    for (const surface of [false, true]) {
      for (const [entry, text] of Object.entries(await bundles(surface))) {
        for (const id of FORMER_TEST_COMMANDS)
          assert.ok(!text.includes(id), `${id} is in ${entry} (surface ${surface})`);
      }
    }
  });

  it('the production bundles (extension, core, features, web) never read DEVINDEX_TEST_KEY', async () => {
    for (const [entry, text] of Object.entries(await bundles(false)))
      assert.ok(!text.includes('DEVINDEX_TEST_KEY'), `${entry} reads DEVINDEX_TEST_KEY in production`);
  });

  it('scripts/build.mjs turns the test surface off for --production; the web bundle has none', () => {
    // Only --test-surface (the e2e tier's package, never shipped) keeps it in a production build.
    assert.match(
      readFileSync(join(root, 'scripts', 'build.mjs'), 'utf8'),
      /__DEVINDEX_TEST_SURFACE__: production && !testSurface \? 'false' : 'true'/,
    );
    assert.doesNotMatch(readFileSync(join(root, 'scripts', 'webBuild.mjs'), 'utf8'), /__DEVINDEX_TEST_SURFACE__/);
  });

  it('the development web bundle holds no test surface either (no test-mode global, no test key)', async () => {
    const text = (await bundles(true))['src/web/extension.ts']!;
    assert.ok(!text.includes('__devindexTestMode') && !text.includes('DEVINDEX_TEST_KEY'));
  });

  it('every command src/ registers is contributed in package.json or a listed internal one', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      contributes: { commands: Array<{ command: string }> };
    };
    const contributed = new Set(pkg.contributes.commands.map((c) => c.command));
    const ids = registeredIds();
    assert.ok(ids.has('devIndex.search.clear') && ids.has('devIndex.search.run'), 'the scan finds registrations');
    const unexplained = [...ids].filter((id) => !contributed.has(id) && !(id in INTERNAL));
    assert.deepEqual(
      unexplained,
      [],
      "a command not in package.json: a test's handle belongs in src/testHooks/surface.ts; else say why it ships (INTERNAL)",
    );
  });

  it('the agent commands in package.json (contributes.commands and menus) are exactly those of the command table', () => {
    type Item = { command: string; title?: string; category?: string; icon?: string; when?: string; group?: string };
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      contributes: { commands: Item[]; menus: Record<string, Item[]> };
    };
    const isAgent = (c: Item): boolean => c.command.startsWith('devIndex.agent.');
    const key = (o: object): string => JSON.stringify(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
    const sorted = (xs: object[]): string[] => xs.map(key).sort();
    assert.deepEqual(
      sorted(pkg.contributes.commands.filter(isAgent)),
      sorted(
        AGENT_COMMANDS.map((c) => ({
          command: c.id,
          title: c.title,
          category: COMMAND_CATEGORY,
          ...('icon' in c ? { icon: `$(${c.icon})` } : {}),
        })),
      ),
      'contributes.commands: ids, titles and icons as in src/agents/agentCommandTable.ts',
    );
    const menus = Object.entries(pkg.contributes.menus).flatMap(([menu, items]) =>
      items.filter(isAgent).map((i) => ({ menu, ...i })),
    );
    const expected = AGENT_COMMANDS.flatMap((c) => [
      ...('rowOnly' in c ? [{ menu: 'commandPalette', command: c.id, when: 'false' }] : []),
      ...c.menus.map((m) => ({
        menu: m.on === 'title' ? 'view/title' : 'view/item/context',
        command: c.id,
        when: menuWhen(m),
        group: m.group,
      })),
    ]);
    assert.deepEqual(
      sorted(menus),
      sorted(expected),
      'menus: the palette hides the row-only commands; the view offers each where the table says',
    );
  });
});
