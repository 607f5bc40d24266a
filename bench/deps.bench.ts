// What the code action and hover providers do per call with 1,000 dependencies (cache cold and
// warm), next to the cold resolution they must never wait for (the baseline, measured in the same run);
// and what the feature adds to the activation bundle (dist/extension.js must not hold the resolver).
import { spawnSync } from 'node:child_process';
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DependencyCache } from '../src/deps/cache';
import { importAt } from '../src/deps/importAt';
import { packagesOfProblem, type ProblemFacts } from '../src/deps/packageRefs';
import { resolveFolder } from '../src/deps/resolver';

const root = path.join(__dirname, '..', '..');
const N = 1000;

function makeFixture(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'devindex-deps-bench-'));
  const deps: Record<string, string> = {};
  const forms = (i: number): object => {
    switch (i % 6) {
      case 0:
        return { repository: { type: 'git', url: `git+https://github.com/owner${i}/pkg-${i}.git` } };
      case 1:
        return { repository: `github:owner${i}/pkg-${i}` };
      case 2:
        return { repository: `owner${i}/pkg-${i}` };
      case 3:
        return {
          repository: `git+ssh://git@github.com/owner${i}/pkg-${i}.git`,
          homepage: `https://github.com/owner${i}/pkg-${i}#readme`,
        };
      case 4:
        return { homepage: `https://github.com/owner${i}/pkg-${i}#readme` };
      default:
        return { repository: `gitlab:owner${i}/pkg-${i}` };
    }
  };
  for (let i = 0; i < N; i++) {
    const name = i % 10 === 0 ? `@scope${i}/pkg-${i}` : `pkg-${i}`;
    deps[name] = '^1.0.0';
    const d = path.join(dir, 'node_modules', ...name.split('/'));
    fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(path.join(d, 'package.json'), JSON.stringify({ name, version: '1.0.0', ...forms(i) }));
  }
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'bench', dependencies: deps }));
  return dir;
}

const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
const p99 = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length * 0.99)]!;
const now = () => performance.now();

