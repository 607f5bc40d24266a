// `npm run bench`: runs every bench/*.bench.ts bundle in its own process, one after the other, so that
// one benchmark's heap and timers never colour another's figures.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = __dirname;
const pick = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.js') && (pick.length === 0 || pick.some((p) => f.includes(p))))
  .sort();
let failed = 0;
for (const f of files) {
  console.log(`\n### ${f.replace(/\.bench\.js$/, '')}`);
  const r = spawnSync(process.execPath, ['--expose-gc', join(dir, f)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
if (files.length === 0) console.log('no benchmarks found');
process.exit(failed ? 1 : 0);
