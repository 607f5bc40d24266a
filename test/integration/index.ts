// Mocha runner for the extension-host suite. VS Code loads this file in the extension host
// (code-server's via `npm run test:host`, or desktop VS Code via `npm run test:electron`) and awaits
// `run()`. Every `*.test.js` beside it is a suite. Closing line: `N passed, N failed`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';

/**
 * Under code-server the extension host's console reaches the runner mixed with the workbench's own
 * log; the runner sets DEVINDEX_LOG_TAG so that the suite's lines can be told apart.
 */
function log(...args: unknown[]): void {
  console.log(`${process.env.DEVINDEX_LOG_TAG ?? ''}${format(...args)}`);
}

export function run(): Promise<void> {
  (Mocha.reporters.Base as unknown as { consoleLog: (...a: unknown[]) => void }).consoleLog = log;
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    reporter: 'spec',
    timeout: 30_000,
    ...(process.env.DEVINDEX_TEST_GREP ? { grep: process.env.DEVINDEX_TEST_GREP } : {}),
  });
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort();
  for (const f of files) mocha.addFile(path.join(__dirname, f));
  return new Promise((resolve, reject) => {
    try {
      // Each file's time, for `npm test`'s closing table (scripts/test-all.mjs via test-host.mjs): from its
      // first top-level suite's start to its last one's end.
      const fileTimes = new Map<string, { start: number; end: number }>();
      const runner = mocha.run(() => {
        for (const [file, t] of fileTimes) log(`suite time: ${path.basename(file)} ${t.end - t.start} ms`);
        const { passes = 0, failures = 0, tests = 0 } = runner.stats ?? {};
        log(`${passes} passed, ${failures} failed`);
        if (failures > 0) reject(new Error(`${failures} extension-host test(s) failed`));
        else if (tests === 0) reject(new Error('no extension-host test ran'));
        else resolve();
      });
      runner.on('suite', (s) => {
        if (!s.file || !s.parent?.root) return;
        const t = fileTimes.get(s.file);
        if (t) t.end = Date.now();
        else fileTimes.set(s.file, { start: Date.now(), end: Date.now() });
      });
      runner.on('suite end', (s) => {
        const t = s.file && s.parent?.root ? fileTimes.get(s.file) : undefined;
        if (t) t.end = Date.now();
      });
    } catch (e) {
      reject(e instanceof Error ? e : new Error(String(e)));
    }
  });
}
