// Issue 20's bundle diet: what zod costs in its classic form (dist/core.js today) and in zod/mini for the same schema
// features (bench/fixtures/zod/), built as the production bundles are; and that the lockfile parsers stay out of
// dist/core.js (they are in dist/lockfiles.js, the editor's lockfile worker).
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.join(__dirname, '..', '..');
const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;

async function zodBytes(entry: string): Promise<{ zod: number; messages: string }> {
  const r = await esbuild.build({ entryPoints: [path.join(root, 'bench', 'fixtures', 'zod', entry)], bundle: true, platform: 'node', format: 'cjs', target: 'node20', minify: true, write: false, metafile: true, logLevel: 'silent', absWorkingDir: root });
  const out = Object.values(r.metafile!.outputs)[0]!;
  const zod = Object.entries(out.inputs).filter(([f]) => f.includes('node_modules/zod/')).reduce((a, [, v]) => a + v.bytesInOutput, 0);
  const mod = { exports: {} as { check?: (v: unknown) => unknown[] } };
  new Function('module', 'exports', 'require', r.outputFiles![0]!.text)(mod, mod.exports, require);
  const issues = mod.exports.check!({ s: 1 })[0] as Array<{ message: string }>;
  return { zod, messages: issues[0]!.message };
}

async function main(): Promise<void> {
  const classic = await zodBytes('classic.ts');
  const mini = await zodBytes('mini.ts');
  const core = fs.statSync(path.join(root, 'dist', 'core.js')).size;
  const projected = core - classic.zod + mini.zod;
  console.log(`zod, every feature our schemas use: classic ${kb(classic.zod)}, zod/mini with English messages ${kb(mini.zod)} (${(mini.zod / classic.zod).toFixed(2)}x); same first message: ${classic.messages === mini.messages ? 'yes' : `NO (${classic.messages} / ${mini.messages})`}`);
  console.log(`${projected <= 450 * 1024 ? 'ok  ' : 'MISS'} dist/core.js ${kb(core)} now; with zod/mini about ${kb(projected)} (goal <= 450 KB: ${projected <= 450 * 1024 ? 'met' : 'NOT MET'} even then: undici and our code; docs/ARCHITECTURE.md)`);
  const coreText = fs.readFileSync(path.join(root, 'dist', 'core.js'), 'utf8');
  const parsers = ['smol-toml', 'parseSyml', 'js-yaml'].filter((m) => coreText.includes(m));
  const worker = path.join(root, 'dist', 'lockfiles.js');
  console.log(`${parsers.length === 0 && fs.existsSync(worker) ? 'ok  ' : 'MISS'} lockfile parsers in dist/core.js: ${parsers.length ? parsers.join(', ') : 'none'}; dist/lockfiles.js ${fs.existsSync(worker) ? kb(fs.statSync(worker).size) : 'MISSING'} (goal: parsers only in the worker: ${parsers.length === 0 && fs.existsSync(worker) ? 'met' : 'NOT MET'})`);
}

void main().catch((e: unknown) => { console.error(e); process.exit(1); });
