// Activation cost: require + activate of dist/extension.js, next to requiring the full bundle (extension + core)
// in the same run, and the one-time lazy load of dist/core.js that the first search pays.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const probe = join(__dirname, 'activationProbe.js');
const RUNS = 15;

function sample(mode: string): { ms: number[]; coreLoaded: boolean } {
  const ms: number[] = [];
  let coreLoaded = false;
  for (let i = 0; i < RUNS; i++) {
    const r = spawnSync(process.execPath, [probe, mode, root], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`probe ${mode} failed: ${r.stderr}`);
    const o = JSON.parse(r.stdout.trim().split('\n').pop()!) as { ms: number; coreLoaded: boolean };
    ms.push(o.ms);
    coreLoaded ||= o.coreLoaded;
  }
  return { ms: ms.sort((a, b) => a - b), coreLoaded };
}
const median = (a: number[]) => a[Math.floor(a.length / 2)]!;
const kb = (f: string) => statSync(join(root, 'dist', f)).size / 1024;

const activate = sample('activate');
const full = sample('full');
const lazy = sample('core');
const undici = sample('undici');

// The goals, each against its baseline measured in this run.
const entryKb = kb('extension.js');
const coreKb = kb('core.js');
const [act, lz, und] = [median(activate.ms), median(lazy.ms), median(undici.ms)];
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT MET');
const rows = [
  ['activation entry bundle (dist/extension.js)', `${entryKb.toFixed(1)} KB`, 'goal <= 60 KB', entryKb <= 60],
  [
    'require + activate (median of 15 processes)',
    `${act.toFixed(2)} ms`,
    `goal <= 6 ms; baseline require extension + full core ${median(full.ms).toFixed(2)} ms, ratio ${(act / median(full.ms)).toFixed(2)}`,
    act <= 6,
  ],
  ['core loaded during activation', String(activate.coreLoaded), 'goal false', !activate.coreLoaded],
  ['lazily loaded core bundle (dist/core.js)', `${coreKb.toFixed(1)} KB`, 'goal <= 450 KB', coreKb <= 450],
  [
    'first-search lazy load of dist/core.js',
    `${lz.toFixed(2)} ms`,
    `goal <= 35 ms and <= 0.5x requiring undici alone (${und.toFixed(2)} ms, same run): ${(lz / und).toFixed(2)}x`,
    lz <= 35 && lz <= 0.5 * und,
  ],
] as const;
for (const [what, value, goal, ok] of rows)
  console.log(`${ok ? 'ok  ' : 'MISS'} ${what}: ${value} (${goal}: ${verdict(ok)})`);
