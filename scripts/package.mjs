#!/usr/bin/env node
// `npm run package`: a production build (in a copy of the tree) and a .vsix made by @vscode/vsce (dependencies are
// bundled, so --no-dependencies). `--check` then lists the files inside the .vsix and checks that
// it holds only what runs (bundles, media, README, LICENSE, CHANGELOG, package.json), and every file
// package.json refers to. Closing line `N passed, N failed`; exit 1 on any failure.
//   --out FILE   where to write the .vsix (default <name>-<version>.vsix in the project root)
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
  /^extension\/dist\/(extension|core|lockfiles|webview|llhttp-wasm|cli|cli-search|cli-agent|cli-mcp|cli-doctor|cli-watch)\.js$/,
  /^extension\/dist\/codicon\.(css|ttf)$/,
  /^extension\/media\/[^/]+\.(css|svg|png)$/,
];
/** Named so that a failure says what leaked, not only that something did. */
const FORBIDDEN = [
  [/\.map$/, 'source map'], [/\.tsx?$/, 'TypeScript source'], [/(^|\/)node_modules\//, 'node_modules'],
  [/^extension\/(src|sandbox|test|bench|out|scripts)\//, 'sources or tests'], [/fixtures?\//, 'fixture'],
  [/\.vsix$/, 'a .vsix'], [/^extension\/(\.|tsconfig|eslint)/, 'tooling config'],
];

/** Names and sizes of the entries of a zip file, from its central directory. */
export function zipEntries(file) {
  const buf = readFileSync(file);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--) if (buf.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  if (eocd < 0) throw new Error(`${file} is not a zip file`);
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: bad central directory`);
    const method = buf.readUInt16LE(p + 10);
    const compressed = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28), extraLen = buf.readUInt16LE(p + 30), commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    entries.push({
      name, size,
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
  return r.stdout;
}

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
    sh(process.execPath, ['scripts/build.mjs', '--production', '--quiet'], 'production build', stage);
    const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
    sh(process.execPath, [vsce, 'package', '--no-dependencies', '--skip-license', '--out', out], 'vsce package', stage);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Every file package.json points at: main, the icon, contribution icons. */
function referencedFiles(manifest) {
  const refs = new Set();
  const add = (p) => { if (typeof p === 'string' && !/^\$\(/.test(p)) refs.add(p.replace(/^\.\//, '')); };
  add(manifest.main); add(manifest.icon);
  const c = manifest.contributes ?? {};
  for (const list of Object.values(c.viewsContainers ?? {})) for (const v of list) add(v.icon);
  for (const list of Object.values(c.views ?? {})) for (const v of list) add(v.icon);
  for (const cmd of c.commands ?? []) {
    if (typeof cmd.icon === 'string') add(cmd.icon);
    else if (cmd.icon) { add(cmd.icon.light); add(cmd.icon.dark); }
  }
  return [...refs];
}

const outArg = argv.includes('--out') ? resolve(argv[argv.indexOf('--out') + 1]) : undefined;
const scratch = check && !outArg ? mkdtempSync(join(tmpdir(), 'devindex-vsix-')) : undefined;
const out = outArg ?? (scratch ? join(scratch, `${pkg.name}-${pkg.version}.vsix`) : join(root, `${pkg.name}-${pkg.version}.vsix`));

const results = [];
const test = (name, fn) => {
  try { fn(); results.push({ name, ok: true }); console.log(`✔ ${name}`); } catch (e) {
    results.push({ name, ok: false }); console.log(`✖ ${name}\n  ${String(e.message).split('\n').join('\n  ')}`);
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
    const bad = entries.map((e) => e.name).filter((n) => !ALLOWED.some((r) => r.test(n)))
      .map((n) => `${n} (${FORBIDDEN.find(([r]) => r.test(n))?.[1] ?? 'not in the allowed list'})`);
    if (bad.length) throw new Error(`unexpected files in the .vsix (fix .vscodeignore):\n${bad.join('\n')}`);
  });
  test('holds the runtime files: package.json, dist/extension.js, dist/core.js, README, LICENSE, CHANGELOG', () => {
    const names = entries.map((e) => e.name);
    const need = [/^extension\/package\.json$/, /^extension\/dist\/extension\.js$/, /^extension\/dist\/core\.js$/,
      /^extension\/readme\.md$/i, /^extension\/LICENSE/i, /^extension\/changelog\.md$/i];
    const missing = need.filter((r) => !names.some((n) => r.test(n))).map(String);
    if (missing.length) throw new Error(`missing: ${missing.join(', ')}`);
  });
  test('holds every file a bundle loads at run time (undici\'s parser fallback and the lockfile worker beside dist/core.js)', () => {
    const names = new Set(entries.map((e) => e.name));
    const core = entries.find((e) => e.name === 'extension/dist/core.js')?.read().toString('utf8') ?? '';
    // require('./x.js') and the worker's file name (LOCKFILE_WORKER in src/deps/lockfileThread.ts): any "./x.js" literal.
    const loaded = [...new Set([...core.matchAll(/["']\.\/([\w.-]+\.js)["']/g)].map((m) => `extension/dist/${m[1]}`))];
    const missing = loaded.filter((f) => !names.has(f));
    if (!loaded.includes('extension/dist/llhttp-wasm.js')) throw new Error('dist/core.js no longer loads ./llhttp-wasm.js: update this check and .vscodeignore');
    if (!loaded.includes('extension/dist/lockfiles.js')) throw new Error('dist/core.js no longer starts the ./lockfiles.js worker: update this check and .vscodeignore');
    if (missing.length) throw new Error(`dist/core.js loads files that are not in the .vsix: ${missing.join(', ')}`);
  });
  test('holds every file its package.json refers to (main, icons)', () => {
    const manifest = JSON.parse(entries.find((e) => e.name === 'extension/package.json').read().toString('utf8'));
    const names = new Set(entries.map((e) => e.name));
    const missing = referencedFiles(manifest).filter((f) => !names.has(`extension/${f}`));
    if (missing.length) throw new Error(`package.json refers to files that are not in the .vsix: ${missing.join(', ')}`);
  });
  test('bundles carry no source map reference', () => {
    const withMaps = entries.filter((e) => /\.js$/.test(e.name) && /\/\/# sourceMappingURL=/.test(e.read().toString('utf8'))).map((e) => e.name);
    if (withMaps.length) throw new Error(`built without --production? ${withMaps.join(', ')}`);
  });
}

if (scratch) rmSync(scratch, { recursive: true, force: true });
const failed = results.filter((r) => !r.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
