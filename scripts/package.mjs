#!/usr/bin/env node
// `npm run package`: a production build (in a copy of the tree) and a .vsix made by @vscode/vsce (dependencies are
// bundled, so --no-dependencies). `--check` then lists the files inside the .vsix and checks that
// it holds only what runs (bundles, media, README, LICENSE, CHANGELOG, package.json), and every file
// package.json refers to. Closing line `N passed, N failed`; exit 1 on any failure.
//   --out FILE   where to write the .vsix (default <name>-<version>.vsix in the project root)
//   --test-surface  keep the test surface in the build (the e2e tier only: its DEVINDEX_TEST_TIMING; never to ship)
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const check = argv.includes('--check');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** What may be inside the .vsix: vsce's own manifest files, then the extension's runtime files. */
const ALLOWED = [
  /^extension\.vsixmanifest$/,
  /^\[Content_Types\]\.xml$/,
  /^extension\/package\.json$/,
  /^extension\/(readme|README)\.md$/,
  /^extension\/(changelog|CHANGELOG)\.md$/,
  /^extension\/LICENSE(\.txt|\.md)?$/i,
  /^extension\/dist\/(extension|core|features|lockfiles|webview|llhttp-wasm|cli|cli-search|cli-agent|cli-mcp|cli-doctor|cli-watch|cli-fixes|cli-setup)\.js$/,
  /^extension\/dist\/codicon\.(css|ttf)$/,
  /^extension\/dist\/web\/extension\.js$/,
  /^extension\/media\/[^/]+\.(css|svg|png)$/,
  /^extension\/media\/walkthrough\/[^/]+\.(svg|md)$/,
  /^extension\/docs\/images\/[^/]+\.png$/,
  // The reference pages the README links to (the installed extension page resolves relative links inside the .vsix).
  /^extension\/docs\/[^/]+\.md$/,
];
/** Named so that a failure says what leaked, not only that something did. */
const FORBIDDEN = [
  [/\.map$/, 'source map'],
  [/\.tsx?$/, 'TypeScript source'],
  [/(^|\/)node_modules\//, 'node_modules'],
  [/^extension\/(src|sandbox|test|bench|out|scripts)\//, 'sources or tests'],
  [/fixtures?\//, 'fixture'],
  [/\.vsix$/, 'a .vsix'],
  [/^extension\/(\.|tsconfig|eslint)/, 'tooling config'],
];

/** Names and sizes of the entries of a zip file, from its central directory. */
export function zipEntries(file) {
  const buf = readFileSync(file);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--)
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  if (eocd < 0) throw new Error(`${file} is not a zip file`);
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: bad central directory`);
    const method = buf.readUInt16LE(p + 10);
    const compressed = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28),
      extraLen = buf.readUInt16LE(p + 30),
      commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    entries.push({
      name,
      size,
      read() {
        const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
        const data = buf.subarray(start, start + compressed);
        return method === 0 ? data : inflateRawSync(data);
      },
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

function sh(cmd, args, what, cwd = root) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
  return `${r.stdout}${r.stderr}`;
}

/** What vsce printed as a warning (`WARNING` lines) during the last packaging: a user-facing flaw. */
let vsceWarnings = [];

/**
 * Packages from a copy of the working tree: others' builds and tests rewrite dist/ at any moment,
 * and the development bundles there (with source maps) must stay as they are for F5 and the tests.
 */
function packageVsix(out) {
  const stage = mkdtempSync(join(tmpdir(), 'devindex-package-'));
  try {
    const skip = new Set(['node_modules', '.git', 'out', 'dist', 'test-results', '.vscode-test']);
    for (const name of readdirSync(root)) {
      if (skip.has(name) || name.endsWith('.vsix')) continue;
      cpSync(join(root, name), join(stage, name), { recursive: true });
    }
    symlinkSync(join(root, 'node_modules'), join(stage, 'node_modules'), 'dir');
    sh(
      process.execPath,
      ['scripts/build.mjs', '--production', '--quiet', ...(argv.includes('--test-surface') ? ['--test-surface'] : [])],
      'production build',
      stage,
    );
    const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
    // No repository is published yet (no placeholder URL ships), so vsce is told a missing
    // repository is deliberate, and the README's screenshot stays a relative link to the copy inside the
    // .vsix (docs/images/), which VS Code's extension page resolves; vsce would otherwise rewrite it to
    // a repository URL it cannot know and refuse to package.
    const printed = sh(
      process.execPath,
      [
        vsce,
        'package',
        '--no-dependencies',
        '--skip-license',
        '--allow-missing-repository',
        '--no-rewrite-relative-links',
        '--out',
        out,
      ],
      'vsce package',
      stage,
    );
    vsceWarnings = printed.split('\n').filter((l) => /WARNING/i.test(l));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Every file package.json points at: main, the icon, contribution icons. */
function referencedFiles(manifest) {
  const refs = new Set();
  const add = (p) => {
    if (typeof p === 'string' && !/^\$\(/.test(p)) refs.add(p.replace(/^\.\//, ''));
  };
  add(manifest.main);
  add(manifest.browser);
  add(manifest.icon);
  const c = manifest.contributes ?? {};
  for (const w of c.walkthroughs ?? []) {
    for (const step of w.steps ?? []) {
      const m = step.media ?? {};
      for (const p of [
        m.svg,
        m.markdown,
        typeof m.image === 'string' ? m.image : m.image?.light,
        m.image?.dark,
        m.image?.hc,
      ])
        add(p);
    }
  }
  for (const list of Object.values(c.viewsContainers ?? {})) for (const v of list) add(v.icon);
  for (const list of Object.values(c.views ?? {})) for (const v of list) add(v.icon);
  for (const cmd of c.commands ?? []) {
    if (typeof cmd.icon === 'string') add(cmd.icon);
    else if (cmd.icon) {
      add(cmd.icon.light);
      add(cmd.icon.dark);
    }
  }
  return [...refs];
}

const outArg = argv.includes('--out') ? resolve(argv[argv.indexOf('--out') + 1]) : undefined;
const scratch = check && !outArg ? mkdtempSync(join(tmpdir(), 'devindex-vsix-')) : undefined;
const out =
  outArg ??
  (scratch ? join(scratch, `${pkg.name}-${pkg.version}.vsix`) : join(root, `${pkg.name}-${pkg.version}.vsix`));

const results = [];
const test = (name, fn) => {
  try {
    fn();
    results.push({ name, ok: true });
    console.log(`✔ ${name}`);
  } catch (e) {
    results.push({ name, ok: false });
    console.log(`✖ ${name}\n  ${String(e.message).split('\n').join('\n  ')}`);
  }
};

let entries = [];
test('builds a .vsix with vsce', () => {
  packageVsix(out);
  entries = zipEntries(out);
  const bytes = statSync(out).size;
  console.log(`  ${out}: ${(bytes / 1024).toFixed(1)} KiB, ${entries.length} files`);
  for (const e of entries) console.log(`    ${e.name.padEnd(44)} ${(e.size / 1024).toFixed(1).padStart(8)} KiB`);
});

if (check && entries.length) {
  test('holds nothing but bundles, media, README, LICENSE, CHANGELOG and package.json', () => {
    const bad = entries
      .map((e) => e.name)
      .filter((n) => !ALLOWED.some((r) => r.test(n)))
      .map((n) => `${n} (${FORBIDDEN.find(([r]) => r.test(n))?.[1] ?? 'not in the allowed list'})`);
    if (bad.length) throw new Error(`unexpected files in the .vsix (fix .vscodeignore):\n${bad.join('\n')}`);
  });
  test('holds the runtime files: package.json, dist/extension.js, dist/core.js, dist/features.js, README, LICENSE, CHANGELOG', () => {
    const names = entries.map((e) => e.name);
    const need = [
      /^extension\/package\.json$/,
      /^extension\/dist\/extension\.js$/,
      /^extension\/dist\/core\.js$/,
      /^extension\/dist\/features\.js$/,
      /^extension\/readme\.md$/i,
      /^extension\/LICENSE/i,
      /^extension\/changelog\.md$/i,
    ];
    const missing = need.filter((r) => !names.some((n) => r.test(n))).map(String);
    if (missing.length) throw new Error(`missing: ${missing.join(', ')}`);
  });
  test("holds every file a bundle loads at run time (core.js and features.js from extension.js; undici's parser fallback and the lockfile worker beside dist/core.js)", () => {
    const names = new Set(entries.map((e) => e.name));
    const text = (f) =>
      entries
        .find((e) => e.name === `extension/dist/${f}`)
        ?.read()
        .toString('utf8') ?? '';
    // require('./x.js') and the worker's file name (LOCKFILE_WORKER in src/deps/lockfileThread.ts): any "./x.js" literal.
    const loads = (f) => [
      ...new Set([...text(f).matchAll(/["']\.\/([\w.-]+\.js)["']/g)].map((m) => `extension/dist/${m[1]}`)),
    ];
    const [entry, core, features] = [loads('extension.js'), loads('core.js'), loads('features.js')];
    for (const f of ['core.js', 'features.js'])
      if (!entry.includes(`extension/dist/${f}`))
        throw new Error(`dist/extension.js no longer loads ./${f}: update this check and .vscodeignore`);
    if (!features.includes('extension/dist/core.js'))
      throw new Error('dist/features.js no longer takes its shared modules from ./core.js: update this check');
    if (!core.includes('extension/dist/llhttp-wasm.js'))
      throw new Error('dist/core.js no longer loads ./llhttp-wasm.js: update this check and .vscodeignore');
    if (!core.includes('extension/dist/lockfiles.js'))
      throw new Error('dist/core.js no longer starts the ./lockfiles.js worker: update this check and .vscodeignore');
    const missing = [...new Set([...entry, ...core, ...features])].filter((f) => !names.has(f));
    if (missing.length) throw new Error(`the bundles load files that are not in the .vsix: ${missing.join(', ')}`);
  });
  test('holds every file its package.json refers to (main, icons)', () => {
    const manifest = JSON.parse(
      entries
        .find((e) => e.name === 'extension/package.json')
        .read()
        .toString('utf8'),
    );
    const names = new Set(entries.map((e) => e.name));
    const missing = referencedFiles(manifest).filter((f) => !names.has(`extension/${f}`));
    if (missing.length)
      throw new Error(`package.json refers to files that are not in the .vsix: ${missing.join(', ')}`);
  });
  test('vsce printed no warning a user would see', () => {
    if (vsceWarnings.length) throw new Error(vsceWarnings.join('\n'));
  });
  test('marketplace metadata: a 128×128 PNG icon at the path package.json names, AI and Chat categories, a gallery banner', () => {
    const manifest = JSON.parse(
      entries
        .find((e) => e.name === 'extension/package.json')
        .read()
        .toString('utf8'),
    );
    if (typeof manifest.icon !== 'string' || !manifest.icon.endsWith('.png'))
      throw new Error(`icon is ${JSON.stringify(manifest.icon)}, not a PNG`);
    const icon = entries.find((e) => e.name === `extension/${manifest.icon.replace(/^\.\//, '')}`);
    if (!icon) throw new Error(`the .vsix has no ${manifest.icon}`);
    const png = icon.read();
    if (png.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a')
      throw new Error(`${manifest.icon} is not a PNG file`);
    const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
    if (w !== 128 || h !== 128) throw new Error(`${manifest.icon} is ${w}×${h}, not 128×128`);
    for (const c of ['AI', 'Chat'])
      if (!manifest.categories?.includes(c))
        throw new Error(`categories ${JSON.stringify(manifest.categories)} lack ${c}`);
    if (manifest.categories.includes('Other')) throw new Error('category Other beside real ones');
    if (
      !/^#[0-9a-f]{6}$/i.test(manifest.galleryBanner?.color ?? '') ||
      !['dark', 'light'].includes(manifest.galleryBanner?.theme)
    ) {
      throw new Error(`galleryBanner is ${JSON.stringify(manifest.galleryBanner)}`);
    }
    const vsixManifest = entries
      .find((e) => e.name === 'extension.vsixmanifest')
      .read()
      .toString('utf8');
    if (!vsixManifest.includes('Microsoft.VisualStudio.Services.Branding.Color'))
      throw new Error('the gallery banner did not reach extension.vsixmanifest');
    if (!/<Categories>AI,Chat/.test(vsixManifest))
      throw new Error('the categories did not reach extension.vsixmanifest');
  });
  test('no placeholder URL ships: no example.invalid (no .invalid host at all) in package.json, README, CHANGELOG or the vsix manifest', () => {
    const texts = entries.filter((e) =>
      /^(extension\/(package\.json|readme\.md|changelog\.md)|extension\.vsixmanifest)$/i.test(e.name),
    );
    if (texts.length < 4)
      throw new Error(
        `expected package.json, README, CHANGELOG and the vsix manifest, found ${texts.map((e) => e.name).join(', ')}`,
      );
    const bad = texts.flatMap((e) =>
      [
        ...e
          .read()
          .toString('utf8')
          .matchAll(/[\w.-]*\.invalid\b[^\s"'<>)`]*/gi),
      ].map((m) => `${e.name}: ${m[0]}`),
    );
    if (bad.length) throw new Error(bad.join('\n'));
    const manifest = JSON.parse(
      entries
        .find((e) => e.name === 'extension/package.json')
        .read()
        .toString('utf8'),
    );
    for (const k of ['repository', 'bugs', 'homepage']) {
      const v = manifest[k];
      const url = typeof v === 'string' ? v : v?.url;
      if (v !== undefined && !/^https:\/\/github\.com\//.test(url ?? ''))
        throw new Error(`${k} is ${JSON.stringify(v)}: leave it out until it is true`);
    }
  });
  test("the README's images are inside the .vsix (relative links resolve on the extension page)", () => {
    const readme = entries
      .find((e) => /^extension\/readme\.md$/i.test(e.name))
      .read()
      .toString('utf8');
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)|<img[^>]+src="([^"]+)"/g)].map((m) => m[1] ?? m[2]);
    const names = new Set(entries.map((e) => e.name));
    const missing = images.filter(
      (src) => !/^[a-z]+:/i.test(src) && !names.has(`extension/${src.replace(/^\.\//, '')}`),
    );
    if (missing.length) throw new Error(`README images not in the .vsix: ${missing.join(', ')}`);
  });
  test('bundles carry no source map reference', () => {
    const withMaps = entries
      .filter((e) => /\.js$/.test(e.name) && /\/\/# sourceMappingURL=/.test(e.read().toString('utf8')))
      .map((e) => e.name);
    if (withMaps.length) throw new Error(`built without --production? ${withMaps.join(', ')}`);
  });
}

if (scratch) rmSync(scratch, { recursive: true, force: true });
const failed = results.filter((r) => !r.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