async function main(): Promise<void> {
  const dir = makeFixture();
  try {
    // Baseline: one cold resolution of the 1,000 dependencies (what a provider would wait for if it read the disk).
    const cold: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = now();
      await resolveFolder(dir, { maxDependencies: 20_000, cargoHome: path.join(dir, 'none') });
      cold.push(now() - t);
    }
    const resolved = await resolveFolder(dir, { maxDependencies: 20_000, cargoHome: path.join(dir, 'none') });
    const withSlug = resolved.deps.filter((d) => d.slug).length;

    // What the code action provider does per diagnostic, and the hover per position (src/deps/editor.ts scopeOf / hover).
    const facts = (i: number): ProblemFacts => ({
      languageId: 'typescript',
      message: `Could not find a declaration file for module 'pkg-${i}'. '${dir}/node_modules/pkg-${i}/index.js' implicitly has an 'any' type.`,
      rangeText: `'pkg-${i}'`,
      lineText: `import { x } from 'pkg-${i}';`,
    });
    const codeAction = (cache: DependencyCache, i: number) =>
      cache.peek(dir)?.firstResolved(packagesOfProblem(facts(i)));
    const hover = (cache: DependencyCache, i: number) => {
      const index = cache.peek(dir);
      const line = `import { x } from 'pkg-${i}';`;
      const hit = importAt(line, 21, 'typescript');
      return index && hit ? index.lookup(hit.ref) : undefined;
    };

    // Cold: a fresh cache per call; the provider answers without a scope and starts the resolution in the background.
    const coldAction: number[] = [];
    const coldHover: number[] = [];
    for (let i = 0; i < 50; i++) {
      const c1 = new DependencyCache(() => ({ maxDependencies: 20_000 }));
      let t = now();
      const r1 = codeAction(c1, i);
      coldAction.push(now() - t);
      if (r1 !== undefined) throw new Error('a cold cache answered with a scope');
      const c2 = new DependencyCache(() => ({ maxDependencies: 20_000 }));
      t = now();
      hover(c2, i);
      coldHover.push(now() - t);
      await Promise.all([c1.get(dir), c2.get(dir)]); // let the background resolutions finish before the next sample
    }

    // Warm: one cache, resolved.
    const warm = new DependencyCache(() => ({ maxDependencies: 20_000 }));
    await warm.get(dir);
    const warmAction: number[] = [];
    const warmHover: number[] = [];
    let scoped = 0;
    for (let i = 0; i < 2000; i++) {
      const k = (i * 7) % N;
      let t = now();
      if (codeAction(warm, k)?.slug) scoped++;
      warmAction.push(now() - t);
      t = now();
      hover(warm, k);
      warmHover.push(now() - t);
    }

    const base = median(cold);
    // "A few milliseconds": the median within 1 ms and the slowest percent within 10 ms, on a shared 2-core machine.
    const row = (label: string, xs: number[], target: number) => {
      const m = median(xs);
      console.log(
        `${p99(xs) <= target && m <= 1 ? 'ok  ' : 'MISS'} ${label}: median ${m.toFixed(3)} ms, p99 ${p99(xs).toFixed(3)} ms (target median <= 1 ms, p99 <= ${target} ms; ${(base / m).toFixed(0)}x faster than the cold resolution)`,
      );
    };
    console.log(`fixture: ${N} npm dependencies, ${withSlug} with a GitHub slug, ${N - withSlug} not on GitHub`);
    console.log(`baseline: cold resolution of ${N} dependencies (disk): median ${base.toFixed(1)} ms of 5`);
    row('code action, cache cold (answers at once, resolution started)', coldAction, 10);
    row('hover, cache cold', coldHover, 10);
    row(`code action, cache warm (${scoped} of 2000 scoped)`, warmAction, 10);
    row('hover, cache warm', warmHover, 10);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  // The activation bundle: what src/deps adds to dist/extension.js, built as scripts/build.mjs builds it
  // (production), with and without the registration (replaced by a no-op), in the same run.
  // As scripts/build.mjs: src/extension.ts's require('./core.js') (and features.js) stays a runtime require.
  const coreExternal: esbuild.Plugin = {
    name: 'core-external',
    setup(b) {
      b.onResolve({ filter: /^\.\/(core|features)\.js$/ }, (a) => ({ path: a.path, external: true }));
    },
  };
  const noDeps: esbuild.Plugin = {
    name: 'no-deps',
    setup(b) {
      b.onResolve({ filter: /\/deps\/register$/ }, () => ({ path: 'deps-register-stub', namespace: 'stub' }));
      b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
        contents: 'export function registerDependencySearch() { return { loaded() { return undefined; } }; }',
        loader: 'ts',
      }));
    },
  };
  const opts = (plugins: esbuild.Plugin[]): esbuild.BuildOptions => ({
    entryPoints: [path.join(root, 'src', 'extension.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    define: { __DEVINDEX_TEST_SURFACE__: 'false' },
    external: ['vscode', './cli-setup.js'],
    write: false,
    metafile: true,
    absWorkingDir: root,
    plugins,
    logLevel: 'silent',
  });
  const withDeps = await esbuild.build(opts([coreExternal]));
  const without = await esbuild.build(opts([coreExternal, noDeps]));
  const bytes = (r: esbuild.BuildResult) => r.outputFiles![0]!.contents.length;
  const inputs = Object.entries(Object.values(withDeps.metafile!.outputs)[0]!.inputs).filter(([f]) =>
    f.startsWith('src/deps/'),
  );
  // The registration and the commands' ids (a table of strings) are the activation's; nothing of the resolver is.
  const resolverInEntry = inputs.filter(([f]) => !f.endsWith('register.ts') && !f.endsWith('commandIds.ts'));
  console.log(
    `${resolverInEntry.length === 0 ? 'ok  ' : 'MISS'} resolver modules in dist/extension.js: ${resolverInEntry.length ? resolverInEntry.map(([f]) => f).join(', ') : 'none'} (only src/deps/register.ts and its ids: ${inputs.map(([f, v]) => `${f} ${v.bytesInOutput} B`).join(', ')})`,
  );
  const growth = bytes(withDeps) - bytes(without);
  console.log(
    `${growth <= 4096 ? 'ok  ' : 'MISS'} activation bundle: ${(bytes(withDeps) / 1024).toFixed(1)} KB with the registration, ${(bytes(without) / 1024).toFixed(1)} KB without (baseline): +${growth} B (target <= 4096 B; ratio ${(bytes(withDeps) / bytes(without)).toFixed(3)})`,
  );
  // require + activate of both bundles, alternating, one fresh process per sample (bench/activationProbe.ts).
  const probe = path.join(__dirname, 'activationProbe.js');
  const roots = [withDeps, without].map((r) => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'devindex-deps-activation-'));
    fs.mkdirSync(path.join(d, 'dist'));
    fs.writeFileSync(path.join(d, 'dist', 'extension.js'), r.outputFiles![0]!.contents);
    return d;
  });
  const times: number[][] = [[], []];
  for (let i = 0; i < 15; i++) {
    for (const k of [0, 1]) {
      const r = spawnSync(process.execPath, [probe, 'activate', roots[k]!], { encoding: 'utf8', timeout: 30_000 });
      if (r.status !== 0) throw new Error(`activation probe failed: ${r.stderr}`);
      times[k]!.push((JSON.parse(r.stdout.trim().split('\n').pop()!) as { ms: number }).ms);
    }
  }
  for (const d of roots) fs.rmSync(d, { recursive: true, force: true });
  const [mWith, mWithout] = [median(times[0]!), median(times[1]!)];
  console.log(
    `${mWith <= mWithout * 1.15 + 0.5 ? 'ok  ' : 'MISS'} require + activate: ${mWith.toFixed(2)} ms with the registration, ${mWithout.toFixed(2)} ms without (baseline, same run, 15 processes each): ratio ${(mWith / mWithout).toFixed(2)} (target within 15% + 0.5 ms)`,
  );
  const coreJs = path.join(root, 'dist', 'core.js');
  if (fs.existsSync(coreJs))
    console.log(
      `     the resolver lives in dist/core.js (${(fs.statSync(coreJs).size / 1024).toFixed(0)} KB; the watches and the version badges) and dist/features.js (the dependency search), loaded on first use`,
    );
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
