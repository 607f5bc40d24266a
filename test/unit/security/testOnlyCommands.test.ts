// Issue 32 §6: the commands the host tests call to look inside the extension (what the Search view shows,
// the chat handler with a fake model, a tool without its confirmation) are registered only in a development
// build under the host tests. The packaged extension (scripts/build.mjs --production) and the web bundle
// drop their code: another extension cannot call them. Built here in memory with the production define, so
// the dist/ the other tiers use is left alone.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { AGENT_COMMANDS, COMMAND_CATEGORY, menuWhen } from '../../../src/agents/agentCommandTable';

const root = join(__dirname, '..', '..', '..', '..');

/** Registered for the host tests only: absent from every production bundle, present in the development build. */
const TEST_ONLY = [
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
  if (!surface) {
    // The web bundle exactly as scripts/build.mjs makes it (its define is always false).
    const spec = pathToFileURL(join(root, 'scripts', 'webBuild.mjs')).href;
    const { webBundle } = await (
      new Function('s', 'return import(s)') as (
        s: string,
      ) => Promise<{ webBundle(root: string, production: boolean): BuildOptions }>
    )(spec);
    const r = await build({ ...webBundle(root, true), write: false, metafile: false, logLevel: 'silent' });
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
  it('the production bundles (extension, core, features, web) name none of them', async () => {
    const prod = await bundles(false);
    for (const [entry, text] of Object.entries(prod)) {
      for (const id of TEST_ONLY) assert.ok(!text.includes(id), `${id} is in the production build of ${entry}`);
      assert.ok(!text.includes('DEVINDEX_TEST_KEY'), `${entry} reads DEVINDEX_TEST_KEY in production`);
    }
  });

  it('the development build the host tests run registers each of them', async () => {
    const all = Object.values(await bundles(true)).join('\n');
    for (const id of TEST_ONLY)
      assert.ok(all.includes(`"${id}"`), `${id} is missing from the development build (stale list?)`);
  });

  it('scripts/build.mjs turns the test surface off for --production, the web bundle too', () => {
    // Only --test-surface (the e2e tier's package, never shipped) keeps it in a production build; the web bundle
    // has it in development builds only (the browser tier's worker), never under --production.
    assert.match(
      readFileSync(join(root, 'scripts', 'build.mjs'), 'utf8'),
      /__DEVINDEX_TEST_SURFACE__: production && !testSurface \? 'false' : 'true'/,
    );
    assert.match(
      readFileSync(join(root, 'scripts', 'webBuild.mjs'), 'utf8'),
      /__DEVINDEX_TEST_SURFACE__: production \? 'false' : 'true'/,
    );
  });

  it("the development web bundle has the watch handles the browser tier calls, behind the worker's test-mode global", async () => {
    const spec = pathToFileURL(join(root, 'scripts', 'webBuild.mjs')).href;
    const { webBundle } = await (
      new Function('s', 'return import(s)') as (
        s: string,
      ) => Promise<{ webBundle(root: string, production: boolean): BuildOptions }>
    )(spec);
    const text = (
      await build({ ...webBundle(root, false), write: false, metafile: false, logLevel: 'silent', sourcemap: false })
    ).outputFiles![0]!.text;
    for (const id of TEST_ONLY.filter((i) => i.startsWith('devIndex.watch.')))
      assert.ok(text.includes(`"${id}"`), `${id} is missing from the development web bundle`);
    assert.ok(text.includes('__devindexTestMode'), 'the web bundle reads the worker global that turns test mode on');
  });

  it('every command src/ registers is contributed in package.json, test-only, or a listed internal one', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      contributes: { commands: Array<{ command: string }> };
    };
    const contributed = new Set(pkg.contributes.commands.map((c) => c.command));
    const ids = registeredIds();
    assert.ok(ids.has('devIndex.search.shownScope') && ids.has('devIndex.search.run'), 'the scan finds registrations');
    const unexplained = [...ids].filter((id) => !contributed.has(id) && !TEST_ONLY.includes(id) && !(id in INTERNAL));
    assert.deepEqual(
      unexplained,
      [],
      'a command not in package.json: gate it behind the test surface (TEST_ONLY) or say why it ships (INTERNAL)',
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
