// The web extension's bundle (dist/web/extension.js, production build) and its activation in a
// real chromium Web Worker (fake vscode module; test/browser/webWorkerPage.ts), next to the baseline of
// the same harness activating an extension that does nothing, in the same run.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, repoRoot } from '../test/browser/harness';
import { startWorkerPage } from '../test/browser/webWorkerPage';
import { stats } from './timing';

const RUNS = 9;

async function main(): Promise<void> {
  const root = repoRoot();
  const bundleKb = statSync(join(root, 'dist', 'web', 'extension.js')).size / 1024;
  const host = await startWorkerPage();
  const browser = await launchBrowser();
  const sample = async (extUrl: string): Promise<{ load: number[]; activate: number[] }> => {
    const load: number[] = [];
    const activate: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const page = await browser.context.newPage();
      await page.goto(`${host.origin}/`);
      const r = await page.evaluate(
        (u) =>
          (window as unknown as { rpc(o: string, p: unknown): Promise<{ loadMs: number; activateMs: number }> }).rpc(
            'init',
            {
              settings: { 'devIndex.baseUrl': 'http://127.0.0.1:9' },
              secrets: {},
              folders: ['vscode-vfs://github/fetchline/fetchline'],
              files: {},
              packageJson: {},
              extUrl: u,
            },
          ),
        extUrl,
      );
      load.push(r.loadMs);
      activate.push(r.activateMs);
      await page.close();
    }
    return { load, activate };
  };
  try {
    const web = await sample('/ext.js');
    const base = await sample('/baseline.js');
    const m = (a: number[]) => stats(a).median;
    const total = m(web.load) + m(web.activate);
    const rows = [
      [
        'web bundle (dist/web/extension.js, production)',
        `${bundleKb.toFixed(1)} KB`,
        'budget 960 KB (scripts/build.mjs)',
        bundleKb <= 960,
      ],
      [
        `evaluate the bundle in a Web Worker (median of ${RUNS} workers)`,
        `${m(web.load).toFixed(2)} ms`,
        'target <= 100 ms',
        m(web.load) <= 100,
      ],
      ['activate() in the worker', `${m(web.activate).toFixed(2)} ms`, 'target <= 30 ms', m(web.activate) <= 30],
      [
        'baseline: an empty extension, same harness (evaluate + activate)',
        `${(m(base.load) + m(base.activate)).toFixed(2)} ms`,
        `web extension total ${total.toFixed(2)} ms`,
        true,
      ],
    ] as const;
    for (const [what, value, target, ok] of rows) console.log(`${ok ? 'ok  ' : 'MISS'} ${what}: ${value} (${target})`);
  } finally {
    await browser.close();
    await host.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
