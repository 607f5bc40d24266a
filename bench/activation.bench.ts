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

const entryKb = kb('extension.js');
const rows = [
  ['activation entry bundle (dist/extension.js)', `${entryKb.toFixed(1)} KB`, 'target <= 150 KB', entryKb <= 150],
  ['require + activate (median of 15 processes)', `${median(activate.ms).toFixed(2)} ms`, 'target <= 15 ms', median(activate.ms) <= 15],
  ['baseline: require extension + full core', `${median(full.ms).toFixed(2)} ms`, `ratio activate/full ${(median(activate.ms) / median(full.ms)).toFixed(2)}`, true],
  ['core loaded during activation', String(activate.coreLoaded), 'target false', !activate.coreLoaded],
  ['first-search lazy load of dist/core.js', `${median(lazy.ms).toFixed(2)} ms (${kb('core.js').toFixed(0)} KB)`, 'target <= 150 ms', median(lazy.ms) <= 150],
] as const;
for (const [what, value, target, ok] of rows) console.log(`${ok ? 'ok  ' : 'MISS'} ${what}: ${value} (${target})`);
